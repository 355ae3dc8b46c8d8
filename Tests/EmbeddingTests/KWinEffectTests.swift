import Foundation
import Glibc
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI
import HostContainer
import Renderer

/// The Segue effect in a real KWin 5.27, headless: windows of a real client
/// (weston-image) open and close with the animator the config's rules name
/// by application id; what KWin draws, held mid-transition, is what Segue's
/// own renderer draws of the same layers over the same picture of the window;
/// a plugin that crashes or hangs mid-close costs only its animation.
@Suite(.serialized, .enabled(if: KWinSession.problem == nil, "\(KWinSession.problem ?? "")"))
struct KWinEffectTests {
    static let appID = "org.freedesktop.weston.wayland-image"
    /// A picture with detail everywhere, for the client to show.
    static let picture = Paths.packageRoot + "/docs/images/close-Pop.png"
    /// Where in each opening KWin is held and photographed: far enough that every animator shows the window.
    static let held = 0.9

    static func rules(_ appear: String, _ disappear: String = "default") -> String {
        #"{"rules": [{"appear": "\#(appID)", "animator": "\#(appear)"}, {"disappear": "org.freedesktop.*", "animator": "\#(disappear)"}]}"#
    }

    /// The client's window showing `picture` at rest, as KWin draws it, and its
    /// frame: opened with the default animator, photographed once the opening has ended.
    static func resting(_ picture: String) -> Result<(file: String, frame: (x: Int, y: Int, width: Int, height: Int)), InstalledLibsegue.SetupFailure> {
        do {
            let session = try KWinSession(config: rules("default"), plugins: [])
            let client = try session.open(picture)
            defer { _ = client.stop(with: SIGTERM) }
            session.wait(for: "\(appID) opened: completed")
            guard let frame = session.frame("opens") else { return .failure(.init(message: "no frame in \(session.log)")) }
            let shot = try session.photograph()
            let file = makeTemporaryFolder("kwin-rest") + "/window.png"
            try RendererComparison.crop(shot, frame, to: file)
            return .success((file, frame))
        } catch {
            return .failure(.init(message: "\(error)"))
        }
    }
    static let rest = resting(picture)

    /// Every animator Segue bundles and the C and C++ examples' held at
    /// `held` of the window's opening: what KWin draws over its black desktop
    /// is what Segue's renderer draws of the same layer states, the window at
    /// rest as the layer's picture (RendererComparison: of the pixels either
    /// draws, not black, which only one draws, which KWin draws and Segue
    /// does not, and how far their colours are where both do).
    @Test func eachAnimatorDrawsInKWinAsSeguesRendererDrawsIt() throws {
        let examples = try SDLPlayerTests.examples.get()
        let session = try KWinSession(config: Self.rules("default"), plugins: [examples], holdAt: Self.held)
        // The config, edited while KWin runs, applies to the next window (the first's is the session's own).
        let figures = try Self.heldOpenings(["default", "Pop", "SpringSlide", "CurlUp", "ImageZoom", "CurveSlide", "CardFlip"], in: session,
                                            rest: try Self.rest.get(), plugins: [examples], configured: true)
        print("KWin against Segue's renderer at \(Self.held) of each opening (pixels KWin draws and Segue does not, pixels only one draws, colour difference 0-255): \(figures.joined(separator: ", "))")
        #expect(session.stop() != nil, "KWin ended on SIGTERM with the effect loaded")
        #expect(processesTagged(session.tag).isEmpty, "no process left")
    }

