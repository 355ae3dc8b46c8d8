import HostContainer

/// Scan conversion of a projected, rounded rectangle: row by row, only the
/// span of pixels its outline can touch is visited. Within a span, pixels
/// near the outline get their coverage from the rounded rectangle's signed
/// distance; the run between them, wholly inside, is drawn without it.
/// Every pixel maps back to the view's plane exactly (no approximation), so
/// a quad looks the same whether its map is affine or in perspective.
extension QuadItem {
    func draw(into target: DrawingTarget) {
        let area = bounds.intersection(target.clip)
        guard !area.isEmpty else { return }
        let shader = Shader(background: background, content: content, picture: picture, typeface: typeface, fontSize: fontSize,
                            width: width, height: height,
                            pixelSize: pixelSize)
        let e = 0.5 * pixelSize
        // Outside the rectangle grown by half a pixel nothing is covered; inside
        // it shrunk by the corner radius and half a pixel, everything is.
        let outer = polygon(-e, -e, width + e, height + e)
        let inset = radius + e
        let inner = width > 2 * inset && height > 2 * inset ? polygon(inset, inset, width - inset, height - inset) : nil
        let constant: (r: Float, g: Float, b: Float, a: Float)? = shader.isPlain && background.alpha > 0
            ? (Float(background.red), Float(background.green), Float(background.blue), Float(background.alpha * alpha)) : nil
        let inv = inverse
        let affine = inv[2] == 0 && inv[5] == 0 && inv[8] == 1
        for py in area.y0..<area.y1 {
            let y = Double(py) + 0.5
            var first = area.x0, last = area.x1 - 1
            if let outer {
                guard let (a, b) = Self.span(outer, y) else { continue }
                first = max(first, Int((a - 0.5).rounded(.up)) - 1)
                last = min(last, Int((b - 0.5).rounded(.down)) + 1)
            }
            guard first <= last else { continue }
            var innerFirst = last + 1, innerLast = last
            if let inner, let (a, b) = Self.span(inner, y, margin: 1e-3) {
                innerFirst = max(first, Int((a - 0.5 + 1e-3).rounded(.up)))
                innerLast = min(last, Int((b - 0.5 - 1e-3).rounded(.down)))
                if innerFirst > innerLast { (innerFirst, innerLast) = (last + 1, last) }
            }
            let uRow = y * inv[3] + inv[6], vRow = y * inv[4] + inv[7], cRow = y * inv[5] + inv[8]
            var px = first
            while px <= last {
                if px == innerFirst {
                    // Wholly covered: the colour alone decides.
                    if let constant {
                        for x in innerFirst...innerLast { target.blend(x: x, y: py, r: constant.r, g: constant.g, b: constant.b, a: constant.a) }
                    } else if affine, let sampler = shader.pictureSampler {
                        // A picture: sampled and blended premultiplied, with no colour made per pixel.
                        let xc = Double(innerFirst) + 0.5
                        sampler.blendRow(from: innerFirst, to: innerLast, y: py, u: xc * inv[0] + uRow, du: inv[0],
                                         v: xc * inv[1] + vRow, dv: inv[1], alpha: Float(alpha), into: target)
                    } else {
                        for x in innerFirst...innerLast {
                            let xc = Double(x) + 0.5
                            // An affine map (no perspective) keeps c at 1: no division.
                            let c = xc * inv[2] + cRow
                            let u = affine ? xc * inv[0] + uRow : (xc * inv[0] + uRow) / c
                            let v = affine ? xc * inv[1] + vRow : (xc * inv[1] + vRow) / c
                            let color = shader.color(u: u, v: v, pixelSize: pixelSize)
                            let a = Float(color.alpha * alpha)
                            guard a > 0 else { continue }
                            target.blend(x: x, y: py, r: Float(color.red), g: Float(color.green), b: Float(color.blue), a: a)
                        }
                    }
                    px = innerLast + 1
                    continue
                }
                let x = Double(px) + 0.5
                let c = x * inv[2] + cRow
                if c > 0 {
                    let u = (x * inv[0] + uRow) / c, v = (x * inv[1] + vRow) / c
                    let coverage = roundedRectCoverage(u, v)
                    if coverage > 0 {
                        let color = shader.color(u: u, v: v, pixelSize: pixelSize)
                        let a = Float(color.alpha * coverage * alpha)
                        if a > 0 { target.blend(x: px, y: py, r: Float(color.red), g: Float(color.green), b: Float(color.blue), a: a) }
                    }
                }
                px += 1
            }
        }
    }

    /// How much of a pixel `pixelSize` points wide centred at (u, v) lies in the
    /// rounded rectangle, from its signed distance.
    @inline(__always)
    private func roundedRectCoverage(_ u: Double, _ v: Double) -> Double {
        let w = width, h = height, r = radius
        let qx = abs(u - w / 2) - (w / 2 - r), qy = abs(v - h / 2) - (h / 2 - r)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        let distance = outside + min(max(qx, qy), 0) - r
        return min(max(0.5 - distance / pixelSize, 0), 1)
    }

    /// The rectangle (u0, v0)–(u1, v1) of the view's plane, projected; nil
    /// when part of it is behind the eye (then every row is scanned whole).
    private func polygon(_ u0: Double, _ v0: Double, _ u1: Double, _ v1: Double) -> [(Double, Double)]? {
        var points: [(Double, Double)] = []
        for (u, v) in [(u0, v0), (u1, v0), (u1, v1), (u0, v1)] {
            guard let p = project(u, v) else { return nil }
            points.append(p)
        }
        return points
    }

    /// Where the line at height `y` crosses a convex polygon: its leftmost
    /// and rightmost points, or nil when it misses (or, with `margin`, comes
    /// within `margin` of a top or bottom vertex).
    @inline(__always)
    static func span(_ polygon: [(Double, Double)], _ y: Double, margin: Double = 0) -> (Double, Double)? {
        var low = Double.infinity, high = -Double.infinity
        var top = Double.infinity, bottom = -Double.infinity
        for i in 0..<polygon.count {
            let (ax, ay) = polygon[i], (bx, by) = polygon[(i + 1) % polygon.count]
            (top, bottom) = (min(top, ay), max(bottom, ay))
            guard (ay <= y && by >= y) || (by <= y && ay >= y) else { continue }
            if ay == by {
                (low, high) = (min(low, ax, bx), max(high, ax, bx))
            } else {
                let x = ax + (y - ay) * (bx - ax) / (by - ay)
                (low, high) = (min(low, x), max(high, x))
            }
        }
        guard low <= high, y >= top + margin, y <= bottom - margin else { return nil }
        return (low, high)
    }
}
