import Foundation
import Glibc
import Testing
import TestSupport
import HostTestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI
import HostContainer
import Renderer

/// Integrations/qt: SegueStackedWidget (QWidget apps) and SegueStackView (QML, `import Segue 1.0`), built
/// with CMake for Qt 6 (offscreen) and Qt 5.15 (Xvfb) against the installed libsegue, in their demos.
/// What each draws, held mid-switch, is what Segue's renderer draws of the same layers over the same
/// page pictures; crashes, config edits, removals and quick switches leave the app consistent and no
/// worker behind.
@Suite(.serialized)
struct QtAppTests {
    /// The bundled animators and the C++ example (CardFlip, a perspective).
    static let animators = ["default", "SpringSlide", "CurlUp", "ImageZoom", "Pop", "CardFlip"]
    /// ABI 1.4's look, drawn by the widget container only: the iris example's clip, a circle.
    static let looks = ["Iris"]
    static let fractions = [0.3, 0.7]
    /// ImageZoom needs an element both pages name, Pop plays only appearances: the apps describe no
    /// elements and play switches, so both run the built-in default, said in the report.
    static let fallsBack: Set<String> = ["ImageZoom", "Pop"]

    /// Runs `demo` of Qt `major` with `arguments`, on a display of its own for Qt 5 (and for Qt 6 with
    /// `gl`: OpenGL through its RHI, not the offscreen software renderer); its output.
    static func runDemo(_ major: Int, _ demo: String, _ arguments: [String], plugins: [String] = [], tag: String? = nil,
                        gl: Bool = false, scale: Int = 1) throws -> (status: Int32, out: String, err: String) {
        let build = try QtBuild.built(major)
        let display = major == 5 || gl ? try GtkStackTests.display(scale: scale) : nil
        var environment = try QtBuild.environment(major, display: display?.name, plugins: plugins, tag: tag)
        if scale != 1 { environment["QT_SCALE_FACTOR"] = String(scale) }
        return try run(build + "/" + demo, arguments, environment: environment, timeout: 120)
    }

    @Test(arguments: [6, 5])
    func eachBundledAnimatorDrawsAsSeguesRendererDrawsIt(_ major: Int) throws {
        if let problem = QtBuild.problem(major) { print(problem); return }
        // Qt 6's QML demo also on OpenGL (its RHI), where meshes go through the scene graph as in Qt 5.
        let runs = [("segue-qt-widgets-demo", false), ("segue-qt-qml-demo", false)] + (major == 6 ? [("segue-qt-qml-demo", true)] : [])
        try Self.compare(major, runs: runs.map { demo, gl in
            (demo, gl, gl ? ["CurlUp", "CardFlip"] : Self.animators + (demo == "segue-qt-widgets-demo" ? Self.looks : []))
        })
    }

    /// On a HiDPI screen (QT_SCALE_FACTOR=2: the apps drawn in pixels twice a point's size, their frames grabbed
    /// so, shrunk to points for the comparison), a flat layer, a perspective, a mesh page and a look draw as at
    /// scale 1, within the same bounds: Qt 6's widgets, its QML on the software renderer (where a fading page
    /// fades item by item: SpringSlide's pages fade) and on OpenGL, and Qt 5's QML.
    @Test(arguments: [6, 5])
    func atScaleTwoEachKindOfLayerDrawsAsSeguesRendererDrawsIt(_ major: Int) throws {
        if let problem = QtBuild.problem(major) { print(problem); return }
        let runs = major == 6 ? [("segue-qt-widgets-demo", false, ["SpringSlide", "CurlUp", "CardFlip", "Iris"]),
                                 ("segue-qt-qml-demo", false, ["SpringSlide", "CardFlip"]),
                                 ("segue-qt-qml-demo", true, ["SpringSlide", "CurlUp", "CardFlip"])]
                              : [("segue-qt-qml-demo", false, ["SpringSlide", "CurlUp", "CardFlip"])]
        try Self.compare(major, runs: runs, scale: 2)
    }

