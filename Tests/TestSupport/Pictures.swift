import Foundation
import Glibc
import Testing

// Decoders of the tests' own for what Segue writes, independent of its encoders:
// PNG checked chunk by chunk and inflated with the system's zlib, GIF parsed
// block by block and LZW-decoded here.

/// The system zlib, loaded at run time (libz.so.1 ships with every Debian).
public enum Zlib {
    public typealias Uncompress = @convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt>, UnsafePointer<UInt8>, UInt) -> Int32
    public typealias CRC = @convention(c) (UInt, UnsafePointer<UInt8>, UInt32) -> UInt
    public typealias Compress = @convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt>, UnsafePointer<UInt8>, UInt) -> Int32
    nonisolated(unsafe) public static let handle: UnsafeMutableRawPointer? = dlopen("libz.so.1", RTLD_NOW)

    /// zlib's function `name` (dlopen and dlsym answer implicitly unwrapped optionals: typed here, so that a
    /// missing libz or symbol fails the test rather than crashing it).
    static func symbol(_ name: String) throws -> UnsafeMutableRawPointer {
        let found: UnsafeMutableRawPointer? = handle.flatMap { dlsym($0, name) }
        return try #require(found, handle == nil ? "libz.so.1 cannot be loaded" : "libz.so.1 has no \(name)")
    }

    public static func inflate(_ data: [UInt8], size: Int) throws -> [UInt8] {
        let f = unsafeBitCast(try symbol("uncompress"), to: Uncompress.self)
        var out = [UInt8](repeating: 0, count: size)
        var length = UInt(size)
        let status = out.withUnsafeMutableBufferPointer { o in data.withUnsafeBufferPointer { f(o.baseAddress!, &length, $0.baseAddress!, UInt($0.count)) } }
        #expect(status == 0, "zlib uncompress returned \(status)")
        #expect(Int(length) == size)
        return out
    }

    /// `data` as a zlib stream (zlib's own `compress`, independent of Segue's encoders).
    public static func deflate(_ data: [UInt8]) throws -> [UInt8] {
        let f = unsafeBitCast(try symbol("compress"), to: Compress.self)
        var out = [UInt8](repeating: 0, count: data.count + data.count / 100 + 64)
        var length = UInt(out.count)
        let status = out.withUnsafeMutableBufferPointer { o in data.withUnsafeBufferPointer { f(o.baseAddress!, &length, $0.baseAddress!, UInt($0.count)) } }
        #expect(status == 0, "zlib compress returned \(status)")
        return Array(out.prefix(Int(length)))
    }

    public static func crc32(_ bytes: [UInt8]) throws -> UInt32 {
        let f = unsafeBitCast(try symbol("crc32"), to: CRC.self)
        return UInt32(bytes.withUnsafeBufferPointer { f(0, $0.baseAddress!, UInt32($0.count)) })
    }
}

public struct DecodedPNG {
    public var width = 0, height = 0
    public var rgba: [UInt8] = []
    public var chunks: [String] = []

    /// A picture of `width` x `height` pixels, `rgba` its rows (8-bit RGBA).
    public init(width: Int = 0, height: Int = 0, rgba: [UInt8] = []) {
        (self.width, self.height, self.rgba) = (width, height, rgba)
    }

    /// The picture `factor` times smaller each way, each pixel the mean (rounded) of the `factor` x `factor`
    /// it stands for: a photograph of a monitor at scale `factor` in its layout's units. Its chunks are left out.
    public func shrunk(by factor: Int) -> DecodedPNG {
        var out = DecodedPNG(width: width / factor, height: height / factor)
        out.rgba = [UInt8](repeating: 0, count: out.width * out.height * 4)
        let area = factor * factor
        rgba.withUnsafeBufferPointer { source in
            out.rgba.withUnsafeMutableBufferPointer { target in
                for y in 0..<out.height {
                    for x in 0..<out.width {
                        for c in 0..<4 {
                            var sum = 0
                            for dy in 0..<factor {
                                for dx in 0..<factor { sum += Int(source[((y * factor + dy) * width + x * factor + dx) * 4 + c]) }
                            }
                            target[(y * out.width + x) * 4 + c] = UInt8((sum + area / 2) / area)
                        }
                    }
                }
            }
        }
        return out
    }
}

