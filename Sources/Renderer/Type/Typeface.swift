import Foundation
import GraphicsShims

/// A font file, drawn with FreeType (loaded at run time): labels in
/// anti-aliased, proportional type, in the case they were written in.
/// Glyphs are rasterised once per size and kept (the atlas); sizes are
/// taken in twelfths of an octave, so that a label that grows through a
/// transition draws from a few sizes, each scaled by at most 3%, rather
/// than rasterising anew every frame. Thread-safe; two typefaces are equal
/// when they are the same object.
public final class Typeface: @unchecked Sendable, Equatable {
    public static func == (a: Typeface, b: Typeface) -> Bool { a === b }

    /// The font file.
    public let path: String
    /// The shared library to load FreeType from (nil: libfreetype.so.6).
    let library: String?
    private var sizes: [Int: Size] = [:]
    /// How many glyphs were rasterised, at every size (each once).
    var rasterised: Int { lock.withLock { sizes.values.reduce(0) { $0 + $1.count } } }
    private var lines: [LineKey: TextLine] = [:]
    private let lock = NSLock()

    /// What the standard typeface is: DejaVu Sans (in Debian's folder, else as
    /// fontconfig finds it), or why there is none (then labels use the built-in
    /// 5 x 7 font). The folder is looked in first: fontconfig, which reads
    /// every font's description, costs a process about 1.5 MiB.
    public static let standard: Result<Typeface, TypeProblem> = {
        let debian = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        if FileManager.default.fileExists(atPath: debian), case .success(let typeface) = open(debian) { return .success(typeface) }
        return open("DejaVu Sans")
    }()

