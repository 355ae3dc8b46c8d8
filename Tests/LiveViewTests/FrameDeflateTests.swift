import Foundation
import Testing
import TestSupport

@testable import LiveView

/// Kitty's inline frames as zlib streams of their own making (runs of a pixel
/// like its left or upper neighbour as matches, picture rows stored), read
/// back by the system's zlib, which checks the stream and its Adler-32.
struct FrameDeflateTests {
    /// A frame with what drawn frames have: flat fills, a row like the one above, a gradient, noise, edges.
    static func frame(width: Int, height: Int, seed: UInt64) -> [UInt32] {
        var random = SplitMix(seed: seed)
        return (0..<(width * height)).map { i in
            let (x, y) = (i % width, i / width)
            switch (y / 7) % 4 {
            case 0: return x < width / 3 ? 0x2F6FD0 : 0xF4F4F4                                  // flat fills
            case 1: return UInt32(truncatingIfNeeded: x * 255 / max(width, 1)) << 8 | 0x400000    // a gradient
            case 2: return UInt32(truncatingIfNeeded: random.next()) & 0xFFFFFF                   // noise
            default: return x % 5 == 0 ? 0x000000 : 0xE84A3C                                      // short runs
            }
        }
    }

    static func rgb(_ words: [UInt32]) -> [UInt8] {
        words.flatMap { [UInt8(truncatingIfNeeded: $0 >> 16), UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    }

    @Test(arguments: [(1, 1), (3, 2), (40, 30), (397, 211), (1109, 700), (11_000, 3)])
    func theSystemsZlibReadsBackEveryPixel(_ size: (Int, Int)) throws {
        let (width, height) = size
        for seed in [1, 2] as [UInt64] {
            let words = Self.frame(width: width, height: height, seed: seed)
            let stream = FrameDeflate.zlib(words, width: width, height: height)
            #expect(try Zlib.inflate(stream, size: width * height * 3) == Self.rgb(words), "\(width)x\(height), seed \(seed)")
        }
    }

    @Test func aFlatFrameIsSmallAndAPictureIsNotLargerThanItsBytes() throws {
        let (width, height) = (886, 1920)
        let flat = [UInt32](repeating: 0x336699, count: width * height)
        let small = FrameDeflate.zlib(flat, width: width, height: height)
        #expect(try Zlib.inflate(small, size: width * height * 3) == Self.rgb(flat))
        #expect(small.count < width * height * 3 / 100, "\(small.count) bytes for a flat frame")
        var random = SplitMix(seed: 7)
        let noise = (0..<(width * height)).map { _ in UInt32(truncatingIfNeeded: random.next()) & 0xFFFFFF }
        let stored = FrameDeflate.zlib(noise, width: width, height: height)
        #expect(try Zlib.inflate(stored, size: width * height * 3) == Self.rgb(noise))
        #expect(stored.count <= width * height * 3 + height * 8 + 64, "\(stored.count) bytes for noise: stored, not coded")
    }
}

/// A seeded generator (SplitMix64), so that a failure can be replayed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
