import HostContainer

/// What a frame draws, flattened from the view tree in painting order: each
/// view with its background or content as a projected quad, each
/// mesh-deformed view as a mesh. Items are values: two frames' lists compare
/// item by item, and where they differ is what must be drawn again.
enum DrawItem: Equatable, Sendable {
    case quad(QuadItem)
    case mesh(MeshItem)
    /// A view's shadow, drawn just under it.
    case shadow(ShadowItem)

    /// The pixels it may change.
    var bounds: PixelRect {
        switch self {
        case .quad(let q): q.bounds
        case .mesh(let m): m.bounds
        case .shadow(let s): s.bounds
        }
    }
}

/// A view's own rectangle, mapped to pixels by a projective map.
struct QuadItem: Equatable, Sendable {
    /// [u v 1] × h = [X Y W]: the view's points to pixels, row by row.
    let h: [Double]
    /// The inverse of `h`.
    let inverse: [Double]
    let width: Double, height: Double, radius: Double
    let alpha: Double
    let background: Color
    let content: ViewContent
    /// The picture a `.picture` content shows, as the cache has it when the
    /// item is made: a file changed on disk makes another item, so it is drawn again.
    let picture: Picture?
    /// The typeface a `.label` content is drawn in (nil: the built-in 5 x 7 font), and its size in points (nil: half the height).
    let typeface: Typeface?
    let fontSize: Double?
    /// A label's text drawn once, when the quad is drawn at the renderer's
    /// scale without rotation or perspective and its box is opaque or clear:
    /// then the box is drawn plain and this over it.
    let textLayer: TextLayer?
    /// Points per pixel, on average over the quad.
    let pixelSize: Double
    let bounds: PixelRect
    /// Pixels it paints opaque whatever lies beneath (``empty`` when none
    /// are known to): an opaque plain or labelled quad mapped without
    /// rotation or perspective, its anti-aliased edge and corners left out.
    let cover: PixelRect
    /// Pixels it paints with one colour over whatever lies beneath, opaque
    /// or not, and that colour (nil when none are known to): a quad with a
    /// background and no content, mapped without rotation or perspective,
    /// its anti-aliased edge and corners left out.
    let solid: SolidRun?
    /// The clips it is cut to (its own or its superviews').
    let masks: [ClipMask]
    /// Whether every pixel it covers wholly (its rounded rectangle's coverage,
    /// times its masks', is 1) it paints opaque, whatever lies beneath.
    let opaque: Bool

