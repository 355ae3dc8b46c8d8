import Foundation
import HostContainer

/// Draws a view tree into a ``Canvas``: rounded rectangles, pictures and
/// labels, alpha compositing in z-order then subview order, full 3D transforms
/// with perspective, and mesh-deformed layers (shaded by their angle to the
/// light, a page's back side washed out, the curl's soft shadow on the view
/// beneath). Edges and text are anti-aliased.
///
/// Kept apart from the container: the host runs without it. Not thread-safe
/// per canvas; a renderer value itself holds no state beyond its settings.
public struct ViewRenderer: Sendable {
    /// Pixels per point.
    public var scale: Double
    /// What shows where no view draws.
    public var background: Color
    /// The eye's distance for meshes, in points, as a layer's `m34 = -1/d`:
    /// a mesh vertex at height z is drawn d / (d − z) times farther from the centre.
    public static let meshPerspectiveDistance = 1_000.0

    /// A renderer at `scale` pixels per point over `background`.
    public init(scale: Double = 1, background: Color = .white) {
        self.scale = scale
        self.background = background
    }

    /// The size in pixels of the canvas a view of `size` points renders to.
    public func pixels(for size: Rect) -> (width: Int, height: Int) {
        (Int((size.width * scale).rounded()), Int((size.height * scale).rounded()))
    }

    /// Renders `root` (its bounds; its own frame origin is ignored) and its subtree.
    public func render(_ root: View) -> Canvas {
        let pixels = pixels(for: root.bounds)
        var canvas = Canvas(width: pixels.width, height: pixels.height, color: background)
        let centre = Transform3D.translation(root.bounds.width / 2, root.bounds.height / 2)
        let placed = Transform3D.translation(-root.bounds.width / 2, -root.bounds.height / 2)
            .concatenating(root.transform).concatenating(centre).concatenating(scaling)
        draw(root, matrix: placed, alpha: 1, root: root, into: &canvas)
        return canvas
    }

