import Foundation
import HostContainer

/// A view's clip (ABI 1.4's `segue_clip_t`, or its rounded bounds when it
/// masks its subviews), as the pixels of a canvas see it: each pixel maps
/// back to the clipping view's plane exactly, where the shape's signed
/// distance gives an anti-aliased coverage.
struct ClipMask: Equatable, Sendable {
    /// Pixels to the clipping view's plane: [x y 1] × inverse = [U V C].
    let inverse: [Double]
    let shape: Clip
    /// The clipping view's points per pixel, on average over it.
    let pixelSize: Double
    /// The pixels the shape may cover (nil: any, part of it behind the eye).
    let bounds: PixelRect?

    /// The mask of `shape` in the plane of a `width` × `height` view whose
    /// points map to pixels by `matrix`; nil when that plane is degenerate.
    init?(_ shape: Clip, matrix: Transform3D, width: Double, height: Double) {
        let m = matrix.values
        let H = [m[0], m[1], m[3], m[4], m[5], m[7], m[12], m[13], m[15]]
        guard let inverse = invert3(H) else { return nil }
        self.inverse = inverse
        self.shape = shape
        // Points per pixel at the view's centre: how far a pixel step moves in its plane.
        let (cx, cy) = (width / 2, height / 2)
        let W = cx * H[2] + cy * H[5] + H[8]
        let jacobian = abs((H[0] * H[4] - H[1] * H[3])) / max(W * W, 1e-12)
        pixelSize = jacobian > 1e-12 ? 1 / jacobian.squareRoot() : 1
        let r = shape.rect
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (u, v) in [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)] {
            let W = u * H[2] + v * H[5] + H[8]
            guard W > 1e-6 else { x0 = .nan; break }
            let (x, y) = ((u * H[0] + v * H[3] + H[6]) / W, (u * H[1] + v * H[4] + H[7]) / W)
            (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
        }
        bounds = [x0, y0, x1, y1].allSatisfy({ $0.isFinite && abs($0) < 1e9 })
            ? PixelRect(x0: Int(x0.rounded(.down)) - 1, y0: Int(y0.rounded(.down)) - 1, x1: Int(x1.rounded(.up)) + 2, y1: Int(y1.rounded(.up)) + 2)
            : nil
    }

    /// A mask of `shape` in the plane that pixels map to by `inverse`, `pixelSize` of its points a pixel.
    init(_ shape: Clip, inverse: [Double], pixelSize: Double, bounds: PixelRect?) {
        (self.shape, self.inverse, self.pixelSize, self.bounds) = (shape, inverse, pixelSize, bounds)
    }

    /// Whether pixels map to the plane without perspective: a row of pixels is then a line of it, stepped evenly.
    var isAffine: Bool { inverse[2] == 0 && inverse[5] == 0 && inverse[8] == 1 }

    /// Where along the row of pixel centres at height `y` the shape's signed
    /// distance is at most `level` (in the plane's units), as pixel centres' x
    /// (see ``Clip/span(u:v:du:dv:level:)`` for how exact); nil when that
    /// cannot be told (a map in perspective, a shape it does not know).
    @inline(__always)
    func rowSpan(_ y: Double, level: Double) -> LineSpan? {
        guard isAffine else { return nil }
        // Pixel centre (x, y) lies at (u0 + x du, v0 + x dv): the row is a line of the plane, x along it.
        return shape.span(u: y * inverse[3] + inverse[6], v: y * inverse[4] + inverse[7], du: inverse[0], dv: inverse[1], level: level)
    }

    /// The pixel centres of row `y` that are wholly in the shape (``coverage(_:_:)`` is 1
    /// there: half a pixel or more inside it), and those it may cover at all (it is 0
    /// beyond: half a pixel or more outside it); nil when that cannot be told.
    @inline(__always)
    func rowSpans(_ y: Double) -> (inside: LineSpan, reach: LineSpan)? {
        guard let inside = rowSpan(y, level: -0.5 * pixelSize), let reach = rowSpan(y, level: 0.5 * pixelSize) else { return nil }
        return (inside, reach)
    }

