import Foundation

/// Writes animated PNG files (APNG, which browsers play): full 8-bit RGBA
/// colour where a GIF has 256. Each frame after the first stores only the
/// rectangle that changed from the frame before (replacing those pixels), and
/// a frame that changed nothing lengthens the one before; frames loop forever.
public struct APNGEncoder {
    /// The frames' size in pixels; a frame of another size is not added.
    public let width: Int, height: Int
    private let comment: String?
    private var frames: [(rect: PixelRect, delay: (UInt16, UInt16), data: [UInt8])] = []
    private var last: Canvas?

    /// An encoder of `width` × `height` frames; `comment` (printable ASCII) goes in a tEXt chunk.
    public init(width: Int, height: Int, comment: String? = nil) {
        (self.width, self.height, self.comment) = (width, height, comment)
    }

    /// Adds `canvas` (`width` × `height`), shown for `delay` seconds as a
    /// fraction (numerator, denominator); `changed`, when known, is the
    /// rectangle outside which nothing differs from the frame before (a
    /// renderer's damage): only it is compared.
    public mutating func add(_ canvas: Canvas, delay: (UInt16, UInt16), changed: PixelRect? = nil) {
        guard canvas.width == width, canvas.height == height else { return }
        var rect = canvas.bounds
        if let last {
            // Where the pixels really differ: a renderer's damage may hold pixels drawn again the same.
            rect = Self.difference(last, canvas, within: (changed ?? canvas.bounds).intersection(canvas.bounds))
            if rect.isEmpty {
                // Nothing changed: the frame before lasts longer.
                let previous = frames[frames.count - 1].delay
                frames[frames.count - 1].delay = Self.sum(previous, delay)
                return
            }
        }
        let part = rect == canvas.bounds ? canvas : canvas.cropped(to: rect)
        let raw = PNG.filtered(part)
        frames.append((rect, delay, SystemZlib.compress(raw) ?? Deflate.zlib(raw)))
        last = canvas
    }

    /// The file; `lastDelay` (seconds as a fraction) replaces the last frame's delay, as a hold before the loop.
    public func finish(lastDelay: (UInt16, UInt16)? = nil) -> [UInt8] {
        var file = PNG.signature
        PNG.chunk("IHDR", PNG.bigEndian(UInt32(width)) + PNG.bigEndian(UInt32(height)) + [8, 6, 0, 0, 0], into: &file)
        PNG.chunk("acTL", PNG.bigEndian(UInt32(frames.count)) + PNG.bigEndian(0), into: &file)  // 0 plays: forever
        if let comment { PNG.chunk("tEXt", Array("Comment".utf8) + [0] + printableASCII(comment), into: &file) }
        var sequence: UInt32 = 0
        for (k, frame) in frames.enumerated() {
            let delay = k == frames.count - 1 ? (lastDelay ?? frame.delay) : frame.delay
            var control = PNG.bigEndian(sequence) + PNG.bigEndian(UInt32(frame.rect.width)) + PNG.bigEndian(UInt32(frame.rect.height))
            control += PNG.bigEndian(UInt32(frame.rect.x0)) + PNG.bigEndian(UInt32(frame.rect.y0))
            control += [UInt8(delay.0 >> 8), UInt8(delay.0 & 0xFF), UInt8(delay.1 >> 8), UInt8(delay.1 & 0xFF)]
            control += [0, 0]  // dispose: none; blend: source (the rectangle's pixels replace what was there)
            PNG.chunk("fcTL", control, into: &file)
            sequence += 1
            if k == 0 {
                PNG.chunk("IDAT", frame.data, into: &file)
            } else {
                PNG.chunk("fdAT", PNG.bigEndian(sequence) + frame.data, into: &file)
                sequence += 1
            }
        }
        PNG.chunk("IEND", [], into: &file)
        return file
    }

    /// The smallest rectangle within `area` that holds every pixel differing
    /// between `a` and `b` (of one size); empty when none does.
    static func difference(_ a: Canvas, _ b: Canvas, within area: PixelRect) -> PixelRect {
        var rect = PixelRect.empty
        a.pixels.withUnsafeBytes { before in
            b.pixels.withUnsafeBytes { after in
                let (p, q, width) = (before.bindMemory(to: UInt32.self), after.bindMemory(to: UInt32.self), b.width)
                for y in area.y0..<area.y1 {
                    for x in area.x0..<area.x1 where p[y * width + x] != q[y * width + x] {
                        rect = rect.union(PixelRect(x0: x, y0: y, x1: x + 1, y1: y + 1))
                    }
                }
            }
        }
        return rect
    }

    /// `a` + `b`, two delays as fractions of a second, in hundredths when their denominators differ.
    static func sum(_ a: (UInt16, UInt16), _ b: (UInt16, UInt16)) -> (UInt16, UInt16) {
        if a.1 == b.1, UInt32(a.0) + UInt32(b.0) <= UInt32(UInt16.max) { return (a.0 + b.0, a.1) }
        let hundredths = (Double(a.0) / Double(max(a.1, 1)) + Double(b.0) / Double(max(b.1, 1))) * 100
        return (UInt16(min(hundredths.rounded(), Double(UInt16.max))), 100)
    }
}

extension Canvas {
    /// The pixels of `rect` (within the canvas) as a canvas of their own.
    func cropped(to rect: PixelRect) -> Canvas {
        var part = Canvas(width: rect.width, height: rect.height)
        for y in 0..<rect.height {
            let from = ((rect.y0 + y) * width + rect.x0) * 4
            part.pixels.replaceSubrange(y * rect.width * 4..<(y + 1) * rect.width * 4, with: pixels[from..<from + rect.width * 4])
        }
        return part
    }
}
