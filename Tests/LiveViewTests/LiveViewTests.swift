import Foundation
import HostTestSupport
import TestSupport
import Testing

@testable import HostConfig
@testable import HostContainer
@testable import LiveView
import PluginHost
import Renderer

/// The live view driven deterministically: a headless back end (frames into
/// memory, input from a list) and a wall clock the test steps a frame at a time.
final class LiveHarness {
    let session: LiveSession
    let backend = HeadlessBackend(scale: 0.5)
    let wall = VirtualClock(start: 100)
    let loop: LiveLoop

    init(config: SegueConfig = SegueConfig.builtinScene, registry: AnimatorRegistry = bundledRegistry) {
        session = LiveSession(config: config, registry: registry)
        loop = LiveLoop(session: session, backend: backend, wallClock: wall)
        frame()
    }

    /// One frame after `seconds` of wall time, with `inputs` read at its start.
    @discardableResult
    func frame(_ inputs: [LiveInput] = [], after seconds: Double = 1.0 / 60) -> Bool {
        wall.advance(by: seconds)
        backend.pending = inputs
        return loop.runFrame()
    }

    /// Frames until the live container is idle (at most `limit`); how many it took.
    @discardableResult
    func untilIdle(limit: Int = 2_000) -> Int {
        var count = 0
        while (session.container.isTransitioning || session.isReviewing) && count < limit {
            frame()
            count += 1
        }
        return count
    }

    var shown: String? { session.container.selectedViewController?.name }

    /// The presented frame's colour at stage point (x, y).
    func color(_ x: Double, _ y: Double) -> (Double, Double, Double) {
        let c = loop.canvas.color(x: Int(x * backend.scale), y: Int(y * backend.scale))
        return (c.red, c.green, c.blue)
    }

    /// Whether the colour at (x, y) is `hex`'s, within 2/255.
    func shows(_ hex: String, at x: Double = 200, _ y: Double = 200) -> Bool {
        let c = Color(hex: hex)!, found = color(x, y)
        return abs(Double(found.0) - c.red) < 0.01 && abs(Double(found.1) - c.green) < 0.01 && abs(Double(found.2) - c.blue) < 0.01
    }

    var pixels: [UInt8] { loop.canvas.pixels }

    /// A drag from (x0, y) to (x1, y) over `steps` frames, `seconds` long in all; released unless `release` is false.
    func drag(from x0: Double, to x1: Double, y: Double = 300, steps: Int = 6, seconds: Double = 0.3, release: Bool = true) {
        var t = wall.now
        frame([.pointer(.down, x: x0, y: y, time: t)])
        for k in 1...steps {
            t = wall.now + seconds / Double(steps)
            frame([.pointer(.moved, x: x0 + (x1 - x0) * Double(k) / Double(steps), y: y, time: t)], after: seconds / Double(steps))
        }
        if release { frame([.pointer(.up, x: x1, y: y, time: wall.now + 1.0 / 60)]) }
    }
}

/// The scene's child colours (the built-in palette).
enum SceneColor {
    static let photo = "#E8584F", video = "#F2A541", file = "#4FB477", contact = "#3E8ED0"
}

@Suite(.serialized)
struct LiveViewTests {
    @Test func theArrowKeysMoveToTheNeighbourAndTheFrameShowsIt() {
        let live = LiveHarness()
        #expect(live.shown == "photo" && live.shows(SceneColor.photo))
        #expect(live.backend.lastStatus.hasPrefix("photo"), "\(live.backend.lastStatus)")
        live.frame([.key(.right)])
        #expect(live.session.container.isTransitioning, "the key acts in the very next frame")
        #expect(live.session.statusText.contains("photo -> video SpringSlide"), "\(live.session.statusText)")
        #expect(live.untilIdle() > 5)
        #expect(live.shown == "video" && live.shows(SceneColor.video))
        live.frame([.key(.left)])
        live.untilIdle()
        #expect(live.shown == "photo" && live.shows(SceneColor.photo))
        // The index is clamped at either end.
        live.frame([.key(.left)])
        #expect(!live.session.container.isTransitioning && live.shown == "photo")
        live.frame([.key(.character("3"))])
        live.untilIdle()
        #expect(live.shown == "file" && live.shows(SceneColor.file))
        live.session.container.expectConsistentChildren()
    }

