import Dispatch
import HostContainer

/// The shadow of a mesh's lifted cells on the plane beneath: each cell's
/// footprint moved down the screen by a quarter of its height, darker the
/// higher it is (up to 0.45 at 40 points), blurred by two box passes whose
/// reach grows with the highest lift; blended as black beneath the cells.
/// It is soft, so it is worked out at half the canvas's resolution (a
/// quarter of the pixels to fill and blur) and read back bilinearly.
struct ShadowMask: @unchecked Sendable {
    /// The blurred darkness over `box`, in pixels twice a canvas pixel's size, rows `width` apart.
    private let mask: UnsafeMutablePointer<Float>
    private let width: Int
    private let box: PixelRect

    /// The shadow of `item`'s lifted cells, nil when none is lifted; worked out
    /// in `parts` at once when large (nil: as many as there are cores). Its
    /// mask is memory of `scratch`'s, valid until the scratch is reset or freed.
    init?(_ item: MeshItem, scratch: DrawingScratch, parts: Int? = nil) {
        let cols = item.columns, rows = item.rows
        guard item.lift > 0.5 else { return nil }
        // The mask's pixels are two canvas pixels wide.
        let reach = max(Int((item.shadowReach / 2).rounded()), 1)
        // Where each vertex's shadow falls on the mask and how dark it is there; the cells lifted, and the box around their footprints.
        let ground = item.vertices.map { p -> ((Double, Double), Double) in
            let (point, dark) = item.ground(p)
            return ((point.0 / 2, point.1 / 2), dark)
        }
        @inline(__always) func index(_ i: Int, _ j: Int) -> Int { j * (cols + 1) + i }
        var lifted: [Int] = []
        var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
        for j in 0..<rows {
            for i in 0..<cols {
                let corners = [index(i, j), index(i + 1, j), index(i + 1, j + 1), index(i, j + 1)]
                guard corners.contains(where: { item.vertices[$0].z > 0.5 }) else { continue }
                for k in corners {
                    let (x, y) = ground[k].0
                    (lo, hi) = ((min(lo.0, x), min(lo.1, y)), (max(hi.0, x), max(hi.1, y)))
                }
                lifted.append(j * cols + i)
            }
        }
        guard lo.0 <= hi.0, lo.1 <= hi.1, lo.0.isFinite, hi.0.isFinite, lo.1.isFinite, hi.1.isFinite else { return nil }
        let grow = Double(2 * reach + 2)
        let full = PixelRect(x0: item.bounds.x0 >> 1, y0: item.bounds.y0 >> 1, x1: (item.bounds.x1 + 1) >> 1, y1: (item.bounds.y1 + 1) >> 1)
        let within = PixelRect(x0: Int(max(lo.0 - grow, Double(full.x0) - 1).rounded(.down)),
                               y0: Int(max(lo.1 - grow, Double(full.y0) - 1).rounded(.down)),
                               x1: Int(min(hi.0 + grow, Double(full.x1) + 1).rounded(.up)) + 1,
                               y1: Int(min(hi.1 + grow, Double(full.y1) + 1).rounded(.up)) + 1).intersection(full)
        guard !within.isEmpty else { return nil }
        // Indexed as if the mask covered the whole canvas; filled and blurred over `within`.
        let w = within.width
        let mask = scratch.zeroed(within.area).baseAddress! - (within.y0 * w + within.x0)
        let (x0, x1, y0, y1) = (within.x0, within.x1 - 1, within.y0, within.y1 - 1)
        let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1)
        // A large shadow is shared out over the cores: its rows, four at a time, to fill and to blur
        // across, then its columns to blur down.
        let parts = within.area >= 16_384 ? max(min(parts ?? ViewRenderer.cores, 8), 1) : 1
        func share(_ count: Int, _ part: Int, step: Int = 1) -> Range<Int> {
            let size = ((count + parts - 1) / parts + step - 1) / step * step
            return min(part * size, count)..<min((part + 1) * size, count)
        }
        func together(_ body: (Int) -> Void) { concurrently(parts, body) }
        let perWindow = 1 / Float(2 * reach + 1)
        // The horizontal pass reads a copy of its rows, four interleaved column by column (floats,
        // read four at a time); the vertical one runs along rows with a running sum per column, the
        // rows it has overwritten but still needs kept in a ring.
        let lines = scratch.zeroed(bw * 4 * parts).baseAddress!
        let sums = scratch.zeroed(bw).baseAddress!
        let ringRows = reach + 1
        let ring = scratch.zeroed(bw * ringRows).baseAddress!
        /// Blurs rows `rows` (of the mask's, from y0) across, with the copy at `lines`.
        func across(_ rows: Range<Int>, lines: UnsafeMutablePointer<Float>) {
            @inline(__always) func line(_ k: Int) -> SIMD4<Float> { UnsafeRawPointer(lines + k * 4).loadUnaligned(as: SIMD4<Float>.self) }
            // Four rows at once, one per vector lane (each lane sums in the order a row alone would),
            // so the running sums do not wait on each other.
            for y in stride(from: y0 + rows.lowerBound, to: y0 + rows.upperBound, by: 4) {
                let count = min(4, y0 + rows.upperBound - y)
                let row = (mask + y * w + x0, mask + (y + min(1, count - 1)) * w + x0, mask + (y + min(2, count - 1)) * w + x0,
                           mask + (y + min(3, count - 1)) * w + x0)
                for k in 0..<bw { (lines[k * 4], lines[k * 4 + 1], lines[k * 4 + 2], lines[k * 4 + 3]) = (row.0[k], row.1[k], row.2[k], row.3[k]) }
                var sum = SIMD4<Float>.zero
                for k in 0...min(reach, bw - 1) { sum += line(k) }
                for k in 0..<bw {
                    let blurred = sum * perWindow
                    row.0[k] = blurred[0]
                    if count > 1 { row.1[k] = blurred[1] }
                    if count > 2 { row.2[k] = blurred[2] }
                    if count > 3 { row.3[k] = blurred[3] }
                    if k + reach + 1 < bw { sum += line(k + reach + 1) }
                    if k - reach >= 0 { sum -= line(k - reach) }
                }
            }
        }
        /// Blurs columns `columns` (of the mask's, from x0) down.
        func down(_ columns: Range<Int>) {
            guard !columns.isEmpty else { return }
            let (c0, n) = (columns.lowerBound, columns.count)
            (sums + c0).update(repeating: 0, count: n)
            for k in 0...min(reach, bh - 1) { for x in columns { sums[x] += mask[(y0 + k) * w + x0 + x] } }
            for k in 0..<bh {
                let row = mask + (y0 + k) * w + x0
                // Keep row k as it was before it is overwritten: row k + reach + 1 will subtract it.
                (ring + (k % ringRows) * bw + c0).update(from: row + c0, count: n)
                for x in columns { row[x] = sums[x] * perWindow }
                if k + reach + 1 < bh { for x in columns { sums[x] += mask[(y0 + k + reach + 1) * w + x0 + x] } }
                if k - reach >= 0 { let old = ring + ((k - reach) % ringRows) * bw; for x in columns { sums[x] -= old[x] } }
            }
        }
        // The footprints, each part its rows, then softened: two box blurs along each axis.
        let drew = UnsafeMutableBufferPointer<Bool>.allocate(capacity: parts)
        defer { drew.deallocate() }
        drew.initialize(repeating: false)
        together { part in
            let rows = share(bh, part, step: 4)
            guard !rows.isEmpty else { return }
            let clip = PixelRect(x0: within.x0, y0: y0 + rows.lowerBound, x1: within.x1, y1: y0 + rows.upperBound)
            for cell in lifted {
                let (i, j) = (cell % cols, cell / cols)
                for half in 0..<2 {
                    let (p, q, r) = half == 0 ? (index(i, j), index(i + 1, j), index(i + 1, j + 1)) : (index(i, j), index(i + 1, j + 1), index(i, j + 1))
                    let (d0, d1, d2) = (ground[p].1, ground[q].1, ground[r].1)
                    rasterizeSpans(ground[p].0, ground[q].0, ground[r].0, clip: clip) { py, first, last, inside, l1, l2, step1, step2 in
                        // The weights and the darkness are linear along the span.
                        var (l1, l2) = (l1, l2)
                        var l0 = 1 - l1 - l2
                        let step0 = -step1 - step2
                        var dark = l0 * d0 + l1 * d1 + l2 * d2
                        let step = step0 * d0 + step1 * d1 + step2 * d2
                        let row = mask + py * w
                        for px in first...last {
                            defer { l0 += step0; l1 += step1; l2 += step2; dark += step }
                            guard inside.contains(px) || (l0 >= triangleEpsilon && l1 >= triangleEpsilon && l2 >= triangleEpsilon) else { continue }
                            let a = Float(dark)
                            if a > row[px] { row[px] = a }
                            drew[part] = true
                        }
                    }
                }
            }
            across(rows, lines: lines + part * bw * 4)
        }
        guard drew.contains(true) else { return nil }
        together { down(share(bw, $0)) }
        together { across(share(bh, $0, step: 4), lines: lines + $0 * bw * 4) }
        together { down(share(bw, $0)) }
        self.mask = mask
        self.width = w
        self.box = within
    }

    /// Darkness below which the shadow does not show.
    static let faintest: Float = 0.002

    /// Canvas row `y` of the shadow: its darkness at each canvas column
    /// (``Row/darkness(_:)``) over `columns`; nil when the shadow does not reach the row.
    func row(_ y: Int) -> Row? {
        guard y >= box.y0 * 2 - 1 && y < box.y1 * 2 else { return nil }
        // The canvas pixel's centre on the mask, y / 2 - 1/4: between the centres of two of its rows.
        let (j, down) = Self.between(y)
        let (upper, lower) = (min(max(j, box.y0), box.y1 - 1), min(max(j + 1, box.y0), box.y1 - 1))
        return Row(upper: UnsafePointer(mask + upper * width), lower: UnsafePointer(mask + lower * width), down: down,
                   first: box.x0, last: box.x1 - 1, columns: (box.x0 * 2 - 1)..<(box.x1 * 2))
    }

    /// Where canvas pixel `k`'s centre lies on the mask, k / 2 - 1/4: past the
    /// centre of mask pixel `index` by `fraction` of the way to the next.
    @inline(__always)
    static func between(_ k: Int) -> (index: Int, fraction: Float) { ((k - 1) >> 1, k & 1 == 0 ? 0.75 : 0.25) }

    /// Two rows of the mask and how far a canvas row lies between them.
    struct Row {
        let upper: UnsafePointer<Float>, lower: UnsafePointer<Float>
        let down: Float
        /// The mask's columns.
        let first: Int, last: Int
        /// The canvas columns the shadow may darken.
        let columns: Range<Int>

        /// The darkness at canvas column `x`: the mask read bilinearly.
        @inline(__always)
        func darkness(_ x: Int) -> Float {
            let (i, across) = ShadowMask.between(x)
            let (left, right) = (min(max(i, first), last), min(max(i + 1, first), last))
            let top = upper[left] + (upper[right] - upper[left]) * across, bottom = lower[left] + (lower[right] - lower[left]) * across
            return top + (bottom - top) * down
        }
    }
}

/// Runs `body` for each of `0..<parts` at once, on as many threads, and
/// returns when all have: each part must touch only memory no other part
/// does (the closure is not checked for it).
private func concurrently(_ parts: Int, _ body: (Int) -> Void) {
    guard parts > 1 else { return body(0) }
    withoutActuallyEscaping(body) { body in
        struct Unchecked: @unchecked Sendable { let body: (Int) -> Void }
        let work = Unchecked(body: body)
        DispatchQueue.concurrentPerform(iterations: parts) { work.body($0) }
    }
}
