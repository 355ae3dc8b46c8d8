import Foundation
import Glibc
import Testing
import TestSupport
import EmbedABI
import AnimatorABI
import Renderer

/// ABI 1.4's look in a real KWin 5.27: a window opening through Pop (rounded,
/// casting a shadow) and through the iris example (a circle clip), held at
/// a fraction and photographed over a white window, is what Segue's renderer
/// draws of the same layer states over the same desktop; and a window
/// minimized with an icon geometry (_NET_WM_ICON_GEOMETRY, as a task manager
/// sets it on an X11 window) shrinks into that rectangle. One KWin, with
/// Xwayland; the windows are ImageMagick's `display`, undecorated by a KWin
/// window rule (the decoration's own shadow is not Segue's to compare).
@Suite(.serialized, .enabled(if: KWinSession.problem == nil && KWinSession.x11Problem == nil, "\(KWinSession.problem ?? KWinSession.x11Problem ?? "")"))
struct KWinLookTests {
    /// The task-bar entry the window minimizes into: a 48-point square at the bottom left.
    static let icon = segue_rect_t(x: 40, y: 700, width: 48, height: 48)

    /// The `count`-th window KWin opened that is the picture's (480 points wide), the pointer the effect told
    /// its animator, and the line that logged its opening, once the log has them (60 s at most). Counted by
    /// its size, not by the effect's lines: display maps a small notice of its own first on a busy machine,
    /// and KWin may cut an opening short as it restarts compositing, both logged like any window's.
    static func pictureWindow(_ count: Int, in session: KWinSession) throws
        -> (frame: (x: Int, y: Int, width: Int, height: Int), pointer: (x: Double, y: Double), line: String) {
        let deadline = Date().addingTimeInterval(60)
        while true {
            let lines = session.log.split(separator: "\n").map(String.init)
            let opened = lines.indices.filter { i in
                guard let m = lines[i].firstMatch(of: /\ opens at (-?[0-9]+),(-?[0-9]+) ([0-9]+)x([0-9]+):/), let w = Int(m.3) else { return false }
                return abs(w - 480) <= 2
            }
            if opened.count >= count, let m = lines[opened[count - 1]].firstMatch(of: /\ opens at (-?[0-9]+),(-?[0-9]+) ([0-9]+)x([0-9]+):/),
               let told = lines[opened[count - 1]...].first(where: { $0.contains(" opens: the animator is told the pointer at ") })?
                   .firstMatch(of: /the pointer at ([-0-9.]+),([-0-9.]+)/) {
                return ((Int(m.1)!, Int(m.2)!, Int(m.3)!, Int(m.4)!), (Double(told.1) ?? 0, Double(told.2) ?? 0), lines[opened[count - 1]])
            }
            try #require(Date() < deadline, "the picture's window opened (\(count)): \(session.log)")
            usleep(50_000)
        }
    }

    /// Waits until every opening the effect began has ended (60 s at most), as its log says: three
    /// photographs that agree can still catch an opening midway, should KWin not draw for a while on a
    /// busy machine.
    static func openingsEnded(in session: KWinSession) throws {
        let deadline = Date().addingTimeInterval(60)
        func count(_ text: String) -> Int { session.log.components(separatedBy: text).count - 1 }
        while count(" opened: ") < count(" opens at ") {
            try #require(Date() < deadline, "every opening ended: \(session.log)")
            usleep(20_000)
        }
    }