/// 8-bit RGBA rows with their filters undone: all five of PNG's (Segue writes None, Sub and Up; other
/// programs, such as GNOME Shell's screenshots, Average and Paeth too).
func unfiltered(_ raw: [UInt8], width: Int, height: Int) throws -> [UInt8] {
    let stride = width * 4
    var rgba = [UInt8](repeating: 0, count: stride * height)
    try #require(raw.count >= (stride + 1) * height, "\(raw.count) bytes of rows for \(width)x\(height)")
    // Through buffers: a screenshot has millions of bytes, and the tests are built without optimization.
    var filters: Set<UInt8> = []
    raw.withUnsafeBufferPointer { raw in
        rgba.withUnsafeMutableBufferPointer { rgba in
            for y in 0..<height {
                let row = y * (stride + 1), out = y * stride
                let filter = raw[row]
                filters.insert(filter)
                for x in 0..<stride {
                    let d = raw[row + 1 + x]
                    let left = x >= 4 ? rgba[out + x - 4] : 0, up = y > 0 ? rgba[out - stride + x] : 0
                    let upLeft = x >= 4 && y > 0 ? rgba[out - stride + x - 4] : 0
                    let predicted: UInt8
                    switch filter {
                    case 1: predicted = left
                    case 2: predicted = up
                    case 3: predicted = UInt8((Int(left) + Int(up)) / 2)
                    case 4:
                        let p = Int(left) + Int(up) - Int(upLeft)
                        let (pa, pb, pc) = (abs(p - Int(left)), abs(p - Int(up)), abs(p - Int(upLeft)))
                        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                    default: predicted = 0
                    }
                    rgba[out + x] = d &+ predicted
                }
            }
        }
    }
    #expect(filters.allSatisfy { $0 <= 4 }, "row filters \(filters.sorted())")
    return rgba
}

/// An animated PNG as it plays: each frame's picture (straight RGBA) and delay in seconds, and how often it loops (0: forever).
public struct DecodedAPNG {
    public var width = 0, height = 0, plays = -1
    public var frames: [(rgba: [UInt8], delay: Double)] = []
}

/// Decodes an APNG: acTL, then each fcTL's rectangle (from IDAT or fdAT,
/// sequence numbers checked) drawn with its blend and dispose operations.
public func decodeAPNG(_ file: [UInt8]) throws -> DecodedAPNG {
    var apng = DecodedAPNG(), i = 8, sequence = 0
    func be32(_ at: Int) -> Int { Int(file[at]) << 24 | Int(file[at + 1]) << 16 | Int(file[at + 2]) << 8 | Int(file[at + 3]) }
    var canvas: [UInt8] = [], control: (w: Int, h: Int, x: Int, y: Int, delay: Double, dispose: UInt8, blend: UInt8)?
    var data: [UInt8] = []
    func flush() throws {
        guard let c = control else { return }
        let part = try unfiltered(try Zlib.inflate(data, size: (c.w * 4 + 1) * c.h), width: c.w, height: c.h)
        for y in 0..<c.h {
            for x in 0..<c.w {
                let s = (y * c.w + x) * 4, d = ((c.y + y) * apng.width + c.x + x) * 4
                #expect(c.blend == 0, "blend: source")
                for k in 0..<4 { canvas[d + k] = part[s + k] }
            }
        }
        apng.frames.append((canvas, c.delay))
        #expect(c.dispose == 0)
        (control, data) = (nil, [])
    }
    while i + 12 <= file.count {
        let length = be32(i), type = String(decoding: file[(i + 4)..<(i + 8)], as: UTF8.self), at = i + 8
        #expect(UInt32(be32(at + length)) == (try Zlib.crc32(Array(file[(i + 4)..<(at + length)]))), "CRC of \(type)")
        switch type {
        case "IHDR":
            (apng.width, apng.height) = (be32(at), be32(at + 4))
            canvas = [UInt8](repeating: 0, count: apng.width * apng.height * 4)
        case "acTL": apng.plays = be32(at + 4)
        case "fcTL":
            try flush()
            #expect(be32(at) == sequence, "fcTL sequence")
            sequence += 1
            let delay = Double(Int(file[at + 20]) << 8 | Int(file[at + 21])) / Double(max(Int(file[at + 22]) << 8 | Int(file[at + 23]), 1))
            control = (be32(at + 4), be32(at + 8), be32(at + 12), be32(at + 16), delay, file[at + 24], file[at + 25])
        case "IDAT": data += file[at..<(at + length)]
        case "fdAT":
            #expect(be32(at) == sequence, "fdAT sequence")
            sequence += 1
            data += file[(at + 4)..<(at + length)]
        default: break
        }
        i += 12 + length
    }
    try flush()
    return apng
}

