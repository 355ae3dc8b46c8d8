import Foundation
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI
@testable import HostContainer
import Renderer

/// What KWin's pictures are compared with: the layer states libsegue gives a
/// window's transition as the effect describes it (its kind, and what KWin
/// told the animator: the pointer, a minimize's task-bar entry), and what
/// Segue's renderer draws of them, ABI 1.4's look (clip, corners, shadow)
/// included, over a photograph of the desktop beneath.
enum KWinPictures {
    /// The states of the transition of a window of `name` at `frame` at `fraction` of its duration, played by
    /// `animator` (or what plays instead: see `animator` in the result) from the bundled plugins and those in
    /// `folders`, as KWin's player finds them, told `pointer` and `icon` as the effect tells them.
    static func states(_ animator: String, kind: segue_transition_kind_t, name: String, plugins folders: [String], at fraction: Double,
                       frame: segue_rect_t, pointer: (x: Double, y: Double)? = nil, icon: segue_rect_t? = nil) throws -> SampledLayers {
        let folder = makeTemporaryFolder("kwin-player")
        for file in ["SpringSlide", "CurlUp", "ImageZoom", "Pop"].map(Paths.plugin) + folders.flatMap({ p in ((try? FileManager.default.contentsOfDirectory(atPath: p)) ?? []).map { p + "/" + $0 } })
            where file.hasSuffix(".so") {
            try FileManager.default.copyItem(atPath: file, toPath: folder + "/" + (file as NSString).lastPathComponent)
        }
        let player = try LibseguePromiseTests.player(folder)
        defer { seguePlayerFree(player) }
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = segue_rect_t(x: 0, y: 0, width: 1024, height: 768)
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
                return segueTransitionBegin(player, &desc, &made)
            }
        }
        let transition = try #require(made, "\(String(cString: segueErrorMessage()!))")
        defer { segueTransitionFree(transition) }
        return try SampledLayers(transition, at: fraction)
    }

    /// What Segue's renderer draws of the window's layers (`window` their picture at rest; a mesh's too) with
    /// their look, over `beneath` (a photograph of the whole output; nil: KWin's black desktop).
    static func expected(_ sampled: SampledLayers, window picture: String, over beneath: String? = nil) -> Canvas {
        let root = View(frame: Rect(x: 0, y: 0, width: 1024, height: 768))
        if let beneath { root.content = .picture(path: beneath, fit: .fill) } else { root.backgroundColor = Color(red: 0, green: 0, blue: 0) }
        for (i, layer) in sampled.layers.enumerated() where layer.kind == SEGUE_LAYER_TO_VIEW.rawValue || layer.kind == SEGUE_LAYER_FROM_VIEW.rawValue {
            let s = sampled.states[i]
            let view = View(frame: Rect(x: s.frame.x, y: s.frame.y, width: s.frame.width, height: s.frame.height))
            view.transform = Transform3D(m: s.transform.m)
            view.alpha = min(max(s.alpha, 0), 1)
            view.isHidden = s.hidden
            view.content = .picture(path: picture, fit: .fill)
            // ABI 1.4's look, as a host draws it (clamped by LayerState).
            var look = LayerState(frame: view.frame, zPosition: 0)
            look.raw = s
            (view.clip, view.shadow, view.cornerRadius) = (look.clip, look.shadow, look.cornerRadius)
            if layer.mesh_columns > 0 {
                let mesh = Mesh(columns: Int(layer.mesh_columns), rows: Int(layer.mesh_rows), covering: view.frame)
                for (k, v) in sampled.meshes[i].enumerated() { mesh.vertices[k] = Vec3(x: v.x, y: v.y, z: v.z) }
                view.mesh = mesh
            }
            root.addSubview(view)
        }
        return ViewRenderer(scale: 1, background: Color(red: 0, green: 0, blue: 0)).render(root)
    }

    /// How KWin's picture differs from Segue's within `area` (pixels): the mean difference of the colours (0 to
    /// 255), and the share of its pixels more than 48 apart in some channel.
    static func difference(_ shot: DecodedPNG, _ canvas: Canvas, within area: (x0: Int, y0: Int, x1: Int, y1: Int)) -> (mean: Double, far: Double) {
        let drawn = canvas.rgba8
        var total = 0.0, far = 0, count = 0
        for y in max(area.y0, 0)..<min(area.y1, shot.height) {
            for x in max(area.x0, 0)..<min(area.x1, shot.width) {
                let i = (y * shot.width + x) * 4
                let apart = (0..<3).map { abs(Int(shot.rgba[i + $0]) - Int(drawn[i + $0])) }
                total += Double(apart.reduce(0, +)) / 3
                far += apart.contains { $0 > 48 } ? 1 : 0
                count += 1
            }
        }
        return (count == 0 ? 255 : total / Double(count), count == 0 ? 1 : Double(far) / Double(count))
    }

    /// The part of a photograph under `frame`, as a PNG of its own.
    static func crop(_ shot: DecodedPNG, _ frame: (x: Int, y: Int, width: Int, height: Int), to file: String) throws {
        var rgba = [UInt8]()
        for y in frame.y..<(frame.y + frame.height) {
            let start = (y * shot.width + frame.x) * 4
            rgba += shot.rgba[start..<(start + frame.width * 4)]
        }
        try Data(pngBytes(width: frame.width, height: frame.height, rgba: rgba)).write(to: URL(fileURLWithPath: file))
    }
}