    /// Where pixel centre (x, y) lies in the clipping view's plane, or nil behind the eye.
    @inline(__always)
    func point(_ x: Double, _ y: Double) -> (Double, Double)? {
        let c = x * inverse[2] + y * inverse[5] + inverse[8]
        guard c > 1e-9 else { return nil }
        return ((x * inverse[0] + y * inverse[3] + inverse[6]) / c, (x * inverse[1] + y * inverse[4] + inverse[7]) / c)
    }

    /// How much of pixel (x, y) (its centre) lies in the shape.
    @inline(__always)
    func coverage(_ x: Double, _ y: Double) -> Double {
        guard let (u, v) = point(x, y) else { return 0 }
        return min(max(0.5 - shape.distance(u, v) / pixelSize, 0), 1)
    }
}

extension Clip {
    /// The signed distance from (u, v) to the shape's outline: negative inside.
    /// Exact for a rounded rectangle; for an ellipse, the usual first-order
    /// estimate (exact on its axes and for a circle).
    @inline(__always)
    func distance(_ u: Double, _ v: Double) -> Double {
        switch self {
        case .roundedRect(let r, let radii):
            guard r.width > 0, r.height > 0 else { return .infinity }
            let (px, py) = (u - (r.x + r.width / 2), v - (r.y + r.height / 2))
            let radius = px < 0 ? (py < 0 ? radii.topLeft : radii.bottomLeft) : (py < 0 ? radii.topRight : radii.bottomRight)
            return Self.roundedBox(px, py, r.width / 2, r.height / 2, radius)
        case .ellipse(let r):
            guard r.width > 0, r.height > 0 else { return .infinity }
            let (a, b) = (r.width / 2, r.height / 2)
            let (px, py) = (u - (r.x + a), v - (r.y + b))
            let k0 = ((px / a) * (px / a) + (py / b) * (py / b)).squareRoot()
            let k1 = ((px / (a * a)) * (px / (a * a)) + (py / (b * b)) * (py / (b * b))).squareRoot()
            return k1 > 1e-12 ? k0 * (k0 - 1) / k1 : -min(a, b)
        }
    }

    /// The part of the line (u + t du, v + t dv) of the shape's plane where
    /// its signed distance (``distance(_:_:)``) is at most `level`, as values
    /// of t. Exact for a rounded rectangle. For an ellipse, whose distance is
    /// an estimate, a part of those points when `level` is below 0 (the
    /// estimate is surely at most `level` there) and a span holding every one
    /// of them when it is above (the estimate is surely `level` or more
    /// beyond): what a row needs to know which pixels are wholly in and which
    /// wholly out. Nil when it cannot be told (radii beyond a rounded
    /// rectangle's half sides, an infinite line).
    func span(u: Double, v: Double, du: Double, dv: Double, level: Double) -> LineSpan? {
        guard u.isFinite, v.isFinite, du.isFinite, dv.isFinite, level.isFinite, du != 0 || dv != 0 else { return nil }
        switch self {
        case .roundedRect(let r, let radii):
            guard r.width > 0, r.height > 0 else { return LineSpan.empty }  // the distance is infinite everywhere
            let (hx, hy) = (r.width / 2, r.height / 2)
            let most = min(hx, hy)
            func fits(_ radius: Double) -> Bool { radius >= 0 && radius <= most }
            guard fits(radii.topLeft), fits(radii.topRight), fits(radii.bottomRight), fits(radii.bottomLeft) else { return nil }
            // Relative to the centre. Where the distance is at most `level` is the rectangle grown by `level`
            // (shrunk when it is negative), each corner rounded by its radius plus `level` about the same centre
            // as the corner's own (square when that is 0 or less): a convex shape, so one span.
            let (x0, y0) = (u - (r.x + hx), v - (r.y + hy))
            let (ex, ey) = (hx + level, hy + level)
            guard ex > 0, ey > 0 else { return LineSpan.empty }
            // The grown rectangle's span: where |x| <= ex and |y| <= ey.
            var span = LineSpan.slab(x0, du, ex).intersection(LineSpan.slab(y0, dv, ey))
            guard !span.isEmpty else { return LineSpan.empty }
            // An end in a corner's square (beyond its circle's centre both ways) but outside its circle is not in
            // the shape: the line meets the shape where it meets that circle (it leaves the square through the
            // square's inner sides, which lie within the circle, or misses the shape).
            func corner(_ t: Double, entering: Bool) -> Double? {
                let (x, y) = (x0 + t * du, y0 + t * dv)
                let radius = x < 0 ? (y < 0 ? radii.topLeft : radii.bottomLeft) : (y < 0 ? radii.topRight : radii.bottomRight)
                let rounded = radius + level
                let (cx, cy) = (hx - radius, hy - radius)
                guard rounded > 0, abs(x) > cx, abs(y) > cy else { return t }
                let (ox, oy) = (x - (x < 0 ? -cx : cx), y - (y < 0 ? -cy : cy))
                guard ox * ox + oy * oy > rounded * rounded else { return t }
                guard let (a, b) = LineSpan.circle(ox, oy, du, dv, rounded) else { return nil }
                return entering ? t + a : t + b
            }
            guard let from = corner(span.from, entering: true), let to = corner(span.to, entering: false) else { return LineSpan.empty }
            span = LineSpan(from: from, to: to)
            return span.isEmpty ? LineSpan.empty : span
        case .ellipse(let r):
            guard r.width > 0, r.height > 0 else { return LineSpan.empty }
            // The estimate is (k0 - 1) / g with k0 = 1 on the outline and g between 1 / (longer half-axis) and
            // 1 / (shorter one, b) along each ray from the centre: it is at most `level` where k0 <= 1 + level / b
            // when `level` is negative, and at least `level` where k0 >= 1 + level / b when it is positive (exactly
            // so for a circle): inside the ellipse scaled by 1 + level / b.
            let (a, b) = (r.width / 2, r.height / 2)
            let s = 1 + level / min(a, b)
            guard s > 0 else { return LineSpan.empty }
            let (x0, y0) = ((u - (r.x + a)) / (a * s), (v - (r.y + b)) / (b * s))
            guard let (t0, t1) = LineSpan.circle(x0, y0, du / (a * s), dv / (b * s), 1) else { return LineSpan.empty }
            return LineSpan(from: t0, to: t1)
        }
    }

