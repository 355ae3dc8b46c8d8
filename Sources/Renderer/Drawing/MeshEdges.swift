/// Where a mesh's surface breaks (its outline and folds, as canvas-pixel
/// segments): for each canvas row, the columns of pixels such a segment
/// crosses, widened by a pixel each side, as sorted ranges that neither
/// overlap nor touch. Only these pixels need more than one sample.
final class EdgePixels: @unchecked Sendable {
    struct Columns { let first: Int, last: Int }
    private let rows: Range<Int>
    /// Row y's ranges are `ranges[start[y - rows.lowerBound]..<start[y - rows.lowerBound + 1]]`.
    private let start: UnsafeMutableBufferPointer<Int>
    private let ranges: UnsafeMutableBufferPointer<Columns>

    init(_ segments: [((Double, Double), (Double, Double))], within bounds: PixelRect) {
        rows = bounds.y0..<max(bounds.y1, bounds.y0)
        var marks: [(y: Int, columns: Columns)] = []
        for (p, q) in segments {
            let (top, bottom) = p.1 <= q.1 ? (p, q) : (q, p)
            let low = max(pixel(top.1 - 1e-6, .down), bounds.y0)
            let high = min(pixel(bottom.1 + 1e-6, .down), bounds.y1 - 1)
            guard low <= high else { continue }
            let dy = bottom.1 - top.1
            for y in low...high {
                // The segment's columns within the row (all of it when it runs level).
                var (a, b) = (min(top.0, bottom.0), max(top.0, bottom.0))
                if dy > 1e-9 {
                    let t0 = (max(Double(y), top.1) - top.1) / dy, t1 = (min(Double(y + 1), bottom.1) - top.1) / dy
                    let (x0, x1) = (top.0 + (bottom.0 - top.0) * t0, top.0 + (bottom.0 - top.0) * t1)
                    (a, b) = (min(x0, x1), max(x0, x1))
                }
                let first = max(pixel(a, .down) - 1, bounds.x0), last = min(pixel(b, .down) + 1, bounds.x1 - 1)
                if first <= last { marks.append((y, Columns(first: first, last: last))) }
            }
        }
        // By row, then by first column, then merged.
        marks.sort { ($0.y, $0.columns.first) < ($1.y, $1.columns.first) }
        start = .allocate(capacity: rows.count + 1)
        ranges = .allocate(capacity: marks.count)
        var k = 0, count = 0
        for (offset, y) in rows.enumerated() {
            start[offset] = count
            while k < marks.count && marks[k].y == y {
                let c = marks[k].columns
                if count > start[offset], c.first <= ranges[count - 1].last + 1 {
                    ranges[count - 1] = Columns(first: ranges[count - 1].first, last: max(ranges[count - 1].last, c.last))
                } else {
                    ranges[count] = c
                    count += 1
                }
                k += 1
            }
        }
        start[rows.count] = count
    }

    deinit {
        start.deallocate()
        ranges.deallocate()
    }

    /// Row `y`'s ranges (none outside the mesh's rows).
    @inline(__always)
    func row(_ y: Int) -> UnsafeBufferPointer<Columns> {
        guard rows.contains(y) else { return UnsafeBufferPointer(start: nil, count: 0) }
        let offset = y - rows.lowerBound
        return UnsafeBufferPointer(rebasing: ranges[start[offset]..<start[offset + 1]])
    }
}
