import Foundation
import Glibc
import Testing
import TestSupport
import HostTestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI
@testable import HostContainer
import Renderer

/// Integrations/gtk: SegueGtkStack, a GTK 4 container built with Meson
/// against the installed libsegue, in its example app (segue-gtk-demo) under
/// Xvfb. What GTK's GL renderer draws, held mid-switch, is what Segue's own
/// renderer draws of the same layers over the same page pictures; the cairo
/// renderer draws the flat fallback, never its pink box; keys and an edge
/// drag switch pages; a crashing plugin costs only its transition; Python
/// and GJS use the widget through GObject introspection.
@Suite(.serialized, .enabled(if: GtkBuild.problem == nil, "\(GtkBuild.problem ?? "")"))
struct GtkStackTests {
    static let width = 390, height = 844

    /// The plugin folder every run uses: the bundled animators, a mesh fixture (MeshLook), and the examples built once a run
    /// (SDLPlayerTests.examples: the C example's CurveSlide, the C++ one's CardFlip, a perspective, the iris example's Iris, a clip).
    static let plugins: Result<String, InstalledLibsegue.SetupFailure> = {
        do {
            let folder = makeTemporaryFolder("gtk-plugins")
            for file in ["SpringSlide", "CurlUp", "ImageZoom", "Pop"].map(Paths.plugin) {
                try FileManager.default.copyItem(atPath: file, toPath: folder + "/" + (file as NSString).lastPathComponent)
            }
            // A mesh page with ABI 1.4's look: a rounded clip, rounded corners and a shadow.
            _ = try CPlugin.build(Paths.packageRoot + "/Tests/Fixtures/gtk/mesh_look.c", name: "MeshLook", into: folder)
            for examples in try SDLPlayerTests.plugins() where examples != Paths.binFolder {
                for file in try FileManager.default.contentsOfDirectory(atPath: examples) where file.hasSuffix(".so") {
                    try FileManager.default.copyItem(atPath: examples + "/" + file, toPath: folder + "/" + file)
                }
            }
            return .success(folder)
        } catch let failure as InstalledLibsegue.SetupFailure {
            return .failure(failure)
        } catch {
            return .failure(.init(message: "\(error)"))
        }
    }()

    /// A demo's pictures and lines, from `segue-gtk-demo --frames`.
    struct Held {
        let folder: String
        let lines: [[String]]
        /// The numbers of the first line that begins with `tag` (origin|X|Y|W|H, pointer|X|Y).
        func numbers(_ tag: String) -> [Double]? {
            lines.first { $0.first == tag }.map { $0.dropFirst().compactMap { Double($0) } }
        }
        var elements: [(side: Int, name: String, frame: segue_rect_t)] {
            lines.filter { $0.first == "element" && $0.count == 7 }.map {
                (Int($0[1])!, $0[2], segue_rect_t(x: Double($0[3])!, y: Double($0[4])!, width: Double($0[5])!, height: Double($0[6])!))
            }
        }
    }

    /// An X display the demos' window (``width`` x ``height`` points, and a title bar) fits on whole at `scale`
    /// pixels a point: a toolkit cuts a window larger than its screen.
    static func display(scale: Int) throws -> VirtualDisplay {
        try VirtualDisplay(width: 1200, height: max(1000, (height + 100) * scale))
    }