    @Test func aClickOnTheBarSelectsThatChildAndHighlightsIt() {
        let live = LiveHarness()
        let bar = live.session.barRect
        let cell = bar.width / Double(live.session.childNames.count)
        let (x, y) = (cell * 3 + cell / 2, bar.y + bar.height / 2)
        live.frame([.pointer(.down, x: x, y: y, time: live.wall.now), .pointer(.up, x: x, y: y, time: live.wall.now)])
        #expect(live.session.heading == 3)
        live.untilIdle()
        #expect(live.shown == "contact" && live.shows(SceneColor.contact))
        // The highlighted cell is the shown child's, near its left edge (away from its label).
        let h = Stage.highlight
        let found = live.color(cell * 3 + 5, y)
        #expect(abs(Double(found.0) - h.red) < 0.05 && abs(Double(found.2) - h.blue) < 0.05, "\(found)")
        let other = live.color(cell * 1 + 5, y)
        #expect(abs(Double(other.2) - h.blue) > 0.02 || abs(Double(other.0) - h.red) > 0.2, "\(other)")
    }

    @Test func aHorizontalDragMovesToTheNeighbour() {
        let live = LiveHarness()
        live.drag(from: 250, to: 150)
        live.untilIdle()
        #expect(live.shown == "video")
        live.drag(from: 150, to: 260)
        live.untilIdle()
        #expect(live.shown == "photo")
        // A vertical drag is no swipe.
        live.frame([.pointer(.down, x: 200, y: 200, time: live.wall.now)])
        live.frame([.pointer(.moved, x: 210, y: 400, time: live.wall.now)])
        live.frame([.pointer(.up, x: 210, y: 400, time: live.wall.now)])
        #expect(!live.session.container.isTransitioning && live.shown == "photo")
    }

    /// seed-002: a drag from the left edge is the interactive way back; released
    /// at 0.3 it cancels, at 0.7 it finishes, and a flick at 0.3 finishes.
    @Test(arguments: [(0.3, 0.3, "video"), (0.7, 0.3, "photo"), (0.3, 0.05, "photo")])
    func theEdgePanFollowsTheFingerAndItsReleaseDecides(_ c: (Double, Double, String)) {
        let (progress, seconds, expected) = c
        let live = LiveHarness()
        live.frame([.key(.right)])
        live.untilIdle()
        #expect(live.shown == "video")
        let atRest = live.pixels
        let width = live.session.size.width
        live.drag(from: 5, to: 5 + progress * width, steps: 5, seconds: seconds, release: false)
        #expect(live.session.container.isInteracting)
        #expect(live.pixels != atRest, "the transition follows the finger")
        live.frame([.pointer(.up, x: 5 + progress * width, y: 300, time: live.wall.now + 1.0 / 60)])
        live.untilIdle()
        #expect(live.shown == expected, "released at \(progress) after a \(seconds) s drag")
        let report = live.session.reports.last
        #expect(report?.interactive == true && report?.completed == (expected == "photo"))
        #expect(live.shows(expected == "photo" ? SceneColor.photo : SceneColor.video))
    }

    @Test func slowMotionPlaysTheSameTransitionFourTimesLonger() {
        let live = LiveHarness()
        live.frame([.key(.right)])
        let normal = live.untilIdle()
        live.frame([.key(.character("s"))])
        #expect(live.session.clock.speed == 0.25 && live.session.statusText.contains("0.25x"))
        live.frame([.key(.left)])
        let slow = live.untilIdle()
        #expect(Double(slow) > 3.5 * Double(normal), "\(normal) frames at 1x, \(slow) at 0.25x")
        live.frame([.key(.character("s"))])
        #expect(live.session.clock.speed == 0.1)
        live.frame([.key(.character("s"))])
        #expect(live.session.clock.speed == 1)
    }

    @Test func pauseHoldsTheFrameAndStepsGoAFrameEitherWay() throws {
        let live = LiveHarness()
        live.frame([.key(.right)])
        for _ in 0..<5 { live.frame() }
        live.frame([.key(.character(" "))])
        let held = try #require(live.session.timeline?.time)
        let frame = live.pixels
        for _ in 0..<5 { live.frame() }
        #expect(live.session.timeline?.time == held && live.pixels == frame && live.session.statusText.contains("paused"))
        live.frame([.key(.character("."))])
        let forward = try #require(live.session.timeline?.time)
        #expect(abs(forward - held - LiveSession.frameStep) < 1e-9)
        #expect(live.pixels != frame)
        live.frame([.key(.character(","))])
        live.frame([.key(.character(","))])
        #expect(live.session.isReviewing)
        let back = try #require(live.session.timeline?.time)
        #expect(abs(back - (held - LiveSession.frameStep)) < 1e-6, "\(back) vs \(held)")
        // Playing again leaves the replay at its end and the live transition finishes.
        live.frame([.key(.character(" "))])
        live.untilIdle()
        #expect(live.shown == "video" && !live.session.isReviewing)
    }

