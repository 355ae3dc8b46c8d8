import Foundation
import Testing
import TestSupport
import Timing
@testable import HostConfig
@testable import PluginHost

/// Rules for a view's appearance and disappearance: names and glob patterns,
/// the most specific winning, ties going to the first in the file, and
/// every mistake named by its key path.
@Suite struct KindRuleTests {
    static func delegate(_ json: String) throws -> ConfigDrivenDelegate {
        let config = try SegueConfig.parse(Data(json.utf8), file: "/cfg/segue.json", baseDirectory: "/cfg")
        return ConfigDrivenDelegate(config: config, registry: AnimatorRegistry(folders: [], isolation: .none))
    }

    @Test(arguments: [
        ("org.gnome.*", "org.gnome.Calculator", true), ("org.gnome.*", "org.gnome.", true), ("org.gnome.*", "org.kde.kcalc", false),
        ("*", "", true), ("*.Calculator", "org.gnome.Calculator", true), ("org.?de.*", "org.kde.kcalc", true),
        ("org.?de.*", "org.de.kcalc", false), ("kcalc", "kcalc", true), ("kcalc", "kcalc2", false), ("a*b*c", "aXbYbZc", true),
        ("a*b*c", "aXbYbZ", false),
    ])
    func aPatternMatchesAsAShellGlobDoes(pattern: String, name: String, matches: Bool) {
        #expect(SegueConfig.NamePattern(pattern).matches(name) == matches)
    }

    @Test func theMostSpecificRuleWinsAndTiesGoToTheFirstInTheFile() throws {
        let delegate = try Self.delegate("""
            {"rules": [
              {"appear": "*", "animator": "A"},
              {"appear": "org.gnome.*", "animator": "B"},
              {"appear": "org.*.Calculator", "animator": "C"},
              {"appear": "org.gnome.Calculator", "animator": "D"},
              {"appear": "org.kde.*", "disappear": "org.kde.*", "animator": "E"},
              {"appear": "org*kcalc", "animator": "F"},
              {"disappear": "*", "animator": "G"},
              {"from": "photo", "animator": "H"}
            ]}
            """)
        func winner(_ kind: TransitionKind, _ view: String) -> String? { delegate.rule(for: .presenting(kind, view: view))?.animator }
        #expect(winner(.appear, "org.gnome.Calculator") == "D", "an exact name beats any pattern")
        #expect(winner(.appear, "org.gnome.Weather") == "B")
        #expect(winner(.appear, "org.xfce.Calculator") == "C", "more characters that are not wildcards win")
        #expect(winner(.appear, "org.kde.kcalc") == "E", "as specific as F (8 characters against 8): the first in the file")
        #expect(winner(.appear, "xterm") == "A")
        #expect(winner(.disappear, "org.kde.kcalc") == "E" && winner(.disappear, "xterm") == "G")
        #expect(delegate.rule(from: "photo", to: "video")?.animator == "H", "switch rules match switches only")
        #expect(winner(.appear, "photo") == "A", "and appearance rules appearances only")

        let explained = delegate.explain(.presenting(.appear, view: "org.kde.kcalc"))
        #expect(explained.rule == #"rules[4] (appear "org.kde.*", disappear "org.kde.*")"#)
        #expect(explained.beaten.map(\.label) == ["rules[0]", "rules[5]"])
        #expect(explained.beaten.map(\.why) == ["less specific", "as specific, but later in the file"])
        #expect(explained.kind == .appear && explained.to == "org.kde.kcalc")
    }

    @Test(arguments: [
        (#"{"rules": [{"appear": "", "animator": "X"}]}"#, "$.rules[0].appear",
         #"a view's name, or a pattern where * is any characters and ? one ("org.gnome.*")"#, #"the string """#),
        (#"{"rules": [{"disappear": 3, "animator": "X"}]}"#, "$.rules[0].disappear",
         #"a view's name, or a pattern where * is any characters and ? one ("org.gnome.*")"#, "the number 3"),
        (#"{"rules": [{"to": "video", "appear": "*", "animator": "X"}]}"#, "$.rules[0].appear",
         "a rule for switches ('from', 'to') or for a view's appearance and disappearance ('appear', 'disappear'), not both",
         "both ('to' and 'appear'); write two rules"),
    ])
    func aMistakeInAKindRuleIsNamed(json: String, keyPath: String, expected: String, found: String) {
        do {
            _ = try SegueConfig.parse(Data(json.utf8), file: "/cfg/segue.json", baseDirectory: "/cfg")
            Issue.record("\(json) should be rejected")
        } catch {
            #expect((error.keyPath, error.expected, error.found) == (keyPath, expected, found))
        }
    }

    @Test func checkWarnsOfAPatternAnEarlierRuleHasAndExplainSaysWhoWins() throws {
        let folder = makeTemporaryFolder("kind-check")
        try #"{"rules": [{"disappear": "org.*", "animator": "default"}, {"appear": "x", "disappear": "org.*", "animator": "default"}]}"#
            .write(toFile: folder + "/segue.json", atomically: true, encoding: .utf8)
        let checked = try run(Paths.segue, ["check", "--config", "segue.json"], in: folder)
        #expect(checked.status == 0, "a warning only")
        #expect(checked.out.contains(#"$.rules[1].disappear: this rule can never win for the disappearance of "org.*": rules[0] has the same pattern and comes first"#),
                "\(checked.out)")
        let explained = try run(Paths.segue, ["explain", "--kind", "disappear", "org.kde.kcalc", "--config", "segue.json"], in: folder)
        #expect(explained.out.hasPrefix("org.kde.kcalc disappearing: default (built-in)\n  rule:       rules[0] (disappear \"org.*\")"),
                "\(explained.out) \(explained.err)")
        let usage = try run(Paths.segue, ["explain", "--kind", "appear", "a", "b"], in: folder)
        #expect(usage.status == 2 && usage.err.contains("--kind appear takes one VIEW"))
    }
}
