import HostContainer

/// An RGBA image in memory: premultiplied, sRGB values blended as they are
/// (as UIKit does), row-major from the top-left.
/// Not thread-safe: one thread draws into a canvas at a time.
public struct Canvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Premultiplied red, green, blue, alpha per pixel, each in [0, 1].
    public internal(set) var pixels: [Float]

    /// A canvas of `width` × `height` filled with `color`.
    public init(width: Int, height: Int, color: Color = .clear) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        let a = Float(color.alpha)
        let px: [Float] = [Float(color.red) * a, Float(color.green) * a, Float(color.blue) * a, a]
        let n = self.width * self.height * 4
        pixels = [Float](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = px[i & 3] }
            count = n
        }
    }

    /// The colour at pixel (x, y), un-premultiplied; clear outside the canvas.
    public func color(x: Int, y: Int) -> Color {
        guard x >= 0, y >= 0, x < width, y < height else { return .clear }
        let i = (y * width + x) * 4
        let a = Double(pixels[i + 3])
        guard a > 0 else { return .clear }
        return Color(red: Double(pixels[i]) / a, green: Double(pixels[i + 1]) / a, blue: Double(pixels[i + 2]) / a, alpha: a)
    }

    /// The whole canvas, as a rectangle.
    public var bounds: PixelRect { PixelRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// Fills `rect` (clipped to the canvas) with `color`, replacing what was there.
    public mutating func fill(_ rect: PixelRect, with color: Color) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let a = Float(color.alpha)
        let px = (Float(color.red) * a, Float(color.green) * a, Float(color.blue) * a, a)
        let width = width
        pixels.withUnsafeMutableBufferPointer { all in
            for y in r.y0..<r.y1 {
                var p = all.baseAddress! + (y * width + r.x0) * 4
                for _ in r.x0..<r.x1 {
                    (p[0], p[1], p[2], p[3]) = px
                    p += 4
                }
            }
        }
    }

    /// Blends the straight-alpha colour (r, g, b) at opacity `a` over pixel (x, y): source over.
    mutating func blend(x: Int, y: Int, r: Float, g: Float, b: Float, a: Float) {
        withTarget(clip: bounds) { $0.blend(x: x, y: y, r: r, g: g, b: b, a: a) }
    }

    /// Runs `body` with a target drawing into this canvas's pixels within `clip`.
    mutating func withTarget<T>(clip: PixelRect, _ body: (DrawingTarget) -> T) -> T {
        let (width, height) = (width, height)
        let clip = clip.intersection(bounds)
        return pixels.withUnsafeMutableBufferPointer { all in
            body(DrawingTarget(pixels: all.baseAddress!, width: width, height: height, clip: clip))
        }
    }

    /// Draws `other` with its top-left at (x, y), source over.
    public mutating func draw(_ other: Canvas, atX x: Int, y: Int) {
        for row in 0..<other.height where row + y >= 0 && row + y < height {
            for col in 0..<other.width where col + x >= 0 && col + x < width {
                let s = (row * other.width + col) * 4, d = ((row + y) * width + col + x) * 4
                let k = 1 - other.pixels[s + 3]
                for c in 0..<4 { pixels[d + c] = other.pixels[s + c] + pixels[d + c] * k }
            }
        }
    }

    /// 8-bit straight-alpha RGBA bytes, row by row, for encoders.
    public var rgba8: [UInt8] {
        let stride = width * 4
        return [UInt8](unsafeUninitializedCapacity: stride * height) { out, count in
            for y in 0..<height { convertRow(y, into: out.baseAddress! + y * stride) }
            count = stride * height
        }
    }

    /// Writes row `y` as 8-bit straight-alpha RGBA to `out` (width × 4 bytes).
    /// Rounding is done by adding a half and truncating.
    func convertRow(_ y: Int, into out: UnsafeMutablePointer<UInt8>) {
        pixels.withUnsafeBufferPointer { all in
            let src = all.baseAddress! + y * width * 4
            for x in 0..<width {
                let c = Self.straight8(src + x * 4)
                (out[x * 4], out[x * 4 + 1], out[x * 4 + 2], out[x * 4 + 3]) = (UInt8(c.r), UInt8(c.g), UInt8(c.b), UInt8(c.a))
            }
        }
    }

    /// Writes the pixels of row `y` from column `x0` to `x1` (excluded) as
    /// opaque 0x00RRGGBB (straight colour, alpha dropped) to `out`.
    public func packRow(_ y: Int, from x0: Int, to x1: Int, into out: UnsafeMutablePointer<UInt32>) {
        pixels.withUnsafeBufferPointer { all in
            let src = all.baseAddress! + y * width * 4
            for x in x0..<x1 {
                let p = src + x * 4
                if p[3] >= 1 {
                    // Opaque, most of a frame: no division, the same rounding.
                    @inline(__always) func byte(_ v: Float) -> UInt32 { UInt32(min(max(v * 255, 0), 255) + 0.5) }
                    out[x - x0] = byte(p[0]) << 16 | byte(p[1]) << 8 | byte(p[2])
                } else {
                    let c = Self.straight8(p)
                    out[x - x0] = UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
                }
            }
        }
    }

    /// One premultiplied float pixel as straight 8-bit channels, each in 0...255.
    @inline(__always)
    private static func straight8(_ p: UnsafePointer<Float>) -> (r: Int32, g: Int32, b: Int32, a: Int32) {
        let a = min(max(p[3], 0), 1)
        // Opaque pixels, most of a preview, skip the division.
        var k: Float = 255
        if a < 1 { k = a > 0 ? 255 / a : 0 }
        return (Int32(min(max(p[0] * k, 0), 255) + 0.5), Int32(min(max(p[1] * k, 0), 255) + 0.5),
                Int32(min(max(p[2] * k, 0), 255) + 0.5), Int32(a * 255 + 0.5))
    }
}

