import Foundation
import TestSupport
import Testing

@testable import HostContainer
@testable import Renderer

/// Labels in real type: DejaVu Sans through FreeType, proportional, in the
/// case written, anti-aliased; glyphs rasterised once per size (sizes in
/// twelfths of an octave); a font that cannot be had refused with why, and
/// the built-in 5 x 7 font as the fallback.
struct TypeTests {
    static let standard = try? Typeface.standard.get()
    static let note = "skipped: needs FreeType and DejaVu Sans (apt-get install libfreetype6 fonts-dejavu-core; .ci/run does)"

    /// The columns of a label of `text` (white on black, 400 x 60 points) that hold ink.
    static func inkedColumns(_ text: String, typeface: Typeface?) -> (columns: [Int], partial: Int, full: Int) {
        let label = View(frame: Rect(x: 0, y: 0, width: 400, height: 60))
        label.backgroundColor = .white
        label.content = .label(text)
        let canvas = ViewRenderer(scale: 1, typeface: typeface).render(label)
        var columns: Set<Int> = [], partial = 0, full = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let luminance = canvas.color(x: x, y: y).red
                if luminance < 0.9 { columns.insert(x) }
                if luminance > 0.2 && luminance < 0.8 { partial += 1 } else if luminance <= 0.2 { full += 1 }
            }
        }
        return (columns.sorted(), partial, full)
    }

    @Test(.enabled(if: standard != nil, .init(rawValue: note)))
    func typeIsProportionalInTheCaseWrittenAndAntiAliased() throws {
        let typeface = try #require(Self.standard)
        let narrow = Self.inkedColumns("iiii", typeface: typeface), wide = Self.inkedColumns("MMMM", typeface: typeface)
        let span = { (c: [Int]) in (c.last ?? 0) - (c.first ?? 0) }
        #expect(span(wide.columns) > 2 * span(narrow.columns), "proportional: \(span(narrow.columns)) and \(span(wide.columns)) pixels")
        let fallback = (Self.inkedColumns("iiii", typeface: nil), Self.inkedColumns("MMMM", typeface: nil))
        #expect(Double(span(fallback.1.columns)) < 1.2 * Double(span(fallback.0.columns)),
                "the 5 x 7 font is monospaced: the same four cells (the proof the test can tell)")
        // The case written: "segue" is not "SEGUE" in real type; the 5 x 7 font draws both in capitals.
        #expect(Self.inkedColumns("segue", typeface: typeface).columns != Self.inkedColumns("SEGUE", typeface: typeface).columns)
        let text = Self.inkedColumns("Segue show", typeface: typeface)
        #expect(text.partial > 20 && text.full > 20, "anti-aliased: \(text.partial) partly inked pixels, \(text.full) fully")
    }

    @Test(.enabled(if: standard != nil, .init(rawValue: note)))
    func glyphsAreRasterisedOncePerSizeInTwelfthsOfAnOctave() throws {
        let typeface = try Typeface.open("DejaVu Sans").get()
        let first = try #require(typeface.line("Photo", pixelHeight: 20))
        #expect(typeface.rasterised == Set("Photo").count, "each glyph once: \(typeface.rasterised)")
        let near = try #require(typeface.line("Photo", pixelHeight: 20.3))
        #expect(typeface.rasterised == Set("Photo").count, "20.3 pixels draws from the 20-pixel glyphs, scaled")
        #expect(near.pixelHeight == first.pixelHeight && abs(near.scale - 20.3 / first.pixelHeight) < 1e-9)
        _ = typeface.line("Video", pixelHeight: 20)
        #expect(typeface.rasterised == Set("Photo").union("Video").count, "a glyph another label has is not rasterised again")
        _ = typeface.line("Photo", pixelHeight: 24)
        #expect(typeface.rasterised == Set("Photo").union("Video").count + Set("Photo").count, "another size: its own glyphs")
    }

    @Test func aFontThatCannotBeHadIsRefusedSayingWhy() {
        let folder = makeTemporaryFolder("fonts")
        try? "not a font".write(toFile: folder + "/broken.ttf", atomically: false, encoding: .utf8)
        let cases: [(String, String?, String)] = [
            ("DejaVu Sans", "libsegue-no-such-freetype.so.6", "apt-get install libfreetype6"),
            (folder + "/missing.ttf", nil, "no font file at \(folder)/missing.ttf"),
            (folder + "/broken.ttf", nil, "not a font FreeType reads"),
        ]
        for (name, library, words) in cases {
            guard case .failure(let problem) = Typeface.open(name, library: library) else {
                Issue.record("\(name) opened")
                continue
            }
            #expect(problem.description.contains(words), "\(name): \(problem)")
            #expect(problem.libraryMissing == (library != nil))
        }
    }

    /// A label changed and a typeface changed are both drawn again.
    @Test(.enabled(if: standard != nil, .init(rawValue: note)))
    func aFrameRendererDrawsALabelAgainInAnotherTypeface() throws {
        let view = View(frame: Rect(x: 0, y: 0, width: 200, height: 40))
        view.content = .label("Photo")
        let frames = FrameRenderer(renderer: ViewRenderer(scale: 1, typeface: Self.standard))
        frames.render(view)
        #expect(frames.render(view).isEmpty)
        view.content = .label("Video")
        #expect(!frames.render(view).isEmpty)
        let serif = try Typeface.open("DejaVu Serif").get()
        let other = FrameRenderer(renderer: ViewRenderer(scale: 1, typeface: serif))
        other.render(view)
        #expect(other.canvas.rgba8 != frames.canvas.rgba8, "DejaVu Serif is not DejaVu Sans")
    }
}
