import Foundation
import HostContainer

/// A view's own colour at a point of its bounds: background, then picture
/// (procedural or a file) or label. Made once per view and frame; everything a pixel needs is worked
/// out here, so that shading a pixel allocates nothing and touches no string.
struct Shader {
    private enum Kind { case plain, image, label, type, picture }

    let background: Color
    private let kind: Kind
    let width: Double, height: Double
    private let inverseWidth: Double, inverseHeight: Double
    private let painter: ImagePainter?
    // A label's glyphs, as a row of font columns (a glyph's five, then a
    // blank one, for each character), and where its text lies.
    private let columns: [UInt8]
    private let unit: Double, textX: Double, textY: Double, textRight: Double, textBottom: Double
    private let ink: Color
    // A picture file's level to sample, and the map from the view's points to its pixels.
    private let picture: Picture.Level?
    private let pictureMap: (ax: Double, bx: Double, ay: Double, by: Double)
    private let clipsPicture: Bool
    // A label in real type: its line, and the map from the view's points to the line's pixels.
    private let line: TextLine?
    private let typeScale: Double, baseline: Double

    /// A view's shader; `picture` is what a `.picture` content shows (nil: the
    /// background alone), `typeface` what a label is drawn in (nil: the built-in
    /// 5 x 7 font), `ink` its colour (nil: the one for the background),
    /// `pixelSize` how many of the view's points a device pixel spans.
    init(background: Color, content: ViewContent, picture file: Picture? = nil, typeface: Typeface? = nil, fontSize: Double? = nil,
         ink: Color? = nil, width: Double, height: Double, pixelSize: Double) {
        self.background = background
        self.width = width
        self.height = height
        (inverseWidth, inverseHeight) = (1 / width, 1 / height)
        self.ink = ink ?? Content.textColor(on: background)
        painter = if case .image(let seed) = content { ImagePainter.for(seed: seed) } else { nil }
        if case .picture(_, let fit) = content, let file {
            (picture, pictureMap) = Self.map(file, fit: fit, width: width, height: height, pixelSize: pixelSize)
            clipsPicture = fit == .contain
        } else if case .image(let seed) = content, let drawn = ImagePainter.bitmap(seed: seed, width: width / pixelSize, height: height / pixelSize) {
            // A procedural picture: painted once at the size it is drawn (a whole one) or just above it, then sampled as a file's.
            (picture, clipsPicture) = (drawn, false)
            pictureMap = (Double(drawn.width) / width, 0, Double(drawn.height) / height, 0)
        } else {
            (picture, pictureMap, clipsPicture) = (nil, (0, 0, 0, 0), false)
        }
        let typeset: (line: TextLine, x: Double, baseline: Double)? = if case .label(let text) = content, let typeface {
            Self.typeset(text, in: typeface, size: fontSize, width: width, height: height, pixelSize: pixelSize)
        } else {
            nil
        }
        (line, typeScale, baseline) = typeset.map { ($0.line, $0.line.scale * pixelSize, $0.baseline) } ?? (nil, 1, 0)
        switch content {
        case .none, .image, .picture:
            kind = switch content {
            case .image: picture == nil ? .image : .picture
            case .picture: picture == nil ? .plain : .picture
            default: .plain
            }
            (columns, unit, textX, textY, textRight, textBottom) = ([], 1, 0, 0, 0, 0)
        case .label where typeset != nil:
            kind = .type
            let (line, x, baseline) = typeset!
            let s = line.scale * pixelSize
            // The box the glyphs may reach, a pixel around the line's advance and between ascender and descender.
            (columns, unit, textX, textRight) = ([], 1, x, x + line.width * s)
            (textY, textBottom) = (baseline - line.ascender * s - pixelSize, baseline - line.descender * s + pixelSize)
        case .label(let text):
            kind = .label
            let slots = text.map(GlyphAtlas.slot)
            columns = slots.flatMap { slot in (0..<GlyphAtlas.advance).map { $0 < GlyphAtlas.width ? GlyphAtlas.columns[slot * GlyphAtlas.width + $0] : 0 } }
            let count = Double(max(slots.count, 1) * GlyphAtlas.advance)
            unit = max(min(height * 0.7 / Double(GlyphAtlas.lineHeight), (width - 8) / count), 0.01)
            textX = (width - Double(slots.count * GlyphAtlas.advance - 1) * unit) / 2
            textY = (height - 7 * unit) / 2
            textRight = textX + Double(slots.count * GlyphAtlas.advance) * unit
            textBottom = textY + 7 * unit
        }
    }

