import Foundation
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI
import HostContainer
import Renderer

/// What Segue's own renderer draws of a window's opening, for the
/// compositors' tests to hold their photographs against: the layer states
/// libsegue gives at a fraction of the transition, drawn over a picture of the
/// desktop with the window at rest as the layer's content, and how a
/// photograph differs from that drawing.
/// (KWinEffectTests keeps copies of `states`, `expected` and `difference` of
/// its own, made before these, over KWin's black desktop.)
enum RendererComparison {
    /// The layer states libsegue gives `name`'s window opening in `frame`
    /// (bounds: the screen) at `fraction` of the transition, with `animator`,
    /// in a player of the bundled animators and those in `plugins`.
    static func states(_ animator: String, name: String, plugins: [String], at fraction: Double, frame: segue_rect_t,
                       bounds: segue_rect_t) throws -> SampledLayers {
        let folder = makeTemporaryFolder("renderer-player")
        for file in ["SpringSlide", "CurlUp", "ImageZoom", "Pop"].map(Paths.plugin)
            + plugins.flatMap({ p in ((try? FileManager.default.contentsOfDirectory(atPath: p)) ?? []).map { p + "/" + $0 } })
            where file.hasSuffix(".so") {
            try FileManager.default.copyItem(atPath: file, toPath: folder + "/" + (file as NSString).lastPathComponent)
        }
        let player = try LibseguePromiseTests.player(folder)
        defer { seguePlayerFree(player) }
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = bounds
        desc.kind = SEGUE_TRANSITION_APPEAR.rawValue
        desc.going_right = true
        var made: OpaquePointer?
        _ = name.withCString { name in
            animator.withCString { chosen in
                desc.to = segue_view_t(name: name, frame: frame, elements: nil, element_count: 0)
                desc.from = segue_view_t(name: nil, frame: segue_rect_t(), elements: nil, element_count: 0)
                desc.animator = chosen
                return segueTransitionBegin(player, &desc, &made)
            }
        }
        let transition = try #require(made, "\(String(cString: segueErrorMessage()!))")
        defer { segueTransitionFree(transition) }
        return try SampledLayers(transition, at: fraction)
    }

    /// What Segue's renderer draws of the window's layer (the to view, the
    /// picture `window` as its content) with its look (corner radius, clip;
    /// its shadow only when `shadows`) over the picture `desktop` (the screen without the window).
    static func expected(_ sampled: SampledLayers, window: String, desktop: String, size: (width: Int, height: Int), shadows: Bool) -> Canvas {
        let root = View(frame: Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)))
        root.content = .picture(path: desktop, fit: .fill)
        for (i, layer) in sampled.layers.enumerated() where layer.kind == SEGUE_LAYER_TO_VIEW.rawValue {
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

    /// How a compositor's photograph (`shot`) differs from Segue's drawing
    /// (`canvas`), both over the same `desktop`, from row `top` down: a pixel
    /// shows the window where it differs from the desktop by more than 24 (of
    /// 255) in a channel and is not the desktop darkened (to 45% at
    /// most: a shadow, the window's own in a compositor or a curl's in the
    /// renderer, is not the window). The pixels both show it; the share of
    /// those either shows it in that only one does; and the mean colour
    /// difference, 0 to 255, where both do.
    static func difference(_ shot: DecodedPNG, _ canvas: Canvas, desktop: DecodedPNG, top: Int)
        -> (both: Int, oneOnly: Double, colour: Double) {
        let drawn = canvas.rgba8
        var total = 0.0, both = 0, one = 0
        for i in stride(from: top * shot.width * 4, to: min(shot.rgba.count, drawn.count, desktop.rgba.count), by: 4) {
            let a = shot.rgba[i..<(i + 3)], b = drawn[i..<(i + 3)], d = desktop.rgba[i..<(i + 3)]
            let inA = shows(a, d), inB = shows(b, d)
            if inA && inB {
                total += zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / 3
                both += 1
            } else if inA || inB {
                one += 1
            }
        }
        let either = both + one
        return (both, either == 0 ? 1 : Double(one) / Double(either), both == 0 ? 255 : total / Double(both))
    }

    /// Whether `p` shows a window over the desktop's `d`: far from it, and not it darkened to 45% or more (a shadow over it).
    private static func shows(_ p: ArraySlice<UInt8>, _ d: ArraySlice<UInt8>) -> Bool {
        guard zip(p, d).contains(where: { abs(Int($0) - Int($1)) > 24 }) else { return false }
        // The desktop darkened by k (a shadow over it)?
        let dd = d.reduce(0.0) { $0 + Double($1) * Double($1) }
        let k = dd == 0 ? 0 : zip(p, d).reduce(0.0) { $0 + Double($1.0) * Double($1.1) } / dd
        return !(k >= 0.45 && k <= 1 && zip(p, d).allSatisfy { abs(Double($0) - k * Double($1)) <= 6 })
    }
}
