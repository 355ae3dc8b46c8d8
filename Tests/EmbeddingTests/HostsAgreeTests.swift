import Foundation
import Glibc
import Testing
import TestSupport
import HostTestSupport

/// The hosts behave alike for the same config: a C program on libsegue, the
/// Python package and the GTK widget, each following the standard config
/// (XDG_CONFIG_HOME/segue/segue.json) as a desktop's host does, play the
/// same animator for the same switch from "a" to "b", say whether it fell
/// back and why in the same words, for a rule naming a plugin, a rule
/// naming an animator no plugin provides, a broken config and none.
@Suite(.serialized, .enabled(if: GtkBuild.problem == nil && PythonPackageTests.hasPython, "\(GtkBuild.problem ?? "skipped: needs python3 (apt-get install python3; .ci/run does)")"))
struct HostsAgreeTests {
    static let cases: [(name: String, config: String?)] = [
        ("a rule naming a plugin", #"{"rules": [{"to": "b", "animator": "SpringSlide"}]}"#),
        ("a rule naming an unknown animator", #"{"rules": [{"to": "b", "animator": "Nope"}]}"#),
        ("a broken config", #"{"rules": [{"to": "b", "animator": "#),
        ("no config", nil),
    ]

    /// A config home holding `config` as segue/segue.json (nil: not even the folder).
    static func home(_ config: String?) throws -> String {
        let home = makeTemporaryFolder("hosts-config")
        if let config {
            try FileManager.default.createDirectory(atPath: home + "/segue", withIntermediateDirectories: true)
            try config.write(toFile: home + "/segue/segue.json", atomically: true, encoding: .utf8)
        }
        return home
    }

    /// What a host answered: the animator, whether the default ran instead, and why; and what its player said
    /// as it started (each event's kind and words: "log", "config-error"...; GTK's, its warnings).
    struct Choice: Equatable {
        var chosen: [String]
        var events: [String]
    }

    /// A host's `chosen|...` line and its `event|KIND|MESSAGE` lines.
    static func choice(_ output: String, kinds: [String: String] = [:]) throws -> Choice {
        let lines = output.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let chosen = try #require(lines.first { $0.first == "chosen" }, "\(output)")
        let events = lines.filter { $0.first == "event" && $0.count >= 3 }.map { (kinds[$0[1]] ?? $0[1]) + ": " + $0[2...].joined(separator: "|") }
        return Choice(chosen: Array(chosen.dropFirst()), events: events)
    }

    /// libsegue through a C program (Tests/Fixtures/embedding/chosen.c).
    static func c(_ home: String) throws -> Choice {
        let program = try InstalledLibsegue.program("chosen")
        let ran = try run(program, [], environment: ["XDG_CONFIG_HOME": home, "XDG_DATA_HOME": makeTemporaryFolder("hosts-data")],
                          unsetting: ["SEGUE_PLUGIN_PATH", "SEGUE_CONFIG"], timeout: 60)
        try #require(ran.status == 0, "\(ran.out)\(ran.err)")
        return try choice(ran.out, kinds: ["0": "log", "1": "reloaded", "2": "config-error", "3": "fell-back"])
    }

    /// The Python package, its player following the standard config.
    static func python(_ home: String) throws -> Choice {
        let prefix = try InstalledLibsegue.prefix.get()
        let script = """
            import segue
            with segue.Player(standard_config=True) as player:
                for event in player.dispatch():
                    print(f"event|{event.kind.value}|{event.message}")
                transition = player.begin(segue.View("a", (0, 0, 320, 480)), segue.View("b", (0, 0, 320, 480)), (320, 480))
                plan = transition.plan
                print(f"chosen|{plan.animator}|{int(plan.fell_back)}|{plan.reason}")
                transition.close()
            """
        let ran = try run(PythonPackageTests.python, ["-c", script],
                          environment: ["PYTHONPATH": PythonPackageTests.package, "SEGUE_LIBRARY": prefix + "/lib/libsegue.so.1", "PATH": "/usr/bin:/bin",
                                        "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": makeTemporaryFolder("hosts-data")],
                          unsetting: ["SEGUE_PLUGIN_PATH", "SEGUE_CONFIG"], timeout: 60)
        try #require(ran.status == 0, "\(ran.out)\(ran.err)")
        return try choice(ran.out)
    }

    /// The GTK widget (Tests/Fixtures/gtk/contract.c's "config"): its transition-finished signal, and its
    /// standard error (where it warns of a config error).
    static func gtk(_ home: String) throws -> (chosen: [String], err: String) {
        let program = try GtkBuild.program("contract")
        let display = try VirtualDisplay()
        let ran = try run("/usr/bin/env", GtkBuild.alone(program, ["config"], display: display.name,
                                                         ["XDG_CONFIG_HOME": home, "XDG_DATA_HOME": makeTemporaryFolder("hosts-data")]), timeout: 90)
        try #require(ran.status == 0, "\(ran.out)\(ran.err)")
        // finished|FROM|TO|ANIMATOR|COMPLETED|FELL_BACK|REASON
        let finished = try #require(ran.out.split(separator: "\n").first { $0.hasPrefix("finished|") }, "\(ran.out)")
            .split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        try #require(finished.count == 7 && finished[4] == "1", "\(finished)")
        return ([finished[3], finished[5], finished[6]], ran.err)
    }

    @Test func theCProgramThePythonPackageAndTheGtkWidgetChooseAlike() throws {
        var seen: [String] = []
        for (name, config) in Self.cases {
            let home = try Self.home(config)
            let c = try Self.c(home), python = try Self.python(home), gtk = try Self.gtk(home)
            seen.append("\(name): \(c.chosen) \(c.events)")
            #expect(python == c, "\(name): Python \(python), C \(c)")
            #expect(gtk.chosen == c.chosen, "\(name): GTK \(gtk.chosen), C \(c.chosen)")
            let chosen = c.chosen
            switch name {
            case "a rule naming a plugin": #expect(chosen == ["SpringSlide", "0", #"rules[0] (to "b")"#], "\(c)")
            case "a rule naming an unknown animator": #expect(chosen.first == "default" && chosen[1] == "1" && chosen[2].contains("'Nope'"), "\(c)")
            case "a broken config":
                // No rules (the built-in default plays), and each host says why, naming the file.
                #expect(chosen.first == "default" && chosen[1] == "0", "\(c)")
                let error = try #require(c.events.first { $0.hasPrefix("config-error: ") }, "\(c)")
                #expect(error.contains(home + "/segue/segue.json:1:"), "\(error)")
                #expect(gtk.err.contains(String(error.dropFirst("config-error: ".count))), "GTK warns of it: \(gtk.err)")
            default:
                #expect(chosen.first == "default" && chosen[1] == "0", "\(c)")
                #expect(c.events.contains { $0.hasPrefix("log: segue: no config at \(home)/segue/segue.json") }, "\(c)")
            }
        }
        print("what each host plays (C, Python and GTK alike): \(seen.joined(separator: "; "))")
    }
}