    /// The signed distance from (px, py), relative to a box's centre, to the
    /// box of half-sides (hx, hy) with corners of `radius`.
    @inline(__always)
    static func roundedBox(_ px: Double, _ py: Double, _ hx: Double, _ hy: Double, _ radius: Double) -> Double {
        let qx = abs(px) - (hx - radius), qy = abs(py) - (hy - radius)
        let outside = qx > 0 && qy > 0 ? (qx * qx + qy * qy).squareRoot() : max(qx, qy, 0)
        return outside + min(max(qx, qy), 0) - radius
    }
}

/// An interval of a line's parameter (of pixel centres' x, along a row):
/// from `from` to `to`, both included; empty when `from` is beyond `to`.
struct LineSpan: Equatable {
    var from, to: Double

    static let empty = LineSpan(from: .infinity, to: -.infinity)
    static let all = LineSpan(from: -.infinity, to: .infinity)

    var isEmpty: Bool { !(from <= to) }

    func intersection(_ other: LineSpan) -> LineSpan { LineSpan(from: Swift.max(from, other.from), to: Swift.min(to, other.to)) }

    /// Moved by `d`.
    func offset(by d: Double) -> LineSpan { LineSpan(from: from + d, to: to + d) }

    /// The pixels of columns `x0..<x1` whose centres (x + 0.5) lie in it: first and last, first beyond last when none.
    func columns(_ x0: Int, _ x1: Int) -> (first: Int, last: Int) {
        guard !isEmpty, to - 0.5 >= Double(x0), from - 0.5 <= Double(x1 - 1) else { return (x1, x1 - 1) }
        let first = from - 0.5 > Double(x0) ? ceilInt(from - 0.5) : x0, last = to - 0.5 < Double(x1 - 1) ? floorInt(to - 0.5) : x1 - 1
        return first <= last ? (first, last) : (x1, x1 - 1)
    }

    /// Where |x0 + t d| <= e.
    @inline(__always)
    static func slab(_ x0: Double, _ d: Double, _ e: Double) -> LineSpan {
        if d == 0 { return abs(x0) <= e ? .all : .empty }
        let (a, b) = ((-e - x0) / d, (e - x0) / d)
        return a < b ? LineSpan(from: a, to: b) : LineSpan(from: b, to: a)
    }

