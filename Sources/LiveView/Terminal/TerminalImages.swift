import Foundation
import Glibc
import Renderer
import SystemCalls

/// How frames reach a terminal.
public enum TerminalGraphics: String, Sendable, CaseIterable {
    /// The kitty graphics protocol: each frame a new image, by shared memory
    /// where the terminal is local, else zlib-compressed inline.
    case kitty
    /// DEC sixel: six rows of pixels per band, a palette of 216 colours.
    case sixel
    /// Unicode upper half blocks, each cell two pixels in 24-bit colour.
    case halfBlocks = "half-blocks"
}

/// A rectangle of a frame as 8-bit RGB words (0x00RRGGBB), converted once by
/// ``Canvas/packRow(_:from:to:into:)``, as the GIF encoder reads a frame.
struct PackedPixels: Sendable {
    let area: PixelRect
    let words: [UInt32]

    init(_ canvas: Canvas, area: PixelRect) {
        self.area = area
        words = [UInt32](unsafeUninitializedCapacity: area.area) { out, count in
            // A terminal's frame is megapixels: bands of rows packed on every core.
            nonisolated(unsafe) let base = out.baseAddress!
            let bands = area.area >= 262_144 ? ProcessInfo.processInfo.activeProcessorCount : 1
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                for y in (area.y0 + area.height * band / bands)..<(area.y0 + area.height * (band + 1) / bands) {
                    canvas.packRow(y, from: area.x0, to: area.x1, into: base + (y - area.y0) * area.width)
                }
            }
            count = area.area
        }
    }

    /// The word of pixel (x, y), in the frame's coordinates.
    @inline(__always)
    func word(_ x: Int, _ y: Int) -> UInt32 { words[(y - area.y0) * area.width + x - area.x0] }

    /// Its red, green and blue bytes.
    @inline(__always)
    func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let w = word(x, y)
        return (UInt8(truncatingIfNeeded: w >> 16), UInt8(truncatingIfNeeded: w >> 8), UInt8(truncatingIfNeeded: w))
    }
}

/// Half-block cells: the frame in cells of one column and two pixel rows,
/// `▀` in the top pixel's colour over the bottom one's. Only cells that
/// changed since the last frame are written, each run of them after one
/// cursor move, colours only when they change.
struct HalfBlockEncoder {
    private var cells: [UInt32] = []
    private var size = (columns: 0, rows: 0)

    /// Forgets what the terminal shows (after a resize or a clear).
    mutating func reset() { cells = [] }

    /// The bytes that bring the terminal from the last frame to `canvas`
    /// (its `damage`), the frame's top-left at cell (1, 1).
    mutating func encode(_ canvas: Canvas, damage: PixelRect, into out: inout [UInt8]) {
        let columns = canvas.width, rows = (canvas.height + 1) / 2
        if size != (columns, rows) || cells.isEmpty {
            size = (columns, rows)
            cells = [UInt32](repeating: .max, count: columns * rows * 2)
        }
        guard !damage.isEmpty else { return }
        // Whole cells: the damaged rows widened to pairs.
        let rowsDrawn = (damage.y0 / 2)..<min((damage.y1 + 1) / 2, rows)
        let x1 = min(damage.x1, columns)
        guard !rowsDrawn.isEmpty, damage.x0 < x1 else { return }
        let pixels = PackedPixels(canvas, area: PixelRect(x0: damage.x0, y0: rowsDrawn.lowerBound * 2, x1: x1,
                                                          y1: min(rowsDrawn.upperBound * 2, canvas.height)))
        var lastForeground: UInt32?, lastBackground: UInt32?
        for row in rowsDrawn {
            var cursorAt = -1
            for column in damage.x0..<x1 {
                let top = pixels.word(column, row * 2)
                let bottom = row * 2 + 1 < canvas.height ? pixels.word(column, row * 2 + 1) : 0
                let k = (row * columns + column) * 2
                guard cells[k] != top || cells[k + 1] != bottom else { continue }
                (cells[k], cells[k + 1]) = (top, bottom)
                if cursorAt != column { out += Array("\u{1B}[\(row + 1);\(column + 1)H".utf8) }
                if lastForeground != top {
                    out += Array("\u{1B}[38;2;\(top >> 16);\(top >> 8 & 0xFF);\(top & 0xFF)m".utf8)
                    lastForeground = top
                }
                if lastBackground != bottom {
                    out += Array("\u{1B}[48;2;\(bottom >> 16);\(bottom >> 8 & 0xFF);\(bottom & 0xFF)m".utf8)
                    lastBackground = bottom
                }
                out += [0xE2, 0x96, 0x80]  // ▀
                cursorAt = column + 1
            }
        }
        out += Array("\u{1B}[0m".utf8)
    }
}

