import GraphicsShims
import HostContainer

/// A picture content's fast path: where a quad covers its pixels wholly and
/// maps them without perspective, each is sampled (bilinear, premultiplied,
/// in integers with weights in 256ths, as pixman's; from a copy at the drawn
/// size, the same weights along a row, or a single texel on the texel grid) and blended over the view's
/// background and the canvas with no colour value made on the way.
struct PictureSampler {
    let level: Picture.Level
    let ax: Double, bx: Double, ay: Double, by: Double
    let clips: Bool
    /// The view's background, a premultiplied word.
    let background: UInt32
    /// Where a quad's pixel columns read the picture, and rows to work in, kept from row to row of one draw.
    let columns = Columns()

    /// `count` words of row `a` mixed with row `b` into `out`, by `f` / 256
    /// throughout or, given `weights`, each by its own: in vector lanes (C:
    /// AVX2 where the processor has it, else SSE2), as ``Pixel/mix(_:_:_:)`` mixes one.
    @inline(__always)
    static func mix(rows a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int, by f: UInt32 = 0, weights: UnsafePointer<UInt32>? = nil,
                    into out: UnsafeMutablePointer<UInt32>) {
        graphics_mix_rows32(a, b, count, f, weights, out)
    }

    /// Blends pixels `first` to `last` of row `y`, whose first pixel centre maps to (u, v) of
    /// the view and each next one (du, dv) further, at opacity `alpha`.
    func blendRow(from first: Int, to last: Int, y: Int, u: Double, du: Double, v: Double, dv: Double, alpha: Float,
                  into target: DrawingTarget) {
        let width = level.width, height = level.height
        let p = UnsafeRawPointer(level.pixels.baseAddress.unsafelyUnwrapped)
        var px = u * ax + bx, py = v * ay + by
        let dpx = du * ax, dpy = dv * ay
        var out = target.row(y) + first
        // The row's rows of texels, when it runs level (no rotation): worked out once.
        let level = dpy == 0
        var rows = (0, 0), ty: Float = 0
        if level {
            let fy = Float(min(max(py - 0.5, 0), Double(height - 1)))
            let y0 = Int(fy)
            rows = (y0 * width * 4, (y0 + 1 < height ? y0 + 1 : y0) * width * 4)
            ty = fy - Float(y0)
        }
        let rowClipped = clips && (py < 0 || py >= Double(height))
        let opacity = UInt32(min(max(alpha, 0), 1) * 255 + 0.5)
        guard opacity > 0 else { return }
        // One texel a pixel along a level row (a picture made at the size it is drawn): the same weights for
        // every pixel, and the texels' offsets a step apart; the row's inside, away from the picture's edges.
        if level, !rowClipped, abs(dpx - 1) < 1e-9 {
            let start = px - 0.5
            let x0 = Int(start.rounded(.down))
            let tx = Float(start - Double(x0))
            let count = last - first + 1
            // On the texel grid a pixel reads its own texel alone; off it, the next one too.
            if x0 >= 0, x0 + count + (tx == 0 && ty == 0 ? 0 : 1) <= width {
                let c = x0 * 4
                // A word over the pixel at `out + k`, at the quad's opacity.
                @inline(__always) func put(_ color: UInt32, _ k: Int) {
                    out[k] = Pixel.over(opacity == 255 ? color : Pixel.scaled(color, opacity), out[k])
                }
                if tx == 0 && ty == 0 {
                    // On the texel grid (a view at rest): each pixel is one texel, over the background.
                    let texels = p.advanced(by: rows.0 + c).assumingMemoryBound(to: UInt32.self)
                    if opacity == 255 && self.level.opaque {
                        // Opaque texels at full opacity: the row is the picture's, copied.
                        out.update(from: texels, count: count)
                    } else if opacity == 255 && background >> 24 == 255 {
                        for k in 0..<count { out[k] = Pixel.over(texels[k], background) }
                    } else {
                        for k in 0..<count { put(Pixel.over(texels[k], background), k) }
                    }
                } else {
                    // The two rows mixed, then each texel with the next: both in vector lanes, the weights the same throughout.
                    let (fx, fy) = (UInt32(tx * 256 + 0.5), UInt32(ty * 256 + 0.5))
                    let mixed = columns.scratch(2 * (count + 1)), sampled = mixed + count + 1
                    Self.mix(rows: p + rows.0 + c, p + rows.1 + c, count: count + 1, by: fy, into: mixed)
                    Self.mix(rows: UnsafeRawPointer(mixed), UnsafeRawPointer(mixed + 1), count: count, by: fx, into: sampled)
                    if self.level.opaque && opacity == 255 {
                        out.update(from: sampled, count: count)
                    } else if self.level.opaque {
                        Pixel.blend(opaque: sampled, count: count, opacity: opacity, over: out)
                    } else {
                        for k in 0..<count { put(Pixel.over(sampled[k], background), k) }
                    }
                }
                return
            }
        }
        // A level row at any scale (a picture growing or shrinking): the texel position in 16.16 fixed
        // point, stepped; columns held to the picture's edges as the general loop holds them.
        if level, !rowClipped, !clips, abs(dpx) < 65_536, abs(px) < 1e9 {
            let position = Int(((px - 0.5) * 65_536).rounded(.down))
            let step = Int((dpx * 65_536).rounded())
            let wy = UInt32(ty * 256 + 0.5)
            // A pixel is replaced, not blended, where it is opaque: an opaque picture mixes to opaque texels,
            // whatever the background beneath it.
            let replaces = opacity == 255 && (background >> 24 == 255 || self.level.opaque)
            let last0 = (width - 1) << 16
            if self.level.opaque {
                // An opaque picture mixes to opaque texels, whatever the background. Each texel row the quad reads
                // is mixed across once, at its columns (where they are is worked out once for the quad), and kept
                // for the next pixel row, which reads it again as often as not; a pixel row mixes two such rows
                // down in vector lanes, into the row at full opacity, else blended over it.
                let y0 = rows.0 / (width * 4), y1 = rows.1 / (width * 4)
                let (top, bottom) = columns.across(rows: y0, y1, of: p, width: width, start: position, step: step, count: last - first + 1)
                let sampled = opacity == 255 ? out : columns.scratch(last - first + 1)
                Self.mix(rows: UnsafeRawPointer(top), UnsafeRawPointer(bottom), count: last - first + 1, by: wy, into: sampled)
                if opacity < 255 { Pixel.blend(opaque: sampled, count: last - first + 1, opacity: opacity, over: out) }
                return
            }
            // The two texel rows mixed once, over the columns the row reads, then each pixel mixes two of those.
            let ends = (min(max(position, 0), last0) >> 16, min(max(position + step * (last - first), 0), last0) >> 16)
            let low = min(ends.0, ends.1), high = min(max(ends.0, ends.1) + 1, width - 1)
            let mixed = columns.scratch(high - low + 1)
            Self.mix(rows: p + rows.0 + low * 4, p + rows.1 + low * 4, count: high - low + 1, by: wy, into: mixed)
            let texels = mixed - low
            var at = position
            for _ in first...last {
                let held = min(max(at, 0), last0)
                let x0 = held >> 16
                let wx = UInt32(((held & 0xFFFF) + 128) >> 8)
                let color = Pixel.over(Pixel.mix(texels[x0], texels[x0 + 1 < width ? x0 + 1 : x0], wx), background)
                out.pointee = replaces ? color : Pixel.over(opacity == 255 ? color : Pixel.scaled(color, opacity), out.pointee)
                out += 1
                at += step
            }
            return
        }
        for _ in first...last {
            let color = rowClipped ? background : texel(px, py)
            out.pointee = Pixel.over(opacity == 255 ? color : Pixel.scaled(color, opacity), out.pointee)
            out += 1
            px += dpx
            py += dpy
        }
    }