    /// Whether every point has the background's colour.
    var isPlain: Bool { kind == .plain }

    /// The colour at (u, v) for a pixel about `pixelSize` points wide: text is
    /// anti-aliased by the share of 4 × 4 samples across the pixel that fall on ink.
    @inline(__always)
    func color(u: Double, v: Double, pixelSize: Double) -> Color {
        switch kind {
        case .plain:
            return background
        case .image:
            return painter.unsafelyUnwrapped.color(u: u * inverseWidth, v: v * inverseHeight)
        case .picture:
            let level = picture.unsafelyUnwrapped
            let x = u * pictureMap.ax + pictureMap.bx, y = v * pictureMap.ay + pictureMap.by
            if clipsPicture, x < 0 || y < 0 || x >= Double(level.width) || y >= Double(level.height) { return background }
            return Self.over(level.color(x: x, y: y), background)
        case .type:
            guard u + pixelSize >= textX, u - pixelSize < textRight, v >= textY, v < textBottom else { return background }
            let share = line.unsafelyUnwrapped.coverage(x: (u - textX) / typeScale, y: (v - baseline) / typeScale)
            guard share > 0 else { return background }
            return background.alpha == 0 ? Color(red: ink.red, green: ink.green, blue: ink.blue, alpha: ink.alpha * share)
                : Content.mix(background, ink, share)
        case .label:
            let reach = 0.375 * pixelSize  // the outermost samples' offset
            guard u + reach >= textX, u - reach < textRight, v + reach >= textY, v - reach < textBottom else { return background }
            // The font column under each of the 4 sample columns (0 off the text), and the font row of each sample row.
            var inked = SIMD4<UInt8>(), rows = SIMD4<Int>()
            for k in 0..<4 {
                let offset = (Double(k) - 1.5) / 4 * pixelSize
                let column = floorInt((u + offset - textX) / unit)
                inked[k] = column >= 0 && column < columns.count ? columns[column] : 0
                rows[k] = floorInt((v + offset - textY) / unit)
            }
            var hits = 0
            for r in 0..<4 where rows[r] >= 0 && rows[r] < GlyphAtlas.height {
                let bits = (inked &>> SIMD4(repeating: UInt8(rows[r]))) & 1
                hits += Int(bits[0] + bits[1] + bits[2] + bits[3])
            }
            guard hits > 0 else { return background }
            let share = Double(hits) / 16
            // Over nothing, fade the ink itself: mixing towards clear black would darken light ink's edges.
            return background.alpha == 0 ? Color(red: ink.red, green: ink.green, blue: ink.blue, alpha: ink.alpha * share)
                : Content.mix(background, ink, share)
        }
    }
}

extension Shader {
    /// The sampler of a picture content, for spans the quad covers wholly; nil for any other content.
    var pictureSampler: PictureSampler? {
        guard kind == .picture, let level = picture else { return nil }
        return PictureSampler(level: level, ax: pictureMap.ax, bx: pictureMap.bx, ay: pictureMap.ay, by: pictureMap.by, clips: clipsPicture,
                              background: Pixel.premultiplied(background))
    }

