import Foundation
import Glibc
import Testing
import TestSupport
import EmbedABI

/// What the Segue extension draws in a real GNOME Shell 43, headless, against
/// Segue's renderer drawing the same layer states (see the test). A suite of
/// its own beside ``GnomeShellTests``, with a session of its own: it is the
/// longest of the three logins, and the suite's run ends sooner when it does
/// not wait for the other two.
@Suite(.enabled(if: GnomeShellSession.problem == nil, "\(GnomeShellSession.problem ?? "")"))
struct GnomeShellLookTests {
    private typealias Picture = GnomeShellTests.Picture

    /// Every animator Segue bundles (the built-in default, Pop, SpringSlide,
    /// CurlUp, ImageZoom) and the examples' (the C example's CurveSlide, the
    /// C++ example's CardFlip, the iris example's Iris, a clip) held at
    /// `held` of a window's opening (weston's image viewer showing a picture
    /// with detail everywhere: a window that keeps the size it maps with),
    /// photographed through the shell's screenshot interface, against Segue's
    /// renderer drawing the same layer states (libsegue's, in a player of the
    /// same plugins) over the empty desktop with the window at rest as the
    /// layer's picture. Below the top bar (drawn over windows by the shell),
    /// of the pixels either picture shows the window in (a pixel off the
    /// desktop's colour by more than 24 of 255), at most 3% are shown by one
    /// only, and where both show it their colours differ by at most 8/255 on
    /// average (measured figures in the test's output and docs/gnome-shell.md).
    /// Shadows are left out: the window's own, which GNOME keeps, and Segue's,
    /// which the renderer draws and GNOME does not (RendererComparison.difference,
    /// which counts a darkened desktop as no window). Then gnome-calculator
    /// (in the dark style, where a page's washed-out back shows plainly) held
    /// halfway through its opening and its closing with CurlUp and with Pop:
    /// Pop's window scaled about its centre, CurlUp's page curled; released,
    /// each ends as the window at rest, and closing removes it.
    @Test func eachAnimatorDrawsInGnomeShellAsSeguesRendererDrawsIt() async throws { try await onThreadOfItsOwn(eachAnimatorDrawsInGnomeShellAsSeguesRendererDrawsItBody) }
    private func eachAnimatorDrawsInGnomeShellAsSeguesRendererDrawsItBody() throws {
        let examples = try SDLPlayerTests.examples.get()
        let session = try GnomeShellSession(config: GnomeShellTests.rules("default", "default"), plugins: [examples],
                                            settings: [("org.gnome.desktop.interface", "color-scheme", "prefer-dark")], x11: true)
        defer { if let folder = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] { try? session.log.write(toFile: folder + "/gnome-shell.log", atomically: true, encoding: .utf8) } }
        let figures = try Self.heldOpenings(["default", "Pop", "SpringSlide", "CurlUp", "ImageZoom", "CurveSlide", "CardFlip", "Iris"],
                                            in: session, plugins: [examples], screen: GnomeShellSession.size, top: Self.topBar)
        print("GNOME Shell against Segue's renderer at \(Self.held) of each opening (pixels only one shows the window in, colour difference 0-255 where both do): \(figures.joined(separator: ", "))")
        let viewer = try #require(session.frame("opens"), "the viewer's frame in the log")
        #expect((viewer.width, viewer.height) == Self.viewerSize, "weston's image viewer at its own size: \(viewer)")

