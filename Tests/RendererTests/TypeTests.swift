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

    /// A label at rest has its text drawn once, as a layer kept for the
    /// frames after: the same label in the next frame, and moved by any
    /// amount, is drawn from the same layer; another text, another size of
    /// box or of type, another colour beneath (so another ink) or another
    /// typeface is another layer. Each frame equals the label drawn afresh.
    @Test(.enabled(if: standard != nil, .init(rawValue: note)))
    func aLabelsTextIsDrawnOnceAndDrawnAgainWhenItChanges() throws {
        let typeface = try #require(Self.standard)
        let root = View(frame: Rect(x: 0, y: 0, width: 240, height: 80))
        root.backgroundColor = .white
        let label = View(frame: Rect(x: 20, y: 20, width: 200, height: 40))
        label.backgroundColor = Color(red: 0.95, green: 0.9, blue: 0.8)
        label.cornerRadius = 8
        label.content = .label("Photo")
        root.addSubview(label)
        let renderer = ViewRenderer(scale: 2, typeface: typeface)
        func layer() -> TextLayer? {
            renderer.items(root, canvas: PixelRect(x0: 0, y0: 0, x1: 480, y1: 160)).compactMap { item -> TextLayer? in
                if case .quad(let quad) = item { quad.textLayer } else { nil }
            }.first
        }
        let frames = FrameRenderer(renderer: renderer)
        /// The frame renderer's frame (drawing only what changed) is the label drawn afresh.
        func drawnAsAfresh() -> Bool {
            frames.render(root)
            return frames.canvas.pixels == renderer.render(root).pixels
        }
        let first = try #require(layer(), "a label at rest has a text layer")
        #expect(layer() === first, "the next frame draws the same layer")
        #expect(drawnAsAfresh())
        label.frame.x = 23.25
        #expect(layer() === first, "moving keeps the layer")
        #expect(drawnAsAfresh())
        var seen = [first]
        func changed(_ what: String) throws {
            let next = try #require(layer(), "\(what): no layer")
            #expect(!seen.contains { $0 === next }, "\(what) is drawn anew")
            #expect(drawnAsAfresh(), "\(what): the frame")
            seen.append(next)
        }
        label.content = .label("Video")
        try changed("another text")
        label.frame.width = 180
        try changed("another width")
        label.fontSize = 11
        try changed("another size of type")
        label.backgroundColor = Color(red: 0.15, green: 0.15, blue: 0.2)
        try changed("another ink")
        let serif = try Typeface.open("DejaVu Serif").get()
        let other = ViewRenderer(scale: 2, typeface: serif)
        let serifLayer = other.items(root, canvas: PixelRect(x0: 0, y0: 0, x1: 480, y1: 160)).compactMap { item -> TextLayer? in
            if case .quad(let quad) = item { quad.textLayer } else { nil }
        }.first
        #expect(serifLayer != nil && !seen.contains { $0 === serifLayer! }, "another typeface is another layer")
        // Turned (not upright) or scaled, the label is shaded pixel by pixel, as before.
        label.transform = Transform3D([cos(0.2), sin(0.2), 0, 0, -sin(0.2), cos(0.2), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(layer() == nil)
        #expect(drawnAsAfresh())
    }
}
