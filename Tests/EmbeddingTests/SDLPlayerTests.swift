import Foundation
import Glibc
@testable import HostConfig
@testable import HostContainer
@testable import PluginHost
@testable import Renderer
import HostTestSupport
import TestSupport
import Testing

/// Examples/sdl-player: a C program of its own drawing, built against the
/// installed libsegue and SDL2 with pkg-config, plays the bundled animators
/// and the C example's between its screens.
@Suite("Examples/sdl-player", .serialized)
struct SDLPlayerTests {
    static let folder = Paths.packageRoot + "/Examples/sdl-player"
    static let hasSDLDevelopment = (try? run("/usr/bin/env", ["pkg-config", "--exists", "sdl2"]).status) == 0
        && Toolchain.canBuildCPlusPlus
    static let skipNote = "skipped: needs SDL2's development files and c++ (apt-get install libsdl2-dev g++; .ci/run does)"

    /// The player, built once a run with its Makefile's command against the installed libsegue.
    static let player: Result<String, Error> = Result {
        let prefix = try InstalledLibsegue.prefix.get()
        let output = makeTemporaryFolder("sdl-player") + "/sdl-player"
        let built = try run("/usr/bin/env", ["make", "-s", "-C", folder, "CFLAGS=-O2 -std=c99 -Wall -Wextra -Werror",
                                             "OUT=\(output)"], environment: InstalledLibsegue.environment(prefix))
        guard built.status == 0 else { throw InstalledLibsegue.SetupFailure(message: "make: \(built.out)\(built.err)") }
        return output
    }

    /// The C example (CurveSlide), the C++ example (CardFlip, a perspective) and the iris example (Iris,
    /// ABI 1.4's clip: a circle growing from the anchor), built once a run as their authors build them, in a
    /// folder of their own: the tour's, GtkStackTests', the KWin tests' and GnomeShellLookTests' example
    /// plugins (read only).
    static let examples: Result<String, Error> = Result {
        let examples = makeTemporaryFolder("examples")
        _ = try CPlugin.build(Paths.packageRoot + "/Examples/c-animator/curve_slide.c", name: "CurveSlide", into: examples)
        _ = try CPlugin.build(Paths.packageRoot + "/Examples/iris-animator/iris.c", name: "Iris", into: examples)
        let built = try run("/usr/bin/env", ["make", "-s", "-C", Paths.packageRoot + "/Examples/cpp-animator", "OUT=\(examples)"])
        guard built.status == 0 else { throw InstalledLibsegue.SetupFailure(message: "make CardFlip: \(built.err)") }
        return examples
    }

    /// The plugin folders of the tour: the bundled animators and the `examples`.
    static func plugins() throws -> [String] { [Paths.binFolder, try examples.get()] }

    /// The player's screens, as Segue's model: the same flat colours and elements as sdl_player.c's.
    static let screens: [String: (background: String, elements: [(String, Rect, String)])] = [
        "home": ("#2f6fd0", [("photo", Rect(x: 24, y: 140, width: 150, height: 110), "#e84a3c"),
                             ("title", Rect(x: 24, y: 40, width: 312, height: 48), "#f4f4f4")]),
        "photos": ("#2ea05a", [("photo", Rect(x: 0, y: 0, width: 360, height: 270), "#e84a3c"),
                               ("caption", Rect(x: 24, y: 300, width: 312, height: 60), "#1d1d1d")]),
        "settings": ("#f09a1e", [("toggle", Rect(x: 250, y: 120, width: 80, height: 40), "#ffffff")]),
    ]

