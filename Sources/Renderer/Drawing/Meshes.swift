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
    }

    /// Draws the layer's rows that fall within `target`'s clip, a band at a
    /// time, averages them down and composites them with the mesh's alpha.
    func composite(into target: DrawingTarget) {
        let area = item.bounds.intersection(target.clip)
        guard !area.isEmpty else { return }
        let alpha = Float(item.alpha)
        let r = region
        let bandRows = 16  // canvas rows per band: 32 layer rows
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: r.width * bandRows * 2 * 4)
        defer { buffer.deallocate() }
        var y0 = area.y0
        while y0 < area.y1 {
            let y1 = min(y0 + bandRows, area.y1)
            // The band's layer rows, in region coordinates.
            let rows = PixelRect(x0: 0, y0: y0 * 2 - r.y0, x1: r.width, y1: y1 * 2 - r.y0).intersection(
                PixelRect(x0: 0, y0: 0, x1: r.width, y1: r.height))
            let drawn = RowExtents(rows: bandRows * 2)
            if !rows.isEmpty {
                buffer.baseAddress!.update(repeating: 0, count: rows.height * r.width * 4)
                // A target whose row 0 is the band's first layer row.
                let band = DrawingTarget(pixels: buffer.baseAddress! - rows.y0 * r.width * 4, width: r.width, height: r.height, clip: rows)
                draw(into: band, drawn: drawn, origin: rows.y0)
            }
            composite(rows: y0..<y1, area: area, alpha: alpha, band: buffer.baseAddress!, bandTop: rows.isEmpty ? 0 : rows.y0,
                      bandRows: rows.isEmpty ? 0 : rows.height, drawn: drawn, into: target)
            y0 = y1
        }
    }

    /// Draws the shadow and the triangles into the band `layer` (rows of its clip).
    private func draw(into layer: DrawingTarget, drawn: RowExtents, origin: Int) {
        let band = layer.clip
        let (width, height) = (texture.width, texture.height)
        texture.front.withUnsafeBufferPointer { texels in
            let texels = texels.baseAddress!
            for triangle in triangles where triangle.bottom >= band.y0 && triangle.top < band.y1 {
                let spared = triangle.flat ? flat : nil
                let uv = triangle.uv, light = triangle.light
                let (u0, u1, u2, v0, v1, v2) = (uv[0].0, uv[1].0, uv[2].0, uv[0].1, uv[1].1, uv[2].1)
                let (k0, k1, k2) = (light[0], light[1], light[2])
                let back = triangle.back
                let (ox, oy) = (region.x0, region.y0)
                let byte: Float = 1 / 255
                rasterizeSpans(triangle.screen, clip: band) { py, first, last, l1, l2, step1, step2 in
                    var (l1, l2) = (l1, l2)
                    var (low, high) = (Int.max, -1)
                    let row = layer.pixels + py * layer.width * 4
                    for px in first...last {
                        defer { l1 += step1; l2 += step2 }
                        let l0 = 1 - l1 - l2
                        guard l0 >= triangleEpsilon, l1 >= triangleEpsilon, l2 >= triangleEpsilon else { continue }
                        if let spared, spared.covers(layerX: px + ox, layerY: py + oy) { continue }
                        // Nearest texel: the layer is drawn at twice the resolution and averaged down.
                        let tx = Int(l0 * u0 + l1 * u1 + l2 * u2), ty = Int(l0 * v0 + l1 * v1 + l2 * v2)
                        guard tx >= 0, ty >= 0, tx < width, ty < height else { continue }
                        let t = texels + (ty * width + tx) * 4
                        guard t[3] > 0 else { continue }
                        let k = Float(l0 * k0 + l1 * k1 + l2 * k2)
                        var (cr, cg, cb) = (Float(t[0]) * byte, Float(t[1]) * byte, Float(t[2]) * byte)
                        if back { (cr, cg, cb) = MeshTexture.backSide(cr, cg, cb) }
                        if t[3] == 255 {
                            // Opaque: source over leaves nothing of what was there.
                            let p = row + px * 4
                            (p[0], p[1], p[2], p[3]) = (cr * k, cg * k, cb * k, 1)
                        } else {
                            layer.blend(x: px, y: py, r: cr * k, g: cg * k, b: cb * k, a: Float(t[3]) * byte)
                        }
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

    /// Averages the band's layer rows down into canvas rows `rows`, over the copied flat pixels.
    private func composite(rows: Range<Int>, area: PixelRect, alpha: Float, band: UnsafeMutablePointer<Float>,
                           bandTop: Int, bandRows: Int, drawn: RowExtents, into target: DrawingTarget) {
        let r = region
        /// The band's pixel at layer row ly (region coordinates), column lx (layer coordinates); clear outside.
        @inline(__always) func at(_ lx: Int, _ ly: Int) -> SIMD4<Float> {
            let x = lx - r.x0, y = ly - bandTop
            guard x >= 0, y >= 0, x < r.width, y < bandRows else { return .zero }
            let p = band + (y * r.width + x) * 4
            return SIMD4(p[0], p[1], p[2], p[3])
        }
        for py in rows {
            flat?.copyRow(py, from: area.x0, to: area.x1, into: target)
            let ly = py * 2 - r.y0
            // The columns where the layer drew something, or the shadow falls.
            var (a, b) = drawn.columns(rows: ly - bandTop, ly + 1 - bandTop)
            if a <= b { (a, b) = ((a + r.x0) >> 1, (b + r.x0) >> 1) }
            if let shadow, let (c, d) = shadow.columns(row: py) { (a, b) = (min(a, c), max(b, d)) }
            guard a <= b else { continue }
            let from = max(area.x0, a), to = min(area.x1 - 1, b)
            guard from <= to else { continue }
            for px in from...to {
                // What the cells drew, over the shadow (black), unless the flat page hides it.
                let sum = at(px * 2, ly) + at(px * 2 + 1, ly) + at(px * 2, ly + 1) + at(px * 2 + 1, ly + 1)
                var p = sum / 4
                if let shadow, flat?.isCopied(px, py) != true { p.w += shadow.darkness(px, py) * (1 - p.w) }
                p *= alpha
                guard p.w > 0 else { continue }
                target.blend(x: px, y: py, r: p.x / p.w, g: p.y / p.w, b: p.z / p.w, a: p.w)
            }
        }
    }
}

/// The shadow of a mesh's lifted cells on the plane beneath: each cell's
/// footprint moved down the screen by a quarter of its height, darker the
/// higher it is (up to 0.45 at 40 points), blurred by two box passes whose
/// reach grows with the highest lift; blended as black beneath the cells.
/// It is soft, so it is worked out at the canvas's resolution (the cells, at
/// twice that).
struct ShadowMask: @unchecked Sendable {
    /// The blurred darkness over `box`, in canvas pixels, rows `width` apart.
    private let mask: UnsafeMutablePointer<Float>
    private let width: Int
    private let box: PixelRect

    init?(_ item: MeshItem, scratch: DrawingScratch) {
        let cols = item.columns, rows = item.rows
        guard item.lift > 0.5 else { return nil }
        // The mesh projects onto the twice-as-fine layer: halved, onto the canvas.
        let reach = max(Int((Double(item.shadowReach) / 2).rounded()), 1)
        // The footprints of the lifted cells, with room for the blur.
        var lifted: [[((Double, Double), Double)]] = []
        var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
        for j in 0..<rows {
            for i in 0..<cols {
                let quad = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)].map { item.vertex($0.0, $0.1) }
                guard quad.contains(where: { $0.z > 0.5 }) else { continue }
                let g = quad.map { p -> ((Double, Double), Double) in
                    let (point, dark) = item.ground(p)
                    return ((point.0 / 2, point.1 / 2), dark)
                }
                for ((x, y), _) in g {
                    (lo, hi) = ((min(lo.0, x), min(lo.1, y)), (max(hi.0, x), max(hi.1, y)))
                }
                lifted.append(g)
            }
        }
        guard lo.0 <= hi.0, lo.1 <= hi.1, lo.0.isFinite, hi.0.isFinite, lo.1.isFinite, hi.1.isFinite else { return nil }
        let grow = Double(2 * reach + 2)
        let full = item.bounds
        let within = PixelRect(x0: Int(max(lo.0 - grow, Double(full.x0) - 1).rounded(.down)),
                               y0: Int(max(lo.1 - grow, Double(full.y0) - 1).rounded(.down)),
                               x1: Int(min(hi.0 + grow, Double(full.x1) + 1).rounded(.up)) + 1,
                               y1: Int(min(hi.1 + grow, Double(full.y1) + 1).rounded(.up)) + 1).intersection(full)
        guard !within.isEmpty else { return nil }
        // Indexed as if the mask covered the whole canvas.
        let w = within.width
        let mask = scratch.zeroed(within.area).baseAddress! - (within.y0 * w + within.x0)
        var box = (x0: Int.max, y0: Int.max, x1: -1, y1: -1)
        for g in lifted {
            for tri in [[0, 1, 2], [0, 2, 3]] {
                let (d0, d1, d2) = (g[tri[0]].1, g[tri[1]].1, g[tri[2]].1)
                rasterize(tri.map { g[$0].0 }, clip: within) { px, py, l0, l1, l2 in
                    let a = Float(l0 * d0 + l1 * d1 + l2 * d2)
                    let k = py * w + px
                    if a > mask[k] { mask[k] = a }
                    box = (min(box.x0, px), min(box.y0, py), max(box.x1, px), max(box.y1, py))
                }
            }
        }
        guard box.x1 >= 0 else { return nil }
        // Soften: two box blurs along each axis over the shadow's bounding box grown by the reach.
        let x0 = max(box.x0 - 2 * reach, within.x0), x1 = min(box.x1 + 2 * reach, within.x1 - 1)
        let y0 = max(box.y0 - 2 * reach, within.y0), y1 = min(box.y1 + 2 * reach, within.y1 - 1)
        let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1)
        let window = Float(2 * reach + 1)
        // The horizontal pass reads a copy of its row; the vertical one runs along rows with a
        // running sum per column, the rows it has overwritten but still needs kept in a ring.
        let line = scratch.zeroed(bw).baseAddress!
        let sums = scratch.zeroed(bw).baseAddress!
        let ringRows = reach + 1
        let ring = scratch.zeroed(bw * ringRows).baseAddress!
        for _ in 0..<2 {
            for y in y0...y1 {
                let row = mask + y * w + x0
                line.update(from: row, count: bw)
                var sum: Float = 0
                for k in 0...min(reach, bw - 1) { sum += line[k] }
                for k in 0..<bw {
                    row[k] = sum / window
                    if k + reach + 1 < bw { sum += line[k + reach + 1] }
                    if k - reach >= 0 { sum -= line[k - reach] }
                }
            }
            sums.update(repeating: 0, count: bw)
            for k in 0...min(reach, bh - 1) { for x in 0..<bw { sums[x] += mask[(y0 + k) * w + x0 + x] } }
            for k in 0..<bh {
                let row = mask + (y0 + k) * w + x0
                // Keep row k as it was before it is overwritten: row k + reach + 1 will subtract it.
                (ring + (k % ringRows) * bw).update(from: row, count: bw)
                for x in 0..<bw { row[x] = sums[x] / window }
                if k + reach + 1 < bh { for x in 0..<bw { sums[x] += mask[(y0 + k + reach + 1) * w + x0 + x] } }
                if k - reach >= 0 { let old = ring + ((k - reach) % ringRows) * bw; for x in 0..<bw { sums[x] -= old[x] } }
            }
        }
        self.mask = mask
        self.width = w
        self.box = PixelRect(x0: x0, y0: y0, x1: x1 + 1, y1: y1 + 1)
    }

    /// The shadow's darkness at canvas pixel (x, y); 0 where it is too faint to show.
    @inline(__always)
    func darkness(_ x: Int, _ y: Int) -> Float {
        guard x >= box.x0, y >= box.y0, x < box.x1, y < box.y1 else { return 0 }
        let a = mask[y * width + x]
        return a > 0.002 ? a : 0
    }

    /// The canvas columns the shadow covers in row `y`; nil when none.
    func columns(row y: Int) -> (Int, Int)? {
        y >= box.y0 && y < box.y1 ? (box.x0, box.x1 - 1) : nil
    }
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

/// The part of a mesh that lies flat and unmoved: cells whose corners are at
/// rest (no lift, facing the light squarely, so shaded 1) and where the
/// texture's own pixels would land shifted by whole pixels. Every sample the
/// layer would take of such a pixel reads the same texel at full light, so
/// the pixel is that texel: it is copied, not sampled four times; the layer
/// leaves it alone (and the shadow beneath it, which the opaque page hides),
/// but still draws whatever lifted cell folds over it. Used only when the
/// mesh is fully opaque (item alpha 1, every texel opaque) and every other
/// cell is lifted, so drawn after the flat ones.
struct FlatPart: @unchecked Sendable {
    private let texture: MeshTexture
    private let flatCells: [Bool]
    private let columns: Int
    /// The shift from texture pixels to canvas pixels.
    private let shiftX: Int, shiftY: Int
    /// Pixels copied from the texture, one byte each (1: copied) over `area`.
    private let map: [UInt8]
    private let area: PixelRect
    private let copiedWhole: [Bool]

    init?(_ item: MeshItem, projected: [(Double, Double)], normals: [Vec3], texture: MeshTexture) {
        guard item.alpha == 1, texture.opaque else { return nil }
        let cols = item.columns, rows = item.rows
        let cw = Double(texture.width) / Double(cols), ch = Double(texture.height) / Double(rows)
        var shift: (Double, Double)?
        var flat = [Bool](repeating: false, count: cols * rows)
        for j in 0..<rows {
            for i in 0..<cols {
                // At rest: unlifted, where the texture's pixels land shifted by whole pixels; flat: lit fully too.
                var atRest = true, lit = true
                for (ci, cj) in [(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)] where atRest {
                    let k = cj * (cols + 1) + ci
                    let u = Double(ci) / Double(cols) * Double(texture.width), w = Double(cj) / Double(rows) * Double(texture.height)
                    let d = (projected[k].0 / 2 - u, projected[k].1 / 2 - w)
                    let s = shift ?? (d.0.rounded(), d.1.rounded())
                    atRest = item.vertices[k].z == 0 && abs(d.0 - s.0) < 1e-7 && abs(d.1 - s.1) < 1e-7
                    lit = lit && normals[k] == Vec3(x: 0, y: 0, z: 1)
                    if atRest { shift = s }
                }
                flat[j * cols + i] = atRest && lit
                let lift = max(item.vertex(i, j).z, item.vertex(i + 1, j).z, item.vertex(i, j + 1).z, item.vertex(i + 1, j + 1).z)
                // A cell drawn no later than the flat ones must not reach into them: only
                // cells at rest (their own place) or lifted (drawn after) will do.
                if !atRest && lift <= 0 { return nil }
            }
        }
        guard let shift, flat.contains(true) else { return nil }
        self.texture = texture
        (flatCells, columns) = (flat, cols)
        let (shiftX, shiftY) = (Int(shift.0), Int(shift.1))
        let area = item.bounds
        (self.shiftX, self.shiftY, self.area) = (shiftX, shiftY, area)
        // A pixel is copied when all four of its samples (at a quarter and three quarters
        // across) fall in flat cells, a cell edge counting for the cells on both sides.
        func cells(_ a: Double, _ b: Double, size: Double, count: Int) -> ClosedRange<Int>? {
            let lo = Int(((a - 1e-6) / size).rounded(.down)), hi = Int(((b + 1e-6) / size).rounded(.down))
            return lo >= 0 && hi < count ? lo...hi : nil
        }
        var copied = [UInt8](repeating: 0, count: area.area)
        // Each canvas column's cells (lowest, highest; -1 when off the mesh), and per row which columns of cells are flat.
        var columnLow = [Int](repeating: -1, count: area.width), columnHigh = [Int](repeating: -1, count: area.width)
        for k in 0..<area.width {
            let px = area.x0 + k
            if let range = cells(Double(px - shiftX) + 0.25, Double(px - shiftX) + 0.75, size: cw, count: cols) {
                (columnLow[k], columnHigh[k]) = (range.lowerBound, range.upperBound)
            }
        }
        var columnFlat = [Bool](repeating: false, count: cols)
        for py in area.y0..<area.y1 {
            guard let rowCells = cells(Double(py - shiftY) + 0.25, Double(py - shiftY) + 0.75, size: ch, count: rows) else { continue }
            for i in 0..<cols {
                var all = true
                for j in rowCells where !flat[j * cols + i] { all = false }
                columnFlat[i] = all
            }
            let row = (py - area.y0) * area.width
            for k in 0..<area.width where columnLow[k] >= 0 {
                var all = true
                for i in columnLow[k]...columnHigh[k] where !columnFlat[i] { all = false }
                if all { copied[row + k] = 1 }
            }
        }
        map = copied
        copiedWhole = (0..<(rows * cols)).map { k in
            let (i, j) = (k % cols, k / cols)
            guard flat[k] else { return false }
            let x0 = Int((Double(i) * cw).rounded(.down)) + shiftX, x1 = Int((Double(i + 1) * cw).rounded(.down)) + shiftX
            let y0 = Int((Double(j) * ch).rounded(.down)) + shiftY, y1 = Int((Double(j + 1) * ch).rounded(.down)) + shiftY
            guard x0 >= area.x0, y0 >= area.y0, x1 < area.x1, y1 < area.y1 else { return false }
            for y in y0...y1 {
                for x in x0...x1 where copied[(y - area.y0) * area.width + x - area.x0] == 0 { return false }
            }
            return true
        }
    }

    func isFlat(_ i: Int, _ j: Int) -> Bool { flatCells[j * columns + i] }

    /// Whether every pixel cell (i, j) reaches is copied: then the layer has nothing to draw of it.
    func isCopiedWhole(_ i: Int, _ j: Int) -> Bool { copiedWhole[j * columns + i] }

    /// Copies the texels of the copied pixels of canvas row `y`, columns `x0..<x1`, into `target`.
    func copyRow(_ y: Int, from x0: Int, to x1: Int, into target: DrawingTarget) {
        guard y >= area.y0, y < area.y1 else { return }
        let (from, to) = (max(x0, area.x0), min(x1, area.x1))
        guard from < to else { return }
        map.withUnsafeBufferPointer { map in
            texture.front.withUnsafeBufferPointer { texels in
                let row = map.baseAddress! + (y - area.y0) * area.width - area.x0
                let source = texels.baseAddress! + ((y - shiftY) * texture.width - shiftX) * 4
                let out = target.pixels + y * target.width * 4
                for x in from..<to where row[x] != 0 {
                    let t = source + x * 4, p = out + x * 4
                    (p[0], p[1], p[2], p[3]) = (Float(t[0]) / 255, Float(t[1]) / 255, Float(t[2]) / 255, 1)
                }
            }
        }
    }

    /// Whether canvas pixel (x, y) is copied.
    @inline(__always)
    func isCopied(_ x: Int, _ y: Int) -> Bool {
        x >= area.x0 && y >= area.y0 && x < area.x1 && y < area.y1 && map[(y - area.y0) * area.width + x - area.x0] != 0
    }

    /// Whether the layer's sample (x, y), in twice-as-fine layer coordinates, is in a copied pixel.
    @inline(__always)
    func covers(layerX x: Int, layerY y: Int) -> Bool {
        let px = x >> 1, py = y >> 1
        return px >= area.x0 && py >= area.y0 && px < area.x1 && py < area.y1 && map[(py - area.y0) * area.width + px - area.x0] != 0
    }
}

/// A mesh's texture as its cells sample it: straight (not premultiplied)
/// colours, and the same washed out for the back side, worked out once per
/// texture rather than once per sample.
final class MeshTexture: @unchecked Sendable {
    let width: Int, height: Int
    /// Straight 8-bit RGBA per texel (clear where the view drew nothing): what
    /// the frame would show of it anyway, in a quarter of the memory of floats.
    let front: [UInt8]
    /// Whether every texel is opaque.
    let opaque: Bool

    init(_ canvas: Canvas) {
        (width, height) = (canvas.width, canvas.height)
        opaque = stride(from: 3, to: canvas.pixels.count, by: 4).allSatisfy { canvas.pixels[$0] >= 1 }
        var front = [UInt8](repeating: 0, count: canvas.pixels.count)
        front.withUnsafeMutableBufferPointer { out in
            for y in 0..<canvas.height { canvas.convertRow(y, into: out.baseAddress! + y * canvas.width * 4) }
        }
        self.front = front
    }

    /// ``Content/backSide(of:)`` of a straight colour, in single precision.
    @inline(__always)
    static func backSide(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let grey: Float = 0.72 + 0.25 * (0.3 * r + 0.59 * g + 0.11 * b)
        return (0.35 * r + 0.65 * grey, 0.35 * g + 0.65 * grey, 0.35 * b + 0.65 * grey)
    }

}

/// Memory a frame's meshes work in (their shadows), kept from frame to frame
/// so that drawing one does not ask the system for (and fault in) megabytes each time.
/// Buffers are handed out in turn and all taken back by ``reset()``.
final class DrawingScratch: @unchecked Sendable {
    private var buffers: [UnsafeMutableBufferPointer<Float>] = []
    private var used = 0

    /// The next buffer, at least `count` floats, its first `count` zero.
    func zeroed(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
        if used == buffers.count { buffers.append(.allocate(capacity: 0)) }
        if buffers[used].count < count {
            buffers[used].deallocate()
            buffers[used] = .allocate(capacity: count)
        }
        let buffer = buffers[used]
        used += 1
        buffer.baseAddress!.update(repeating: 0, count: count)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<max(count, 0)])
    }

    /// Takes every buffer back.
    func reset() { used = 0 }

    deinit { buffers.forEach { $0.deallocate() } }
}

