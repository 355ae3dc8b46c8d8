import Foundation
import Glibc
import Testing
import TestSupport

/// The ABI's growth rule on the plugin side: a struct whose `struct_size`
/// covers every member the host requires loads and plays, what it leaves off
/// reads as absent (an optional `end` past the size is never called), and a
/// smaller one is refused, naming the struct and both sizes. The fixture's
/// CUT_BACK declares each struct as small as the rule allows, as a plugin
/// built before a member was appended does.
@Suite struct GrowthRuleTests {
    @Test(arguments: ["strict", "off"])
    func structsCutBackToTheirRequiredMembersLoadAndPlay(_ sandbox: String) throws {
        let (folder, file) = try CPlugin.fixture("cut-back-\(sandbox)", "CUT_BACK")
        let config = try IsolationTests.config(pluginsIn: folder)
        let environment = ["SEGUE_SANDBOX": sandbox]
        let list = try runSegue(["list", "--json", "--config", config], environment: environment)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any], "\(list.err)")
        let animator = try #require((listing["animators"] as? [[String: Any]])?.first { $0["name"] as? String == "TestFade" },
                                    "listed: \(list.out)")
        #expect((animator["parameters"] as? [[String: Any]])?.map { $0["name"] as? String } == ["level"])
        #expect((listing["rejected"] as? [Any])?.isEmpty != false, "\(list.out)")

        let played = try runSegue(["run", "--json", "--config", config], environment: environment)
        let reports = try jsonLines(played.out)
        #expect(played.status == 0, "\(played.err)")
        #expect([reports[0]["animator"], reports[2]["animator"]].map { $0 as? String } == ["TestFade", "TestFade"],
                "end, past the struct's size, was never called (it crashes): \(reports.map { $0["reason"] ?? "" })")

        let validated = try run(Paths.segue, ["validate", file], environment: environment)
        #expect(validated.status == 0, "segue validate: \(validated.out) \(validated.err)")
    }

    @Test func aStructSmallerThanItsRequiredMembersIsRefusedWithBothSizes() throws {
        let (folder, file) = try CPlugin.fixture("too-small", "ANIMATOR_STRUCT_SIZE=40")
        let list = try runSegue(["list", "--json", "--config", try IsolationTests.config(pluginsIn: folder)])
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
        let rejected = listing["rejected"] as? [[String: String]] ?? []
        #expect(rejected.map { $0["file"] } == [file])
        #expect(rejected.first?["reason"]?.contains("animators[0] (segue_animator_t).struct_size is 40, expected at least 80") == true,
                "\(rejected)")
    }
}