    /// What Segue's own renderer draws at `t` of the switch `from` -> `to`, chosen by the same config and plugins.
    static func reference(from: String, to: String, t: Double, config: SegueConfig, registry: AnimatorRegistry) throws -> [UInt8] {
        let size = Rect(x: 0, y: 0, width: 360, height: 640)
        let order = ["home", "photos", "settings"]
        let children = order.map { name -> ViewController in
            let screen = screens[name]!
            let root = View(frame: size)
            root.backgroundColor = Color(hex: screen.background)!
            for (element, frame, colour) in screen.elements {
                let view = View(name: element, frame: frame)
                view.backgroundColor = Color(hex: colour)!
                root.addSubview(view)
            }
            return ViewController(name: name, view: root)
        }
        let clock = VirtualClock()
        let container = ContainerViewController(viewControllers: children, size: size, clock: clock)
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        container.delegate = delegate
        try container.select(named: from)
        container.runUntilIdle(advancing: clock)
        let origin = clock.now
        try container.select(named: to)
        clock.advance(to: origin + t)
        container.tick()
        return ViewRenderer(scale: 1, background: .white).render(container.view).rgba8
    }

    /// A 32-bit BMP as SDL_SaveBMP writes it, as RGBA rows from the top.
    static func decodeBMP(_ path: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        let offset = u32(10), width = u32(18), rawHeight = Int32(truncatingIfNeeded: u32(22)), bits = Int(bytes[28])
        let height = Int(abs(rawHeight)), step = bits / 8, row = (width * step + 3) & ~3
        try #require(step >= 3 && bytes.count >= offset + row * height)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let source = offset + (rawHeight > 0 ? height - 1 - y : y) * row
            for x in 0..<width {
                let p = source + x * step
                (rgba[(y * width + x) * 4], rgba[(y * width + x) * 4 + 1], rgba[(y * width + x) * 4 + 2]) = (bytes[p + 2], bytes[p + 1], bytes[p])
            }
        }
        return (width, height, rgba)
    }

    /// The mean difference per channel (0 to 255), and the share of pixels whose channels differ by more than 48 in all.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> (mean: Double, far: Double) {
        var total = 0, far = 0
        for p in stride(from: 0, to: min(a.count, b.count), by: 4) {
            let d = abs(Int(a[p]) - Int(b[p])) + abs(Int(a[p + 1]) - Int(b[p + 1])) + abs(Int(a[p + 2]) - Int(b[p + 2]))
            total += d
            if d > 48 { far += 1 }
        }
        let pixels = Double(a.count / 4)
        return (Double(total) / (pixels * 3), Double(far) / pixels)
    }

    /// The tolerance stated in docs/embedding.md: a mean difference of at most 4/255
    /// per channel, and at most 5% of the pixels far apart. SDL's software
    /// renderer samples textures without filtering and draws triangle edges
    /// without anti-aliasing (under 1% of the pixels), and the player lights
    /// CurlUp's page and washes out its back as Segue's renderer does but
    /// draws no shadow under it (3.6% of the pixels of its frame).
    static let meanTolerance = 4.0
    static let farTolerance = 0.05

    @Test(.enabled(if: hasSDLDevelopment, "\(skipNote)"))
    func midTransitionFramesMatchSeguesOwnRenderer() throws {
        let player = try Self.player.get()
        let plugins = try Self.plugins()
        let frames = makeTemporaryFolder("sdl-frames")
        let ran = try run(player, ["--frames", frames, "--config", Self.folder + "/segue.json"] + plugins.flatMap { ["--plugins", $0] },
                          environment: ["SDL_VIDEODRIVER": "dummy"], timeout: 120)
        #expect(ran.status == 0, "\(ran.err)")
        let lines = ran.out.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let played = lines.filter { $0.first == "frame" }
        #expect(played.map { $0[4] } == ["ImageZoom", "CurlUp", "SpringSlide", "CurveSlide", "default", "CardFlip"], "\(ran.out)")
        #expect(played.map { $0[5] } == ["0", "0", "0", "0", "0", "0"], "no animator fell back")
        let config = try SegueConfig.load(path: Self.folder + "/segue.json", forViewsOfAProgram: true)
        let registry = AnimatorRegistry(folders: plugins, isolation: .process)
        for frame in played {
            let (path, from, to, t) = (frame[1], frame[2], frame[3], try #require(Double(frame[6])))
            let drawn = try Self.decodeBMP(path)
            #expect(drawn.width == 360 && drawn.height == 640)
            let expected = try Self.reference(from: from, to: to, t: t, config: config, registry: registry)
            let (mean, far) = Self.difference(drawn.rgba, expected)
            // SEGUE_TEST_PHOTOS=DIR keeps both frames side by side, to look at.
            if let folder = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] {
                var canvas = Canvas(width: 728, height: 640)
                for y in 0..<640 {
                    for x in 0..<360 {
                        for c in 0..<3 {
                            canvas.pixels[(y * 728 + x) * 4 + c] = drawn.rgba[(y * 360 + x) * 4 + c]
                            canvas.pixels[(y * 728 + x + 368) * 4 + c] = expected[(y * 360 + x) * 4 + c]
                        }
                        canvas.pixels[(y * 728 + x) * 4 + 3] = 255
                        canvas.pixels[(y * 728 + x + 368) * 4 + 3] = 255
                    }
                }
                try Data(PNG.encode(canvas)).write(to: URL(fileURLWithPath: "\(folder)/sdl-\(frame[4])-\(from)-\(to).png"))
            }
            #expect(mean <= Self.meanTolerance && far <= Self.farTolerance,
                    "\(frame[4]) \(from) -> \(to) at t = \(t): mean difference \(mean) per channel, \(far * 100)% of pixels far apart")
            print("sdl-player \(frame[4]): mean difference \(String(format: "%.2f", mean))/255, \(String(format: "%.2f", far * 100))% far; frame \(frame[7]) ms median, \(frame[8]) ms p99")
        }
    }

    @Test(.enabled(if: hasSDLDevelopment && VirtualDisplay.available && VirtualDisplay.hasSDL, "\(skipNote); and Xvfb, xdotool, xwd"))
    func leftAndRightSwitchScreensInAWindow() throws {
        let player = try Self.player.get()
        let plugins = try Self.plugins()
        let display = try VirtualDisplay()
        let playing = try LiveProcess(player, ["--config", Self.folder + "/segue.json"] + plugins.flatMap { ["--plugins", $0] },
                                      in: Self.folder, environment: ["DISPLAY": display.name, "SDL_VIDEODRIVER": "x11"])
        defer { _ = playing.stop(with: SIGTERM) }
        let window = try #require(try display.window(named: "Segue SDL player"), "no window: \(playing.waitForError("", timeout: 1))")
        func showing(_ screen: String) throws -> XWDImage? {
            let colour = Color(hex: Self.screens[screen]!.background)!
            return try display.waitForCapture(window) { image in
                image.width >= 360 && XWDImage.near(image.mean(180, 600, size: 8), colour) && XWDImage.near(image.mean(30, 500, size: 8), colour)
            }
        }
        func expectShowing(_ screen: String) throws {
            let image = try showing(screen)
            let colour = Color(hex: Self.screens[screen]!.background)!
            #expect(image.map { XWDImage.near($0.mean(180, 600, size: 8), colour) } == true,
                    "\(screen) is shown: \(image.map { "\($0.width)x\($0.height), \($0.mean(180, 600, size: 8)) and \($0.mean(30, 500, size: 8))" } ?? "no photograph")")
        }
        try expectShowing("home")
        for (key, screen) in [("Right", "photos"), ("Right", "settings"), ("Left", "photos"), ("Left", "home")] {
            try display.tool("xdotool", ["key", "--window", window, key])
            try expectShowing(screen)
        }
        // SEGUE_TEST_PHOTOS=DIR keeps a photograph of the window, to look at.
        if let folder = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"], let image = try display.capture(window) {
            try Data(PNG.encode(image.canvas())).write(to: URL(fileURLWithPath: folder + "/sdl-player.png"))
        }
        try display.tool("xdotool", ["key", "--window", window, "q"])
        #expect(playing.stop(with: 0, timeout: 10) == 0, "q ends the player")
    }
}