    /// The item for a `width` × `height` rectangle mapped by `matrix`, or nil
    /// when nothing of it would show on a canvas of `canvas` pixels.
    init?(matrix: Transform3D, width w: Double, height h: Double, radius: Double, alpha: Double,
          background: Color, content: ViewContent, typeface: Typeface?, fontSize: Double? = nil, scale: Double, canvas: PixelRect,
          masks: [ClipMask] = []) {
        guard w > 0, h > 0, background.alpha > 0 || content != .none else { return nil }
        let m = matrix.values
        let H = [m[0], m[1], m[3], m[4], m[5], m[7], m[12], m[13], m[15]]
        var corners: [(Double, Double)] = []
        for (u, v) in [(0.0, 0.0), (w, 0), (w, h), (0, h)] {
            let W = u * H[2] + v * H[5] + H[8]
            guard W > 1e-6 else { return nil }  // behind the eye
            corners.append(((u * H[0] + v * H[3] + H[6]) / W, (u * H[1] + v * H[4] + H[7]) / W))
        }
        var area = 0.0
        for i in 0..<4 {
            let (x0, y0) = corners[i], (x1, y1) = corners[(i + 1) % 4]
            area += x0 * y1 - x1 * y0
        }
        area = abs(area) / 2
        guard area > 1e-9, let inverse = invert3(H) else { return nil }
        let minX = max(pixel(corners.map(\.0).min()!, .down) - 1, canvas.x0)
        let maxX = min(pixel(corners.map(\.0).max()!, .up) + 1, canvas.x1 - 1)
        let minY = max(pixel(corners.map(\.1).min()!, .down) - 1, canvas.y0)
        let maxY = min(pixel(corners.map(\.1).max()!, .up) + 1, canvas.y1 - 1)
        guard minX <= maxX, minY <= maxY else { return nil }
        self.h = H
        self.inverse = inverse
        (self.width, self.height, self.radius, self.alpha) = (w, h, min(radius, w / 2, h / 2), alpha)
        (self.background, self.content) = (background, content)
        picture = if case .picture(let path, _) = content { PictureCache.shared.picture(at: path) } else { nil }
        (self.typeface, self.fontSize) = if case .label = content { (typeface, fontSize) } else { (nil, nil) }
        self.masks = masks
        let upright = masks.isEmpty && H[1] == 0 && H[3] == 0 && H[2] == 0 && H[5] == 0 && H[8] == 1 && abs(H[0] - scale) < 1e-9
            && abs(H[4] - scale) < 1e-9 && (background.alpha >= 1 || background.alpha <= 0)
        textLayer = if upright, case .label(let text) = content, let typeface {
            TextLayer.layer(text, typeface: typeface, fontSize: fontSize, width: w, height: h, scale: scale, background: background)
        } else {
            nil
        }
        pixelSize = (w * h / area).squareRoot()
        bounds = PixelRect(x0: minX, y0: minY, x1: maxX + 1, y1: maxY + 1)
        opaque = switch content {
        case .none, .label: alpha >= 1 && background.alpha >= 1
        // A procedural picture is opaque; a file is when all its pixels are and it fills the view (or the view's
        // background is opaque where a contained picture leaves it).
        case .image: alpha >= 1
        case .picture(_, let fit): alpha >= 1 && picture?.isOpaque == true && (fit != .contain || background.alpha >= 1)
        }
        // Pixels whose centres lie half a pixel inside the rectangle shrunk by its corners
        // are drawn wholly covered (see `draw(into:)`): opaque, they hide what is beneath.
        var inside = PixelRect.empty
        if H[1] == 0, H[3] == 0, H[2] == 0, H[5] == 0, H[8] == 1, H[0] > 0, H[4] > 0 {
            let inset = self.radius + 0.5 * pixelSize
            let (left, top) = (H[6] + inset * H[0], H[7] + inset * H[4])
            let (right, bottom) = (H[6] + (w - inset) * H[0], H[7] + (h - inset) * H[4])
            let rect = PixelRect(x0: pixel(left - 0.5 - 1e-9, .up), y0: pixel(top - 0.5 - 1e-9, .up),
                                 x1: pixel(right - 0.5 + 1e-9, .down) + 1, y1: pixel(bottom - 0.5 + 1e-9, .down) + 1)
            inside = rect.intersection(bounds)
        }
        cover = opaque && masks.isEmpty ? inside : .empty
        solid = masks.isEmpty && content == .none && background.alpha > 0 && !inside.isEmpty
            ? SolidRun(rect: inside, word: Self.word(background, alpha: alpha)) : nil
    }

    /// A plain quad's colour, premultiplied at its opacity: the word its covered pixels are blended with.
    static func word(_ background: Color, alpha: Double) -> UInt32 {
        Pixel.premultiplied(r: Float(background.red), g: Float(background.green), b: Float(background.blue), a: Float(background.alpha * alpha))
    }

    /// Where the point (u, v) of the view lands, or nil behind the eye.
    func project(_ u: Double, _ v: Double) -> (Double, Double)? {
        let W = u * h[2] + v * h[5] + h[8]
        guard W > 1e-6 else { return nil }
        return ((u * h[0] + v * h[3] + h[6]) / W, (u * h[1] + v * h[4] + h[7]) / W)
    }
}

/// A mesh-deformed view: its subtree drawn flat into a texture, mapped onto
/// the projected mesh.
struct MeshItem: Equatable, Sendable {
    let columns: Int, rows: Int
    /// The mesh's vertices, copied (the mesh itself changes every frame).
    let vertices: [Vec3]
    let alpha: Double
    /// The view and its subtree as drawn flat into the texture, and its size in pixels.
    let texture: [DrawItem]
    let textureWidth: Int, textureHeight: Int
    /// The view's size in texels: the texture's but for the part of a texel
    /// its last column and row hold where a side is not whole pixels (390
    /// points at 2.84 pixels a point).
    let pageWidth: Double, pageHeight: Double
    /// The centre of the root view, in points: meshes are seen in perspective from there.
    let centreX: Double, centreY: Double
    /// Pixels per point.
    let scale: Double
    /// The pixels the mesh and its shadow may cover.
    let bounds: PixelRect

    func vertex(_ i: Int, _ j: Int) -> Vec3 { vertices[j * (columns + 1) + i] }

    /// Where a point lands on the canvas, in pixels.
    @inline(__always)
    func project(_ p: Vec3) -> (Double, Double) { Self.project(p, centreX: centreX, centreY: centreY, scale: scale) }