    /// The level of `file` to sample for a view of `width` × `height` points
    /// drawn `pixelSize` points a device pixel, and the map from the view's
    /// points to that level's pixels: `fit` says how the picture's shape meets the view's.
    static func map(_ file: Picture, fit: PictureFit, width: Double, height: Double, pixelSize: Double)
        -> (Picture.Level, (ax: Double, bx: Double, ay: Double, by: Double)) {
        let (pw, ph) = (Double(file.width), Double(file.height))
        // Points per picture pixel, across and down.
        var (sx, sy) = (width / pw, height / ph)
        switch fit {
        case .cover: (sx, sy) = (max(sx, sy), max(sx, sy))
        case .contain: (sx, sy) = (min(sx, sy), min(sx, sy))
        case .fill: break
        }
        // The picture centred on the view; a picture pixel spans min(sx, sy) / pixelSize device pixels.
        // Drawn at a whole number of pixels a side (a view at rest, or moving without scaling), it is
        // sampled from a copy made at that size, pixel for pixel; else from the mipmap level above it.
        let (drawnWidth, drawnHeight) = (pw * sx / max(pixelSize, 1e-9), ph * sy / max(pixelSize, 1e-9))
        let whole = abs(drawnWidth - drawnWidth.rounded()) < 1e-6 && abs(drawnHeight - drawnHeight.rounded()) < 1e-6
        let level = (whole ? file.resampled(width: pixel(drawnWidth, .toNearestOrAwayFromZero), height: pixel(drawnHeight, .toNearestOrAwayFromZero)) : nil)
            ?? file.level(forFootprint: min(sx, sy) / max(pixelSize, 1e-9))
        let (kx, ky) = (Double(level.width) / pw, Double(level.height) / ph)
        let (left, top) = ((width - pw * sx) / 2, (height - ph * sy) / 2)
        return (level, (kx / sx, -left * kx / sx, ky / sy, -top * ky / sy))
    }

    /// `text` set in `typeface` for a `width` × `height` label drawn
    /// `pixelSize` points a device pixel: `size` points an em (half the
    /// label's height unless told), or less when it would not fit 4 points
    /// inside the sides; centred across, and down between its ascender and
    /// descender. Its line, left edge and baseline in the view's points; nil
    /// when the typeface fails.
    static func typeset(_ text: String, in typeface: Typeface, size: Double?, width: Double, height: Double, pixelSize: Double)
        -> (line: TextLine, x: Double, baseline: Double)? {
        var em = size ?? height * 0.5
        guard em > 0, pixelSize > 0, var line = typeface.line(text, pixelHeight: em / pixelSize) else { return nil }
        let room = width - 8
        if line.width * line.scale * pixelSize > room, room > 0 {
            em *= room / (line.width * line.scale * pixelSize)
            guard let fitted = typeface.line(text, pixelHeight: max(em / pixelSize, 1)) else { return nil }
            line = fitted
        }
        let s = line.scale * pixelSize
        let x = (width - line.width * s) / 2
        let baseline = height / 2 + (line.ascender + line.descender) * s / 2
        return (line, x, baseline)
    }

    /// The box (in the view's points) a label's glyphs may reach: a pixel
    /// around the line's advance and between its ascender and descender, as
    /// ``typeset(_:in:size:width:height:pixelSize:)`` sets it; nil as it is.
    static func textBox(_ text: String, in typeface: Typeface, size: Double?, width: Double, height: Double, pixelSize: Double)
        -> (left: Double, top: Double, right: Double, bottom: Double)? {
        guard let (line, x, baseline) = typeset(text, in: typeface, size: size, width: width, height: height, pixelSize: pixelSize) else { return nil }
        let s = line.scale * pixelSize
        return (x - pixelSize, baseline - line.ascender * s - pixelSize, x + line.width * s + pixelSize, baseline - line.descender * s + pixelSize)
    }

    /// `top` (straight, with alpha) over `bottom`.
    @inline(__always)
    static func over(_ top: Color, _ bottom: Color) -> Color {
        if top.alpha >= 1 || bottom.alpha <= 0 { return top }
        let a = top.alpha + bottom.alpha * (1 - top.alpha)
        guard a > 0 else { return .clear }
        let wb = bottom.alpha * (1 - top.alpha)
        return Color(red: (top.red * top.alpha + bottom.red * wb) / a, green: (top.green * top.alpha + bottom.green * wb) / a,
                     blue: (top.blue * top.alpha + bottom.blue * wb) / a, alpha: a)
    }
}

