/// How a triangle's pixels read its texture: the texture position and the
/// light at its corners, all linear across it.
struct TriangleSampler {
    let u0: Double, u1: Double, u2: Double, v0: Double, v1: Double, v2: Double
    /// The light at the corners as a factor on a texel's bytes, in 255ths.
    let k0: Double, k1: Double, k2: Double
    let texels: UnsafeRawPointer
    let width: Int, height: Int
    /// Every texel opaque: straight and premultiplied alike, and a pixel once drawn is final.
    let opaque: Bool
    let atRest: Bool
    let gradients: MeshLayer.Gradients
    let left: Int, top: Int

    /// Where a span of pixels lies in the triangle (``rasterizeSpans(_:_:_:clip:_:)``'s terms).
    struct Span {
        let first: Int
        let inside: Range<Int>
        let l1: Double, l2: Double, step1: Double, step2: Double
    }

    init(_ triangle: MeshLayer.Triangle, texels: UnsafeRawPointer, texture: MeshTexture) {
        let (a, b, c) = (triangle.a, triangle.b, triangle.c)
        (u0, u1, u2, v0, v1, v2) = (a.u, b.u, c.u, a.v, b.v, c.v)
        (k0, k1, k2) = (a.light * 255, b.light * 255, c.light * 255)
        self.texels = texels
        (width, height, opaque, atRest) = (texture.width, texture.height, texture.opaque, triangle.atRest)
        (gradients, left, top) = (triangle.gradients, triangle.left, triangle.top)
    }

    /// Texel (x, y), premultiplied.
    @inline(__always)
    private func texel(_ x: Int, _ y: Int) -> UInt32 {
        let t = texels.loadUnaligned(fromByteOffset: (y &* width &+ x) &* 4, as: UInt32.self)
        return opaque || t >> 24 == 255 ? t : (Pixel.scaled(t, t >> 24) & 0x00FF_FFFF) | (t & 0xFF00_0000)
    }

    /// `p`'s colour channels times the light `k` (255ths).
    @inline(__always)
    private static func lit(_ p: UInt32, _ k: Float) -> UInt32 {
        (Pixel.scaled(p, UInt32(max(min(k, 255), 0) + 0.5)) & 0x00FF_FFFF) | (p & 0xFF00_0000)
    }

    /// Visits the pixels `a...b` of `span` whose centres lie in the triangle,
    /// with the texture position (texels) and the light there.
    @inline(__always)
    private func walk(_ span: Span, from a: Int, to b: Int, _ body: (_ x: Int, _ u: Double, _ v: Double, _ k: Float) -> Void) {
        let n = Double(a - span.first)
        let (step1, step2) = (span.step1, span.step2)
        var (l1, l2) = (span.l1 + step1 * n, span.l2 + step2 * n)
        var l0 = 1 - l1 - l2
        let step0 = -step1 - step2
        var u = l0 * u0 + l1 * u1 + l2 * u2, v = l0 * v0 + l1 * v1 + l2 * v2
        let du = step0 * u0 + step1 * u1 + step2 * u2, dv = step0 * v0 + step1 * v1 + step2 * v2
        var k = Float(l0 * k0 + l1 * k1 + l2 * k2)
        let dk = Float(step0 * k0 + step1 * k1 + step2 * k2)
        let (w, h) = (Double(width), Double(height))
        for x in a...b {
            defer { l0 += step0; l1 += step1; l2 += step2; u += du; v += dv; k += dk }
            guard span.inside.contains(x) || (l0 >= triangleEpsilon && l1 >= triangleEpsilon && l2 >= triangleEpsilon) else { continue }
            guard u > -1, v > -1, u < w, v < h else { continue }
            body(x, u, v, k)
        }
    }

