import Dispatch

/// A zlib stream (RFC 1950/1951) of a frame's RGB bytes, made for speed
/// rather than size: what kitty's inline frames (`o=z`) are sent as.
///
/// A drawn frame repeats itself in two ways a general LZ77 search finds
/// slowly: a pixel like the one to its left (flat fills), and a pixel like
/// the one above (margins, the unchanged half of a row). Each row is cut
/// into runs of those, coded as matches at distance 3 (one pixel) or at the
/// row's length (the row above) with the fixed Huffman codes, and single
/// pixels between them as literals. A row that is mostly literals (a
/// picture, a gradient) goes as a stored block instead: fixed codes would
/// not make it smaller, and a copy is far cheaper. Bands of rows are coded
/// on all cores at once, each ending byte-aligned so that their bytes simply
/// follow one another (a band's matches may reach into the band before: the
/// window is the stream's, not the band's); their Adler-32 sums are combined.
enum FrameDeflate {
    /// The stream of `words` (0x00RRGGBB, `width` x `height`, rows in order)
    /// as RGB bytes, 3 a pixel.
    static func zlib(_ words: [UInt32], width: Int, height: Int) -> [UInt8] {
        precondition(words.count >= width * height)
        guard width > 0, height > 0 else { return [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01] }
        let bands = min(max(height / 64, 1), 16)
        var parts = [[UInt8]](repeating: [], count: bands)
        var sums = [(a: UInt32, b: UInt32, length: Int)](repeating: (1, 0, 0), count: bands)
        words.withUnsafeBufferPointer { words in
            parts.withUnsafeMutableBufferPointer { parts in
                sums.withUnsafeMutableBufferPointer { sums in
                    // Each band writes only its own element of parts and sums.
                    nonisolated(unsafe) let (pixels, parts, sums) = (words.baseAddress!, parts, sums)
                    DispatchQueue.concurrentPerform(iterations: bands) { band in
                        let y0 = height * band / bands, y1 = height * (band + 1) / bands
                        // At most 26 bits a pixel coded (a literal pixel, then a one-pixel match, over and over).
                        var coder = BandCoder(words: pixels, width: width, capacity: (y1 - y0) * (4 * width + 16) + 64)
                        for y in y0..<y1 { coder.row(y) }
                        coder.alignBand()
                        parts[band] = coder.finish()
                        sums[band] = (coder.a, coder.b, 3 * width * (y1 - y0))
                    }
                }
            }
        }
        var out: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, fastest level
        out.reserveCapacity(parts.reduce(0) { $0 + $1.count } + 16)
        for part in parts { out += part }
        out += [0x01, 0x00, 0x00, 0xFF, 0xFF]  // the final block: stored, empty
        var (a, b) = (UInt32(1), UInt32(0))
        for sum in sums { (a, b) = combine(a, b, with: sum.a, sum.b, length: sum.length) }
        out += [UInt8(b >> 8), UInt8(b & 0xFF), UInt8(a >> 8), UInt8(a & 0xFF)]
        return out
    }

    static let base: UInt64 = 65521

    /// The Adler-32 sums of two pieces, one after the other, from each one's (a, b starting from 1 and 0).
    static func combine(_ a1: UInt32, _ b1: UInt32, with a2: UInt32, _ b2: UInt32, length: Int) -> (UInt32, UInt32) {
        let n = UInt64(length) % base
        let a = (UInt64(a1) + UInt64(a2) + base - 1) % base
        let b = (UInt64(b1) + UInt64(b2) + n * UInt64(a1) % base + base - n) % base
        return (UInt32(a), UInt32(b))
    }

