import HostContainer

/// Scan conversion of a projected, rounded rectangle: row by row, only the
/// span of pixels its outline can touch is visited. Within a span, pixels
/// near the outline get their coverage from the rounded rectangle's signed
/// distance; the run between them, wholly inside, is drawn without it.
/// Every pixel maps back to the view's plane exactly (no approximation), so
/// a quad looks the same whether its map is affine or in perspective.
///
/// Without perspective a row of pixels is a line of the view's plane: where
/// it is wholly inside the rounded rectangle and each clip, and where it
/// leaves them all, is worked out from the shapes (``Clip/span(u:v:du:dv:level:)``),
/// corners included, so only the pixels a border crosses are worked out one
/// by one. ``drawPixelByPixel(into:area:)`` is the plain definition, every
/// pixel's coverage the product of the shapes': the fast paths draw the same.
extension QuadItem {
    /// Draws the quad; `pixelByPixel` draws a quad with rounded corners or
    /// clips by the plain definition (the reference the look's tests compare with).
    func draw(into target: DrawingTarget, pixelByPixel: Bool = false) {
        var area = bounds.intersection(target.clip)
        for mask in masks { if let b = mask.bounds { area = area.intersection(b) } }
        guard !area.isEmpty else { return }
        let affine = inverse[2] == 0 && inverse[5] == 0 && inverse[8] == 1
        if (pixelByPixel && (radius > 0 || !masks.isEmpty)) || (!affine && !masks.isEmpty) { return drawPixelByPixel(into: target, area: area) }
        // A label whose text is drawn once: the box plain here, the text over it at the end.
        let shader = Shader(background: background, content: textLayer == nil ? content : .none, picture: picture, typeface: typeface,
                            fontSize: fontSize, width: width, height: height, pixelSize: pixelSize)
        defer {
            if let textLayer {
                let (left, top) = (pixel(h[6], .toNearestOrAwayFromZero) + textLayer.x, pixel(h[7], .toNearestOrAwayFromZero) + textLayer.y)
                let layer = PixelRect(x0: left, y0: top, x1: left + textLayer.width, y1: top + textLayer.height)
                textLayer.draw(left: left, top: top, alpha: UInt32(min(max(alpha, 0), 1) * 255 + 0.5),
                               box: background.alpha >= 1 ? Pixel.premultiplied(background) : nil, covers: layer.intersection(cover) == layer,
                               into: target, clip: area)
            }
        }
        // Nothing of the box itself to draw (a label over nothing): only its text.
        if shader.isPlain && background.alpha <= 0 { return }
        let e = 0.5 * pixelSize
        // Outside the rectangle grown by half a pixel nothing is covered; inside
        // it shrunk by the corner radius and half a pixel, everything is.
        let outer = polygon(-e, -e, width + e, height + e)
        let inset = radius + e
        let inner = width > 2 * inset && height > 2 * inset ? polygon(inset, inset, width - inset, height - inset) : nil
        // A plain quad's colour, premultiplied: its covered runs are blended as words (stored when opaque).
        let constant: UInt32? = shader.isPlain && background.alpha > 0 ? Self.word(background, alpha: alpha) : nil
        let inv = inverse
        let upright = masks.isEmpty && h[1] == 0 && h[3] == 0 && h[2] == 0 && h[5] == 0 && h[8] == 1 && h[0] != 0 && h[4] != 0
        // Turned or cut to clips, without perspective: each row's spans worked out from the shapes.
        let shapes = affine && !upright ? [outline] + masks : []
        // A plain upright quad's rows between its corners are alike (coverage then depends on the column
        // alone): the first such row's edge pixels are kept, as words, for the others.
        var edges: (first: Int, innerFirst: Int, innerLast: Int, last: Int, words: [UInt32])?
        let straight = max(radius, 0) + 0.5 * pixelSize
        // A picture without perspective: one sampler for the quad, which keeps the texels its columns read.
        let sampler = affine ? shader.pictureSampler : nil
        // Upright, the outline's span is the same on every row it crosses: found once. So is the covered run
        // of every row whose centre lies a pixel or more within the straight part of the sides (away from
        // rounded corners and the top and bottom edges), found at the first such row.
        var uprightSpan: (first: Int, last: Int, top: Double, bottom: Double)?
        var straightRun: (Int, Int)?
        let straightRows: Range<Double> = {
            let e = 0.5 * pixelSize, centre = max(radius, e)
            guard upright, centre < height - centre else { return 0..<0 }
            let (top, bottom) = (centre * h[4] + h[7], (height - centre) * h[4] + h[7])
            let (low, high) = (min(top, bottom) + 1, max(top, bottom) - 1)
            return low < high ? low..<high : 0..<0
        }()
        if upright, let outer {
            let (xs, ys) = (outer.map(\.0), outer.map(\.1))
            uprightSpan = (max(area.x0, ceilInt(xs.min()! - 0.5) - 1), min(area.x1 - 1, floorInt(xs.max()! - 0.5) + 1), ys.min()!, ys.max()!)
        }
        var py = area.y0 - 1
        while py + 1 < area.y1 {
            py += 1
            let y = Double(py) + 0.5
            var first = area.x0, last = area.x1 - 1
            // Where every shape is whole (coverage 1), and beyond which one is missed (coverage 0).
            var inside = LineSpan.all, reach = LineSpan.all
            if !shapes.isEmpty {
                for shape in shapes {
                    guard let spans = shape.rowSpans(y) else { inside = .empty; continue }
                    (inside, reach) = (inside.intersection(spans.inside), reach.intersection(spans.reach))
                }
                (first, last) = reach.columns(first, last + 1)
            } else if let uprightSpan {
                guard y >= uprightSpan.top, y <= uprightSpan.bottom else { continue }
                (first, last) = (uprightSpan.first, uprightSpan.last)
            } else if let outer {
                guard let (a, b) = Self.span(outer, y) else { continue }
                first = max(first, ceilInt(a - 0.5) - 1)
                last = min(last, floorInt(b - 0.5) + 1)
            }
            guard first <= last else { continue }
            var innerFirst = last + 1, innerLast = last
            if !shapes.isEmpty {
                (innerFirst, innerLast) = inside.columns(first, last + 1)
            } else if upright, let straight = straightRun, straightRows.contains(y) {
                (innerFirst, innerLast) = straight
            } else if upright {
                // Without rotation the covered run of a row is exact, corners included.
                if let (a, b) = coveredSpan(v: (y - h[7]) / h[4]) {
                    let (x0, x1) = (min(a * h[0], b * h[0]) + h[6], max(a * h[0], b * h[0]) + h[6])
                    innerFirst = max(first, ceilInt(x0 - 0.5 - 1e-9))
                    innerLast = min(last, floorInt(x1 - 0.5 + 1e-9))
                    if innerFirst > innerLast { (innerFirst, innerLast) = (last + 1, last) }
                }
                if straightRows.contains(y) { straightRun = (innerFirst, innerLast) }
            } else if let inner, let (a, b) = Self.span(inner, y, margin: 1e-3) {
                innerFirst = max(first, pixel(a - 0.5 + 1e-3, .up))
                innerLast = min(last, pixel(b - 0.5 - 1e-3, .down))
                if innerFirst > innerLast { (innerFirst, innerLast) = (last + 1, last) }
            }
            let uRow = y * inv[3] + inv[6], vRow = y * inv[4] + inv[7], cRow = y * inv[5] + inv[8]
            if upright, let constant, vRow >= straight, vRow <= height - straight {
                if let kept = edges, kept.first == first, kept.innerFirst == innerFirst, kept.innerLast == innerLast, kept.last == last {
                    // A row in the straight part of the sides is every such row below it: those drawn in one go.
                    var through = py
                    if straightRows.contains(y) {
                        while through + 1 < area.y1 {
                            let next = Double(through + 1) + 0.5, v = next * inv[4] + inv[7]
                            guard straightRows.contains(next), v >= straight, v <= height - straight else { break }
                            through += 1
                        }
                    }
                    kept.words.withUnsafeBufferPointer { words in
                        for r in py...through {
                            let row = target.row(r)
                            for x in first..<innerFirst { row[x] = Pixel.over(words[x - first], row[x]) }
                            target.blend(constant, y: r, from: innerFirst, to: innerLast)
                            for x in (innerLast + 1)..<(last + 1) { row[x] = Pixel.over(words[x - first], row[x]) }
                        }
                    }
                    py = through
                    continue
                }
                var words = [UInt32](repeating: 0, count: last - first + 1)
                for x in first...last where x < innerFirst || x > innerLast {
                    let coverage = roundedRectCoverage((Double(x) + 0.5) * inv[0] + uRow, vRow)
                    words[x - first] = Pixel.premultiplied(r: Float(background.red), g: Float(background.green), b: Float(background.blue),
                                                           a: Float(background.alpha * coverage * alpha))
                }
                edges = (first, innerFirst, innerLast, last, words)
            }
            var px = first
            while px <= last {
                if px == innerFirst {
                    // Wholly covered: the colour alone decides.
                    if let constant {
                        target.blend(constant, y: py, from: innerFirst, to: innerLast)
                    } else if let sampler {
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
                let c = affine ? 1 : x * inv[2] + cRow
                if c > 0 {
                    // An affine map keeps c at 1: no division.
                    let u = affine ? x * inv[0] + uRow : (x * inv[0] + uRow) / c, v = affine ? x * inv[1] + vRow : (x * inv[1] + vRow) / c
                    var coverage = roundedRectCoverage(u, v)
                    if coverage > 0, !masks.isEmpty { coverage *= masks.coverage(x, y) }
                    if coverage > 0, let sampler {
                        // A picture's edge: its premultiplied colour there, scaled by what is covered.
                        let k = UInt32(min(coverage * alpha, 1) * 255 + 0.5)
                        if k > 0 { target.row(py)[px] = Pixel.over(Pixel.scaled(sampler.word(u: u, v: v), k), target.row(py)[px]) }
                    } else if coverage > 0 {
                        let color = shader.color(u: u, v: v, pixelSize: pixelSize)
                        let a = Float(color.alpha * coverage * alpha)
                        if a > 0 { target.blend(x: px, y: py, r: Float(color.red), g: Float(color.green), b: Float(color.blue), a: a) }
                    }
                }
                px += 1
            }
        }
    }

    /// The rounded rectangle as a mask of the quad's plane: where its rows cross it.
    var outline: ClipMask {
        ClipMask(.roundedRect(Rect(x: 0, y: 0, width: width, height: height), CornerRadii(radius)), inverse: inverse, pixelSize: pixelSize,
                 bounds: nil)
    }

    /// Draws the quad cut to its masks (ABI 1.4's clips) by the plain
    /// definition: every pixel its outline may touch mapped back to its
    /// plane, its coverage that of the rounded rectangle times the masks'.
    private func drawPixelByPixel(into target: DrawingTarget, area: PixelRect) {
        let shader = Shader(background: background, content: content, picture: picture, typeface: typeface,
                            fontSize: fontSize, width: width, height: height, pixelSize: pixelSize)
        let inv = inverse
        let outer = polygon(-pixelSize, -pixelSize, width + pixelSize, height + pixelSize)
        for py in area.y0..<area.y1 {
            let y = Double(py) + 0.5
            var (first, last) = (area.x0, area.x1 - 1)
            if let outer {
                guard let (a, b) = Self.span(outer, y) else { continue }
                (first, last) = (max(first, ceilInt(a - 0.5) - 1), min(last, floorInt(b - 0.5) + 1))
            }
            guard first <= last else { continue }
            for px in first...last {
                let x = Double(px) + 0.5
                let c = x * inv[2] + y * inv[5] + inv[8]
                guard c > 0 else { continue }
                let u = (x * inv[0] + y * inv[3] + inv[6]) / c, v = (x * inv[1] + y * inv[4] + inv[7]) / c
                var coverage = roundedRectCoverage(u, v)
                if coverage > 0 { coverage *= masks.coverage(x, y) }
                guard coverage > 0 else { continue }
                let color = shader.color(u: u, v: v, pixelSize: pixelSize)
                let a = Float(color.alpha * coverage * alpha)
                if a > 0 { target.blend(x: px, y: py, r: Float(color.red), g: Float(color.green), b: Float(color.blue), a: a) }
            }
        }
    }

    /// The points of row `v` of the view's plane whose pixel is wholly in the
    /// rounded rectangle (its coverage, below, is 1): those at least half a
    /// pixel inside it, the rectangle shrunk by half a pixel with its corners'
    /// radius shrunk as much. Nil when there are none.
    @inline(__always)
    private func coveredSpan(v: Double) -> (Double, Double)? {
        let e = 0.5 * pixelSize
        guard v >= e, v <= height - e else { return nil }
        let centre = max(radius, e), shrunk = radius - e
        let dy = v < centre ? centre - v : v > height - centre ? v - (height - centre) : 0
        var inset = e
        if dy > 0 {
            guard shrunk > 0, dy <= shrunk else { return nil }
            inset = centre - (shrunk * shrunk - dy * dy).squareRoot()
        }
        return inset < width - inset ? (inset, width - inset) : nil
    }

    /// How much of a pixel `pixelSize` points wide centred at (u, v) lies in the
    /// rounded rectangle, from its signed distance.
    @inline(__always)
    private func roundedRectCoverage(_ u: Double, _ v: Double) -> Double {
        let w = width, h = height, r = radius
        let qx = abs(u - w / 2) - (w / 2 - r), qy = abs(v - h / 2) - (h / 2 - r)
        // Beside a side rather than a corner the distance outside is along one axis: no square root.
        let outside = qx > 0 && qy > 0 ? (qx * qx + qy * qy).squareRoot() : max(qx, qy, 0)
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
