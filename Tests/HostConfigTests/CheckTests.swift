import Foundation
@testable import HostConfig
import TestSupport
import Testing

@testable import HostContainer

/// `segue check` and `segue run --strict`: every problem a run could meet, before it plays.
struct CheckTests {
    func write(_ json: String) throws -> (folder: String, file: String) {
        let folder = makeTemporaryFolder()
        try json.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        return (folder, folder + "/segue.json")
    }

    /// The issue's acceptance check: a misspelt child, a misspelt animator and an
    /// out-of-range parameter, all three named with their place.
    @Test func checkNamesEveryMistakeAndExits1() throws {
        let (folder, _) = try write("""
        {
          "rules": [
            {"to": "vidoe", "animator": "CurlUp"},
            {"to": "file", "animator": "CurlUP"},
            {"to": "photo", "animator": "SpringSlide", "parameters": {"damping": 7}}
          ]
        }
        """)
        let result = try run(Paths.segue, ["check", "--config", "segue.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.out == """
            segue.json:3:6: error: $.rules[0].to: expected the name of a child (photo, video, file, contact, clipboard, grid, detail), found the string "vidoe" (did you mean 'video'?)
            segue.json:4:20: error: $.rules[1].animator: no animator named 'CurlUP' (did you mean 'CurlUp'?); the animators are CurlUp, ImageZoom, Pop, SpringSlide and 'default'
            segue.json:5:63: error: $.rules[2].parameters.damping: SpringSlide parameter 'damping': expected a number in [0.05, 1], found 7
            segue.json: 3 errors, 0 warnings

            """)
    }

    /// What a run decides up front is a problem check names: a switch rule
    /// naming an animator that plays no switches (Pop) would play the default.
    @Test func aSwitchRuleNamingAnAnimatorWithoutSwitchesIsAnError() throws {
        let (folder, _) = try write("""
        {"rules": [{"to": "video", "animator": "Pop"}, {"appear": "calc*", "animator": "Pop"}], "defaultAnimator": "Pop"}
        """)
        let result = try run(Paths.segue, ["check", "--config", "segue.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.out == """
            segue.json:1:28: error: $.rules[0].animator: Pop plays only appearances and disappearances, not a switch: the built-in default would play these switches; name an animator that plays switches, or make this a rule for windows (appear, disappear)
            segue.json:1:89: warning: $.defaultAnimator: Pop plays only appearances and disappearances, not a switch: switches no rule names play the built-in default
            segue.json: 1 error, 1 warning

            """, "\(result.out)")
    }

    @Test func warningsAloneExit0AndEachKindIsNamed() throws {
        let (folder, _) = try write("""
        {"plugins": ["missing"],
         "children": ["a", "b", "c"],
         "rules": [{"to": "b", "animator": "CurlUp"}, {"to": "b", "animator": "SpringSlide"},
                   {"from": "a", "to": "a", "animator": "CurlUp"},
                   {"from": "c", "animator": "CurlUp"}, {"from": "c", "to": "a", "animator": "SpringSlide"},
                   {"from": "c", "to": "b", "animator": "ImageZoom"}],
         "script": ["b", "b"]}
        """)
        try "not a plugin".write(toFile: folder + "/libjunk.so", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["check", "--config", "segue.json", "--plugins", folder, "--json"], in: folder)
        #expect(result.status == 0, "\(result.out)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(report["version"] as? Int == 1 && report["errors"] as? Int == 0)
        let problems = try #require(report["problems"] as? [[String: Any]])
        let messages = problems.map { "\($0["keyPath"] as? String ?? "-") \($0["message"]!)" }
        #expect(messages == [
            "$.plugins[0] plugin folder \(folder)/missing does not exist",
            "$.rules[1] this rule can never win: rules[0] matches the same transitions and comes first",
            "$.rules[2] this rule can never win: a child never switches to itself",
            "$.rules[3] this rule can never win: more specific or earlier rules take every transition it matches",
            "$.script[1] this step does nothing: 'b' is already shown",
            "- plugin rejected: not a shared library: it does not start with the ELF magic bytes 7f 45 4c 46 (found text \"not a pl\")",
        ], "\(messages)")
        #expect(problems.allSatisfy { $0["severity"] as? String == "warning" })
        #expect(problems.first?["line"] as? Int == 1 && problems.first?["column"] as? Int == 14, "the folder at its place")
        #expect(problems.dropFirst().first?["line"] as? Int == 3 && problems.dropFirst().first?["column"] as? Int == 47)
    }

    @Test func unknownParametersAndChoicesGetADidYouMean() throws {
        let (folder, _) = try write(#"{"rules": [{"to": "video", "animator": "CurlUp", "parameters": {"radus": 30, "curve": "easyOut"}}]}"#)
        let result = try run(Paths.segue, ["check", "--config", "segue.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.out.contains("CurlUp parameter 'curve': expected a curve: \"linear\", \"easeIn\", \"easeOut\", \"easeInOut\", \"default\" (a config's \"curves\" names more), found \"easyOut\" (did you mean 'easeOut'?)"), "\(result.out)")
        #expect(result.out.contains("CurlUp has no parameter 'radus' (did you mean 'radius'?)"))
    }

    /// The configuration page's config, and the built-in scene, pass.
    @Test func theReadmesConfigPasses() throws {
        let section = try String(contentsOfFile: Paths.packageRoot + "/docs/configuration.md", encoding: .utf8)
        let json = try #require(section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let (folder, _) = try write(json)
        let result = try run(Paths.segue, ["check", "--config", "segue.json"], in: folder)
        #expect(result.status == 0, "\(result.out)")
        #expect(!result.out.contains(": error:"), "\(result.out)")
        #expect(try run(Paths.segue, ["check"]).out.hasSuffix("\n<built-in scene>: no problems\n"))
    }

    @Test func runStrictRefusesToPlayAConfigWithAnError() throws {
        let (folder, _) = try write(#"{"rules": [{"to": "video", "animator": "Curl"}]}"#)
        let strict = try run(Paths.segue, ["run", "--strict", "--config", "segue.json", "--json"], in: folder)
        #expect(strict.status == 1)
        #expect(strict.out.isEmpty, "nothing played")
        #expect(strict.err.contains("error: $.rules[0].animator: no animator named 'Curl'"))
        let lenient = try run(Paths.segue, ["run", "--config", "segue.json", "--json"], in: folder)
        #expect(lenient.status == 0 && !lenient.out.isEmpty, "without --strict the default runs and says why")
    }

    @Test func closestNamesAllowCaseAndAFewTypos() {
        #expect(NameSuggestion.closest(to: "curlup", in: ["CurlUp", "ImageZoom"]) == "CurlUp")
        #expect(NameSuggestion.closest(to: "ImageZom", in: ["CurlUp", "ImageZoom"]) == "ImageZoom")
        #expect(NameSuggestion.closest(to: "vidoe", in: ["video", "photo"]) == "video")
        #expect(NameSuggestion.closest(to: "Wobble", in: ["CurlUp", "ImageZoom"]) == nil)
    }
}
