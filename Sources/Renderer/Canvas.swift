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

    /// Blends the straight-alpha colour (r, g, b) at opacity `a` over pixel (x, y): source over.
    @inline(__always)
    mutating func blend(x: Int, y: Int, r: Float, g: Float, b: Float, a: Float) {
        let i = (y * width + x) * 4
        let k = 1 - a
        pixels[i] = r * a + pixels[i] * k
        pixels[i + 1] = g * a + pixels[i + 1] * k
        pixels[i + 2] = b * a + pixels[i + 2] * k
        pixels[i + 3] = a + pixels[i + 3] * k
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
        let n = width * 4
        pixels.withUnsafeBufferPointer { all in
            let src = all.baseAddress! + y * n
            var i = 0
            while i < n {
                let a = min(max(src[i + 3], 0), 1)
                // Opaque pixels, most of a preview, skip the division.
                var k: Float = 255
                if a < 1 { k = a > 0 ? 255 / a : 0 }
                out[i] = UInt8(truncatingIfNeeded: Int32(min(max(src[i] * k, 0), 255) + 0.5))
                out[i + 1] = UInt8(truncatingIfNeeded: Int32(min(max(src[i + 1] * k, 0), 255) + 0.5))
                out[i + 2] = UInt8(truncatingIfNeeded: Int32(min(max(src[i + 2] * k, 0), 255) + 0.5))
                out[i + 3] = UInt8(truncatingIfNeeded: Int32(a * 255 + 0.5))
                i += 4
            }
        }
    }
}