    /// The view's colour at (u, v) of its points, premultiplied: the picture
    /// sampled there over the background (the background alone outside a
    /// picture that does not fill the view). One pixel's worth of
    /// ``blendRow(from:to:y:u:du:v:dv:alpha:into:)``, for an edge pixel.
    @inline(__always)
    func word(u: Double, v: Double) -> UInt32 { texel(u * ax + bx, v * ay + by) }

    /// The level sampled bilinear at (px, py) of its pixels, over the background.
    @inline(__always)
    private func texel(_ px: Double, _ py: Double) -> UInt32 {
        let width = level.width, height = level.height
        if clips && (px < 0 || px >= Double(width) || py < 0 || py >= Double(height)) { return background }
        let p = UnsafeRawPointer(level.pixels.baseAddress.unsafelyUnwrapped)
        @inline(__always) func word(_ offset: Int) -> UInt32 { p.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        let fy = Float(min(max(py - 0.5, 0), Double(height - 1)))
        let y0 = Int(fy)
        let rows = (y0 * width * 4, (y0 + 1 < height ? y0 + 1 : y0) * width * 4)
        let fx = min(max(px - 0.5, 0), Double(width - 1))
        let x0 = Int(fx)
        let c0 = x0 * 4, c1 = (x0 + 1 < width ? x0 + 1 : x0) * 4
        let (wx, wy) = (UInt32((fx - Double(x0)) * 256 + 0.5), UInt32((fy - Float(y0)) * 256 + 0.5))
        let top = Pixel.mix(word(rows.0 + c0), word(rows.0 + c1), wx), bottom = Pixel.mix(word(rows.1 + c0), word(rows.1 + c1), wx)
        // The picture over the view's background (both premultiplied).
        return Pixel.over(Pixel.mix(top, bottom, wy), background)
    }
}

/// Where each pixel column of an upright quad reads a picture: its two
/// texels (the texel position in 16.16 fixed point, held to the picture's
/// edges, the right one held too) and the right one's weight in 256ths. The
/// same on every row of the quad, so worked out once per quad drawn; and
/// the rows a draw works in, kept so that no row allocates. One per quad
/// and band: not thread-safe.
final class Columns {
    private var key: (start: Int, step: Int, count: Int) = (0, 0, -1)
    private var left = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0), right = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    private var weights = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)

    /// Texel rows mixed across at these columns, two kept (row index, words), and words to work in.
    private var kept: [(row: Int, words: UnsafeMutableBufferPointer<UInt32>)] = [(-1, .init(start: nil, count: 0)), (-1, .init(start: nil, count: 0))]
    private var work = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)

    deinit {
        left.deallocate()
        right.deallocate()
        weights.deallocate()
        kept.forEach { $0.words.deallocate() }
        work.deallocate()
    }

    /// At least `count` words to work in, valid until the next call.
    func scratch(_ count: Int) -> UnsafeMutablePointer<UInt32> {
        if work.count < count {
            work.deallocate()
            work = .allocate(capacity: count)
        }
        return work.baseAddress!
    }

    /// Texel rows `y0` and `y1` of the `width`-texel picture at `pixels`, each
    /// mixed across at the columns of ``of(start:step:count:width:)``: the
    /// rows kept from the call before when they are the same (and the columns are).
    func across(rows y0: Int, _ y1: Int, of pixels: UnsafeRawPointer, width: Int, start: Int, step: Int, count: Int)
        -> (UnsafePointer<UInt32>, UnsafePointer<UInt32>) {
        if key != (start, step, count) { kept[0].row = -1; kept[1].row = -1 }
        let (left, right, weights) = of(start: start, step: step, count: count, width: width)
        func row(_ y: Int, keeping other: Int) -> UnsafePointer<UInt32> {
            if let k = kept.firstIndex(where: { $0.row == y }) { return UnsafePointer(kept[k].words.baseAddress!) }
            let k = kept[0].row == other ? 1 : 0
            if kept[k].words.count < count {
                kept[k].words.deallocate()
                kept[k].words = .allocate(capacity: count)
            }
            kept[k].row = y
            let texels = (pixels + y * width * 4).assumingMemoryBound(to: UInt32.self), words = kept[k].words.baseAddress!
            // Each column's two texels gathered, then mixed in vector lanes by their weights.
            let (a, b) = (scratch(2 * count), work.baseAddress! + count)
            for i in 0..<count { (a[i], b[i]) = (texels[Int(left[i])], texels[Int(right[i])]) }
            PictureSampler.mix(rows: UnsafeRawPointer(a), UnsafeRawPointer(b), count: count, weights: weights, into: words)
            return UnsafePointer(words)
        }
        let top = row(y0, keeping: y1)
        return (top, row(y1, keeping: y0))
    }

    /// The columns of `count` pixels whose first texel position is `start`, each next `step` on, in a picture
    /// `width` texels wide; valid until the next call.
    func of(start: Int, step: Int, count: Int, width: Int) -> (left: UnsafePointer<Int32>, right: UnsafePointer<Int32>, weights: UnsafePointer<UInt32>) {
        if key != (start, step, count) {
            key = (start, step, count)
            if left.count < count {
                left.deallocate()
                right.deallocate()
                weights.deallocate()
                (left, right, weights) = (.allocate(capacity: count), .allocate(capacity: count), .allocate(capacity: count))
            }
            let last0 = (width - 1) << 16
            var position = start
            for i in 0..<count {
                let held = min(max(position, 0), last0), x0 = held >> 16
                (left[i], right[i]) = (Int32(x0), Int32(x0 + 1 < width ? x0 + 1 : x0))
                weights[i] = UInt32(((held & 0xFFFF) + 128) >> 8)
                position += step
            }
        }
        return (UnsafePointer(left.baseAddress!), UnsafePointer(right.baseAddress!), UnsafePointer(weights.baseAddress!))
    }
}