    @Test func replayPlaysTheLastTransitionAgainAndScrubbingShowsAnyMoment() throws {
        let live = LiveHarness()
        live.frame([.key(.right)])
        live.untilIdle()
        let end = live.pixels
        live.frame([.key(.character("r"))])
        #expect(live.session.isReviewing)
        live.frame()
        let early = live.pixels
        #expect(early != end, "a replay starts from the start")
        #expect(live.untilIdle() > 5)
        #expect(live.pixels == end && live.shown == "video")
        // Scrubbing: the timeline, dragged, shows the transition where the pointer is.
        let width = live.session.size.width
        live.frame([.pointer(.down, x: width / 2, y: 10, time: live.wall.now)])
        let half = try #require(live.session.timeline)
        #expect(abs(half.time - half.duration / 2) < 1e-6 && live.session.isReviewing)
        let middle = live.pixels
        live.frame([.pointer(.moved, x: width / 4, y: 10, time: live.wall.now)])
        #expect(abs((live.session.timeline?.time ?? 0) - half.duration / 4) < 1e-6)
        #expect(live.pixels != middle && middle != end && middle != early)
        live.frame([.pointer(.up, x: width / 4, y: 10, time: live.wall.now)])
        live.untilIdle()
        #expect(!live.session.isReviewing && live.pixels == end)
    }

    @Test func helpAndQuitAnswerTheirKeys() {
        let live = LiveHarness()
        live.frame([.key(.character("i"))])
        #expect(!live.session.showsStatus)
        let before = live.pixels
        live.frame([.key(.character("?"))])
        #expect(live.session.showsHelp && live.pixels != before)
        live.frame([.key(.escape)])
        #expect(!live.session.showsHelp && live.pixels == before)
        #expect(live.frame([.key(.character("q"))]) == false && live.session.quitRequested)
    }

