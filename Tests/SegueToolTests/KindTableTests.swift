import Foundation
import HostContainer
import TestSupport
import Testing
import Timing

/// docs/abi.md's table of how an animator plays each kind of transition, by
/// the kinds it declares, is ``KindPlayback/way(kinds:playing:)`` itself:
/// the test renders the table from the code and finds it in the page, so
/// the page cannot say one thing while list, explain and run do another.
@Suite struct KindTableTests {
    /// Every set of kinds an animator can declare, those with switches first,
    /// as a Markdown table of how it plays each kind.
    static func table() -> String {
        let sets = (1...TransitionKinds.all.rawValue).map(TransitionKinds.init(rawValue:))
            .sorted { ($0.contains(.switch) ? 0 : 1, $0.rawValue) < ($1.contains(.switch) ? 0 : 1, $1.rawValue) }
        var lines = ["| declared in `kinds` | a switch | an appearance | a disappearance |", "|---|---|---|---|"]
        for kinds in sets {
            let declared = kinds == .switches ? "switch (0, and every animator before 1.3)" : "\(kinds)"
            let ways = TransitionKind.allCases.map { KindPlayback.way(kinds: kinds, playing: $0).description }
            lines.append("| \(declared) | \(ways.joined(separator: " | ")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theABIPageHasTheTableTheCodeMakes() throws {
        let page = try String(contentsOfFile: Paths.packageRoot + "/docs/abi.md", encoding: .utf8)
        let table = Self.table()
        #expect(table.split(separator: "\n").count == 9, "a header, a rule, and seven sets of kinds")
        #expect(page.contains(table), "docs/abi.md's table under \"Kinds of transition\" is stale; expected:\n\(table)")
    }
}
