import Foundation
import Glibc
import Testing
import TestSupport
import EmbedABI

/// The Segue extension in a real GNOME Shell 43, headless: gnome-calculator
/// (application id org.gnome.Calculator) and weston's clients open and close
/// through the animator the config's rules name by application id, held at a
/// fraction and photographed through the shell's screenshot interface; a
/// plugin that crashes or hangs mid-close costs only its animation; nothing is
/// left running after the shell ends. A shell takes a minute or two to start
/// here, so the suite logs in twice only, one test after the other: each test
/// plays its checks in turn in one session. The photographs compared with
/// Segue's renderer, and the calculator and xterm held mid-animation, are
/// ``GnomeShellLookTests``', in a third session beside these. Each test runs
/// on a thread of its own (``onThreadOfItsOwn(_:)``): its minutes of waiting
/// on the shell leave Swift Testing's threads to the rest of the suite.
@Suite(.serialized, .enabled(if: GnomeShellSession.problem == nil, "\(GnomeShellSession.problem ?? "")"))
struct GnomeShellTests {
    static let calculator = "org.gnome.Calculator"

    static func rules(_ appear: String, _ disappear: String = "default") -> String {
        #"{"rules": [{"appear": "\#(calculator)", "animator": "\#(appear)"}, {"disappear": "\#(calculator)", "animator": "\#(disappear)"}]}"#
    }

