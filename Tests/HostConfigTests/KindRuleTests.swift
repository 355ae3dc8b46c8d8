import Foundation
import Testing
import TestSupport
import HostTestSupport
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

    /// KWin lower-cases an X11 window's class (xprop's XTerm is xterm): a rule written either way matches it.
    @Test(arguments: [
        ("XTerm", "xterm", true), ("xterm", "XTerm", true), ("org.gnome.Calculator", "org.gnome.calculator", true),
        ("ORG.KDE.*", "org.kde.kcalc", true), ("Org.?de.*", "org.KDE.kcalc", true), ("XTerm", "xterm2", false), ("Ä*", "äb", true),
    ])
    func aPatternMatchesNamesInAnyCase(pattern: String, name: String, matches: Bool) {
        #expect(SegueConfig.NamePattern(pattern).matches(name) == matches)
    }

    @Test func aWindowRuleWrittenAsXpropSaysItMatchesTheNameKWinGives() throws {
        let delegate = try Self.delegate(#"{"rules": [{"disappear": "*", "animator": "A"}, {"disappear": "XTerm", "animator": "B"}, {"disappear": "xterm", "animator": "C"}]}"#)
        #expect(delegate.rule(for: .presenting(.disappear, view: "xterm"))?.animator == "B", "an exact name in any case, the first in the file among equals")
        #expect(delegate.explain(.presenting(.disappear, view: "xterm")).beaten.map(\.label) == ["rules[0]", "rules[2]"])
        // Switches name a config's own children, exactly.
        let switches = try Self.delegate(#"{"children": ["a", "b"], "rules": [{"to": "b", "animator": "A"}]}"#)
        #expect(switches.rule(from: "a", to: "B") == nil)
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

    /// Pop declares appearances and disappearances only: chosen for a switch,
    /// by a rule or by the program, the delegate answers with the built-in
    /// default at once, so that explain says what a run does; chosen for a
    /// kind it plays, it runs, and explain says how when not as written.
    @Test func anAnimatorThatCannotPlayTheKindFallsBackWhenChosen() throws {
        let config = try SegueConfig.parse(Data(#"""
            {"rules": [{"to": "video", "animator": "Pop"}, {"appear": "*", "animator": "Pop"}, {"disappear": "*", "animator": "CurlUp"}]}
            """#.utf8), file: "/cfg/segue.json", baseDirectory: "/cfg")
        let delegate = ConfigDrivenDelegate(config: config, registry: bundledRegistry)
        let refused = #"rules[0] (to "video") names Pop, which plays only appearances and disappearances, not a switch; the built-in default ran instead"#

        let switching = delegate.resolve(from: "photo", to: "video")
        #expect(switching.animator == nil && switching.fellBack && switching.reason == refused, "\(switching.reason)")
        let explained = delegate.explain(from: "photo", to: "video")
        #expect((explained.animator, explained.file, explained.reason, explained.played) == ("default", nil, refused, "as written"))
        #expect(explained.fallbacks.isEmpty, "nothing of Pop's can fail: it never runs")

        let appearing = delegate.resolve(.presenting(.appear, view: "org.kde.kcalc"))
        #expect(appearing.animator?.name == "Pop" && !appearing.fellBack, "\(appearing.reason)")
        let closing = delegate.explain(.presenting(.disappear, view: "org.kde.kcalc"))
        #expect((closing.animator, closing.played) == ("CurlUp", "as a switch to a transparent stand-in"))

        let chosen = delegate.resolve(animator: "Pop", for: .switch, parameters: [:], why: "the program's choice")
        #expect(chosen.animator == nil && chosen.fellBack)
        #expect(chosen.reason == "the program's choice names Pop, which plays only appearances and disappearances, not a switch; the built-in default ran instead")
        #expect(delegate.resolve(animator: "Pop", for: .disappear, parameters: [:], why: "the program's choice").animator?.name == "Pop")
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
        #expect(explained.out.hasPrefix("org.kde.kcalc disappearing: default (built-in)\n  config:     segue.json\n  rule:       rules[0] (disappear \"org.*\")"),
                "\(explained.out) \(explained.err)")
        // A pattern that differs only in case is the same pattern.
        try #"{"rules": [{"appear": "XTerm", "animator": "default"}, {"appear": "xterm", "animator": "default"}]}"#
            .write(toFile: folder + "/cased.json", atomically: true, encoding: .utf8)
        let cased = try run(Paths.segue, ["check", "--config", "cased.json"], in: folder)
        #expect(cased.out.contains(#"$.rules[1].appear: this rule can never win for the appearance of "xterm": rules[0] has the same pattern and comes first"#),
                "\(cased.out)")
        let usage = try run(Paths.segue, ["explain", "--kind", "appear", "a", "b"], in: folder)
        #expect(usage.status == 2 && usage.err.contains("--kind appear takes one VIEW"))
    }
}
