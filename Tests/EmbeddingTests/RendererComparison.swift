import Foundation
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI
import HostContainer
import Renderer

/// What Segue's own renderer draws of a compositor's window, for the
/// compositors' tests (KWinEffectTests, KWinLookTests, GnomeShellLookTests) to
/// hold their photographs against: the layer states libsegue gives a window's
/// transition at a fraction of its duration, drawn with their look (ABI 1.4's
/// corners, clip and shadow) and meshes, the window at rest as the layers'
/// picture, over a photograph of the desktop beneath (or a compositor's black
/// desktop); and how a photograph differs from that drawing.
enum RendererComparison {
    /// The window at rest: the part of a photograph under `frame` (clipped to it), written as a PNG of its own to `file`.
    static func crop(_ shot: DecodedPNG, _ frame: (x: Int, y: Int, width: Int, height: Int), to file: String) throws {
        let x0 = max(0, frame.x), x1 = min(shot.width, frame.x + frame.width), y0 = max(0, frame.y), y1 = min(shot.height, frame.y + frame.height)
        try Data(pngBytes(width: max(x1 - x0, 0), height: max(y1 - y0, 0), rgba: pixels(shot, frame)))
            .write(to: URL(fileURLWithPath: file))
    }

    /// The pixels (RGBA rows) of `area` of `picture`, clipped to it.
    static func pixels(_ picture: DecodedPNG, _ area: (x: Int, y: Int, width: Int, height: Int)) -> [UInt8] {
        var pixels = [UInt8]()
        let x0 = max(0, area.x), x1 = min(picture.width, area.x + area.width)
        for y in max(0, area.y)..<min(picture.height, area.y + area.height) where x1 > x0 {
            pixels += picture.rgba[((y * picture.width + x0) * 4)..<((y * picture.width + x1) * 4)]
        }
        return pixels
    }

