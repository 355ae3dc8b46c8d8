import Foundation
import GraphicsShims
import HostContainer

/// A decoded picture: premultiplied 8-bit RGBA, rows top first, and the same
/// halved again and again (a mipmap chain, made when first needed), so that a
/// picture drawn smaller than it is is averaged rather than aliased. Its
/// pixels never change once made: share it freely between threads. Two
/// pictures are equal when they are the same decode.
public final class Picture: @unchecked Sendable, Equatable {
    public static func == (a: Picture, b: Picture) -> Bool { a === b }

    /// The picture's size in pixels, as decoded.
    public let width: Int, height: Int
    /// Level 0 is the picture; level k is 2^k times smaller, down to one pixel a side.
    private var levels: [Level]
    /// The picture resampled to sizes it is drawn at, pixel for pixel.
    private var sized: [Size: Level] = [:]
    private struct Size: Hashable { let width: Int, height: Int }
    private let lock = NSLock()

    /// One size of the picture. It holds its pixels' storage, so a level in
    /// use stays valid while the picture drops or replaces its copies.
    struct Level {
        let width: Int, height: Int
        let storage: Pixels
        /// Whether every pixel is opaque (every level of an opaque picture is).
        let opaque: Bool
        var pixels: UnsafeMutableBufferPointer<UInt8> { storage.buffer }

        init(width: Int, height: Int, pixels: UnsafeMutableBufferPointer<UInt8>, opaque: Bool, malloced: Bool = false) {
            (self.width, self.height, self.opaque) = (width, height, opaque)
            storage = Pixels(buffer: pixels, malloced: malloced)
        }
    }

    /// Whether every pixel is opaque.
    public var isOpaque: Bool { levels[0].opaque }

    /// Pixel memory, freed when the last level that holds it goes.
    final class Pixels: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        private let malloced: Bool
        init(buffer: UnsafeMutableBufferPointer<UInt8>, malloced: Bool) { (self.buffer, self.malloced) = (buffer, malloced) }
        deinit { if malloced { free(buffer.baseAddress) } else { buffer.deallocate() } }
    }

    /// A picture of `pixels` (`width` × `height`, straight RGBA, malloc'd): it
    /// takes them over, premultiplies them in place and frees them when it goes.
    init(width: Int, height: Int, taking pixels: UnsafeMutablePointer<UInt8>) {
        (self.width, self.height) = (width, height)
        let buffer = UnsafeMutableBufferPointer(start: pixels, count: width * height * 4)
        var opaque = true
        for k in stride(from: 0, to: buffer.count, by: 4) where buffer[k + 3] != 255 {
            let a = UInt32(buffer[k + 3])
            for c in 0..<3 { buffer[k + c] = UInt8((UInt32(buffer[k + c]) * a + 127) / 255) }
            opaque = false
        }
        levels = [Level(width: width, height: height, pixels: buffer, opaque: opaque, malloced: true)]
    }

    /// The picture resampled to exactly `width` × `height` pixels, for a view
    /// that shows it at that size on the canvas, pixel for pixel: made (from
    /// the mipmap level just above it, bilinear) when first asked for and
    /// kept, a few sizes. Which sizes are made depends on the size alone, so
    /// a frame drawn twice is the same frame. Nil for a size larger than the
    /// picture; the picture itself at its own size.
    func resampled(width: Int, height: Int) -> Level? {
        guard width > 0, height > 0, width <= self.width, height <= self.height else { return nil }
        if width == self.width && height == self.height { return levels[0] }
        let size = Size(width: width, height: height)
        lock.lock()
        if let level = sized[size] {
            lock.unlock()
            return level
        }
        lock.unlock()
        let source = level(forFootprint: Double(width) / Double(self.width))
        let out = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width * height * 4)
        let (sx, sy) = (Double(source.width) / Double(width), Double(source.height) / Double(height))
        for y in 0..<height {
            for x in 0..<width {
                let c = source.premultiplied(x: (Double(x) + 0.5) * sx, y: (Double(y) + 0.5) * sy)
                for k in 0..<4 { out[(y * width + x) * 4 + k] = UInt8(min(max(c[k] + 0.5, 0), 255)) }
            }
        }
        let level = Level(width: width, height: height, pixels: out, opaque: levels[0].opaque)
        lock.lock()
        defer { lock.unlock() }
        if let made = sized[size] { return made }
        if sized.count >= 4 { sized.removeAll() }
        sized[size] = level
        return level
    }

    /// The premultiplied colour at (x, y) of level 0, 0 to 255 per channel (for tests and encoders).
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let p = levels[0].pixels, k = (y * width + x) * 4
        return (p[k], p[k + 1], p[k + 2], p[k + 3])
    }

    /// The level to sample when one picture pixel spans `footprint` device pixels
    /// (below 1: the picture is drawn smaller than it is).
    func level(forFootprint footprint: Double) -> Level {
        guard footprint < 0.75, footprint > 0 else { return levels[0] }
        let wanted = min(Int(log2(1 / footprint)), 16)
        lock.lock()
        defer { lock.unlock() }
        while levels.count <= wanted, let last = levels.last, last.width > 1 || last.height > 1 {
            levels.append(Self.halved(last))
        }
        return levels[min(wanted, levels.count - 1)]
    }

    /// `level` halved in each direction, each pixel the mean of the (up to) four beneath it.
    private static func halved(_ level: Level) -> Level {
        let w = max(level.width / 2, 1), h = max(level.height / 2, 1)
        let out = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: w * h * 4)
        let src = level.pixels
        for y in 0..<h {
            let y0 = min(2 * y, level.height - 1), y1 = min(2 * y + 1, level.height - 1)
            for x in 0..<w {
                let x0 = min(2 * x, level.width - 1), x1 = min(2 * x + 1, level.width - 1)
                let a = (y0 * level.width + x0) * 4, b = (y0 * level.width + x1) * 4
                let c = (y1 * level.width + x0) * 4, d = (y1 * level.width + x1) * 4
                for k in 0..<4 {
                    let top = UInt32(src[a + k]) + UInt32(src[b + k])
                    let bottom = UInt32(src[c + k]) + UInt32(src[d + k])
                    out[(y * w + x) * 4 + k] = UInt8((top + bottom + 2) / 4)
                }
            }
        }
        return Level(width: w, height: h, pixels: out, opaque: level.opaque)
    }
}