    /// At scale 1, and at scale 2 (a HiDPI output: KWin draws in pixels twice a point's size, Xwayland's
    /// windows scaled by KWin; the photographs shrunk to points), where Pop measured 18.5/255 and a minimized
    /// window left pixels outside its place while the effect applied a layer's map in points to pixels.
    @Test(arguments: [1, 2])
    func kwinDrawsEachLayersLookAsSeguesRendererDoesAndMinimizesIntoTheIcon(scale: Int) throws {
        let examples = try SDLPlayerTests.examples.get() // the iris example among them
        let rules = { (animator: String) in #"{"rules": [{"appear": "*", "animator": "\#(animator)"}, {"disappear": "*", "animator": "Pop"}]}"# }
        let session = try KWinSession(config: rules("Pop"), plugins: [examples], xwayland: true, scale: scale)
        let label = scale == 1 ? "" : "scale\(scale)-"
        // ImageMagick's windows undecorated (KWin's window rule, read again on reconfigure).
        try """
            [General]
            count=1
            rules=1

            [1]
            Description=segue test: no decoration
            noborder=true
            noborderrule=2
            wmclass=display
            wmclassmatch=2
            """.write(toFile: session.folder + "/config/kwinrulesrc", atomically: true, encoding: .utf8)
        let reconfigured = try run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.kde.KWin", "/KWin", "org.kde.KWin.reconfigure"],
                                   environment: ["DBUS_SESSION_BUS_ADDRESS": try session.bus], timeout: 30)
        try #require(reconfigured.status == 0, "\(reconfigured.err)")

        // The desktop beneath: a white window over most of it.
        let white = try session.openX11("/usr/bin/display", ["-size", "1000x740", "xc:white"])
        defer { _ = white.stop(with: SIGTERM) }
        var log = session.wait(for: "(X11 class")
        let name = try #require(log.firstMatch(of: /segue: window '([^']+)' \(X11 class/).map { String($0.1) }, "\(log)")
        try Self.openingsEnded(in: session)
        let beneath = session.folder + "/beneath.png"
        let beneathShot = try session.photograph()
        try Data(pngBytes(width: beneathShot.width, height: beneathShot.height, rgba: beneathShot.rgba)).write(to: URL(fileURLWithPath: beneath))

        // The window at rest, photographed over it once its opening has ended.
        let picture = session.folder + "/close-Pop-480.png"
        let resized = try run("/usr/bin/convert", [Paths.packageRoot + "/docs/images/close-Pop.png", "-resize", "480x", picture])
        try #require(resized.status == 0, "convert: \(resized.err)")
        var client = try session.openX11("/usr/bin/display", [picture])
        let rest = try Self.pictureWindow(1, in: session).frame
        try Self.openingsEnded(in: session)
        let resting = try session.photograph()

        // (c) Minimized into its task-bar entry, held late (0.95): drawn small about the entry, nowhere else.
        let found = try run("/usr/bin/xdotool", ["search", "--name", "close-Pop"], environment: ["DISPLAY": try session.display])
        let id = try #require(found.out.split(separator: "\n").last.map(String.init), "xdotool: \(found.out)\(found.err)")
        let set = try run("/usr/bin/xprop", ["-id", id, "-f", "_NET_WM_ICON_GEOMETRY", "32c", "-set", "_NET_WM_ICON_GEOMETRY",
                                             "\(Int(Self.icon.x)), \(Int(Self.icon.y)), \(Int(Self.icon.width)), \(Int(Self.icon.height))"],
                          environment: ["DISPLAY": try session.display])
        try #require(set.status == 0, "xprop: \(set.err)")
        session.hold(at: 0.95)
        func minimized(_ on: Bool) -> String {
            "workspace.clientList().forEach(function (c) { if (c.caption.indexOf('close-Pop') >= 0) { c.minimized = \(on); } });"
        }
        try session.script(minimized(true))
        log = session.wait(for: "\(name) minimizes: the animator is told ")
        #expect(log.contains("\(name) minimizes: the animator is told the pointer at ") && log.contains(", the task-bar entry at 40,700 48x48"),
                "the icon geometry is the anchor's rectangle: \(log)")
        let minimizing = try session.photograph()
        let minimizeFile = session.folder + "/kwin-minimize-into-icon.png"
        try Data(pngBytes(width: minimizing.width, height: minimizing.height, rgba: minimizing.rgba)).write(to: URL(fileURLWithPath: minimizeFile))
        let frame = segue_rect_t(x: Double(rest.x), y: Double(rest.y), width: Double(rest.width), height: Double(rest.height))
        let pointer = try #require(log.firstMatch(of: /minimizes: the animator is told the pointer at ([-0-9.]+),([-0-9.]+)/)
                                    .map { (x: Double($0.1) ?? 0, y: Double($0.2) ?? 0) })
        // Where libsegue says Pop has the window then: its frame scaled about its centre and moved.
        let sampledLeaving = try RendererComparison.states("Pop", SEGUE_TRANSITION_DISAPPEAR, name: name, frame: frame, screen: KWinSession.size,
                                                           plugins: [], at: 0.95, pointer: pointer, icon: Self.icon)
        try #require(sampledLeaving.animator == "Pop", "Pop plays: \(sampledLeaving.reason)")
        let leaving = sampledLeaving.states[0]
        let m = leaving.transform.m, f = leaving.frame
        let (cx, cy) = (f.x + f.width / 2 + m.12, f.y + f.height / 2 + m.13)
        let seen = (x0: cx - f.width * m.0 / 2, y0: cy - f.height * m.5 / 2, x1: cx + f.width * m.0 / 2, y1: cy + f.height * m.5 / 2)
        #expect(seen.x1 - seen.x0 < 0.3 * f.width && abs(cx - 64) < 48 && abs(cy - 724) < 48, "Pop takes it near the entry: \(seen)")
        // The pixels that differ from the desktop beneath: the window there (its shadow reaching a little further).
        var changed = 0, outside = 0
        var box = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        for y in 0..<minimizing.height {
            for x in 0..<minimizing.width {
                let i = (y * minimizing.width + x) * 4
                guard (0..<3).contains(where: { abs(Int(minimizing.rgba[i + $0]) - Int(beneathShot.rgba[i + $0])) > 24 }) else { continue }
                changed += 1
                box = (min(box.x0, x), min(box.y0, y), max(box.x1, x), max(box.y1, y))
                let reach = 40.0 // the shadow: 3 deviations and its offset
                if Double(x) < seen.x0 - reach || Double(x) > seen.x1 + reach || Double(y) < seen.y0 - reach || Double(y) > seen.y1 + reach {
                    outside += 1
                }
            }
        }
        let area = (seen.x1 - seen.x0) * (seen.y1 - seen.y0)
        #expect(Double(changed) > 0.5 * area && outside == 0,
                "drawn where Pop has it (\(seen)), about the entry: \(changed) pixels changed, \(outside) elsewhere, within \(box) (\(minimizeFile))")
        // Back (played, not held), then closed at once (it skips close animations).
        session.hold(at: nil)
        try session.script(minimized(false))
        session.wait(for: "\(name) unminimized: completed")
        let skip = "workspace.clientList().forEach(function (c) { if (c.caption.indexOf('close-Pop') >= 0) { c.skipsCloseAnimation = true; } });"
        try session.script(skip)
        _ = client.stop(with: SIGTERM)
        session.wait(for: "\(name) closes, not animated: ")

        // (a) and (b): opening through Pop (rounded, shadowed), then the iris example (a circle), held halfway.
        var figures: [String] = []
        for (k, animator) in ["Pop", "Iris"].enumerated() {
            if animator != "Pop" { try session.configure(rules(animator)) }
            session.hold(at: 0.5)
            client = try session.openX11("/usr/bin/display", [picture])
            let (at, told, line) = try Self.pictureWindow(2 + k, in: session)
            #expect(line.contains(": \(animator) for "), "\(animator) plays: \(line)")
            let shot = try session.photograph()
            let opening = segue_rect_t(x: Double(at.x), y: Double(at.y), width: Double(at.width), height: Double(at.height))
            let sampled = try RendererComparison.states(animator, SEGUE_TRANSITION_APPEAR, name: name, frame: opening, screen: KWinSession.size,
                                                        plugins: [examples], at: 0.5, pointer: told)
            try #require(sampled.animator == animator, "\(animator) plays: \(sampled.reason)")
            // The window at rest, cut at the size the animator was told: the effect draws the window's picture at
            // its own size over the frame it told, and display's window can open a pixel smaller than it settles
            // (its X border not yet counted: 480x214 told, 481x215 at rest, now and then on a busy machine).
            let window = session.folder + "/window-\(animator).png"
            try RendererComparison.crop(resting, (rest.x, rest.y, at.width, at.height), to: window)
            let drawn = RendererComparison.expected(sampled, SEGUE_TRANSITION_APPEAR, window: window, over: beneath, screen: KWinSession.size)
            // Every pixel around the window, as far as Pop's shadow reaches: the look, shadow included.
            let difference = RendererComparison.difference(shot, drawn, within: (at.x - 48, at.y - 48, at.x + at.width + 48, at.y + at.height + 64))
            figures.append("\(animator) \(String(format: "mean %.2f, %.2f%% far apart", difference.mean, difference.far * 100))"
                           + " (the window at \(at.x),\(at.y) \(at.width)x\(at.height), at rest \(rest.x),\(rest.y) \(rest.width)x\(rest.height),"
                           + " the pointer at \(told.x),\(told.y))")
            try Data(pngBytes(width: drawn.width, height: drawn.height, rgba: drawn.rgba8))
                .write(to: URL(fileURLWithPath: session.folder + "/expected-\(animator).png"))
            try Data(pngBytes(width: shot.width, height: shot.height, rgba: shot.rgba)).write(to: URL(fileURLWithPath: session.folder + "/kwin-\(animator).png"))
            // SEGUE_TEST_PHOTOS=DIR keeps both pictures, to look at.
            if let photos = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] {
                for kind in ["expected", "kwin"] {
                    try? FileManager.default.removeItem(atPath: "\(photos)/kwin-look-\(label)\(animator)-\(kind).png")
                    try FileManager.default.copyItem(atPath: "\(session.folder)/\(kind)-\(animator).png",
                                                     toPath: "\(photos)/kwin-look-\(label)\(animator)-\(kind).png")
                }
                try session.log.write(toFile: "\(photos)/kwin-look-\(label)log.txt", atomically: true, encoding: .utf8)
            }
            #expect(difference.mean <= 3 && difference.far <= 0.01,
                    "\(animator): KWin and Segue's renderer differ: \(difference), the window at \(at) told the pointer at \(told): \(line)")
            try session.script(skip)
            _ = client.stop(with: SIGTERM)
            session.wait(for: "\(name) closes, not animated: ", count: 2 + k)
        }
        print("KWin at scale \(scale) against Segue's renderer, the look at 0.5 of each opening, around the window (colour difference 0-255): \(figures.joined(separator: "; ")); \(session.folder)")
        _ = white.stop(with: SIGTERM)
        #expect(session.stop() != nil, "KWin ended on SIGTERM")
        #expect(processesTagged(session.tag).isEmpty, "no process left")
    }
}