/// Checks signature, chunk CRCs and header, inflates IDAT with zlib and undoes the row filters.
public func decodePNG(_ file: [UInt8]) throws -> DecodedPNG {
    #expect(Array(file.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var png = DecodedPNG(), idat: [UInt8] = [], i = 8
    func be32(_ at: Int) -> Int { Int(file[at]) << 24 | Int(file[at + 1]) << 16 | Int(file[at + 2]) << 8 | Int(file[at + 3]) }
    while i + 12 <= file.count {
        let length = be32(i), type = String(decoding: file[(i + 4)..<(i + 8)], as: UTF8.self)
        let typed = Array(file[(i + 4)..<(i + 8 + length)])
        #expect(UInt32(be32(i + 8 + length)) == (try Zlib.crc32(typed)), "CRC of \(type)")
        png.chunks.append(type)
        if type == "IHDR" {
            (png.width, png.height) = (be32(i + 8), be32(i + 12))
            #expect(Array(file[(i + 16)..<(i + 21)]) == [8, 6, 0, 0, 0], "8-bit RGBA")
        }
        if type == "IDAT" { idat += typed.dropFirst(4) }
        i += 12 + length
    }
    #expect(i == file.count && png.chunks.first == "IHDR" && png.chunks.last == "IEND")
    png.rgba = try unfiltered(try Zlib.inflate(idat, size: (png.width * 4 + 1) * png.height), width: png.width, height: png.height)
    return png
}

public struct DecodedGIF {
    public var width = 0, height = 0
    public var delays: [Int] = []
    public var loops: Int?
    public var comment: String?
    /// Each frame as shown: the canvas after drawing it, 0x00RRGGBB per pixel.
    public var frames: [[UInt32]] = []
    /// Each frame's rectangle (x, y, width, height), as stored.
    public var rects: [(Int, Int, Int, Int)] = []
}

/// Parses every block, LZW-decodes every frame and draws it over the one
/// before (disposal "leave in place"), honouring local palettes and transparency.
public func decodeGIF(_ file: [UInt8]) throws -> DecodedGIF {
    #expect(String(decoding: file.prefix(6), as: UTF8.self) == "GIF89a")
    var gif = DecodedGIF()
    func le16(_ at: Int) -> Int { Int(file[at]) | Int(file[at + 1]) << 8 }
    (gif.width, gif.height) = (le16(6), le16(8))
    func table(at i: Int, bits: Int) -> [UInt32] {
        (0..<(1 << bits)).map { k in UInt32(file[i + 3 * k]) << 16 | UInt32(file[i + 3 * k + 1]) << 8 | UInt32(file[i + 3 * k + 2]) }
    }
    let global: [UInt32]? = file[10] & 0x80 != 0 ? table(at: 13, bits: Int(file[10] & 7) + 1) : nil
    var i = 13 + (global.map { $0.count * 3 } ?? 0)
    var canvas = [UInt32](repeating: 0, count: gif.width * gif.height)
    var transparent: Int?
    func subBlocks() -> [UInt8] {
        var data: [UInt8] = []
        while file[i] != 0 { data += file[(i + 1)...(i + Int(file[i]))]; i += Int(file[i]) + 1 }
        i += 1
        return data
    }
    while i < file.count {
        switch file[i] {
        case 0x21:
            let label = file[i + 1]
            i += 2
            let data = subBlocks()
            if label == 0xF9 {
                gif.delays.append(Int(data[1]) | Int(data[2]) << 8)
                #expect((data[0] >> 2) & 7 <= 1, "disposal: none or leave in place")
                transparent = data[0] & 1 != 0 ? Int(data[3]) : nil
            }
            if label == 0xFE { gif.comment = String(decoding: data, as: UTF8.self) }
            if label == 0xFF, String(decoding: data.prefix(11), as: UTF8.self) == "NETSCAPE2.0" {
                gif.loops = Int(data[12]) | Int(data[13]) << 8
            }
        case 0x2C:
            let x = le16(i + 1), y = le16(i + 3), w = le16(i + 5), h = le16(i + 7), flags = file[i + 9]
            #expect(x + w <= gif.width && y + h <= gif.height, "the frame lies inside the screen")
            i += 10
            var palette = try #require(global ?? (flags & 0x80 != 0 ? [] : nil), "a frame with no palette")
            if flags & 0x80 != 0 {
                palette = table(at: i, bits: Int(flags & 7) + 1)
                i += palette.count * 3
            }
            let minimum = Int(file[i])
            i += 1
            let indices = try lzwDecode(subBlocks(), minimumCodeSize: minimum, count: w * h)
            for (p, index) in indices.enumerated() where Int(index) != transparent {
                try #require(Int(index) < palette.count, "index \(index) beyond the palette")
                canvas[(y + p / w) * gif.width + x + p % w] = palette[Int(index)]
            }
            gif.frames.append(canvas)
            gif.rects.append((x, y, w, h))
            transparent = nil
        case 0x3B:
            i += 1
            #expect(i == file.count, "nothing after the trailer")
            return gif
        default:
            Issue.record("unknown GIF block \(file[i]) at \(i)")
            return gif
        }
    }
    Issue.record("no GIF trailer")
    return gif
}