    /// Draws pixels `a...b` of `span` on row `y` into `row` (indexed by
    /// pixel), each the texture read bilinearly at its centre and lit (a
    /// texel as it is where the triangle lies at rest); `drew` widens to the
    /// pixels drawn. The texture position and the light step along in fixed
    /// point (``MeshLayer/Gradients``): the weights are its bits, and no
    /// float is turned into an integer per pixel.
    @inline(__always)
    func bilinear(_ span: Span, row y: Int, from a: Int, to b: Int, into row: UnsafeMutablePointer<UInt32>, drew: inout (low: Int, high: Int)) {
        let g = gradients, (dx, dy) = (a &- left, y &- top)
        var u = g.u.base &+ g.u.dx &* dx &+ g.u.dy &* dy, v = g.v.base &+ g.v.dx &* dx &+ g.v.dy &* dy
        var k = g.k.base &+ g.k.dx &* dx &+ g.k.dy &* dy
        // Moved on by a texel and a half, the position (u - 0.5, v - 0.5) between texel centres is
        // two texels on from the first's and positive wherever the pixel reads the texture (u > -1).
        let (uLimit, vLimit) = ((width + 1) << 16 + 32768, (height + 1) << 16 + 32768)
        for x in a...b {
            defer { u &+= g.u.dx; v &+= g.v.dx; k &+= g.k.dx }
            if opaque && row[x] != 0 { continue }
            if !span.inside.contains(x) {
                // Near the span's ends: whether the centre lies in the triangle.
                let n = Double(x - span.first), l1 = span.l1 + span.step1 * n, l2 = span.l2 + span.step2 * n
                guard l1 >= triangleEpsilon && l2 >= triangleEpsilon && 1 - l1 - l2 >= triangleEpsilon else { continue }
            }
            guard u > 32768, v > 32768, u < uLimit, v < vLimit else { continue }
            let (tu, tv) = (u >> 16, v >> 16)
            var p: UInt32
            if atRest {
                // The pixel's centre is a texel's (u and v half past whole numbers): that texel, at full light.
                p = texel((u + 32768) >> 16 - 2, (v + 32768) >> 16 - 2)
            } else {
                // The four texels around the centre, mixed by where it lies between theirs.
                let (x0, x1) = (min(max(tu - 2, 0), width - 1), min(max(tu - 1, 0), width - 1))
                let (y0, y1) = (min(max(tv - 2, 0), height - 1), min(max(tv - 1, 0), height - 1))
                let (wu, wv) = (UInt32(truncatingIfNeeded: (u >> 8) & 0xFF), UInt32(truncatingIfNeeded: (v >> 8) & 0xFF))
                let light = UInt32(truncatingIfNeeded: min(max((k &+ 128) >> 8, 0), 255))
                if opaque && x1 == x0 + 1 {
                    // Each row's two texels in one load, mixed four channels at a time.
                    let top = texels.loadUnaligned(fromByteOffset: (y0 &* width &+ x0) &* 4, as: UInt64.self)
                    let bottom = texels.loadUnaligned(fromByteOffset: (y1 &* width &+ x0) &* 4, as: UInt64.self)
                    p = Pixel.bilinear(top, bottom, wu, wv, light: light)
                } else {
                    p = Pixel.mix(Pixel.mix(texel(x0, y0), texel(x1, y0), wu), Pixel.mix(texel(x0, y1), texel(x1, y1), wu), wv)
                    if light < 255 { p = (Pixel.scaled(p, light) & 0x00FF_FFFF) | (p & 0xFF00_0000) }
                }
            }
            guard p >> 24 > 0 else { continue }
            row[x] = Pixel.over(p, row[x])
            drew = (min(drew.low, x), x)
        }
    }

    /// Draws samples `a...b` of `span` into `row` (indexed by sample), each
    /// the nearest texel, lit.
    @inline(__always)
    func nearest(_ span: Span, from a: Int, to b: Int, into row: UnsafeMutablePointer<UInt32>) {
        walk(span, from: a, to: b) { x, u, v, k in
            if opaque && row[x] != 0 { return }
            let p = texel(Int(u), Int(v))
            guard p >> 24 > 0 else { return }
            row[x] = Pixel.over(Self.lit(p, k), row[x])
        }
    }
}
