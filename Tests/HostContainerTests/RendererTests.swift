import Foundation
import Glibc
@testable import HostConfig
import Testing

@testable import HostContainer
@testable import Renderer

/// The software renderer, the PNG and GIF encoders and `segue preview`. Files
/// are decoded here independently: PNG chunks checked and inflated with the
/// system's zlib, GIF blocks parsed and LZW-decoded by a decoder of the test's own.
struct RendererTests {
    // MARK: - Decoders

    /// The system zlib, loaded at run time (libz.so.1 ships with every Debian).
    enum Zlib {
        typealias Uncompress = @convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt>, UnsafePointer<UInt8>, UInt) -> Int32
        typealias CRC = @convention(c) (UInt, UnsafePointer<UInt8>, UInt32) -> UInt
        nonisolated(unsafe) static let handle = dlopen("libz.so.1", RTLD_NOW)

        static func inflate(_ data: [UInt8], size: Int) throws -> [UInt8] {
            let f = unsafeBitCast(try #require(dlsym(try #require(handle), "uncompress")), to: Uncompress.self)
            var out = [UInt8](repeating: 0, count: size)
            var length = UInt(size)
            let status = out.withUnsafeMutableBufferPointer { o in data.withUnsafeBufferPointer { f(o.baseAddress!, &length, $0.baseAddress!, UInt($0.count)) } }
            #expect(status == 0, "zlib uncompress returned \(status)")
            #expect(Int(length) == size)
            return out
        }

        static func crc32(_ bytes: [UInt8]) throws -> UInt32 {
            let f = unsafeBitCast(try #require(dlsym(try #require(handle), "crc32")), to: CRC.self)
            return UInt32(bytes.withUnsafeBufferPointer { f(0, $0.baseAddress!, UInt32($0.count)) })
        }
    }

    struct DecodedPNG { var width = 0, height = 0; var rgba: [UInt8] = []; var chunks: [String] = [] }

    /// Checks signature, chunk CRCs and header, inflates IDAT with zlib and undoes the row filters.
    func decodePNG(_ file: [UInt8]) throws -> DecodedPNG {
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
        let stride = png.width * 4
        let raw = try Zlib.inflate(idat, size: (stride + 1) * png.height)
        png.rgba = [UInt8](repeating: 0, count: stride * png.height)
        for y in 0..<png.height {
            let filter = raw[y * (stride + 1)]
            #expect(filter <= 2)
            for x in 0..<stride {
                let d = raw[y * (stride + 1) + 1 + x]
                let left = x >= 4 ? png.rgba[y * stride + x - 4] : 0, up = y > 0 ? png.rgba[(y - 1) * stride + x] : 0
                png.rgba[y * stride + x] = d &+ (filter == 1 ? left : filter == 2 ? up : 0)
            }
        }
        return png
    }

    struct DecodedGIF {
        var width = 0, height = 0
        var delays: [Int] = []
        var loops: Int?
        var comment: String?
        /// Each frame as shown: the canvas after drawing it, 0x00RRGGBB per pixel.
        var frames: [[UInt32]] = []
        /// Each frame's rectangle (x, y, width, height), as stored.
        var rects: [(Int, Int, Int, Int)] = []
    }

    /// Parses every block, LZW-decodes every frame and draws it over the one
    /// before (disposal "leave in place"), honouring local palettes and transparency.
    func decodeGIF(_ file: [UInt8]) throws -> DecodedGIF {
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

    /// A canvas's pixels as 0x00RRGGBB.
    func rgb(_ canvas: Canvas) -> [UInt32] {
        let bytes = canvas.rgba8
        return (0..<(canvas.width * canvas.height)).map { p in
            UInt32(bytes[p * 4]) << 16 | UInt32(bytes[p * 4 + 1]) << 8 | UInt32(bytes[p * 4 + 2])
        }
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

    // MARK: - Encoders

    @Test func aPNGRoundTripsThroughZlib() throws {
        var canvas = Canvas(width: 37, height: 23, color: Color(red: 0.2, green: 0.4, blue: 0.6))
        for x in 0..<37 { canvas.blend(x: x, y: x % 23, r: 1, g: 0.5, b: 0, a: Float(x) / 36) }
        let png = try decodePNG(PNG.encode(canvas))
        #expect(png.width == 37 && png.height == 23 && png.chunks == ["IHDR", "IDAT", "IEND"])
        #expect(png.rgba == canvas.rgba8)
    }

    @Test func theBuiltInDeflateForSystemsWithoutZlibInflatesBack() throws {
        // PNG uses libz.so.1 where it is; our own Deflate must still be right where it is not.
        var canvas = Canvas(width: 61, height: 47, color: .white)
        for x in 0..<61 { canvas.blend(x: x, y: (x * 7) % 47, r: 0.1, g: Float(x) / 60, b: 0.9, a: 1) }
        let raw = PNG.filtered(canvas)
        #expect(try Zlib.inflate(Deflate.zlib(raw), size: raw.count) == raw)
        #expect(try Zlib.inflate(try #require(SystemZlib.compress(raw)), size: raw.count) == raw)
    }

    @Test func aGIFHasItsFramesDelaysAndLoopAndStoresOnlyWhatChanged() throws {
        // Few colours, so that every frame's palette is exact; a change confined to a corner.
        func frame(_ k: Int) -> Canvas {
            var c = Canvas(width: 97, height: 61, color: Color(red: 0.2, green: 0.4, blue: 0.6))
            for y in 0..<20 { for x in 0..<30 where (x + y + k) % 3 == 0 { c.blend(x: 60 + x, y: 35 + y, r: 1, g: 0.5, b: 0, a: 1) } }
            return c
        }
        let frames = [frame(0), frame(1), frame(1), frame(2)]
        let gif = try decodeGIF(GIFEncoder.encode(frames: frames, delays: [50, 2, 3, 100]))
        #expect(gif.width == 97 && gif.height == 61 && gif.loops == 0)
        // The repeated frame is merged into the one before, its delay added.
        #expect(gif.delays == [50, 5, 100])
        #expect(gif.frames == [frames[0], frames[1], frames[3]].map(rgb))
        // Frames after the first cover only the changed corner.
        #expect(gif.rects[0] == (0, 0, 97, 61))
        for r in gif.rects.dropFirst() { #expect(r.0 >= 60 && r.1 >= 35 && r.2 <= 30 && r.3 <= 20, "\(r)") }
    }

    @Test func aGIFOfManyColoursGetsAPaletteChosenFromItsFrames() throws {
        // A smooth gradient of 97 × 61 distinct colours: more than a palette holds.
        let frames = (0..<3).map { k in
            var c = Canvas(width: 97, height: 61)
            for y in 0..<61 { for x in 0..<97 {
                c.blend(x: x, y: y, r: Float(x) / 96, g: Float(y) / 60, b: Float(k) / 2, a: 1)
            } }
            return c
        }
        for dither in [false, true] {
            let gif = try decodeGIF(GIFEncoder.encode(frames: frames, delays: [50, 2, 100], dither: dither))
            #expect(gif.frames.count == 3)
            for (decoded, source) in zip(gif.frames, frames.map(rgb)) {
                // Close to the source everywhere: the palette follows the frame's colours.
                var total = 0
                for (a, b) in zip(decoded, source) {
                    let d = [16, 8, 0].map { (shift: UInt32) -> Int in
                        let x = Int((a >> shift) & 0xFF), y = Int((b >> shift) & 0xFF)
                        return abs(x - y)
                    }
                    #expect(d.max()! <= 48, "dither \(dither)")
                    total += d.reduce(0, +)
                }
                #expect(Double(total) / Double(source.count * 3) < 6, "mean error per channel, dither \(dither)")
            }
        }
    }

    @Test func aGIFFrameOfAnotherSizeIsCroppedOrPaddedNotATrap() throws {
        var encoder = GIFEncoder(width: 4, height: 3)
        encoder.add(Canvas(width: 0, height: 0), delay: 10)
        encoder.add(Canvas(width: 9, height: 9, color: .white), delay: 10)
        let gif = try decodeGIF(encoder.finish())
        #expect(gif.frames == [[UInt32](repeating: 0, count: 12), [UInt32](repeating: 0xFFFFFF, count: 12)])
    }

    @Test func aGIFWithoutFrameDifferencesStoresEveryPixel() throws {
        let frames = [Canvas(width: 9, height: 7, color: .white), Canvas(width: 9, height: 7, color: Color(red: 1, green: 0, blue: 0))]
        let gif = try decodeGIF(GIFEncoder.encode(frames: frames, delays: [10, 10], frameDifferences: false))
        #expect(gif.rects.map(\.2) == [9, 9] && gif.frames == frames.map(rgb))
    }

    // MARK: - Drawing

    /// The built-in scene driven directly: the container at the given times of one transition.
    func render(_ animator: String, from: String, to: String, at times: [Double], scale: Double = 0.25)
        -> (frames: [Canvas], container: ContainerViewController, states: [[Rect]]) {
        let clock = VirtualClock()
        let size = Rect.phonePortrait
        let children = SegueConfig.builtinScene.children
        let container = ContainerViewController(viewControllers: Scene.viewControllers(for: children, size: size), size: size, clock: clock)
        try? container.select(named: from)
        container.runUntilIdle(advancing: clock)
        var config = SegueConfig(file: "test")
        config.rules = [SegueConfig.Rule(from: from, to: to, animator: animator, label: "test")]
        let delegate = ConfigDrivenDelegate(config: config, registry: bundledRegistry)
        container.delegate = delegate
        try? container.select(named: to)
        let origin = clock.now
        let renderer = ViewRenderer(scale: scale)
        var frames: [Canvas] = [], states: [[Rect]] = []
        for t in times {
            clock.advance(to: origin + t)
            container.tick()
            frames.append(renderer.render(container.view))
            states.append(container.view.subviews.map(\.frame))
        }
        withExtendedLifetime(delegate) {}
        return (frames, container, states)
    }

    func close(_ a: Color, _ b: Color, _ tolerance: Double = 0.02) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance && abs(a.blue - b.blue) <= tolerance
    }

    func background(_ child: String) -> Color {
        Scene.viewControllers(for: SegueConfig.builtinScene.children, size: Rect.phonePortrait)
            .first { $0.name == child }!.view.backgroundColor
    }

    static let cases = [("default", "photo", "video", 1.0), ("SpringSlide", "photo", "video", 1.0),
                        ("CurlUp", "video", "file", 0.4), ("ImageZoom", "grid", "detail", 0.3)]

    @Test(arguments: cases)
    func theFromViewFillsTheContainerAtTheStartAndTheToViewAtTheEnd(_ c: (String, String, String, Double)) {
        let (animator, from, to, duration) = c
        let (frames, container, _) = render(animator, from: from, to: to, at: [0, duration])
        #expect(!container.isTransitioning)
        // Probe points clear of the grid's and the detail's elements: x 4...388, y 600...832 points.
        for (frame, child) in [(frames[0], from), (frames[1], to)] {
            for x in stride(from: 1, to: 97, by: 8) {
                for y in [150, 180, 208] {
                    let probe = frame.color(x: x, y: y)
                    #expect(close(probe, background(child)), "\(animator) at (\(x), \(y)): \(probe) should be \(child)'s \(background(child))")
                }
            }
        }
    }

    /// Which surface a pixel of a CurlUp frame shows, and how lit: the colour
    /// as a multiple k of the page's front, its pale back, or the view beneath
    /// (shading and shadow only scale a colour); nil when none fits (labels, edges).
    func surface(_ c: Color, page: Color, back: Color, beneath: Color) -> (kind: String, k: Double)? {
        var best: (kind: String, k: Double, residual: Double)?
        for (kind, base) in [("front", page), ("back", back), ("beneath", beneath)] {
            let bb = base.red * base.red + base.green * base.green + base.blue * base.blue
            let k = (c.red * base.red + c.green * base.green + c.blue * base.blue) / bb
            let residual = max(abs(c.red - k * base.red), abs(c.green - k * base.green), abs(c.blue - k * base.blue))
            if residual < 0.025, residual < best?.residual ?? .infinity { best = (kind, k, residual) }
        }
        return best.map { ($0.kind, $0.k) }
    }

    @Test func midwayThroughCurlUpThePageCurlsAtASlantShadedWithAPaleBackOverAShadow() throws {
        let (frames, _, _) = render("CurlUp", from: "video", to: "file", at: [0, 0.16], scale: 0.5)
        let page = background("video"), beneath = background("file"), back = Content.backSide(of: page)
        let f = frames[1]
        var kinds: [String: [Double]] = [:]
        func lowestPageRow(x: Int) -> Int {
            (0..<f.height).last { y in
                guard let s = surface(f.color(x: x, y: y), page: page, back: back, beneath: beneath) else { return false }
                return s.kind != "beneath"
            } ?? -1
        }
        for y in 0..<f.height { for x in 0..<f.width {
            if let s = surface(f.color(x: x, y: y), page: page, back: back, beneath: beneath) { kinds[s.kind, default: []].append(s.k) }
        } }
        // At the start the page lies flat: every probe is the front, fully lit.
        let start = (0..<frames[0].width).map { frames[0].color(x: $0, y: frames[0].height - 2) }
        #expect(start.allSatisfy { surface($0, page: page, back: back, beneath: beneath).map { $0.kind == "front" && abs($0.k - 1) < 0.02 } ?? false })

        // The curl line is slanted: the bottom-right corner leads, so the page ends higher on the right.
        let left = lowestPageRow(x: f.width / 10), right = lowestPageRow(x: f.width * 9 / 10)
        #expect(left > right + 20, "lowest page row: \(left) on the left, \(right) on the right")
        // All three surfaces show, and the back is paler than the front.
        let front = try #require(kinds["front"]), backs = try #require(kinds["back"]), under = try #require(kinds["beneath"])
        let total = f.width * f.height
        #expect(front.count > total / 20 && backs.count > total / 50 && under.count > total / 20, "\(front.count) \(backs.count) \(under.count) of \(total)")
        func luminance(_ c: Color) -> Double { 0.3 * c.red + 0.59 * c.green + 0.11 * c.blue }
        #expect(luminance(back) > luminance(page) + 0.1)
        // The curl is shaded: part of the page is darker than the flat page's full light.
        #expect(front.filter { $0 < 0.75 }.count + backs.filter { $0 < 0.75 }.count > 50, "shaded pixels of the curl")
        // The shadow: the view beneath is darker near the curl than in the open.
        #expect(under.filter { $0 < 0.85 }.count > 100, "shadowed pixels of the view beneath")
        let open = try #require(surface(f.color(x: 4, y: f.height - 3), page: page, back: back, beneath: beneath))
        #expect(open.kind == "beneath" && abs(open.k - 1) < 0.02, "far from the curl, the view beneath is unshadowed: \(open)")
    }

    @Test func midwayThroughImageZoomTheSnapshotLiesBetweenTheCellAndTheDetailImage() throws {
        let cell = Rect(x: 16, y: 120, width: 171, height: 171), detail = Rect(x: 0, y: 100, width: 390, height: 390)
        let scale = 0.5
        let (frames, container, _) = render("ImageZoom", from: "grid", to: "detail", at: [0.15], scale: scale)
        let snapshot = try #require(container.view.subviews.first { if case .image = $0.content { true } else { false } })
        let f = snapshot.frame
        #expect(f.x < cell.x && f.x > detail.x && f.width > cell.width && f.width < detail.width)
        #expect(f.y < cell.y && f.y > detail.y)
        // Where the snapshot lies, the picture is drawn, scaled to its frame: even outside the cell's frame.
        for (u, v) in [(0.5, 0.5), (0.95, 0.2), (0.9, 0.9), (0.1, 0.8)] {
            let x = f.x + u * f.width, y = f.y + v * f.height
            let expected = Content.imageColor(seed: 1, u: u, v: v)
            let probe = frames[0].color(x: Int(x * scale), y: Int(y * scale))
            #expect(close(probe, expected, 0.06), "at (\(u), \(v)): \(probe) vs \(expected)")
        }
    }

    @Test func aTransformWithPerspectiveDrawsATrapezoid() {
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let card = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        card.backgroundColor = Color(red: 1, green: 0, blue: 0)
        let (s, c, d) = (sin(0.6), cos(0.6), 300.0)
        card.transform = Transform3D([c, 0, -s, s / d, 0, 1, 0, 0, s, 0, c, -c / d, 0, 0, 0, 1])
        root.addSubview(card)
        let canvas = ViewRenderer().render(root)
        func redHeight(_ x: Int) -> Int { (0..<200).filter { close(canvas.color(x: x, y: $0), card.backgroundColor, 0.1) }.count }
        let columns = (0..<200).filter { redHeight($0) > 0 }
        let left = try! #require(columns.first), right = try! #require(columns.last)
        let (hl, hr) = (redHeight(left + 2), redHeight(right - 2))
        #expect(hl > hr + 15, "the near edge is taller: \(hl) vs \(hr)")
        #expect(Double(right - left) < 100 * c + 10, "foreshortened: \(right - left) px wide")
        // The top edge slopes: each side's first red row differs.
        let top = { (x: Int) in (0..<200).first { close(canvas.color(x: x, y: $0), card.backgroundColor, 0.1) } ?? 0 }
        #expect(top(left + 2) < top(right - 2))
    }

    @Test func edgesAreAntiAliased() {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        let square = View(frame: Rect(x: 10.5, y: 10, width: 20, height: 20))
        square.backgroundColor = Color(red: 0, green: 0, blue: 0)
        root.addSubview(square)
        let canvas = ViewRenderer().render(root)
        // The left edge at x = 10.5 covers half of pixel 10.
        #expect(abs(canvas.color(x: 10, y: 20).red - 0.5) < 0.02)
        #expect(canvas.color(x: 11, y: 20).red < 0.01 && canvas.color(x: 9, y: 20).red > 0.99)
    }

    /// A filmstrip's time label as the README's filmstrips draw it (scale 0.3:
    /// 16 pixels high), as luminance per pixel.
    func labelPixels(_ text: String, scale: Double = 0.3) -> [Double] {
        let label = View(frame: Rect(x: 0, y: 0, width: 117 / scale, height: 16 / scale))
        label.content = .label(text)
        let canvas = ViewRenderer(scale: scale).render(label)
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
        let difference = zip(strips[0].pixels, strips[1].pixels).reduce(Float(0)) { $0 + abs($1.0 - $1.1) }
        #expect(difference > 10, "the labels differ by \(difference)")
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
            let canvas = ViewRenderer(scale: 1).render(view)
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

    /// A frame renderer draws only what changed; what it keeps and what it
    /// draws again make the very frame a full redraw makes, at every step of
    /// every bundled animator's transition and of the default's.
    @Test(arguments: [("SpringSlide", "photo", "video"), ("CurlUp", "video", "file"), ("ImageZoom", "grid", "detail"), ("default", "photo", "video")])
    func drawingOnlyTheDamageGivesTheSameFrameAsDrawingEverything(_ c: (String, String, String)) throws {
        let children = SegueConfig.builtinScene.children
        var config = SegueConfig(file: "test")
        config.rules = [SegueConfig.Rule(from: c.1, to: c.2, animator: c.0, label: "test")]
        let delegate = ConfigDrivenDelegate(config: config, registry: bundledRegistry)
        let renderer = ViewRenderer(scale: 0.5)
        let preview = TransitionPreview(children: { Scene.viewControllers(for: children) }, size: Rect.phonePortrait,
                                        from: c.1, to: c.2, renderer: renderer)
        let damaged = FrameRenderer(renderer: renderer)
        var mismatched: [Int] = []
        let steps = try preview.play(fps: 30, delegate: delegate) { index, _, view, _ in
            damaged.render(view)
            if damaged.canvas.pixels != renderer.render(view).pixels { mismatched.append(index) }
        }.frames
        #expect(steps > 5)
        #expect(mismatched.isEmpty, "\(c.0): frames \(mismatched) differ from a full redraw")
    }

    /// The damage is what moved: a frame that changed nothing draws nothing,
    /// and a badge that moves redraws where it was and where it is, no more.
    @Test func theDamageIsWhereSomethingMovedFromAndTo() {
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4)
        let badge = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        badge.backgroundColor = .white
        badge.cornerRadius = 4
        let label = View(frame: Rect(x: 100, y: 50, width: 90, height: 30))
        label.content = .label("Still")
        root.addSubview(badge)
        root.addSubview(label)
        let frames = FrameRenderer(renderer: ViewRenderer(scale: 1))
        #expect(frames.render(root) == PixelRect(x0: 0, y0: 0, x1: 200, y1: 100), "the first frame is drawn whole")
        #expect(frames.render(root).isEmpty, "nothing changed")
        badge.frame.x = 50
        let damage = frames.render(root)
        #expect(damage == PixelRect(x0: 9, y0: 9, x1: 72, y1: 32), "\(damage)")
        #expect(frames.canvas.pixels == ViewRenderer(scale: 1).render(root).pixels)
    }

    /// Rectangles minus a rectangle: what is left, in at most four pieces, no pixel twice.
    @Test func aRectangleLessAnotherLeavesEveryOtherPixelOnce() {
        let whole = PixelRect(x0: 0, y0: 0, x1: 10, y1: 8)
        for cut in [PixelRect(x0: 2, y0: 3, x1: 5, y1: 6), PixelRect(x0: -1, y0: 2, x1: 11, y1: 4), PixelRect(x0: 20, y0: 0, x1: 30, y1: 8), whole] {
            let pieces = whole.subtracting(cut)
            var count = [Int](repeating: 0, count: whole.area)
            for piece in pieces {
                for y in piece.y0..<piece.y1 { for x in piece.x0..<piece.x1 { count[y * 10 + x] += 1 } }
            }
            for y in 0..<8 {
                for x in 0..<10 {
                    let hidden = x >= cut.x0 && x < cut.x1 && y >= cut.y0 && y < cut.y1
                    #expect(count[y * 10 + x] == (hidden ? 0 : 1), "\(cut): pixel (\(x), \(y))")
                }
            }
        }
    }

    /// A page lying flat over another view covers it: the rows it hides are
    /// not drawn beneath it (the layer says so), and the frame is the page's
    /// own where it lies, the other view's where it does not.
    @Test func aFlatOpaquePageHidesWhatLiesBeneathIt() {
        let root = View(frame: Rect(x: 0, y: 0, width: 60, height: 80))
        root.backgroundColor = Color(red: 1, green: 0, blue: 0)
        let page = View(frame: Rect(x: 0, y: 20, width: 60, height: 40))
        page.backgroundColor = Color(red: 0, green: 0.5, blue: 1)
        page.mesh = Mesh(columns: 4, rows: 4, covering: page.frame)
        root.addSubview(page)
        let renderer = ViewRenderer(scale: 1)
        let items = renderer.items(root, canvas: PixelRect(x0: 0, y0: 0, x1: 60, y1: 80))
        guard case .mesh(let mesh)? = items.last else { Issue.record("no mesh item: \(items)"); return }
        var flat = Canvas(width: mesh.textureWidth, height: mesh.textureHeight)
        renderer.draw(mesh.texture, into: &flat, within: flat.bounds)
        let layer = MeshLayer(mesh, texture: MeshTexture(flat), scratch: DrawingScratch())
        #expect(layer.cover == PixelRect(x0: 0, y0: 20, x1: 60, y1: 60), "\(layer.cover)")
        let canvas = renderer.render(root)
        for (x, y, expected) in [(30, 10, Color(red: 1, green: 0, blue: 0)), (30, 40, Color(red: 0, green: 0.5, blue: 1)),
                                 (0, 20, Color(red: 0, green: 0.5, blue: 1)), (59, 59, Color(red: 0, green: 0.5, blue: 1)),
                                 (30, 70, Color(red: 1, green: 0, blue: 0))] {
            let k = (y * canvas.width + x) * 4
            let found = (canvas.pixels[k], canvas.pixels[k + 1], canvas.pixels[k + 2])
            #expect(abs(Double(found.0) - expected.red) < 0.01 && abs(Double(found.1) - expected.green) < 0.01
                        && abs(Double(found.2) - expected.blue) < 0.01, "(\(x), \(y)): \(found)")
        }
    }

    @Test func textIsAntiAliased() {
        // Font cells of 1.4 pixels: some pixels are partly ink.
        let pixels = labelPixels("0.08 s")
        let partial = pixels.filter { $0 > 0.15 && $0 < 0.85 }.count
        let ink = pixels.filter { $0 <= 0.15 }.count
        #expect(partial > 10 && ink > 0, "\(partial) partly inked pixels, \(ink) fully")
    }

    // MARK: - The tool

    @Test func previewWritesAGIFWithOneFramePerTimeStep() throws {
        let folder = makeTemporaryFolder("preview")
        let result = try run(Paths.segue, ["preview", "CurlUp", "--out", "a.gif", "--scale", "0.2", "--fps", "20", "--json"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        let gif = try decodeGIF(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/a.gif"))))
        // 0.4 s at 20 fps: t = 0, 0.05, ..., 0.4; the page is gone by 0.35, so
        // the last two are one picture, stored once and held 1 s.
        #expect(gif.frames.count == 8 && gif.delays == [50] + Array(repeating: 5, count: 6) + [100] && gif.loops == 0)
        #expect(gif.width == 78 && gif.height == 169)
        #expect(gif.comment == "segue preview CurlUp video -> file (with rules[1]'s parameters from <built-in scene>)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(written["frames"] as? Int == 9 && written["animator"] as? String == "CurlUp" && written["from"] as? String == "video")
        #expect(written["rule"] as? String == "rules[1]")
        #expect(result.err.isEmpty, "no progress line when not on a terminal")
    }

    @Test func previewWithAConfigUsesTheParametersOfTheRuleThatNamesTheAnimator() throws {
        let folder = makeTemporaryFolder("preview-rule")
        try """
        {"rules": [
          {"from": "photo", "to": "video", "animator": "SpringSlide"},
          {"from": "video", "to": "file", "animator": "CurlUp", "parameters": {"duration": 0.8, "radius": 30}}
        ]}
        """.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        for (extra, rule) in [([], "rules[1]"), (["--from", "video", "--to", "file"], "rules[1]")] {
            let result = try run(Paths.segue, ["preview", "CurlUp", "--config", "segue.json", "--out", "c.gif", "--scale", "0.1",
                                               "--fps", "10", "--param", "radius=20", "--json"] + extra, in: folder)
            #expect(result.status == 0, "\(result.err)")
            let written = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let parameters = try #require(written["parameters"] as? [String: Any])
            // The rule's duration, --param's radius over the rule's.
            #expect(written["rule"] as? String == rule && written["duration"] as? Double == 0.8)
            #expect(parameters["duration"] as? Double == 0.8 && parameters["radius"] as? Double == 20, "\(parameters)")
            #expect(written["frames"] as? Int == 9, "0.8 s at 10 fps: t = 0, 0.1, ..., 0.8")
            let gif = try decodeGIF(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/c.gif"))))
            #expect(gif.comment == "segue preview CurlUp video -> file (with rules[1]'s parameters from segue.json): duration=0.8 radius=20")
        }
        // A bad value says whether it came from the rule or from --param; --param can mend the rule's.
        try #"{"rules": [{"from": "video", "to": "file", "animator": "CurlUp", "parameters": {"radius": 9999}}]}"#
            .write(toFile: folder + "/bad.json", atomically: false, encoding: .utf8)
        let fromRule = try run(Paths.segue, ["preview", "CurlUp", "--config", "bad.json", "--out", "e.png", "--scale", "0.1"], in: folder)
        #expect(fromRule.status == 1 && fromRule.err.contains("'radius': expected a number in [4, 400], found 9999 (in rules[0] of bad.json)"), "\(fromRule.err)")
        let fromOption = try run(Paths.segue, ["preview", "CurlUp", "--config", "bad.json", "--param", "angle=90", "--out", "e.png", "--scale", "0.1"], in: folder)
        #expect(fromOption.status == 1 && fromOption.err.contains("found 9999 (in rules[0] of bad.json)"),
                "the rule's own bad value, which --param leaves, is named first: \(fromOption.err)")
        let mended = try run(Paths.segue, ["preview", "CurlUp", "--config", "bad.json", "--param", "radius=20", "--out", "e.png", "--scale", "0.1"], in: folder)
        #expect(mended.status == 0, "\(mended.err)")
        let optionOnly = try run(Paths.segue, ["preview", "CurlUp", "--param", "angle=90", "--out", "e.png", "--scale", "0.1"], in: folder)
        #expect(optionOnly.err.hasPrefix("segue: CurlUp parameter 'angle': expected a number in [-60, 60], found 90\n"), "no rule named for --param's value: \(optionOnly.err)")
        // No rule names SpringSlide from file to photo: the defaults, and no rule said.
        let plain = try run(Paths.segue, ["preview", "SpringSlide", "--config", "segue.json", "--from", "file", "--to", "photo",
                                          "--out", "d.png", "--scale", "0.1", "--json"], in: folder)
        let written = try #require(try JSONSerialization.jsonObject(with: Data(plain.out.utf8)) as? [String: Any])
        #expect(written["rule"] == nil && written["duration"] as? Double == 1, "\(written)")
    }

    @Test func previewWritesAPNGFilmstripWithTimes() throws {
        let folder = makeTemporaryFolder("preview")
        let result = try run(Paths.segue, ["preview", "ImageZoom", "--out", "b.png", "--scale", "0.2", "--frames", "4"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("wrote b.png: 4 frames of 78x169, ImageZoom grid -> detail"))
        let png = try decodePNG(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/b.png"))))
        let gap = 4
        #expect(png.width == 4 * (78 + gap) + gap && png.height > 169 + 2 * gap)
    }

    @Test func previewChecksItsArguments() throws {
        let folder = makeTemporaryFolder("preview")
        let cases: [([String], Int32, String)] = [
            (["preview", "Curlup"], 1, "no animator named 'Curlup' (did you mean 'CurlUp'?)"),
            (["preview", "CurlUp", "--param", "radius=1000", "--out", "x.png"], 1, "CurlUp parameter 'radius'"),
            (["preview", "SpringSlide", "--param", "bounce=2", "--out", "x.png"], 1, "SpringSlide has no parameter 'bounce'"),
            (["preview", "default", "--from", "photo", "--to", "nowhere", "--out", "x.png"], 1, "no child named 'nowhere'"),
            (["preview", "default", "--out", "x.jpg"], 2, "expected a file ending in .gif or .png"),
            (["preview", "default", "--size", "0x10"], 2, "expected WIDTHxHEIGHT"),
            (["preview", "default", "--dither", "--out", "x.png"], 2, "--dither only works with a .gif"),
            (["preview", "default", "--size", "1x1", "--scale", "0.05"], 2, "makes a picture of 0x0 pixels; expected at least 1x1"),
        ]
        for (arguments, status, message) in cases {
            let result = try run(Paths.segue, arguments, in: folder)
            #expect(result.status == status && result.err.contains(message), "\(arguments): \(result.status) \(result.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.png"))
    }

    @Test func runWritesAPreviewPerTransition() throws {
        let folder = makeTemporaryFolder("run-preview")
        try #"{"children": ["a", "b"], "script": ["b", "a"]}"#.write(toFile: folder + "/s.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["run", "--config", "s.json", "--preview", "out", "--scale", "0.1", "--json"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted()
        #expect(files == ["01-a-b-default.gif", "02-b-a-default.gif"])
        let gif = try decodeGIF(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/out/" + files[0]))))
        #expect(gif.frames.count == 61, "one per frame evaluated: t = 0, then 60 ticks")
        #expect(result.out.contains(#""preview":"out/01-a-b-default.gif""#))
    }
}
