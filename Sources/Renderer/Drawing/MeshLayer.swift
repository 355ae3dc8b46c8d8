import HostContainer

/// A mesh drawn over the canvas. What every band of the frame shares is
/// worked out once, when the layer is made: the triangles in drawing order
/// (lowest cells first, each shaded by the angle between its surface and the
/// light; cells seen from behind show the texture washed out,
/// ``PageShading``, which the geometry mirrors), the pixels an
/// outline or fold of the surface crosses (``EdgePixels``), and the soft
/// shadow the lifted cells cast, offset downwards with their height, onto what
/// lies beneath.
///
/// Where the surface runs on across a pixel, the pixel is one sample of it:
/// the texture read bilinearly at the pixel's centre and lit (a texel as it
/// is where the page lies at rest, its pixels on the canvas's). Where an
/// outline or fold crosses it, the pixel is the mean of four samples, each
/// the nearest texel of whatever lies on top there (clear where nothing
/// does): its edge anti-aliased. The layer's pixels are drawn band by band
/// as they are composited, in buffers of a few rows.
struct MeshLayer: @unchecked Sendable {
    let item: MeshItem
    private let texture: MeshTexture
    private let triangles: [Triangle]
    /// For each band of ``bandRows`` canvas rows (counted from row 0), the
    /// triangles reaching into it, in drawing order: band b's are
    /// `bandTriangles[bandStart[b - firstBand]..<bandStart[b - firstBand + 1]]`.
    private let bandTriangles: [Int32], bandStart: [Int], firstBand: Int
    private let edges: EdgePixels
    private let shadow: ShadowMask?
    /// Where the (opaque) mesh lies at rest, runs of its cells along their rows: drawn as the texels they are.
    private let atRest: [RestingRun]
    /// Canvas pixels the mesh covers whole (opaque, whatever lies beneath):
    /// items drawn before it need not draw there. The tallest run of rows
    /// where it lies at rest across its whole width.
    let cover: PixelRect

    /// One textured triangle, in canvas pixels.
    struct Triangle {
        let a: Corner, b: Corner, c: Corner
        let back: Bool
        /// Where the texture's own pixels land shifted by whole pixels, at full
        /// light: each pixel whose centre it holds is a texel as it is.
        let atRest: Bool
        /// Whether its cell lies at rest whole (both halves) and is drawn as
        /// part of a ``RestingRun``, not triangle by triangle.
        let copied: Bool
        /// Its bounding box's rows and columns.
        let top: Int, bottom: Int, left: Int, right: Int
        /// The texture position and the light across it, for ``TriangleSampler/bilinear(_:row:from:to:into:drew:)``.
        let gradients: Gradients
    }

    /// The texture position (texels, moved on by a texel and a half, 16 bits
    /// of fraction) and the light (255ths, 8 bits of fraction) at the centre
    /// of pixel (x, y) of a triangle whose bounding box starts at (left, top):
    /// `base + (x - left) * dx + (y - top) * dy`, each in fixed point.
    struct Gradients {
        let u: (base: Int, dx: Int, dy: Int), v: (base: Int, dx: Int, dy: Int), k: (base: Int, dx: Int, dy: Int)

