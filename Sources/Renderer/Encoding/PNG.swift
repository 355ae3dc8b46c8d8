import Foundation

/// Writes 8-bit RGBA PNG files: IHDR, an optional tEXt comment, one IDAT
/// (per-row filters chosen by the usual minimum-sum heuristic among None, Sub
/// and Up, compressed by the system's zlib at level 6, or by our own
/// ``Deflate`` where it is missing), IEND.
public enum PNG {
    /// The PNG file of `canvas`, with `comment` (printable ASCII; anything else
    /// becomes '?') as a tEXt "Comment" chunk when given.
    public static func encode(_ canvas: Canvas, comment: String? = nil) -> [UInt8] {
        let raw = filtered(canvas)
        var file = signature
        var header: [UInt8] = []
        header += bigEndian(UInt32(canvas.width)) + bigEndian(UInt32(canvas.height))
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        chunk("IHDR", header, into: &file)
        if let comment {
            chunk("tEXt", Array("Comment".utf8) + [0] + printableASCII(comment), into: &file)
        }
        chunk("IDAT", SystemZlib.compress(raw) ?? Deflate.zlib(raw), into: &file)
        chunk("IEND", [], into: &file)
        return file
    }

    /// The bytes IDAT compresses: each row of 8-bit RGBA led by its filter
    /// type, the one among None, Sub and Up whose output has the smallest sum
    /// of magnitudes (as signed bytes). Rows are converted from the canvas and
    /// filtered in bands, on every core.
    public static func filtered(_ canvas: Canvas) -> [UInt8] {
        let width = canvas.width, height = canvas.height, stride = width * 4
        guard width > 0, height > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: (stride + 1) * height) { raw, count in
            nonisolated(unsafe) let output = raw.baseAddress!
            let bands = min(height, 4 * ProcessInfo.processInfo.activeProcessorCount)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let first = height * band / bands, end = height * (band + 1) / bands
                // This row and the one above it, as bytes.
                var above = [UInt8](repeating: 0, count: stride), row = [UInt8](repeating: 0, count: stride)
                if first > 0 { above.withUnsafeMutableBufferPointer { canvas.convertRow(first - 1, into: $0.baseAddress!) } }
                for y in first..<end {
                    row.withUnsafeMutableBufferPointer { canvas.convertRow(y, into: $0.baseAddress!) }
                    row.withUnsafeBufferPointer { row in
                        above.withUnsafeBufferPointer { above in
                            filterRow(row.baseAddress!, above: above.baseAddress!, stride: stride, into: output + y * (stride + 1))
                        }
                    }
                    swap(&above, &row)
                }
            }
            count = (stride + 1) * height
        }
    }

    /// Filters one row (`above` is zeros for the first) into its filter type and bytes.
    private static func filterRow(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, stride: Int,
                                  into out: UnsafeMutablePointer<UInt8>) {
        var none = 0, sub = 0, up = 0
        for x in 0..<stride {
            let value = row[x], left: UInt8 = x >= 4 ? row[x - 4] : 0
            none &+= Int(Int8(bitPattern: value).magnitude)
            sub &+= Int(Int8(bitPattern: value &- left).magnitude)
            up &+= Int(Int8(bitPattern: value &- above[x]).magnitude)
        }
        if none <= sub && none <= up {
            out[0] = 0
            for x in 0..<stride { out[1 + x] = row[x] }
        } else if sub <= up {
            out[0] = 1
            for x in 0..<min(4, stride) { out[1 + x] = row[x] }
            for x in min(4, stride)..<stride { out[1 + x] = row[x] &- row[x - 4] }
        } else {
            out[0] = 2
            for x in 0..<stride { out[1 + x] = row[x] &- above[x] }
        }
    }

    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

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
