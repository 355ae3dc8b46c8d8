import Foundation
@testable import HostConfig
@testable import PluginHost
@testable import PluginValidation
import HostTestSupport
import TestSupport
import Testing
@testable import Timing

@testable import HostContainer
@testable import PluginRuntime

/// Config parsing: every problem names the file, the key path, what was
/// expected and what was found.
struct ConfigTests {
    func parse(_ json: String, file: String = "/cfg/segue.json") throws(ConfigError) -> SegueConfig {
        try SegueConfig.parse(Data(json.utf8), file: file, baseDirectory: "/cfg")
    }

    func error(_ json: String) -> ConfigError? {
        do {
            _ = try parse(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFullConfigParses() throws {
        let c = try parse("""
        {"plugins": ["plugins", "/opt/segue"], "defaultAnimator": "SpringSlide",
         "rules": [{"from": "a", "to": "b", "animator": "CurlUp", "parameters": {"curve": "easeIn", "rows": 8, "flag": true}}],
         "children": ["a", {"name": "b", "color": "#112233", "elements": [{"name": "image", "frame": [1, 2, 3, 4], "image": 7}]}],
         "script": ["b", "a"]}
        """)
        #expect(c.plugins == ["/cfg/plugins", "/opt/segue"], "relative folders are relative to the config file")
        #expect(c.defaultAnimator == "SpringSlide")
        #expect(c.rules == [SegueConfig.Rule(from: "a", to: "b", animator: "CurlUp",
                                             parameters: ["curve": .string("easeIn"), "rows": .number(8), "flag": .bool(true)],
                                             label: "rules[0]")])
        #expect(c.children.map(\.name) == ["a", "b"])
        #expect(c.children[1].color == Color(hex: "#112233"))
        #expect(c.children[1].elements == [SegueConfig.Element(name: "image", frame: Rect(x: 1, y: 2, width: 3, height: 4),
                                                               content: .image(seed: 7), color: nil)])
        #expect(c.script == ["b", "a"])
    }

    @Test func malformedJSONNamesTheFileTheLineAndColumnAndTheSyntaxError() throws {
        let e = try #require(error("{\"rules\": [\n  }"))
        #expect(e == ConfigError(file: "/cfg/segue.json", line: 2, column: 3, keyPath: "$.rules[0]", expected: "a value", found: "'}'"))
        #expect(e.description == "/cfg/segue.json:2:3: $.rules[0]: expected a value, found '}'")
    }

    /// Strict RFC 8259, each mistake placed exactly.
    @Test(arguments: [
        ("{\"script\": [\"a\",]}", 1, 17, "$.script[1]", "a value (no comma after the last item)", "']'"),
        ("{\"plugins\": [],\n}", 2, 1, "$", "a string key (no comma after the last member)", "'}'"),
        ("{\"plugins\": [],\n \"plugins\": []}", 2, 2, "$.plugins", "each key once", "'plugins' again (first at line 1, column 2)"),
        ("{\"a\": 01}", 1, 8, "$.a", "no leading zero in a number", "'1'"),
        ("{\"a\": 1e400}", 1, 7, "$.a", "a number a double can hold (magnitude below 1.8e308)", "the number 1e400"),
        ("{\"a\": -}", 1, 8, "$.a", "a digit", "'}'"),
        ("{\"a\": \"x\ty\"}", 1, 9, "$.a", "no raw control character in a string (write it as an escape)", "a tab"),
        ("{\"a\": \"\\q\"}", 1, 8, "$.a", "one of the escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", "'\\'"),
        ("{\"a\": \"\\uDC00\"}", 1, 8, "$.a", "a high surrogate before a low one", "'\\'"),
        ("{\"a\": \"open}", 1, 7, "$.a", "a string closed by '\"'", "the end of the document"),
        ("{} {}", 1, 4, "$", "the end of the document", "'{'"),
        ("{\"a\": tru}", 1, 7, "$.a", "a value", "'t'"),
        ("// comment\n{}", 1, 1, "$", "a value", "'/'"),
        ("", 1, 1, "$", "a value", "the end of the document"),
    ])
    func syntaxErrorsArePlaced(json: String, line: Int, column: Int, keyPath: String, expected: String, found: String) throws {
        let e = try #require(error(json), "\(json) should be rejected")
        #expect(e == ConfigError(file: "/cfg/segue.json", line: line, column: column, keyPath: keyPath, expected: expected, found: found))
    }

    @Test func everyNumberOfTheGrammarIsRead() throws {
        let doc = try JSONReader.parse(Array(#"[0e1, 1e-400, -0, 1E+2, 0.5e-1, 123456789012345678901234567890, -1.5]"#.utf8))
        #expect(doc == .array([0, 0, -0.0, 100, 0.05, 1.2345678901234568e29, -1.5].map { .number($0) }), "the 30 digits: the nearest Double")
        #expect(try JSONReader.parse(Array("\u{FEFF}{\"s\": \"\\u00e9\\uD83D\\uDE00\\n\"}".utf8)) == .object(["s": .string("é😀\n")]))
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONReader.SyntaxError.self) { try JSONReader.parse(Array(deep.utf8)) }
    }

    @Test func aConfigIsReadFromAPipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let text = #"{"children": ["a", "b"], "script": ["b"]}"#
        #expect(write(ends[1], text, text.utf8.count) == text.utf8.count)
        close(ends[1])
        defer { close(ends[0]) }
        let config = try SegueConfig.load(path: "/proc/self/fd/\(ends[0])")
        #expect(config.script == ["b"])
    }

    @Test func aMissingKeyPointsAtTheObjectThatLacksIt() throws {
        let e = try #require(error("{\"children\": [\"a\", \"b\"], \"rules\": [\n  {\"to\": \"b\"}]}"))
        #expect((e.line, e.column, e.keyPath) == (2, 3, "$.rules[0].animator"))
    }

    @Test(arguments: [
        (#"[1, 2]"#, "$", "an object", "an array of 2"),
        (#"{"rule": []}"#, "$.rule", "one of the keys 'plugins', 'defaultAnimator', 'isolation', 'sandbox', 'limits', 'curves', 'font', 'rules', 'children', 'windows', 'script'", "the unknown key 'rule'"),
        (#"{"sandbox": "lax"}"#, "$.sandbox", #""strict" or "off""#, #"the string "lax""#),
        (#"{"limits": {"memory": "lots"}}"#, "$.limits.memory", #"a size of at least 256 MiB, like "512MiB" or "2GiB" (or a number of bytes)"#, #"the string "lots""#),
        (#"{"limits": {"memory": 1024}}"#, "$.limits.memory", #"a size of at least 256 MiB, like "512MiB" or "2GiB" (or a number of bytes)"#, "the number 1024"),
        (#"{"limits": {"cpu": 1}}"#, "$.limits.cpu", "one of the keys 'memory', 'threads', 'totalMemory'", "the unknown key 'cpu'"),
        (#"{"limits": {"totalMemory": "128MiB"}}"#, "$.limits.totalMemory", #"a size of at least 256 MiB, like "512MiB" or "2GiB" (or a number of bytes)"#, #"the string "128MiB""#),
        (#"{"plugins": "p"}"#, "$.plugins", "an array", #"the string "p""#),
        (#"{"plugins": [3]}"#, "$.plugins[0]", "a non-empty string", "the number 3"),
        (#"{"children": ["a", "b", "c"], "rules": [{"to": "b"}]}"#, "$.rules[0].animator", "an animator name", "nothing (the key is missing)"),
        (#"{"rules": [{"animator": "X"}]}"#, "$.rules[0]", "'from', 'to' or both, or 'appear', 'disappear' or both (a rule for every transition is 'defaultAnimator')", "an object"),
        (#"{"children": ["a", "b", "c"], "rules": [{"to": "b", "animator": 5}]}"#, "$.rules[0].animator", "a non-empty string", "the number 5"),
        (#"{"children": ["a", "b", "c"], "rules": [{"to": "b", "animator": "X", "parameters": {"p": [1]}}]}"#, "$.rules[0].parameters.p", "a number, a boolean or a string", "an array of 1"),
        (#"{"children": ["a"], "rules": [{"to": "zz", "animator": "X"}]}"#, "$.rules[0].to", "the name of a child (a)", #"the string "zz""#),
        (#"{"children": ["a", "a"]}"#, "$.children[1]", "a child name not used before", #"the string "a""#),
        (##"{"children": [{"color": "#fff"}]}"##, "$.children[0].name", "the child's name", "nothing (the key is missing)"),
        (#"{"children": [{"name": "a", "color": "red"}]}"#, "$.children[0].color", ##"a colour as "#RRGGBB" or "#RRGGBBAA""##, #"the string "red""#),
        (#"{"children": [{"name": "a", "elements": [{"name": "i", "frame": [1, 2]}]}]}"#, "$.children[0].elements[0].frame", "[x, y, width, height] with a width and height of 0 or more", "an array of 2"),
        (#"{"children": ["a", "b"], "script": ["b", "c"]}"#, "$.script[1]", "the name of a child (a, b)", #"the string "c""#),
        (#"{"defaultAnimator": true}"#, "$.defaultAnimator", "a non-empty string", "the boolean true"),
        (#"{"isolation": "sandbox"}"#, "$.isolation", #""process" or "none""#, #"the string "sandbox""#),
        (#"{"children": ["a", "b"], "script": [{"select": "b", "interactive": [0.5], "release": "gesture", "velocity": -1e308}]}"#,
         "$.script[0].velocity", "a number of container widths per second within ±1000", "the number -1e+308"),
        (#"{"children": [{"name": "a", "elements": [{"name": "i", "frame": [0, 1e300, 1, 1]}]}]}"#, "$.children[0].elements[0].frame[1]",
         "a coordinate within ±100000 points", "the number 1e+300"),
        (#"{"rules": [{"to": "vidoe", "animator": "CurlUp"}]}"#, "$.rules[0].to",
         "the name of a child (photo, video, file, contact, clipboard, grid, detail)", #"the string "vidoe" (did you mean 'video'?)"#),
    ])
    func badConfigsNameTheKeyPathWhatWasExpectedAndWhatWasFound(json: String, keyPath: String, expected: String, found: String) throws {
        let e = try #require(error(json), "\(json) should be rejected")
        #expect((e.file, e.keyPath, e.expected, e.found) == ("/cfg/segue.json", keyPath, expected, found))
        #expect(e.line == 1 && e.column != nil, "every mistake is placed")
        #expect(e.description == "/cfg/segue.json:1:\(e.column ?? 0): \(keyPath): expected \(expected), found \(found)")
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: ConfigError(file: "/nonexistent/segue.json", keyPath: "$", expected: "a readable JSON file", found: "no such file")) {
            try SegueConfig.load(path: "/nonexistent/segue.json")
        }
    }

    @Test func loadResolvesPluginFoldersAgainstTheConfigsFolder() throws {
        let folder = makeTemporaryFolder()
        try #"{"plugins": ["p", "../q"]}"#.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        let c = try SegueConfig.load(path: folder + "/segue.json")
        #expect(c.plugins == [folder + "/p", folder + "/../q"])
    }

    @Test func theBuiltinSceneIsAValidConfigThatExercisesEveryBundledAnimator() {
        let scene = SegueConfig.builtinScene
        #expect(scene.children.map(\.name) == ["photo", "video", "file", "contact", "clipboard", "grid", "detail"])
        #expect(Set(scene.rules.map(\.animator)) == ["SpringSlide", "CurlUp", "ImageZoom", "Pop"])
        #expect(scene.windows.map(\.name) == ["calculator"] && scene.script.suffix(2).map(\.action) == [.present, .dismiss],
                "a window opens over the children and closes")
        let grid = scene.children.first { $0.name == "grid" }!, detail = scene.children.first { $0.name == "detail" }!
        #expect(grid.elements.contains { $0.name == "image" } && detail.elements.contains { $0.name == "image" })
    }

    @Test func scriptStepsParseAndBadOnesNameTheirKey() throws {
        let good = #"""
        {"children": ["a", "b"], "script": ["b", {"select": "a", "interactive": [0.2, 0.45], "release": "cancel"},
         {"select": "a", "interactive": [0.1], "release": "finish", "velocity": 2.5}, {"select": "b"}]}
        """#
        let c = try SegueConfig.parse(Data(good.utf8), file: "s.json", baseDirectory: "/")
        #expect(c.script == ["b", ScriptStep(child: "a", interactive: [0.2, 0.45], release: .cancel),
                             ScriptStep(child: "a", interactive: [0.1], release: .finish, velocity: 2.5), "b"])
        let bad: [(String, String, String)] = [
            (#"[{"select": "a", "release": "finish"}]"#, "$.script[0].release", "'release' only with 'interactive'"),
            (#"[{"select": "a", "interactive": [0.2, 1.5]}]"#, "$.script[0].interactive[1]", "a fraction from 0 to 1"),
            (#"[{"select": "a", "interactive": []}]"#, "$.script[0].interactive", "a non-empty array of fractions from 0 to 1"),
            (#"[{"select": "a", "interactive": [0.5], "release": "later"}]"#, "$.script[0].release", "one of 'finish', 'cancel', 'gesture'"),
            (#"[{"select": "z"}]"#, "$.script[0].select", "the name of a child (a, b)"),
            (#"[{"interactive": [0.5]}]"#, "$.script[0].select", "the name of the child to select"),
            (#"[{"select": "a", "speed": 2}]"#, "$.script[0].speed", "one of the keys 'select', 'interactive', 'release', 'velocity'"),
        ]
        for (script, keyPath, expected) in bad {
            let json = #"{"children": ["a", "b"], "script": \#(script)}"#
            #expect(throws: ConfigError.self) { try SegueConfig.parse(Data(json.utf8), file: "s.json", baseDirectory: "/") }
            do {
                _ = try SegueConfig.parse(Data(json.utf8), file: "s.json", baseDirectory: "/")
            } catch {
                #expect(error.keyPath == keyPath && error.expected == expected, "\(error)")
            }
        }
    }
}

/// The config-driven delegate: rule precedence and every fallback reason.
struct SelectionTests {
    func delegate(_ json: String, registry: AnimatorRegistry = bundledRegistry) throws -> ConfigDrivenDelegate {
        ConfigDrivenDelegate(config: try SegueConfig.parse(Data(json.utf8), file: "t.json", baseDirectory: "/"), registry: registry)
    }

    @Test func theMostSpecificRuleWinsAndTheFirstAmongEquals() throws {
        let d = try delegate("""
        {"children": ["a", "b", "c"], "rules": [{"from": "a", "animator": "F"}, {"to": "b", "animator": "T"}, {"from": "a", "to": "b", "animator": "FT"},
                   {"to": "b", "animator": "T2"}, {"from": "c", "animator": "F2"}], "defaultAnimator": "D"}
        """)
        #expect(d.rule(from: "a", to: "b")?.animator == "FT", "from+to over to-only over from-only")
        #expect(d.rule(from: "x", to: "b")?.animator == "T", "to-only over from-only, first among equals")
        #expect(d.rule(from: "a", to: "x")?.animator == "F")
        #expect(d.rule(from: "c", to: "b")?.animator == "T", "to-only beats from-only")
        #expect(d.rule(from: "x", to: "y") == nil)
    }

    @Test func aMatchingRuleChoosesThePluginAndSaysWhich() throws {
        let d = try delegate(#"{"children": ["a", "b", "c"], "rules": [{"from": "a", "to": "b", "animator": "CurlUp"}]}"#)
        let r = d.resolve(from: "a", to: "b")
        #expect(r.animator?.name == "CurlUp")
        #expect(r.reason == #"rules[0] (from "a", to "b")"#)
    }

    @Test func defaultAnimatorAppliesWhenNoRuleMatches() throws {
        let d = try delegate(#"{"children": ["a", "b", "c"], "rules": [{"to": "b", "animator": "CurlUp"}], "defaultAnimator": "SpringSlide"}"#)
        let r = d.resolve(from: "a", to: "c")
        #expect(r.animator?.name == "SpringSlide" && r.reason == "defaultAnimator")
    }

    @Test func noRuleAndNoDefaultAnimatorFallsBackToTheBuiltin() throws {
        let r = try delegate(#"{"children": ["a", "b", "c"], "rules": [{"to": "b", "animator": "CurlUp"}]}"#).resolve(from: "a", to: "c")
        #expect(r.animator == nil)
        #expect(r.reason == "no rule matches a -> c and no defaultAnimator is set")
    }

    @Test func theNameDefaultChoosesTheBuiltinExplicitly() throws {
        let r = try delegate(#"{"children": ["a", "c"], "rules": [{"to": "c", "animator": "default"}]}"#).resolve(from: "a", to: "c")
        #expect(r.animator == nil && r.reason == #"rules[0] (to "c") chose the built-in default"#)
        #expect(!r.fellBack, "choosing the default is not falling back")
    }

    @Test func anUnknownAnimatorNameFallsBackWithAHint() throws {
        let d = try delegate(#"{"children": ["a", "b", "c"], "rules": [{"to": "b", "animator": "curlup"}, {"to": "c", "animator": "Nope"}]}"#)
        let r = d.resolve(from: "a", to: "b")
        #expect(r.animator == nil && r.fellBack)
        #expect(r.reason == #"rules[0] (to "b") names the animator 'curlup', which no loaded plugin provides (did you mean 'CurlUp'?); the built-in default ran instead"#)
        #expect(d.resolve(from: "a", to: "c").reason.contains("'Nope', which no loaded plugin provides; the built-in"))
    }

    @Test(arguments: [
        (#"{"damping": 3}"#, "SpringSlide parameter 'damping': expected a number in [0.05, 1], found 3"),
        (#"{"damping": "soft"}"#, #"SpringSlide parameter 'damping': expected a number in [0.05, 1], found "soft""#),
        (#"{"dampening": 0.5}"#, "SpringSlide has no parameter 'dampening'; it has 'damping', 'velocity', 'duration', 'padding'"),
        (#"{"duration": -1}"#, "SpringSlide parameter 'duration': expected a number in [0.05, 10], found -1"),
    ])
    func anInvalidParameterFallsBackAndNamesIt(parameters: String, message: String) throws {
        let d = try delegate(#"{"children": ["a", "b", "c"], "rules": [{"to": "b", "animator": "SpringSlide", "parameters": \#(parameters)}]}"#)
        let r = d.resolve(from: "a", to: "b")
        #expect(r.animator == nil && r.fellBack)
        #expect(r.reason == #"rules[0] (to "b"): \#(message); the built-in default ran instead"#)
    }

    @Test func curveAndIntegerParametersAreValidated() throws {
        let curl = try #require(bundledRegistry.animator(named: "CurlUp"))
        #expect(try curl.resolveParameters(["curve": .string("easeIn"), "rows": .number(8)]).get() == [0.4, 1, 48, 20, 8])
        let book = CurveBook(custom: ["snappy": TimingCurve(x1: 0.05, y1: 0.9, x2: 0.1, y2: 1.05)])
        #expect(try curl.resolveParameters(["curve": .string("snappy")], curves: book).get()[1] == 5, "after the five named curves")
        #expect(curl.resolveParameters(["curve": .number(2)]) == .failure(ParameterError(
            message: #"CurlUp parameter 'curve': expected a curve's name: "linear", "easeIn", "easeOut", "easeInOut", "default", found 2"#)))
        #expect(curl.resolveParameters(["curve": .string("bouncy")]) == .failure(ParameterError(
            message: #"CurlUp parameter 'curve': expected a curve: "linear", "easeIn", "easeOut", "easeInOut", "default" (a config's "curves" names more), found "bouncy""#)))
        #expect(curl.resolveParameters(["rows": .number(8.5)]) == .failure(ParameterError(
            message: "CurlUp parameter 'rows': expected a whole number in [2, 64], found 8.5")))
        #expect(curl.resolveParameters(["rows": .bool(true)]) == .failure(ParameterError(
            message: "CurlUp parameter 'rows': expected an integer in [2, 64], found true")))
    }
}

/// Mangled config files never crash the parser: each one parses or is an error
/// that names the file and a key path.
struct ConfigRobustnessTests {
    @Test func mangledConfigsParseOrFailWithAKeyPath() {
        let original = Array(SegueConfig.builtinSceneJSON.utf8)
        let replacements = Array(#"{}[]":,0123456789.-eE truefalsnul#\"#.utf8)
        var rng = SplitMix(state: 2026)
        var parsed = 0, rejected = 0
        for iteration in 0..<2000 {
            var bytes = original
            for _ in 0...rng.below(4) {
                let at = rng.below(bytes.count)
                switch rng.below(3) {
                case 0: bytes[at] = replacements[rng.below(replacements.count)]
                case 1: bytes.remove(at: at)
                default: bytes.insert(replacements[rng.below(replacements.count)], at: at)
                }
            }
            do {
                _ = try SegueConfig.parse(Data(bytes), file: "fuzz.json", baseDirectory: "/")
                parsed += 1
            } catch {
                rejected += 1
                #expect(error.file == "fuzz.json" && error.keyPath.hasPrefix("$"), "iteration \(iteration): \(error)")
                #expect(!error.expected.isEmpty && !error.found.isEmpty, "iteration \(iteration)")
            }
        }
        #expect(parsed + rejected == 2000)
        #expect(rejected > 0 && parsed > 0, "the mutations exercise both outcomes")
    }
}

extension ConfigTests {
    /// Every host (the tool, libsegue) chooses the sandbox in one order: the program's choice, SEGUE_SANDBOX, the config, strict.
    @Test func theSandboxIsChosenInOneOrderForEveryHost() throws {
        var config = SegueConfig(file: "<test>")
        config.sandbox = .off
        config.threadLimit = 128
        #expect(try SandboxPolicy.chosen(mode: nil, memoryLimit: nil, threadLimit: nil, config: nil, environment: [:]).mode == .strict)
        #expect(try SandboxPolicy.chosen(mode: nil, memoryLimit: nil, threadLimit: nil, config: config, environment: [:]).mode == .off)
        #expect(try SandboxPolicy.chosen(mode: nil, memoryLimit: nil, threadLimit: nil, config: config, environment: ["SEGUE_SANDBOX": "strict"]).mode == .strict)
        let chosen = try SandboxPolicy.chosen(mode: .off, memoryLimit: 1 << 30, threadLimit: 16, config: config, environment: ["SEGUE_SANDBOX": "strict"])
        #expect(chosen.mode == .off && chosen.threadLimit == 16 && chosen.memoryLimit == 1 << 30)
        #expect(try SandboxPolicy.chosen(mode: nil, memoryLimit: nil, threadLimit: nil, config: config, environment: [:]).threadLimit == 128)
        #expect(throws: SandboxChoiceError.self) {
            try SandboxPolicy.chosen(mode: nil, memoryLimit: nil, threadLimit: nil, config: nil, environment: ["SEGUE_SANDBOX": "loose"])
        }
    }

    /// The memory all workers share: 4 GiB unless the config says, the program's choice first.
    @Test func theWorkersMemoryBudgetIsChosenInTheSameOrder() throws {
        let config = try SegueConfig.parse(Data(#"{"limits": {"totalMemory": "3GiB"}}"#.utf8), file: "<test>", baseDirectory: "/cfg")
        #expect(config.totalMemory == 3 << 30)
        #expect(try SandboxPolicy.chosen(mode: nil, memoryLimit: nil, threadLimit: nil, config: nil, environment: [:]).totalMemory == 4 << 30)
        #expect(try SandboxPolicy.chosen(mode: nil, memoryLimit: nil, threadLimit: nil, config: config, environment: [:]).totalMemory == 3 << 30)
        #expect(try SandboxPolicy.chosen(mode: nil, memoryLimit: nil, threadLimit: nil, totalMemory: 512 << 20, config: config,
                                         environment: [:]).totalMemory == 512 << 20)
    }
}
