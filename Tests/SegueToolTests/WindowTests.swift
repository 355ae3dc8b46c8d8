import Foundation
import Testing
import TestSupport

/// Windows that open and close in `segue run` and `segue preview`: a plugin
/// built against the ABI 1.0, 1.2 or 1.3 header plays both, sandboxed, with one
/// report each and the container consistent; Pop plays them as written; a
/// script that presents or dismisses out of order is refused by name.
@Suite struct WindowTests {
    static func config(plugins folder: String, animator: String, script: String) throws -> String {
        let path = makeTemporaryFolder("window-config") + "/segue.json"
        try """
            {"plugins": ["\(folder)"], "defaultAnimator": "\(animator)",
             "children": ["desktop", "other"],
             "windows": [{"name": "org.kde.kcalc", "color": "#3E8ED0", "frame": [40, 100, 300, 400]}],
             "script": \(script)}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A folder with the bundled Pop alone.
    static func popFolder() throws -> String {
        let folder = makeTemporaryFolder("pop-plugin")
        try FileManager.default.copyItem(atPath: Paths.plugin("Pop"), toPath: folder + "/libPop.so")
        return folder
    }

    @Test(arguments: ["1.0", "1.2", "1.3"])
    func anOlderPluginOpensAndClosesAWindowInRun(_ version: String) throws {
        let folder = try CPlugin.curveSlide(builtAgainst: version)
        let config = try Self.config(plugins: folder, animator: "CurveSlide",
                                     script: #"[{"present": "org.kde.kcalc"}, {"dismiss": "org.kde.kcalc"}]"#)
        let played = try runSegue(["run", "--json", "--config", config, "--sandbox", "strict"])
        #expect(played.status == 0, "\(played.err)")
        let reports = try jsonLines(played.out)
        #expect(reports.map { $0["kind"] as? String } == ["appear", "disappear"], "exactly one report each: \(played.out)")
        #expect(reports.allSatisfy { $0["animator"] as? String == "CurveSlide" && $0["fellBack"] as? Bool == false && $0["completed"] as? Bool == true })
        #expect(reports.map { $0["shown"] as? String } == ["org.kde.kcalc", "desktop"],
                "presented after the appearance, gone after the disappearance")
        #expect((reports[0]["reason"] as? String)?.hasSuffix("played as a switch to a transparent stand-in run backwards") == true)
        #expect((reports[1]["reason"] as? String)?.hasSuffix("played as a switch to a transparent stand-in") == true)
    }

    @Test func popPlaysBothAsWrittenAndTheRulesPickItByPattern() throws {
        let config = makeTemporaryFolder("pop") + "/segue.json"
        try """
            {"plugins": ["\(try Self.popFolder())"], "children": ["desktop", "other"],
             "windows": [{"name": "org.gnome.Calculator", "frame": [40, 100, 300, 400]}],
             "rules": [{"appear": "org.gnome.*", "disappear": "*", "animator": "Pop"},
                       {"appear": "*", "animator": "CurlUp"}],
             "script": ["other", {"present": "org.gnome.Calculator"}, "desktop", {"dismiss": "org.gnome.Calculator"}]}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let played = try runSegue(["run", "--json", "--config", config])
        let reports = try jsonLines(played.out)
        #expect(reports.map { $0["kind"] as? String } == ["switch", "appear", "switch", "disappear"], "\(played.out) \(played.err)")
        #expect(reports.map { $0["animator"] as? String } == ["default", "Pop", "default", "Pop"])
        #expect((reports[1]["reason"] as? String) == #"rules[0] (appear "org.gnome.*", disappear "*")"#, "the longer pattern wins")
        #expect(reports[2]["shown"] as? String == "desktop", "a switch beneath the window")
    }

