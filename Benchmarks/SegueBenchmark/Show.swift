import Foundation
import Glibc
import HostConfig
import HostContainer
import LiveView
import PluginHost
import Renderer

/// `segue show`'s figures: for each bundled animator and the default, the
/// time from a frame's start to its present (median, 99th percentile) over
/// its transition at 60 Hz, in a window (SDL2: the display's when DISPLAY is
/// set, else SDL's dummy driver) and in the half-block terminal back end (on a
/// pseudo-terminal of 240 x 120 cells whose other side is read and dropped);
/// the bytes written per frame by each terminal back end; and the dropped
/// frames over 10 seconds of the built-in scene playing its script at 60 Hz.
func showBenchmark(registry: AnimatorRegistry) {
    if ProcessInfo.processInfo.environment["DISPLAY"] == nil { setenv("SDL_VIDEODRIVER", "dummy", 1) }
    let stage = Rect.phonePortrait
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    func p99(_ values: [Double]) -> Double { let s = values.sorted(); return s[min(s.count - 1, Int((Double(s.count) * 0.99).rounded(.up)) - 1)] }

    /// A pseudo-terminal whose output is read and thrown away on a thread.
    func terminal(columns: Int, rows: Int) -> Int32? {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else { return nil }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while buffer.withUnsafeMutableBytes({ read(master, $0.baseAddress, $0.count) }) > 0 {}
        }
        return slave
    }

    /// Plays `from` -> `to` by `animator` at 60 Hz and returns each frame's start-to-present time.
    func transition(_ backend: any LiveBackend, animator: String, from: String, to: String) -> [Double] {
        var config = SegueConfig.builtinScene
        config.rules = [SegueConfig.Rule(from: from, to: to, animator: animator, label: "benchmark")]
        let session = LiveSession(config: config, registry: registry, size: stage)
        if ProcessInfo.processInfo.environment["SEGUE_BENCH_NOSTATUS"] != nil { session.showsStatus = false }
        let wall = VirtualClock(start: 1)
        let loop = LiveLoop(session: session, backend: backend, wallClock: wall)
        session.select(session.childNames.firstIndex(of: from)!)
        while session.container.isTransitioning { wall.advance(by: 1.0 / 60); loop.runFrame() }
        loop.runFrame()
        session.select(session.childNames.firstIndex(of: to)!)
        let before = loop.frameTimes.count
        repeat {
            wall.advance(by: 1.0 / 60)
            loop.runFrame()
        } while session.container.isTransitioning
        return Array(loop.frameTimes[before...])
    }

    let cases = [("default", "photo", "video"), ("SpringSlide", "photo", "video"), ("CurlUp", "video", "file"), ("ImageZoom", "grid", "detail")]
    let window: SDLWindowBackend
    do { window = try SDLWindowBackend(stage: stage) } catch { print("  no window: \(error)"); return }
    guard let tty = terminal(columns: 240, rows: 120),
          let halfBlocks = try? TerminalBackend(input: tty, output: tty, stage: stage, graphics: .halfBlocks) else {
        print("  no pseudo-terminal")
        return
    }
    print("Live view, 390x844 points, one transition at 60 Hz; frame start to present (ms), median / 99th percentile:")
    print("  window: SDL \(window.driver) driver, \(String(format: "%.2f", window.scale)) pixels per point; terminal: 240x120 cells of half-blocks, \(String(format: "%.3f", halfBlocks.scale)) pixels per point")
    print("  animator      frames   window median  p99     half-blocks median  p99")
    for (animator, from, to) in cases {
        let w = transition(window, animator: animator, from: from, to: to)
        let t = transition(halfBlocks, animator: animator, from: from, to: to)
        if ProcessInfo.processInfo.environment["SEGUE_BENCH_EACH"] != nil {
            print("    window each frame (ms): " + w.map { String(format: "%.1f", $0 * 1000) }.joined(separator: " "))
        }
        print("  \(animator.padding(toLength: 12, withPad: " ", startingAt: 0))  \(String(format: "%6d", w.count))   "
              + String(format: "%6.2f  %6.2f        %6.2f  %6.2f", median(w) * 1000, p99(w) * 1000, median(t) * 1000, p99(t) * 1000))
    }
    halfBlocks.restore()
    // SEGUE_BENCH_WINDOW_ONLY=ANIMATOR: its transition in the window, 50 times over (for a profiler).
    if let only = ProcessInfo.processInfo.environment["SEGUE_BENCH_WINDOW_ONLY"], let c = cases.first(where: { $0.0 == only }) {
        for _ in 0..<50 { _ = transition(window, animator: c.0, from: c.1, to: c.2) }
        return
    }

    print("\nBytes written per frame by each terminal back end (CurlUp, video -> file, 240x120 cells; sixel and kitty at 10x20-pixel cells):")
    for graphics in TerminalGraphics.allCases {
        guard let tty = terminal(columns: 240, rows: 120),
              let backend = try? TerminalBackend(input: tty, output: tty, stage: stage, graphics: graphics) else { continue }
        _ = transition(backend, animator: "CurlUp", from: "video", to: "file")
        let frames = backend.bytesPerFrame.dropFirst(2)  // the first frames draw the whole scene
        backend.restore()
        print("  \(graphics.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0))  \(frames.reduce(0, +) / max(frames.count, 1)) bytes per frame on average, \(frames.max() ?? 0) at most (the first frame: \(backend.bytesPerFrame.first ?? 0))")
    }

    print("\nThe built-in scene playing its script for 10 s at 60 Hz (paced by the loop, real clock):")
    let terminals = TerminalGraphics.allCases.compactMap { graphics -> (String, any LiveBackend)? in
        terminal(columns: 240, rows: 120).flatMap { try? TerminalBackend(input: $0, output: $0, stage: stage, graphics: graphics) }
            .map { (graphics.rawValue, $0) }
    }
    for (name, backend) in [("window", window as any LiveBackend)] + terminals {
        let session = LiveSession(config: SegueConfig.builtinScene, registry: registry, size: stage)
        let loop = LiveLoop(session: session, backend: backend)
        let autoplay = Autoplay(steps: ScriptPlayer(config: SegueConfig.builtinScene, registry: registry).script)
        loop.script = { autoplay.inputs(for: $0, now: $1) }
        let start = MonotonicClock().now
        loop.run { MonotonicClock().now - start >= 10 }
        (backend as? TerminalBackend)?.restore()
        // SEGUE_BENCH_SLOW=1: the frames that cost more than a refresh (index: ms), to find what drops them.
        if ProcessInfo.processInfo.environment["SEGUE_BENCH_SLOW"] != nil {
            print("    frames over 16.7 ms (index: ms): " + loop.frameTimes.enumerated().filter { $0.element > 1.0 / 60 }.map { "\($0.offset):\(String(format: "%.0f", $0.element * 1000))" }.joined(separator: " "))
        }
        print("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0))  \(loop.frameCount) frames, \(session.reports.count) transitions, \(loop.droppedFrames) dropped; frame start to present median \(String(format: "%.2f", median(loop.frameTimes) * 1000)) ms, 99th percentile \(String(format: "%.2f", p99(loop.frameTimes) * 1000)) ms")
    }
}