    /// Runs the demo holding a switch from `from` to `to` at each fraction, with `renderer` (GSK_RENDERER), at
    /// `scale` (GDK_SCALE: a HiDPI screen).
    static func hold(_ animator: String, at fractions: [Double], renderer: String = "gl", from: String = "list", to: String = "picture",
                     plugins extra: [String] = [], more: [String] = [], scale: Int = 1) throws -> Held {
        let build = try GtkBuild.built.get()
        let folder = makeTemporaryFolder("gtk-frames")
        let display = try Self.display(scale: scale)
        var environment = try GtkBuild.environment(display: display.name, renderer: renderer, plugins: extra)
        if scale != 1 { environment["GDK_SCALE"] = String(scale) }
        let result = try run(build + "/segue-gtk-demo", ["--frames", folder, "--animator", animator, "--from", from, "--to", to,
                                                         "--fractions", fractions.map { String($0) }.joined(separator: ",")] + more,
                             environment: environment, timeout: 120)
        let lines = result.out.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        guard result.status == 0, lines.last == ["done"] else {
            throw InstalledLibsegue.SetupFailure(message: "segue-gtk-demo --frames: status \(result.status)\n\(result.out)\n\(result.err)")
        }
        return Held(folder: folder, lines: lines)
    }

    /// The layer states libsegue gives the same switch at `fraction`, in a player of the same plugins,
    /// told `anchor` (none by default).
    static func states(_ animator: String, _ held: Held, at fraction: Double, from: String = "list", to: String = "picture",
                       anchor: segue_anchor_t = segue_anchor_t()) throws
        -> (states: [segue_layer_state_t], layers: [segue_layer_request_t], meshes: [[segue_vec3_t]], elements: [[segue_rect_t]]) {
        let player = try LibseguePromiseTests.player(try plugins.get())
        defer { seguePlayerFree(player) }
        let bounds = segue_rect_t(x: 0, y: 0, width: Double(width), height: Double(height))
        let sides = [0, 1].map { side in held.elements.filter { $0.side == side } }
        let names = sides.map { $0.map { strdup($0.name)! } }
        defer { names.joined().forEach { free($0) } }
        let elements = zip(sides, names).map { side, names in
            zip(side, names).map { segue_element_t(struct_size: UInt32(MemoryLayout<segue_element_t>.size), name: $1, frame: $0.frame) }
        }
        var fromSide = elements[0], toSide = elements[1]
        var made: OpaquePointer?
        let status = fromSide.withUnsafeMutableBufferPointer { fromElements in
            toSide.withUnsafeMutableBufferPointer { toElements in
                var fromPointers = (0..<fromElements.count).map { Optional(UnsafePointer(fromElements.baseAddress! + $0)) }
                var toPointers = (0..<toElements.count).map { Optional(UnsafePointer(toElements.baseAddress! + $0)) }
                return from.withCString { fromName in
                    to.withCString { toName in
                        animator.withCString { chosen in
                            fromPointers.withUnsafeMutableBufferPointer { fp in
                                toPointers.withUnsafeMutableBufferPointer { tp in
                                    var desc = segue_transition_desc_t()
                                    desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
                                    desc.bounds = bounds
                                    desc.from = segue_view_t(name: fromName, frame: bounds, elements: fp.baseAddress, element_count: UInt32(fp.count))
                                    desc.to = segue_view_t(name: toName, frame: bounds, elements: tp.baseAddress, element_count: UInt32(tp.count))
                                    desc.going_right = true
                                    desc.interactive = true
                                    desc.animator = chosen
                                    desc.anchor = anchor
                                    return LibseguePromiseTests.beginInTime(player, &desc, &made)
                                }
                            }
                        }
                    }
                }
            }
        }
        let transition = try #require(made, "begin: \(status) \(String(cString: segueErrorMessage()!))")
        defer { segueTransitionFree(transition) }
        let sampled = try SampledLayers(transition, at: fraction)
        #expect(sampled.animator == animator, "\(animator) runs: \(sampled.reason)")
        return (sampled.states, sampled.layers, sampled.meshes, sides.map { $0.map(\.frame) })
    }

