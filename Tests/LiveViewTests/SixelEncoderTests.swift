import Foundation
import Testing

import HostContainer
@testable import LiveView
import Renderer

/// The sixel encoder writes, byte for byte, what the plain reading of the
/// format writes (below: the frame's common colours exactly, the rest
/// dithered; each band, each colour in ascending order, each column's six
/// bits), on frames with many colours, odd sizes and damage that is not
/// cell-aligned: its single pass per band, its tables and its threads only
/// make it faster.
struct SixelEncoderTests {
    /// Sixels as the format describes them, one colour at a time over every pixel of the band.
    static func reference(_ canvas: Canvas, damage: PixelRect, cellWidth: Int, cellHeight: Int) -> [UInt8] {
        var out: [UInt8] = []
        let x0 = damage.x0 / cellWidth * cellWidth, y0 = damage.y0 / cellHeight * cellHeight
        let x1 = min((damage.x1 + cellWidth - 1) / cellWidth * cellWidth, canvas.width)
        let y1 = min((damage.y1 + cellHeight - 1) / cellHeight * cellHeight, canvas.height)
        let (w, h) = (x1 - x0, y1 - y0)
        out += Array("\u{1B}[\(y0 / cellHeight + 1);\(x0 / cellWidth + 1)H".utf8)
        out += Array("\u{1B}P0;1;0q\"1;1;\(w);\(h)".utf8)
        for k in 0..<216 { out += Array("#\(k);2;\(k / 36 * 20);\(k / 6 % 6 * 20);\(k % 6 * 20)".utf8) }
        let bayer: [Float] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
        let packed = PackedPixels(canvas, area: PixelRect(x0: x0, y0: y0, x1: x1, y1: y1))
        // The frame's own colours: those of at least 1% of every 4th pixel of every 4th row, most common first, 40 at most.
        var counts: [UInt32: Int] = [:]
        var samples = 0
        for y in stride(from: 0, to: h, by: 4) {
            for x in stride(from: 0, to: w, by: 4) {
                counts[packed.word(x0 + x, y0 + y), default: 0] += 1
                samples += 1
            }
        }
        let exact = counts.filter { Double($0.value) >= Double(samples) / 100 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(40).map(\.key)
        for (k, c) in exact.enumerated() {
            let percent = [c >> 16, c >> 8, c].map { Int((Double($0 & 0xFF) / 255 * 100).rounded()) }
            out += Array("#\(216 + k);2;\(percent[0]);\(percent[1]);\(percent[2])".utf8)
        }
        var index = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                if let k = exact.firstIndex(of: packed.word(x0 + x, y0 + y)) {
                    index[y * w + x] = UInt8(216 + k)
                    continue
                }
                let (r, g, b) = packed.rgb(x0 + x, y0 + y)
                let threshold = (bayer[(y & 3) * 4 + (x & 3)] + 0.5) / 16
                func level(_ v: UInt8) -> Int { min(Int(Float(v) / 255 * 5 + threshold), 5) }
                index[y * w + x] = UInt8(level(r) * 36 + level(g) * 6 + level(b))
            }
        }
        for band in stride(from: 0, to: h, by: 6) {
            let rows = min(6, h - band)
            var used = [Bool](repeating: false, count: 256)
            for y in band..<(band + rows) { for x in 0..<w { used[Int(index[y * w + x])] = true } }
            var first = true
            for colour in 0..<256 where used[colour] {
                if !first { out.append(UInt8(ascii: "$")) }
                first = false
                out += Array("#\(colour)".utf8)
                var run = 0, last: UInt8 = 0
                func flush() {
                    guard run > 0 else { return }
                    if run > 3 { out += Array("!\(run)".utf8); out.append(last) } else { out += [UInt8](repeating: last, count: run) }
                }
                for x in 0..<w {
                    var bits: UInt8 = 0
                    for r in 0..<rows where index[(band + r) * w + x] == colour { bits |= 1 << r }
                    let ch = 63 + bits
                    if ch == last && run > 0 { run += 1 } else { flush(); (last, run) = (ch, 1) }
                }
                flush()
            }
            out.append(UInt8(ascii: "-"))
        }
        out += Array("\u{1B}\\".utf8)
        return out
    }

    /// A frame of gradients, stripes and flat blocks: every colour of the palette, long and short runs.
    static func frame(width: Int, height: Int, seed: UInt64) -> Canvas {
        var canvas = Canvas(width: width, height: height, color: .white)
        var state = seed
        func random() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        for y in 0..<height {
            for x in stride(from: 0, to: width, by: 3) {
                let colour = y % 17 < 8
                    ? Color(red: Double(x) / Double(width), green: Double(y) / Double(height), blue: random())
                    : Color(red: 0.2, green: 0.6, blue: 0.9)
                canvas.fill(PixelRect(x0: x, y0: y, x1: min(x + 3, width), y1: y + 1), with: colour)
            }
        }
        return canvas
    }

    @Test(arguments: [(64, 48, PixelRect(x0: 0, y0: 0, x1: 64, y1: 48)), (97, 53, PixelRect(x0: 5, y0: 7, x1: 90, y1: 50)),
                      (240, 131, PixelRect(x0: 33, y0: 1, x1: 200, y1: 131)), (9, 5, PixelRect(x0: 0, y0: 0, x1: 9, y1: 5))])
    func itWritesWhatThePlainReadingOfTheFormatWrites(_ c: (Int, Int, PixelRect)) {
        for seed in [1, 2, 3] as [UInt64] {
            let canvas = Self.frame(width: c.0, height: c.1, seed: seed)
            var out: [UInt8] = []
            SixelEncoder(cellWidth: 8, cellHeight: 16).encode(canvas, damage: c.2, into: &out)
            let expected = Self.reference(canvas, damage: c.2, cellWidth: 8, cellHeight: 16)
            #expect(out == expected, "\(c.0)x\(c.1), damage \(c.2), seed \(seed): \(out.count) bytes, expected \(expected.count)")
        }
    }
}