/// The terminal encoders alone, on the frames `segue show` sends a terminal
/// of 240 x 120 cells of 8 x 16 pixels (the stage fitted: 886 x 1920
/// pixels): for each bundled animator's transition, every frame encoded
/// whole, as when most of the picture changed. Milliseconds a frame
/// (median), bytes a frame, and throughput in megapixels and output
/// megabytes a second, beside the 16.7 ms of a frame at 60 Hz.
func encoderBenchmark(registry: AnimatorRegistry) {
    let renderer = ViewRenderer(scale: 1920.0 / 844)
    print("Terminal encoders alone, frames of 886x1920 pixels encoded whole (median ms a frame; megapixels and output MB a second):")
    print("  animator      frames | sixel ms   bytes      Mpx/s  MB/s | kitty inline ms   bytes    Mpx/s  MB/s")
    for (name, from, to) in [("SpringSlide", "photo", "video"), ("CurlUp", "video", "file"), ("ImageZoom", "grid", "detail")] {
        var config = SegueConfig(file: "benchmark")
        config.rules = [SegueConfig.Rule(from: from, to: to, animator: name, label: "benchmark")]
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        let preview = TransitionPreview(children: { Scene.viewControllers(for: SegueConfig.builtinScene.children) },
                                        size: Rect.phonePortrait, from: from, to: to, renderer: renderer)
        let frames = FrameRenderer(renderer: renderer)
        var sixel: [(Double, Int)] = [], kitty: [(Double, Int)] = []
        var pixels = 0
        _ = try? preview.play(fps: 60, delegate: delegate) { index, _, view, _ in
            guard index % 3 == 0 else { return }
            frames.render(view, everything: true)
            let canvas = frames.canvas
            pixels = canvas.width * canvas.height
            let whole = PixelRect(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)
            var out: [UInt8] = []
            out.reserveCapacity(4 << 20)
            let s0 = now()
            SixelEncoder(cellWidth: 8, cellHeight: 16).encode(canvas, damage: whole, into: &out)
            sixel.append((now() - s0, out.count))
            out.removeAll(keepingCapacity: true)
            var encoder = KittyEncoder(medium: .direct)
            let k0 = now()
            encoder.encode(canvas, damage: whole, into: &out)
            kitty.append((now() - k0, out.count))
        }
        func figures(_ runs: [(Double, Int)]) -> String {
            let time = runs.map(\.0).sorted()[runs.count / 2], bytes = runs.map(\.1).sorted()[runs.count / 2]
            return String(format: "%7.2f  %9d  %6.1f  %5.1f", time * 1000, bytes, Double(pixels) / time / 1e6, Double(bytes) / time / 1e6)
        }
        print("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0))  \(String(format: "%6d", sixel.count)) | \(figures(sixel)) | \(figures(kitty))")
    }
}