        // gnome-calculator at rest, then held halfway through its opening and its closing with CurlUp and Pop.
        try session.configure(GnomeShellTests.rules("default", "default"))
        let first = try session.open("/usr/bin/gnome-calculator")
        session.wait(for: "\(GnomeShellTests.calculator) opened: completed")
        // Its frame at rest (a GTK 4 window settles its height after the map, so not the one the opening logged):
        // the same before and after a steady photograph of it.
        var frame = try Self.frameNow(session)
        var rest = Picture(png: try session.photograph(steadyOver: frame))
        let settled = Date().addingTimeInterval(20)
        while try Self.frameNow(session) != frame && Date() < settled {
            frame = try Self.frameNow(session)
            rest = Picture(png: try session.photograph(steadyOver: frame))
        }
        try rest.save("rest")
        let restBox = rest.drawnBox
        #expect(restBox.width >= frame.width - 2 && restBox.height >= frame.height - 2, "the window at rest: \(restBox) over \(frame)")
        _ = first.stop(with: SIGTERM)
        session.wait(for: "\(GnomeShellTests.calculator) closed: completed")
        for (k, animator) in ["CurlUp", "Pop"].enumerated() {
            try session.configure(GnomeShellTests.rules(animator, animator))
            try session.hold(at: 0.5)
            let calculator = try session.open("/usr/bin/gnome-calculator")
            let log = session.wait(for: "\(GnomeShellTests.calculator) opens at ", count: k + 2)
            #expect(log.contains("\(GnomeShellTests.calculator) opens at \(frame.x),\(frame.y) ") && log.contains(": \(animator) for "), "\(log)")
            for change in ["opening", "closing"] {
                let held = Picture(png: try session.photograph(steadyOver: frame))
                try held.save("\(animator)-\(change)")
                let box = held.drawnBox
                let share = held.drawnShare(of: frame)
                if animator == "Pop" {
                    // Scaled down, smaller than at rest in both directions, centred where libsegue has it then
                    // (an opening grows from the pointer the extension told Pop; a closing shrinks in place).
                    #expect(box.width < restBox.width - 20 && box.height < restBox.height - 20 && box.count > 2_000,
                            "\(animator) \(change): the window scaled down: \(box) against \(restBox)")
                    let opening = change == "opening"
                    let pop = try RendererComparison.states(
                        "Pop", opening ? SEGUE_TRANSITION_APPEAR : SEGUE_TRANSITION_DISAPPEAR, name: GnomeShellTests.calculator,
                        frame: segue_rect_t(x: Double(frame.x), y: Double(frame.y), width: Double(frame.width), height: Double(frame.height)),
                        screen: GnomeShellSession.size, plugins: [], at: 0.5,
                        pointer: try Self.pointer(told: "\(GnomeShellTests.calculator) \(opening ? "opens" : "closes")", count: k + 2, in: session)).states[0]
                    let (cx, cy) = (pop.frame.x + pop.frame.width / 2 + pop.transform.m.12, pop.frame.y + pop.frame.height / 2 + pop.transform.m.13)
                    #expect(abs(Double(box.x) + Double(box.width) / 2 - cx) <= 12 && abs(Double(box.y) + Double(box.height) / 2 - cy) <= 12,
                            "\(animator) \(change): centred where libsegue has it (\(cx), \(cy)): \(box)")
                } else {
                    // Curled: part of the window's frame shows the desktop, most of it the window.
                    #expect(share > 0.2 && share < 0.97, "\(animator) \(change): \(Int(share * 100))% of the frame drawn: \(box)")
                }
                if change == "opening" {
                    try session.hold(at: nil)
                    session.wait(for: "\(GnomeShellTests.calculator) opened: completed", count: k + 2)
                    let after = Picture(png: try session.photograph(steadyOver: frame))
                    // (The calculator's own height varies by a point from one window to the next.)
                    #expect(abs(after.drawnBox.width - restBox.width) <= 2 && abs(after.drawnBox.height - restBox.height) <= 2,
                            "\(animator): at rest once released: \(after.drawnBox) against \(restBox)")
                    try session.hold(at: 0.5)
                    _ = calculator.stop(with: SIGTERM)
                    session.wait(for: "\(GnomeShellTests.calculator) closes at ", count: k + 2)
                }
            }
            try session.hold(at: nil)
            let closed = session.wait(for: "\(GnomeShellTests.calculator) closed: completed", count: k + 2)
            #expect(closed.contains("\(GnomeShellTests.calculator) closes at \(frame.x),\(frame.y) ") && closed.contains(": \(animator) for "),
                    "it closes from its frame at rest: \(closed)")
            #expect(try session.eval("\(GnomeShellTests.windows).length") == "0", "the window is gone")
        }

        // An X11 window (xterm through the shell's Xwayland, its frame and the shadow round it drawn by mutter,
        // which its actor's paint volume holds) held at the same point of its opening with CurlUp: curled over
        // its own frame as the calculator was. (The page's offscreen picture begins at that shadow.)
        try session.configure(#"{"rules": [{"appear": "*", "disappear": "*", "animator": "CurlUp"}]}"#)
        try session.hold(at: Self.held)
        let opens = session.log.components(separatedBy: " opens at ").count
        let xterm = try session.openX11("/usr/bin/xterm", ["-geometry", "60x20", "-bg", "white", "-e", "sleep 600"])
        session.wait(for: " opens at ", count: opens)
        let x11Frame = try #require(session.frame("opens", count: opens), "the xterm's frame in the log")
        let curled = Picture(png: try session.photograph(steadyOver: x11Frame))
        try curled.save("CurlUp-x11-opening")
        let x11Share = curled.drawnShare(of: x11Frame), x11Box = curled.drawnBox
        #expect(x11Share > 0.2 && x11Share < 0.97 && abs(x11Box.x - x11Frame.x) <= 30 && abs(x11Box.y - x11Frame.y) <= 4
                && x11Box.width >= x11Frame.width * 4 / 5,
                "an X11 window curled over its frame \(x11Frame): \(Int(x11Share * 100))% of it drawn, in \(x11Box)")
        try session.hold(at: nil)
        let closes = session.log.components(separatedBy: " closed: ").count
        _ = xterm.stop(with: SIGTERM)
        session.wait(for: " closed: ", count: closes)
        #expect(try session.eval("\(GnomeShellTests.windows).length") == "0", "the xterm is gone")
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty, "no shell, bus, worker or client left")
    }

    /// On a HiDPI monitor (1600x960 at scale 2), as GNOME 43 runs one by
    /// default (laid out in its pixels: the shell and windows drawn twice as
    /// large) and with mutter's scaled framebuffers (laid out in units two
    /// pixels wide, drawn at the monitor's pixels: the way to fractional
    /// scales, offscreen pictures at twice their size), Pop (a flat layer,
    /// placed through the look effect) and CurlUp (a page) held at ``held`` of
    /// an opening match Segue's renderer drawing the same layer states in the
    /// layout's units, as at scale 1 (the photographs of scaled framebuffers
    /// shrunk to those units); the window is twice its size at scale 1 in the
    /// monitor's pixels.
    @Test(arguments: [false, true])
    func atScaleTwoFlatLayersAndPagesDrawAsSeguesRendererDrawsThem(scaledFramebuffers: Bool) async throws {
        try await onThreadOfItsOwn { try atScaleTwoBody(scaledFramebuffers: scaledFramebuffers) }
    }
    private func atScaleTwoBody(scaledFramebuffers: Bool) throws {
        let monitor = (width: 1600, height: 960), units = scaledFramebuffers ? 2 : 1
        let screen = (width: monitor.width / units, height: monitor.height / units)
        let session = try GnomeShellSession(config: GnomeShellTests.rules("default", "default"), plugins: [], monitor: monitor, scale: 2,
                                            scaledFramebuffers: scaledFramebuffers)
        let label = scaledFramebuffers ? "scale2-framebuffers-" : "scale2-"
        defer { if let folder = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] { try? session.log.write(toFile: folder + "/gnome-shell-\(label)log.txt", atomically: true, encoding: .utf8) } }
        let figures = try Self.heldOpenings(["Pop", "CurlUp"], in: session, plugins: [], screen: screen, top: 2 / units * Self.topBar, label: label)
        print("GNOME Shell at scale 2\(scaledFramebuffers ? " (scaled framebuffers)" : "") against Segue's renderer at \(Self.held) of each opening: \(figures.joined(separator: ", "))")
        let frame = try #require(session.frame("opens"), "the viewer's frame in the log")
        #expect(frame.width * units == 2 * Self.viewerSize.width && frame.height * units == 2 * Self.viewerSize.height,
                "the viewer's window at scale 2, \(frame) (in units \(units) pixels wide), twice its size at scale 1, \(Self.viewerSize)")
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty, "no shell, bus, worker or client left")
    }

    /// Each of `animators` held at ``held`` of an opening of weston's image
    /// viewer in `session` (its rules set for each), photographed, against
    /// Segue's renderer drawing the same layer states (libsegue's, with the
    /// plugins of `plugins`) over the empty desktop, with the window at rest
    /// as the layer's picture, on a screen of `screen` pixels whose top `top`
    /// rows (the top bar) are left out; expects the match described on
    /// ``eachAnimatorDrawsInGnomeShellAsSeguesRendererDrawsIt()``. Pictures
    /// kept with SEGUE_TEST_PHOTOS are named with `label` first. Its figures,
    /// one for each animator.
    static func heldOpenings(_ animators: [String], in session: GnomeShellSession, plugins: [String],
                             screen: (width: Int, height: Int), top: Int, label: String = "") throws -> [String] {
        let pictures = makeTemporaryFolder("gnome-shell-pictures")
        // The desktop with no window, then the viewer's window at rest over it.
        let weston = "org.freedesktop.weston.wayland-image"
        func westonRules(_ animator: String) -> String { #"{"rules": [{"appear": "\#(weston)", "animator": "\#(animator)"}]}"# }
        let empty = try session.photograph()
        try Data(pngBytes(width: empty.width, height: empty.height, rgba: empty.rgba)).write(to: URL(fileURLWithPath: pictures + "/desktop.png"))
        var viewer = try session.open("/usr/bin/weston-image", [Self.picture])
        session.wait(for: "\(weston) opened: completed")
        let window = try Self.frameNow(session)
        let resting = try session.photograph(steadyOver: window)
        /// The window actor's paint box on the stage (its paint volume, transformed); nil when unknown.
        func paintBox() throws -> (x1: Double, y1: Double, x2: Double, y2: Double)? {
            let box = try session.eval("const [ok, b] = \(GnomeShellTests.windows)[0].get_paint_box(); JSON.stringify(ok ? [b.x1, b.y1, b.x2, b.y2] : [])")
            let numbers = box.filter { "0123456789,.-".contains($0) }.split(separator: ",").compactMap { Double($0) }
            return numbers.count == 4 ? (numbers[0], numbers[1], numbers[2], numbers[3]) : nil
        }
        // How far the paint volume reaches round the window drawn at rest (its shadow): left, right, below.
        let restPaint = try #require(try paintBox(), "the window's paint box at rest")
        let restDrawn = Picture(png: resting, top: top).drawnBox
        let restMargins = (Double(restDrawn.x) - restPaint.x1, restPaint.x2 - Double(restDrawn.x + restDrawn.width),
                           restPaint.y2 - Double(restDrawn.y + restDrawn.height))
        try RendererComparison.crop(resting, window, to: pictures + "/window.png")
        _ = viewer.stop(with: SIGTERM)
        session.wait(for: "\(weston) closed: completed")
        var figures: [String] = []
        for (k, animator) in animators.enumerated() {
            try session.configure(westonRules(animator))
            try session.hold(at: Self.held)
            viewer = try session.open("/usr/bin/weston-image", [Self.picture])
            let log = session.wait(for: "\(weston) opens at ", count: k + 2)
            let played = animator == "ImageZoom" ? "default" : animator // ImageZoom zooms an element; a window has none
            #expect(log.contains("\(weston) opens at \(window.x),\(window.y) \(window.width)x\(window.height): \(played) for "), "\(animator): \(log)")
            let shot = try session.photograph()
            // The actor's paint volume covers what is drawn (a monitor redraws only there; the headless one
            // redraws the whole stage, so the photograph alone would not show a short one). Where the extension
            // places the window through its look effect (the default, Pop), it is also as tight as the
            // transform would make it: no wider round the window than at rest.
            let drawnNow = Picture(png: shot, top: top).drawnBox
            if let paint = try paintBox() {
                #expect(paint.x1 <= Double(drawnNow.x) + 1 && paint.x2 >= Double(drawnNow.x + drawnNow.width) - 1
                        && paint.y2 >= Double(drawnNow.y + drawnNow.height) - 1,
                        "\(animator): the paint volume \(paint) covers what is drawn \(drawnNow)")
                if animator == "default" || animator == "Pop" {
                    let margins = (Double(drawnNow.x) - paint.x1, paint.x2 - Double(drawnNow.x + drawnNow.width),
                                   paint.y2 - Double(drawnNow.y + drawnNow.height))
                    #expect(margins.0 <= restMargins.0 + 3 && margins.1 <= restMargins.1 + 3 && margins.2 <= restMargins.2 + 3,
                            "\(animator): the paint volume \(paint) hugs what is drawn \(drawnNow): margins \(margins), at rest \(restMargins)")
                }
            }
            // Told the pointer, as the extension told the animator (Pop and Iris open from it).
            let sampled = try RendererComparison.states(animator, SEGUE_TRANSITION_APPEAR, name: weston,
                                                        frame: segue_rect_t(x: Double(window.x), y: Double(window.y),
                                                                            width: Double(window.width), height: Double(window.height)),
                                                        screen: screen, plugins: plugins, at: Self.held,
                                                        pointer: try Self.pointer(told: "\(weston) opens", count: k + 2, in: session))
            let drawn = RendererComparison.expected(sampled, SEGUE_TRANSITION_APPEAR, window: pictures + "/window.png", over: pictures + "/desktop.png",
                                                    screen: screen, shadows: false)
            let difference = RendererComparison.difference(shot, drawn, over: empty, top: top)
            figures.append("\(animator) \(String(format: "%.1f%% %.1f", difference.oneOnly * 100, difference.colour))")
            let matches = difference.both > 2_000 && difference.oneOnly <= 0.03 && difference.colour <= 8
            #expect(matches, "\(animator): GNOME Shell and Segue's renderer differ: \(difference)")
            try Picture(png: shot, top: top).save("\(label)\(animator)-held")
            try RendererComparison.keep(shot, drawn, named: "gnome-shell-\(label)\(animator)", host: "shell", differ: !matches, fallback: session.folder)
            try session.hold(at: nil)
            session.wait(for: "\(weston) opened: completed", count: k + 2)
            _ = viewer.stop(with: SIGTERM)
            session.wait(for: "\(weston) closed: ", count: k + 2)
            #expect(try session.eval("\(GnomeShellTests.windows).length") == "0", "\(animator): the window is gone")
        }
        return figures
    }

    /// The frame of the only window, as the shell has it now.
    static func frameNow(_ session: GnomeShellSession) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let rect = try session.eval("const r = \(GnomeShellTests.windows)[0].meta_window.get_frame_rect(); JSON.stringify([r.x, r.y, r.width, r.height])")
        let numbers = rect.filter { "0123456789,".contains($0) }.split(separator: ",").compactMap { Int($0) }
        try #require(numbers.count == 4, "the frame: \(rect)")
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// A picture with detail everywhere, for weston's image viewer to show.
    static let picture = Paths.packageRoot + "/docs/images/close-Pop.png"

    /// The frame of weston's image viewer showing ``picture`` at scale 1 (its own default size).
    static let viewerSize = (width: 436, height: 336)

    /// Where each opening is held for the comparison with Segue's renderer.
    static let held = 0.6

    /// The pointer the extension told the animator of the `count`-th window change logged as `change`
    /// ("NAME opens", "NAME closes"), from its log line (waited for: 60 s at most).
    static func pointer(told change: String, count: Int, in session: GnomeShellSession) throws -> (x: Double, y: Double) {
        let said = "\(change): the animator is told the pointer at "
        let log = session.wait(for: said, count: count)
        let lines = log.split(separator: "\n").filter { $0.contains(said) }
        try #require(lines.count >= count, "the extension said what it told the animator: \(log)")
        return try #require(lines[count - 1].firstMatch(of: /the pointer at ([-0-9.]+),([-0-9.]+)/).map { (x: Double($0.1) ?? 0, y: Double($0.2) ?? 0) },
                            "\(lines[count - 1])")
    }
    /// The shell's top bar, drawn over windows: left out of the comparison.
    static let topBar = 40
}
