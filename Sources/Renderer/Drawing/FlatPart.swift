import HostContainer

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
    /// The tallest run of whole rows of the mesh's bounds that are copied:
    /// what is drawn beneath the mesh does not show there.
    let cover: PixelRect

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
        var previous: (cells: ClosedRange<Int>, row: Int)?
        for py in area.y0..<area.y1 {
            guard let rowCells = cells(Double(py - shiftY) + 0.25, Double(py - shiftY) + 0.75, size: ch, count: rows) else { continue }
            let row = (py - area.y0) * area.width
            // Rows whose samples fall in the same cells are copied alike.
            if let previous, previous.cells == rowCells {
                copied.withUnsafeMutableBufferPointer { $0.baseAddress!.advanced(by: row).update(from: $0.baseAddress! + previous.row, count: area.width) }
                continue
            }
            previous = (rowCells, row)
            for i in 0..<cols {
                var all = true
                for j in rowCells where !flat[j * cols + i] { all = false }
                columnFlat[i] = all
            }
            for k in 0..<area.width where columnLow[k] >= 0 {
                var all = true
                for i in columnLow[k]...columnHigh[k] where !columnFlat[i] { all = false }
                if all { copied[row + k] = 1 }
            }
        }
        map = copied
        var run = (start: 0, length: 0), best = (start: 0, length: 0)
        for y in area.y0..<area.y1 {
            let row = (y - area.y0) * area.width
            if copied[row..<(row + area.width)].allSatisfy({ $0 != 0 }) {
                run = run.length == 0 ? (y, 1) : (run.start, run.length + 1)
                if run.length > best.length { best = run }
            } else {
                run = (0, 0)
            }
        }
        cover = best.length == 0 ? .empty : PixelRect(x0: area.x0, y0: best.start, x1: area.x1, y1: best.start + best.length)
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
                let out = target.row(y)
                // Opaque texels: straight and premultiplied are the same bytes.
                let words = UnsafeRawPointer(source)
                for x in from..<to where row[x] != 0 { out[x] = words.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) }
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
