import Foundation
import TestSupport
import Testing

/// A plugin file with several animators, as the ABI allows and the guide
/// shows: each of them plays through a worker, the default way plugins run,
/// whether the sandbox is strict or off: in `segue run`, `segue preview` and
/// `segue validate` (libsegue's side is in `LibsegueTests`).
struct SeveralAnimatorsTests {
    /// The C fixture built with its second animator, `SecondFade`, beside `TestFade`.
    static func plugin() throws -> (folder: String, file: String) {
        try CPlugin.fixture("two-animators", "FIXTURE_TWO_ANIMATORS")
    }

    @Test(arguments: ["strict", "off"])
    func eachAnimatorOfTheFilePlaysInItsWorker(sandbox: String) throws {
        let (folder, file) = try Self.plugin()
        try """
        {"plugins": ["\(folder)"], "children": ["a", "b", "c"],
         "rules": [{"to": "b", "animator": "TestFade"}, {"to": "c", "animator": "SecondFade"}]}
        """.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        let played = try runSegue(["run", "--config", folder + "/segue.json", "--sandbox", sandbox, "--json"])
        #expect(played.status == 0, "\(played.err)")
        let lines = try jsonLines(played.out)
        #expect(lines.map { $0["animator"] as? String } == ["TestFade", "SecondFade"], "\(played.out)")
        #expect(lines.map { $0["source"] as? String } == ["plugin", "plugin"], "\(played.out)")
        #expect(lines.map { $0["fellBack"] as? Bool } == [false, false], "\(played.out)")
        #expect(lines.allSatisfy { ($0["file"] as? String)?.hasSuffix(file) ?? true }, "\(played.out)")
    }

    @Test(arguments: ["strict", "off"])
    func eachAnimatorOfTheFilePreviews(sandbox: String) throws {
        let (folder, _) = try Self.plugin()
        for name in ["TestFade", "SecondFade"] {
            let out = makeTemporaryFolder("preview") + "/\(name).png"
            let drawn = try runSegue(["preview", name, "--plugins", folder, "--sandbox", sandbox, "--scale", "0.1",
                                      "--out", out, "--json"])
            #expect(drawn.status == 0, "\(drawn.err)")
            let summary = try #require(try jsonLines(drawn.out).first, "\(drawn.out)")
            #expect(summary["animator"] as? String == name, "played by \(name), not the default: \(drawn.out)")
            #expect(!withoutSlowEvaluationWarnings(drawn.err).contains("warning"), "\(drawn.err)")
            #expect(FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func validateChecksEachAnimatorOfTheFile() throws {
        let (_, file) = try Self.plugin()
        let result = try run(Paths.segue, ["validate", file, "--json"], in: makeTemporaryFolder())
        #expect(result.status == 0, "\(result.out)\n\(result.err)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let checks = try #require(doc["checks"] as? [[String: String]])
        for name in ["TestFade", "SecondFade"] {
            let matrix = checks.first { $0["name"] == "\(name): setup over the context matrix" }
            #expect(matrix?["status"] == "pass" && matrix?["message"]?.contains("animated") == true, "\(checks)")
        }
        #expect(doc["passed"] as? Bool == true)
    }
}
