import Foundation
import HostContainer

/// Draws a view tree into a ``Canvas``: rounded rectangles, pictures and
/// labels, alpha compositing in z-order then subview order, full 3D transforms
/// with perspective, and mesh-deformed layers (a page's back side greyed, the
/// curl's soft shadow on the view beneath). Edges are anti-aliased.
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

    /// Renders `root` (its bounds; its own frame origin is ignored) and its subtree.
    public func render(_ root: View) -> Canvas {
        var canvas = Canvas(width: Int((root.bounds.width * scale).rounded()),
                            height: Int((root.bounds.height * scale).rounded()), color: background)
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

    /// Draws a mesh-deformed view: its subtree rendered flat into a texture,
    /// then mapped cell by cell onto the projected mesh at twice the resolution
    /// (for anti-aliased edges), back-facing cells greyed, with the lifted
    /// cells' shadow cast first onto what lies beneath.
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
        let cols = mesh.columns
        func vertex(_ i: Int, _ j: Int) -> Vec3 { mesh.vertices[j * (cols + 1) + i] }
        func uv(_ i: Int, _ j: Int) -> (Double, Double) {
            (Double(i) / Double(cols) * Double(texture.width), Double(j) / Double(mesh.rows) * Double(texture.height))
        }
        var cells: [(i: Int, j: Int, z: Double)] = []
        for j in 0..<mesh.rows {
            for i in 0..<cols {
                cells.append((i, j, max(vertex(i, j).z, vertex(i + 1, j).z, vertex(i, j + 1).z, vertex(i + 1, j + 1).z)))
            }
        }
        // The shadow: beneath the lowest lifted point of each column, fading
        // over a distance and with a depth that grow with the lift.
        for i in 0..<cols {
            var bottom = (-Double.infinity, -Double.infinity), lift = 0.0
            for j in 0...mesh.rows {
                let a = vertex(i, j), b = vertex(i + 1, j)
                guard max(a.z, b.z) > 0.5 else { continue }
                bottom = (max(bottom.0, project(Vec3(x: a.x, y: a.y, z: 0)).1), max(bottom.1, project(Vec3(x: b.x, y: b.y, z: 0)).1))
                lift = max(lift, a.z, b.z)
            }
            guard lift > 0.5 else { continue }
            let left = project(Vec3(x: vertex(i, 0).x, y: 0, z: 0)).0, right = project(Vec3(x: vertex(i + 1, 0).x, y: 0, z: 0)).0
            let reach = min(lift, 60) * 0.6 * scale * ss, depth = Float(0.35 * min(lift / 60, 1))
            let columns = max(Int(left.rounded()), 0)..<max(min(Int(right.rounded()), layer.width), max(Int(left.rounded()), 0))
            for px in columns {
                let f = (Double(px) + 0.5 - left) / max(right - left, 1e-9)
                let top = bottom.0 + (bottom.1 - bottom.0) * f
                guard top.isFinite, top < Double(layer.height), top + reach > 0 else { continue }
                for py in max(Int(top), 0)..<max(min(Int(top + reach), layer.height), max(Int(top), 0)) {
                    let fade = 1 - Float((Double(py) + 0.5 - top) / reach)
                    layer.blend(x: px, y: py, r: 0, g: 0, b: 0, a: depth * fade * fade)
                }
            }
        }
        for cell in cells.sorted(by: { $0.z < $1.z }) {
            let quad = [(cell.i, cell.j), (cell.i + 1, cell.j), (cell.i + 1, cell.j + 1), (cell.i, cell.j + 1)]
            let screen = quad.map { project(vertex($0.0, $0.1)) }
            let tex = quad.map { uv($0.0, $0.1) }
            for tri in [[0, 1, 2], [0, 2, 3]] {
                let (a, b, c) = (screen[tri[0]], screen[tri[1]], screen[tri[2]])
                let facingAway = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0) < 0
                let t = tri.map { tex[$0] }
                fillTextured(screen: tri.map { screen[$0] }, uv: t, texture: texture, back: facingAway, into: &layer)
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

    private func fillTextured(screen: [(Double, Double)], uv: [(Double, Double)], texture: Canvas, back: Bool,
                              into canvas: inout Canvas) {
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
            canvas.blend(x: px, y: py, r: Float(c.red), g: Float(c.green), b: Float(c.blue), a: Float(c.alpha))
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