    /// What Segue's renderer draws of those layers over black: each page as GTK drew it then (its hidden
    /// elements hidden), each element snapshot as its page at rest shows it. `flat` draws meshes flat at their frame.
    static func expected(_ sampled: (states: [segue_layer_state_t], layers: [segue_layer_request_t], meshes: [[segue_vec3_t]], elements: [[segue_rect_t]]),
                         _ held: Held, at fraction: Double, from: String = "list", to: String = "picture", flat: Bool = false) throws -> Canvas {
        let root = View(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        root.backgroundColor = Color(red: 0, green: 0, blue: 0)
        for (i, layer) in sampled.layers.enumerated() {
            let s = sampled.states[i]
            let view = View(frame: Rect(x: s.frame.x, y: s.frame.y, width: s.frame.width, height: s.frame.height))
            view.transform = Transform3D(m: s.transform.m)
            view.alpha = min(max(s.alpha, 0), 1)
            view.isHidden = s.hidden
            view.zPosition = s.z_position
            // ABI 1.4's look, as the host draws it (clamped by LayerState).
            var look = LayerState(frame: view.frame, zPosition: 0)
            look.raw = s
            (view.clip, view.shadow, view.cornerRadius) = (look.clip, look.shadow, look.cornerRadius)
            view.masksToBounds = look.cornerRadius > 0
            switch layer.kind {
            case SEGUE_LAYER_FROM_VIEW.rawValue, SEGUE_LAYER_TO_VIEW.rawValue:
                let page = layer.kind == SEGUE_LAYER_FROM_VIEW.rawValue ? from : to
                view.content = .picture(path: "\(held.folder)/page-\(page)-\(fraction).png", fit: .fill)
            default:
                let side = layer.kind == SEGUE_LAYER_TO_ELEMENT_SNAPSHOT.rawValue ? 1 : 0
                let frame = sampled.elements[side][Int(layer.element)]
                view.content = .picture(path: try crop("\(held.folder)/rest-\(side == 0 ? from : to).png", frame), fit: .fill)
            }
            if layer.mesh_columns > 0 && !flat {
                let mesh = Mesh(columns: Int(layer.mesh_columns), rows: Int(layer.mesh_rows), covering: view.frame)
                for (k, v) in sampled.meshes[i].enumerated() { mesh.vertices[k] = Vec3(x: v.x, y: v.y, z: v.z) }
                view.mesh = mesh
            }
            root.addSubview(view)
        }
        return ViewRenderer(scale: 1, background: Color(red: 0, green: 0, blue: 0)).render(root)
    }

    /// A PNG GTK wrote (any filter, any depth), read through ImageMagick as 8-bit RGBA.
    static func picture(_ path: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let size = try run("/usr/bin/identify", ["-format", "%w %h", path])
        let numbers = size.out.split(separator: " ").compactMap { Int($0) }
        let pixels = makeTemporaryFolder("gtk-rgba") + "/picture.rgba"
        let converted = try run("/usr/bin/convert", [path, "-depth", "8", "RGBA:" + pixels])
        guard numbers.count == 2, converted.status == 0, let data = FileManager.default.contents(atPath: pixels) else {
            throw InstalledLibsegue.SetupFailure(message: "cannot read \(path): \(size.err)\(converted.err)")
        }
        return (numbers[0], numbers[1], Array(data))
    }

    /// The part of a picture under `frame`, as a PNG of its own.
    static func crop(_ path: String, _ frame: segue_rect_t) throws -> String {
        let picture = try picture(path)
        let x = Int(frame.x.rounded()), y = Int(frame.y.rounded()), w = Int(frame.width.rounded()), h = Int(frame.height.rounded())
        var rgba = [UInt8]()
        for row in y..<(y + h) { rgba += picture.rgba[((row * picture.width + x) * 4)..<((row * picture.width + x + w) * 4)] }
        let file = path.replacingOccurrences(of: ".png", with: "-\(x)-\(y)-\(w)-\(h).png")
        try Data(pngBytes(width: w, height: h, rgba: rgba)).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// How two pictures differ: the mean difference of the colours (0 to 255) and the share of pixels
    /// more than 64 apart in some channel.
    static func difference(_ shot: (width: Int, height: Int, rgba: [UInt8]), _ canvas: Canvas) -> (mean: Double, far: Double) {
        let drawn = canvas.rgba8
        var total = 0.0, far = 0, count = 0
        for i in stride(from: 0, to: min(shot.rgba.count, drawn.count), by: 4) {
            var worst = 0
            for c in 0..<3 {
                let d = abs(Int(shot.rgba[i + c]) - Int(drawn[i + c]))
                total += Double(d)
                worst = max(worst, d)
            }
            if worst > 64 { far += 1 }
            count += 1
        }
        return (count == 0 ? 255 : total / Double(3 * count), count == 0 ? 1 : Double(far) / Double(count))
    }

    /// The tolerances: a flat layer moves the same pixels as Segue's renderer, filtered alike; a mesh
    /// is drawn as triangles by both, lit and cut alike, and casts the same shadow from its lifted cells
    /// (measured at most 0.3/255 and 0.01%; without that shadow CurlUp is 0.9/255 and 0.6% far).
    static let flatTolerance = (mean: 1.5, far: 0.005)
    static let meshTolerance = (mean: 0.6, far: 0.002)

    @Test(arguments: ["default", "SpringSlide", "CurlUp", "ImageZoom", "CardFlip", "Iris", "MeshLook"])
    func eachAnimatorDrawsWithGTKsGLRendererAsSeguesRendererDrawsIt(_ animator: String) throws {
        try Self.compare(animator, scale: 1)
    }

    /// At scale 2 (GDK_SCALE, a HiDPI screen), a mesh page with a look
    /// (MeshLook), which the widget draws itself into a picture of the
    /// screen's pixels, draws as at scale 1, within the same tolerances. (The
    /// demo takes its frames in points, so flat layers and perspectives, render
    /// nodes GTK draws at the frame's scale, would measure as at scale 1.
    /// CurlUp is left to scale 1: its page's text, drawn from a picture twice
    /// its size, comes out resampled, which the comparison's page pictures,
    /// taken in points, do not show: 1.2/255 on average.)
    @Test func atScaleTwoAMeshPageDrawsAsSeguesRendererDrawsIt() throws {
        try Self.compare("MeshLook", scale: 2)
    }

    /// Holds `animator` at two fractions of a switch at `scale` and compares each frame with Segue's renderer.
    static func compare(_ animator: String, scale: Int) throws {
        let fractions = [0.3, 0.7]
        let held = try Self.hold(animator, at: fractions, scale: scale)
        #expect(held.lines.contains { $0.first == "finished" && $0.count > 3 && $0[3] == animator }, "\(animator) ran: \(held.lines)")
        for fraction in fractions {
            let sampled = try Self.states(animator, held, at: fraction)
            let canvas = try Self.expected(sampled, held, at: fraction)
            let shot = try Self.picture("\(held.folder)/frame-\(fraction).png")
            #expect(shot.width == Self.width && shot.height == Self.height)
            let (mean, far) = Self.difference(shot, canvas)
            let tolerance = sampled.layers.contains { $0.mesh_columns > 0 } ? Self.meshTolerance : Self.flatTolerance
            if let photos = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] {
                try Data(PNG.encode(canvas)).write(to: URL(fileURLWithPath: "\(photos)/gtk-\(animator)-\(fraction)-\(scale)-segue.png"))
                try FileManager.default.copyItem(atPath: "\(held.folder)/frame-\(fraction).png", toPath: "\(photos)/gtk-\(animator)-\(fraction)-\(scale)-gtk.png")
            }
            print("GTK \(animator) at \(fraction), scale \(scale): mean difference \(String(format: "%.2f", mean))/255, \(String(format: "%.2f", far * 100))% far")
            #expect(mean <= tolerance.mean && far <= tolerance.far,
                    "\(animator) at \(fraction): mean difference \(mean)/255, \(far * 100)% of pixels far apart (\(held.folder))")
        }
    }
}

