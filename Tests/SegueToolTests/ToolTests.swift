import Foundation
import TestSupport
import Testing

@testable import HostContainer

/// The `segue` command-line tool, run as a person or a script would run it.
struct ToolTests {
    @Test func runOnTheBuiltinSceneShowsEveryBundledAnimatorAndTheDefault() throws {
        let result = try run(Paths.segue, ["run", "--json"], in: makeTemporaryFolder())
        #expect(result.status == 0, "\(result.err)")
        let lines = try jsonLines(result.out)
        #expect(lines.count == 11)
        let animators = Set(lines.compactMap { $0["animator"] as? String })
        #expect(animators == ["SpringSlide", "CurlUp", "ImageZoom", "Pop", "default"])
        for line in lines {
            for key in ["from", "to", "animator", "source", "reason", "duration", "frames", "completed", "shown", "interactive"] {
                #expect(line[key] != nil, "key \(key) in \(line)")
            }
            let plugin = line["source"] as? String == "plugin"
            #expect(plugin == (line["animator"] as? String != "default"))
            if plugin { #expect((line["file"] as? String)?.hasSuffix(".so") == true) }
        }
        // The scene's way back from the detail is interactive: cancelled once, then finished; then a window opens and closes.
        #expect(lines.map { $0["completed"] as? Bool } == [true, true, true, true, true, true, false, true, true, true, true])
        #expect(lines.map { $0["shown"] as? String }
                == ["video", "file", "contact", "clipboard", "grid", "detail", "detail", "grid", "photo", "calculator", "photo"])
        #expect(lines.map { $0["interactive"] as? Bool } == [false, false, false, false, false, false, true, true, false, false, false])
        #expect(lines.map { $0["kind"] as? String } == Array(repeating: "switch", count: 9) + ["appear", "disappear"])
        #expect(lines.suffix(2).map { $0["animator"] as? String } == ["Pop", "CurlUp"])
        let zoom = try #require(lines.first { $0["from"] as? String == "grid" && $0["to"] as? String == "detail" })
        #expect(zoom["animator"] as? String == "ImageZoom" && zoom["duration"] as? Double == 0.3 && zoom["frames"] as? Int == 19)
    }

    @Test func runPrintsAReadableLinePerTransition() throws {
        let result = try run(Paths.segue, ["run"], in: makeTemporaryFolder())
        #expect(result.status == 0)
        #expect(result.out.contains("video -> file: CurlUp (plugin "))
        #expect(result.out.contains("contact -> clipboard: default (built-in), 1.000 s, 61 frames, completed\n    why: no rule matches contact -> clipboard and no defaultAnimator is set"))
    }

