import GraphicsShims
import HostContainer

/// An RGBA image in memory: 8 bits a channel, premultiplied, sRGB values
/// blended as they are (as UIKit does), row-major from the top-left: what a
/// window, a terminal or an encoder takes, with no pass of its own where
/// the frame is opaque (every frame over an opaque background is).
/// Not thread-safe: one thread draws into a canvas at a time.
public struct Canvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Premultiplied red, green, blue, alpha per pixel, a byte each.
    public internal(set) var pixels: [UInt8]

    /// A canvas of `width` × `height` filled with `color`.
    public init(width: Int, height: Int, color: Color = .clear) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        let n = self.width * self.height
        let word = Pixel.premultiplied(color)
        pixels = [UInt8](unsafeUninitializedCapacity: n * 4) { buffer, count in
            UnsafeMutableRawPointer(buffer.baseAddress!).bindMemory(to: UInt32.self, capacity: n).update(repeating: word, count: n)
            count = n * 4
        }
    }

    /// The colour at pixel (x, y), un-premultiplied; clear outside the canvas.
    public func color(x: Int, y: Int) -> Color {
        guard x >= 0, y >= 0, x < width, y < height else { return .clear }
        let i = (y * width + x) * 4
        let a = Double(pixels[i + 3])
        guard a > 0 else { return .clear }
        return Color(red: min(Double(pixels[i]) / a, 1), green: min(Double(pixels[i + 1]) / a, 1),
                     blue: min(Double(pixels[i + 2]) / a, 1), alpha: a / 255)
    }

    /// The whole canvas, as a rectangle.
    public var bounds: PixelRect { PixelRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// Fills `rect` (clipped to the canvas) with `color`, replacing what was there.
    public mutating func fill(_ rect: PixelRect, with color: Color) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let word = Pixel.premultiplied(color)
        withTarget(clip: r) { target in
            for y in r.y0..<r.y1 { DrawingTarget.fill(target.row(y) + r.x0, with: word, count: r.width) }
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
        return pixels.withUnsafeMutableBytes { all in
            body(DrawingTarget(pixels: all.baseAddress!.bindMemory(to: UInt32.self, capacity: width * height),
                               width: width, height: height, clip: clip))
        }
    }

    /// Draws `other` with its top-left at (x, y), source over.
    public mutating func draw(_ other: Canvas, atX x: Int, y: Int) {
        let area = PixelRect(x0: x, y0: y, x1: x + other.width, y1: y + other.height).intersection(bounds)
        guard !area.isEmpty else { return }
        other.pixels.withUnsafeBytes { source in
            let words = source.baseAddress!.assumingMemoryBound(to: UInt32.self)
            withTarget(clip: area) { target in
                for row in area.y0..<area.y1 {
                    let from = words + (row - y) * other.width + (area.x0 - x), to = target.row(row) + area.x0
                    for k in 0..<area.width { to[k] = Pixel.over(from[k], to[k]) }
                }
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

    /// Writes row `y` as 8-bit straight-alpha RGBA to `out` (width × 4 bytes):
    /// opaque pixels as they are, others divided by their alpha (rounded).
    func convertRow(_ y: Int, into out: UnsafeMutablePointer<UInt8>) {
        pixels.withUnsafeBufferPointer { all in
            let src = all.baseAddress! + y * width * 4
            out.update(from: src, count: width * 4)
            Pixel.makeStraight(out, count: width)
        }
    }

    /// Writes the pixels of row `y` from column `x0` to `x1` (excluded) as
    /// opaque 0x00RRGGBB (straight colour, alpha dropped) to `out`.
    public func packRow(_ y: Int, from x0: Int, to x1: Int, into out: UnsafeMutablePointer<UInt32>) {
        pixels.withUnsafeBytes { all in
            // A pixel's word is 0xAABBGGRR in memory order: an opaque one's bytes swapped and shifted are 0x00RRGGBB.
            let src = all.baseAddress!.assumingMemoryBound(to: UInt32.self) + y * width
            @inline(__always) func pack(_ x: Int) {
                let word = src[x]
                if word >> 24 == 255 {
                    out[x - x0] = word.byteSwapped >> 8
                } else {
                    // Straight colour: a division only where the frame is not opaque.
                    let a = word >> 24
                    let (r, g, b) = (Pixel.straight(word & 0xFF, a), Pixel.straight(word >> 8 & 0xFF, a), Pixel.straight(word >> 16 & 0xFF, a))
                    out[x - x0] = r << 16 | g << 8 | b
                }
            }
            var x = x0
            // Eight pixels at once where all are opaque (a frame over the live view's black is, throughout).
            while x + 8 <= x1 {
                let eight = UnsafeRawPointer(src + x).loadUnaligned(as: SIMD8<UInt32>.self)
                if eight & 0xFF00_0000 == SIMD8(repeating: 0xFF00_0000) {
                    let packed = (eight & 0xFF) &<< 16 | (eight & 0xFF00) | (eight &>> 16) & 0xFF
                    UnsafeMutableRawPointer(out + (x - x0)).storeBytes(of: packed, as: SIMD8<UInt32>.self)
                } else {
                    for k in x..<(x + 8) { pack(k) }
                }
                x += 8
            }
            for k in x..<x1 { pack(k) }
        }
    }
}

/// One premultiplied RGBA pixel as a 32-bit word in memory order (red in
/// the lowest byte on this little-endian machine), and the integer
/// arithmetic of blending such words: exact to the byte, as pixman's.
enum Pixel {
    /// `color` (straight) premultiplied, each channel rounded to a byte.
    static func premultiplied(_ color: Color) -> UInt32 {
        premultiplied(r: Float(color.red), g: Float(color.green), b: Float(color.blue), a: Float(color.alpha))
    }

    /// The straight colour (r, g, b) at opacity `a`, premultiplied, each channel rounded to a byte.
    @inline(__always)
    static func premultiplied(r: Float, g: Float, b: Float, a: Float) -> UInt32 {
        let a = min(max(a, 0), 1)
        @inline(__always) func byte(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), 1) * a * 255 + 0.5) }
        return byte(r) | byte(g) << 8 | byte(b) << 16 | UInt32(a * 255 + 0.5) << 24
    }

    /// Every channel of `p` times `k` / 255, rounded.
    @inline(__always)
    static func scaled(_ p: UInt32, _ k: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* k &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// `count` opaque words from `source` at opacity `k` / 255 (below 255)
    /// over the words at `out`: `over(scaled(source[i], k), out[i])` each,
    /// in vector lanes (C: SSE2's high-half multiply scales eight channels
    /// in one instruction, which Swift's SIMD types do not reach).
    @inline(__always)
    static func blend(opaque source: UnsafePointer<UInt32>, count: Int, opacity k: UInt32, over out: UnsafeMutablePointer<UInt32>) {
        graphics_blend_opaque32(source, count, k, out)
    }

    /// `a` and `b` (premultiplied words) mixed by `f` / 256 towards `b`
    /// (`f` from 0 to 256), two channels at a time in 16-bit lanes, rounded.
    @inline(__always)
    static func mix(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
        let g = 256 - f
        let rb = (((a & 0x00FF_00FF) &* g &+ (b & 0x00FF_00FF) &* f &+ 0x0080_0080) >> 8) & 0x00FF_00FF
        let ag = (((a >> 8) & 0x00FF_00FF) &* g &+ ((b >> 8) & 0x00FF_00FF) &* f &+ 0x0080_0080) & 0xFF00_FF00
        return rb | ag
    }

    /// Four words mixed bilinearly, `f` / 256 of the way from the first of
    /// each row to the second and `g` / 256 from the top row to the bottom,
    /// then their colour (not alpha) times `light` / 255: each row two
    /// words (the first in the low half), each word spread over 16-bit
    /// lanes of a 64-bit one so that its four channels mix at once, rounded
    /// as ``mix(_:_:_:)`` and ``scaled(_:_:)`` round.
    @inline(__always)
    static func bilinear(_ top: UInt64, _ bottom: UInt64, _ f: UInt32, _ g: UInt32, light: UInt32) -> UInt32 {
        let m: UInt64 = 0x00FF_00FF_00FF_00FF, half: UInt64 = 0x0080_0080_0080_0080
        @inline(__always) func spread(_ w: UInt64) -> UInt64 { (w & 0x00FF_00FF) | ((w >> 8) & 0x00FF_00FF) << 32 }
        @inline(__always) func mix(_ a: UInt64, _ b: UInt64, _ f: UInt64) -> UInt64 { ((a &* (256 - f) &+ b &* f &+ half) >> 8) & m }
        let (f, g) = (UInt64(f), UInt64(g))
        var x = mix(mix(spread(top), spread(top >> 32), f), mix(spread(bottom), spread(bottom >> 32), f), g)
        if light < 255 {
            // Red, blue and green lanes times light / 255; alpha (the top lane) kept.
            let colour: UInt64 = 0x0000_00FF_00FF_00FF
            var c = (x & colour) &* UInt64(light) &+ 0x0000_0080_0080_0080
            c = ((c &+ ((c >> 8) & colour)) >> 8) & colour
            x = c | (x & 0x00FF_0000_0000_0000)
        }
        return UInt32(truncatingIfNeeded: x & 0x00FF_00FF) | UInt32(truncatingIfNeeded: (x >> 32) & 0x00FF_00FF) << 8
    }

    /// A premultiplied channel `c` of a pixel of alpha `a` as a straight one, rounded (0 where `a` is).
    @inline(__always)
    static func straight(_ c: UInt32, _ a: UInt32) -> UInt32 { a == 0 ? 0 : min((c * 255 + a / 2) / a, 255) }

    /// Makes `count` premultiplied RGBA pixels at `bytes` straight, in place:
    /// opaque ones are left as they are (the same either way), the others'
    /// colour divided by their alpha. Whether every one was opaque.
    @discardableResult
    static func makeStraight(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        var opaque = true
        for x in 0..<count where bytes[x * 4 + 3] != 255 {
            opaque = false
            let p = bytes + x * 4, a = UInt32(p[3])
            for c in 0..<3 { p[c] = UInt8(straight(UInt32(p[c]), a)) }
        }
        return opaque
    }

    /// `source` over `destination`, both premultiplied.
    @inline(__always)
    static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let a = source >> 24
        if a == 255 { return source }
        return source &+ scaled(destination, 255 - a)
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

/// Where drawing goes: premultiplied 8-bit RGBA pixels (a word each), and
/// the rectangle that may be written (several targets may share pixels, each
/// with its own rows, when bands of a frame are drawn on several threads).
struct DrawingTarget: @unchecked Sendable {
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int, height: Int
    let clip: PixelRect

    /// The first pixel of row `y`.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { pixels + y * width }

    /// Blends the straight-alpha colour (r, g, b) at opacity `a` over pixel (x, y): source over.
    @inline(__always)
    func blend(x: Int, y: Int, r: Float, g: Float, b: Float, a: Float) {
        let p = pixels + (y * width + x)
        p.pointee = Pixel.over(Pixel.premultiplied(r: r, g: g, b: b, a: a), p.pointee)
    }

    /// Stores `color` in `count` pixels from `p`: the C library's wmemset,
    /// which stores as wide as the processor allows, rather than the loop of
    /// 16-byte stores Swift makes for the baseline x86-64.
    @inline(__always)
    static func fill(_ p: UnsafeMutablePointer<UInt32>, with color: UInt32, count: Int) {
        if count > 0 { graphics_fill32(p, color, count) }
    }

    /// Blends the premultiplied `color` over pixels `x0...x1` of row `y`:
    /// stored when opaque, nothing when clear.
    @inline(__always)
    func blend(_ color: UInt32, y: Int, from x0: Int, to x1: Int) {
        guard x0 <= x1 else { return }
        let a = color >> 24, p = row(y) + x0, count = x1 - x0 + 1
        if a == 255 {
            Self.fill(p, with: color, count: count)
        } else if a > 0 {
            // In C: SSE2's high-half multiply scales eight channels in one instruction, which Swift's SIMD types do not reach.
            graphics_over_color32(p, color, count)
        }
    }

    /// The same pixels, drawn only within `rect` (and this target's clip).
    func clipped(to rect: PixelRect) -> DrawingTarget {
        DrawingTarget(pixels: pixels, width: width, height: height, clip: clip.intersection(rect))
    }
}