        init(_ a: Corner, _ b: Corner, _ c: Corner, left: Int, top: Int) {
            let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)
            /// A value given at the corners, across the triangle: its change per pixel
            /// (an edge-on triangle's kept within a million) and its value at (left, top).
            func plane(_ fa: Double, _ fb: Double, _ fc: Double, offset: Double, one: Double) -> (base: Int, dx: Int, dy: Int) {
                let dx = min(max(((fb - fa) * (c.y - a.y) - (fc - fa) * (b.y - a.y)) / det, -1e6), 1e6)
                let dy = min(max(((fc - fa) * (b.x - a.x) - (fb - fa) * (c.x - a.x)) / det, -1e6), 1e6)
                let base = min(max(fa + offset + dx * (Double(left) + 0.5 - a.x) + dy * (Double(top) + 0.5 - a.y), -1e9), 1e9)
                return (Int(base * one), Int(dx * one), Int(dy * one))
            }
            u = plane(a.u, b.u, c.u, offset: 1.5, one: 65536)
            v = plane(a.v, b.v, c.v, offset: 1.5, one: 65536)
            k = plane(a.light * 255, b.light * 255, c.light * 255, offset: 0, one: 256)
        }
    }

    /// A triangle's corner: where it is on the canvas, where on the texture (in texels), and its light.
    struct Corner {
        let x: Double, y: Double, u: Double, v: Double, light: Double
        var point: (Double, Double) { (x, y) }
    }

    /// Cells at rest side by side: the canvas pixels whose centres they hold
    /// (rows and columns, inclusive), and where the texel of pixel (0, 0) would be.
    struct RestingRun {
        let top: Int, bottom: Int, left: Int, right: Int
        let shiftX: Int, shiftY: Int
    }

    init(_ item: MeshItem, texture: MeshTexture, scratch: DrawingScratch) {
        self.item = item
        self.texture = texture
        let cols = item.columns, rows = item.rows, vertices = item.vertices
        @inline(__always) func index(_ i: Int, _ j: Int) -> Int { j * (cols + 1) + i }
        // The page's texels, not the texture's whole ones: a cell's texels lie as far apart as its pixels at rest.
        let (du, dv) = (item.pageWidth / Double(cols), item.pageHeight / Double(rows))
        /// Vertex k's place on the texture, in texels.
        @inline(__always) func uv(_ k: Int) -> (Double, Double) { (Double(k % (cols + 1)) * du, Double(k / (cols + 1)) * dv) }
        // Vertex normals from the neighbours (one-sided at the edges), facing the eye where the page faces it.
        var normals = [Vec3](repeating: Vec3(x: 0, y: 0, z: 1), count: vertices.count)
        vertices.withUnsafeBufferPointer { v in
            normals.withUnsafeMutableBufferPointer { PageShading.normals(v, columns: cols, rows: rows, into: $0) }
        }
        // The mesh on the canvas.
        let screen = vertices.map(item.project)
        // Each vertex at rest (unlifted, lit fully) gives the shift from its texture position to the canvas; nil when not.
        let rest = vertices.indices.map { k -> (Double, Double)? in
            guard vertices[k].z == 0, normals[k] == Vec3(x: 0, y: 0, z: 1) else { return nil }
            let t = uv(k), d = (screen[k].0 - t.0, screen[k].1 - t.1), s = (d.0.rounded(), d.1.rounded())
            return abs(d.0 - s.0) < 1e-7 && abs(d.1 - s.1) < 1e-7 && abs(s.0) < pixelLimit && abs(s.1) < pixelLimit ? s : nil
        }
        /// Whether vertices p, q and r are at rest with one shift.
        func resting(_ p: Int, _ q: Int, _ r: Int) -> Bool {
            guard let s = rest[p], let t = rest[q], let w = rest[r] else { return false }
            return s == t && s == w
        }
        /// Whether cell `cell` lies at rest whole (the texture opaque), so is copied as part of a run.
        func copied(_ cell: Int) -> Bool {
            let (i, j) = (cell % cols, cell / cols)
            return texture.opaque && resting(index(i, j), index(i + 1, j), index(i + 1, j + 1)) && resting(index(i, j), index(i + 1, j + 1), index(i, j + 1))
        }
        shadow = ShadowMask(item, scratch: scratch)

        // Each cell's two triangles (corners 0, 1, 2 and 0, 2, 3 of the cell), in drawing order,
        // and which way each faces: 1 the eye, -1 away, 0 not drawn.
        var facing = [Int8](repeating: 0, count: cols * rows * 2)
        let order = (0..<(cols * rows)).map { cell -> (cell: Int, z: Double) in
            let (i, j) = (cell % cols, cell / cols)
            return (cell, max(vertices[index(i, j)].z, vertices[index(i + 1, j)].z, vertices[index(i, j + 1)].z, vertices[index(i + 1, j + 1)].z))
        }.sorted { $0.z < $1.z }
        var triangles: [Triangle] = []
        triangles.reserveCapacity(cols * rows * 2)
        for (cell, _) in order {
            let (i, j) = (cell % cols, cell / cols)
            let corners = (index(i, j), index(i + 1, j), index(i + 1, j + 1), index(i, j + 1))
            for half in 0..<2 {
                let (p, q, r) = half == 0 ? (corners.0, corners.1, corners.2) : (corners.0, corners.2, corners.3)
                let (a, b, c) = (screen[p], screen[q], screen[r])
                let area = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
                guard a.0.isFinite && a.1.isFinite && b.0.isFinite && b.1.isFinite && c.0.isFinite && c.1.isFinite && abs(area) > 1e-9 else { continue }
                let back = area < 0
                facing[cell * 2 + half] = back ? -1 : 1
                func corner(_ k: Int) -> Corner {
                    let t = uv(k)
                    return Corner(x: screen[k].0, y: screen[k].1, u: t.0, v: t.1, light: PageShading.shade(normals[k], back: back))
                }
                let (low, high) = ((min(a.0, b.0, c.0), min(a.1, b.1, c.1)), (max(a.0, b.0, c.0), max(a.1, b.1, c.1)))
                let (top, left) = (pixel(low.1, .down), pixel(low.0, .down))
                let corners = (corner(p), corner(q), corner(r))
                triangles.append(Triangle(
                    a: corners.0, b: corners.1, c: corners.2, back: back, atRest: resting(p, q, r), copied: copied(cell),
                    top: top, bottom: pixel(high.1, .up), left: left, right: pixel(high.0, .up),
                    gradients: Gradients(corners.0, corners.1, corners.2, left: left, top: top)))
            }
        }
        self.triangles = triangles
        if triangles.contains(where: \.back) { texture.prepareBack() }
        // Each band's triangles: counted, then placed, in drawing order.
        let bounds = item.bounds
        let shift = Self.bandShift, firstBand = bounds.y0 >> shift
        let bandCount = bounds.isEmpty ? 0 : (bounds.y1 - 1) >> shift - firstBand + 1
        func bands(of t: Triangle) -> ClosedRange<Int>? {
            let (top, bottom) = (max(t.top, bounds.y0), min(t.bottom, bounds.y1 - 1))
            return top <= bottom ? (top >> shift - firstBand)...(bottom >> shift - firstBand) : nil
        }
        var start = [Int](repeating: 0, count: bandCount + 1)
        for t in triangles { if let b = bands(of: t) { for k in b { start[k + 1] += 1 } } }
        for k in 0..<bandCount { start[k + 1] += start[k] }
        var placed = start, inBands = [Int32](repeating: 0, count: start[bandCount])
        for (index, t) in triangles.enumerated() {
            guard let b = bands(of: t) else { continue }
            for k in b {
                inBands[placed[k]] = Int32(index)
                placed[k] += 1
            }
        }
        (bandTriangles, bandStart, self.firstBand) = (inBands, start, firstBand)

        // The surface breaks where a triangle edge is not shared by two drawn triangles facing the same way:
        // the mesh's outline, its folds, and the rims of whatever is not drawn. A break along a row or
        // column of the pixel grid splits no pixel.
        func side(_ i: Int, _ j: Int, _ half: Int) -> Int8 {
            i >= 0 && j >= 0 && i < cols && j < rows ? facing[(j * cols + i) * 2 + half] : 0
        }
        var breaks: [((Double, Double), (Double, Double))] = []
        func edge(_ p: Int, _ q: Int, between s: Int8, _ t: Int8) {
            guard s != t else { return }
            let (a, b) = (screen[p], screen[q])
            if (a.0 == b.0 && a.0 == a.0.rounded()) || (a.1 == b.1 && a.1 == a.1.rounded()) { return }
            breaks.append((a, b))
        }
        for j in 0...rows {
            for i in 0...cols {
                // Along the top of cell (i, j), down its left side, and across its diagonal.
                if i < cols { edge(index(i, j), index(i + 1, j), between: side(i, j, 0), side(i, j - 1, 1)) }
                if j < rows { edge(index(i, j), index(i, j + 1), between: side(i, j, 1), side(i - 1, j, 0)) }
                if i < cols && j < rows { edge(index(i, j), index(i + 1, j + 1), between: side(i, j, 0), side(i, j, 1)) }
            }
        }
        edges = EdgePixels(breaks, within: item.bounds)

        // Runs of cells at rest along each row of cells, each run's cells with one shift.
        var runs: [RestingRun] = []
        for j in 0..<rows {
            var i = 0
            while i < cols {
                guard copied(j * cols + i), let shift = rest[index(i, j)] else { i += 1; continue }
                var end = i + 1
                while end < cols, copied(j * cols + end), rest[index(end, j)].map({ $0 == shift }) == true { end += 1 }
                // Pixel centres within cells i..<end of the row, edges included.
                let (a, b) = (uv(index(i, j)), uv(index(end, j + 1)))
                runs.append(RestingRun(top: Int((a.1 + shift.1 - 0.5).rounded(.up)), bottom: Int((b.1 + shift.1 - 0.5).rounded(.down)),
                                       left: Int((a.0 + shift.0 - 0.5).rounded(.up)), right: Int((b.0 + shift.0 - 0.5).rounded(.down)),
                                       shiftX: Int(shift.0), shiftY: Int(shift.1)))
                i = end
            }
        }
        atRest = runs

        // Rows of cells wholly at rest, all with one shift, lie flat and opaque over what is beneath.
        var cover = PixelRect.empty
        if item.alpha == 1, texture.opaque {
            func rowAtRest(_ j: Int, _ shift: (Double, Double)) -> Bool { (0...cols).allSatisfy { rest[index($0, j)].map { $0 == shift } == true } }
            var j = 0
            while j < rows {
                guard let shift = rest[index(0, j)], rowAtRest(j, shift) else { j += 1; continue }
                var end = j + 1
                while end <= rows, rowAtRest(end, shift) { end += 1 }
                // Vertex rows j..<end are at rest: cells j..<end-1 and the pixels wholly inside them.
                let y0 = Int((Double(j) * dv + shift.1).rounded(.up)), y1 = Int((Double(end - 1) * dv + shift.1).rounded(.down))
                let rect = PixelRect(x0: Int(shift.0), y0: y0, x1: Int(shift.0) + Int(item.pageWidth.rounded(.down)), y1: y1).intersection(item.bounds)
                if rect.height > cover.height { cover = rect }
                j = end
            }
        }
        self.cover = cover
    }

    /// Draws the layer's rows that fall within `target`'s clip, a band at a
    /// time, and composites them with the mesh's alpha over the shadow.
    func composite(into target: DrawingTarget) {
        let area = item.bounds.intersection(target.clip)
        guard !area.isEmpty else { return }
        let alpha = UInt32(min(max(item.alpha, 0), 1) * 255 + 0.5)
        let bounds = item.bounds
        let bandRows = 1 << Self.bandShift
        let pixels = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: bounds.width * bandRows)
        // The four samples of the band's edge pixels, two rows and columns a pixel.
        let samples = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: bounds.width * bandRows * 4)
        defer {
            pixels.deallocate()
            samples.deallocate()
        }
        var y0 = area.y0
        while y0 < area.y1 {
            let band = PixelRect(x0: bounds.x0, y0: y0, x1: bounds.x1, y1: min((y0 >> Self.bandShift + 1) << Self.bandShift, area.y1))
            pixels.baseAddress!.update(repeating: 0, count: band.area)
            let drawn = RowExtents(rows: band.height)
            let rows = LayerRows(pixels: pixels.baseAddress! - (band.y0 * band.width + band.x0), width: band.width, clip: band)
            let b = y0 >> Self.bandShift - firstBand
            let reaching = bandTriangles[bandStart[b]..<bandStart[b + 1]]
            draw(reaching, into: rows, drawn: drawn)
            drawEdges(reaching, into: rows, samples: samples.baseAddress!, drawn: drawn)
            composite(rows, area: area, alpha: alpha, drawn: drawn, into: target)
            y0 = band.y1
        }
    }

    /// Rows of a band are drawn together: 16, counted from row 0.
    static let bandShift = 4

    /// The triangles `reaching` (indices, in drawing order) in the order they
    /// are drawn, and the texels of each one's side, for the time of `body`.
    /// Every texel opaque: each pixel is what the last triangle over it drew,
    /// so the triangles are drawn from the top down and a pixel, once drawn,
    /// is not drawn again.
    private func inDrawingOrder(_ reaching: ArraySlice<Int32>, _ body: (_ triangle: Triangle, _ texels: UnsafeRawPointer) -> Void) {
        texture.front.withUnsafeBytes { front in
            texture.back.withUnsafeBytes { back in
                triangles.withUnsafeBufferPointer { triangles in
                    reaching.withUnsafeBufferPointer { reaching in
                        let count = reaching.count
                        for k in 0..<count {
                            let triangle = triangles[Int(reaching[texture.opaque ? count - 1 - k : k])]
                            body(triangle, (triangle.back ? back : front).baseAddress!)
                        }
                    }
                }
            }
        }
    }

    /// Draws the pixels of `layer` no edge crosses: one sample each.
    private func draw(_ reaching: ArraySlice<Int32>, into layer: LayerRows, drawn: RowExtents) {
        let band = layer.clip
        var restDrawn = false
        inDrawingOrder(reaching) { triangle, texels in
            if triangle.copied {
                // The cells at rest where their first triangle comes: their pixels are texels as they are.
                if !restDrawn { drawResting(into: layer, texels: texels, drawn: drawn) }
                restDrawn = true
                return
            }
            guard triangle.bottom >= band.y0 && triangle.top < band.y1 else { return }
            let sampler = TriangleSampler(triangle, texels: texels, texture: texture)
            rasterizeSpans(triangle.a.point, triangle.b.point, triangle.c.point, clip: band) { py, first, last, inside, l1, l2, step1, step2 in
                let row = layer.pixels + py * layer.width
                let span = TriangleSampler.Span(first: first, inside: inside, l1: l1, l2: l2, step1: step1, step2: step2)
                var drew = (low: Int.max, high: -1)
                // The span, less the edge pixels on its row (drawn from four samples).
                var x = first
                for range in edges.row(py) where range.last >= x && range.first <= last {
                    if range.first > x { sampler.bilinear(span, row: py, from: x, to: range.first - 1, into: row, drew: &drew) }
                    x = range.last + 1
                }
                if x <= last { sampler.bilinear(span, row: py, from: x, to: last, into: row, drew: &drew) }
                if drew.high >= 0 {
                    drawn.touch(drew.low, py - band.y0)
                    drawn.touch(drew.high, py - band.y0)
                }
            }
        }
    }

    /// Draws the pixels of `layer` where cells lie at rest: the texels as they
    /// are (but for those drawn already, by the lifted cells above).
    private func drawResting(into layer: LayerRows, texels: UnsafeRawPointer, drawn: RowExtents) {
        let band = layer.clip
        let width = texture.width
        for run in atRest {
            let (x0, x1) = (max(run.left, band.x0), min(run.right, band.x1 - 1)), (y0, y1) = (max(run.top, band.y0), min(run.bottom, band.y1 - 1))
            guard x0 <= x1 && y0 <= y1 else { continue }
            for y in y0...y1 {
                let row = layer.pixels + y * layer.width, source = texels + ((y - run.shiftY) * width - run.shiftX) * 4
                for x in x0...x1 where row[x] == 0 { row[x] = source.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self) }
                drawn.touch(x0, y - band.y0)
                drawn.touch(x1, y - band.y0)
            }
        }
    }

    /// Draws the edge pixels of `layer`: four samples each (at a quarter and
    /// three quarters across and down), the nearest texel of whatever lies
    /// on top there, averaged. `samples` holds twice the layer's rows and
    /// columns.
    private func drawEdges(_ reaching: ArraySlice<Int32>, into layer: LayerRows, samples: UnsafeMutablePointer<UInt32>, drawn: RowExtents) {
        let band = layer.clip
        guard (band.y0..<band.y1).contains(where: { !edges.row($0).isEmpty }) else { return }
        // The samples on a grid twice as fine, indexed by its pixels.
        let fine = PixelRect(x0: band.x0 * 2, y0: band.y0 * 2, x1: band.x1 * 2, y1: band.y1 * 2)
        let fineWidth = fine.width
        let grid = samples - (fine.y0 * fineWidth + fine.x0)
        for y in band.y0..<band.y1 {
            for range in edges.row(y) {
                for fy in (y * 2)...(y * 2 + 1) { (grid + fy * fineWidth + range.first * 2).update(repeating: 0, count: (range.last - range.first + 1) * 2) }
            }
        }
        inDrawingOrder(reaching) { triangle, texels in
            guard triangle.bottom >= band.y0 && triangle.top < band.y1 else { return }
            // Only triangles that reach an edge pixel of the band.
            let near = (max(triangle.top, band.y0)...min(triangle.bottom, band.y1 - 1)).contains { y in
                edges.row(y).contains { $0.last >= triangle.left && $0.first <= triangle.right }
            }
            guard near else { return }
            let sampler = TriangleSampler(triangle, texels: texels, texture: texture)
            rasterizeSpans((triangle.a.x * 2, triangle.a.y * 2), (triangle.b.x * 2, triangle.b.y * 2), (triangle.c.x * 2, triangle.c.y * 2), clip: fine) { fy, first, last, inside, l1, l2, step1, step2 in
                let span = TriangleSampler.Span(first: first, inside: inside, l1: l1, l2: l2, step1: step1, step2: step2)
                for range in edges.row(fy >> 1) where range.last * 2 + 1 >= first && range.first * 2 <= last {
                    sampler.nearest(span, from: max(first, range.first * 2), to: min(last, range.last * 2 + 1), into: grid + fy * fineWidth)
                }
            }
        }
        // Each edge pixel the mean of its four samples.
        for y in band.y0..<band.y1 {
            let upper = grid + y * 2 * fineWidth, lower = upper + fineWidth, out = layer.pixels + y * layer.width
            for range in edges.row(y) {
                for x in range.first...range.last {
                    out[x] = Self.average(upper[x * 2], upper[x * 2 + 1], lower[x * 2], lower[x * 2 + 1])
                }
                drawn.touch(range.first, y - band.y0)
                drawn.touch(range.last, y - band.y0)
            }
        }
    }

    /// Composites the rows of `layer` (within `area`) over the shadow into `target`.
    private func composite(_ layer: LayerRows, area: PixelRect, alpha: UInt32, drawn: RowExtents, into target: DrawingTarget) {
        for py in layer.clip.y0..<layer.clip.y1 {
            // The columns where the layer drew something, or the shadow falls.
            var (a, b) = drawn.columns(row: py - layer.clip.y0)
            let shade = shadow?.row(py)
            if let shade { (a, b) = (min(a, shade.columns.lowerBound), max(b, shade.columns.upperBound - 1)) }
            let from = max(area.x0, a), to = min(area.x1 - 1, b)
            guard from <= to else { continue }
            let row = layer.pixels + py * layer.width, out = target.row(py)
            var px = from
            while px <= to {
                defer { px += 1 }
                // Eight opaque pixels at once: what the cells drew, whatever lay beneath.
                if alpha == 255 && px + 8 <= to + 1 {
                    let eight = UnsafeRawPointer(row + px).loadUnaligned(as: SIMD8<UInt32>.self)
                    if eight & 0xFF00_0000 == SIMD8(repeating: 0xFF00_0000) {
                        UnsafeMutableRawPointer(out + px).storeBytes(of: eight, as: SIMD8<UInt32>.self)
                        px += 7
                        continue
                    }
                }
                var p = row[px]
                // What the cells drew over the shadow (black): the colour stays, the alpha grows by the darkness of what is left.
                if let shade, p >> 24 != 255, shade.columns.contains(px) {
                    let darkness = shade.darkness(px)
                    if darkness > ShadowMask.faintest {
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

/// Rows of a mesh layer: premultiplied 8-bit RGBA words, indexed by canvas
/// pixel, and the rows and columns that may be written.
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

    /// The columns drawn in row `y`; first > last when none.
    func columns(row y: Int) -> (first: Int, last: Int) {
        high[y] >= 0 ? (Int(low[y]), Int(high[y])) : (Int.max, -1)
    }
}