    /// The issue's acceptance check: CurlUp and SpringSlide from plugins; an
    /// unknown name and ImageZoom between children that share nothing fall back.
    @Test func runWithAConfigReportsPluginsAndFallbacks() throws {
        let folder = makeTemporaryFolder()
        try """
        {"plugins": ["\(Paths.binFolder)"],
         "children": ["one", "two", "three", "four", "five"],
         "rules": [{"to": "two", "animator": "CurlUp"}, {"to": "three", "animator": "SpringSlide"},
                   {"to": "four", "animator": "Wobble"}, {"to": "five", "animator": "ImageZoom"}]}
        """.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["run", "--config", folder + "/segue.json", "--json"])
        #expect(result.status == 0, "\(result.err)")
        let lines = try jsonLines(result.out)
        #expect(lines.map { $0["animator"] as? String } == ["CurlUp", "SpringSlide", "default", "default"])
        #expect(lines.map { $0["source"] as? String } == ["plugin", "plugin", "builtin", "builtin"])
        #expect(lines.map { $0["fellBack"] as? Bool } == [false, false, true, true])
        #expect((lines[2]["reason"] as? String)?.contains("'Wobble', which no loaded plugin provides") == true)
        #expect(lines[3]["reason"] as? String == "ImageZoom declined: the from view 'four' and the to view 'five' share no named element; the built-in default ran instead")
    }

    /// The issue's acceptance check for `list`.
    @Test func listShowsThePluginsAndRejectsWhatIsNotAPlugin() throws {
        let folder = makeTemporaryFolder()
        for name in ["SpringSlide", "CurlUp", "ImageZoom", "Pop"] {
            try FileManager.default.copyItem(atPath: Paths.plugin(name), toPath: folder + "/lib\(name).so")
        }
        try FileManager.default.copyItem(atPath: try systemLibrary(), toPath: folder + "/libz-copy.so")
        try "not a library".write(toFile: folder + "/x.so", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["list", "--plugins", folder, "--json"])
        #expect(result.status == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let animators = try #require(doc["animators"] as? [[String: Any]])
        #expect(Set(animators.compactMap { $0["name"] as? String }) == ["SpringSlide", "CurlUp", "ImageZoom", "Pop"])
        #expect(animators.allSatisfy { ($0["file"] as? String)?.hasPrefix(folder + "/") == true }, "the folder named first wins")
        for a in animators {
            #expect(a["id"] is String && a["file"] is String && a["version"] is String && a["parameters"] is [Any])
        }
        let rejected = try #require(doc["rejected"] as? [[String: String]])
        #expect(rejected.map { ($0["file"]! as NSString).lastPathComponent }
                == ["libz-copy.so", "x.so", "libCurlUp.so", "libImageZoom.so", "libPop.so", "libSpringSlide.so"])
        #expect(rejected[0]["reason"]!.hasPrefix("no entry point"))
        #expect(rejected[1]["reason"]!.hasPrefix("not a shared library"))
        for bundled in rejected[2...] {
            #expect(bundled["file"]!.hasPrefix(Paths.binFolder + "/"))
            #expect(bundled["reason"]!.hasPrefix("duplicate id"), "the bundled copies lose, and say to whom")
        }
    }

    @Test func aBadConfigFailsWithExitCode1AndAMessageNamingTheKey() throws {
        let folder = makeTemporaryFolder()
        try #"{"rules": [{"to": "video", "animator": 3}]}"#.write(toFile: folder + "/bad.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["run", "--config", folder + "/bad.json"])
        #expect(result.status == 1)
        #expect(result.err == "segue: \(folder)/bad.json:1:28: $.rules[0].animator: expected a non-empty string, found the number 3\n")
        #expect(result.out.isEmpty)
    }

    @Test func aScriptNamingAChildThatDoesNotExistFailsWithExitCode1() throws {
        let folder = makeTemporaryFolder()
        try #"{"script": ["video", "podcast"]}"#.write(toFile: folder + "/s.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["run", "--config", folder + "/s.json", "--plugins", Paths.binFolder, "--json"])
        #expect(result.status == 1)
        #expect(result.out.isEmpty, "the config is checked before anything plays")
        #expect(result.err == "segue: \(folder)/s.json:1:22: $.script[1]: expected the name of a child (photo, video, file, contact, clipboard, grid, detail), found the string \"podcast\"\n",
                "without children, names are checked against the built-in scene's")
    }

    @Test(arguments: [["run", "--bogus"], ["frobnicate"], ["run", "--config"], ["list", "extra"], []])
    func usageMistakesExitWith2(arguments: [String]) throws {
        let result = try run(Paths.segue, arguments)
        #expect(result.status == 2)
    }

    /// Options that would do nothing in a combination are mistakes, each
    /// pointing to its command's help.
    @Test(arguments: [
        (["run", "--scale", "2"], "--scale only works with --preview", "run"),
        (["run", "--print-config", "--config", "x.json"], "--print-config cannot be combined with --config", "run"),
        (["preview", "CurlUp", "--frames", "3"], "--frames only works with a .png filmstrip (--out FILE.png, without --animated)", "preview"),
        (["preview", "CurlUp", "--out", "x.png", "--fps", "30"], "--fps only works with an animation (--out FILE.gif, FILE.mp4, FILE.webm, or FILE.png with --animated)", "preview"),
        (["list", "--names", "--json"], "--names cannot be combined with --json", "list"),
        (["validate", "x.so", "--in-process", "--timeout", "3"], "--in-process cannot be combined with --timeout", "validate"),
        (["list", "--json=yes"], "--json takes no value", "list"),
        (["validate"], "validate needs a .so file", "validate"),
        (["preview", "A", "B"], "unexpected argument 'B'", "preview"),
        (["run", "--bogus"], "unknown option '--bogus'", "run"),
        (["list", "--config", "a.json", "--config=b.json"], "--config may be given once", "list"),
        // A value is checked by the parser against the option's declaration: its type, range and choices.
        (["validate", "x.so", "--strictness", "2.5"], "--strictness 2.5: expected a whole number from 1 to 10", "validate"),
        (["validate", "x.so", "--context=-1"], "--context -1: expected a whole number, 0 or more", "validate"),
        (["preview", "CurlUp", "--fps", "500"], "--fps 500: expected a number from 1 to 120", "preview"),
        (["show", "--scale", "nan"], "--scale nan: expected a number from 0.25 to 4", "show"),
        (["list", "--isolation", "sometimes"], "--isolation sometimes: expected process or none", "list"),
        (["show", "--graphics", "ascii"], "--graphics ascii: expected one of kitty, sixel, half-blocks", "show"),
        (["run", "--plugin-threads", "3"], "--plugin-threads 3: expected a whole number from 8 to 4096", "run"),
    ])
    func ignoredOptionsAndMistakesAreUsageErrorsThatPointToTheCommandsHelp(arguments: [String], message: String, command: String) throws {
        let result = try run(Paths.segue, arguments)
        #expect(result.status == 2)
        #expect(result.err == "segue: \(message)\nRun 'segue \(command) --help' for usage.\n")
    }

    @Test(arguments: [["--help"], ["-h"], ["help", "run"], ["preview", "CurlUp", "--help"]])
    func helpIsEverywhereAndExits0(arguments: [String]) throws {
        let result = try run(Paths.segue, arguments)
        #expect(result.status == 0 && result.out.hasPrefix("USAGE: segue"))
    }

    /// The commands `segue --help` lists: the command table's, every one.
    static func commands() throws -> [String] {
        let help = try run(Paths.segue, ["--help"]).out
        let section = try #require(help.components(separatedBy: "COMMANDS:\n").dropFirst().first?.components(separatedBy: "\n\n").first)
        return section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "help" }
    }

    @Test func everyCommandHasItsOwnHelpWhichExits0() throws {
        for command in try Self.commands() {
            for asked in [[command, "--help"], [command, "-h"], ["help", command]] {
                let result = try run(Paths.segue, asked)
                #expect(result.status == 0 && result.out.hasPrefix("USAGE: segue \(command)"), "segue \(asked.joined(separator: " "))")
            }
        }
    }

    /// Every option the parser accepts (the completions are generated from
    /// the same table) is in its command's --help.
    @Test func everyCommandsHelpListsAllItsOptions() throws {
        let bash = try run(Paths.segue, ["completions", "bash"]).out
        let commands = try Self.commands()
        #expect(commands.count >= 9, "\(commands)")
        for command in commands {
            let rest = try #require(bash.components(separatedBy: "\n    \(command))\n").dropFirst().first)
            let section = try #require(rest.components(separatedBy: "\n        ;;\n").first)
            let afterValues = try #require(section.components(separatedBy: "esac").last)
            let offered = try #require(afterValues.components(separatedBy: "compgen -W \"").dropFirst().first?.components(separatedBy: "\"").first)
            let help = try run(Paths.segue, [command, "--help"]).out
            for option in offered.split(separator: " ") {
                #expect(help.contains("  \(option)"), "segue \(command) --help lists \(option)")
            }
        }
    }

    /// Each help is laid out from the table: its synopsis names every
    /// option it lists, repeatable ones marked, and no line is wider than a terminal.
    @Test func everyHelpFitsEightyColumnsAndItsSynopsisNamesEachOption() throws {
        for command in try Self.commands() {
            let help = try run(Paths.segue, [command, "--help"]).out
            let wide = help.split(separator: "\n").filter { $0.count > 80 }
            #expect(wide.isEmpty, "segue \(command) --help: \(wide)")
            let synopsis = help.components(separatedBy: "\n\n")[0]
            let listed = help.components(separatedBy: "OPTIONS:\n").last!.split(separator: "\n")
                .compactMap { $0.hasPrefix("  --") ? $0.dropFirst(2).split(separator: " ").first.map(String.init) : nil }
            #expect(!listed.isEmpty)
            for option in listed where option != "--help" {
                #expect(synopsis.contains("[\(option)"), "segue \(command)'s synopsis names \(option)")
            }
        }
        let preview = try run(Paths.segue, ["preview", "--help"]).out
        #expect(preview.contains("[--plugins DIR]...") && preview.contains("[--param NAME=VALUE]...") && preview.contains("[--out FILE]"))
    }

    @Test func optionsGoAnywhereWithEqualsOrSpaceAndDoubleDashEndsThem() throws {
        let folder = makeTemporaryFolder()
        let before = try run(Paths.segue, ["validate", "--json", "--strictness=1", Paths.plugin("CurlUp")], in: folder)
        #expect(before.status == 0, "\(before.err)")
        #expect((try JSONSerialization.jsonObject(with: Data(before.out.utf8)) as? [String: Any])?["passed"] as? Bool == true)
        let preview = try run(Paths.segue, ["preview", "--out=x.png", "--scale=0.1", "CurlUp", "--frames", "2", "--json"], in: folder)
        #expect(preview.status == 0, "\(preview.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/x.png"))
        let dashed = try run(Paths.segue, ["validate", "--", "-not-an-option.so"], in: folder)
        #expect(dashed.status == 1, "after --, '-not-an-option.so' is the plugin file, which does not exist: \(dashed.err)")
    }

    @Test func theEmbeddingExampleRunsItsAppAnimatorAPluginAndTheDefault() throws {
        let result = try run(Paths.binFolder + "/EmbeddingExample", [])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == """
            now showing settings
            home -> settings: Crossfade, 16 frames (the app crossfades into settings)
            now showing notes
            settings -> notes: CurlUp, 25 frames (notes curl up)
            now showing home
            notes -> home: default, 61 frames (the app has no preference)

            """)
    }

    @Test func printConfigPrintsTheBuiltinSceneAsAConfigThatRuns() throws {
        let folder = makeTemporaryFolder()
        let printed = try run(Paths.segue, ["run", "--print-config"])
        try printed.out.write(toFile: folder + "/scene.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["run", "--config", folder + "/scene.json", "--plugins", Paths.binFolder, "--json"])
        #expect(result.status == 0)
        #expect(try jsonLines(result.out).count == 11)
    }

    /// The issue's acceptance check, through the real tool.
    @Test func segueRunPlaysInteractiveStepsAndReportsWhatIsShown() throws {
        let folder = makeTemporaryFolder()
        try """
        {"children": ["a", "b", "grid", "detail"],
         "script": ["grid", "detail",
                    {"select": "grid", "interactive": [0.2, 0.45, 0.3], "release": "cancel"},
                    {"select": "b", "interactive": [0.1, 0.3], "release": "finish", "velocity": 2.5}]}
        """.write(toFile: folder + "/s.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["run", "--config", "s.json", "--json"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        let lines = try jsonLines(result.out)
        #expect(lines.map { $0["completed"] as? Bool } == [true, true, false, true])
        #expect(lines.map { $0["shown"] as? String } == ["grid", "detail", "detail", "b"])
        #expect(lines.map { $0["interactive"] as? Bool } == [false, false, true, true])
        #expect(lines[2]["to"] as? String == "grid" && lines[3]["from"] as? String == "detail")
    }
}

extension ToolTests {
    /// Colour for people at a terminal (a pseudo-terminal through script(1)), never in a pipe or with NO_COLOR.
    @Test func colourOnATerminalOnlyAndNeverWithNoColor() throws {
        let command = "'\(Paths.segue)' validate '\(Paths.plugin("CurlUp"))' --strictness 1"
        // Whatever the test runner's own environment says about colour.
        let terminal = try run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["TERM": "xterm", "NO_COLOR": ""])
        #expect(terminal.out.contains("\u{1B}[32mPASS\u{1B}[0m  entry point"), "\(terminal.out)")
        let noColor = try run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["TERM": "xterm", "NO_COLOR": "1"])
        #expect(noColor.out.contains("PASS  entry point") && !noColor.out.contains("\u{1B}["))
        let piped = try run(Paths.segue, ["validate", Paths.plugin("CurlUp"), "--strictness", "1"])
        #expect(piped.out.contains("PASS  entry point") && !piped.out.contains("\u{1B}["))
    }
}