    private var scaling: Transform3D { Transform3D([scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) }

    /// Draws `view` whose local space maps to pixels by `matrix`, then its subviews.
    private func draw(_ view: View, matrix: Transform3D, alpha: Double, root: View, into canvas: inout Canvas) {
        let opacity = alpha * view.alpha
        guard !view.isHidden, opacity > 0 else { return }
        if let mesh = view.mesh {
            drawMesh(view, mesh, alpha: opacity, root: root, into: &canvas)
            return
        }
        drawQuad(view, matrix: matrix, alpha: opacity, into: &canvas)
        drawSubviews(of: view, matrix: matrix, alpha: opacity, root: root, into: &canvas)
    }

    private func drawSubviews(of view: View, matrix: Transform3D, alpha: Double, root: View, into canvas: inout Canvas) {
        let ordered = view.subviews.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
        for (_, sub) in ordered {
            let f = sub.frame
            let local = Transform3D.translation(-f.width / 2, -f.height / 2)
                .concatenating(sub.transform)
                .concatenating(.translation(f.x + f.width / 2, f.y + f.height / 2))
                .concatenating(matrix)
            draw(sub, matrix: local, alpha: alpha, root: root, into: &canvas)
        }
    }

    // MARK: - Quads

    /// Fills the view's bounds through the projective map `matrix` by inverse
    /// mapping each pixel centre into the view's plane.
    private func drawQuad(_ view: View, matrix: Transform3D, alpha: Double, into canvas: inout Canvas) {
        let w = view.bounds.width, h = view.bounds.height
        guard w > 0, h > 0, view.backgroundColor.alpha > 0 || view.content != .none else { return }
        let m = matrix.values
        // [u v 1] × H = [X Y W]: rows are the u, v and translation rows; columns x, y, w.
        let H = [m[0], m[1], m[3], m[4], m[5], m[7], m[12], m[13], m[15]]
        var corners: [(Double, Double)] = []
        for (u, v) in [(0.0, 0.0), (w, 0), (w, h), (0, h)] {
            let W = u * H[2] + v * H[5] + H[8]
            guard W > 1e-6 else { return }  // behind the eye
            corners.append(((u * H[0] + v * H[3] + H[6]) / W, (u * H[1] + v * H[4] + H[7]) / W))
        }
        var area = 0.0
        for i in 0..<4 {
            let (x0, y0) = corners[i], (x1, y1) = corners[(i + 1) % 4]
            area += x0 * y1 - x1 * y0
        }
        area = abs(area) / 2
        guard area > 1e-9, let inv = invert3(H) else { return }
        let pixelSize = (w * h / area).squareRoot()  // points per pixel, on average over the quad
        let minX = max(Int(corners.map(\.0).min()!.rounded(.down)) - 1, 0)
        let maxX = min(Int(corners.map(\.0).max()!.rounded(.up)) + 1, canvas.width - 1)
        let minY = max(Int(corners.map(\.1).min()!.rounded(.down)) - 1, 0)
        let maxY = min(Int(corners.map(\.1).max()!.rounded(.up)) + 1, canvas.height - 1)
        guard minX <= maxX, minY <= maxY else { return }
        let shader = Shader(view)
        let radius = min(view.cornerRadius, w / 2, h / 2)
        for py in minY...maxY {
            let y = Double(py) + 0.5
            for px in minX...maxX {
                let x = Double(px) + 0.5
                let c = x * inv[2] + y * inv[5] + inv[8]
                guard c > 0 else { continue }
                let u = (x * inv[0] + y * inv[3] + inv[6]) / c, v = (x * inv[1] + y * inv[4] + inv[7]) / c
                let coverage = roundedRectCoverage(u, v, w, h, radius, pixelSize)
                guard coverage > 0 else { continue }
                let color = shader.color(u: u, v: v, pixelSize: pixelSize)
                let a = Float(color.alpha * coverage * alpha)
                guard a > 0 else { continue }
                canvas.blend(x: px, y: py, r: Float(color.red), g: Float(color.green), b: Float(color.blue), a: a)
            }
        }
    }

    /// How much of a pixel `pixelSize` points wide centred at (u, v) lies in the
    /// rounded rectangle, from its signed distance.
    private func roundedRectCoverage(_ u: Double, _ v: Double, _ w: Double, _ h: Double, _ r: Double,
                                     _ pixelSize: Double) -> Double {
        let qx = abs(u - w / 2) - (w / 2 - r), qy = abs(v - h / 2) - (h / 2 - r)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        let distance = outside + min(max(qx, qy), 0) - r
        return min(max(0.5 - distance / pixelSize, 0), 1)
    }

    // MARK: - Meshes

    /// The direction towards the light for meshes: in front of the screen and
    /// a little above it, so a flat page is lit fully and a curl darkens as
    /// it turns away.
    static let light: Vec3 = {
        let v = Vec3(x: 0, y: -0.35, z: 1), length = (v.x * v.x + v.y * v.y + v.z * v.z).squareRoot()
        return Vec3(x: v.x / length, y: v.y / length, z: v.z / length)
    }()

    /// Draws a mesh-deformed view: its subtree rendered flat into a texture,
    /// then mapped cell by cell onto the projected mesh at twice the resolution
    /// (for anti-aliased edges), lifted cells over lower ones. Each vertex is
    /// shaded by the angle between its surface and ``light``; cells seen from
    /// behind show the texture washed out (``Content/backSide(of:)``), which
    /// the geometry mirrors; the lifted cells first cast a soft shadow, offset
    /// downwards with their height, onto what lies beneath.
    private func drawMesh(_ view: View, _ mesh: Mesh, alpha: Double, root: View, into canvas: inout Canvas) {
        let w = view.bounds.width, h = view.bounds.height
        guard w > 0, h > 0, mesh.columns > 0, mesh.rows > 0 else { return }
        var texture = Canvas(width: Int((w * scale).rounded(.up)), height: Int((h * scale).rounded(.up)))
        drawQuad(view, matrix: scaling, alpha: 1, into: &texture)
        drawSubviews(of: view, matrix: scaling, alpha: 1, root: root, into: &texture)

        let ss = 2.0
        var layer = Canvas(width: canvas.width * 2, height: canvas.height * 2)
        let cx = root.bounds.width / 2, cy = root.bounds.height / 2, d = Self.meshPerspectiveDistance
        func project(_ p: Vec3) -> (Double, Double) {
            let k = d / max(d - p.z, 1)
            return ((cx + (p.x - cx) * k) * scale * ss, (cy + (p.y - cy) * k) * scale * ss)
        }
        let cols = mesh.columns, rows = mesh.rows
        func vertex(_ i: Int, _ j: Int) -> Vec3 { mesh.vertices[j * (cols + 1) + i] }
        func uv(_ i: Int, _ j: Int) -> (Double, Double) {
            (Double(i) / Double(cols) * Double(texture.width), Double(j) / Double(rows) * Double(texture.height))
        }
        // Vertex normals from the neighbours (one-sided at the edges), facing the eye where the page faces it.
        var normals = [Vec3](repeating: Vec3(x: 0, y: 0, z: 1), count: (cols + 1) * (rows + 1))
        for j in 0...rows {
            for i in 0...cols {
                let a = vertex(min(i + 1, cols), j), b = vertex(max(i - 1, 0), j)
                let c = vertex(i, min(j + 1, rows)), e = vertex(i, max(j - 1, 0))
                let du = Vec3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z), dv = Vec3(x: c.x - e.x, y: c.y - e.y, z: c.z - e.z)
                let n = Vec3(x: du.y * dv.z - du.z * dv.y, y: du.z * dv.x - du.x * dv.z, z: du.x * dv.y - du.y * dv.x)
                let length = (n.x * n.x + n.y * n.y + n.z * n.z).squareRoot()
                if length > 1e-12 { normals[j * (cols + 1) + i] = Vec3(x: n.x / length, y: n.y / length, z: n.z / length) }
            }
        }
        /// Brightness from the surface's angle to the light: 1 when it faces the light as a flat page does.
        func shade(_ n: Vec3, back: Bool) -> Double {
            let s = back ? -1.0 : 1.0
            let lambert = max(s * (n.x * Self.light.x + n.y * Self.light.y + n.z * Self.light.z), 0) / Self.light.z
            return min(0.3 + 0.7 * lambert, 1)
        }

        castShadow(mesh, project: project, into: &layer)
        var cells: [(i: Int, j: Int, z: Double)] = []
        for j in 0..<rows {
            for i in 0..<cols {
                cells.append((i, j, max(vertex(i, j).z, vertex(i + 1, j).z, vertex(i, j + 1).z, vertex(i + 1, j + 1).z)))
            }
        }
        for cell in cells.sorted(by: { $0.z < $1.z }) {
            let quad = [(cell.i, cell.j), (cell.i + 1, cell.j), (cell.i + 1, cell.j + 1), (cell.i, cell.j + 1)]
            let screen = quad.map { project(vertex($0.0, $0.1)) }
            let tex = quad.map { uv($0.0, $0.1) }
            for tri in [[0, 1, 2], [0, 2, 3]] {
                let (a, b, c) = (screen[tri[0]], screen[tri[1]], screen[tri[2]])
                let facingAway = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0) < 0
                let light = tri.map { shade(normals[quad[$0].1 * (cols + 1) + quad[$0].0], back: facingAway) }
                fillTextured(screen: tri.map { screen[$0] }, uv: tri.map { tex[$0] }, light: light, texture: texture,
                             back: facingAway, into: &layer)
            }
        }
        // Down-sample the 2× layer and composite it with the view's alpha.
        for py in 0..<canvas.height {
            for px in 0..<canvas.width {
                var sum = SIMD4<Float>.zero
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let i = ((py * 2 + dy) * layer.width + px * 2 + dx) * 4
                    sum += SIMD4(layer.pixels[i], layer.pixels[i + 1], layer.pixels[i + 2], layer.pixels[i + 3])
                }
                let p = sum / 4 * Float(alpha)
                guard p.w > 0 else { continue }
                canvas.blend(x: px, y: py, r: p.x / p.w, g: p.y / p.w, b: p.z / p.w, a: p.w)
            }
        }
    }

    /// The shadow of a mesh's lifted cells on the plane beneath: each cell's
    /// footprint moved down the screen by a quarter of its height, darker the
    /// higher it is (up to 0.45 at 40 points), blurred by two box passes whose
    /// reach grows with the highest lift, blended as black into `layer`.
    private func castShadow(_ mesh: Mesh, project: (Vec3) -> (Double, Double), into layer: inout Canvas) {
        let cols = mesh.columns, rows = mesh.rows
        let lift = mesh.vertices.reduce(0) { max($0, $1.z) }
        guard lift > 0.5 else { return }
        var mask = [Float](repeating: 0, count: layer.width * layer.height)
        var box = (x0: layer.width, y0: layer.height, x1: -1, y1: -1)
        func ground(_ p: Vec3) -> ((Double, Double), Double) {
            (project(Vec3(x: p.x, y: p.y + 0.25 * p.z, z: 0)), 0.45 * min(p.z / 40, 1))
        }
        for j in 0..<rows {
            for i in 0..<cols {
                let quad = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)].map { mesh.vertices[$0.1 * (cols + 1) + $0.0] }
                guard quad.contains(where: { $0.z > 0.5 }) else { continue }
                let g = quad.map(ground)
                for tri in [[0, 1, 2], [0, 2, 3]] {
                    rasterize(tri.map { g[$0].0 }, width: layer.width, height: layer.height) { px, py, l0, l1, l2 in
                        let a = Float(l0 * g[tri[0]].1 + l1 * g[tri[1]].1 + l2 * g[tri[2]].1)
                        let k = py * layer.width + px
                        if a > mask[k] { mask[k] = a }
                        box = (min(box.x0, px), min(box.y0, py), max(box.x1, px), max(box.y1, py))
                    }
                }
            }
        }
        guard box.x1 >= 0 else { return }
        // Soften: two box blurs along each axis over the shadow's bounding box grown by the reach.
        let reach = max(Int((min(lift, 60) * 0.2 * scale * 2).rounded()), 1)
        let x0 = max(box.x0 - 2 * reach, 0), x1 = min(box.x1 + 2 * reach, layer.width - 1)
        let y0 = max(box.y0 - 2 * reach, 0), y1 = min(box.y1 + 2 * reach, layer.height - 1)
        var line = [Float](repeating: 0, count: max(layer.width, layer.height))
        /// A running-sum box blur of `count` values of `mask` from `start`, `step` apart.
        func blur(start: Int, step: Int, count: Int) {
            for k in 0..<count { line[k] = mask[start + k * step] }
            var sum: Float = 0
            for k in 0...min(reach, count - 1) { sum += line[k] }
            for k in 0..<count {
                mask[start + k * step] = sum / Float(2 * reach + 1)
                if k + reach + 1 < count { sum += line[k + reach + 1] }
                if k - reach >= 0 { sum -= line[k - reach] }
            }
        }
        for _ in 0..<2 {
            for y in y0...y1 { blur(start: y * layer.width + x0, step: 1, count: x1 - x0 + 1) }
            for x in x0...x1 { blur(start: y0 * layer.width + x, step: layer.width, count: y1 - y0 + 1) }
        }
        for y in y0...y1 {
            for x in x0...x1 where mask[y * layer.width + x] > 0.002 {
                layer.blend(x: x, y: y, r: 0, g: 0, b: 0, a: mask[y * layer.width + x])
            }
        }
    }

    private func fillTextured(screen: [(Double, Double)], uv: [(Double, Double)], light: [Double], texture: Canvas,
                              back: Bool, into canvas: inout Canvas) {
        rasterize(screen, width: canvas.width, height: canvas.height) { px, py, l0, l1, l2 in
            // Nearest texel: the layer is drawn at twice the resolution and averaged down.
            let tx = Int(l0 * uv[0].0 + l1 * uv[1].0 + l2 * uv[2].0), ty = Int(l0 * uv[0].1 + l1 * uv[1].1 + l2 * uv[2].1)
            guard tx >= 0, ty >= 0, tx < texture.width, ty < texture.height else { return }
            let i = (ty * texture.width + tx) * 4
            let a = texture.pixels[i + 3]
            guard a > 0 else { return }
            var c = Color(red: Double(texture.pixels[i] / a), green: Double(texture.pixels[i + 1] / a),
                          blue: Double(texture.pixels[i + 2] / a), alpha: Double(a))
            if back { c = Content.backSide(of: c) }
            let k = Float(l0 * light[0] + l1 * light[1] + l2 * light[2])
            canvas.blend(x: px, y: py, r: Float(c.red) * k, g: Float(c.green) * k, b: Float(c.blue) * k, a: Float(c.alpha))
        }
    }

    /// Calls `body` for every pixel centre inside the triangle, with its
    /// barycentric weights. Shared edges are included from both sides' rules so
    /// neighbouring cells leave no cracks.
    /// Takes the canvas's size, not the canvas: holding a second reference to
    /// its pixels while `body` writes them would copy them on every triangle.
    private func rasterize(_ p: [(Double, Double)], width: Int, height: Int,
                           _ body: (Int, Int, Double, Double, Double) -> Void) {
        let area = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[1].1 - p[0].1) * (p[2].0 - p[0].0)
        guard abs(area) > 1e-9 else { return }
        let minX = max(Int(min(p[0].0, p[1].0, p[2].0).rounded(.down)), 0)
        let maxX = min(Int(max(p[0].0, p[1].0, p[2].0).rounded(.up)), width - 1)
        let minY = max(Int(min(p[0].1, p[1].1, p[2].1).rounded(.down)), 0)
        let maxY = min(Int(max(p[0].1, p[1].1, p[2].1).rounded(.up)), height - 1)
        guard minX <= maxX, minY <= maxY else { return }
        let epsilon = -1e-7
        for py in minY...maxY {
            let y = Double(py) + 0.5
            for px in minX...maxX {
                let x = Double(px) + 0.5
                let l1 = ((x - p[0].0) * (p[2].1 - p[0].1) - (y - p[0].1) * (p[2].0 - p[0].0)) / area
                let l2 = ((p[1].0 - p[0].0) * (y - p[0].1) - (p[1].1 - p[0].1) * (x - p[0].0)) / area
                let l0 = 1 - l1 - l2
                guard l0 >= epsilon, l1 >= epsilon, l2 >= epsilon else { continue }
                body(px, py, l0, l1, l2)
            }
        }
    }
}