/// ``Content/imageColor(seed:u:v:)`` with its per-seed work done once: the
/// colours, and the ridge line sampled finely enough that interpolating it
/// is exact to a millionth of the picture's height.
package struct ImagePainter: Sendable {
    let seed: Int
    private let sunHue: Color, top: Color, bottom: Color
    /// The hills' colour at full value: the picture scales it by 0.32 + 0.1 (1 − v).
    private let hills: Color
    private let ridge: [Double]
    private static let samples = 1024

    init(seed: Int) {
        self.seed = seed
        let hue = (Double(seed) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
        hills = Content.hsv(hue + 0.5, 0.45, 1)
        sunHue = Content.hsv(hue + 0.12, 0.75, 1)
        top = Content.hsv(hue, 0.55, 0.9)
        bottom = Content.hsv(hue + 0.08, 0.3, 1)
        ridge = (0...Self.samples).map { Content.ridge(seed: seed, u: Double($0) / Double(Self.samples)) }
    }

    /// The colour at (u, v) in [0, 1]².
    @inline(__always)
    func color(u: Double, v: Double) -> Color {
        let line = ridgeLine(u)
        if v > line {
            let value = 0.32 + 0.1 * (1 - v)
            return Color(red: hills.red * value, green: hills.green * value, blue: hills.blue * value)
        }
        let dx = u - 0.7, dy = v - 0.3
        if dx * dx + dy * dy < 0.13 * 0.13 { return sunHue }
        return Content.mix(top, bottom, v / line)
    }

    /// What ``color(u:v:)`` works out from u alone, for the pixel centres of
    /// a painting `width` pixels wide: the ridge line, and the square of the
    /// distance across to the sun's centre.
    struct Columns {
        let line: [Double], dx2: [Double]
    }

    /// The height of the hills' ridge at u, interpolated between samples across the picture.
    @inline(__always)
    private func ridgeLine(_ u: Double) -> Double {
        guard u >= 0 && u < 1 else { return Content.ridge(seed: seed, u: u) }
        let x = u * Double(Self.samples)
        let i = Int(x), f = x - Double(i)
        return ridge[i] + (ridge[i + 1] - ridge[i]) * f
    }

    func columns(_ width: Int) -> Columns {
        var line = [Double](repeating: 0, count: width), dx2 = line
        for x in 0..<width {
            let u = (Double(x) + 0.5) / Double(width)
            line[x] = ridgeLine(u)
            let dx = u - 0.7
            dx2[x] = dx * dx
        }
        return Columns(line: line, dx2: dx2)
    }

    /// Paints a row at `v` of a painting as wide as `columns`, RGBA bytes from
    /// `out`: each pixel ``color(u:v:)`` at its centre (the same arithmetic,
    /// what depends on the row alone worked out once), rounded to bytes.
    func paint(row out: UnsafeMutablePointer<UInt8>, v: Double, columns: Columns) {
        @inline(__always) func bytes(_ c: Color) -> (UInt8, UInt8, UInt8) {
            (UInt8(c.red * 255 + 0.5), UInt8(c.green * 255 + 0.5), UInt8(c.blue * 255 + 0.5))
        }
        let value = 0.32 + 0.1 * (1 - v)
        let hill = bytes(Color(red: hills.red * value, green: hills.green * value, blue: hills.blue * value)), sun = bytes(sunHue)
        let dy = v - 0.3, dy2 = dy * dy
        columns.line.withUnsafeBufferPointer { line in
            columns.dx2.withUnsafeBufferPointer { dx2 in
                for x in 0..<line.count {
                    let c = v > line[x] ? hill : dx2[x] + dy2 < 0.13 * 0.13 ? sun : bytes(Content.mix(top, bottom, v / line[x]))
                    (out[4 * x], out[4 * x + 1], out[4 * x + 2], out[4 * x + 3]) = (c.0, c.1, c.2, 255)
                }
            }
        }
    }

    /// The picture of `seed` painted for a view drawn `width` × `height`
    /// pixels, each pixel its centre's colour: at that size when it is whole
    /// (a view at rest, or moving without scaling), else at the next size up
    /// in steps of 32 pixels (a snapshot growing or shrinking: sampled from
    /// a painting a little larger, as a snapshot's bitmap is). Made when first
    /// asked for and kept, a few dozen. Which painting serves a view depends
    /// on its size alone, so a frame drawn twice is the same frame.
    static func bitmap(seed: Int, width: Double, height: Double) -> Picture.Level? {
        painting(seed: seed, width: width, height: height)?.level(forFootprint: 1)
    }

    /// The painting ``bitmap(seed:width:height:)`` samples, whole: what
    /// another renderer is given to draw the same frame (the benchmark's cairo).
    package static func painting(seed: Int, width: Double, height: Double) -> Picture? {
        let whole = abs(width - width.rounded()) < 1e-6 && abs(height - height.rounded()) < 1e-6
        let (w, h) = whole ? (pixel(width, .toNearestOrAwayFromZero), pixel(height, .toNearestOrAwayFromZero))
            : (pixel(width / 32, .up) * 32, pixel(height / 32, .up) * 32)
        guard w > 0, h > 0, w * h <= 4_000_000 else { return nil }
        let key = BitmapKey(seed: seed, width: w, height: h)
        lock.lock()
        if let made = bitmaps[key] {
            lock.unlock()
            return made
        }
        lock.unlock()
        let painter = Self.for(seed: seed)
        let pixels = malloc(w * h * 4)!.assumingMemoryBound(to: UInt8.self)
        // Bands of rows painted on every core at once (a zooming snapshot asks for a new size most frames,
        // up to a few megapixels at a terminal's size); each pixel as before, so the same picture.
        nonisolated(unsafe) let target = pixels
        let bands = w * h >= 65_536 ? min(h, 4 * ProcessInfo.processInfo.activeProcessorCount) : 1
        let columns = painter.columns(w)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            for y in (h * band / bands)..<(h * (band + 1) / bands) {
                painter.paint(row: target + y * w * 4, v: (Double(y) + 0.5) / Double(h), columns: columns)
            }
        }
        let picture = Picture(width: w, height: h, taking: pixels)
        lock.lock()
        defer { lock.unlock() }
        if bitmaps.count >= 32 { bitmaps.removeAll() }
        bitmaps[key] = picture
        return picture
    }

    private struct BitmapKey: Hashable { let seed: Int, width: Int, height: Int }
    nonisolated(unsafe) private static var bitmaps: [BitmapKey: Picture] = [:]

    /// Painters are kept once made: a frame asks for the same few seeds again and again.
    static func `for`(seed: Int) -> ImagePainter {
        lock.lock()
        defer { lock.unlock() }
        if let painter = made[seed] { return painter }
        let painter = ImagePainter(seed: seed)
        if made.count > 256 { made.removeAll() }
        made[seed] = painter
        return painter
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [Int: ImagePainter] = [:]
}

/// The farthest from the origin a pixel coordinate is taken, either way: far
/// past any canvas, and far inside `Int`. Geometry comes from animators, whose
/// finite numbers may be anything (a frame 1e308 points wide).
let pixelLimit = Double(1 << 30)

/// `x` rounded by `rule` to a pixel coordinate, held within ±``pixelLimit``
/// (NaN as 0): how a layer's geometry becomes whole pixels, so that no
/// number an animator answers can stop the conversion. Not for inner loops,
/// whose values the canvas already bounds (``floorInt(_:)``).
@inline(__always)
func pixel(_ x: Double, _ rule: FloatingPointRoundingRule) -> Int {
    guard !x.isNaN else { return 0 }
    return Int(min(max(x, -pixelLimit), pixelLimit).rounded(rule))
}

/// `x.rounded(.down)` as an integer, without a call to the C library's floor
/// (which x86-64 without SSE4.1 makes of `rounded(.down)`): the same value.
@inline(__always)
func floorInt(_ x: Double) -> Int {
    let t = Int(x)
    return Double(t) > x ? t - 1 : t
}

/// `x.rounded(.up)` as an integer, the same way.
@inline(__always)
func ceilInt(_ x: Double) -> Int {
    let t = Int(x)
    return Double(t) < x ? t + 1 : t
}
