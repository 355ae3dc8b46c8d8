import HostContainer

/// The direction towards the light for meshes: in front of the screen and
/// a little above it, so a flat page is lit fully and a curl darkens as
/// it turns away.
let meshLight: Vec3 = {
    let v = Vec3(x: 0, y: -0.35, z: 1), length = (v.x * v.x + v.y * v.y + v.z * v.z).squareRoot()
    return Vec3(x: v.x / length, y: v.y / length, z: v.z / length)
}()

/// A mesh drawn at twice the resolution (for anti-aliased edges) and averaged
/// down. What every band of the frame shares is worked out once, when the
/// layer is made: the triangles in drawing order (lowest cells first, each
/// shaded by the angle between its surface and the light; cells seen from
/// behind show the texture washed out, ``Content/backSide(of:)``, which the
/// geometry mirrors), the part lying flat (``FlatPart``) and the soft
/// shadow the lifted cells cast, offset downwards with their height, onto what
/// lies beneath. The layer's pixels themselves are drawn band by band as
/// they are composited, in a buffer of a few rows that stays in the cache.
struct MeshLayer: @unchecked Sendable {
    let item: MeshItem
    /// Region of the twice-as-fine layer.
    let region: PixelRect
    private let texture: MeshTexture
    /// Where the mesh lies flat and unmoved, the texture copied as it is.
    private let flat: FlatPart?
    private let triangles: [Triangle]
    private let shadow: ShadowMask?

    /// One textured triangle, in layer-region coordinates.
    struct Triangle {
        let screen: [(Double, Double)]
        let uv: [(Double, Double)]
        let light: [Double]
        let back: Bool
        /// Whether it belongs to a flat cell: copied pixels are left to the copy.
        let flat: Bool
        let top: Int, bottom: Int
    }

    init(_ item: MeshItem, texture: MeshTexture, scratch: DrawingScratch) {
        self.item = item
        self.texture = texture
        region = item.layer
        let cols = item.columns, rows = item.rows
        let region = region
        func uv(_ i: Int, _ j: Int) -> (Double, Double) {
            (Double(i) / Double(cols) * Double(texture.width), Double(j) / Double(rows) * Double(texture.height))
        }
        // Vertex normals from the neighbours (one-sided at the edges), facing the eye where the page faces it.
        var normals = [Vec3](repeating: Vec3(x: 0, y: 0, z: 1), count: (cols + 1) * (rows + 1))
        for j in 0...rows {
            for i in 0...cols {
                let a = item.vertex(min(i + 1, cols), j), b = item.vertex(max(i - 1, 0), j)
                let c = item.vertex(i, min(j + 1, rows)), e = item.vertex(i, max(j - 1, 0))
                let du = Vec3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z), dv = Vec3(x: c.x - e.x, y: c.y - e.y, z: c.z - e.z)
                let n = Vec3(x: du.y * dv.z - du.z * dv.y, y: du.z * dv.x - du.x * dv.z, z: du.x * dv.y - du.y * dv.x)
                let length = (n.x * n.x + n.y * n.y + n.z * n.z).squareRoot()
                if length > 1e-12 { normals[j * (cols + 1) + i] = Vec3(x: n.x / length, y: n.y / length, z: n.z / length) }
            }
        }
        /// Brightness from the surface's angle to the light: 1 when it faces the light as a flat page does.
        func shade(_ n: Vec3, back: Bool) -> Double {
            let s = back ? -1.0 : 1.0
            let lambert = max(s * (n.x * meshLight.x + n.y * meshLight.y + n.z * meshLight.z), 0) / meshLight.z
            return min(0.3 + 0.7 * lambert, 1)
        }
        let projected = item.vertices.map(item.project)
        let flat = FlatPart(item, projected: projected, normals: normals, texture: texture)
        self.flat = flat
        shadow = ShadowMask(item, scratch: scratch)

