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

    /// The signed distance from (px, py), relative to a box's centre, to the
    /// box of half-sides (hx, hy) with corners of `radius`.
    @inline(__always)
    static func roundedBox(_ px: Double, _ py: Double, _ hx: Double, _ hy: Double, _ radius: Double) -> Double {
        let qx = abs(px) - (hx - radius), qy = abs(py) - (hy - radius)
        let outside = qx > 0 && qy > 0 ? (qx * qx + qy * qy).squareRoot() : max(qx, qy, 0)
        return outside + min(max(qx, qy), 0) - radius
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
    /// its rows' runs there are blended as one colour. Nil when none.
    let whole: [(Double, Double)]?

    static func == (a: Self, b: Self) -> Bool {
        a.silhouette == b.silhouette && a.masks == b.masks && a.dx == b.dx && a.dy == b.dy && a.sigma == b.sigma
            && a.color == b.color && a.alpha == b.alpha && a.bounds == b.bounds
    }

    init?(_ shadow: Shadow, matrix: Transform3D, width: Double, height: Double, cornerRadius: Double, masks: [ClipMask],
          alpha: Double, scale: Double, canvas: PixelRect) {
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
        // The Gaussian's integral across an edge, Φ(-d/σ), by a smootherstep over ±2.6σ (within 0.012 of it).
        let t = min(max(0.5 - d / (5.2 * sigma), 0), 1)
        return t * t * t * (t * (t * 6 - 15) + 10)
    }

    func draw(into target: DrawingTarget) {
        let area = bounds.intersection(target.clip)
        guard !area.isEmpty else { return }
        let (r, g, b) = (Float(color.red), Float(color.green), Float(color.blue))
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
}