    /// Each of `runs` (a demo of Qt `major`, on OpenGL or not, and the animators it plays) holding switches at
    /// ``fractions`` at `scale`, against Segue's renderer drawing the same layer states.
    static func compare(_ major: Int, runs: [(demo: String, gl: Bool, animators: [String])], scale: Int = 1) throws {
        for (demo, gl, animators) in runs {
            let folder = makeTemporaryFolder("qt\(major)-frames")
            let result = try Self.runDemo(major, demo, ["--frames", folder, "--animators", animators.joined(separator: ","),
                                                        "--fractions", Self.fractions.map { String($0) }.joined(separator: ",")], gl: gl, scale: scale)
            try #require(result.status == 0 && result.out.hasSuffix("done\n"), "\(demo) --frames: \(result.status)\n\(result.out)\n\(result.err)")
            if demo == "segue-qt-qml-demo" && animators.contains("CurlUp") {
                // A mesh through the scene graph (a textured grid) wherever Qt Quick draws with OpenGL; with
                // the software renderer (Qt 6 offscreen), which draws no custom geometry, with QPainter.
                let how = major == 5 || gl ? "scenegraph" : "painted"
                for fraction in Self.fractions {
                    #expect(result.out.contains("held|CurlUp|\(fraction)|meshes \(how)\n"), "Qt \(major)\(gl ? " GL" : ""): CurlUp's mesh drawn \(how): \(result.out)")
                }
            }
            let name = demo + (gl ? "-gl" : "") + (scale == 1 ? "" : "-scale\(scale)")
            let finished = GtkAppTests.finishedLines(result.out.replacingOccurrences(of: "finished|", with: "finished|-|-|"))
            for animator in animators {
                let ran = Self.fallsBack.contains(animator) ? "default" : animator
                if Self.fallsBack.contains(animator) {
                    #expect(finished.contains { $0[3] == "default" && $0[5] == "1" && $0[6].contains(animator) },
                            "\(name): \(animator) fell back to the default, said: \(result.out)")
                } else {
                    #expect(finished.contains { $0[3] == animator && $0[5] == "0" }, "\(name): \(animator) ran: \(result.out)")
                }
                let held = GtkStackTests.Held(folder: folder + "/" + animator, lines: [])
                for fraction in Self.fractions {
                    let sampled = try GtkStackTests.states(ran, held, at: fraction)
                    let mesh = sampled.layers.contains { $0.mesh_columns > 0 }
                    let canvas = try GtkStackTests.expected(sampled, held, at: fraction)
                    var shot = try GtkStackTests.picture("\(held.folder)/frame-\(fraction).png")
                    #expect(shot.width == scale * GtkStackTests.width && shot.height == scale * GtkStackTests.height, "\(name) grabbed \(shot.width)x\(shot.height)")
                    if scale != 1 {
                        let points = DecodedPNG(width: shot.width, height: shot.height, rgba: shot.rgba).shrunk(by: scale)
                        shot = (points.width, points.height, points.rgba)
                    }
                    let (mean, far) = GtkStackTests.difference(shot, canvas)
                    let tolerance = mesh ? QtAppTests.meshTolerance : GtkStackTests.flatTolerance
                    if let photos = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] {
                        try Data(PNG.encode(canvas)).write(to: URL(fileURLWithPath: "\(photos)/qt\(major)-\(name)-\(animator)-\(fraction)-segue.png"))
                        try? FileManager.default.removeItem(atPath: "\(photos)/qt\(major)-\(name)-\(animator)-\(fraction)-qt.png")
                        try FileManager.default.copyItem(atPath: "\(held.folder)/frame-\(fraction).png",
                                                          toPath: "\(photos)/qt\(major)-\(name)-\(animator)-\(fraction)-qt.png")
                    }
                    print("Qt \(major) \(name) \(animator) at \(fraction): mean difference \(String(format: "%.2f", mean))/255, \(String(format: "%.2f", far * 100))% far")
                    #expect(mean <= tolerance.mean && far <= tolerance.far,
                            "Qt \(major) \(name) \(animator) at \(fraction): mean difference \(mean)/255, \(far * 100)% far; \(Self.likeness(held, at: fraction)); the demo said: \(result.out)")
                }
            }
        }
    }

    /// What a held frame that is not the animator's looks like instead: its mean difference (0-255) from
    /// each page at rest, said when a comparison fails (the frames' folder is gone when the run ends).
    static func likeness(_ held: GtkStackTests.Held, at fraction: Double) -> String {
        guard let shot = try? GtkStackTests.picture("\(held.folder)/frame-\(fraction).png") else { return "the frame is unreadable" }
        return ["list", "picture"].map { page in
            guard let rest = try? GtkStackTests.picture("\(held.folder)/page-\(page)-\(fraction).png") else { return "no \(page) page at rest" }
            return String(format: "%.1f from the %@ page at rest", SDLPlayerTests.difference(shot.rgba, rest.rgba).mean, page)
        }.joined(separator: ", ")
    }

    /// A mesh drawn as triangles: in the scene graph lit per vertex as Segue's renderer lights it, with
    /// QPainter each textured by its affine map and lit by the mean of its corners' light; either way
    /// its edges rasterised apart.
    static let meshTolerance = (mean: 3.0, far: 0.02)

    /// Fields of the `state|...` line a demo prints after its switches.
    static func state(_ out: String) -> [String] {
        out.split(separator: "\n").first { $0.hasPrefix("state|") }.map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    @Test(arguments: [6, 5])
    func twoHundredQuickSwitchesEndConsistentWithNoWorkerLeft(_ major: Int) throws {
        if let problem = QtBuild.problem(major) { print(problem); return }
        for demo in ["segue-qt-widgets-demo", "segue-qt-qml-demo"] {
            let tag = "qt-\(UUID().uuidString)"
            let result = try Self.runDemo(major, demo, ["--switches", "200", "--interval", "4", "--animator", "SpringSlide"], tag: tag)
            let state = Self.state(result.out)
            #expect(result.status == 0, "\(demo): \(result.err)")
            try #require(state.count == 6, "\(demo): \(result.out)")
            if demo == "segue-qt-widgets-demo" {
                // current index, current shown, pages shown, running, transitions finished
                #expect(state[2] == "1" && state[3] == "1" && state[4] == "0", "\(demo): one page shown, none playing: \(state)")
            } else {
                // depth, current item's name, pages shown, busy, transitions finished
                let expected = ["1": "list", "2": "picture", "3": "form"][state[1]]
                #expect(expected != nil && state[2] == expected, "\(demo): the current item is the top of the stack: \(state)")
                #expect(state[3] == "1" && state[4] == "0", "\(demo): one page shown, not busy: \(state)")
            }
            #expect(state[5] == "200", "\(demo): each switch finished once: \(state)")
            // SpringSlide played every switch; where its worker set up after begin's 100 ms (a busy machine's,
            // likely in 200 switches), the default did, saying so.
            let finished = GtkAppTests.finishedLines(result.out.replacingOccurrences(of: "finished|", with: "finished|-|-|"))
            let others = finished.filter { $0[3] != "SpringSlide" }
            #expect(finished.contains { $0[3] == "SpringSlide" }
                    && others.allSatisfy { $0[3] == "default" && $0[6].hasPrefix("SpringSlide did not set up within 100 ms") },
                    "\(demo): SpringSlide played every switch: \(others)")
            #expect(processesTagged(tag).isEmpty, "\(demo): no worker left")
        }
    }

    /// `cmake --install` puts the module in PREFIX/lib/qtN/qml/Segue; an app finds it there through
    /// QML_IMPORT_PATH (Qt 6) or QML2_IMPORT_PATH (Qt 5), as docs/qt.md says, and libsegue through the
    /// libraries' run path; without the variable it is not found.
    @Test(arguments: [6, 5])
    func theInstalledModuleIsFoundWhereTheDocsSay(_ major: Int) throws {
        if let problem = QtBuild.problem(major) { print(problem); return }
        let build = try QtBuild.built(major)
        let prefix = makeTemporaryFolder("qt\(major)-installed")
        let installed = try run("/usr/bin/cmake", ["--install", build, "--prefix", prefix])
        try #require(installed.status == 0, "\(installed.out)\(installed.err)")
        #expect(FileManager.default.fileExists(atPath: "\(prefix)/lib/qt\(major)/qml/Segue/qmldir"))
        #expect(FileManager.default.fileExists(atPath: "\(prefix)/lib/libsegue-qt\(major)widgets.so.1"))
        let display = major == 5 ? try VirtualDisplay() : nil
        var environment = try QtBuild.environment(major, display: display?.name)
        environment[major == 6 ? "QML_IMPORT_PATH" : "QML2_IMPORT_PATH"] = "\(prefix)/lib/qt\(major)/qml"
        let found = try run(build + "/segue-qt-qml-demo", ["--installed", "--switches", "1", "--interval", "700", "--animator", "SpringSlide"],
                            environment: environment, timeout: 60)
        #expect(found.status == 0 && found.out.contains("finished|SpringSlide|1|0|"), "\(found.out)\(found.err)")
        environment[major == 6 ? "QML_IMPORT_PATH" : "QML2_IMPORT_PATH"] = nil
        let missing = try run(build + "/segue-qt-qml-demo", ["--installed", "--switches", "1"], environment: environment,
                              unsetting: ["QML_IMPORT_PATH", "QML2_IMPORT_PATH"], timeout: 60)
        #expect(missing.status != 0 && missing.err.contains("module \"Segue\" is not installed"), "\(missing.err)")
    }

    /// A drag from the left edge of the QML view pops as the finger moves (of the widget container,
    /// goes to the page before); let go past half way (at rest) it finishes, a little way it goes
    /// back, by libsegue's edge-pan rule.
    @Test(arguments: [6, 5])
    func anEdgeSwipePopsOrGoesBackByTheEdgePanRule(_ major: Int) throws {
        if let problem = QtBuild.problem(major) { print(problem); return }
        let tag = "qt-\(UUID().uuidString)"
        let result = try Self.runDemo(major, "segue-qt-qml-demo", ["--swipe", "--animator", "SpringSlide"], tag: tag)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(result.status == 0, "\(result.err)")
        #expect(lines.filter { $0 == "swiping|1" }.count == 2, "each drag drove a transition: \(result.out)")
        #expect(lines.filter { $0.hasPrefix("swipe|") } == ["swipe|1|list", "swipe|2|picture"], "finished, then went back: \(result.out)")
        let finished = GtkAppTests.finishedLines(result.out.replacingOccurrences(of: "finished|", with: "finished|-|-|"))
        #expect(finished.map { "\($0[3])|\($0[4])" }.suffix(1) == ["SpringSlide|0"], "the last swipe was taken back: \(finished)")
        #expect(processesTagged(tag).isEmpty, "no worker left")

        let widgets = try Self.runDemo(major, "segue-qt-widgets-demo", ["--swipe", "--animator", "SpringSlide"], tag: tag)
        let widgetLines = widgets.out.split(separator: "\n").map(String.init)
        #expect(widgets.status == 0, "\(widgets.err)")
        #expect(widgetLines.filter { $0 == "swiping|1" }.count == 2, "each drag drove a transition: \(widgets.out)")
        #expect(widgetLines.filter { $0.hasPrefix("swipe|") } == ["swipe|0", "swipe|1"], "finished, then went back: \(widgets.out)")
        #expect(widgetLines.last { $0.hasPrefix("finished|") } == "finished|SpringSlide|0|0|the program's choice", "\(widgets.out)")
        #expect(processesTagged(tag).isEmpty, "no worker left")
    }

    /// TestFade (0.5 s) crashes or hangs in its first evaluate: the default finishes that switch from
    /// the same point (the hang is ended at its 0.5 s deadline, which may come after the switch has
    /// ended: it is then logged after it), the next one plays, the app lives on. The crash in the
    /// widgets demo, the hang in the QML one.
    @Test(arguments: ["FAULT_CRASH_EVALUATE", "FAULT_HANG_EVALUATE"])
    func aPluginThatCrashesOrHangsMidSwitchCostsOnlyItsTransition(_ fault: String) throws {
        if let problem = QtBuild.problem(6) { print(problem); return }
        let (folder, _) = try CPlugin.fixture("qt-\(fault)", fault)
        for demo in [fault == "FAULT_CRASH_EVALUATE" ? "segue-qt-widgets-demo" : "segue-qt-qml-demo"] {
            let tag = "qt-\(UUID().uuidString)"
            let result = try Self.runDemo(6, demo, ["--switches", "2", "--interval", "1100", "--animator", "TestFade"], plugins: [folder], tag: tag)
            let finished = GtkAppTests.finishedLines(result.out.replacingOccurrences(of: "finished|", with: "finished|-|-|"))
            #expect(result.status == 0, "\(demo) lives on: \(result.err)")
            #expect(finished.count == 2, "\(demo): both switches finished: \(result.out)")
            if fault == "FAULT_CRASH_EVALUATE" {
                #expect(finished.first.map { $0[3] == "default" && $0[4] == "1" && $0[5] == "1" && $0[6].contains("TestFade crashed") } == true,
                        "\(demo): the default finished the crashed one, saying so: \(finished)")
            } else {
                let said = { (text: String) in text.contains("TestFade did not answer within 0.5") && text.contains("and was killed in evaluate") }
                #expect(finished.first.map { $0[4] == "1" && (said($0[6]) || said(result.err)) } == true,
                        "\(demo): the hang is said, in the switch's reason or logged after it: \(finished) \(result.err)")
            }
            #expect(Self.state(result.out).count == 6, "\(demo): \(result.out)")
            #expect(processesTagged(tag).isEmpty, "\(demo): no worker left")
        }
    }

    /// A rule by the pages' objectName chooses the animator; an edit of the config while the app runs
    /// chooses the next switch's.
    @Test func aConfigEditedWhileTheAppRunsChangesTheNextSwitchsAnimator() throws {
        if let problem = QtBuild.problem(6) { print(problem); return }
        let build = try QtBuild.built(6)
        let config = makeTemporaryFolder("qt-live-config")
        try FileManager.default.createDirectory(atPath: config + "/segue", withIntermediateDirectories: true)
        try #"{"rules": [{"from": "list", "to": "picture", "animator": "SpringSlide"}]}"#
            .write(toFile: config + "/segue/segue.json", atomically: true, encoding: .utf8)
        let tag = "qt-\(UUID().uuidString)"
        let app = try LiveProcess(build + "/segue-qt-widgets-demo", ["--switches", "100000", "--interval", "150"], in: config,
                                  environment: try QtBuild.environment(6, display: nil, config: config, tag: tag))
        let ruled = app.waitForOutput("no rule matches form -> list")
        #expect(ruled.contains(#"finished|SpringSlide|1|0|rules[0] (from "list", to "picture")"#), "the rule chose list -> picture's animator: \(ruled)")
        #expect(ruled.contains("finished|default|1|0|no rule matches picture -> form"), "no rule, the default: \(ruled)")
        try #"{"defaultAnimator": "CurlUp"}"#.write(toFile: config + "/segue/segue.json", atomically: true, encoding: .utf8)
        #expect(app.waitForOutput("finished|CurlUp|", timeout: 20).contains("finished|CurlUp|"), "the edited config's animator plays: \(app.standardError)")
        #expect(app.stop(with: SIGTERM) == 0, "SIGTERM ends the app cleanly")
        #expect(processesTagged(tag).isEmpty, "no worker left")
    }

    @Test func removingTheArrivingPageMidSwitchEndsItConsistently() throws {
        if let problem = QtBuild.problem(6) { print(problem); return }
        let tag = "qt-\(UUID().uuidString)"
        let result = try Self.runDemo(6, "segue-qt-widgets-demo", ["--switches", "6", "--interval", "10", "--remove-mid"], tag: tag)
        let removed = result.out.split(separator: "\n").first { $0.hasPrefix("removed|") }.map { $0.split(separator: "|").map(String.init) } ?? []
        #expect(result.status == 0, "\(result.err)")
        #expect(removed.count == 4 && removed[1] == "2" && removed[3] == "0", "two pages left, no transition running: \(result.out)")
        let state = Self.state(result.out)
        #expect(state.count == 6 && state[2] == "1" && state[3] == "1" && state[4] == "0", "one page shown, none playing: \(result.out)")
        #expect(processesTagged(tag).isEmpty, "no worker left")
    }
}