    /// The layer states libsegue gives a window of `name` at `frame` appearing or disappearing (`kind`) on a
    /// screen of `screen`'s size (the transition's bounds) at `fraction` of the transition, played by `animator`
    /// (or what plays instead: see `animator` in the result) in a player of the bundled animators and the
    /// plugins in `folders`, as a compositor's player finds them; told `pointer` and `icon` (the anchor's point
    /// and rectangle: a minimize's task-bar entry) as the compositor tells them.
    static func states(_ animator: String, _ kind: segue_transition_kind_t, name: String, frame: segue_rect_t,
                       screen: (width: Int, height: Int), plugins folders: [String], at fraction: Double,
                       pointer: (x: Double, y: Double)? = nil, icon: segue_rect_t? = nil) throws -> SampledLayers {
        let folder = makeTemporaryFolder("renderer-player")
        for file in ["SpringSlide", "CurlUp", "ImageZoom", "Pop"].map(Paths.plugin)
            + folders.flatMap({ p in ((try? FileManager.default.contentsOfDirectory(atPath: p)) ?? []).map { p + "/" + $0 } })
            where file.hasSuffix(".so") {
            try FileManager.default.copyItem(atPath: file, toPath: folder + "/" + (file as NSString).lastPathComponent)
        }
        let player = try LibseguePromiseTests.player(folder)
        defer { seguePlayerFree(player) }
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = segue_rect_t(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height))
        desc.kind = kind.rawValue
        let appears = kind == SEGUE_TRANSITION_APPEAR
        desc.going_right = appears
        if let pointer { (desc.anchor.has_point, desc.anchor.point_x, desc.anchor.point_y) = (true, pointer.x, pointer.y) }
        if let icon { (desc.anchor.has_rect, desc.anchor.rect) = (true, icon) }
        var made: OpaquePointer?
        _ = name.withCString { name in
            animator.withCString { chosen in
                let window = segue_view_t(name: name, frame: frame, elements: nil, element_count: 0)
                let beneath = segue_view_t(name: nil, frame: segue_rect_t(), elements: nil, element_count: 0)
                (desc.from, desc.to) = appears ? (beneath, window) : (window, beneath)
                desc.animator = chosen
                return LibseguePromiseTests.beginInTime(player, &desc, &made)
            }
        }
        let transition = try #require(made, "\(String(cString: segueErrorMessage()!))")
        defer { segueTransitionFree(transition) }
        return try SampledLayers(transition, at: fraction)
    }

    /// What Segue's renderer draws, on a screen of `screen`'s size, of the window's layers of `sampled` (the to
    /// view's for an appearance, the from view's for a disappearance: `kind`), each showing the picture `window`
    /// (the window at rest) with its look, clamped as a host clamps it (corner radius, clip, and its shadow
    /// unless `shadows` is false) and its mesh, over the picture `desktop` (the screen without the window;
    /// nil: a black desktop, as KWin's).
    static func expected(_ sampled: SampledLayers, _ kind: segue_transition_kind_t, window: String, over desktop: String?,
                         screen: (width: Int, height: Int), shadows: Bool = true) -> Canvas {
        let root = View(frame: Rect(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height)))
        if let desktop { root.content = .picture(path: desktop, fit: .fill) } else { root.backgroundColor = Color(red: 0, green: 0, blue: 0) }
        let shown = kind == SEGUE_TRANSITION_APPEAR ? SEGUE_LAYER_TO_VIEW : SEGUE_LAYER_FROM_VIEW
        for (i, layer) in sampled.layers.enumerated() where layer.kind == shown.rawValue {
            let s = sampled.states[i]
            let view = View(frame: Rect(x: s.frame.x, y: s.frame.y, width: s.frame.width, height: s.frame.height))
            view.transform = Transform3D(m: s.transform.m)
            view.alpha = min(max(s.alpha, 0), 1)
            view.isHidden = s.hidden
            view.content = .picture(path: window, fit: .fill)
            var look = LayerState(frame: view.frame, zPosition: 0)
            look.raw = s
            view.cornerRadius = look.cornerRadius
            view.clip = look.clip
            view.shadow = shadows ? look.shadow : nil
            if layer.mesh_columns > 0 {
                let mesh = Mesh(columns: Int(layer.mesh_columns), rows: Int(layer.mesh_rows), covering: view.frame)
                for (k, v) in sampled.meshes[i].enumerated() { mesh.vertices[k] = Vec3(x: v.x, y: v.y, z: v.z) }
                view.mesh = mesh
            }
            root.addSubview(view)
        }
        return ViewRenderer(scale: 1, background: Color(red: 0, green: 0, blue: 0)).render(root)
    }

    /// Keeps a comparison's pictures to look at, as `name`-expected.png (Segue's drawing) and `name`-`host`.png
    /// (the photograph): in SEGUE_TEST_PHOTOS when it names a folder, else in `fallback` when they `differ`.
    static func keep(_ shot: DecodedPNG, _ drawn: Canvas, named name: String, host: String, differ: Bool, fallback: String) throws {
        let chosen = ProcessInfo.processInfo.environment["SEGUE_TEST_PHOTOS"]
        guard let folder = chosen ?? (differ ? fallback : nil) else { return }
        try Data(pngBytes(width: drawn.width, height: drawn.height, rgba: drawn.rgba8)).write(to: URL(fileURLWithPath: folder + "/\(name)-expected.png"))
        try Data(pngBytes(width: shot.width, height: shot.height, rgba: shot.rgba)).write(to: URL(fileURLWithPath: folder + "/\(name)-\(host).png"))
    }

    /// How a compositor's photograph (`shot`) differs from Segue's drawing (`canvas`) where either shows the
    /// window, both over `desktop` (nil: black), from row `top` down. A pixel shows the window where it differs
    /// from the desktop by more than 24 (of 255) in a channel and is not the desktop darkened (to 45% at most:
    /// a shadow, the window's own in a compositor or a curl's in the renderer, is not the window; over black
    /// nothing is a shadow). The pixels both show it in; of those the photograph shows it in, the share the
    /// drawing does not; of those either shows it in, the share only one does; and the mean colour difference,
    /// 0 to 255, where both do: where the window is and how it is coloured, shadows left out (the look's
    /// shadow is held by `difference(_:_:within:)`).
    static func difference(_ shot: DecodedPNG, _ canvas: Canvas, over desktop: DecodedPNG? = nil, top: Int = 0)
        -> (both: Int, shotOnly: Double, oneOnly: Double, colour: Double) {
        let drawn = canvas.rgba8
        let end = min(shot.rgba.count, drawn.count, desktop?.rgba.count ?? .max)
        var total = 0.0, both = 0, onlyShot = 0, onlyDrawn = 0
        // Through buffers: a screen has millions of pixels, and the tests are built without optimization.
        shot.rgba.withUnsafeBufferPointer { a in drawn.withUnsafeBufferPointer { b in (desktop?.rgba ?? []).withUnsafeBufferPointer { d in
            for i in stride(from: top * shot.width * 4, to: end, by: 4) {
                let p = (Int(a[i]), Int(a[i + 1]), Int(a[i + 2])), q = (Int(b[i]), Int(b[i + 1]), Int(b[i + 2]))
                let under = desktop == nil ? (0, 0, 0) : (Int(d[i]), Int(d[i + 1]), Int(d[i + 2]))
                let inA = shows(p, under), inB = shows(q, under)
                if inA && inB {
                    total += (abs(Double(p.0) - Double(q.0)) + abs(Double(p.1) - Double(q.1)) + abs(Double(p.2) - Double(q.2))) / 3
                    both += 1
                } else if inA {
                    onlyShot += 1
                } else if inB {
                    onlyDrawn += 1
                }
            }
        } } }
        let shown = both + onlyShot, either = both + onlyShot + onlyDrawn
        return (both, shown == 0 ? 1 : Double(onlyShot) / Double(shown), either == 0 ? 1 : Double(onlyShot + onlyDrawn) / Double(either),
                both == 0 ? 255 : total / Double(both))
    }

    /// Whether `p` shows a window over the desktop's `d` (RGB): far from it, and not it darkened to 45% or more
    /// (a shadow over it).
    private static func shows(_ p: (Int, Int, Int), _ d: (Int, Int, Int)) -> Bool {
        guard abs(p.0 - d.0) > 24 || abs(p.1 - d.1) > 24 || abs(p.2 - d.2) > 24 else { return false }
        // The desktop darkened by k (a shadow over it)?
        let (p0, p1, p2, d0, d1, d2) = (Double(p.0), Double(p.1), Double(p.2), Double(d.0), Double(d.1), Double(d.2))
        let dd = d0 * d0 + d1 * d1 + d2 * d2
        let k = dd == 0 ? 0 : (p0 * d0 + p1 * d1 + p2 * d2) / dd
        return !(k >= 0.45 && k <= 1 && abs(p0 - k * d0) <= 6 && abs(p1 - k * d1) <= 6 && abs(p2 - k * d2) <= 6)
    }

    /// How a compositor's photograph (`shot`) differs from Segue's drawing (`canvas`) at every pixel of `area`
    /// (clipped to the photograph), the desktop and the shadows included: the mean colour difference (0 to 255),
    /// the share of the pixels more than 48 apart in some channel, and the box about those (nil when none). It
    /// holds the look (a rounded corner, a clip, a shadow cast over the desktop), which the window's pixels of
    /// `difference(_:_:over:top:)` leave out as not the window; a mean over an area, the desktop mostly, says too
    /// little of where the window is for that one's tolerances.
    static func difference(_ shot: DecodedPNG, _ canvas: Canvas, within area: (x0: Int, y0: Int, x1: Int, y1: Int))
        -> (mean: Double, far: Double, farWithin: (x0: Int, y0: Int, x1: Int, y1: Int)?) {
        let drawn = canvas.rgba8
        var total = 0.0, far = 0, count = 0
        var box = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        for y in max(area.y0, 0)..<min(area.y1, shot.height) {
            for x in max(area.x0, 0)..<min(area.x1, shot.width) {
                let i = (y * shot.width + x) * 4
                let apart = (0..<3).map { abs(Int(shot.rgba[i + $0]) - Int(drawn[i + $0])) }
                total += Double(apart.reduce(0, +)) / 3
                if apart.contains(where: { $0 > 48 }) {
                    far += 1
                    box = (min(box.x0, x), min(box.y0, y), max(box.x1, x), max(box.y1, y))
                }
                count += 1
            }
        }
        return (count == 0 ? 255 : total / Double(count), count == 0 ? 1 : Double(far) / Double(count), far == 0 ? nil : box)
    }
}