/// Sixel images of the damaged cells: each a DCS string `ESC P 0;1;0 q`,
/// raster attributes, a palette, then bands of six pixel rows, runs
/// compressed with `!`. The palette: 6 × 6 × 6 colours that every other pixel
/// is quantised to with an ordered dither, and up to 40 registers more for
/// the frame's own most common colours (each covering at least 1% of a
/// sample of every 4th pixel of every 4th row), which their pixels get
/// exactly: a flat fill is one colour in long runs, not a dither of several
/// (fewer bytes, and the colour itself rather than an average).
package struct SixelEncoder {
    /// The pixels of a cell, for aligning damage to cells.
    var cellWidth: Int, cellHeight: Int

    package init(cellWidth: Int, cellHeight: Int) { (self.cellWidth, self.cellHeight) = (cellWidth, cellHeight) }

    /// The bytes that draw the cells `damage` touches of `canvas`, whose top-left is at cell (1, 1).
    package func encode(_ canvas: Canvas, damage: PixelRect, into out: inout [UInt8]) {
        guard let area = region(damage, width: canvas.width, height: canvas.height) else { return }
        encode(PackedPixels(canvas, area: area), into: &out)
    }

    /// The whole cells `damage` touches, within a frame of `width` x `height` pixels; nil for none.
    func region(_ damage: PixelRect, width: Int, height: Int) -> PixelRect? {
        guard !damage.isEmpty, cellWidth > 0, cellHeight > 0 else { return nil }
        // Whole cells: a sixel image starts at the cursor's cell.
        let x0 = damage.x0 / cellWidth * cellWidth, y0 = damage.y0 / cellHeight * cellHeight
        let x1 = min((damage.x1 + cellWidth - 1) / cellWidth * cellWidth, width)
        let y1 = min((damage.y1 + cellHeight - 1) / cellHeight * cellHeight, height)
        return x0 < x1 && y0 < y1 ? PixelRect(x0: x0, y0: y0, x1: x1, y1: y1) : nil
    }

    /// The bytes that draw `pixels` (a region of whole cells) at its cell. Bands of six rows are
    /// independent once the palette is fixed: groups of them are coded on every core at once.
    func encode(_ pixels: PackedPixels, into out: inout [UInt8]) {
        let area = pixels.area
        let (w, h) = (area.width, area.height)
        out += Array("\u{1B}[\(area.y0 / cellHeight + 1);\(area.x0 / cellWidth + 1)H".utf8)
        // P2 = 1: pixels left at 0 keep what was there (none are: every pixel is painted).
        out += Array("\u{1B}P0;1;0q\"1;1;\(w);\(h)".utf8)
        for k in 0..<216 {
            let (r, g, b) = (k / 36, k / 6 % 6, k % 6)
            out += Array("#\(k);2;\(r * 20);\(g * 20);\(b * 20)".utf8)
        }
        let exact = ExactColours(Self.frequentColours(pixels))
        for (k, c) in exact.colours.enumerated() {
            func percent(_ v: UInt32) -> UInt32 { ((v & 0xFF) * 100 + 127) / 255 }
            out += Array("#\(216 + k);2;\(percent(c >> 16));\(percent(c >> 8));\(percent(c))".utf8)
        }
        let bands = (h + 5) / 6, groups = min(bands, 4 * ProcessInfo.processInfo.activeProcessorCount)
        var parts = [[UInt8]](repeating: [], count: groups)
        pixels.words.withUnsafeBufferPointer { words in
            parts.withUnsafeMutableBufferPointer { parts in
                // Each group writes only its own element of parts.
                nonisolated(unsafe) let (words, parts) = (words, parts)
                DispatchQueue.concurrentPerform(iterations: groups) { group in
                    let first = bands * group / groups, last = bands * (group + 1) / groups
                    parts[group] = Self.bands(words, width: w, rows: (6 * first)..<min(6 * last, h), exact: exact)
                }
            }
        }
        for part in parts { out += part }
        out += Array("\u{1B}\\".utf8)
    }

    /// The sixel bands of `rows` (a multiple of six from the region's top) of a region `width` pixels wide.
    private static func bands(_ words: UnsafeBufferPointer<UInt32>, width w: Int, rows: Range<Int>, exact: ExactColours) -> [UInt8] {
        var out: [UInt8] = []
        guard !rows.isEmpty else { return out }
        out.reserveCapacity(rows.count * w / 2)
        // Palette index of every pixel, dithered (4 × 4 Bayer), through a table of each channel's level
        // for each of the 16 thresholds (the sum of the three levels, weighted, is the index).
        let index = UnsafeMutablePointer<UInt8>.allocate(capacity: w * rows.count)
        defer { index.deallocate() }
        levels.withUnsafeBufferPointer { levels in
            for y in rows {
                let row = y * w, into = index + (y - rows.lowerBound) * w, ranks = (y & 3) * 4
                for x in 0..<w {
                    let word = words[row + x]
                    if let register = exact.register(word) {
                        into[x] = register
                        continue
                    }
                    let table = Int(bayer[ranks + (x & 3)]) << 8
                    let r = levels[table + Int(word >> 16 & 0xFF)], g = levels[table + Int(word >> 8 & 0xFF)]
                    let b = levels[table + Int(word & 0xFF)]
                    into[x] = r &* 36 &+ g &* 6 &+ b
                }
            }
        }
        // Each band in one pass over its pixels: a six-bit column mask per colour used (masks[colour * w + x]),
        // then each colour's row of sixels, runs compressed, in ascending colour order. (Plain buffers, no
        // closures over mutable locals: those would be boxed and every access checked at run time.)
        let h = rows.count
        let masks = UnsafeMutablePointer<UInt8>.allocate(capacity: 256 * w)
        masks.initialize(repeating: 0, count: 256 * w)
        defer { masks.deallocate() }
        var isUsed = [Bool](repeating: false, count: 256)
        var used: [Int] = []
        used.reserveCapacity(256)
        for band in stride(from: 0, to: h, by: 6) {
            for colour in used {
                isUsed[colour] = false
                (masks + colour * w).update(repeating: 0, count: w)
            }
            used.removeAll(keepingCapacity: true)
            for r in 0..<min(6, h - band) {
                let row = index + (band + r) * w, bit = UInt8(1) << r
                for x in 0..<w {
                    let colour = Int(row[x])
                    if !isUsed[colour] {
                        isUsed[colour] = true
                        used.append(colour)
                    }
                    masks[colour * w + x] |= bit
                }
            }
            used.sort()
            for (n, colour) in used.enumerated() {
                if n > 0 { out.append(UInt8(ascii: "$")) }
                out.append(UInt8(ascii: "#"))
                appendDecimal(colour, to: &out)
                let line = masks + colour * w
                var run = 0, last: UInt8 = 0
                for x in 0..<w {
                    let ch = 63 + line[x]
                    if ch == last && run > 0 {
                        run += 1
                    } else {
                        appendRun(run, of: last, to: &out)
                        (last, run) = (ch, 1)
                    }
                }
                appendRun(run, of: last, to: &out)
            }
            out.append(UInt8(ascii: "-"))
        }
        return out
    }

    /// The colours that cover at least 1% of a sample of the region (every 4th pixel of every 4th row),
    /// most common first (then by value), at most 40.
    static func frequentColours(_ pixels: PackedPixels) -> [UInt32] {
        var counts: [UInt32: Int] = [:]
        var samples = 0
        let (w, h) = (pixels.area.width, pixels.area.height)
        pixels.words.withUnsafeBufferPointer { words in
            for y in stride(from: 0, to: h, by: 4) {
                for x in stride(from: 0, to: w, by: 4) {
                    counts[words[y * w + x], default: 0] += 1
                    samples += 1
                }
            }
        }
        return counts.filter { $0.value * 100 >= samples }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(40).map(\.key)
    }

    /// The 4 × 4 Bayer matrix's ranks, row by row.
    private static let bayer: [UInt8] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// A channel's level (0...5) at each rank's threshold: levels[rank << 8 + value].
    private static let levels: [UInt8] = (0..<16).flatMap { rank -> [UInt8] in
        let threshold = (Float(rank) + 0.5) / 16
        return (0..<256).map { v in UInt8(min(Int(Float(v) / 255 * 5 + threshold), 5)) }
    }

    /// Appends a run of `count` sixels `ch`: `!count ch` from four on, else the sixels themselves.
    @inline(__always)
    private static func appendRun(_ count: Int, of ch: UInt8, to out: inout [UInt8]) {
        guard count > 0 else { return }
        if count > 3 {
            out.append(UInt8(ascii: "!"))
            appendDecimal(count, to: &out)
            out.append(ch)
        } else {
            for _ in 0..<count { out.append(ch) }
        }
    }

    /// Appends `value` (0 or more) in decimal digits.
    @inline(__always)
    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}

