import Foundation
import Glibc
import Testing
import TestSupport
import HostTestSupport
import HostContainer
import Renderer

/// The GTK container as people meet it: the example app in a window under
/// Xvfb, driven with the keyboard and the mouse (xdotool) and photographed
/// (xwd); a plugin that crashes mid-switch; the widget from Python
/// (PyGObject) and JavaScript (GJS) through its typelib.
@Suite(.serialized, .enabled(if: GtkBuild.problem == nil, "\(GtkBuild.problem ?? "")"))
struct GtkAppTests {
    /// Each page's background, where nothing else is drawn (near the bottom of the window).
    static let backgrounds = ["list": Color(hex: "#fbfaf7")!, "form": Color(hex: "#e8f0fb")!, "picture": Color(hex: "#2b2d33")!]
    static let fixtures = Paths.packageRoot + "/Tests/Fixtures/gtk"

    /// The demo's window, started with `arguments`, on a display of its own.
    final class App {
        let display: VirtualDisplay
        let process: LiveProcess
        let window: String
        /// Where the stack begins in the window (under the switcher), and the middle of each of the switcher's tabs.
        let stackTop: Int
        let tabs: [String: (x: Int, y: Int)]
        let tag = "gtk-\(UUID().uuidString)"

        init(_ arguments: [String] = [], plugins: [String] = []) throws {
            display = try VirtualDisplay()
            let build = try GtkBuild.built.get()
            process = try LiveProcess(build + "/segue-gtk-demo", arguments, in: build,
                                      environment: try GtkBuild.environment(display: display.name, plugins: plugins, tag: tag))
            let out = process.waitForOutput("ready")
            let lines = out.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
            stackTop = lines.first { $0.first == "stack-top" && $0.count == 2 }.flatMap { Int($0[1]) } ?? 0
            tabs = Dictionary(lines.filter { $0.first == "tab" && $0.count == 4 }.map { ($0[1], (x: Int($0[2]) ?? 0, y: Int($0[3]) ?? 0)) }) { a, _ in a }
            let id = try display.window(named: "Segue GTK demo")
            window = try #require(id, "no window: \(process.standardError)")
            try display.tool("xdotool", ["windowfocus", "--sync", window])
        }

        /// Waits for the line a transition's end prints, the `count`-th from `from` to `to`; its fields.
        func finished(_ from: String, _ to: String, count: Int = 1) -> [String]? {
            let out = process.waitForOutput("finished|\(from)|\(to)|", count: count, timeout: 30)
            var seen = 0
            for line in out.split(separator: "\n") {
                let fields: [String] = line.split(separator: "|", omittingEmptySubsequences: false).map { String($0) }
                guard fields.count == 7, fields[0] == "finished", fields[1] == from, fields[2] == to else { continue }
                seen += 1
                if seen == count { return fields }
            }
            return nil
        }

        /// Whether the window shows `page` (its background at two places near the bottom), waiting for it.
        func shows(_ page: String) throws -> Bool {
            let colour = GtkAppTests.backgrounds[page]!
            let image = try display.waitForCapture(window) { image in
                image.width >= 390 && XWDImage.near(image.mean(200, 800, size: 8), colour) && XWDImage.near(image.mean(40, 760, size: 8), colour)
            }
            return image.map { XWDImage.near($0.mean(200, 800, size: 8), colour) && XWDImage.near($0.mean(40, 760, size: 8), colour) } ?? false
        }

        func key(_ name: String) throws { try display.tool("xdotool", ["key", name]) }

        /// A drag from the left edge at (4, 400) to `x`, in steps of `step` pixels, resting before the release.
        func drag(to x: Int, step: Int = 12) throws {
            try display.tool("xdotool", ["mousemove", "--window", window, "4", "400", "mousedown", "1"])
            var at = 4
            while at < x {
                at = min(at + step, x)
                try display.tool("xdotool", ["mousemove", "--window", window, String(at), "400"])
                usleep(16_000)
            }
            usleep(200_000)
            try display.tool("xdotool", ["mouseup", "1"])
        }

        /// Photographs the window into SEGUE_TEST_PHOTOS, when set.
        func photograph(_ name: String) throws {
            if let folder = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"], let image = try display.capture(window) {
                try Data(PNG.encode(image.canvas())).write(to: URL(fileURLWithPath: "\(folder)/\(name).png"))
            }
        }