extension GtkStackTests {
    /// How many pixels are GSK's pink (255, 105, 180): what the cairo renderer draws for a transform it cannot.
    static func pink(_ shot: (width: Int, height: Int, rgba: [UInt8])) -> Int {
        stride(from: 0, to: shot.rgba.count, by: 4).filter {
            abs(Int(shot.rgba[$0]) - 255) < 8 && abs(Int(shot.rgba[$0 + 1]) - 105) < 8 && abs(Int(shot.rgba[$0 + 2]) - 180) < 8
        }.count
    }

    /// GTK's cairo renderer cannot draw 3D: a perspective (CardFlip) is drawn with the affine map of its
    /// corners, a mesh (CurlUp) flat at its frame, as Segue's renderer draws it without the mesh; never pink.
    @Test(arguments: ["CardFlip", "CurlUp", "MeshLook"])
    func theCairoRendererDrawsTheFlatFallbackNotItsPinkBox(_ animator: String) throws {
        let fraction = 0.35
        let held = try Self.hold(animator, at: [fraction], renderer: "cairo")
        let shot = try Self.picture("\(held.folder)/frame-\(fraction).png")
        let rest = try Self.picture("\(held.folder)/rest-list.png")
        #expect(Self.pink(shot) == 0, "\(animator): \(Self.pink(shot)) pink pixels")
        if let photos = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] {
            try? FileManager.default.copyItem(atPath: "\(held.folder)/frame-\(fraction).png", toPath: "\(photos)/gtk-cairo-\(animator).png")
        }
        let sampled = try Self.states(animator, held, at: fraction)
        if sampled.layers.contains(where: { $0.mesh_columns > 0 }) {
            let (mean, far) = Self.difference(shot, try Self.expected(sampled, held, at: fraction, flat: true))
            print("GTK cairo \(animator) at \(fraction), drawn flat: mean difference \(String(format: "%.2f", mean))/255, \(String(format: "%.2f", far * 100))% far")
            #expect(mean <= Self.flatTolerance.mean && far <= Self.flatTolerance.far, "\(animator) flat: \(mean)/255, \(far * 100)% far")
        } else {
            // Moved: the list page is not where it rests.
            let moved = stride(from: 0, to: min(shot.rgba.count, rest.rgba.count), by: 4).filter { shot.rgba[$0] != rest.rgba[$0] }.count
            #expect(moved > shot.rgba.count / 4 / 10, "\(animator) moved the page: \(moved) pixels differ from the page at rest")
        }
    }
}