    /// On a HiDPI output (KWin's at scale 2: laid out in units two pixels
    /// wide, drawn at its pixels, so that the effect draws a window's picture
    /// and a page at twice their size), Pop (its rounded corners; its shadow
    /// falls on a black desktop, unseen), SpringSlide
    /// and CurlUp (a page) held at `held` of the window's opening match Segue's
    /// renderer in those units, the photographs shrunk to them, as at scale 1
    /// but for the window's outline. (Until the effect drew in the output's
    /// pixels, Pop's and CurlUp's windows came out twice their size and cut,
    /// and flat layers a translation's half off.)
    @Test func atScaleTwoEachKindOfLayerDrawsAsSeguesRendererDrawsIt() throws {
        let session = try KWinSession(config: Self.rules("default"), plugins: [], scale: 2)
        let client = try session.open(Self.picture)
        session.wait(for: "\(Self.appID) opened: completed")
        let frame = try #require(session.frame("opens"), "the window's frame: \(session.log)")
        let rest = makeTemporaryFolder("kwin-rest-scale2") + "/window.png"
        try RendererComparison.crop(try session.photograph(), frame, to: rest)
        _ = client.stop(with: SIGTERM)
        session.wait(for: "closes at ")
        session.hold(at: Self.held)
        // A window between pixels has its outline drawn half-covered at twice the size, shrunk to grey: one
        // pixel round the window (1.5% of its pixels) may be seen by one picture only.
        let figures = try Self.heldOpenings(["Pop", "SpringSlide", "CurlUp"], in: session, rest: (rest, frame), plugins: [], configured: false,
                                            opened: 1, outline: 0.02, label: "scale2-")
        print("KWin at scale 2 against Segue's renderer at \(Self.held) of each opening: \(figures.joined(separator: ", "))")
        #expect(session.stop() != nil, "KWin ended on SIGTERM with the effect loaded")
        #expect(processesTagged(session.tag).isEmpty, "no process left")
    }