    /// Where the point (x0 + t dx, y0 + t dy) lies within `radius` of the origin: its two values of t, nil when it misses.
    @inline(__always)
    static func circle(_ x0: Double, _ y0: Double, _ dx: Double, _ dy: Double, _ radius: Double) -> (Double, Double)? {
        let a = dx * dx + dy * dy, b = x0 * dx + y0 * dy, c = x0 * x0 + y0 * y0 - radius * radius
        let q = b * b - a * c
        guard a > 0, q >= 0 else { return nil }
        let root = q.squareRoot()
        return ((-b - root) / a, (-b + root) / a)
    }
}

extension [ClipMask] {
    /// The product of every mask's coverage at pixel centre (x, y).
    @inline(__always)
    func coverage(_ x: Double, _ y: Double) -> Double {
        var c = 1.0
        for mask in self {
            c *= mask.coverage(x, y)
            if c <= 0 { return 0 }
        }
        return c
    }
}

/// A view's shadow (ABI 1.4's `segue_shadow_t`): its silhouette (its bounds
/// with their corner radius, cut to its clips) blurred by a Gaussian and
/// moved by an offset, drawn under it. The blur is worked out from the
/// silhouette's signed distance (the coverage of a straight edge blurred by
/// a Gaussian, Φ, as a smootherstep), so a pixel costs what a clip's does,
/// whatever the radius; where the shadow is whole it is one colour, and a
/// wide blur is worked out every few pixels and interpolated.
struct ShadowItem: Equatable, Sendable {
    /// The silhouette: the view's rounded bounds, and the clips it is cut to.
    let silhouette: ClipMask
    let masks: [ClipMask]
    /// The offset, in pixels.
    let dx: Double, dy: Double
    /// The Gaussian's deviation in the view's plane (at least a third of a pixel: the edge's anti-aliasing).
    let sigma: Double
    /// The colour, and its opacity times the view's.
    let color: Color
    let alpha: Double
    let bounds: PixelRect
    /// Where, without clips, the shadow is whole (the silhouette shrunk by
    /// its corners and three deviations), projected and moved by the offset:
    /// its rows' runs there are blended as one colour. Nil when none. (In
    /// perspective; without, each row's runs are worked out from the shapes.)
    let whole: [(Double, Double)]?
    /// The outline of the view casting it, when that view paints opaque every
    /// pixel it covers wholly: there (within `masks` too) the shadow is
    /// hidden beneath it and not drawn. Nil when the view does not.
    let caster: ClipMask?

    static func == (a: Self, b: Self) -> Bool {
        a.silhouette == b.silhouette && a.masks == b.masks && a.dx == b.dx && a.dy == b.dy && a.sigma == b.sigma
            && a.color == b.color && a.alpha == b.alpha && a.bounds == b.bounds && a.caster == b.caster
    }