    /// The bundled animators written for windows: SpringSlide slides one in
    /// from the edge, ImageZoom zooms it out of its launcher (an element of
    /// the view beneath named as the window is) and declines without one.
    @Test func theBundledAnimatorsWrittenForWindowsPlayThemAsWritten() throws {
        let folder = makeTemporaryFolder("bundled-windows")
        for name in ["SpringSlide", "ImageZoom", "CurlUp", "Pop"] {
            try FileManager.default.copyItem(atPath: Paths.plugin(name), toPath: folder + "/lib\(name).so")
        }
        let listed = try runSegue(["list", "--json", "--plugins", folder])
        let animators = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])["animators"] as? [[String: Any]]
        let kinds = Dictionary(uniqueKeysWithValues: (animators ?? []).map { ($0["name"] as! String, $0["kinds"] as! [String]) })
        #expect(kinds == ["SpringSlide": ["switch", "appear", "disappear"], "ImageZoom": ["switch", "appear", "disappear"],
                          "CurlUp": ["switch"], "Pop": ["appear", "disappear"]])
        let curlUp = animators?.first { $0["name"] as? String == "CurlUp" }
        #expect(curlUp?["plays"] as? [String: String] == ["switch": "as written", "appear": "as a switch to a transparent stand-in run backwards",
                                                          "disappear": "as a switch to a transparent stand-in"])

        for (launcher, animator) in [(true, "ImageZoom"), (false, "ImageZoom"), (false, "SpringSlide")] {
            let config = makeTemporaryFolder("launcher") + "/segue.json"
            let icon = launcher ? #", "elements": [{"name": "calc", "frame": [300, 700, 56, 56]}]"# : ""
            try """
                {"plugins": ["\(folder)"], "children": [{"name": "desktop"\(icon)}, "other"],
                 "windows": [{"name": "calc", "frame": [40, 100, 300, 400]}],
                 "rules": [{"appear": "*", "disappear": "*", "animator": "\(animator)"}],
                 "script": [{"present": "calc"}, {"dismiss": "calc"}]}
                """.write(toFile: config, atomically: true, encoding: .utf8)
            let reports = try jsonLines(try runSegue(["run", "--json", "--config", config]).out)
            let declined = animator == "ImageZoom" && !launcher
            #expect(reports.map { $0["animator"] as? String } == Array(repeating: declined ? "default" : animator, count: 2))
            // The built-in default, which stands in when ImageZoom declines, is written for windows too.
            #expect(reports.allSatisfy { ($0["reason"] as? String)?.contains("played") == false }, "as written: \(reports)")
            if declined {
                #expect((reports[0]["reason"] as? String)?.contains("ImageZoom declined: the view beneath has no element named 'calc' for the window to zoom out of") == true)
            }
        }
    }

    /// Pop declares appearances and disappearances only. A rule naming it for
    /// a switch: explain, run and preview all play the built-in default and
    /// say why in the same words, and list says how Pop plays each kind.
    @Test func explainRunPreviewAndListAgreeThatPopPlaysNoSwitch() throws {
        let folder = try Self.popFolder()
        let config = makeTemporaryFolder("pop-switch") + "/segue.json"
        try """
            {"plugins": ["\(folder)"], "children": ["photo", "video"],
             "rules": [{"to": "video", "animator": "Pop"}], "script": ["video"]}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let refusal = "names Pop, which plays only appearances and disappearances, not a switch; the built-in default ran instead"

        let explained = try jsonLines(try runSegue(["explain", "photo", "video", "--json", "--config", config]).out)
        #expect(explained.first?["animator"] as? String == "default", "\(explained)")
        #expect(explained.first?["reason"] as? String == #"rules[0] (to "video") "# + refusal)
        #expect(explained.first?["played"] as? String == "as written", "the default is written for switches")
        let said = try runSegue(["explain", "photo", "video", "--config", config])
        #expect(said.out.hasPrefix("photo -> video: default (built-in)\n  config:     \(config)\n  rule:       rules[0] (to \"video\")\n  why:        rules[0] (to \"video\") \(refusal)"),
                "\(said.out)")

        let reports = try jsonLines(try runSegue(["run", "--json", "--config", config]).out)
        #expect(reports.map { $0["animator"] as? String } == ["default"], "\(reports)")
        #expect(reports.first?["reason"] as? String == explained.first?["reason"] as? String, "run says what explain said")
        #expect(reports.first?["fellBack"] as? Bool == true)

        // A preview forces its own rule (from and to): the same refusal, and a warning.
        let out = makeTemporaryFolder("pop-switch-preview") + "/switch.png"
        let previewed = try runSegue(["preview", "Pop", "--from", "photo", "--to", "video", "--config", config, "--json",
                                      "--out", out, "--frames", "2", "--scale", "0.1"])
        let written = try jsonLines(previewed.out)
        #expect(written.first?["animator"] as? String == "default", "\(previewed.out) \(previewed.err)")
        #expect((written.first?["reason"] as? String)?.hasSuffix(refusal) == true, "\(written)")
        #expect(previewed.err.contains(refusal), "\(previewed.err)")

        let listed = try runSegue(["list", "--config", config])
        #expect(listed.out.contains("""
                written for: appear, disappear
                plays: switch not at all (the built-in default plays it); appear as written; disappear as written
            """), "\(listed.out)")
        let listing = try jsonLines(try runSegue(["list", "--json", "--config", config]).out)
        let pop = (listing.first?["animators"] as? [[String: Any]])?.first { $0["name"] as? String == "Pop" }
        #expect(pop?["plays"] as? [String: String] == ["switch": "not at all (the built-in default plays it)",
                                                        "appear": "as written", "disappear": "as written"], "\(listing)")
    }

    @Test(arguments: [
        (#"[{"dismiss": "org.kde.kcalc"}]"#, "$.script[0].dismiss", "a window presented before (none is)"),
        (#"[{"present": "org.kde.kcalc"}, {"present": "org.kde.kcalc"}]"#, "$.script[1].present", "dismiss it first"),
        (#"[{"present": "kcalc"}]"#, "$.script[0].present", "the name of a window (org.kde.kcalc)"),
    ])
    func aScriptThatPresentsOutOfOrderIsRefusedByName(script: String, keyPath: String, expected: String) throws {
        let config = try Self.config(plugins: makeTemporaryFolder("none"), animator: "default", script: script)
        let checked = try runSegue(["check", "--config", config])
        #expect(checked.status != 0)
        let said = checked.out + checked.err
        #expect(said.contains(keyPath) && said.contains(expected), "\(said)")
    }

    @Test func previewDrawsAWindowClosingOverTheScene() throws {
        let out = makeTemporaryFolder("preview-kind") + "/close.png"
        let made = try runSegue(["preview", "Pop", "--kind", "disappear", "--out", out, "--frames", "3", "--scale", "0.25",
                                 "--plugins", try Self.popFolder()])
        #expect(made.status == 0, "\(made.err)")
        #expect(made.out.contains("Pop calculator disappearing from over photo"), "\(made.out)")
        let picture = try decodePNG(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        // The first still shows the calculator's blue (#3E8ED0) over the photo; the last, the photo alone.
        let third = picture.width / 3
        func blue(inStill k: Int) -> Int {
            var count = 0
            for y in stride(from: 0, to: picture.height, by: 2) {
                for x in stride(from: k * third, to: (k + 1) * third, by: 2) {
                    let i = (y * picture.width + x) * 4
                    let (r, g, b) = (Int(picture.rgba[i]), Int(picture.rgba[i + 1]), Int(picture.rgba[i + 2]))
                    if abs(r - 0x3E) < 12 && abs(g - 0x8E) < 12 && abs(b - 0xD0) < 12 { count += 1 }
                }
            }
            return count
        }
        #expect(blue(inStill: 0) > 50 && blue(inStill: 2) == 0, "\(blue(inStill: 0)) \(blue(inStill: 2))")
    }

    /// `--kind appear|disappear` takes the parameters of the rule that names
    /// the animator for that kind of the window's name, as a switch takes its
    /// rule's, and says which rule; `--param` still wins over it.
    @Test func aWindowPreviewUsesTheParametersOfTheRuleThatNamesTheAnimator() throws {
        let folder = makeTemporaryFolder("preview-window-rule")
        try """
            {"plugins": ["\(try Self.popFolder())"], "children": ["desktop", "other"],
             "windows": [{"name": "org.gnome.Calculator", "frame": [40, 100, 300, 400]}],
             "rules": [{"appear": "*", "animator": "Pop", "parameters": {"duration": 0.9}},
                       {"appear": "org.gnome.*", "animator": "Pop", "parameters": {"duration": 0.6, "scale": 0.5}},
                       {"appear": "org.gnome.*", "animator": "SpringSlide"},
                       {"disappear": "org.kde.*", "animator": "Pop", "parameters": {"duration": 2}},
                       {"disappear": "org.gnome.Calculator", "animator": "Pop", "parameters": {"duration": 0.3}}]}
            """.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        let cases: [(kind: String, extra: [String], rule: String, duration: Double, scale: Double)] = [
            ("appear", [], "rules[1]", 0.6, 0.5),
            ("appear", ["--param", "scale=0.9"], "rules[1]", 0.6, 0.9),
            ("disappear", [], "rules[4]", 0.3, 0.8),
        ]
        for c in cases {
            let made = try runSegue(["preview", "Pop", "--kind", c.kind, "--config", folder + "/segue.json", "--json",
                                     "--scale", "0.1", "--frames", "2", "--out", folder + "/w.png"] + c.extra)
            #expect(made.status == 0, "\(made.err)")
            let written = try #require(try jsonLines(made.out).first)
            let parameters = try #require(written["parameters"] as? [String: Any])
            #expect(written["rule"] as? String == c.rule && written["duration"] as? Double == c.duration, "\(c): \(written)")
            #expect(parameters["scale"] as? Double == c.scale, "\(c): \(parameters)")
            let text = try runSegue(["preview", "Pop", "--kind", c.kind, "--config", folder + "/segue.json",
                                     "--scale", "0.1", "--frames", "2", "--out", folder + "/w.png"] + c.extra)
            #expect(text.out.contains("(with \(c.rule)'s parameters from \(folder)/segue.json)"), "\(text.out)")
        }
        // No rule names the built-in default for a disappearance: its own values, and no rule said.
        let plain = try runSegue(["preview", "default", "--kind", "disappear", "--config", folder + "/segue.json", "--json",
                                  "--scale", "0.1", "--frames", "2", "--out", folder + "/w.png"])
        let written = try #require(try jsonLines(plain.out).first, "\(plain.err)")
        #expect(written["rule"] == nil && written["duration"] as? Double == 1, "\(written)")
    }

    /// `preview --json` names a window's two sides as `run --json` does: an
    /// appearance goes from the child beneath to the window, a disappearance
    /// from the window to the child beneath.
    @Test func previewNamesAWindowsSidesAsRunDoes() throws {
        let folder = try Self.popFolder()
        let played = try jsonLines(try runSegue(["run", "--json", "--plugins", folder]).out)
        for kind in ["appear", "disappear"] {
            let ran = try #require(played.first { $0["kind"] as? String == kind }, "the built-in scene plays a window's \(kind)")
            let made = try runSegue(["preview", "Pop", "--kind", kind, "--json", "--scale", "0.1", "--frames", "2",
                                     "--plugins", folder, "--out", makeTemporaryFolder("sides") + "/w.png"])
            #expect(made.status == 0, "\(made.err)")
            let previewed = try #require(try jsonLines(made.out).first)
            #expect(previewed["kind"] as? String == kind)
            #expect(previewed["from"] as? String == ran["from"] as? String && previewed["to"] as? String == ran["to"] as? String,
                    "\(kind): preview \(previewed["from"] ?? "-") -> \(previewed["to"] ?? "-"), run \(ran["from"] ?? "-") -> \(ran["to"] ?? "-")")
        }
        #expect(played.last?["from"] as? String == "calculator" && played.last?["to"] as? String == "photo", "the window is from, what is beneath to")
    }
}
