/// A zlib stream (RFC 1950) of DEFLATE data (RFC 1951): LZ77 over a 32 KiB
/// window with hash chains, coded with the fixed Huffman tables: the fallback
/// for systems without libz.so.1 (see ``SystemZlib``). Small and
/// dependency-free; its files are about 4 times zlib's.
package enum Deflate {
    package static func zlib(_ data: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        out.bytes = [0x78, 0x01]  // deflate, 32 KiB window, fastest level, no dictionary
        out.write(1, bits: 1)  // the final block
        out.write(1, bits: 2)  // fixed Huffman codes
        compress(data, into: &out)
        writeSymbol(256, &out)
        out.flush()
        let adler = adler32(data)
        out.bytes += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out.bytes
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        while i < data.count {
            let end = min(i + 5552, data.count)
            while i < end {
                a += UInt32(data[i])
                b += a
                i += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    private static let window = 32_768, maxMatch = 258, minMatch = 3, maxChain = 24

    private static func compress(_ data: [UInt8], into out: inout BitWriter) {
        let hashSize = 1 << 15
        var head = [Int32](repeating: -1, count: hashSize)
        var previous = [Int32](repeating: -1, count: window)
        func hash(_ i: Int) -> Int {
            (Int(data[i]) << 10 ^ Int(data[i + 1]) << 5 ^ Int(data[i + 2])) & (hashSize - 1)
        }
        func insert(_ i: Int) {
            guard i + 2 < data.count else { return }
            let h = hash(i)
            previous[i & (window - 1)] = head[h]
            head[h] = Int32(i)
        }
        var i = 0
        while i < data.count {
            var bestLength = 0, bestDistance = 0
            if i + minMatch <= data.count {
                var candidate = Int(head[hash(i)])
                var chain = 0
                let limit = min(maxMatch, data.count - i)
                while candidate >= 0, i - candidate <= window, chain < maxChain {
                    var length = 0
                    while length < limit && data[candidate + length] == data[i + length] { length += 1 }
                    if length > bestLength {
                        bestLength = length
                        bestDistance = i - candidate
                        if length == limit { break }
                    }
                    let next = Int(previous[candidate & (window - 1)])
                    if next >= candidate { break }
                    candidate = next
                    chain += 1
                }
            }
            if bestLength >= minMatch {
                writeLength(bestLength, &out)
                writeDistance(bestDistance, &out)
                for k in 0..<bestLength { insert(i + k) }
                i += bestLength
            } else {
                writeSymbol(Int(data[i]), &out)
                insert(i)
                i += 1
            }
        }
    }

    /// A literal/length symbol in the fixed code, most significant bit first.
    private static func writeSymbol(_ symbol: Int, _ out: inout BitWriter) {
        switch symbol {
        case 0...143: out.writeReversed(0x30 + symbol, bits: 8)
        case 144...255: out.writeReversed(0x190 + symbol - 144, bits: 9)
        case 256...279: out.writeReversed(symbol - 256, bits: 7)
        default: out.writeReversed(0xC0 + symbol - 280, bits: 8)
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                     67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
                                        11, 11, 12, 12, 13, 13]

    private static func writeLength(_ length: Int, _ out: inout BitWriter) {
        var code = lengthBase.count - 1
        while lengthBase[code] > length { code -= 1 }
        writeSymbol(257 + code, &out)
        out.write(length - lengthBase[code], bits: lengthExtra[code])
    }

    private static func writeDistance(_ distance: Int, _ out: inout BitWriter) {
        var code = distanceBase.count - 1
        while distanceBase[code] > distance { code -= 1 }
        out.writeReversed(code, bits: 5)
        out.write(distance - distanceBase[code], bits: distanceExtra[code])
    }
}

/// Packs bits least significant first, as DEFLATE and GIF's LZW both do.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    mutating func write(_ value: Int, bits: Int) {
        guard bits > 0 else { return }
        buffer |= UInt64(value & ((1 << bits) - 1)) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
        }
    }

    /// Writes a Huffman code, which DEFLATE stores most significant bit first.
    mutating func writeReversed(_ code: Int, bits: Int) {
        var reversed = 0
        for k in 0..<bits where code & (1 << k) != 0 { reversed |= 1 << (bits - 1 - k) }
        write(reversed, bits: bits)
    }

    /// Pads the last byte with zero bits.
    mutating func flush() {
        if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        buffer = 0
        count = 0
    }
}