/// The anchor (ABI 1.4's segue_anchor_t): where a switch comes from. Iris grows its circle from the
/// anchor's point, else from the centre of its rectangle, else from the page's centre.
extension GtkStackTests {
    /// How the GL frame held at `fraction` differs from Segue's renderer drawing the same switch told
    /// `anchor`, and told none.
    static func anchored(_ animator: String, _ held: Held, at fraction: Double, anchor: segue_anchor_t, photo: String) throws
        -> (told: (mean: Double, far: Double), untold: (mean: Double, far: Double)) {
        let shot = try picture("\(held.folder)/frame-\(fraction).png")
        let told = try expected(try states(animator, held, at: fraction, anchor: anchor), held, at: fraction)
        let untold = try expected(try states(animator, held, at: fraction), held, at: fraction)
        if let photos = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"] {
            try Data(PNG.encode(told)).write(to: URL(fileURLWithPath: "\(photos)/gtk-\(photo)-segue.png"))
            try? FileManager.default.copyItem(atPath: "\(held.folder)/frame-\(fraction).png", toPath: "\(photos)/gtk-\(photo)-gtk.png")
        }
        let differences = (told: difference(shot, told), untold: difference(shot, untold))
        print("GTK \(animator) from \(photo): mean difference \(String(format: "%.2f", differences.told.mean))/255, "
              + "\(String(format: "%.2f", differences.told.far * 100))% far; from the centre: \(String(format: "%.2f", differences.untold.far * 100))% far")
        return differences
    }

    /// segue_gtk_stack_begin_interactive_from (as _set_visible_child_from) hands the animator the origin
    /// widget's bounds in the stack as the anchor's rectangle: Iris's circle grows from the list's
    /// thumbnail, as Segue's renderer draws it told that rectangle, not from the page's centre.
    @Test func aSwitchFromAnOriginWidgetOpensFromItsRectangle() throws {
        let fraction = 0.3
        let held = try Self.hold("Iris", at: [fraction], more: ["--origin", "photo"])
        let thumbnail = try #require(held.elements.first { $0.side == 0 && $0.name == "photo" }, "the list's thumbnail: \(held.lines)")
        let origin = try #require(held.numbers("origin"), "the demo told the origin: \(held.lines)")
        #expect(origin == [thumbnail.frame.x, thumbnail.frame.y, thumbnail.frame.width, thumbnail.frame.height])
        var anchor = segue_anchor_t()
        (anchor.has_rect, anchor.rect) = (true, thumbnail.frame)
        let (told, untold) = try Self.anchored("Iris", held, at: fraction, anchor: anchor, photo: "iris-from-origin")
        #expect(told.mean <= Self.flatTolerance.mean && told.far <= Self.flatTolerance.far,
                "Iris from the thumbnail: \(told.mean)/255, \(told.far * 100)% far (\(held.folder))")
        #expect(untold.far > 0.05, "drawn from the page's centre it differs: \(untold.far * 100)% far")
    }

    /// The pointer's last position over the stack is the anchor's point: moved there before a switch,
    /// Iris's circle grows from it.
    @Test func thePointerOverTheStackIsTheAnchorsPoint() throws {
        let fraction = 0.3
        let build = try GtkBuild.built.get()
        let folder = makeTemporaryFolder("gtk-frames")
        let display = try VirtualDisplay()
        let tag = "gtk-\(UUID().uuidString)"
        let demo = try LiveProcess(build + "/segue-gtk-demo", ["--frames", folder, "--animator", "Iris", "--fractions", String(fraction),
                                                               "--wait-pointer"],
                                   in: build, environment: try GtkBuild.environment(display: display.name, tag: tag))
        #expect(demo.waitForOutput("waiting-pointer").contains("waiting-pointer"), "the demo waits: \(demo.standardError)")
        let window = try #require(try display.window(named: "Segue GTK demo"), "no window: \(demo.standardError)")
        // The pointer starts at the middle of the 1200 x 1000 screen, right of the window: this is a move over the stack.
        try display.tool("xdotool", ["mousemove", "--window", window, "300", "600"])
        let out = demo.waitForOutput("\ndone\n", timeout: 120)
        let deadline = Date().addingTimeInterval(10)
        while demo.process.isRunning && Date() < deadline { usleep(10_000) }
        if demo.process.isRunning { _ = demo.stop(with: SIGKILL) }
        let held = Held(folder: folder, lines: out.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) })
        try #require(held.lines.last == ["done"], "the demo held the switch: \(out)\n\(demo.standardError)")
        #expect(held.numbers("pointer") == [300, 600], "the pointer over the stack: \(held.lines)")
        var anchor = segue_anchor_t()
        (anchor.has_point, anchor.point_x, anchor.point_y) = (true, 300, 600)
        let (told, untold) = try Self.anchored("Iris", held, at: fraction, anchor: anchor, photo: "iris-from-pointer")
        #expect(told.mean <= Self.flatTolerance.mean && told.far <= Self.flatTolerance.far,
                "Iris from the pointer: \(told.mean)/255, \(told.far * 100)% far (\(folder))")
        #expect(untold.far > 0.05, "drawn from the page's centre it differs: \(untold.far * 100)% far")
        #expect(processesTagged(tag).isEmpty, "no worker left")
    }
}