    /// The typeface `name` means: a font file's path (it has a '/'), or a
    /// family fontconfig matches ("DejaVu Serif"); `library` names FreeType's shared library instead of the standard one.
    public static func open(_ name: String, library: String? = nil) -> Result<Typeface, TypeProblem> {
        var path = name
        if !name.contains("/") {
            var found = [CChar](repeating: 0, count: 4096), family = [CChar](repeating: 0, count: 256)
            func text(_ c: [CChar]) -> String { String(decoding: c.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            if graphics_font_find(name, nil, &found, found.count, &family, family.count) == 0 {
                // fontconfig offers its best match for any name: one of another family is not the font asked for.
                let wanted = name.split(separator: ":").first.map(String.init) ?? name
                guard text(family).lowercased() == wanted.lowercased() else {
                    return .failure(TypeProblem(description: "no font named '\(wanted)' (fontconfig's nearest is '\(text(family))')",
                                                libraryMissing: false))
                }
                path = text(found)
            } else if name == "DejaVu Sans" {
                path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
            } else {
                return .failure(TypeProblem(description: "no font matches '\(name)' (fontconfig: apt-get install fontconfig, or name a font file)",
                                            libraryMissing: false))
            }
        }
        guard FileManager.default.fileExists(atPath: path) else {
            let package = name == "DejaVu Sans" ? " (apt-get install fonts-dejavu-core)" : ""
            return .failure(TypeProblem(description: "no font file at \(path)\(package)", libraryMissing: false))
        }
        let typeface = Typeface(path: path, library: library)
        // Open it once now, so that a file FreeType cannot read is said here rather than while drawing.
        var message = [CChar](repeating: 0, count: 256)
        guard let probe = graphics_font_open(path, 16, library, &message, message.count) else {
            let said = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let missing = said.hasPrefix("cannot load")
            return .failure(TypeProblem(description: missing ? "\(said) (apt-get install libfreetype6)" : "\(path): \(said)", libraryMissing: missing))
        }
        graphics_font_close(probe)
        return .success(typeface)
    }

    private init(path: String, library: String?) {
        self.path = path
        self.library = library
    }

    deinit { for size in sizes.values { graphics_font_close(size.font) } }

    /// `text` laid out in one line for type `pixelHeight` pixels an em: the
    /// glyphs of the nearest size kept, and the factor that scales them to `pixelHeight`.
    func line(_ text: String, pixelHeight: Double) -> TextLine? {
        let step = Int((12 * log2(max(pixelHeight, 1))).rounded())
        let key = LineKey(text: text, step: step)
        lock.lock()
        defer { lock.unlock() }
        if let line = lines[key] {
            return line.scaled(to: pixelHeight)
        }
        guard let size = size(step) else { return nil }
        var glyphs: [(x: Double, glyph: Glyph)] = [], pen = 0.0, previous: UInt32 = 0
        for scalar in text.unicodeScalars {
            let glyph = size.glyph(scalar.value)
            pen += graphics_font_kerning(size.font, previous, glyph.index)
            glyphs.append((pen, glyph))
            pen += glyph.advance
            previous = glyph.index
        }
        if lines.count > 512 { lines.removeAll() }
        let line = TextLine(glyphs: glyphs, width: pen, ascender: size.ascender, descender: size.descender, pixelHeight: size.pixelHeight, scale: 1)
        lines[key] = line
        return line.scaled(to: pixelHeight)
    }

    /// The font at size `step` (2^(step/12) pixels an em), opened when first asked for.
    private func size(_ step: Int) -> Size? {
        if let size = sizes[step] { return size }
        let pixelHeight = pow(2, Double(step) / 12)
        guard let font = graphics_font_open(path, pixelHeight, library, nil, 0) else { return nil }
        let size = Size(font: font, pixelHeight: pixelHeight)
        sizes[step] = size
        return size
    }

    private struct LineKey: Hashable { let text: String, step: Int }

    /// One size of the font, and its glyphs rasterised so far.
    final class Size {
        let font: OpaquePointer
        let pixelHeight: Double
        let ascender: Double, descender: Double
        private var glyphs: [UInt32: Glyph] = [:]
        var count: Int { glyphs.count }

        init(font: OpaquePointer, pixelHeight: Double) {
            self.font = font
            self.pixelHeight = pixelHeight
            var ascender = 0.0, descender = 0.0, height = 0.0
            graphics_font_metrics(font, &ascender, &descender, &height)
            (self.ascender, self.descender) = (ascender, descender)
        }

        /// The glyph of `codepoint`, rendered the first time it is asked for (under the typeface's lock).
        func glyph(_ codepoint: UInt32) -> Glyph {
            if let glyph = glyphs[codepoint] { return glyph }
            var rendered = graphics_glyph()
            var glyph = Glyph(index: 0, left: 0, top: 0, width: 0, rows: 0, advance: 0, coverage: [])
            if graphics_font_render(font, codepoint, &rendered) == 0 {
                var coverage = [UInt8](repeating: 0, count: Int(rendered.width) * Int(rendered.rows))
                for y in 0..<Int(rendered.rows) {
                    for x in 0..<Int(rendered.width) {
                        coverage[y * Int(rendered.width) + x] = rendered.coverage[y * Int(rendered.pitch) + x]
                    }
                }
                glyph = Glyph(index: rendered.index, left: Int(rendered.left), top: Int(rendered.top), width: Int(rendered.width),
                              rows: Int(rendered.rows), advance: rendered.advance, coverage: coverage)
            }
            glyphs[codepoint] = glyph
            return glyph
        }
    }
}

/// Why there is no typeface, in words for a message.
public struct TypeProblem: Error, Equatable, CustomStringConvertible {
    /// What went wrong, naming the font or library and, where it helps, the package to install.
    public let description: String
    /// Whether FreeType itself is missing.
    public let libraryMissing: Bool
}

/// A glyph's coverage, 0 to 255, `width` × `rows`, its top-left `left`
/// pixels right of the pen and `top` above the baseline.
struct Glyph: Sendable {
    let index: UInt32
    let left: Int, top: Int, width: Int, rows: Int
    let advance: Double
    let coverage: [UInt8]

    /// The coverage at (x, y) of the bitmap (pixel centres at halves), bilinear, 0 to 1.
    @inline(__always)
    func coverage(x: Double, y: Double) -> Double {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = floorInt(fx), y0 = floorInt(fy)
        let tx = fx - Double(x0), ty = fy - Double(y0)
        func at(_ x: Int, _ y: Int) -> Double {
            x >= 0 && y >= 0 && x < width && y < rows ? Double(coverage[y * width + x]) : 0
        }
        let top = at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx
        let bottom = at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx
        return (top * (1 - ty) + bottom * ty) / 255
    }
}

/// A line of text laid out at one of a typeface's kept sizes: each glyph at
/// its pen position, in that size's pixels; `scale` maps them to the size asked for.
struct TextLine: Sendable {
    let glyphs: [(x: Double, glyph: Glyph)]
    /// Advance of the whole line, ascender (above the baseline) and descender (below: negative), in the kept size's pixels.
    let width: Double, ascender: Double, descender: Double
    let pixelHeight: Double
    /// Pixels asked for per pixel kept.
    let scale: Double

    func scaled(to pixelHeight: Double) -> TextLine {
        TextLine(glyphs: glyphs, width: width, ascender: ascender, descender: descender, pixelHeight: self.pixelHeight,
                 scale: pixelHeight / self.pixelHeight)
    }

    /// The coverage at (x, y) in the kept size's pixels, x from the line's start and y down from the baseline, 0 to 1.
    @inline(__always)
    func coverage(x: Double, y: Double) -> Double {
        // The last glyph whose pen is at or left of x, and its neighbours (bitmaps overhang their advances).
        var low = 0, high = glyphs.count
        while low < high {
            let mid = (low + high) / 2
            if glyphs[mid].x <= x { low = mid + 1 } else { high = mid }
        }
        var most = 0.0
        for k in max(low - 2, 0)..<min(low + 1, glyphs.count) {
            let (pen, glyph) = glyphs[k]
            guard glyph.width > 0 else { continue }
            most = max(most, glyph.coverage(x: x - pen - Double(glyph.left), y: y + Double(glyph.top)))
        }
        return min(most, 1)
    }
}