/// A sixel frame's exact colours and their registers (216 on), looked up by an open-addressed table.
struct ExactColours: Sendable {
    let colours: [UInt32]
    private var keys = [UInt32](repeating: .max, count: 128)
    private var registers = [UInt8](repeating: 0, count: 128)

    init(_ colours: [UInt32]) {
        self.colours = Array(colours.prefix(40))
        for (k, c) in self.colours.enumerated() {
            var slot = Self.slot(c)
            while keys[slot] != .max { slot = (slot + 1) & 127 }
            (keys[slot], registers[slot]) = (c, UInt8(216 + k))
        }
    }

    @inline(__always)
    private static func slot(_ c: UInt32) -> Int { Int((c &* 0x9E37_79B1) >> 25) }

    /// The register of colour `c` (0x00RRGGBB) when it is one of them.
    @inline(__always)
    func register(_ c: UInt32) -> UInt8? {
        guard !colours.isEmpty else { return nil }
        var slot = Self.slot(c)
        while true {
            let key = keys[slot]
            if key == c { return registers[slot] }
            if key == .max { return nil }
            slot = (slot + 1) & 127
        }
    }
}

/// Kitty graphics, double-buffered by image id: each frame is a new image
/// (ids 1 and 2 in turn) placed at cell (1, 1) over the last one, which is
/// then deleted. A real kitty mishandled in-place edits of a shown image
/// (`a=f`) when they came quickly, and held whole frames of base64 past what
/// one synchronized update may carry. Where the terminal shares the machine
/// (`medium` shared memory, probed at start), the pixels go through a POSIX
/// shared-memory object kitty reads and unlinks, and only its name crosses
/// the terminal; otherwise (over SSH) they go inline, zlib-compressed
/// (`o=z`, by ``FrameDeflate``), base64 in chunks of 4096 bytes with nothing
/// between them.
package struct KittyEncoder {
    /// How pixels reach the terminal.
    package enum Medium { case sharedMemory, direct }
    var medium: Medium
    /// The image shown (1 or 2), 0 for none.
    private var shown: UInt32 = 0
    private var serial = 0
    /// The shared-memory objects made and perhaps not yet read (kitty unlinks those it reads).
    private(set) var objects: [String] = []

    package init(medium: Medium) { self.medium = medium }

    /// Forgets what the terminal shows (after a clear: every image is deleted then).
    mutating func reset() { shown = 0 }

    package mutating func encode(_ canvas: Canvas, damage: PixelRect, into out: inout [UInt8]) {
        guard needsFrame(damage) else { return }
        encode(PackedPixels(canvas, area: PixelRect(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)), into: &out)
    }

    /// Whether a frame with `damage` must be sent: when it changed, or when nothing is shown yet.
    func needsFrame(_ damage: PixelRect) -> Bool { shown == 0 || !damage.isEmpty }

    /// The bytes that show `packed` (a whole frame) as the next image.
    mutating func encode(_ packed: PackedPixels, into out: inout [UInt8]) {
        let area = packed.area
        let next: UInt32 = shown == 1 ? 2 : 1
        let placement = "a=T,i=\(next),p=1,q=2,C=1,f=24,s=\(area.width),v=\(area.height)"
        out += Array("\u{1B}[1;1H".utf8)
        if medium == .sharedMemory {
            serial += 1
            let name = "/segue-frame-\(getpid())-\(serial)"
            var pixels = [UInt8](repeating: 0, count: area.area * 3)
            for (i, word) in packed.words.enumerated() {
                (pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2]) =
                    (UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word))
            }
            if Self.share(pixels, as: name) {
                objects = (objects + [name]).suffix(4)
                out += Array("\u{1B}_G\(placement),t=s,S=\(pixels.count);\(Data(name.utf8).base64EncodedString())\u{1B}\\".utf8)
            } else {
                medium = .direct  // no shared memory after all: inline from now on
            }
        }
        if medium == .direct { Self.inline(packed, control: placement, into: &out) }
        if shown != 0 { out += Array("\u{1B}_Ga=d,d=I,i=\(shown),q=2\u{1B}\\".utf8) }
        shown = next
    }

    /// Removes the shared-memory objects kitty has not read (the view ends).
    mutating func removeObjects() {
        for name in objects { shm_unlink(name) }
        objects = []
    }

    /// Writes `bytes` to a new POSIX shared-memory object `name`; false when it cannot.
    static func share(_ bytes: [UInt8], as name: String) -> Bool {
        let fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { (try? SystemCall.write(fd, $0)) != nil }
        if !written { shm_unlink(name) }
        return written
    }

    /// The pixels inline: a zlib stream of their RGB bytes (``FrameDeflate``: made for speed), base64, in
    /// chunks of 4096 bytes, `m=1` on all but the last.
    private static func inline(_ pixels: PackedPixels, control: String, into out: inout [UInt8]) {
        let stream = FrameDeflate.zlib(pixels.words, width: pixels.area.width, height: pixels.area.height)
        let payload = Array(Data(stream).base64EncodedString().utf8)
        var offset = 0
        repeat {
            let end = min(offset + 4096, payload.count)
            out += Array("\u{1B}_G\(offset == 0 ? control + ",o=z," : "")m=\(end < payload.count ? 1 : 0);".utf8)
            out += payload[offset..<end]
            out += Array("\u{1B}\\".utf8)
            offset = end
        } while offset < payload.count
    }
}