    /// The shadow of a view whose quad (drawn just over it) is `caster`.
    init?(_ shadow: Shadow, matrix: Transform3D, width: Double, height: Double, cornerRadius: Double, masks: [ClipMask],
          alpha: Double, scale: Double, canvas: PixelRect, caster: QuadItem?) {
        let opacity = shadow.color.alpha * alpha
        guard opacity > 0, width > 0, height > 0,
              let silhouette = ClipMask(.roundedRect(Rect(x: 0, y: 0, width: width, height: height), CornerRadii(min(cornerRadius, width / 2, height / 2))),
                                        matrix: matrix, width: width, height: height) else { return nil }
        self.silhouette = silhouette
        self.masks = masks
        (dx, dy) = (shadow.offsetX * scale, shadow.offsetY * scale)
        // A radius in container points: the view's plane has pixelSize × scale of its points to one of them.
        sigma = max(shadow.radius / 2 * silhouette.pixelSize * scale, silhouette.pixelSize / 3)
        color = Color(red: shadow.color.red, green: shadow.color.green, blue: shadow.color.blue)
        self.alpha = opacity
        // The view's projected corners, grown by three deviations, moved by the offset.
        let m = matrix.values
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (u, v) in [(0.0, 0.0), (width, 0), (width, height), (0, height)] {
            let W = u * m[3] + v * m[7] + m[15]
            guard W > 1e-6 else { return nil }
            let (x, y) = ((u * m[0] + v * m[4] + m[12]) / W, (u * m[1] + v * m[5] + m[13]) / W)
            (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
        }
        let grow = 3 * sigma / silhouette.pixelSize + 1
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, max(abs(x0), abs(x1), abs(y0), abs(y1)) < 1e9 else { return nil }
        bounds = PixelRect(x0: Int((x0 + dx - grow).rounded(.down)), y0: Int((y0 + dy - grow).rounded(.down)),
                           x1: Int((x1 + dx + grow).rounded(.up)) + 1, y1: Int((y1 + dy + grow).rounded(.up)) + 1).intersection(canvas)
        if bounds.isEmpty { return nil }
        let inset = min(cornerRadius, width / 2, height / 2) + 3 * sigma
        var inner: [(Double, Double)] = []
        if masks.isEmpty, inset < width / 2, inset < height / 2 {
            for (u, v) in [(inset, inset), (width - inset, inset), (width - inset, height - inset), (inset, height - inset)] {
                let W = u * m[3] + v * m[7] + m[15]
                guard W > 1e-6 else { inner = []; break }
                inner.append(((u * m[0] + v * m[4] + m[12]) / W + dx, (u * m[1] + v * m[5] + m[13]) / W + dy))
            }
        }
        whole = inner.count == 4 ? inner : nil
        self.caster = caster.flatMap { $0.opaque && $0.masks == masks ? $0.outline : nil }
    }

    /// How dark the shadow is at pixel centre (x, y), from 0 to 1 (before its opacity).
    @inline(__always)
    func density(_ x: Double, _ y: Double) -> Double {
        let (sx, sy) = (x - dx, y - dy)
        guard let (u, v) = silhouette.point(sx, sy) else { return 0 }
        var d = silhouette.shape.distance(u, v)
        // The intersection's distance, estimated as the largest of the shapes' (each in its own plane, in the view's units).
        for mask in masks {
            guard let (mu, mv) = mask.point(sx, sy) else { return 0 }
            d = Swift.max(d, mask.shape.distance(mu, mv) * silhouette.pixelSize / mask.pixelSize)
        }
        return Self.blurred(d, sigma: sigma)
    }

    /// How dark a shadow whose silhouette's outline is `d` away (negative
    /// inside) is, from 0 to 1: the Gaussian's integral across an edge,
    /// Φ(-d/σ), by a smootherstep over ±2.6σ (within 0.012 of it). 1 from
    /// 2.6σ inside, 0 from 2.6σ outside.
    @inline(__always)
    static func blurred(_ d: Double, sigma: Double) -> Double {
        smootherstep(min(max(0.5 - d / (5.2 * sigma), 0), 1))
    }

    /// 6t⁵ − 15t⁴ + 10t³: 0 at 0, 1 at 1, flat at both.
    @inline(__always)
    static func smootherstep(_ t: Double) -> Double { t * t * t * (t * (t * 6 - 15) + 10) }

    /// Draws the shadow; `pixelByPixel` by the plain definition, ``density(_:_:)``
    /// at every pixel (the reference the look's tests compare with).
    func draw(into target: DrawingTarget, pixelByPixel: Bool = false) {
        let area = bounds.intersection(target.clip)
        guard !area.isEmpty else { return }
        let (r, g, b) = (Float(color.red), Float(color.green), Float(color.blue))
        if pixelByPixel {
            for py in area.y0..<area.y1 { blend(row: py, from: area.x0, to: area.x1 - 1, into: target) }
            return
        }
        if silhouette.isAffine, masks.allSatisfy(\.isAffine) { return drawRuns(into: target, area: area) }
        // In perspective: where the shadow is whole (`whole`) one colour; elsewhere interpolated between every few pixels.
        // A deviation of several pixels changes little from one pixel to the next.
        let step = max(min(Int(sigma / silhouette.pixelSize / 2), 4), 1)
        let solid = Pixel.premultiplied(r: r, g: g, b: b, a: Float(alpha))
        for py in area.y0..<area.y1 {
            let y = Double(py) + 0.5
            // The run wholly in the shadow: one colour.
            var (first, last) = (area.x1, area.x1 - 1)
            if let whole, let (a, b) = QuadItem.span(whole, y, margin: 1e-3) {
                (first, last) = (max(area.x0, ceilInt(a - 0.5)), min(area.x1 - 1, floorInt(b - 0.5)))
                if first <= last { target.blend(solid, y: py, from: first, to: last) } else { (first, last) = (area.x1, area.x1 - 1) }
            }
            // Elsewhere, as blurred as it is, worked out every `step` pixels and interpolated between.
            var px = area.x0
            var (known, knownAt) = (density(Double(px) + 0.5, y), px)
            while px < area.x1 {
                if px == first {
                    px = last + 1
                    if px < area.x1 { (known, knownAt) = (density(Double(px) + 0.5, y), px) }
                    continue
                }
                let end = min(px + step, first > px ? first : area.x1, area.x1)
                let next = end < area.x1 ? density(Double(end) + 0.5, y) : known
                let span = Double(max(end - knownAt, 1))
                for x in px..<end {
                    let a = Float((known + (next - known) * Double(x - knownAt) / span) * alpha)
                    if a > 1.0 / 512 { target.blend(x: x, y: py, r: r, g: g, b: b, a: a) }
                }
                (known, knownAt, px) = (next, end, end)
            }
        }
    }

    /// Without perspective a row is a line of each shape's plane: where the
    /// shadow is whole (every shape 2.6 deviations or more inside, so the
    /// density is 1), where it is nothing (one shape that far outside: 0) and
    /// where an opaque caster hides it are spans worked out from the shapes
    /// (``ClipMask/rowSpan(_:level:)``). Only its blurred ring is worked out
    /// pixel by pixel, as ``density(_:_:)`` defines it; the whole part is one
    /// colour, ``density(_:_:)``'s 1 there; the hidden part is not drawn.
    private func drawRuns(into target: DrawingTarget, area: PixelRect) {
        let shapes = [silhouette] + masks
        // Whole 2.6 deviations inside every shape; from `faint` outside one, too faint to change a byte (below half
        // of 1/255: ``blend(row:from:to:along:words:into:)`` draws nothing there, nor does the plain definition).
        let faint = (0.5 - Self.faintest(alpha: alpha)) * 5.2 * sigma
        // In each shape's units (a mask's distance counts in the silhouette's scaled by their pixels' sizes).
        let units = shapes.map { $0.pixelSize / silhouette.pixelSize }
        let solid = Pixel.premultiplied(r: Float(color.red), g: Float(color.green), b: Float(color.blue), a: Float(alpha))
        // The colour at each opacity a pixel's is rounded to (the shadow's own at its density, within half of 1/255).
        let words = (0...255).map { Pixel.premultiplied(r: Float(color.red), g: Float(color.green), b: Float(color.blue), a: Float($0) / 255) }
        // Each shape's line along the row being drawn, made anew for each row in the same memory.
        var lines: [Line] = []
        lines.reserveCapacity(shapes.count)
        for py in area.y0..<area.y1 {
            let y = Double(py) + 0.5
            // The shadow's pixel (x, y) is the silhouette's (x - dx, y - dy).
            var whole = LineSpan.all, touched = LineSpan.all
            for (shape, unit) in zip(shapes, units) {
                if let s = shape.rowSpan(y - dy, level: faint * unit) { touched = touched.intersection(s.offset(by: dx)) }
                whole = shape.rowSpan(y - dy, level: -2.6 * sigma * unit).map { whole.intersection($0.offset(by: dx)) } ?? .empty
            }
            let (first, last) = touched.columns(area.x0, area.x1)
            guard first <= last else { continue }
            var hidden = LineSpan.empty
            if let caster, let spans = caster.rowSpans(y) {
                hidden = masks.reduce(spans.inside) { $0.intersection($1.rowSpans(y)?.inside ?? .empty) }
            }
            let (hiddenFirst, hiddenLast) = hidden.columns(first, last + 1)
            let (wholeFirst, wholeLast) = whole.columns(first, last + 1)
            lines.removeAll(keepingCapacity: true)
            for shape in shapes { lines.append(Line(shape, row: y - dy, dx: dx, scale: silhouette.pixelSize / shape.pixelSize)) }
            lines.withUnsafeBufferPointer { lines in words.withUnsafeBufferPointer { words in
                let words = words.baseAddress!
                // The row but for what the caster hides (at most two runs), each blended as one colour where the shadow
                // is whole and pixel by pixel on either side.
                for (a, b) in [(first, min(last, hiddenFirst - 1)), (max(first, hiddenLast + 1), last)] where a <= b {
                    blend(row: py, from: a, to: min(b, wholeFirst - 1), along: lines, words: words, into: target)
                    target.blend(solid, y: py, from: max(a, wholeFirst), to: min(b, wholeLast))
                    blend(row: py, from: max(a, wholeLast + 1), to: b, along: lines, words: words, into: target)
                }
            } }
        }
    }

    /// A shape's part in ``density(_:_:)`` along a row of pixels, without
    /// perspective: pixel x's point in its plane is (u + x du, v + x dv), and
    /// its distance counts `scale` times (in the silhouette's units).
    struct Line {
        let shape: Clip
        let u: Double, v: Double, du: Double, dv: Double, scale: Double

        /// The line of `mask`'s plane the shadow's row at height `y` (moved by the offset) maps to, its pixels `dx` further.
        init(_ mask: ClipMask, row y: Double, dx: Double, scale: Double) {
            let inv = mask.inverse
            // Pixel x's centre is the silhouette's (x + 0.5 - dx, y).
            (shape, self.scale) = (mask.shape, scale)
            (u, v) = ((0.5 - dx) * inv[0] + y * inv[3] + inv[6], (0.5 - dx) * inv[1] + y * inv[4] + inv[7])
            (du, dv) = (inv[0], inv[1])
        }
    }

    /// The smootherstep's t (see ``blurred(_:sigma:)``) below which a shadow
    /// of opacity `alpha` is less than half of 1/255: a pixel there is left as
    /// it is. Found by halving, on the low side.
    static func faintest(alpha: Double) -> Double {
        var (low, high) = (0.0, 1.0)
        for _ in 0..<50 {
            let t = (low + high) / 2
            if smootherstep(t) * alpha * 255 < 0.5 { low = t } else { high = t }
        }
        return low
    }

    /// Blends pixels `first...last` of row `py` each at its ``density(_:_:)``,
    /// the largest of the shapes' distances along `lines`, in the colour of
    /// `words` (the shadow's, premultiplied at each opacity from 0 to 255).
    @inline(__always)
    private func blend(row py: Int, from first: Int, to last: Int, along lines: UnsafeBufferPointer<Line>, words: UnsafePointer<UInt32>,
                       into target: DrawingTarget) {
        guard first <= last else { return }
        let row = target.row(py)
        if lines.count == 1, case .roundedRect(let r, let radii) = lines[0].shape, r.width > 0, r.height > 0 {
            // The silhouette alone, its corners alike: ``Clip/distance(_:_:)``'s rounded box, its centre found once.
            let (hx, hy) = (r.width / 2, r.height / 2)
            let (u, v, du, dv) = (lines[0].u - (r.x + hx), lines[0].v - (r.y + hy), lines[0].du, lines[0].dv)
            for px in first...last {
                let x = Double(px)
                let k = Int(Self.blurred(Clip.roundedBox(u + x * du, v + x * dv, hx, hy, radii.topLeft), sigma: sigma) * alpha * 255 + 0.5)
                if k > 0 { row[px] = Pixel.over(words[k], row[px]) }
            }
            return
        }
        for px in first...last {
            let x = Double(px)
            var d = -Double.infinity
            for line in lines { d = Swift.max(d, line.shape.distance(line.u + x * line.du, line.v + x * line.dv) * line.scale) }
            let k = Int(Self.blurred(d, sigma: sigma) * alpha * 255 + 0.5)
            if k > 0 { row[px] = Pixel.over(words[k], row[px]) }
        }
    }

    /// Blends pixels `first...last` of row `py` each at its ``density(_:_:)``.
    private func blend(row py: Int, from first: Int, to last: Int, into target: DrawingTarget) {
        guard first <= last else { return }
        let (r, g, b) = (Float(color.red), Float(color.green), Float(color.blue))
        let y = Double(py) + 0.5
        for px in first...last {
            let a = Float(density(Double(px) + 0.5, y) * alpha)
            if a > 1.0 / 512 { target.blend(x: px, y: py, r: r, g: g, b: b, a: a) }
        }
    }
}
