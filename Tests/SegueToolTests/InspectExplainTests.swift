import Foundation
import HostTestSupport
import TestSupport
import Testing
@testable import Timing

@testable import HostContainer

/// `segue inspect`, `segue explain`, and the parameter values in reports,
/// checked against the animators the registry loads.
struct InspectExplainTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test(arguments: ["SpringSlide", "CurlUp", "ImageZoom"])
    func inspectShowsWhatTheRegistryLoaded(name: String) throws {
        let animator = try #require(bundledRegistry.animator(named: name))
        let result = try run(Paths.segue, ["inspect", name, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let document = try json(result.out)
        #expect(document["version"] as? Int == 1)
        let shown = try #require(document["animator"] as? [String: Any])
        #expect(shown["id"] as? String == animator.id && shown["version"] as? String == animator.version)
        #expect(shown["description"] as? String == animator.summary && shown["file"] as? String == animator.file)
        let parameters = try #require(shown["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["name"] as? String } == animator.parameters.map(\.name))
        for (shown, p) in zip(parameters, animator.parameters) {
            switch p.kind {
            case .choice(let choices):
                #expect(shown["default"] as? String == choices[Int(p.defaultValue)], "a choice's default by its name, as configs write it")
                #expect(shown["choices"] as? [String] == choices && shown["min"] == nil)
            case .boolean:
                #expect(shown["default"] as? Bool == (p.defaultValue == 1))
            case .curve:
                #expect(shown["default"] as? String == TimingCurve.named[Int(p.defaultValue)].name, "a curve's default by its name")
            case .number, .integer:
                #expect(shown["default"] as? Double == p.defaultValue)
                #expect(shown["min"] as? Double == p.minimum && shown["max"] as? Double == p.maximum)
            }
        }
        #expect(parameters.map { $0["explanation"] as? String } == animator.parameters.map(\.explanation))
        let human = try run(Paths.segue, ["inspect", name]).out
        #expect(human.hasPrefix("\(name) \(animator.version)\n  id:          \(animator.id)\n"))
        for p in animator.parameters { #expect(human.contains("  \(p.explanation)")) }
    }

    @Test func inspectTheDefaultAndExitCodesForScripts() throws {
        let builtin = try run(Paths.segue, ["inspect", "default"])
        #expect(builtin.status == 0 && builtin.out.contains("source:      built-in"))
        #expect(builtin.out.contains("  damping   number, default 0.75 in [0.05, 1]\n"), "the article's values are the defaults: \(builtin.out)")
        let exists = try run(Paths.segue, ["inspect", "CurlUp", "--exists"])
        #expect(exists.status == 0 && exists.out.isEmpty && exists.err.isEmpty)
        let missing = try run(Paths.segue, ["inspect", "CurlUpp", "--exists"])
        #expect(missing.status == 1 && missing.out.isEmpty && missing.err.isEmpty)
        let typo = try run(Paths.segue, ["inspect", "CurlUpp"])
        #expect(typo.status == 1 && typo.err == "segue: no animator named 'CurlUpp' (did you mean 'CurlUp'?); 'segue list' shows them all\n")
    }

    /// The issue's acceptance check: `segue explain photo video` answers.
    @Test func explainSaysWhichRuleAnimatorFileAndValues() throws {
        let registry = bundledRegistry
        let spring = try #require(registry.animator(named: "SpringSlide"))
        let photo = try run(Paths.segue, ["explain", "photo", "video", "--json"])
        #expect(photo.status == 0, "\(photo.err)")
        let answer = try json(photo.out)
        #expect(answer["animator"] as? String == "SpringSlide" && answer["file"] as? String == spring.file)
        #expect(answer["rule"] as? String == #"rules[0] (to "video")"#)
        let values = try #require(answer["parameters"] as? [[String: Any]])
        #expect(values.map { $0["name"] as? String } == spring.parameters.map(\.name))
        #expect(values.map { $0["value"] as? Double } == spring.parameters.map(\.defaultValue))
        #expect(values.allSatisfy { $0["from"] as? String == "default" })

        let folder = makeTemporaryFolder()
        try #"""
        {"children": ["a", "b", "c"],
         "rules": [{"to": "b", "animator": "CurlUp", "parameters": {"curve": "linear"}},
                   {"from": "a", "animator": "SpringSlide"},
                   {"to": "b", "animator": "ImageZoom"},
                   {"from": "a", "to": "c", "animator": "Nope"}]}
        """#.write(toFile: folder + "/c.json", atomically: false, encoding: .utf8)
        let text = try run(Paths.segue, ["explain", "a", "b", "--config", "c.json"], in: folder)
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.hasPrefix("a -> b: CurlUp (plugin \(Paths.plugin("CurlUp")))\n  config:     c.json\n  rule:       rules[0] (to \"b\")\n"), "\(text.out)")
        #expect(text.out.contains("  beat:       rules[1] (from \"a\") -> SpringSlide: less specific\n"))
        #expect(text.out.contains("  beat:       rules[2] (to \"b\") -> ImageZoom: as specific, but later in the file\n"))
        #expect(text.out.contains("  parameters: duration = 0.4 (default), curve = \"linear\" (rule), radius = 48 (default), angle = 20 (default), rows = 32 (default)\n"))
        let missing = try run(Paths.segue, ["explain", "a", "c", "--config", "c.json"], in: folder)
        #expect(missing.out.hasPrefix("a -> c: default (built-in)\n  config:     c.json\n  rule:       rules[3] (from \"a\", to \"c\")\n"), "\(missing.out)")
        #expect(missing.out.contains("why:        rules[3] (from \"a\", to \"c\") names the animator 'Nope', which no loaded plugin provides"))
        let unknown = try run(Paths.segue, ["explain", "a", "d", "--config", "c.json"], in: folder)
        #expect(unknown.status == 1 && unknown.err.hasPrefix("segue: no child named 'd'"))
    }

    @Test func reportsCarryTheParameterValuesUsed() throws {
        let result = try run(Paths.segue, ["run", "--json"])
        let first = try json(try #require(result.out.split(separator: "\n").first.map(String.init)))
        #expect(first["version"] as? Int == 1)
        #expect(first["parameters"] as? [String: Double] == ["damping": 0.5, "velocity": 0.5, "duration": 1, "padding": 16])
        let curl = try #require(result.out.split(separator: "\n").map(String.init).first { $0.contains(#""animator":"CurlUp""#) })
        let values = try #require((try json(curl))["parameters"] as? [String: Any])
        #expect(values["curve"] as? String == "easeInOut", "a choice is written by name, as configs write it")
        #expect([values["duration"], values["radius"], values["rows"]].map { $0 as? Double } == [0.4, 48, 32])
        let human = try run(Paths.segue, ["run"]).out
        #expect(human.contains("    why: rules[2] (from \"file\", to \"contact\")\n    parameters: damping = 0.3, velocity = 0.5, duration = 1, padding = 16\n"))
    }

    /// The built-in default is tuned like any animator, by a rule naming it.
    @Test func aRuleNamingTheDefaultSetsItsParameters() throws {
        let folder = makeTemporaryFolder()
        try #"{"rules": [{"to": "video", "animator": "default", "parameters": {"duration": 0.5, "damping": 1}}], "script": ["video", "file"]}"#
            .write(toFile: folder + "/c.json", atomically: false, encoding: .utf8)
        let played = try run(Paths.segue, ["run", "--json", "--config", "c.json"], in: folder)
        let reports = try played.out.split(separator: "\n").map { try json(String($0)) }
        #expect(reports.map { $0["duration"] as? Double } == [0.5, 1], "the rule's duration, then the default's own")
        #expect(reports.map { $0["frames"] as? Int } == [31, 61])
        let tuned = try #require(reports[0]["parameters"] as? [String: Any])
        #expect(["duration", "damping", "velocity", "padding"].map { tuned[$0] as? Double } == [0.5, 1, 0.5, 16])
        #expect(tuned["curve"] as? String == "spring", "the default follows its spring unless a rule names a curve")
        #expect((reports[1]["parameters"] as? [String: Double])?.isEmpty == true, "a fallback reports no parameters")

        try #"{"rules": [{"to": "video", "animator": "default", "parameters": {"damping": 7, "speed": 1}}]}"#
            .write(toFile: folder + "/bad.json", atomically: false, encoding: .utf8)
        let checked = try run(Paths.segue, ["check", "--config", "bad.json"], in: folder)
        #expect(checked.status == 1)
        #expect(checked.out.contains("default parameter 'damping': expected a number in [0.05, 1], found 7"))
        #expect(checked.out.contains("default has no parameter 'speed'"))
    }
}