extension Picture.Level {
    /// The premultiplied colour at (x, y) (centres at half pixels), bilinear, 0 to 255 a channel.
    func premultiplied(x: Double, y: Double) -> SIMD4<Double> {
        let fx = min(max(x - 0.5, 0), Double(width - 1)), fy = min(max(y - 0.5, 0), Double(height - 1))
        let x0 = Int(fx), y0 = Int(fy)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let tx = fx - Double(x0), ty = fy - Double(y0)
        func texel(_ x: Int, _ y: Int) -> SIMD4<Double> {
            let k = (y * width + x) * 4
            return SIMD4(Double(pixels[k]), Double(pixels[k + 1]), Double(pixels[k + 2]), Double(pixels[k + 3]))
        }
        let top = texel(x0, y0) * (1 - tx) + texel(x1, y0) * tx
        let bottom = texel(x0, y1) * (1 - tx) + texel(x1, y1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// The straight colour at (x, y) in this level's pixels (centres at half
    /// pixels), bilinear between the four nearest, edges held.
    @inline(__always)
    func color(x: Double, y: Double) -> Color {
        let mixed = premultiplied(x: x, y: y)
        guard mixed[3] > 0 else { return .clear }
        let scale = 1 / mixed[3]
        return Color(red: mixed[0] * scale, green: mixed[1] * scale, blue: mixed[2] * scale, alpha: mixed[3] / 255)
    }
}

/// Why a picture file could not be had, in words for a message.
public struct PictureProblem: Error, Equatable, CustomStringConvertible {
    /// What went wrong, naming what was found ("a folder", "truncated data: ...").
    public let description: String
    /// Whether the system library that decodes the format is missing (the message names its Debian package).
    public let libraryMissing: Bool
}

/// Decoding PNG and JPEG files with the system's libpng16 and libjpeg,
/// loaded at run time.
public enum PictureDecoder {
    /// The largest file read: a picture of the largest size, barely compressed, is well under it.
    public static let maximumFileBytes = 256 << 20

    /// Decodes `bytes`; `library` names the shared library to load instead of the standard one (tests).
    /// - Parameter fitting: the largest size the picture is drawn at, in
    ///   pixels (nil: any): a picture at least twice as large both ways is
    ///   decoded reduced, by the largest whole factor that keeps it at least
    ///   this large (each pixel the mean of a box of the file's), as its rows
    ///   arrive, so that only the reduced picture is ever in memory.
    public static func decode(_ bytes: [UInt8], maximumPixels: Int = ViewContent.maximumPicturePixels,
                              fitting: (width: Int, height: Int)? = nil, library: String? = nil) -> Result<Picture, PictureProblem> {
        guard let format = ViewContent.pictureFormat(of: bytes) else {
            return .failure(PictureProblem(description: "neither a PNG nor a JPEG (its first bytes are neither's)", libraryMissing: false))
        }
        var width: UInt32 = 0, height: UInt32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { data in
            graphics_decode_picture(format == "PNG" ? 0x50 : 0x4A, data.baseAddress, data.count, UInt64(maximumPixels),
                                    UInt32(clamping: fitting?.width ?? 0), UInt32(clamping: fitting?.height ?? 0), library,
                                    &width, &height, &pixels, &message, message.count)
        }
        let said = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch Int(status) {
        case Int(GRAPHICS_OK):
            return .success(Picture(width: Int(width), height: Int(height), taking: pixels!))
        case Int(GRAPHICS_NO_LIBRARY):
            let package = format == "PNG" ? "libpng16-16" : "libjpeg62-turbo"
            return .failure(PictureProblem(description: "a \(format) this system cannot decode: \(said) (apt-get install \(package))",
                                           libraryMissing: true))
        case Int(GRAPHICS_TOO_LARGE):
            return .failure(PictureProblem(
                description: "a \(format) of \(said), more than the \(maximumPixels / 1_000_000) megapixels Segue decodes", libraryMissing: false))
        case Int(GRAPHICS_NO_MEMORY):
            return .failure(PictureProblem(description: "a \(format) too large for the memory at hand (\(said))", libraryMissing: false))
        default:
            return .failure(PictureProblem(description: "a \(format) that is truncated or corrupt (\(said))", libraryMissing: false))
        }
    }
}