    /// Each of `animators` held at ``held`` of the window's opening in
    /// `session` (its rules written for each, but the first's when the session
    /// was `configured` with them; `opened` windows opened and closed in it
    /// before), photographed, against Segue's renderer drawing the same layer
    /// states with `rest` (the window at rest, a picture, and its frame) as the
    /// layer's picture: the match described on
    /// ``eachAnimatorDrawsInKWinAsSeguesRendererDrawsIt()``, but that as many
    /// as `outline` of the pixels may be drawn by one only. Its figures, one
    /// for each animator; pictures that differ are kept named with `label` first.
    static func heldOpenings(_ animators: [String], in session: KWinSession, rest: (file: String, frame: (x: Int, y: Int, width: Int, height: Int)),
                             plugins: [String], configured: Bool, opened: Int = 0, outline: Double = 0.01, label: String = "") throws -> [String] {
        let (picture, frame) = rest
        let window = segue_rect_t(x: Double(frame.x), y: Double(frame.y), width: Double(frame.width), height: Double(frame.height))
        var figures: [String] = []
        for (k, animator) in animators.enumerated() {
            if k > 0 || !configured { try session.configure(Self.rules(animator)) }
            let client = try session.open(Self.picture)
            let log = session.wait(for: "opens at ", count: opened + k + 1)
            #expect(log.contains("\(Self.appID) opens at \(frame.x),\(frame.y) \(frame.width)x\(frame.height): \(animator == "ImageZoom" ? "default" : animator)"),
                    "\(animator): \(log)")
            let shot = try session.photograph()
            let sampled = try RendererComparison.states(animator, SEGUE_TRANSITION_APPEAR, name: Self.appID, frame: window,
                                                        screen: KWinSession.size, plugins: plugins, at: Self.held)
            let drawn = RendererComparison.expected(sampled, SEGUE_TRANSITION_APPEAR, window: picture, over: nil, screen: KWinSession.size)
            let difference = RendererComparison.difference(shot, drawn)
            figures.append("\(animator) \(String(format: "%.1f%% %.1f%% %.1f", difference.shotOnly * 100, difference.oneOnly * 100, difference.colour))")
            // The window is seen in both; where KWin draws it, Segue does (all but 3%); the two draw the same
            // pixels (all but 1%) in colours within 2/255 on average (measured: 0.0% and at most 0.1): a flat
            // layer drawn by KWin through a matrix, exact in perspective, and a mesh lit and shaded by libsegue.
            let matches = difference.both > 2_000 && difference.shotOnly <= 0.03 && difference.oneOnly <= outline && difference.colour <= 2
            #expect(matches, "\(animator): KWin and Segue's renderer differ: \(difference)")
            try RendererComparison.keep(shot, drawn, named: "kwin-\(label)\(animator)", host: "kwin", differ: !matches, fallback: session.folder)
            _ = client.stop(with: SIGTERM)
            session.wait(for: "closes at ", count: opened + k + 1)
        }
        return figures
    }

    /// A page curled over shows its back as Segue's renderer shades paper:
    /// held halfway through CurlUp's opening, the back of the picture's black
    /// top is drawn as Content.backSide(of: black), a mid grey the picture
    /// itself hardly has, over thousands of pixels (the effect's own shader;
    /// KWin's draws the back as the front, black).
    @Test func aCurledPagesBackIsWashedOutAsSeguesRendererShadesPaper() throws {
        let session = try KWinSession(config: Self.rules("CurlUp"), plugins: [], holdAt: 0.55)
        let client = try session.open(Self.picture)
        defer { _ = client.stop(with: SIGTERM) }
        session.wait(for: "\(Self.appID) opens at ")
        let back = Content.backSide(of: Color(red: 0, green: 0, blue: 0))
        let grey = [back.red, back.green, back.blue].map { Int(($0 * 255).rounded()) }
        let shot = try session.photograph()
        var washed = 0
        for i in stride(from: 0, to: shot.rgba.count, by: 4) where (0..<3).allSatisfy({ abs(Int(shot.rgba[i + $0]) - grey[$0]) <= 8 }) {
            washed += 1
        }
        #expect(washed > 5_000, "pixels of the washed-out back (\(grey)): \(washed)")
        #expect(!session.log.contains("page shader did not compile"), "\(session.log)")
        _ = client.stop(with: SIGTERM)
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    /// A curling page is lit by its angle as Segue's renderer lights it
    /// (libsegue's segue_mesh_light per vertex, segue_page_lit in the
    /// effect's shader): a white window held mid-curl shows the light itself
    /// as its brightness. Where both draw the window, KWin's brightness is
    /// within 0.04 of Segue's renderer's on average (of 1) and within 0.15 at
    /// 95% of the pixels (measured 0.002 and 0.004; the effect before it lit
    /// the curl, 0.085 and 0.49); and both span a gradient: the darkest tenth
    /// at most 0.8, the brightest at least 0.95.
    @Test func aCurlingPageIsLitByItsAngleAsSeguesRendererLightsIt() throws {
        let white = makeTemporaryFolder("kwin-white") + "/white.png"
        try Data(pngBytes(width: 360, height: 300, rgba: [UInt8](repeating: 255, count: 360 * 300 * 4))).write(to: URL(fileURLWithPath: white))
        let (picture, frame) = try Self.resting(white).get()
        let session = try KWinSession(config: Self.rules("CurlUp"), plugins: [], holdAt: 0.5)
        let client = try session.open(white)
        defer { _ = client.stop(with: SIGTERM) }
        session.wait(for: "\(Self.appID) opens at ")
        let shot = try session.photograph()
        let window = segue_rect_t(x: Double(frame.x), y: Double(frame.y), width: Double(frame.width), height: Double(frame.height))
        let sampled = try RendererComparison.states("CurlUp", SEGUE_TRANSITION_APPEAR, name: Self.appID, frame: window,
                                                    screen: KWinSession.size, plugins: [], at: 0.5)
        let drawn = RendererComparison.expected(sampled, SEGUE_TRANSITION_APPEAR, window: picture, over: nil, screen: KWinSession.size)
        try Data(pngBytes(width: drawn.width, height: drawn.height, rgba: drawn.rgba8)).write(to: URL(fileURLWithPath: session.folder + "/expected-lit.png"))
        try Data(pngBytes(width: shot.width, height: shot.height, rgba: shot.rgba)).write(to: URL(fileURLWithPath: session.folder + "/kwin-lit.png"))
        let expected = drawn.rgba8
        func brightness(_ p: [UInt8], _ i: Int) -> Double { (Double(p[i]) + Double(p[i + 1]) + Double(p[i + 2])) / 765 }
        var differences: [Double] = [], kwin: [Double] = [], segue: [Double] = []
        for i in stride(from: 0, to: min(shot.rgba.count, expected.count), by: 4) {
            let a = brightness(shot.rgba, i), b = brightness(expected, i)
            guard a > 0.1 && b > 0.1 else { continue } // where both draw the window (the desktop is black)
            differences.append(abs(a - b))
            kwin.append(a)
            segue.append(b)
        }
        func percentile(_ v: [Double], _ k: Int) -> Double { v.isEmpty ? .nan : v.sorted()[min(v.count - 1, v.count * k / 100)] }
        func tenth(_ v: [Double], _ k: Int) -> Double { percentile(v, 10 * k) }
        let mean = differences.reduce(0, +) / Double(max(differences.count, 1))
        let figures = String(format: "%d pixels; mean difference %.3f, 95th percentile %.3f; darkest tenth KWin %.2f Segue %.2f, brightest KWin %.2f Segue %.2f",
                             differences.count, mean, percentile(differences, 95),
                             tenth(kwin, 1), tenth(segue, 1), tenth(kwin, 9), tenth(segue, 9))
        print("KWin's lit curl against Segue's renderer (white window, CurlUp at 0.5; \(session.folder)): \(figures)")
        #expect(differences.count > 10_000, "\(figures)")
        #expect(mean <= 0.04 && percentile(differences, 95) <= 0.15, "\(figures)")
        #expect(tenth(segue, 1) <= 0.8 && tenth(segue, 9) >= 0.95, "Segue's renderer lights the curl: \(figures)")
        #expect(tenth(kwin, 1) <= 0.8 && tenth(kwin, 9) >= 0.95, "KWin lights the curl: \(figures)")
        #expect(!session.log.contains("page shader did not compile"), "\(session.log)")
        _ = client.stop(with: SIGTERM)
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    @Test(arguments: ["FAULT_CRASH_EVALUATE", "FAULT_HANG_EVALUATE"])
    func aPluginThatFailsMidCloseCostsOnlyItsAnimation(_ fault: String) throws {
        let (folder, _) = try CPlugin.fixture("kwin-\(fault)", fault)
        let session = try KWinSession(config: Self.rules("Pop", "TestFade"), plugins: [folder])
        let client = try session.open(Self.picture)
        session.wait(for: "\(Self.appID) opened: completed")
        _ = client.stop(with: SIGTERM)
        _ = session.wait(for: "\(Self.appID) closed: completed")
        // Logged as the default finishes the close, or, when the hang's deadline passes after the close has
        // ended (it begins at t = 0.1 of 0.5 s; ending never waits on the plugin), as an event after it.
        let failure = fault == "FAULT_CRASH_EVALUATE" ? "TestFade crashed with signal 11"
            : "TestFade did not answer within 0.5"
        let log = session.wait(for: failure)
        #expect(log.contains("\(Self.appID) closes at "), "\(log)")
        #expect(log.contains(failure) && log.contains("the plugin is quarantined"), "the reason is logged: \(log)")
        #expect(fault == "FAULT_CRASH_EVALUATE" || log.contains("(an endless loop?) and was killed in evaluate"), "\(log)")
        // The window is gone: the desktop is black again.
        let shot = try session.photograph()
        #expect(!shot.rgba.enumerated().contains { $0.offset % 4 != 3 && $0.element > 8 }, "nothing left on screen")
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty, "no worker, client or KWin left")
    }

    /// Integrations/kwin/install.sh, as a Plasma user runs it: the effect where
    /// KWin finds a user's plugins (a login script adds the folder to
    /// QT_PLUGIN_PATH), switched on in kwinrc; --uninstall takes it all away.
    @Test func theInstallScriptPutsTheEffectWhereKWinFindsItAndSwitchesItOn() throws {
        let home = makeTemporaryFolder("kwin-home")
        let prefix = try InstalledLibsegue.prefix.get()
        let environment = ["-i", "PATH=/usr/bin:/bin", "HOME=\(home)", "TMPDIR=\(home)", "PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig"]
        let script = Paths.packageRoot + "/Integrations/kwin/install.sh"
        let installed = try run("/bin/sh", ["-c", "\"$@\" > \(home)/install.log 2>&1", "sh", "/usr/bin/env"] + environment + ["/bin/sh", script],
                                timeout: 600)
        let said = (try? String(contentsOfFile: home + "/install.log", encoding: .utf8)) ?? ""
        #expect(installed.status == 0, "\(said)")
        let effect = home + "/.local/lib/x86_64-linux-gnu/plugins/kwin/effects/plugins/segue.so"
        #expect(FileManager.default.fileExists(atPath: effect), "\(said)")
        let login = try String(contentsOfFile: home + "/.config/plasma-workspace/env/segue-kwin.sh", encoding: .utf8)
        #expect(login.contains("export QT_PLUGIN_PATH=\"\(home)/.local/lib/x86_64-linux-gnu/plugins"), "\(login)")
        let kwinrc = try String(contentsOfFile: home + "/.config/kwinrc", encoding: .utf8)
        #expect(kwinrc.contains("segueEnabled=true"))
        #expect(kwinrc.contains("kwin4_effect_scaleEnabled=false") && kwinrc.contains("kwin4_effect_squashEnabled=false"),
                "KWin's own open and minimize animations are off: \(kwinrc)")
        #expect(said.contains("The Segue effect is installed and switched on"))

        let removed = try run("/usr/bin/env", environment + ["/bin/sh", script, "--uninstall"], timeout: 60)
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: effect), "\(removed.out)\(removed.err)")
        #expect(!FileManager.default.fileExists(atPath: home + "/.config/plasma-workspace/env/segue-kwin.sh"))
        let restored = try String(contentsOfFile: home + "/.config/kwinrc", encoding: .utf8)
        #expect(restored.contains("segueEnabled=false") && !restored.contains("kwin4_effect_scaleEnabled"), "KWin's defaults are back: \(restored)")
    }

    /// Minimizing is a disappearance and coming back an appearance, chosen by
    /// the same rules: the window leaves the screen with the disappearance's
    /// animator and comes back where it was with the appearance's.
    @Test func aWindowMinimizesAndComesBackWithTheRulesAnimators() throws {
        let session = try KWinSession(config: Self.rules("SpringSlide", "Pop"), plugins: [])
        let empty = try session.photograph()
        let client = try session.open(Self.picture)
        defer { _ = client.stop(with: SIGTERM) }
        session.wait(for: "\(Self.appID) opened: completed")
        let open = try session.photograph()
        // Back, it is made active again as a click on its task would (a script's unminimize leaves it inactive).
        func minimized(_ on: Bool) -> String {
            "workspace.clientList().forEach(function (c) { if (c.resourceClass == '\(Self.appID)') { c.minimized = \(on); "
                + (on ? "" : "workspace.activeClient = c; ") + "} });"
        }
        try session.script(minimized(true))
        var log = session.wait(for: "\(Self.appID) minimized: completed")
        #expect(log.contains("\(Self.appID) minimizes at "), "\(log)")
        #expect(log.contains(": Pop for "), "the disappearance's rule: \(log)")
        #expect(try session.photograph().rgba == empty.rgba, "the minimized window is off the screen")
        try session.script(minimized(false))
        log = session.wait(for: "\(Self.appID) unminimized: completed")
        #expect(session.frame("unminimizes").map { [$0.x, $0.y, $0.width, $0.height] } == session.frame("opens").map { [$0.x, $0.y, $0.width, $0.height] },
                "it comes back where it was: \(log)")
        #expect(log.split(separator: "\n").contains { $0.contains("unminimizes at ") && $0.contains(": SpringSlide for ") }, "\(log)")
        #expect(try session.photograph().rgba == open.rgba, "the window is back as it was")
        // With KWin's own minimize animation switched on, it plays, not Segue.
        let bus = try String(contentsOfFile: session.folder + "/bus", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let loaded = try run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.kde.KWin", "/Effects",
                                                    "org.kde.kwin.Effects.loadEffect", "string:kwin4_effect_squash"],
                             environment: ["DBUS_SESSION_BUS_ADDRESS": bus], timeout: 30)
        #expect(loaded.out.contains("boolean true"), "\(loaded.out)\(loaded.err)")
        try session.script(minimized(true))
        #expect(try session.photograph().rgba == empty.rgba, "minimized by Squash")
        #expect(session.log.components(separatedBy: " minimizes at ").count == 2, "Segue played no second minimize: \(session.log)")
        // Closed while minimized, it closes unseen.
        _ = client.stop(with: SIGTERM)
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    /// The log says, once per name a session, the name rules match a window
    /// by, where it comes from and what it played: a rule written in another
    /// case (as xprop shows an X11 class) matches it.
    @Test func theLogNamesEachWindowOnceAsRulesMatchIt() throws {
        let session = try KWinSession(config: #"{"rules": [{"appear": "\#(Self.appID.uppercased())", "animator": "Pop"}]}"#, plugins: [])
        for k in 1...2 {
            let client = try session.open(Self.picture)
            session.wait(for: "\(Self.appID) opened: completed", count: k)
            _ = client.stop(with: SIGTERM)
            session.wait(for: "\(Self.appID) closed: completed", count: k)
        }
        let named = session.log.split(separator: "\n").filter { $0.contains("segue: window '") }
        #expect(named.count == 1, "once, not per window or transition: \(session.log)")
        #expect(named.first?.contains("segue: window '\(Self.appID)' (Wayland app id; rules match this name) opens with Pop: rules[0]") == true,
                "\(session.log)")
        #expect(session.log.split(separator: "\n").filter { $0.contains(" opens at ") && $0.contains(": Pop for ") }.count == 2,
                "both openings played the rule's Pop: \(session.log)")
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    /// The user's animation speed (System Settings' slider: kdeglobals'
    /// AnimationDurationFactor) scales a transition as it scales KWin's own
    /// effects: at 2 the window takes twice the animator's time; at 0
    /// (animations off) it shows at once.
    @Test(arguments: [2.0, 0.0])
    func theDesktopsAnimationSpeedScalesEachTransition(_ speed: Double) throws {
        let session = try KWinSession(config: Self.rules("Pop"), plugins: [], animationSpeed: speed)
        let client = try session.open(Self.picture)
        if speed == 0 {
            let log = session.wait(for: "\(Self.appID) opens, not animated: ")
            #expect(log.contains("\(Self.appID) opens, not animated: the desktop's animations are off"), "\(log)")
            #expect(!log.contains(" opens at "), "\(log)")
        } else {
            let log = session.wait(for: "\(Self.appID) opened: completed")
            let lines = log.split(separator: "\n")
            let began = try #require(lines.first { $0.contains(" opens at ") }, "\(log)")
            let planned = try #require(began.firstMatch(of: /: Pop for ([0-9.]+) s \(the animator's ([0-9.]+) s x ([0-9.]+), the desktop's animation speed/),
                                       "the scaled duration and the factor are logged: \(began)")
            let (scaled, animator, factor) = (Double(planned.1) ?? 0, Double(planned.2) ?? 0, Double(planned.3) ?? 0)
            #expect(factor == speed && animator > 0 && abs(scaled - animator * speed) < 0.001, "\(began)")
            let ended = try #require(lines.first { $0.contains("\(Self.appID) opened: completed") })
            let took = try #require(ended.firstMatch(of: /\ frames in ([0-9.]+) s/).flatMap { Double($0.1) }, "\(ended)")
            // The last frame is the first at or past the scaled duration: at most a few late frames after it.
            #expect(took >= scaled - 0.001 && took < scaled + 0.5, "the opening took \(took) s on the desktop's clock, for \(scaled) s: \(ended)")
        }
        _ = client.stop(with: SIGTERM)
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    /// While Segue animates a window it holds the window's grab role for that
    /// change (WindowAddedGrabRole opening, WindowClosedGrabRole closing), so
    /// KWin's other effects (Fade, Scale) leave it alone; it lets go at the end.
    /// A scripted effect of the test's, loaded after Segue, watches the roles.
    @Test func aWindowSegueAnimatesIsGrabbedUntilItsTransitionEnds() throws {
        let session = try KWinSession(config: Self.rules("Pop"), plugins: [], scriptedEffects: ["seguetestwatch": """
            effects.windowDataChanged.connect(function (w, role) {
                if (role == Effect.WindowAddedGrabRole || role == Effect.WindowClosedGrabRole) {
                    print("segue-test: role " + role + " grabbed by another effect: " + effect.isGrabbed(w, role));
                }
            });
            """])
        try session.loadEffect("seguetestwatch")
        let client = try session.open(Self.picture)
        session.wait(for: "\(Self.appID) opened: completed")
        _ = client.stop(with: SIGTERM)
        let log = session.wait(for: "\(Self.appID) closed: completed")
        let lines = log.split(separator: "\n").map(String.init)
        func index(_ text: String) -> Int { lines.firstIndex { $0.contains(text) } ?? -1 }
        for (role, change) in [(1, "opens at "), (2, "closes at ")] {
            let taken = index("segue-test: role \(role) grabbed by another effect: true")
            let released = index("segue-test: role \(role) grabbed by another effect: false")
            #expect(taken > index(change) && released > taken, "role \(role) held while the window \(change)and released: \(log)")
        }
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    /// A window another effect has taken (its grab role another's) is left to
    /// it, as KWin's Scale leaves it: grabbed before Segue begins (minimizing),
    /// Segue does not begin; grabbed after (closing), Segue lets it go.
    @Test func aWindowAnotherEffectHasGrabbedIsLeftToIt() throws {
        let session = try KWinSession(config: Self.rules("SpringSlide", "Pop"), plugins: [], scriptedEffects: ["seguetestgrab": """
            effects.windowAdded.connect(function (w) { effect.grab(w, Effect.WindowMinimizedGrabRole, true); });
            effects.windowClosed.connect(function (w) { effect.grab(w, Effect.WindowClosedGrabRole, true); });
            """])
        try session.loadEffect("seguetestgrab")
        let client = try session.open(Self.picture)
        session.wait(for: "\(Self.appID) opened: completed")
        func minimized(_ on: Bool) -> String {
            "workspace.clientList().forEach(function (c) { if (c.resourceClass == '\(Self.appID)') { c.minimized = \(on); "
                + (on ? "" : "workspace.activeClient = c; ") + "} });"
        }
        try session.script(minimized(true))
        var log = session.wait(for: "\(Self.appID) minimizes, not animated: ")
        #expect(log.contains("\(Self.appID) minimizes, not animated: another effect animates it"), "\(log)")
        #expect(!log.contains(" minimizes at "), "\(log)")
        try session.script(minimized(false))
        session.wait(for: "\(Self.appID) unminimized: completed")
        _ = client.stop(with: SIGTERM)
        log = session.wait(for: "\(Self.appID) closed: ")
        #expect(log.contains("\(Self.appID) closes: left to another effect"), "\(log)")
        #expect(log.contains("\(Self.appID) closed: cut short"), "\(log)")
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    /// While a full-screen effect runs (Overview, Present Windows: here a
    /// scripted effect of the test's that holds KWin's full-screen lock
    /// through a long animation of another window, as KWin's own hold it), a
    /// window that closes is not animated by Segue and goes at once: the
    /// screen is again what it was before that window opened, no ghost of it
    /// left.
    @Test func aWindowClosedWhileAFullScreenEffectRunsGoesAtOnce() throws {
        let session = try KWinSession(config: Self.rules("Pop", "Pop"), plugins: [], scriptedEffects: ["seguetestfullscreen": """
            var windows = effects.stackingOrder.filter(function (w) { return w.normalWindow; });
            animate({window: windows[0], duration: 600000, fullScreen: true, keepAlive: false,
                     animations: [{type: Effect.Opacity, from: 1.0, to: 1.0}]});
            print("segue-test: a full-screen effect runs: " + effects.hasActiveFullScreenEffect);
            """])
        let white = makeTemporaryFolder("kwin-white") + "/white.png"
        try Data(pngBytes(width: 120, height: 90, rgba: [UInt8](repeating: 255, count: 120 * 90 * 4))).write(to: URL(fileURLWithPath: white))
        let staying = try session.open(white)
        defer { _ = staying.stop(with: SIGTERM) }
        session.wait(for: "\(Self.appID) opened: completed")
        let before = try session.photograph()
        let closing = try session.open(Self.picture)
        defer { _ = closing.stop(with: SIGTERM) }
        session.wait(for: "\(Self.appID) opened: completed", count: 2)
        try session.loadEffect("seguetestfullscreen")
        var log = session.wait(for: "segue-test: a full-screen effect runs: ")
        try #require(log.contains("segue-test: a full-screen effect runs: true"), "\(log)")
        _ = closing.stop(with: SIGTERM)
        log = session.wait(for: "\(Self.appID) closes, not animated: ")
        #expect(log.contains("\(Self.appID) closes, not animated: a full-screen effect (Overview, Present Windows) is on"), "\(log)")
        #expect(!log.contains(" closes at "), "\(log)")
        let after = try session.photograph()
        let differing = stride(from: 0, to: min(before.rgba.count, after.rgba.count), by: 4).filter { i in
            (0..<3).contains { abs(Int(before.rgba[i + $0]) - Int(after.rgba[i + $0])) > 8 }
        }.count
        #expect(differing == 0, "pixels that differ from the screen before the closed window opened: \(differing)")
        if differing > 0 {
            try Data(pngBytes(width: after.width, height: after.height, rgba: after.rgba)).write(to: URL(fileURLWithPath: session.folder + "/after.png"))
        }
        #expect(!log.contains("KCrash"), "\(log)")
        _ = staying.stop(with: SIGTERM)
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    /// KWin chooses as every host does for the same config (HostsAgreeTests
    /// holds a C program, Python and the GTK widget to each other): for a
    /// rule naming a plugin, a rule naming an animator no plugin provides, a
    /// config broken at start and none, the window opens with the animator,
    /// and for the reason, that libsegue gives a C program describing the
    /// same window opening under the same config.
    @Test func kwinChoosesAsACProgramDoesForTheSameConfig() throws {
        let program = try InstalledLibsegue.program("chosen")
        let cases: [(String, String?)] = [("a rule naming a plugin", Self.rules("SpringSlide")), ("a rule naming an unknown animator", Self.rules("Nope")),
                                          ("a broken config", #"{"rules": [{"appear": "#), ("no config", nil)]
        for (name, config) in cases {
            let session = try KWinSession(config: config, plugins: [])
            let client = try session.open(Self.picture)
            let log = session.wait(for: "\(Self.appID) opens at ")
            _ = client.stop(with: SIGTERM)
            #expect(session.stop() != nil)
            let line = try #require(log.split(separator: "\n").first { $0.contains("\(Self.appID) opens at ") }, "\(name): \(log)")
            // "... opens at X,Y WxH: ANIMATOR for S s (the animator's S s x F, the desktop's animation speed; REASON)"
            let placed = line.components(separatedBy: " opens at ").last ?? ""
            let animator = placed.components(separatedBy: ": ").dropFirst().first?.components(separatedBy: " for ").first ?? ""
            let reason = String(line.components(separatedBy: "the desktop's animation speed; ").last?.dropLast() ?? "")
            let ran = try run(program, ["appear", Self.appID], environment: ["XDG_CONFIG_HOME": session.folder + "/config",
                                                                          "XDG_DATA_HOME": makeTemporaryFolder("kwin-data")],
                              unsetting: ["SEGUE_PLUGIN_PATH", "SEGUE_CONFIG"], timeout: 60)
            let chosen = try #require(ran.out.split(separator: "\n").first { $0.hasPrefix("chosen|") }, "\(ran.out)\(ran.err)")
                .split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            #expect([animator, reason] == [chosen[1], chosen[3]], "\(name): KWin \(line); C \(chosen)")
            #expect(animator == (name == "a rule naming a plugin" ? "SpringSlide" : "default") && !reason.isEmpty, "\(name): \(line)")
            #expect(name != "a broken config" || log.contains("\(session.config):1:"), "the broken file is named: \(log)")
            #expect(processesTagged(session.tag).isEmpty)
        }
    }

    /// A window that skips close animations (set by a KWin script or a window
    /// rule, as KWin's own effects honour it) closes at once.
    @Test func aWindowThatSkipsCloseAnimationsClosesAtOnce() throws {
        let session = try KWinSession(config: Self.rules("Pop", "Pop"), plugins: [])
        let client = try session.open(Self.picture)
        session.wait(for: "\(Self.appID) opened: completed")
        try session.script("workspace.clientList().forEach(function (c) { if (c.resourceClass == '\(Self.appID)') { c.skipsCloseAnimation = true; } });")
        _ = client.stop(with: SIGTERM)
        let log = session.wait(for: "\(Self.appID) closes, not animated: ")
        #expect(log.contains("\(Self.appID) closes, not animated: the window skips close animations"), "\(log)")
        #expect(!log.contains(" closes at "), "\(log)")
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    /// Right after the install there is no config, nor its folder: the
    /// effect says so once and plays the default; the config a user then
    /// writes is read while KWin runs, with no restart.
    @Test func aConfigWrittenAfterKWinStartedIsFollowed() throws {
        let session = try KWinSession(config: nil, plugins: [])
        let missing = "no config at \(session.config): the built-in default plays every transition not given an animator; it is read when it appears"
        #expect(session.wait(for: missing).contains(missing), "said once, at the start: \(session.log)")
        try FileManager.default.createDirectory(atPath: (session.config as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try replaceByRename(session.config, with: Self.rules("Pop"))
        let appeared = "\(session.config) appeared and is followed"
        #expect(session.wait(for: appeared).contains(appeared), "\(session.log)")
        let client = try session.open(Self.picture)
        #expect(session.wait(for: "opened: completed").contains("\(Self.appID) opens at "))
        #expect(session.log.contains(": Pop for "), "the new config's rule: \(session.log)")
        _ = client.stop(with: SIGTERM)
        session.wait(for: "closed: completed")
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }

    @Test func aBrokenConfigKeepsTheLastGoodOneAndSaysWhy() throws {
        let session = try KWinSession(config: Self.rules("Pop"), plugins: [])
        let log = try session.configure(#"{"rules": [{"appear": "", "animator": "CurlUp"}]}"#)
        #expect(log.contains("$.rules[0].appear: expected a view's name"), "\(log)")
        let client = try session.open(Self.picture)
        #expect(session.wait(for: "opened: completed").contains("\(Self.appID) opens at "))
        #expect(session.log.contains(": Pop for "), "the last good config's rule: \(session.log)")
        _ = client.stop(with: SIGTERM)
        session.wait(for: "closed: completed")
        #expect(session.stop() != nil)
        #expect(processesTagged(session.tag).isEmpty)
    }
}
