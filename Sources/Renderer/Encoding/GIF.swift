/// Writes looping animated GIF89a files with our own LZW encoder. Colours are
/// mapped to one global palette, a 6×7×6 colour cube (252 entries): exact for
/// greys and primaries, close enough for previews.
public enum GIF {
    /// An animation of `frames` (all the size of the first), each shown for
    /// `delays[i]` hundredths of a second, looping forever.
    public static func encode(frames: [Canvas], delays: [Int]) -> [UInt8] {
        guard let first = frames.first else { return [] }
        let width = first.width, height = first.height
        var out: [UInt8] = Array("GIF89a".utf8)
        out += le16(width) + le16(height)
        out += [0xF7, 0, 0]  // global colour table of 2^(7+1) entries, background 0, square pixels
        for i in 0..<256 {
            let (r, g, b) = i < 252 ? (i / 42, (i / 6) % 7, i % 6) : (0, 0, 0)
            out += [UInt8(r * 255 / 5), UInt8(g * 255 / 6), UInt8(b * 255 / 5)]
        }
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]  // loop forever
        for (index, frame) in frames.enumerated() {
            let delay = index < delays.count ? delays[index] : 2
            out += [0x21, 0xF9, 0x04, 0x00] + le16(delay) + [0x00, 0x00]  // graphic control: delay, no transparency
            out += [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0x00]
            out.append(8)  // minimum code size
            let data = lzw(indices(frame, width: width, height: height))
            var i = 0
            while i < data.count {
                let n = min(255, data.count - i)
                out.append(UInt8(n))
                out += data[i..<(i + n)]
                i += n
            }
            out.append(0)
        }
        out.append(0x3B)
        return out
    }

    /// Palette indices of a frame, cropped or padded to `width` × `height`.
    static func indices(_ canvas: Canvas, width: Int, height: Int) -> [UInt8] {
        let rgba = canvas.rgba8
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<min(height, canvas.height) {
            for x in 0..<min(width, canvas.width) {
                let p = (y * canvas.width + x) * 4
                let r = (Int(rgba[p]) * 5 + 127) / 255, g = (Int(rgba[p + 1]) * 6 + 127) / 255, b = (Int(rgba[p + 2]) * 5 + 127) / 255
                out[y * width + x] = UInt8(r * 42 + g * 6 + b)
            }
        }
        return out
    }

    /// Variable-width LZW with 8-bit roots, as GIF wants: clear code 256, end 257,
    /// codes up to 12 bits, a clear as soon as code 4095 is taken.
    static func lzw(_ pixels: [UInt8]) -> [UInt8] {
        let clear = 256, end = 257
        var out = BitWriter()
        var table = [Int32](repeating: -1, count: 4096 * 256)  // (prefix code, byte) -> code
        var used: [Int] = []
        var next = 258, width = 9
        out.write(clear, bits: width)
        guard var prefix = pixels.first.map(Int.init) else {
            out.write(end, bits: width)
            out.flush()
            return out.bytes
        }
        for byte in pixels.dropFirst() {
            let key = prefix << 8 | Int(byte)
            let code = table[key]
            if code >= 0 {
                prefix = Int(code)
                continue
            }
            out.write(prefix, bits: width)
            table[key] = Int32(next)
            used.append(key)
            if next >= 1 << width { width += 1 }
            next += 1
            if next == 4096 {
                // The table is full: start afresh.
                out.write(clear, bits: width)
                for k in used { table[k] = -1 }
                used.removeAll(keepingCapacity: true)
                next = 258
                width = 9
            }
            prefix = Int(byte)
        }
        out.write(prefix, bits: width)
        out.write(end, bits: width)
        out.flush()
        return out.bytes
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
}
