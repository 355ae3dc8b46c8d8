import Foundation
import Glibc
@testable import HostConfig
import TestSupport
import Testing

@testable import HostContainer
@testable import Renderer

/// The PNG and GIF encoders. Files are decoded independently (TestSupport's
/// decoders): PNG chunks checked and inflated with the system's zlib, GIF
/// blocks parsed and LZW-decoded by a decoder of the tests' own.
struct EncoderTests {
    /// A canvas's pixels as 0x00RRGGBB.
    func rgb(_ canvas: Canvas) -> [UInt32] {
        let bytes = canvas.rgba8
        return (0..<(canvas.width * canvas.height)).map { p in
            UInt32(bytes[p * 4]) << 16 | UInt32(bytes[p * 4 + 1]) << 8 | UInt32(bytes[p * 4 + 2])
        }
    }

    @Test func aPNGRoundTripsThroughZlib() throws {
        var canvas = Canvas(width: 37, height: 23, color: Color(red: 0.2, green: 0.4, blue: 0.6))
        for x in 0..<37 { canvas.blend(x: x, y: x % 23, r: 1, g: 0.5, b: 0, a: Float(x) / 36) }
        let png = try decodePNG(PNG.encode(canvas))
        #expect(png.width == 37 && png.height == 23 && png.chunks == ["IHDR", "IDAT", "IEND"])
        #expect(png.rgba == canvas.rgba8)
    }

    @Test func theBuiltInDeflateForSystemsWithoutZlibInflatesBack() throws {
        // PNG uses libz.so.1 where it is; our own Deflate must still be right where it is not.
        var canvas = Canvas(width: 61, height: 47, color: .white)
        for x in 0..<61 { canvas.blend(x: x, y: (x * 7) % 47, r: 0.1, g: Float(x) / 60, b: 0.9, a: 1) }
        let raw = PNG.filtered(canvas)
        #expect(try Zlib.inflate(Deflate.zlib(raw), size: raw.count) == raw)
        #expect(try Zlib.inflate(try #require(SystemZlib.compress(raw)), size: raw.count) == raw)
    }

    @Test func aGIFHasItsFramesDelaysAndLoopAndStoresOnlyWhatChanged() throws {
        // Few colours, so that every frame's palette is exact; a change confined to a corner.
        func frame(_ k: Int) -> Canvas {
            var c = Canvas(width: 97, height: 61, color: Color(red: 0.2, green: 0.4, blue: 0.6))
            for y in 0..<20 { for x in 0..<30 where (x + y + k) % 3 == 0 { c.blend(x: 60 + x, y: 35 + y, r: 1, g: 0.5, b: 0, a: 1) } }
            return c
        }
        let frames = [frame(0), frame(1), frame(1), frame(2)]
        let gif = try decodeGIF(GIFEncoder.encode(frames: frames, delays: [50, 2, 3, 100]))
        #expect(gif.width == 97 && gif.height == 61 && gif.loops == 0)
        // The repeated frame is merged into the one before, its delay added.
        #expect(gif.delays == [50, 5, 100])
        #expect(gif.frames == [frames[0], frames[1], frames[3]].map(rgb))
        // Frames after the first cover only the changed corner.
        #expect(gif.rects[0] == (0, 0, 97, 61))
        for r in gif.rects.dropFirst() { #expect(r.0 >= 60 && r.1 >= 35 && r.2 <= 30 && r.3 <= 20, "\(r)") }
    }

    @Test func aGIFOfManyColoursGetsAPaletteChosenFromItsFrames() throws {
        // A smooth gradient of 97 × 61 distinct colours: more than a palette holds.
        let frames = (0..<3).map { k in
            var c = Canvas(width: 97, height: 61)
            for y in 0..<61 { for x in 0..<97 {
                c.blend(x: x, y: y, r: Float(x) / 96, g: Float(y) / 60, b: Float(k) / 2, a: 1)
            } }
            return c
        }
        for dither in [false, true] {
            let gif = try decodeGIF(GIFEncoder.encode(frames: frames, delays: [50, 2, 100], dither: dither))
            #expect(gif.frames.count == 3)
            for (decoded, source) in zip(gif.frames, frames.map(rgb)) {
                // Close to the source everywhere: the palette follows the frame's colours.
                var total = 0
                for (a, b) in zip(decoded, source) {
                    let d = [16, 8, 0].map { (shift: UInt32) -> Int in
                        let x = Int((a >> shift) & 0xFF), y = Int((b >> shift) & 0xFF)
                        return abs(x - y)
                    }
                    #expect(d.max()! <= 48, "dither \(dither)")
                    total += d.reduce(0, +)
                }
                #expect(Double(total) / Double(source.count * 3) < 6, "mean error per channel, dither \(dither)")
            }
        }
    }

    @Test func aGIFFrameOfAnotherSizeIsCroppedOrPaddedNotATrap() throws {
        var encoder = GIFEncoder(width: 4, height: 3)
        encoder.add(Canvas(width: 0, height: 0), delay: 10)
        encoder.add(Canvas(width: 9, height: 9, color: .white), delay: 10)
        let gif = try decodeGIF(encoder.finish())
        #expect(gif.frames == [[UInt32](repeating: 0, count: 12), [UInt32](repeating: 0xFFFFFF, count: 12)])
    }

    @Test func aGIFWithoutFrameDifferencesStoresEveryPixel() throws {
        let frames = [Canvas(width: 9, height: 7, color: .white), Canvas(width: 9, height: 7, color: Color(red: 1, green: 0, blue: 0))]
        let gif = try decodeGIF(GIFEncoder.encode(frames: frames, delays: [10, 10], frameDifferences: false))
        #expect(gif.rects.map(\.2) == [9, 9] && gif.frames == frames.map(rgb))
    }

    /// What every encoder reads a frame through: each pixel straight and
    /// packed as 0x00RRGGBB, opaque or not, as the byte-by-byte reading of
    /// the premultiplied bytes gives it. (The first two rows are opaque but
    /// for one pixel: runs of eight opaque pixels are packed at once.)
    @Test func aPackedRowIsEachPixelStraight() {
        var canvas = Canvas(width: 67, height: 5)
        var state: UInt64 = 7
        for i in stride(from: 0, to: canvas.pixels.count, by: 4) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let opaque = i / 4 < 2 * canvas.width && i / 4 % canvas.width != 20
            let alpha = opaque ? 255 : [0, 255, 255, 128, 1, 254][Int(state >> 60) % 6]
            for c in 0..<3 { canvas.pixels[i + c] = UInt8(Int(state >> (8 * UInt64(c) + 8) & 0xFF) * alpha / 255) }
            canvas.pixels[i + 3] = UInt8(alpha)
        }
        for (x0, x1) in [(0, 67), (3, 40), (66, 67)] {
            for y in 0..<canvas.height {
                var out = [UInt32](repeating: 0xDEAD_BEEF, count: x1 - x0)
                out.withUnsafeMutableBufferPointer { canvas.packRow(y, from: x0, to: x1, into: $0.baseAddress!) }
                let expected = (x0..<x1).map { x -> UInt32 in
                    let p = (y * canvas.width + x) * 4
                    let a = UInt32(canvas.pixels[p + 3])
                    func straight(_ c: UInt8) -> UInt32 { a == 0 ? 0 : min((UInt32(c) * 255 + a / 2) / a, 255) }
                    return straight(canvas.pixels[p]) << 16 | straight(canvas.pixels[p + 1]) << 8 | straight(canvas.pixels[p + 2])
                }
                #expect(out == expected, "row \(y), columns \(x0)..<\(x1)")
            }
        }
    }
}