    /// One login with the extension installed and enabled as a user does
    /// (`gnome-extensions install`, `enable`) and no config, then, in turn:
    /// a config written, then broken, while the shell runs: the default plays
    /// first, the written rule next, and a broken file keeps the last good
    /// rules with the reason in the shell's log; the extension enabled in
    /// unsafe mode, gnome-calculator's window opening and closing with the
    /// rules' animator, named by its application id; a window of no installed
    /// application (weston's image viewer) named by its Wayland app id, and a
    /// rule by that name played; a window minimized and brought back with the
    /// rules' disappearance and appearance animators; and last, the extension
    /// disabled while a window's opening is held, which releases the window,
    /// the shell's own handlers back. Nothing is left running after the shell ends.
    @Test func oneLoginFollowsItsConfigNamesWindowsMinimizesAndIsDisabledMidAnimation() async throws { try await onThreadOfItsOwn(oneLoginFollowsItsConfigNamesWindowsMinimizesAndIsDisabledMidAnimationBody) }
    private func oneLoginFollowsItsConfigNamesWindowsMinimizesAndIsDisabledMidAnimationBody() throws {
        let session = try GnomeShellSession(config: nil, plugins: [])
        /// The log written since `mark` (a length in bytes of an earlier log).
        func since(_ mark: Int) -> String { String(decoding: session.log.utf8.dropFirst(mark), as: UTF8.self) }

        // A config written, then broken, while the shell runs (no config at the login).
        func openAndClose(_ k: Int) throws -> String {
            let calculator = try session.open("/usr/bin/gnome-calculator")
            let log = session.wait(for: "\(Self.calculator) opened: ", count: k)
            _ = calculator.stop(with: SIGTERM)
            session.wait(for: "\(Self.calculator) closed: ", count: k)
            return log.split(separator: "\n").filter { $0.contains("\(Self.calculator) opens at ") }.last.map(String.init) ?? ""
        }
        #expect(try openAndClose(1).contains(": default for "), "no config: the built-in default")
        // The window is named (once a session) by its application id, as the shell matched it to a .desktop file.
        #expect(session.log.contains("segue: window '\(Self.calculator)' (its application, as the shell matched it to a .desktop file; rules match this name) opens with default"),
                "\(session.log)")
        try FileManager.default.createDirectory(atPath: (session.config as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try replaceByRename(session.config, with: Self.rules("Pop"))
        session.wait(for: "\(session.config) appeared")
        #expect(try openAndClose(2).contains(": Pop for "), "the written rule: \(session.log)")
        try replaceByRename(session.config, with: #"{"rules": [{"appear": "", "animator": "CurlUp"}]}"#)
        let broken = session.wait(for: "$.rules[0].appear")
        #expect(broken.contains("$.rules[0].appear: expected a view's name"), "the reason is logged: \(broken)")
        #expect(try openAndClose(3).contains(": Pop for "), "the last good rule: \(session.log)")

        // The extension enabled, in unsafe mode, and playing: the calculator opens and closes with Pop.
        let state = try session.eval("JSON.stringify([Main.extensionManager.lookup('\(GnomeShellSession.uuid)').state, global.context.unsafe_mode])")
        #expect(state.contains("[1,true]"), "the extension is enabled (state 1, ENABLED): \(state)\n\(session.log)")
        #expect(session.log.contains("segue: playing window animators"), "\(session.log)")
        try session.configure(Self.rules("Pop", "Pop"))
        var mark = session.log.utf8.count
        let calculator = try session.open("/usr/bin/gnome-calculator")
        session.wait(for: "\(Self.calculator) opened: ", count: 4)
        var log = since(mark)
        #expect(log.contains("segue: \(Self.calculator) opens at ") && log.contains(": Pop for "), "\(log)")
        #expect(log.contains("\(Self.calculator) opened: completed"), "\(log)")
        _ = calculator.stop(with: SIGTERM)
        session.wait(for: "\(Self.calculator) closed: ", count: 4)
        log = since(mark)
        #expect(log.contains("\(Self.calculator) closes at ") && log.split(separator: "\n").contains { $0.contains("closes at ") && $0.contains(": Pop for ") }
                && log.contains("\(Self.calculator) closed: completed"), "\(log)")
        #expect(try session.eval("\(Self.windows).length") == "0", "the window is gone")

        // A window of no installed application is named by its Wayland app id.
        let weston = "org.freedesktop.weston.wayland-image"
        try session.configure(#"{"rules": [{"appear": "\#(weston)", "animator": "SpringSlide"}]}"#)
        let client = try session.open("/usr/bin/weston-image", [Paths.packageRoot + "/docs/images/close-Pop.png"])
        log = session.wait(for: "\(weston) opened: ")
        #expect(log.contains("segue: window '\(weston)' (its Wayland app id; rules match this name) opens with SpringSlide"), "\(log)")
        #expect(log.contains("\(weston) opened: completed"), "\(log)")
        _ = client.stop(with: SIGTERM)
        #expect(session.wait(for: "\(weston) closed: ").contains("\(weston) closed: completed"), "the default plays its closing")
        #expect(try session.eval("\(Self.windows).length") == "0", "the window is gone")

        // Minimizing is a disappearance and coming back an appearance, chosen by the same rules. The window's icon
        // geometry, as a dock or task-bar extension sets it, is the task-bar entry the animator is told: held at 90%
        // of its minimizing (Pop fades the window in its last third), Pop's window is small, by the entry.
        try session.configure(Self.rules("SpringSlide", "Pop"))
        mark = session.log.utf8.count
        let minimized = try session.open("/usr/bin/gnome-calculator")
        defer { _ = minimized.stop(with: SIGTERM) }
        session.wait(for: "\(Self.calculator) opened: completed", count: 5)
        let entry = (x: 600, y: 640, width: 64, height: 48)
        try session.eval("\(Self.windows)[0].meta_window.set_icon_geometry(new imports.gi.Meta.Rectangle("
                         + "{x: \(entry.x), y: \(entry.y), width: \(entry.width), height: \(entry.height)}))")
        try session.hold(at: 0.9)
        try session.eval("\(Self.windows)[0].meta_window.minimize()")
        let told = session.wait(for: "\(Self.calculator) minimizes: the animator is told ")
        #expect(told.contains("\(Self.calculator) minimizes: the animator is told the pointer at ")
                && told.contains(", the task-bar entry at \(entry.x),\(entry.y) \(entry.width)x\(entry.height); window type normal"), "\(told)")
        let picture = Picture(png: try session.photograph())
        try picture.save("minimize-into-entry")
        let shrunk = picture.drawnBox
        let window = session.frame("minimizes")
        #expect(window != nil && shrunk.count > 0 && shrunk.width < window!.width / 2
                && abs(shrunk.x + shrunk.width / 2 - (entry.x + entry.width / 2)) < 80
                && abs(shrunk.y + shrunk.height / 2 - (entry.y + entry.height / 2)) < 80,
                "held at 90%, small by the entry \(entry): drawn \(shrunk), the window at rest \(String(describing: window))")
        try session.hold(at: nil)
        session.wait(for: "\(Self.calculator) minimized: ")
        log = since(mark)
        #expect(log.contains("\(Self.calculator) minimizes at ") && log.split(separator: "\n").contains { $0.contains("minimizes at ") && $0.contains(": Pop for ") },
                "the disappearance's rule: \(log)")
        #expect(log.contains("\(Self.calculator) minimized: completed"), "\(log)")
        #expect(try session.eval("\(Self.windows)[0].visible") == "false", "the minimized window is hidden")
        try session.eval("\(Self.windows)[0].meta_window.unminimize()")
        log = session.wait(for: "\(Self.calculator) unminimized: ")
        #expect(log.contains("\(Self.calculator) unminimizes at ") && log.split(separator: "\n").contains { $0.contains("unminimizes at ") && $0.contains(": SpringSlide for ") },
                "the appearance's rule: \(log)")
        #expect(log.contains("\(Self.calculator) unminimized: completed"), "\(log)")
        let rest = try session.eval("const a = \(Self.windows)[0]; JSON.stringify([a.visible, a.opacity, !a.transform_set])")
        #expect(rest == #""[true,255,true]""#, "back at rest (visible, opaque, untransformed): \(rest)")
        _ = minimized.stop(with: SIGTERM)
        session.wait(for: "\(Self.calculator) closed: ", count: 5)
        #expect(try session.eval("\(Self.windows).length") == "0", "the window is gone")

        // Last, the extension disabled while a window's opening is held releases it (completed_map: drawn at
        // rest), and the shell's own handlers are back: the window closes with GNOME's own animation, no Segue line.
        try session.configure(Self.rules("CurlUp", "CurlUp"))
        mark = session.log.utf8.count
        try session.hold(at: 0.5)
        let first = try session.open("/usr/bin/gnome-calculator")
        defer { _ = first.stop(with: SIGTERM) }
        session.wait(for: "\(Self.calculator) opens at ", count: 6)
        try session.eval("Main.extensionManager.disableExtension('\(GnomeShellSession.uuid)')")
        session.wait(for: "\(Self.calculator) opened: ", count: 6)
        log = since(mark)
        #expect(log.contains("\(Self.calculator) opened: cut short (the extension was disabled)"), "\(log)")
        let released = try session.eval("const a = \(Self.windows)[0]; JSON.stringify([a.visible, a.opacity, !a.transform_set, a.get_effects().length])")
        #expect(released == #""[true,255,true,0]""#, "released at rest (visible, opaque, untransformed, no page effect): \(released)")
        _ = first.stop(with: SIGTERM)
        let gone = Date().addingTimeInterval(30)
        while (try? session.eval("\(Self.windows).length")) != "0" && Date() < gone { usleep(50_000) }
        #expect(try session.eval("\(Self.windows).length") == "0", "closed by the shell's own handler")
        #expect(!since(mark).contains("\(Self.calculator) closes"), "Segue played nothing once disabled: \(since(mark))")
        #expect(session.stop() != nil, "the shell ended on SIGTERM")
        #expect(processesTagged(session.tag).isEmpty, "no shell, bus, worker or client left")
    }

    /// The window's area at rest and the desktop's colour around it, from a photograph.
    struct Picture {
        let png: DecodedPNG
        /// The rows the top bar (32 points) may cover, left out of ``drawnBox``.
        let top: Int
        /// The desktop's colour (below the top bar, far from the window).
        let background: (Int, Int, Int)

        init(png: DecodedPNG, top: Int = GnomeShellLookTests.topBar) {
            self.png = png
            self.top = top
            let i = ((png.height - 8) * png.width + png.width - 8) * 4
            background = (Int(png.rgba[i]), Int(png.rgba[i + 1]), Int(png.rgba[i + 2]))
        }

        /// Whether the pixel at `i` of `rgba` (the picture's) shows something other than the desktop.
        private func drawn(_ rgba: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
            abs(Int(rgba[i]) - background.0) > 24 || abs(Int(rgba[i + 1]) - background.1) > 24 || abs(Int(rgba[i + 2]) - background.2) > 24
        }
        /// The share of `frame`'s pixels that show something other than the desktop (none off the picture).
        func drawnShare(of frame: (x: Int, y: Int, width: Int, height: Int)) -> Double {
            var shown = 0
            png.rgba.withUnsafeBufferPointer { rgba in
                for y in stride(from: max(frame.y, 0), to: min(frame.y + frame.height, png.height), by: 1) {
                    for x in stride(from: max(frame.x, 0), to: min(frame.x + frame.width, png.width), by: 1) where drawn(rgba, (y * png.width + x) * 4) {
                        shown += 1
                    }
                }
            }
            return Double(shown) / Double(frame.width * frame.height)
        }
        /// The box around what is drawn below the top bar: x, y, width, height, and the pixel count.
        var drawnBox: (x: Int, y: Int, width: Int, height: Int, count: Int) {
            var (x0, y0, x1, y1, count) = (Int.max, Int.max, -1, -1, 0)
            // Through a buffer: a screen has millions of pixels, and the tests are built without optimization.
            png.rgba.withUnsafeBufferPointer { rgba in
                for y in top..<png.height { for x in 0..<png.width where drawn(rgba, (y * png.width + x) * 4) {
                    (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
                    count += 1
                } }
            }
            return x1 < 0 ? (0, 0, 0, 0, 0) : (x0, y0, x1 - x0 + 1, y1 - y0 + 1, count)
        }
        func save(_ name: String) throws {
            guard let folder = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] else { return }
            try Data(pngBytes(width: png.width, height: png.height, rgba: png.rgba)).write(to: URL(fileURLWithPath: folder + "/gnome-shell-\(name).png"))
        }
    }

    /// The shell's window actors of the clients' windows, in Eval's JavaScript: with Xwayland the shell has
    /// an override-redirect window of its own.
    static let windows = "global.get_window_actors().filter(a => !a.meta_window.is_override_redirect())"

    /// A plugin that crashes, and another that hangs, halfway through the
    /// calculator's closing, in one session, cost only their animation: the
    /// built-in default finishes each from the same point (the reason
    /// logged), the window is destroyed, the shell lives on, and no worker is
    /// left. (Two fixture plugins: their animators named CrashFade and HangFade.)
    @Test func pluginsThatCrashOrHangMidCloseCostOnlyTheirAnimation() async throws { try await onThreadOfItsOwn(pluginsThatCrashOrHangMidCloseCostOnlyTheirAnimationBody) }
    private func pluginsThatCrashOrHangMidCloseCostOnlyTheirAnimationBody() throws {
        let (crashing, _) = try CPlugin.fixture("gnome-shell-crash", "FAULT_CRASH_EVALUATE", #"FIXTURE_NAME="CrashFade""#,
                                                #"FIXTURE_ID="org.segue.test.crash/1""#)
        let (hanging, _) = try CPlugin.fixture("gnome-shell-hang", "FAULT_HANG_EVALUATE", #"FIXTURE_NAME="HangFade""#,
                                               #"FIXTURE_ID="org.segue.test.hang/1""#)
        let session = try GnomeShellSession(config: Self.rules("Pop", "CrashFade"), plugins: [crashing, hanging])
        for (k, animator) in ["CrashFade", "HangFade"].enumerated() {
            if k > 0 { try session.configure(Self.rules("Pop", animator)) }
            let mark = session.log.utf8.count
            let calculator = try session.open("/usr/bin/gnome-calculator")
            session.wait(for: "\(Self.calculator) opened: completed", count: k + 1)
            _ = calculator.stop(with: SIGTERM)
            session.wait(for: "\(Self.calculator) closed: ", count: k + 1)
            // Logged as the default finishes the close, or, when the hang's deadline passes after the close has
            // ended (ending never waits on the plugin), as an event after it.
            let failure = animator == "CrashFade" ? "CrashFade crashed with signal 11"
                : "HangFade did not answer within 0.5"
            _ = session.wait(for: failure)
            let log = String(decoding: session.log.utf8.dropFirst(mark), as: UTF8.self)
            #expect(log.contains("\(Self.calculator) closes at ") && log.contains(": \(animator) for "), "\(log)")
            #expect(log.contains("\(Self.calculator) closed: completed"), "\(animator): \(log)")
            #expect(log.contains(failure) && log.contains("the plugin is quarantined"), "\(animator): the failure is logged: \(log)")
            #expect(k == 0 || log.contains("(an endless loop?) and was killed in evaluate"), "\(log)")
            #expect(try session.eval("\(Self.windows).length") == "0", "\(animator): the window is gone")
            #expect(try session.eval("global.context.unsafe_mode") == "true", "\(animator): the shell is alive")
        }
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty, "no worker, client or shell left")
    }
}