        var cells: [(i: Int, j: Int, z: Double)] = []
        for j in 0..<rows {
            for i in 0..<cols {
                cells.append((i, j, max(item.vertex(i, j).z, item.vertex(i + 1, j).z, item.vertex(i, j + 1).z, item.vertex(i + 1, j + 1).z)))
            }
        }
        var triangles: [Triangle] = []
        for cell in cells.sorted(by: { $0.z < $1.z }) {
            if let flat, flat.isCopiedWhole(cell.i, cell.j) { continue }
            let quad = [(cell.i, cell.j), (cell.i + 1, cell.j), (cell.i + 1, cell.j + 1), (cell.i, cell.j + 1)]
            let screen = quad.map { (projected[$0.1 * (cols + 1) + $0.0].0 - Double(region.x0),
                                     projected[$0.1 * (cols + 1) + $0.0].1 - Double(region.y0)) }
            let tex = quad.map { uv($0.0, $0.1) }
            for tri in [[0, 1, 2], [0, 2, 3]] {
                let (a, b, c) = (screen[tri[0]], screen[tri[1]], screen[tri[2]])
                let facingAway = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0) < 0
                let ys = [a.1, b.1, c.1]
                guard ys.allSatisfy(\.isFinite) else { continue }
                triangles.append(Triangle(
                    screen: [a, b, c], uv: tri.map { tex[$0] },
                    light: tri.map { shade(normals[quad[$0].1 * (cols + 1) + quad[$0].0], back: facingAway) },
                    back: facingAway, flat: flat?.isFlat(cell.i, cell.j) == true,
                    top: Int(max(ys.min()!, -1).rounded(.down)), bottom: Int(min(ys.max()!, Double(region.height) + 1).rounded(.up))))
            }
        }
        self.triangles = triangles
        if triangles.contains(where: \.back) { texture.prepareBack() }
    }

    /// Canvas pixels the mesh covers whole (opaque, whatever lies beneath):
    /// items drawn before it need not draw there.
    var cover: PixelRect { flat?.cover ?? .empty }

    /// Draws the layer's rows that fall within `target`'s clip, a band at a
    /// time, averages them down and composites them with the mesh's alpha.
    func composite(into target: DrawingTarget) {
        let area = item.bounds.intersection(target.clip)
        guard !area.isEmpty else { return }
        let alpha = UInt32(min(max(item.alpha, 0), 1) * 255 + 0.5)
        let r = region
        let bandRows = 16  // canvas rows per band: 32 layer rows
        let buffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: r.width * bandRows * 2)
        defer { buffer.deallocate() }
        var y0 = area.y0
        while y0 < area.y1 {
            let y1 = min(y0 + bandRows, area.y1)
            // The band's layer rows, in region coordinates.
            let rows = PixelRect(x0: 0, y0: y0 * 2 - r.y0, x1: r.width, y1: y1 * 2 - r.y0).intersection(
                PixelRect(x0: 0, y0: 0, x1: r.width, y1: r.height))
            let drawn = RowExtents(rows: bandRows * 2)
            if !rows.isEmpty {
                buffer.baseAddress!.update(repeating: 0, count: rows.height * r.width)
                // A target whose row 0 is the band's first layer row.
                let band = LayerRows(pixels: buffer.baseAddress! - rows.y0 * r.width, width: r.width, clip: rows)
                draw(into: band, drawn: drawn, origin: rows.y0)
            }
            composite(rows: y0..<y1, area: area, alpha: alpha, band: buffer.baseAddress!, bandTop: rows.isEmpty ? 0 : rows.y0,
                      bandRows: rows.isEmpty ? 0 : rows.height, drawn: drawn, into: target)
            y0 = y1
        }
    }

    /// Draws the shadow and the triangles into the band `layer` (rows of its clip).
    private func draw(into layer: LayerRows, drawn: RowExtents, origin: Int) {
        let band = layer.clip
        let (width, height) = (texture.width, texture.height)
        texture.front.withUnsafeBufferPointer { front in
        texture.back.withUnsafeBufferPointer { behind in
            // Every texel opaque: each sample is what the last triangle over it drew, so the
            // triangles are drawn from the top down and a sample, once drawn, is not sampled again.
            let frontFirst = texture.opaque
            for index in triangles.indices {
                let triangle = triangles[frontFirst ? triangles.count - 1 - index : index]
                guard triangle.bottom >= band.y0 && triangle.top < band.y1 else { continue }
                let spared = triangle.flat ? flat : nil
                let uv = triangle.uv, light = triangle.light
                let (u0, u1, u2, v0, v1, v2) = (uv[0].0, uv[1].0, uv[2].0, uv[0].1, uv[1].1, uv[2].1)
                let (k0, k1, k2) = (light[0], light[1], light[2])
                let texels = UnsafeRawPointer((triangle.back ? behind : front).baseAddress!)
                let (ox, oy) = (region.x0, region.y0)
                let (textureWidth, textureHeight) = (Double(width), Double(height))
                rasterizeSpans(triangle.screen, clip: band) { py, first, last, inside, l1, l2, step1, step2 in
                    // The weights, the texture position and the light are all linear along the span.
                    var (l1, l2) = (l1, l2)
                    var l0 = 1 - l1 - l2
                    let step0 = -step1 - step2
                    var u = l0 * u0 + l1 * u1 + l2 * u2, v = l0 * v0 + l1 * v1 + l2 * v2
                    let du = step0 * u0 + step1 * u1 + step2 * u2, dv = step0 * v0 + step1 * v1 + step2 * v2
                    // The light as a factor on the texel's bytes, in 255ths.
                    var k = Float(l0 * k0 + l1 * k1 + l2 * k2) * 255
                    let dk = Float(step0 * k0 + step1 * k1 + step2 * k2) * 255
                    var (low, high) = (Int.max, -1)
                    let row = layer.pixels + py * layer.width
                    for px in first...last {
                        defer { l0 += step0; l1 += step1; l2 += step2; u += du; v += dv; k += dk }
                        guard inside.contains(px) || (l0 >= triangleEpsilon && l1 >= triangleEpsilon && l2 >= triangleEpsilon) else { continue }
                        if frontFirst && row[px] != 0 { continue }
                        if let spared, spared.covers(layerX: px + ox, layerY: py + oy) { continue }
                        // Nearest texel: the layer is drawn at twice the resolution and averaged down.
                        guard u > -1, v > -1, u < textureWidth, v < textureHeight else { continue }
                        let t = texels.loadUnaligned(fromByteOffset: (Int(v) &* width &+ Int(u)) &* 4, as: UInt32.self)
                        let opacity = t >> 24
                        guard opacity > 0 else { continue }
                        // The texel (straight; premultiplied when translucent) lit: its colour channels times the light.
                        let straight = opacity == 255 ? t : (Pixel.scaled(t, opacity) & 0x00FF_FFFF) | (t & 0xFF00_0000)
                        let lit = (Pixel.scaled(straight, UInt32(max(min(k, 255), 0) + 0.5)) & 0x00FF_FFFF) | (t & 0xFF00_0000)
                        // Opaque: source over leaves nothing of what was there.
                        row[px] = opacity == 255 ? lit : Pixel.over(lit, row[px])
                        (low, high) = (min(low, px), px)
                    }
                    if high >= 0 {
                        drawn.touch(low, py - origin)
                        drawn.touch(high, py - origin)
                    }
                }
            }
        }
        }
    }

    /// Averages the band's layer rows down into canvas rows `rows`, over the copied flat pixels.
    private func composite(rows: Range<Int>, area: PixelRect, alpha: UInt32, band: UnsafeMutablePointer<UInt32>,
                           bandTop: Int, bandRows: Int, drawn: RowExtents, into target: DrawingTarget) {
        let r = region
        /// Layer row ly (region coordinates) of the band, nil outside it.
        func layerRow(_ ly: Int) -> UnsafeMutablePointer<UInt32>? {
            ly >= bandTop && ly < bandTop + bandRows ? band + (ly - bandTop) * r.width : nil
        }
        for py in rows {
            flat?.copyRow(py, from: area.x0, to: area.x1, into: target)
            let ly = py * 2 - r.y0
            // The columns where the layer drew something, or the shadow falls.
            var (a, b) = drawn.columns(rows: ly - bandTop, ly + 1 - bandTop)
            if a <= b { (a, b) = ((a + r.x0) >> 1, (b + r.x0) >> 1) }
            let shade = shadow?.row(py)
            if let shade { (a, b) = (min(a, shade.columns.lowerBound), max(b, shade.columns.upperBound - 1)) }
            guard a <= b else { continue }
            let from = max(area.x0, a), to = min(area.x1 - 1, b)
            guard from <= to else { continue }
            let upper = layerRow(ly), lower = layerRow(ly + 1)
            let out = target.row(py)
            @inline(__always) func sample(_ row: UnsafeMutablePointer<UInt32>?, _ x: Int) -> UInt32 {
                guard let row, x >= 0, x < r.width else { return 0 }
                return row[x]
            }
            for px in from...to {
                // What the cells drew (the average of the pixel's four samples, clear outside
                // the layer), over the shadow (black), unless the flat page hides it.
                let lx = px * 2 - r.x0
                var p = Self.average(sample(upper, lx), sample(upper, lx + 1), sample(lower, lx), sample(lower, lx + 1))
                if let shade, shade.columns.contains(px) {
                    let darkness = shade.darkness[px]
                    if darkness > ShadowMask.faintest && flat?.isCopied(px, py) != true {
                        // Black beneath: the colour stays, the alpha grows by the darkness of what is left.
                        let a = p >> 24
                        p = (p & 0x00FF_FFFF) | (a + UInt32(darkness * Float(255 - a) + 0.5)) << 24
                    }
                }
                if alpha != 255 { p = Pixel.scaled(p, alpha) }
                guard p >> 24 > 0 else { continue }
                out[px] = Pixel.over(p, out[px])
            }
        }
    }

    /// The mean of four premultiplied words, each channel rounded.
    @inline(__always)
    static func average(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        let m: UInt32 = 0x00FF_00FF
        let rb = (((a & m) &+ (b & m) &+ (c & m) &+ (d & m) &+ 0x0002_0002) >> 2) & m
        let ag = ((((a >> 8) & m) &+ ((b >> 8) & m) &+ ((c >> 8) & m) &+ ((d >> 8) & m) &+ 0x0002_0002) << 6) & 0xFF00_FF00
        return rb | ag
    }
}