/// A rectangle of pixels: columns `x0..<x1`, rows `y0..<y1`.
public struct PixelRect: Equatable, Sendable, CustomStringConvertible {
    public var x0, y0, x1, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }

    /// No pixel.
    public static let empty = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)

    public var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    public var width: Int { max(x1 - x0, 0) }
    public var height: Int { max(y1 - y0, 0) }
    /// How many pixels it holds.
    public var area: Int { width * height }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelRect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    /// The pixels in both (``empty`` when none).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let r = PixelRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
        return r.isEmpty ? .empty : r
    }

    /// The pixels of this rectangle outside `other`, as at most four rectangles.
    func subtracting(_ other: PixelRect) -> [PixelRect] {
        let cut = intersection(other)
        guard !cut.isEmpty else { return isEmpty ? [] : [self] }
        return [PixelRect(x0: x0, y0: y0, x1: x1, y1: cut.y0), PixelRect(x0: x0, y0: cut.y1, x1: x1, y1: y1),
                PixelRect(x0: x0, y0: cut.y0, x1: cut.x0, y1: cut.y1), PixelRect(x0: cut.x1, y0: cut.y0, x1: x1, y1: cut.y1)]
            .filter { !$0.isEmpty }
    }

    public var description: String { isEmpty ? "(empty)" : "\(width)x\(height) at (\(x0), \(y0))" }
}

/// Where drawing goes: premultiplied float RGBA pixels, and the rectangle
/// that may be written (several targets may share pixels, each with its own
/// rows, when bands of a frame are drawn on several threads).
struct DrawingTarget: @unchecked Sendable {
    let pixels: UnsafeMutablePointer<Float>
    let width: Int, height: Int
    let clip: PixelRect

    /// Blends the straight-alpha colour (r, g, b) at opacity `a` over pixel (x, y): source over.
    @inline(__always)
    func blend(x: Int, y: Int, r: Float, g: Float, b: Float, a: Float) {
        let p = pixels + (y * width + x) * 4
        let k = 1 - a
        p[0] = r * a + p[0] * k
        p[1] = g * a + p[1] * k
        p[2] = b * a + p[2] * k
        p[3] = a + p[3] * k
    }

    /// The same pixels, drawn only within `rect` (and this target's clip).
    func clipped(to rect: PixelRect) -> DrawingTarget {
        DrawingTarget(pixels: pixels, width: width, height: height, clip: clip.intersection(rect))
    }
}