    @inline(__always)
    private static func project(_ p: Vec3, centreX: Double, centreY: Double, scale: Double) -> (Double, Double) {
        let seen = Mesh.projected(p, centreX: centreX, centreY: centreY)
        return (seen.x * scale, seen.y * scale)
    }

    /// The highest a vertex is lifted.
    let lift: Double

    /// How far the shadow's blur reaches, in canvas pixels: a fifth of the
    /// highest lift (up to 60 points).
    let shadowReach: Double

    /// The point beneath `p` its shadow falls on, and how dark it is there.
    @inline(__always)
    func ground(_ p: Vec3) -> ((Double, Double), Double) {
        (project(Vec3(x: p.x, y: p.y + 0.25 * p.z, z: 0)), 0.45 * min(p.z / 40, 1))
    }

    init(mesh: Mesh, alpha: Double, texture: [DrawItem], textureWidth: Int, textureHeight: Int, page: (width: Double, height: Double),
         root: Rect, scale: Double, canvas: PixelRect) {
        (columns, rows) = (mesh.columns, mesh.rows)
        vertices = Array(mesh.vertices)
        self.alpha = alpha
        self.texture = texture
        (self.textureWidth, self.textureHeight) = (textureWidth, textureHeight)
        (pageWidth, pageHeight) = (min(page.width, Double(textureWidth)), min(page.height, Double(textureHeight)))
        (centreX, centreY) = (root.width / 2, root.height / 2)
        self.scale = scale
        // Every projected vertex and, when lifted, the shadow with its blur.
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func include(_ p: (Double, Double), grow: Double) {
            (x0, y0, x1, y1) = (min(x0, p.0 - grow), min(y0, p.1 - grow), max(x1, p.0 + grow), max(y1, p.1 + grow))
        }
        let vertices = vertices
        let (centreX, centreY) = (centreX, centreY)
        func p(_ v: Vec3) -> (Double, Double) { Self.project(v, centreX: centreX, centreY: centreY, scale: scale) }
        for v in vertices { include(p(v), grow: 1) }
        let lift = vertices.reduce(0) { max($0, $1.z) }
        let reach = min(lift, 60) * 0.2 * scale
        (self.lift, shadowReach) = (lift, reach)
        if lift > 0.5 {
            for v in vertices { include(p(Vec3(x: v.x, y: v.y + 0.25 * v.z, z: 0)), grow: 2 * reach + 2) }
        }
        if x0 <= x1, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, max(abs(x0), abs(x1), abs(y0), abs(y1)) < 1e9 {
            bounds = PixelRect(x0: Int(x0.rounded(.down)), y0: Int(y0.rounded(.down)),
                               x1: Int(x1.rounded(.up)) + 1, y1: Int(y1.rounded(.up)) + 1).intersection(canvas)
        } else {
            bounds = canvas
        }
    }
}

/// Flattens a view tree into draw items.
struct DisplayListBuilder {
    let scale: Double
    /// The root view: meshes are in its coordinates.
    let root: View
    /// The pixels there are to draw on.
    let canvas: PixelRect
    /// What labels are drawn in (nil: the built-in 5 x 7 font).
    let typeface: Typeface?
    private(set) var items: [DrawItem] = []
    /// The clips of the views being added (ABI 1.4), outermost first.
    private var masks: [ClipMask] = []

    init(scale: Double, root: View, canvas: PixelRect, typeface: Typeface?) {
        self.scale = scale
        self.root = root
        self.canvas = canvas
        self.typeface = typeface
    }

