import Foundation
import Glibc
import HostTestSupport
import TestSupport
import Testing

@testable import Renderer

@testable import HostContainer
@testable import LiveView

@Suite(.serialized)
struct LiveWindowTests {
    /// What a show that opened no window is doing, for the failure message:
    /// its standard error, the windows on the display, its threads' stacks (with gdb).
    static func diagnose(_ show: LiveProcess, on display: VirtualDisplay) -> String {
        let windows = (try? display.text("xdotool", ["search", "--name", "."])) ?? "?"
        let stacks = FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") && show.process.isRunning
            ? (try? run("/usr/bin/gdb", ["-p", "\(show.process.processIdentifier)", "-batch", "-ex", "thread apply all bt 12"], timeout: 60).out) ?? ""
            : ""
        return "running: \(show.process.isRunning); standard error: \(show.waitForError("", timeout: 1)); windows: \(windows); \(stacks)"
    }


    /// The real window under Xvfb: keys and a drag sent with xdotool (XTEST),
    /// the window photographed with xwd: the child's colour, the status line's
    /// and the timeline's text, a mid-transition frame (paused, stepped a
    /// frame at a time) unlike both ends; `q` quits.
    @Test(.enabled(if: VirtualDisplay.available && VirtualDisplay.hasSDL, "\(VirtualDisplay.skipNote)"))
    func theWindowShowsTheChildTakesKeysAndDragsAndQuits() throws {
        let display = try VirtualDisplay()
        let tag = "window-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let show = try LiveProcess(Paths.segue, ["show", "--window"], in: NSTemporaryDirectory(),
                                   environment: tagged(tag).merging(["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"]) { $1 })
        defer { if show.process.isRunning { _ = show.stop(with: SIGKILL) } }
        let window = try #require(try display.window(named: "segue show"), "no window: \(Self.diagnose(show, on: display))")
        try display.tool("xdotool", ["windowfocus", "--sync", window])
        let first = try #require(try display.waitForCapture(window) { $0.shows(SceneColor.photo, at: 200, 200) })
        #expect(first.width == 390 && first.height == 844, "\(first.width)x\(first.height)")
        #expect(first.shows(SceneColor.photo, at: 200, 200))
        #expect(first.lightPixels(x: 0, y: 826, width: 390, height: 18) > 20, "the status line has text")
        try display.tool("xdotool", ["key", "Right"])
        // At rest: the transition over (else the frames stepped below would end it first).
        let video = try #require(try display.waitForStillCapture(window) { $0.shows(SceneColor.video, at: 200, 200) })
        #expect(video.shows(SceneColor.video, at: 200, 200))
        // Paused, the next transition begins and stands at its start; twelve frames on (0.2 s of CurlUp's
        // 0.4), however busy the machine, the frame in the middle differs from both ends.
        try display.tool("xdotool", ["key", "p", "Right"] + Array(repeating: "period", count: 12))
        let middle = try #require(try display.waitForStillCapture(window) { $0.differingPixels(from: video) > 20_000 })
        // SEGUE_SCREENSHOT=docs/segue-show.png: keep this photograph (the README's picture).
        if let path = ProcessInfo.processInfo.environment["SEGUE_SCREENSHOT"] {
            try Data(PNG.encode(middle.canvas(), comment: "segue show, photographed under Xvfb with xwd")).write(to: URL(fileURLWithPath: path))
        }
        #expect(middle.lightPixels(x: 0, y: 2, width: 390, height: 17) > 20, "the timeline names the transition and its animator")
        #expect(middle.lightPixels(x: 0, y: 826, width: 390, height: 18) > 20)
        try display.tool("xdotool", ["key", "p"])
        let file = try #require(try display.waitForCapture(window) { $0.shows(SceneColor.file, at: 200, 200) })
        #expect(file.shows(SceneColor.file, at: 200, 200))
        #expect(middle.differingPixels(from: video) > 5_000 && middle.differingPixels(from: file) > 5_000,
                "mid-transition: \(middle.differingPixels(from: video)) pixels differ from the start, \(middle.differingPixels(from: file)) from the end")
        // A drag leftwards across the window: the next child.
        try display.tool("xdotool", ["mousemove", "--window", window, "300", "400", "mousedown", "1",
                                     "mousemove", "--window", window, "250", "400", "mousemove", "--window", window, "180", "400",
                                     "mousemove", "--window", window, "150", "400", "mouseup", "1"])
        #expect(try display.waitForCapture(window) { $0.shows(SceneColor.contact, at: 200, 200) }.map { $0.shows(SceneColor.contact, at: 200, 200) } == true)
        try display.tool("xdotool", ["key", "q"])
        let deadline = Date().addingTimeInterval(10)
        while show.process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!show.process.isRunning && show.process.terminationStatus == 0)
        _ = show
        #expect(processesTagged(tag).isEmpty)
    }

    /// SIGTERM ends the window's view cleanly, workers and all.
    @Test(.enabled(if: VirtualDisplay.available && VirtualDisplay.hasSDL, "\(VirtualDisplay.skipNote)"))
    func sigtermClosesTheWindowCleanly() throws {
        let display = try VirtualDisplay()
        let tag = "window-term-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let show = try LiveProcess(Paths.segue, ["show", "--window", "--play"], in: NSTemporaryDirectory(),
                                   environment: tagged(tag).merging(["DISPLAY": display.name]) { $1 })
        defer { if show.process.isRunning { _ = show.stop(with: SIGKILL) } }
        _ = try #require(try display.window(named: "segue show"), "no window: \(Self.diagnose(show, on: display))")
        usleep(500_000)
        #expect(show.stop(with: SIGTERM) == 0)
        #expect(processesTagged(tag).isEmpty)
    }

    /// A real sixel terminal: xterm as a VT340 under Xvfb answers that it has
    /// sixel; the view draws the child there and takes a key; `q` ends it and
    /// with it the terminal.
    @Test(.enabled(if: VirtualDisplay.available && VirtualDisplay.has("xterm"),
                   "skipped: needs Xvfb, xdotool, xwd and xterm (apt-get install xvfb xdotool x11-apps xterm; .ci/run does)"))
    func xtermAsAVT340GetsSixelFrames() throws {
        let display = try VirtualDisplay()
        let tag = "sixel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let title = "segue-sixel-\(getpid())"
        let xterm = try LiveProcess("/usr/bin/xterm", [
            "-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256",
            "-geometry", "100x50", "-T", title, "-e", Paths.segue, "show", "--terminal",
        ], in: NSTemporaryDirectory(), environment: tagged(tag).merging(["DISPLAY": display.name]) { $1 })
        defer { if xterm.process.isRunning { _ = xterm.stop(with: SIGKILL) } }
        let window = try #require(try display.window(named: title), "no xterm window: \(Self.diagnose(xterm, on: display))")
        /// The mean colour of a 20 x 20 block (sixel frames are dithered to 216 colours).
        func mean(_ image: XWDImage, _ x: Int, _ y: Int) -> (Double, Double, Double) { image.mean(x, y, size: 20) }
        func near(_ c: (Double, Double, Double), _ hex: String) -> Bool { XWDImage.near(c, Color(hex: hex)!) }
        let photo = try display.waitForCapture(window) { near(mean($0, 100, 150), SceneColor.photo) }
        #expect(photo.map { near(mean($0, 100, 150), SceneColor.photo) } == true, "\(photo.map { mean($0, 100, 150) }.debugDescription)")
        try display.tool("xdotool", ["windowfocus", "--sync", window, "key", "2"])
        let video = try display.waitForCapture(window) { near(mean($0, 100, 150), SceneColor.video) }
        #expect(video.map { near(mean($0, 100, 150), SceneColor.video) } == true)
        try display.tool("xdotool", ["windowfocus", "--sync", window, "key", "q"])
        let deadline = Date().addingTimeInterval(10)
        while xterm.process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!xterm.process.isRunning, "segue show quit and xterm with it")
        #expect(processesTagged(tag).isEmpty)
    }

    /// The terminals people use, each under Xvfb as a person would drive it:
    /// kitty (its graphics protocol, by shared memory) and mlterm (sixel). One
    /// Right, two in quick succession (the second interrupting the first
    /// transition), then an interactive drag from the edge released early
    /// (cancelled): after each, the photograph shows the expected child's
    /// colour over the whole container and the bar's highlight inside the
    /// window; kitty logs no parse error and no synchronized update it had to
    /// end itself; `q` ends the view and the terminal with it.
    @Test(.enabled(if: VirtualDisplay.available && ["kitty", "mlterm", "python3"].allSatisfy(VirtualDisplay.has),
                   "skipped: needs Xvfb, xdotool, xwd, kitty, mlterm and python3 (apt-get install xvfb xdotool x11-apps kitty mlterm python3; .ci/run does)"),
          arguments: ["kitty", "mlterm"])
    func aRealTerminalShowsEveryStep(_ terminal: String) throws {
        let display = try VirtualDisplay()
        let tag = "\(terminal)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let title = "segue-\(terminal)-\(getpid())"
        let arguments = terminal == "kitty"
            ? ["--config", "NONE", "-o", "initial_window_width=900", "-o", "initial_window_height=1000", "-o", "remember_window_size=no",
               "--title", title, Paths.segue, "show", "--terminal"]
            // Xft, as desktops draw type: with X core fonts, mlterm reports a text area that is not its window's
            // once Type 1 fonts are installed (ImageMagick brings Ghostscript's), and the frame overflows it.
            : ["-g", "100x50", "--sb=false", "--type=xft", "--title", title, "-e", Paths.segue, "show", "--terminal"]
        // LiveProcess starts it with no signal blocked: mlterm learns that its program ended from SIGCHLD.
        let process = try LiveProcess("/usr/bin/" + terminal, arguments, in: NSTemporaryDirectory(),
                                      environment: tagged(tag).merging(["DISPLAY": display.name, "LIBGL_ALWAYS_SOFTWARE": "1"]) { $1 })
        defer { if process.process.isRunning { _ = process.stop(with: SIGKILL) } }
        // A terminal drawing with software GL can take long to map its window on a loaded two-core machine.
        let window = try #require(try display.window(named: title, timeout: 60), "no \(terminal) window: \(Self.diagnose(process, on: display))")
        func mean(_ image: XWDImage, _ x: Int, _ y: Int) -> (Double, Double, Double) { image.mean(x, y, size: 20) }
        let near = XWDImage.near
        /// The child's colour above, below and on both sides of its label, and the bar's highlight in the window's lower part.
        func shows(_ image: XWDImage, _ hex: String) -> Bool {
            let colour = Color(hex: hex)!
            let child = [(100, 150), (330, 150), (100, 320), (100, 650), (330, 700)].allSatisfy { near(mean(image, $0.0, $0.1), colour) }
            // The highlight holds the child's name in white: small blocks (a sixel dither's 4 x 4), not 20 x 20.
            let bar = stride(from: 820, to: min(image.height - 4, 990), by: 2).contains { y in
                stride(from: 0, to: min(image.width - 4, 440), by: 2).contains { x in near(image.mean(x, y, size: 4), Stage.highlight) }
            }
            return child && bar
        }
        func expectShows(_ hex: String, _ step: String) throws {
            let photo = try display.waitForCapture(window) { shows($0, hex) }
            #expect(photo.map { shows($0, hex) } == true,
                    "\(terminal), \(step): \(photo.map { p in [(100, 150), (330, 150), (100, 320), (100, 650), (330, 700), (20, 920)].map { mean(p, $0.0, $0.1) } }.debugDescription) \(photo.map { "\($0.width)x\($0.height)" } ?? "")")
        }
        try expectShows(SceneColor.photo, "the first frame")
        try display.tool("xdotool", ["windowfocus", "--sync", window, "key", "Right"])
        try expectShows(SceneColor.video, "one Right")
        try display.tool("xdotool", ["windowfocus", "--sync", window, "key", "--delay", "60", "Right", "Right"])
        try expectShows(SceneColor.contact, "two Rights in quick succession")
        // From the left edge a quarter of the way, back a little, released: the way back is cancelled.
        try display.tool("xdotool", ["mousemove", "--window", window, "3", "500", "mousedown", "1",
                                     "mousemove", "--window", window, "60", "500", "mousemove", "--window", window, "110", "500",
                                     "mousemove", "--window", window, "90", "500", "mouseup", "1"])
        try expectShows(SceneColor.contact, "an interactive drag released early")
        try display.tool("xdotool", ["windowfocus", "--sync", window, "key", "q"])
        let deadline = Date().addingTimeInterval(10)
        while process.process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!process.process.isRunning, "segue show quit and \(terminal) with it: \(processesTagged(tag, within: 0).map { pid in String(decoding: (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()).map { $0 == 0 ? 32 : $0 }, as: UTF8.self) })")
        let log = process.waitForError("", timeout: 1)
        #expect(!log.contains("PARSE ERROR") && !log.contains("Pending mode"), "\(terminal) logged: \(log.prefix(2000))")
        #expect(processesTagged(tag).isEmpty)
    }
}
