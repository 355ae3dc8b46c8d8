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
    /// fraction (numerator, denominator); `changed` is the rectangle that
    /// differs from the frame before, when known (else it is found).
    public mutating func add(_ canvas: Canvas, delay: (UInt16, UInt16), changed: PixelRect? = nil) {
        guard canvas.width == width, canvas.height == height else { return }
        var rect = canvas.bounds
        if let last {
            rect = (changed ?? Self.difference(last, canvas)).intersection(canvas.bounds)
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

    /// The smallest rectangle holding every pixel that differs between `a` and `b` (as 8-bit RGBA).
    static func difference(_ a: Canvas, _ b: Canvas) -> PixelRect {
        let before = a.rgba8, after = b.rgba8
        var rect = PixelRect.empty
        for y in 0..<b.height {
            let row = y * b.width * 4
            var x = 0
            while x < b.width {
                let k = row + x * 4
                if before[k] != after[k] || before[k + 1] != after[k + 1] || before[k + 2] != after[k + 2] || before[k + 3] != after[k + 3] {
                    rect = rect.union(PixelRect(x0: x, y0: y, x1: x + 1, y1: y + 1))
                }
                x += 1
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