    var scaling: Transform3D { Transform3D([scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) }

    /// Adds `view`, whose local space maps to pixels by `matrix`, then its subviews.
    mutating func add(_ view: View, matrix: Transform3D, alpha: Double) {
        let opacity = alpha * view.alpha
        guard !view.isHidden, opacity > 0 else { return }
        if let mesh = view.mesh {
            addMesh(view, mesh, alpha: opacity)
            return
        }
        let outer = masks
        defer { masks = outer }
        if let clip = view.clip, let mask = ClipMask(clip, matrix: matrix, width: view.bounds.width, height: view.bounds.height) {
            masks.append(mask)
        }
        let quad = quad(view, matrix: matrix, alpha: opacity)
        if let shadow = view.shadow, let item = ShadowItem(shadow, matrix: matrix, width: view.bounds.width, height: view.bounds.height,
                                                           cornerRadius: view.cornerRadius, masks: masks, alpha: opacity, scale: scale,
                                                           canvas: canvas, caster: quad) {
            items.append(.shadow(item))
        }
        if let quad { items.append(.quad(quad)) }
        pushRoundedBounds(of: view, matrix: matrix)
        addSubviews(of: view, matrix: matrix, alpha: opacity)
    }

    /// A view that masks its subviews to its rounded bounds adds them as a clip.
    private mutating func pushRoundedBounds(of view: View, matrix: Transform3D) {
        let (w, h) = (view.bounds.width, view.bounds.height)
        guard view.masksToBounds, !view.subviews.isEmpty,
              let mask = ClipMask(.roundedRect(view.bounds, CornerRadii(min(max(view.cornerRadius, 0), w / 2, h / 2))),
                                  matrix: matrix, width: w, height: h) else { return }
        masks.append(mask)
    }

    private mutating func addQuad(_ view: View, matrix: Transform3D, alpha: Double) {
        if let quad = quad(view, matrix: matrix, alpha: alpha) { items.append(.quad(quad)) }
    }

    /// The quad of `view` alone (nil when nothing of it shows), cut to the clips being added.
    private func quad(_ view: View, matrix: Transform3D, alpha: Double) -> QuadItem? {
        QuadItem(matrix: matrix, width: view.bounds.width, height: view.bounds.height, radius: view.cornerRadius, alpha: alpha,
                 background: view.backgroundColor, content: view.content, typeface: typeface, fontSize: view.fontSize, scale: scale,
                 canvas: canvas, masks: masks)
    }

    private mutating func addSubviews(of view: View, matrix: Transform3D, alpha: Double) {
        let ordered = view.subviews.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
        for (_, sub) in ordered {
            let f = sub.frame
            let local = Transform3D.translation(-f.width / 2, -f.height / 2)
                .concatenating(sub.transform)
                .concatenating(.translation(f.x + f.width / 2, f.y + f.height / 2))
                .concatenating(matrix)
            add(sub, matrix: local, alpha: alpha)
        }
    }

    /// The most pixels a side of a mesh's texture has on `canvas`: twice its
    /// longer side (at least 256), as fine as any page on it needs to be.
    static func meshTextureLimit(_ canvas: PixelRect) -> Int { max(2 * max(canvas.width, canvas.height), 256) }

    private mutating func addMesh(_ view: View, _ mesh: Mesh, alpha: Double) {
        let w = view.bounds.width, h = view.bounds.height
        guard w > 0, h > 0, mesh.columns > 0, mesh.rows > 0 else { return }
        // The page is drawn flat at the canvas's scale, but never larger than
        // twice the canvas's longer side: an animator's frame may be any size,
        // and a texture the size of a 30000-point page is gigabytes.
        let limit = Double(Self.meshTextureLimit(canvas)), textureScale = min(scale, limit / w, limit / h)
        let textureWidth = max(pixel(w * textureScale, .up), 1), textureHeight = max(pixel(h * textureScale, .up), 1)
        var flat = DisplayListBuilder(scale: textureScale, root: root, canvas: PixelRect(x0: 0, y0: 0, x1: textureWidth, y1: textureHeight),
                                      typeface: typeface)
        // Its clip cuts the page itself: in the texture, in the view's own coordinates.
        if let clip = view.clip, let mask = ClipMask(clip, matrix: flat.scaling, width: w, height: h) { flat.masks.append(mask) }
        flat.addQuad(view, matrix: flat.scaling, alpha: 1)
        flat.pushRoundedBounds(of: view, matrix: flat.scaling)
        flat.addSubviews(of: view, matrix: flat.scaling, alpha: 1)
        let item = MeshItem(mesh: mesh, alpha: alpha, texture: flat.items, textureWidth: textureWidth, textureHeight: textureHeight,
                            page: (w * textureScale, h * textureScale), root: root.bounds, scale: scale, canvas: canvas)
        if !item.bounds.isEmpty { items.append(.mesh(item)) }
    }
}

/// The inverse of a 3×3 matrix stored row by row; nil when singular.
func invert3(_ m: [Double]) -> [Double]? {
    let a = m[4] * m[8] - m[5] * m[7], b = m[5] * m[6] - m[3] * m[8], c = m[3] * m[7] - m[4] * m[6]
    let det = m[0] * a + m[1] * b + m[2] * c
    guard abs(det) > 1e-12 else { return nil }
    return [a / det, (m[2] * m[7] - m[1] * m[8]) / det, (m[1] * m[5] - m[2] * m[4]) / det,
            b / det, (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
            c / det, (m[1] * m[6] - m[0] * m[7]) / det, (m[0] * m[4] - m[1] * m[3]) / det]
}