func lzwDecode(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws -> [UInt8] {
    let clear = 1 << minimumCodeSize, end = clear + 1
    var table: [[UInt8]] = [], width = minimumCodeSize + 1, out: [UInt8] = [], previous: [UInt8]?
    func reset() { table = (0..<clear).map { [UInt8($0)] } + [[], []]; width = minimumCodeSize + 1; previous = nil }
    reset()
    var bit = 0
    while bit + width <= data.count * 8 {
        var code = 0
        for k in 0..<width where data[(bit + k) / 8] & (1 << ((bit + k) % 8)) != 0 { code |= 1 << k }
        bit += width
        if code == clear { reset(); continue }
        if code == end { break }
        let entry: [UInt8]
        if code < table.count { entry = table[code] } else {
            let p = try #require(previous, "code \(code) with no previous")
            try #require(code == table.count, "code \(code) beyond the table (\(table.count))")
            entry = p + [p[0]]
        }
        out += entry
        if let p = previous, table.count < 4096 { table.append(p + [entry[0]]) }
        previous = entry
        if table.count == 1 << width && width < 12 { width += 1 }
    }
    #expect(out.count == count, "a frame decodes to one index per pixel")
    return out
}

/// A plain 8-bit RGBA PNG of `pixels`.
public func rgbaPNG(_ pixels: [UInt8], width: Int, height: Int) throws -> [UInt8] {
    func be32(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
    func chunk(_ type: String, _ data: [UInt8]) throws -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(try Zlib.crc32(typed)))
    }
    var raw: [UInt8] = []
    for y in 0..<height { raw += [0] + pixels[(y * width * 4)..<((y + 1) * width * 4)] }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (try chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0]))
        + (try chunk("IDAT", try Zlib.deflate(raw))) + (try chunk("IEND", []))
}

/// A PNG of 8-bit straight-alpha RGBA rows: for pictures a test writes to look
/// at or to hand a program, made with the system zlib, not Segue's encoder.
public func pngBytes(width: Int, height: Int, rgba: [UInt8]) throws -> [UInt8] {
    var raw: [UInt8] = []
    raw.reserveCapacity((width * 4 + 1) * height)
    for y in 0..<height {
        raw.append(0)
        raw += rgba[(y * width * 4)..<((y + 1) * width * 4)]
    }
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func chunk(_ type: String, _ body: [UInt8]) throws -> [UInt8] {
        let kind = Array(type.utf8)
        return be32(body.count) + kind + body + be32(Int(try Zlib.crc32(kind + body)))
    }
    let header = be32(width) + be32(height) + [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (try chunk("IHDR", header)) + (try chunk("IDAT", try Zlib.deflate(raw)))
        + (try chunk("IEND", []))
}