/// Calls `body` for every pixel centre inside the triangle (and `clip`), with
/// its barycentric weights, row by row over the span the triangle's edges
/// allow; along a span the weights change by a constant step. Shared edges
/// are included from both sides' rules so neighbouring cells leave no cracks.
@inline(__always)
func rasterize(_ p: [(Double, Double)], clip: PixelRect, _ body: (Int, Int, Double, Double, Double) -> Void) {
    rasterizeSpans(p, clip: clip) { py, first, last, l1, l2, slope1, slope2 in
        var (l1, l2) = (l1, l2)
        for px in first...last {
            let l0 = 1 - l1 - l2
            if l0 >= triangleEpsilon, l1 >= triangleEpsilon, l2 >= triangleEpsilon { body(px, py, l0, l1, l2) }
            l1 += slope1
            l2 += slope2
        }
    }
}

/// How far outside a triangle (in barycentric weight) a pixel centre may lie and still be drawn.
let triangleEpsilon = -1e-7

/// The rows of a triangle within `clip`: for each, the columns that may hold
/// pixel centres inside it (widened by a pixel: test each with its weights),
/// the weights l1 and l2 at the first, and how they change per column.
@inline(__always)
func rasterizeSpans(_ p: [(Double, Double)], clip: PixelRect,
                    _ span: (_ y: Int, _ first: Int, _ last: Int, _ l1: Double, _ l2: Double, _ step1: Double, _ step2: Double) -> Void) {
    let area = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[1].1 - p[0].1) * (p[2].0 - p[0].0)
    guard abs(area) > 1e-9 else { return }
    let minX = max(Int(min(p[0].0, p[1].0, p[2].0).rounded(.down)), clip.x0)
    let maxX = min(Int(max(p[0].0, p[1].0, p[2].0).rounded(.up)), clip.x1 - 1)
    let minY = max(Int(min(p[0].1, p[1].1, p[2].1).rounded(.down)), clip.y0)
    let maxY = min(Int(max(p[0].1, p[1].1, p[2].1).rounded(.up)), clip.y1 - 1)
    guard minX <= maxX, minY <= maxY else { return }
    let epsilon = triangleEpsilon
    // l1 and l2 are linear in x along a row: l = slope · x + offset(y).
    let inverseArea = 1 / area
    let slope1 = (p[2].1 - p[0].1) * inverseArea, slope2 = -(p[1].1 - p[0].1) * inverseArea
    let slope0 = -slope1 - slope2
    let (inverse0, inverse1, inverse2) = (1 / slope0, 1 / slope1, 1 / slope2)
    for py in minY...maxY {
        let y = Double(py) + 0.5
        let l1At0 = ((0 - p[0].0) * (p[2].1 - p[0].1) - (y - p[0].1) * (p[2].0 - p[0].0)) * inverseArea
        let l2At0 = ((p[1].0 - p[0].0) * (y - p[0].1) - (p[1].1 - p[0].1) * (0 - p[0].0)) * inverseArea
        // The x range where each weight is at least epsilon.
        var low = Double(minX), high = Double(maxX) + 1
        @inline(__always) func bound(_ slope: Double, _ inverse: Double, _ offset: Double) {
            if slope > 0 {
                low = max(low, (epsilon - offset) * inverse)
            } else if slope < 0 {
                high = min(high, (epsilon - offset) * inverse)
            } else if offset < epsilon {
                high = -1
            }
        }
        bound(slope1, inverse1, l1At0)
        bound(slope2, inverse2, l2At0)
        bound(slope0, inverse0, 1 - l1At0 - l2At0)
        guard low.isFinite, high.isFinite, low <= high + 1 else { continue }
        // Widened by a pixel each side, then each pixel tested.
        let first = max(minX, Int((low - 0.5).rounded(.down)) - 1), last = min(maxX, Int((high - 0.5).rounded(.up)) + 1)
        guard first <= last else { continue }
        let x = Double(first) + 0.5
        span(py, first, last, l1At0 + slope1 * x, l2At0 + slope2 * x, slope1, slope2)
    }
}
