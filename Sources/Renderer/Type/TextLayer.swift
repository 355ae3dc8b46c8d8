import Foundation
import HostContainer

/// A label's text drawn once: its ink, anti-aliased, as premultiplied pixel
/// words over nothing, the size of the text's box, for a label drawn at the
/// renderer's scale without rotation (a view at rest, or sliding). A frame
/// draws the label's box as a plain quad and blends this over it at whole
/// pixels (as cairo places glyphs), rather than shading every pixel of the
/// box against the glyphs again. Made when first asked for and kept while
/// its text, typeface, size and colour are the same: another text, another
/// size or another ink is another layer. Read-only once made; thread-safe.
final class TextLayer: @unchecked Sendable, Equatable {
    static func == (a: TextLayer, b: TextLayer) -> Bool { a === b }
    let width: Int, height: Int
    /// Where the layer's top-left pixel lies from the label's top-left corner, in whole pixels.
    let x: Int, y: Int
    /// Premultiplied RGBA words, row by row.
    let words: [UInt32]
    /// The words over the label's box where it is opaque (premultiplied,
    /// `box`): what the layer's pixels become at full opacity, copied.
    let boxed: (box: UInt32, words: [UInt32])?

    private init(width: Int, height: Int, x: Int, y: Int, words: [UInt32], box: UInt32?) {
        (self.width, self.height, self.x, self.y, self.words) = (width, height, x, y, words)
        boxed = box.map { box in (box, words.map { Pixel.over($0, box) }) }
    }

    private struct Key: Hashable {
        let text: String, typeface: ObjectIdentifier, fontSize: Double?, width: Double, height: Double, scale: Double, ink: Color
        let box: UInt32?
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [Key: TextLayer] = [:]
    /// How many layers are kept at most: more, and all are dropped (a scene has a few dozen labels).
    static let kept = 256

    /// The layer of a label of `width` × `height` points showing `text` in
    /// `typeface` over `background`, drawn at `scale` pixels a point; nil
    /// when the label has no text to draw or the typeface fails.
    static func layer(_ text: String, typeface: Typeface, fontSize: Double?, width: Double, height: Double, scale: Double,
                      background: Color) -> TextLayer? {
        let ink = Content.textColor(on: background), box = background.alpha >= 1 ? Pixel.premultiplied(background) : nil
        let key = Key(text: text, typeface: ObjectIdentifier(typeface), fontSize: fontSize, width: width, height: height, scale: scale, ink: ink, box: box)
        if let layer = lock.withLock({ made[key] }) { return layer }
        guard let layer = make(text, typeface: typeface, fontSize: fontSize, width: width, height: height, scale: scale, ink: ink, box: box)
        else { return nil }
        lock.withLock {
            if made.count >= kept { made.removeAll() }
            made[key] = layer
        }
        return layer
    }

    /// Shades the text's box, pixel by pixel, with the label's own shader over nothing.
    private static func make(_ text: String, typeface: Typeface, fontSize: Double?, width: Double, height: Double, scale: Double,
                             ink: Color, box opaque: UInt32?) -> TextLayer? {
        let pixelSize = 1 / scale
        guard let box = Shader.textBox(text, in: typeface, size: fontSize, width: width, height: height, pixelSize: pixelSize) else { return nil }
        // The ink over a clear background: a pixel's colour is the ink, its alpha the glyphs' coverage.
        let shader = Shader(background: .clear, content: .label(text), typeface: typeface, fontSize: fontSize, ink: ink,
                            width: width, height: height, pixelSize: pixelSize)
        let x0 = pixel(box.left * scale, .down) - 1, x1 = pixel(box.right * scale, .up) + 1
        let y0 = pixel(box.top * scale, .down) - 1, y1 = pixel(box.bottom * scale, .up) + 1
        guard x1 > x0, y1 > y0, (x1 - x0) * (y1 - y0) <= 16_000_000 else { return nil }
        var words = [UInt32](repeating: 0, count: (x1 - x0) * (y1 - y0))
        for py in y0..<y1 {
            for px in x0..<x1 {
                let c = shader.color(u: (Double(px) + 0.5) * pixelSize, v: (Double(py) + 0.5) * pixelSize, pixelSize: pixelSize)
                words[(py - y0) * (x1 - x0) + px - x0] = Pixel.premultiplied(r: Float(c.red), g: Float(c.green), b: Float(c.blue), a: Float(c.alpha))
            }
        }
        return TextLayer(width: x1 - x0, height: y1 - y0, x: x0, y: y0, words: words, box: opaque)
    }

    /// Draws the layer with its top-left at pixel (left, top), within
    /// `clip`, for a label at opacity `alpha` (0...255) whose box was drawn
    /// beneath already: over a clear box, the ink is blended over what is
    /// there; over an opaque box of colour `box` (premultiplied), each
    /// pixel gets what mixing the box's colour with the ink by the glyphs'
    /// coverage, then blending that at `alpha`, would have given, which is
    /// the box's pixel moved towards the ink by coverage × alpha. Where
    /// the box covers every pixel of the layer wholly (`covers`), at full
    /// opacity, the ink over the box is copied.
    func draw(left: Int, top: Int, alpha: UInt32, box: UInt32?, covers: Bool, into target: DrawingTarget, clip: PixelRect) {
        let whole = PixelRect(x0: left, y0: top, x1: left + width, y1: top + height), area = whole.intersection(clip)
        guard !area.isEmpty else { return }
        if covers, alpha == 255, let box, let boxed, boxed.box == box {
            boxed.words.withUnsafeBufferPointer { words in
                for y in area.y0..<area.y1 {
                    (target.row(y) + area.x0).update(from: words.baseAddress! + (y - top) * width + area.x0 - left, count: area.width)
                }
            }
            return
        }
        words.withUnsafeBufferPointer { words in
            for y in area.y0..<area.y1 {
                let from = words.baseAddress! + (y - top) * width - left, to = target.row(y)
                for x in area.x0..<area.x1 where from[x] != 0 {
                    // At full opacity the box's pixel is the box: moving it towards the ink is the ink over it.
                    if let box, alpha != 255 {
                        to[x] = Self.moved(to[x], towards: from[x], from: box, by: alpha)
                    } else {
                        to[x] = Pixel.over(alpha == 255 ? from[x] : Pixel.scaled(from[x], alpha), to[x])
                    }
                }
            }
        }
    }

    /// `pixel` plus `alpha` × (`ink` − coverage × `box`) in each colour
    /// channel, where `ink` is premultiplied by the coverage (its alpha):
    /// alpha × coverage × (ink colour − box colour). Alpha stays.
    @inline(__always)
    private static func moved(_ pixel: UInt32, towards ink: UInt32, from box: UInt32, by alpha: UInt32) -> UInt32 {
        let coverage = Int(ink >> 24), a = Int(alpha)
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let p = Int((pixel >> shift) & 0xFF), i = Int((ink >> shift) & 0xFF), b = Int((box >> shift) & 0xFF)
            // (i - coverage b / 255) a / 255, in 255² units, rounded.
            let delta = (i * 255 - coverage * b) * a
            let moved = p + (delta >= 0 ? (delta + 32_512) / 65_025 : -((-delta + 32_512) / 65_025))
            return UInt32(min(max(moved, 0), 255)) << shift
        }
        // The three colour channels written out, not looped over: this runs for every inked pixel of a fading label.
        return (pixel & 0xFF00_0000) | channel(0) | channel(8) | channel(16)
    }
}