/// Rows of a mesh's twice-as-fine layer: premultiplied 8-bit RGBA words,
/// and the rows that may be written.
struct LayerRows {
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int
    let clip: PixelRect
}

/// For each row of a layer, the first and last column drawn in.
final class RowExtents: @unchecked Sendable {
    private let low: UnsafeMutableBufferPointer<Int32>, high: UnsafeMutableBufferPointer<Int32>

    init(rows: Int) {
        low = .allocate(capacity: max(rows, 0))
        high = .allocate(capacity: max(rows, 0))
        low.initialize(repeating: .max)
        high.initialize(repeating: -1)
    }

    deinit {
        low.deallocate()
        high.deallocate()
    }

    @inline(__always)
    func touch(_ x: Int, _ y: Int) {
        let x = Int32(truncatingIfNeeded: x)
        if x < low[y] { low[y] = x }
        if x > high[y] { high[y] = x }
    }

    /// The columns drawn in either row (rows outside the layer count as empty); first > last when none.
    func columns(rows a: Int, _ b: Int) -> (first: Int, last: Int) {
        var first = Int.max, last = -1
        for y in [a, b] where y >= 0 && y < low.count && high[y] >= 0 {
            (first, last) = (min(first, Int(low[y])), max(last, Int(high[y])))
        }
        return (first, last)
    }
}