    /// Every key of the one table does what the table says, its second keys
    /// (`p`, `h`) included, and docs/show.md and `show --help` show that table.
    /// o opens the scene's calculator over the child shown, c closes it: an
    /// appearance (Pop, by the scene's pattern rule) and a disappearance
    /// (CurlUp), the window drawn over the photo, then gone.
    @Test func oAndCOpenAndCloseTheScenesWindow() {
        let live = LiveHarness()
        live.frame([.key(.character("o"))])
        #expect(live.untilIdle() > 5)
        #expect(live.session.container.presentedViewController?.name == "calculator")
        #expect(live.shows(SceneColor.contact, at: 50, 600) && live.shows(SceneColor.photo, at: 20, 600),
                "the window's blue at its frame, the photo beside it")
        live.frame([.key(.character("o"))])
        #expect(!live.session.container.isTransitioning, "open already: nothing to do")
        live.frame([.key(.character("c"))])
        live.untilIdle()
        #expect(live.session.container.presentedViewController == nil && live.shows(SceneColor.photo, at: 50, 600))
        #expect(live.session.reports.map(\.kind) == [.appear, .disappear])
        #expect(live.session.reports.map(\.animator) == ["Pop", "CurlUp"])
        live.session.container.expectConsistentChildren()
    }

    /// An animator built against the ABI 1.0, 1.2 or 1.3 header opens and closes
    /// the window in the live view too, in its sandboxed worker.
    @Test(arguments: ["1.0", "1.2", "1.3"])
    func anOlderPluginOpensAndClosesTheWindow(_ version: String) throws {
        let folder = try CPlugin.curveSlide(builtAgainst: version)
        var config = SegueConfig.builtinScene
        config.rules = [SegueConfig.Rule(appear: "*", disappear: "*", animator: "CurveSlide", label: "rules[0]")]
        let registry = AnimatorRegistry(folders: [folder], isolation: .process)
        let live = LiveHarness(config: config, registry: registry)
        for key in ["o", "c"] {
            live.frame([.key(.character(Character(key)))])
            live.untilIdle()
        }
        #expect(live.session.reports.map(\.kind) == [.appear, .disappear])
        #expect(live.session.reports.allSatisfy { $0.animator == "CurveSlide" && !$0.fellBack && $0.completed }, "\(live.session.reports.map(\.reason))")
        #expect(live.session.container.presentedViewController == nil && live.shows(SceneColor.photo, at: 50, 600))
        live.session.container.expectConsistentChildren()
    }

    @Test func everyKeyOfTheTableActsAndTheDocsShowTheTable() throws {
        let live = LiveHarness()
        live.frame([.key(.character("p"))])
        #expect(live.session.clock.isPaused, "p pauses, as Space does")
        live.frame([.key(.character(" "))])
        #expect(!live.session.clock.isPaused)
        live.frame([.key(.character("h"))])
        #expect(live.session.showsHelp, "h shows the keys, as ? does")
        for control in LiveControls.all {
            for binding in control.bindings {
                #expect(LiveControls.action(for: binding.key) == binding.action, "\(binding.key) belongs to one row only")
            }
        }
        let page = try String(contentsOfFile: Paths.packageRoot + "/docs/show.md", encoding: .utf8)
        #expect(page.contains(LiveControls.markdownTable), "docs/show.md shows the table as LiveControls.markdownTable writes it")
        // show --help lists every row, keys then what they do, in the table's order.
        let help = try run(Paths.segue, ["show", "--help"]).out
        let keys = try #require(help.components(separatedBy: "KEYS AND GESTURES\n").dropFirst().first?.components(separatedBy: "\n\n").first)
        let folded = keys.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(folded == LiveControls.all.map { "\($0.label) \($0.meaning)" }.joined(separator: " "), "\(help)")
    }

    /// A plugin rebuilt under the view is used from the next transition, and a
    /// config saved with a mistake keeps the last good one, says why, and says when it is fixed.
    @Test func reloadsTakeARebuiltPluginAndKeepTheLastGoodConfig() throws {
        let folder = makeTemporaryFolder("live-reload")
        let path = folder + "/live.json"
        let good = #"{"rules": [{"to": "video", "animator": "TestFade"}]}"#
        try replaceByRename(path, with: good)
        let config = try SegueConfig.load(path: path)
        let registry = AnimatorRegistry(folders: [folder], isolation: .none)
        let reloader = ConfigReloader(config: config, configPath: path, registry: registry) { _ in [PluginFolder(folder, origin: .given)] }
        let live = LiveHarness(config: config, registry: registry)
        live.frame([.key(.right)])
        live.untilIdle()
        #expect(live.session.reports.last?.fellBack == true, "no TestFade yet: the default runs")
        #expect(live.session.banner?.text.contains("TestFade") == true)
        let built = try CPlugin.build(CPlugin.fixtureSource, name: "TestFade", into: folder)
        let notes = live.session.apply(reloader.reload(changed: [built]))
        #expect(notes.contains { $0.contains("TestFade") }, "\(notes)")
        live.frame([.key(.left)])
        live.untilIdle()
        live.frame([.key(.character("r"))])
        live.frame([.key(.right)])
        live.untilIdle()
        let report = try #require(live.session.reports.last)
        #expect(report.animator == "TestFade" && !report.fellBack, "\(report)")
        // A broken save: the banner says so, the rules stay.
        try replaceByRename(path, with: #"{"rules": [,]}"#)
        live.session.apply(reloader.reload(changed: [path]))
        #expect(live.session.banner?.kind == .error && live.session.banner?.text.contains("keeping the last good config") == true)
        #expect(live.session.banner?.text.contains("live.json:1:12: $.rules[0]: expected a value") == true, "\(live.session.banner?.text ?? "")")
        #expect(live.session.config == config)
        try replaceByRename(path, with: good)
        live.session.apply(reloader.reload(changed: [path]))
        #expect(live.session.banner?.kind == .info && live.session.banner?.text.contains("good again") == true)
    }

    /// A plugin that crashes mid-drag costs its own transition: the default
    /// finishes it, the banner names the plugin, the view goes on.
    @Test func aPluginCrashingMidDragIsFinishedByTheDefault() throws {
        let fixture = try CPlugin.fixture("CrashFade", "FAULT_CRASH_EVALUATE", "FIXTURE_NAME=\"CrashFade\"",
                                          "FIXTURE_ID=\"org.segue.test.crash/1\"")
        let config = try SegueConfig.parse(Data("""
            {"rules": [{"from": "video", "to": "photo", "animator": "CrashFade"}]}
            """.utf8), file: "crash.json", baseDirectory: fixture.folder)
        let live = LiveHarness(config: config, registry: AnimatorRegistry(folders: [fixture.folder]))
        live.frame([.key(.right)])
        live.untilIdle()
        live.drag(from: 5, to: 5 + 0.6 * live.session.size.width, steps: 6, seconds: 0.4, release: false)
        live.frame([.pointer(.up, x: 5 + 0.6 * live.session.size.width, y: 300, time: live.wall.now)])
        live.untilIdle()
        let report = try #require(live.session.reports.last)
        #expect(report.fellBack && report.from == "video" && report.to == "photo", "\(report)")
        #expect(live.shown == "photo" && live.shows(SceneColor.photo))
        let banner = try #require(live.session.banner)
        #expect(banner.text.contains("CrashFade"), "\(banner.text)")
        live.session.container.expectConsistentChildren()
        live.frame([.key(.character("x"))])
        #expect(live.session.banner == nil)
    }
}

extension ContainerViewController {
    /// Exactly one child shown, and it is the selected one.
    func expectConsistentChildren(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(children.count == 1 && view.subviews.count == 1, sourceLocation: sourceLocation)
        #expect(children.first === selectedViewController, sourceLocation: sourceLocation)
    }
}