extension ToolTests {
    /// A newline or an escape sequence in a config's names cannot split a report line or reach the terminal.
    @Test func controlCharactersInNamesAreEscapedInReports() throws {
        let folder = makeTemporaryFolder()
        try #"{"children": ["a", "b\nforged"], "script": ["b\nforged"], "rules": [{"to": "b\nforged", "animator": "X\u001b[31m"}]}"#
            .write(toFile: folder + "/c.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["run", "--config", "c.json"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4, "the Playing line, one report of two lines, and the end: \(lines)")
        #expect(lines[1].hasPrefix(#"a -> b\nforged: default (built-in)"#))
        #expect(lines[2].contains(#"names the animator 'X\u{1B}[31m'"#) && !result.out.contains("\u{1B}"))
    }
}

extension ToolTests {
    /// An option's range and default are declared once, with the option: help says them from there.
    @Test func helpSaysEachValuesRangeAndDefaultFromItsDeclaration() throws {
        let help = try run(Paths.segue, ["validate", "--help"])
        let text = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--strictness N How thorough: how many contexts, samples and evaluations. A whole number from 1 to 10; default 5."), "\(help.out)")
        #expect(text.contains("--timeout SECONDS Seconds one call to the plugin (setup, evaluate, end), or its loading, may take before it counts as a hang; a slow plugin is timed, not killed. A number from 0.1 to 3600; default 10."))
        let preview = try run(Paths.segue, ["preview", "--help"]).out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(preview.contains("Frames per second of a GIF (.gif only). A number from 1 to 120; default 60."), "\(preview)")
    }
}
