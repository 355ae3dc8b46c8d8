import HostContainer

/// A picture content's fast path: where a quad covers its pixels wholly and
/// maps them without perspective, each is sampled (bilinear, premultiplied;
/// from a copy at the drawn size, the same weights along a row, or a single
/// texel on the texel grid, in integers) and blended over the view's
/// background and the canvas with no colour value made on the way.
struct PictureSampler {
    let level: Picture.Level
    let ax: Double, bx: Double, ay: Double, by: Double
    let clips: Bool
    /// The view's background, premultiplied, in byte units (0...255).
    let background: SIMD4<Float>

    /// A pixel word's four bytes as four floats (0...255): each byte is put
    /// in the low bits of 2^23's mantissa and 2^23 taken away, no conversion.
    @inline(__always)
    static func load(_ word: UInt32) -> SIMD4<Float> {
        let bytes = SIMD4<UInt32>(word & 0xFF, (word >> 8) & 0xFF, (word >> 16) & 0xFF, word >> 24)
        return unsafeBitCast(bytes | 0x4B00_0000, to: SIMD4<Float>.self) - 8_388_608
    }

    /// Four floats in byte units (from about 0 to 255) as a pixel word, each
    /// rounded to the nearest (adding 2^23 leaves it in the mantissa's low
    /// bits) and held to 255.
    @inline(__always)
    static func store(_ v: SIMD4<Float>) -> UInt32 {
        let b = unsafeBitCast(v + 8_388_608, to: SIMD4<UInt32>.self) & 0x1FF
        @inline(__always) func byte(_ x: UInt32) -> UInt32 { x > 255 ? 255 : x }
        return byte(b[0]) | byte(b[1]) << 8 | byte(b[2]) << 16 | byte(b[3]) << 24
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
        @inline(__always) func texel(_ offset: Int) -> SIMD4<Float> { Self.load(p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
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
        let backgroundWord = Self.store(background)
        // One texel a pixel along a level row (a picture made at the size it is drawn): the same weights for
        // every pixel, and the texels' offsets a step apart; the row's inside, away from the picture's edges.
        if level, !rowClipped, abs(dpx - 1) < 1e-9 {
            let start = px - 0.5
            let x0 = Int(start.rounded(.down))
            let tx = Float(start - Double(x0))
            let count = last - first + 1
            if x0 >= 0, x0 + count < width {
                var c = x0 * 4
                @inline(__always) func put(_ color: UInt32) {
                    out.pointee = opacity == 255 ? Pixel.over(color, out.pointee) : Pixel.over(Pixel.scaled(color, opacity), out.pointee)
                    out += 1
                }
                if tx == 0 && ty == 0 {
                    // On the texel grid (a view at rest): each pixel is one texel, over the background.
                    let texels = p.advanced(by: rows.0 + c).assumingMemoryBound(to: UInt32.self)
                    if opacity == 255 && backgroundWord >> 24 == 255 {
                        for k in 0..<count { out[k] = Pixel.over(texels[k], backgroundWord) }
                    } else {
                        for k in 0..<count { put(Pixel.over(texels[k], backgroundWord)) }
                    }
                } else {
                    let w = (SIMD4<Float>(repeating: (1 - tx) * (1 - ty)), SIMD4<Float>(repeating: tx * (1 - ty)),
                             SIMD4<Float>(repeating: (1 - tx) * ty), SIMD4<Float>(repeating: tx * ty))
                    for _ in 0..<count {
                        let sampled = texel(rows.0 + c) * w.0 + texel(rows.0 + c + 4) * w.1 + texel(rows.1 + c) * w.2 + texel(rows.1 + c + 4) * w.3
                        put(Pixel.over(Self.store(sampled), backgroundWord))
                        c += 4
                    }
                }
                return
            }
        }
        for _ in first...last {
            var color: UInt32
            if rowClipped || (clips && (px < 0 || px >= Double(width) || py < 0 || py >= Double(height))) {
                color = backgroundWord
            } else {
                if !level {
                    let fy = Float(min(max(py - 0.5, 0), Double(height - 1)))
                    let y0 = Int(fy)
                    rows = (y0 * width * 4, (y0 + 1 < height ? y0 + 1 : y0) * width * 4)
                    ty = fy - Float(y0)
                }
                let fx = Float(min(max(px - 0.5, 0), Double(width - 1)))
                let x0 = Int(fx)
                let c0 = x0 * 4, c1 = (x0 + 1 < width ? x0 + 1 : x0) * 4
                let tx = fx - Float(x0)
                let top = texel(rows.0 + c0) * (1 - tx) + texel(rows.0 + c1) * tx
                let bottom = texel(rows.1 + c0) * (1 - tx) + texel(rows.1 + c1) * tx
                // The picture over the view's background (both premultiplied).
                color = Pixel.over(Self.store(top * (1 - ty) + bottom * ty), backgroundWord)
            }
            out.pointee = Pixel.over(opacity == 255 ? color : Pixel.scaled(color, opacity), out.pointee)
            out += 1
            px += dpx
            py += dpy
        }
    }
}
