import Foundation
import Testing

@testable import HostContainer
@testable import Renderer

/// The software renderer's text: the glyph atlas, each glyph told apart at the
/// filmstrips' size, drawn as the atlas has it, anti-aliased.
struct TextDrawingTests {
    /// A filmstrip's time label as the README's filmstrips draw it (scale 0.3:
    /// 16 pixels high), as luminance per pixel.
    /// The luminance of each pixel of a label of `text`, in the built-in 5 x 7 font unless `typeface` is given.
    func labelPixels(_ text: String, scale: Double = 0.3, typeface: Typeface? = nil) -> [Double] {
        let label = View(frame: Rect(x: 0, y: 0, width: 117 / scale, height: 16 / scale))
        label.content = .label(text)
        let canvas = ViewRenderer(scale: scale, typeface: typeface).render(label)
        var out: [Double] = []
        for y in 0..<canvas.height { for x in 0..<canvas.width {
            let c = canvas.color(x: x, y: y)
            out.append(0.3 * c.red + 0.59 * c.green + 0.11 * c.blue)
        } }
        return out
    }

    @Test func everyGlyphLooksDifferentFromEveryOtherAtTheFilmstripsSize() {
        let glyphs = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789s.,:-_<>=()/'!?")
        let drawn = glyphs.map { labelPixels(String($0)) }
        for i in glyphs.indices {
            for j in glyphs.indices where j > i {
                // At least one full pixel's worth of contrast apart.
                let difference = zip(drawn[i], drawn[j]).reduce(0) { $0 + abs($1.0 - $1.1) }
                #expect(difference > 1, "'\(glyphs[i])' and '\(glyphs[j])' look alike (\(difference))")
            }
        }
        // The case the README's filmstrips got wrong: "0.08 s" drew as "0.00 s" at scale 0.3.
        let renderer = ViewRenderer(scale: 0.3)
        let frame = Canvas(width: 117, height: 253, color: .white)
        let strips = [0, 0.08].map { Filmstrip.compose([TransitionPreview.Frame(time: $0, canvas: frame)], renderer: renderer) }
        let difference = zip(strips[0].pixels, strips[1].pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(difference > 10 * 255, "the labels differ by \(difference)")
    }

    /// Every glyph of the atlas drawn large, each font cell 10 pixels on a
    /// side on whole pixels: a cell's centre pixel is ink exactly where the
    /// atlas says, and the glyph leaves nothing outside its 5 × 7 cells.
    @Test func everyGlyphIsDrawnAsTheAtlasHasIt() {
        let cell = 10
        for (slot, glyph) in GlyphAtlas.glyphs.enumerated() {
            // A label of one glyph, sized so that a font cell is `cell` pixels and the text starts on a whole pixel.
            let width = Double(5 * cell + 40)
            let view = View(frame: Rect(x: 0, y: 0, width: width, height: Double(8 * cell) / 0.7))
            view.backgroundColor = .white
            view.content = .label(String(glyph.character))
            let canvas = ViewRenderer(scale: 1, typeface: nil).render(view)
            let textX = (width - Double(5 * cell)) / 2, textY = (view.bounds.height - Double(7 * cell)) / 2
            var wrong: [String] = []
            for column in 0..<5 {
                for row in 0..<7 {
                    let x = Int(textX) + column * cell + cell / 2, y = Int(textY.rounded(.down)) + row * cell + cell / 2
                    let inked = canvas.color(x: x, y: y).red < 0.5
                    if inked != GlyphAtlas.ink(slot: slot + 1, column: column, row: row) { wrong.append("(\(column), \(row))") }
                }
            }
            #expect(wrong.isEmpty, "'\(glyph.character)' differs from the atlas at cells \(wrong)")
        }
        // Lower case is drawn as capitals, but for "s"; what the font lacks, as blank.
        #expect(GlyphAtlas.slot("a") == GlyphAtlas.slot("A") && GlyphAtlas.slot("s") != GlyphAtlas.slot("S"))
        #expect(GlyphAtlas.slot("é") == 0 && GlyphAtlas.slot("#") == 0)
    }

    @Test func textIsAntiAliased() {
        // Font cells of 1.4 pixels: some pixels are partly ink.
        let pixels = labelPixels("0.08 s")
        let partial = pixels.filter { $0 > 0.15 && $0 < 0.85 }.count
        let ink = pixels.filter { $0 <= 0.15 }.count
        #expect(partial > 10 && ink > 0, "\(partial) partly inked pixels, \(ink) fully")
    }
}
