import HostContainer

/// A picture content's fast path: where a quad covers its pixels wholly and
/// maps them without perspective, each is sampled (bilinear, premultiplied,
/// in single precision; from a copy at the drawn size, the same weights
/// along a row, or a single texel on the texel grid) and blended over the
/// view's background and the canvas with no colour value made on the way.
struct PictureSampler {
    let level: Picture.Level
    let ax: Double, bx: Double, ay: Double, by: Double
    let clips: Bool
    /// The view's background, premultiplied.
    let background: SIMD4<Float>

    /// Blends pixels `first` to `last` of row `y`, whose first pixel centre maps to (u, v) of
    /// the view and each next one (du, dv) further, at opacity `alpha`.
    func blendRow(from first: Int, to last: Int, y: Int, u: Double, du: Double, v: Double, dv: Double, alpha: Float,
                  into target: DrawingTarget) {
        let width = level.width, height = level.height
        let p = UnsafeRawPointer(level.pixels.baseAddress.unsafelyUnwrapped)
        var px = u * ax + bx, py = v * ay + by
        let dpx = du * ax, dpy = dv * ay
        var out = UnsafeMutableRawPointer(target.pixels + (y * target.width + first) * 4)
        // A texel's four bytes as four floats, in one load and one conversion.
        @inline(__always) func texel(_ offset: Int) -> SIMD4<Float> {
            SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)))
        }
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
        // One texel a pixel along a level row (a picture made at the size it is drawn): the same weights for
        // every pixel, and the texels' offsets a step apart; the row's inside, away from the picture's edges.
        if level, !rowClipped, abs(dpx - 1) < 1e-9 {
            let start = px - 0.5
            let x0 = Int(start.rounded(.down))
            let tx = Float(start - Double(x0))
            let count = last - first + 1
            if x0 >= 0, x0 + count < width {
                var c = x0 * 4
                let w = (SIMD4<Float>(repeating: (1 - tx) * (1 - ty)), SIMD4<Float>(repeating: tx * (1 - ty)),
                         SIMD4<Float>(repeating: (1 - tx) * ty), SIMD4<Float>(repeating: tx * ty))
                // Over an opaque background at full opacity the result is opaque: it replaces what is beneath, unread.
                let replaces = alpha >= 1 && background[3] >= 1
                @inline(__always) func put(_ sampled: SIMD4<Float>) {
                    let color = sampled + background * (1 - sampled[3])
                    if replaces {
                        out.storeBytes(of: color, as: SIMD4<Float>.self)
                    } else {
                        let under = out.loadUnaligned(as: SIMD4<Float>.self)
                        out.storeBytes(of: color * alpha + under * (1 - color[3] * alpha), as: SIMD4<Float>.self)
                    }
                    out += 16
                }
                if tx == 0 && ty == 0 {
                    // On the texel grid (a view at rest): each pixel is one texel.
                    for _ in 0..<count {
                        put(texel(rows.0 + c) * (1 / 255))
                        c += 4
                    }
                } else {
                    for _ in 0..<count {
                        put((texel(rows.0 + c) * w.0 + texel(rows.0 + c + 4) * w.1 + texel(rows.1 + c) * w.2
                            + texel(rows.1 + c + 4) * w.3) * (1 / 255))
                        c += 4
                    }
                }
                return
            }
        }
        for _ in first...last {
            var color: SIMD4<Float>
            if rowClipped || (clips && (px < 0 || px >= Double(width) || py < 0 || py >= Double(height))) {
                color = background
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
                let sampled = (top * (1 - ty) + bottom * ty) * (1 / 255)
                // The picture over the view's background (both premultiplied).
                color = sampled + background * (1 - sampled[3])
            }
            let under = out.loadUnaligned(as: SIMD4<Float>.self)
            out.storeBytes(of: color * alpha + under * (1 - color[3] * alpha), as: SIMD4<Float>.self)
            out += 16
            px += dpx
            py += dpy
        }
    }
}