/// A view's own colour at a point of its bounds: background, then picture or label.
private struct Shader {
    let background: Color
    let content: ViewContent
    let width: Double, height: Double
    let text: [Character]
    let unit: Double, textX: Double, textY: Double
    let ink: Color

    init(_ view: View) {
        background = view.backgroundColor
        content = view.content
        width = view.bounds.width
        height = view.bounds.height
        if case .label(let s) = content {
            text = Array(s)
            let fit = (width - 8) / Double(max(text.count, 1) * BitmapFont.advance)
            unit = max(min(height * 0.7 / Double(BitmapFont.lineHeight), fit), 0.01)
            textX = (width - Double(text.count * BitmapFont.advance - 1) * unit) / 2
            textY = (height - 7 * unit) / 2
        } else {
            (text, unit, textX, textY) = ([], 1, 0, 0)
        }
        ink = Content.textColor(on: background)
    }

    /// The colour at (u, v) for a pixel about `pixelSize` points wide: text is
    /// anti-aliased by the share of 4 × 4 samples across the pixel that fall on ink.
    func color(u: Double, v: Double, pixelSize: Double) -> Color {
        switch content {
        case .none:
            return background
        case .image(let seed):
            return Content.imageColor(seed: seed, u: u / width, v: v / height)
        case .label:
            var hits = 0
            for sy in 0..<4 {
                for sx in 0..<4 {
                    let su = u + (Double(sx) - 1.5) / 4 * pixelSize, sv = v + (Double(sy) - 1.5) / 4 * pixelSize
                    if isInk(u: su, v: sv) { hits += 1 }
                }
            }
            guard hits > 0 else { return background }
            let share = Double(hits) / 16
            // Over nothing, fade the ink itself: mixing towards clear black would darken light ink's edges.
            return background.alpha == 0 ? Color(red: ink.red, green: ink.green, blue: ink.blue, alpha: ink.alpha * share)
                : Content.mix(background, ink, share)
        }
    }

    /// Whether the point (u, v) lies in an inked cell of the label's glyphs.
    private func isInk(u: Double, v: Double) -> Bool {
        let column = Int(((u - textX) / unit).rounded(.down)), row = Int(((v - textY) / unit).rounded(.down))
        guard column >= 0, row >= 0 else { return false }
        let index = column / BitmapFont.advance
        return index < text.count && BitmapFont.ink(text[index], column: column % BitmapFont.advance, row: row)
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