        /// Quits with q; its exit status.
        func quit() throws -> Int32? {
            try key("q")
            return process.stop(with: 0, timeout: 10)
        }
    }

    @Test func keysAndAnEdgeDragSwitchPagesAndAnEarlyReleaseCancels() throws {
        let app = try App(["--animator", "SpringSlide"])
        #expect(try app.shows("list"))
        try app.key("Right")
        #expect(app.finished("list", "form")?[3] == "SpringSlide")
        #expect(try app.shows("form"))
        try app.photograph("gtk-form")
        // Dragged most of the way from the left edge and let go: the way back finishes.
        try app.drag(to: 300)
        let back = app.finished("form", "list")
        #expect(back?[4] == "1", "completed: \(back ?? [])")
        #expect(try app.shows("list"))
        try app.key("Right")
        #expect(app.finished("list", "form", count: 2) != nil)
        #expect(try app.shows("form"))
        // Let go early: cancelled, the form stays.
        try app.drag(to: 80)
        let cancelled = app.finished("form", "list", count: 2)
        #expect(cancelled?[4] == "0", "cancelled: \(cancelled ?? [])")
        #expect(try app.shows("form"))
        try app.key("Right")
        #expect(app.finished("form", "picture") != nil)
        #expect(try app.shows("picture"))
        try app.photograph("gtk-picture")
        // A click on the Back button, which lies at the edge a swipe starts from: a click, not a swipe.
        try app.display.tool("xdotool", ["mousemove", "--window", app.window, "16", String(app.stackTop + 27), "click", "1"])
        #expect(app.finished("picture", "form")?[4] == "1", "the button went back")
        #expect(try app.shows("form"))
        #expect(try app.quit() == 0)
        #expect(processesTagged(app.tag).isEmpty, "no worker left")
    }

    @Test func aClickOnASwitcherTabPlaysTheSwitchToItsPage() throws {
        let app = try App(["--animator", "SpringSlide"])
        #expect(app.tabs.keys.sorted() == ["Booking", "Lofoten", "Places"], "a tab per titled page: \(app.tabs)")
        let tab = try #require(app.tabs["Lofoten"])
        try app.display.tool("xdotool", ["mousemove", "--window", app.window, String(tab.x), String(tab.y), "click", "1"])
        #expect(app.finished("list", "picture")?[3] == "SpringSlide", "a transition played")
        #expect(try app.shows("picture"))
        #expect(try app.quit() == 0)
        #expect(processesTagged(app.tag).isEmpty, "no worker left")
    }

    @Test func aPluginThatCrashesMidSwitchCostsOnlyItsTransition() throws {
        let (folder, _) = try CPlugin.fixture("gtk-crash", "FAULT_CRASH_EVALUATE")
        let app = try App(["--animator", "TestFade"], plugins: [folder])
        try app.key("Right")
        let first = app.finished("list", "form")
        #expect(first?[3] == "default" && first?[5] == "1", "the default finished it: \(first ?? [])")
        #expect(first?[6].contains("TestFade") == true, "the reason names the plugin: \(first ?? [])")
        #expect(try app.shows("form"))
        // The app lives on: the next switch plays.
        try app.key("Right")
        #expect(app.finished("form", "picture") != nil)
        #expect(try app.shows("picture"))
        #expect(try app.quit() == 0)
        #expect(processesTagged(app.tag).isEmpty, "no worker left")
    }

    /// Lines `finished|...` of a program's output, as fields.
    static func finishedLines(_ out: String) -> [[String]] {
        out.split(separator: "\n").map { line -> [String] in line.split(separator: "|", omittingEmptySubsequences: false).map { String($0) } }
            .filter { $0.count == 7 && $0[0] == "finished" }
    }

    @Test func pythonPlaysATransitionByNameAndByRuleThroughPyGObject() throws {
        let display = try VirtualDisplay()
        let config = makeTemporaryFolder("gtk-python") + "/segue.json"
        try #"{"rules": [{"to": "c", "animator": "CurlUp"}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let tag = "gtk-\(UUID().uuidString)"
        let result = try run("/usr/bin/python3", [Self.fixtures + "/stack.py", config],
                             environment: try GtkBuild.environment(display: display.name, tag: tag), timeout: 90)
        let lines = Self.finishedLines(result.out)
        #expect(result.status == 0, "\(result.err)")
        #expect(lines.count == 2, "two switches: \(result.out)\(result.err)")
        #expect(lines.first.map { Array($0[1...5]) } == ["a", "b", "SpringSlide", "1", "0"], "by name: \(lines)")
        #expect(lines.last.map { Array($0[1...5]) } == ["b", "c", "CurlUp", "1", "0"], "by rule: \(lines)")
        #expect(lines.last?[6] == #"rules[0] (to "c")"#, "the rule is the reason: \(lines)")
        #expect(result.out.contains("visible|a") && result.out.contains("visible|c"), "the visible-child-name property: \(result.out)")
        #expect(result.out.contains("pages|First,Second,Third"), "the pages model's titles through the typelib: \(result.out)")
        #expect(processesTagged(tag).isEmpty, "no worker left")
    }

    @Test func javaScriptPlaysATransitionThroughGJS() throws {
        let display = try VirtualDisplay()
        let result = try run("/usr/bin/gjs", [Self.fixtures + "/stack.js"], environment: try GtkBuild.environment(display: display.name),
                             timeout: 90)
        let lines = Self.finishedLines(result.out)
        #expect(result.status == 0, "\(result.err)")
        #expect(lines.first.map { Array($0[1...5]) } == ["a", "b", "CurlUp", "1", "0"], "\(result.out)\(result.err)")
    }
}