    /// Fixed Huffman codes, bits reversed for a writer that fills bytes from their low bit: a literal
    /// byte's (code, bit count), and for each match length 3...258 its symbol and extra bits together.
    static let literals: [(code: UInt32, bits: UInt32)] = (0..<256).map { (v: Int) -> (code: UInt32, bits: UInt32) in
        if v < 144 { return (reversed(UInt32(0x30 + v), 8), 8) }
        return (reversed(UInt32(0x190 + v - 144), 9), 9)
    }
    static let lengths: [(code: UInt32, bits: UInt32)] = {
        let base = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        return (0...258).map { (length: Int) -> (code: UInt32, bits: UInt32) in
            guard length >= 3 else { return (0, 0) }
            var code = base.count - 1
            while base[code] > length { code -= 1 }
            let symbol = 257 + code
            let bits = symbol < 280 ? 7 : 8
            let huffman = symbol < 280 ? reversed(UInt32(symbol - 256), 7) : reversed(UInt32(0xC0 + symbol - 280), 8)
            let extraValue = UInt32(length - base[code]) << UInt32(bits)
            return (huffman | extraValue, UInt32(bits + extra[code]))
        }
    }()

    /// A distance's fixed code (5 bits, reversed) and extra bits together.
    static func distance(_ d: Int) -> (code: UInt32, bits: UInt32) {
        let base = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
                    6145, 8193, 12289, 16385, 24577]
        let extra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
        var code = base.count - 1
        while base[code] > d { code -= 1 }
        return (reversed(UInt32(code), 5) | UInt32(d - base[code]) << 5, UInt32(5 + extra[code]))
    }

    static func reversed(_ code: UInt32, _ bits: Int) -> UInt32 {
        var r: UInt32 = 0
        for i in 0..<bits where code & (1 << UInt32(i)) != 0 { r |= 1 << UInt32(bits - 1 - i) }
        return r
    }

    /// Codes one band's rows into bytes of its own, and sums them (Adler-32).
    struct BandCoder {
        let words: UnsafePointer<UInt32>
        let width: Int
        let out: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0
        var bits: UInt64 = 0, filled: UInt32 = 0
        var inFixedBlock = false
        var a: UInt32 = 1, b: UInt32 = 0
        /// A row's runs: a pixel count, negative for "like the pixel to the left", 0x4000_0000 added for "like the row above".
        var runs: [Int] = []
        let left = FrameDeflate.distance(3), up: (code: UInt32, bits: UInt32)?

        init(words: UnsafePointer<UInt32>, width: Int, capacity: Int) {
            (self.words, self.width, self.capacity) = (words, width, capacity)
            out = .allocate(capacity: capacity)
            up = 3 * width <= 32_768 ? FrameDeflate.distance(3 * width) : nil
            runs.reserveCapacity(width + 1)
        }

        @inline(__always)
        mutating func put(_ code: UInt32, _ length: UInt32) {
            bits |= UInt64(code) << UInt64(filled)
            filled += length
            if filled >= 32 {
                for k in 0..<4 { out[count + k] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * k)) }
                count += 4
                bits >>= 32
                filled -= 32
            }
        }

        /// Pads to a byte boundary.
        mutating func align() {
            while filled > 0 {
                out[count] = UInt8(truncatingIfNeeded: bits)
                count += 1
                bits >>= 8
                filled = filled >= 8 ? filled - 8 : 0
            }
            bits = 0
        }

        /// A match of `length` bytes at a distance coded `distance`, in pieces of at most 258.
        @inline(__always)
        mutating func match(_ length: Int, _ distance: (code: UInt32, bits: UInt32)) {
            var rest = length
            while rest > 0 {
                var piece = min(rest, 258)
                if rest - piece > 0 && rest - piece < 3 { piece = rest - 3 }
                let l = FrameDeflate.lengths[piece]
                put(l.code, l.bits)
                put(distance.code, distance.bits)
                rest -= piece
            }
        }

        /// Codes row `y`, as runs with fixed codes or stored, and adds it to the sums.
        mutating func row(_ y: Int) {
            let row = words + y * width, above: UnsafePointer<UInt32>? = y > 0 && up != nil ? row - width : nil
            runs.removeAll(keepingCapacity: true)
            var x = 0, literal = 0
            while x < width {
                var vertical = 0, horizontal = 0
                if let above { while x + vertical < width && row[x + vertical] == above[x + vertical] { vertical += 1 } }
                // The pixel before: to the left, or at a row's start the last of the row above (the stream's last three bytes).
                if x > 0 || y > 0 {
                    let before = row[x - 1]
                    while x + horizontal < width && row[x + horizontal] == before { horizontal += 1 }
                }
                if vertical == 0 && horizontal == 0 {
                    runs.append(1)
                    literal += 1
                    x += 1
                } else if vertical > horizontal {
                    runs.append(0x4000_0000 + vertical)
                    x += vertical
                } else {
                    runs.append(-horizontal)
                    x += horizontal
                }
            }
            if 2 * literal > width {
                stored(row)
            } else {
                if !inFixedBlock {
                    put(0b010, 3)  // not final, fixed Huffman codes
                    inFixedBlock = true
                }
                x = 0
                for run in runs {
                    if run == 1 {
                        let p = row[x]
                        let r = FrameDeflate.literals[Int(p >> 16 & 0xFF)], g = FrameDeflate.literals[Int(p >> 8 & 0xFF)]
                        let c = FrameDeflate.literals[Int(p & 0xFF)]
                        put(r.code, r.bits)
                        put(g.code, g.bits)
                        put(c.code, c.bits)
                        x += 1
                    } else if run < 0 {
                        match(-3 * run, left)
                        x -= run
                    } else {
                        match(3 * (run - 0x4000_0000), up!)
                        x += run - 0x4000_0000
                    }
                }
            }
            sum(row)
        }

        /// The row as stored blocks (at most 65,535 bytes each).
        mutating func stored(_ row: UnsafePointer<UInt32>) {
            endFixedBlock()
            var x = 0
            while x < width {
                let pixels = min(width - x, 21_845)
                put(0b000, 3)  // not final, stored
                align()
                let length = 3 * pixels
                var at = count
                out[at] = UInt8(length & 0xFF)
                out[at + 1] = UInt8(length >> 8)
                out[at + 2] = ~UInt8(length & 0xFF)
                out[at + 3] = ~UInt8(length >> 8)
                at += 4
                for i in x..<(x + pixels) {
                    let p = row[i]
                    out[at] = UInt8(truncatingIfNeeded: p >> 16)
                    out[at + 1] = UInt8(truncatingIfNeeded: p >> 8)
                    out[at + 2] = UInt8(truncatingIfNeeded: p)
                    at += 3
                }
                count = at
                x += pixels
            }
        }

        mutating func endFixedBlock() {
            if inFixedBlock {
                put(0, 7)  // end of block (256)
                inFixedBlock = false
            }
        }

        /// Ends the band on a byte boundary: an empty stored block.
        mutating func alignBand() {
            endFixedBlock()
            put(0b000, 3)
            align()
            (out[count], out[count + 1], out[count + 2], out[count + 3]) = (0, 0, 0xFF, 0xFF)
            count += 4
        }

        /// The band's bytes; the coder is done.
        mutating func finish() -> [UInt8] {
            precondition(count <= capacity)
            let bytes = Array(UnsafeBufferPointer(start: out, count: count))
            out.deallocate()
            return bytes
        }

        /// Adds the row's bytes (r, g, b per pixel) to the Adler-32 sums. Over n pixels from (a0, b0), pixel
        /// j adding s_j = r + g + b to a and 3a + 3r + 2g + b to b (its three bytes' steps at once):
        /// a = a0 + sum s_j and b = b0 + 3 n a0 + sum (3r + 2g + b)_j + 3 sum (n - 1 - j) s_j, sums with
        /// no step depending on the one before (the compiler vectorises them); reduced once a row.
        mutating func sum(_ row: UnsafePointer<UInt32>) {
            var s: UInt64 = 0, c: UInt64 = 0, w: UInt64 = 0
            let n = UInt64(width)
            for x in 0..<width {
                let p = row[x]
                let r = UInt64(p >> 16 & 0xFF), g = UInt64(p >> 8 & 0xFF), blue = UInt64(p & 0xFF)
                let step = r &+ g &+ blue
                s &+= step
                c &+= 3 &* r &+ 2 &* g &+ blue
                w &+= (n &- 1 &- UInt64(x)) &* step
            }
            let a0 = UInt64(a), b0 = UInt64(b)
            a = UInt32((a0 + s) % FrameDeflate.base)
            b = UInt32((b0 + (3 * n % FrameDeflate.base) * a0 % FrameDeflate.base + c % FrameDeflate.base
                        + 3 * (w % FrameDeflate.base)) % FrameDeflate.base)
        }
    }
}
