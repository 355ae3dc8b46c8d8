import Foundation
import HostContainer
import Renderer

/// The same frames drawn with cairo, the 2D library a GTK app draws with on
/// its software path, loaded at run time (`libcairo.so.2`): every view as
/// `segue` draws it, in the same order, into an ARGB32 image of the same size.
/// A view's fill is a rounded rectangle in its colour at its opacity (per
/// fill, as Segue's renderer composites: no group), a picture the bitmap
/// Segue's renderer samples for it (made once) stretched over the view bilinear, a label cairo's own text in
/// DejaVu Sans (its glyphs rasterised once and cached by cairo), at the size
/// Segue sets it and centred the same way. Meshes are left out: cairo has none.
final class CairoScene {
    private typealias Create = @convention(c) (Int32, Int32, Int32) -> OpaquePointer?
    private typealias Context = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias Call = @convention(c) (OpaquePointer?) -> Void
    private typealias RGBA = @convention(c) (OpaquePointer?, Double, Double, Double, Double) -> Void
    private typealias Four = @convention(c) (OpaquePointer?, Double, Double, Double, Double) -> Void
    private typealias Five = @convention(c) (OpaquePointer?, Double, Double, Double, Double, Double) -> Void
    private typealias Two = @convention(c) (OpaquePointer?, Double, Double) -> Void
    private typealias One = @convention(c) (OpaquePointer?, Double) -> Void
    private typealias Matrix = @convention(c) (OpaquePointer?, UnsafePointer<Double>) -> Void
    private typealias ForData = @convention(c) (UnsafeMutablePointer<UInt8>?, Int32, Int32, Int32, Int32) -> OpaquePointer?
    private typealias SourceSurface = @convention(c) (OpaquePointer?, OpaquePointer?, Double, Double) -> Void
    private typealias Filter = @convention(c) (OpaquePointer?, Int32) -> Void
    private typealias Face = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32, Int32) -> Void
    private typealias Text = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> Void
    private typealias Extents = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafeMutablePointer<Double>) -> Void
    private typealias FontExtents = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Double>) -> Void
    private typealias Version = @convention(c) () -> UnsafePointer<CChar>?
    private typealias Status = @convention(c) (OpaquePointer?) -> Int32
    private typealias Data = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<UInt8>?

    private let imageCreate: Create, create: Context, destroy: Call, surfaceDestroy: Call, flush: Call
    private let setSource: RGBA, paint: Call, paintWithAlpha: One, save: Call, restore: Call, transform: Matrix
    private let newPath: Call, rectangle: Four, arc: Five, closePath: Call, fill: Call, clip: Call
    private let forData: ForData, setSourceSurface: SourceSurface, getSource: Context, setFilter: Filter
    private let selectFont: Face, setFontSize: One, textExtents: Extents, fontExtents: FontExtents, moveTo: Two, showText: Text
    private let scaleBy: Two, status: Status, data: Data
    /// cairo's own version string, as it reports it.
    let version: String

    let width: Int, height: Int, scale: Double
    private let surface: OpaquePointer?, cr: OpaquePointer?
    /// Bitmaps of pictures (procedural ones, drawn by Segue once at the size cairo paints them), by content and size.
    private var bitmaps: [String: (surface: OpaquePointer?, bytes: UnsafeMutablePointer<UInt8>)] = [:]

    /// cairo loaded, with a `width` × `height` ARGB32 image to draw into at `scale`
    /// pixels a point; nil (and why) when the library is not there.
    init(width: Int, height: Int, scale: Double) throws {
        guard let handle = dlopen("libcairo.so.2", RTLD_NOW) else {
            throw CairoMissing(reason: "libcairo.so.2 not found (Debian: libcairo2)")
        }
        func symbol<T>(_ name: String, _: T.Type) throws -> T {
            guard let pointer = dlsym(handle, name) else { throw CairoMissing(reason: "libcairo.so.2 has no \(name)") }
            return unsafeBitCast(pointer, to: T.self)
        }
        imageCreate = try symbol("cairo_image_surface_create", Create.self)
        create = try symbol("cairo_create", Context.self)
        destroy = try symbol("cairo_destroy", Call.self)
        surfaceDestroy = try symbol("cairo_surface_destroy", Call.self)
        flush = try symbol("cairo_surface_flush", Call.self)
        setSource = try symbol("cairo_set_source_rgba", RGBA.self)
        paint = try symbol("cairo_paint", Call.self)
        paintWithAlpha = try symbol("cairo_paint_with_alpha", One.self)
        save = try symbol("cairo_save", Call.self)
        restore = try symbol("cairo_restore", Call.self)
        transform = try symbol("cairo_transform", Matrix.self)
        newPath = try symbol("cairo_new_path", Call.self)
        rectangle = try symbol("cairo_rectangle", Four.self)
        arc = try symbol("cairo_arc", Five.self)
        closePath = try symbol("cairo_close_path", Call.self)
        fill = try symbol("cairo_fill", Call.self)
        clip = try symbol("cairo_clip", Call.self)
        forData = try symbol("cairo_image_surface_create_for_data", ForData.self)
        setSourceSurface = try symbol("cairo_set_source_surface", SourceSurface.self)
        getSource = try symbol("cairo_get_source", Context.self)
        setFilter = try symbol("cairo_pattern_set_filter", Filter.self)
        selectFont = try symbol("cairo_select_font_face", Face.self)
        setFontSize = try symbol("cairo_set_font_size", One.self)
        textExtents = try symbol("cairo_text_extents", Extents.self)
        fontExtents = try symbol("cairo_font_extents", FontExtents.self)
        moveTo = try symbol("cairo_move_to", Two.self)
        showText = try symbol("cairo_show_text", Text.self)
        scaleBy = try symbol("cairo_scale", Two.self)
        status = try symbol("cairo_status", Status.self)
        data = try symbol("cairo_image_surface_get_data", Data.self)
        version = try symbol("cairo_version_string", Version.self)().map { String(cString: $0) } ?? "?"
        (self.width, self.height, self.scale) = (width, height, scale)
        surface = imageCreate(0, Int32(width), Int32(height))  // CAIRO_FORMAT_ARGB32
        cr = create(surface)
    }

    deinit {
        destroy(cr)
        surfaceDestroy(surface)
        for (_, bitmap) in bitmaps {
            surfaceDestroy(bitmap.surface)
            bitmap.bytes.deallocate()
        }
    }

    /// Draws `root` (its bounds) whole over `background`, and waits for cairo to finish.
    func draw(_ root: View, background: Color) {
        setSource(cr, background.red, background.green, background.blue, background.alpha)
        paint(cr)
        let (w, h) = (root.bounds.width, root.bounds.height)
        let placed = Transform3D.translation(-w / 2, -h / 2).concatenating(root.transform)
            .concatenating(.translation(w / 2, h / 2))
            .concatenating(Transform3D([scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))
        add(root, matrix: placed, alpha: 1)
        flush(surface)
    }

    /// The image as drawn, straight RGBA bytes (as Segue's ``Canvas/rgba8``);
    /// nil when cairo is in an error state (it would have drawn nothing).
    func rgba8() -> [UInt8]? {
        guard status(cr) == 0, let bytes = data(surface) else { return nil }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for k in 0..<(width * height) {
            let (b, g, r, a) = (Int(bytes[k * 4]), Int(bytes[k * 4 + 1]), Int(bytes[k * 4 + 2]), Int(bytes[k * 4 + 3]))
            func straight(_ c: Int) -> UInt8 { a == 0 ? 0 : UInt8(min((c * 255 + a / 2) / a, 255)) }
            (out[k * 4], out[k * 4 + 1], out[k * 4 + 2], out[k * 4 + 3]) = (straight(r), straight(g), straight(b), UInt8(a))
        }
        return out
    }

    /// Makes every picture bitmap `root`'s tree needs at its drawn size, outside the timed draws.
    func prepare(_ root: View) {
        var stack = [root]
        while let view = stack.popLast() {
            if case .image = view.content { _ = bitmap(for: view) }
            stack += view.subviews
        }
    }

    private func add(_ view: View, matrix: Transform3D, alpha: Double) {
        let opacity = alpha * view.alpha
        guard !view.isHidden, opacity > 0, view.mesh == nil else { return }
        drawQuad(view, matrix: matrix, alpha: opacity)
        let ordered = view.subviews.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
        for (_, sub) in ordered {
            let f = sub.frame
            let local = Transform3D.translation(-f.width / 2, -f.height / 2).concatenating(sub.transform)
                .concatenating(.translation(f.x + f.width / 2, f.y + f.height / 2)).concatenating(matrix)
            add(sub, matrix: local, alpha: opacity)
        }
    }

    private func drawQuad(_ view: View, matrix: Transform3D, alpha: Double) {
        let (w, h) = (view.bounds.width, view.bounds.height)
        guard w > 0, h > 0, view.backgroundColor.alpha > 0 || view.content != .none else { return }
        let m = matrix.values
        // The affine part (x' = u m11 + v m21 + m41, y' = u m12 + v m22 + m42): what cairo can draw.
        let affine = [m[0] / m[15], m[1] / m[15], m[4] / m[15], m[5] / m[15], m[12] / m[15], m[13] / m[15]]
        save(cr)
        transform(cr, affine)
        path(w, h, radius: min(view.cornerRadius, w / 2, h / 2))
        let background = view.backgroundColor
        switch view.content {
        case .image:
            clip(cr)
            if background.alpha > 0 {
                setSource(cr, background.red, background.green, background.blue, background.alpha * alpha)
                paint(cr)
            }
            if let bitmap = bitmap(for: view) {
                // The painting stretched over the view, as Segue's renderer samples it.
                scaleBy(cr, w / Double(bitmap.width), h / Double(bitmap.height))
                setSourceSurface(cr, bitmap.surface, 0, 0)
                setFilter(getSource(cr), 4)  // CAIRO_FILTER_BILINEAR
                paintWithAlpha(cr, alpha)
            }
        case .label(let text):
            if background.alpha > 0 {
                setSource(cr, background.red, background.green, background.blue, background.alpha * alpha)
                fill(cr)
            } else {
                newPath(cr)
            }
            let ink = Content.textColor(on: background)
            selectFont(cr, "DejaVu Sans", 0, 0)
            // Segue's setting: half the height an em unless told, shrunk to fit 4 points inside each side; centred.
            var em = view.fontSize ?? h * 0.5
            setFontSize(cr, em)
            var extents = [Double](repeating: 0, count: 6)
            textExtents(cr, text, &extents)
            if extents[4] > w - 8, w > 8 {
                em *= (w - 8) / extents[4]
                setFontSize(cr, em)
                textExtents(cr, text, &extents)
            }
            var font = [Double](repeating: 0, count: 5)
            fontExtents(cr, &font)
            moveTo(cr, (w - extents[4]) / 2, h / 2 + (font[0] - font[1]) / 2)
            setSource(cr, ink.red, ink.green, ink.blue, ink.alpha * alpha)
            showText(cr, text)
        default:
            setSource(cr, background.red, background.green, background.blue, background.alpha * alpha)
            fill(cr)
        }
        restore(cr)
    }

    private func path(_ w: Double, _ h: Double, radius r: Double) {
        newPath(cr)
        guard r > 0 else { return rectangle(cr, 0, 0, w, h) }
        arc(cr, w - r, r, r, -Double.pi / 2, 0)
        arc(cr, w - r, h - r, r, 0, Double.pi / 2)
        arc(cr, r, h - r, r, Double.pi / 2, Double.pi)
        arc(cr, r, r, r, Double.pi, 3 * Double.pi / 2)
        closePath(cr)
    }

    /// The bitmap of `view`'s picture: the painting Segue's renderer samples
    /// for it at this size (at the drawn size when that is whole, else the
    /// next size up in steps of 32 pixels), as premultiplied ARGB32, with its
    /// size; made once.
    private func bitmap(for view: View) -> (surface: OpaquePointer?, width: Int, height: Int)? {
        guard case .image(let seed) = view.content,
              let painting = ImagePainter.painting(seed: seed, width: view.bounds.width * scale, height: view.bounds.height * scale) else { return nil }
        let (pw, ph) = (painting.width, painting.height)
        let key = "\(seed) \(pw)x\(ph)"
        if let made = bitmaps[key] { return (made.surface, pw, ph) }
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: pw * ph * 4)
        for y in 0..<ph {
            for x in 0..<pw {
                let c = painting.pixel(x, y), k = (y * pw + x) * 4
                // ARGB32 in native (little-endian) order: B, G, R, A, premultiplied (as the painting is).
                (bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]) = (c.b, c.g, c.r, c.a)
            }
        }
        let made = forData(bytes, 0, Int32(pw), Int32(ph), Int32(pw * 4))
        bitmaps[key] = (made, bytes)
        return (made, pw, ph)
    }
}

/// Why cairo is not drawing beside Segue.
struct CairoMissing: Error { let reason: String }
