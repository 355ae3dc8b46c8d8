/// Writes 8-bit RGBA PNG files: IHDR, an optional tEXt comment, one IDAT
/// (per-row filters chosen by the usual minimum-sum heuristic among None, Sub
/// and Up, compressed by the system's zlib at level 6, or by our own
/// ``Deflate`` where it is missing), IEND.
public enum PNG {
    /// The PNG file of `canvas`, with `comment` (printable ASCII; anything else
    /// becomes '?') as a tEXt "Comment" chunk when given.
    public static func encode(_ canvas: Canvas, comment: String? = nil) -> [UInt8] {
        let raw = filtered(canvas)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(canvas.width)) + bigEndian(UInt32(canvas.height))
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        chunk("IHDR", header, into: &file)
        if let comment {
            chunk("tEXt", Array("Comment".utf8) + [0] + comment.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? UInt8($0.value) : 0x3F }, into: &file)
        }
        chunk("IDAT", SystemZlib.compress(raw) ?? Deflate.zlib(raw), into: &file)
        chunk("IEND", [], into: &file)
        return file
    }

    /// The bytes IDAT compresses: each row of 8-bit RGBA led by its filter type.
    public static func filtered(_ canvas: Canvas) -> [UInt8] {
        let width = canvas.width, height = canvas.height, stride = width * 4
        let rgba = canvas.rgba8
        var raw: [UInt8] = []
        raw.reserveCapacity((stride + 1) * height)
        var candidate = [UInt8](repeating: 0, count: stride)
        for y in 0..<height {
            let row = y * stride
            var bestFilter: UInt8 = 0, bestCost = Int.max, best = [UInt8]()
            for filter: UInt8 in 0...2 {
                var cost = 0
                for x in 0..<stride {
                    let value = rgba[row + x]
                    let predictor: UInt8 = switch filter {
                    case 1: x >= 4 ? rgba[row + x - 4] : 0
                    case 2: y > 0 ? rgba[row + x - stride] : 0
                    default: 0
                    }
                    let d = value &- predictor
                    candidate[x] = d
                    cost += Int(Int8(bitPattern: d).magnitude)
                }
                if cost < bestCost {
                    (bestFilter, bestCost, best) = (filter, cost, candidate)
                }
            }
            raw.append(bestFilter)
            raw += best
        }
        return raw
    }

    static func chunk(_ type: String, _ data: [UInt8], into file: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        file += bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC-32 of ISO 3309 that PNG chunks carry.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
