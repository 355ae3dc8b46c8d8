import Foundation
import Glibc
import TestSupport
import Testing

@testable import HostContainer
@testable import Renderer

/// Picture files as content: PNGs of every colour type, bit depth and
/// interlacing, written here by a PNG writer of the test's own, and
/// baseline and progressive JPEGs, each decoded by Segue (libpng and libjpeg
/// loaded at run time) and by ImageMagick, compared pixel for pixel; the
/// files that are not pictures, named without a crash; the cache that
/// reads a changed file again and keeps the last good one; the fits.
struct PictureTests {
    static let imageMagickNote = "skipped: needs ImageMagick's convert (apt-get install imagemagick; .ci/run does)"

    /// A PNG variant: colour type, bit depth, interlacing.
    struct Variant: CustomTestStringConvertible, Sendable {
        let colorType: UInt8, depth: UInt8, interlaced: Bool
        var testDescription: String { "colour type \(colorType), \(depth)-bit\(interlaced ? ", interlaced" : "")" }
    }

    static let variants: [Variant] = [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8),
                                      (4, 8), (4, 16), (6, 8), (6, 16)]
        .flatMap { t, d in [Variant(colorType: t, depth: d, interlaced: false), Variant(colorType: t, depth: d, interlaced: true)] }

    /// A 16-bit RGBA pattern every variant is made from: gradients, a ramp of alpha, hard edges.
    static func source(_ x: Int, _ y: Int, width: Int, height: Int) -> (r: Int, g: Int, b: Int, a: Int) {
        let r = x * 65535 / (width - 1), g = y * 65535 / (height - 1)
        let b = ((x / 3 + y / 2) % 2 == 0) ? 0xFFFF : 0x1234
        let a = (x + y * width) * 65535 / (width * height - 1)
        return (r, g, b, a)
    }

    /// A PNG of `variant` written here: samples quantized to its depth, rows
    /// filtered with each of the five filters in turn, Adam7 when interlaced.
    static func png(_ v: Variant, width: Int = 29, height: Int = 17) throws -> [UInt8] {
        let channels: Int = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(v.colorType)]!
        let maxSample = (1 << Int(v.depth)) - 1
        // The palette: colours of the pattern quantized, with alpha from tRNS (8-bit palettes only keep alpha).
        var palette: [(Int, Int, Int, Int)] = []
        func samples(_ x: Int, _ y: Int) -> [Int] {
            let (r, g, b, a) = source(x, y, width: width, height: height)
            func q(_ v16: Int) -> Int { (v16 * maxSample + 32767) / 65535 }
            let grey = (r * 30 + g * 59 + b * 11) / 100
            switch v.colorType {
            case 0: return [q(grey)]
            case 2: return [q(r), q(g), q(b)]
            case 4: return [q(grey), q(a)]
            case 6: return [q(r), q(g), q(b), q(a)]
            default:
                let entries = min(1 << Int(v.depth), 256)
                let k = (x * 7 + y * 3) % entries
                while palette.count <= k {
                    let n = palette.count
                    palette.append(((n * 97) % 256, (n * 57 + 40) % 256, (n * 13 + 200) % 256, v.depth == 8 ? (n * 31) % 256 : 255))
                }
                return [k]
            }
        }
        // Adam7 passes (x0, y0, dx, dy), or the whole picture.
        let passes = v.interlaced ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] : [(0, 0, 1, 1)]
        let bitsPerPixel = channels * Int(v.depth), bpp = max(bitsPerPixel / 8, 1)
        var raw: [UInt8] = [], rowIndex = 0
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx)), ys = Array(stride(from: y0, to: height, by: dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            let rowBytes = (xs.count * bitsPerPixel + 7) / 8
            var previous = [UInt8](repeating: 0, count: rowBytes)
            for y in ys {
                var row = [UInt8](repeating: 0, count: rowBytes), bit = 0
                for x in xs {
                    for sample in samples(x, y) {
                        if v.depth == 16 {
                            row[bit / 8] = UInt8(sample >> 8)
                            row[bit / 8 + 1] = UInt8(sample & 0xFF)
                        } else {
                            row[bit / 8] |= UInt8(sample << (8 - Int(v.depth) - bit % 8))
                        }
                        bit += Int(v.depth)
                    }
                }
                let filter = UInt8(rowIndex % 5)
                rowIndex += 1
                raw.append(filter)
                for i in 0..<rowBytes {
                    let left = i >= bpp ? Int(row[i - bpp]) : 0, up = Int(previous[i]), corner = i >= bpp ? Int(previous[i - bpp]) : 0
                    let predicted: Int
                    switch filter {
                    case 1: predicted = left
                    case 2: predicted = up
                    case 3: predicted = (left + up) / 2
                    case 4:
                        let p = left + up - corner, pa = abs(p - left), pb = abs(p - up), pc = abs(p - corner)
                        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : corner
                    default: predicted = 0
                    }
                    raw.append(UInt8((Int(row[i]) - predicted) & 0xFF))
                }
                previous = row
            }
        }
        func chunk(_ type: String, _ data: [UInt8]) throws -> [UInt8] {
            let typed = Array(type.utf8) + data
            let crc = try Zlib.crc32(typed)
            return be32(data.count) + typed + be32(Int(crc))
        }
        func be32(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += try chunk("IHDR", be32(width) + be32(height) + [v.depth, v.colorType, 0, 0, v.interlaced ? 1 : 0])
        if v.colorType == 3 {
            file += try chunk("PLTE", palette.flatMap { [UInt8($0.0), UInt8($0.1), UInt8($0.2)] })
            if palette.contains(where: { $0.3 != 255 }) { file += try chunk("tRNS", palette.map { UInt8($0.3) }) }
        }
        file += try chunk("IDAT", try Zlib.deflate(raw))
        file += try chunk("IEND", [])
        return file
    }

    /// ImageMagick's decoding of `file`: straight RGBA, 8 bits a channel.
    static func imageMagick(_ file: String) throws -> [UInt8] {
        let folder = makeTemporaryFolder("im")
        let result = try run(Toolchain.imageMagick, [file, "-depth", "8", "rgba:" + folder + "/out.rgba"])
        try #require(result.status == 0, "\(result.err)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/out.rgba")))
    }

    /// The largest difference between Segue's decode and ImageMagick's straight
    /// pixels, both premultiplied (so that a colour under no alpha does not count).
    static func difference(_ picture: Picture, _ reference: [UInt8]) -> Int {
        var worst = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let k = (y * picture.width + x) * 4
                let a = Int(reference[k + 3])
                let expected = (0..<3).map { (Int(reference[k + $0]) * a + 127) / 255 } + [a]
                let p = picture.pixel(x, y)
                let got = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
                worst = max(worst, zip(expected, got).map { abs($0 - $1) }.max()!)
            }
        }
        return worst
    }

    @Test(.enabled(if: Toolchain.hasImageMagick, .init(rawValue: imageMagickNote)), arguments: variants)
    func everyKindOfPNGDecodesAsImageMagickDecodesIt(_ variant: Variant) throws {
        let bytes = try Self.png(variant)
        let file = makeTemporaryFolder("png") + "/t.png"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let picture = try PictureDecoder.decode(bytes).get()
        #expect(picture.width == 29 && picture.height == 17)
        let reference = try Self.imageMagick(file)
        try #require(reference.count == 29 * 17 * 4)
        // 16-bit samples become 8-bit by rounding v / 257: libpng (png_set_scale_16) and ImageMagick ((v + 128) / 257)
        // round a sample that falls near a half differently, so these may be one step apart; every other sample is exact.
        #expect(Self.difference(picture, reference) <= (variant.depth == 16 ? 1 : 0), "\(variant.testDescription)")
    }

    @Test(.enabled(if: Toolchain.hasImageMagick, .init(rawValue: imageMagickNote)),
          arguments: [["-quality", "92"], ["-quality", "80", "-interlace", "JPEG"], ["-colorspace", "Gray", "-quality", "90"],
                      ["-sampling-factor", "4:4:4", "-quality", "95", "-interlace", "Plane"]])
    func baselineAndProgressiveJPEGsDecodeAsImageMagickDecodesThem(_ options: [String]) throws {
        let folder = makeTemporaryFolder("jpeg")
        let png = folder + "/source.png"
        try Data(try Self.png(Variant(colorType: 2, depth: 8, interlaced: false), width: 61, height: 37)).write(to: URL(fileURLWithPath: png))
        let made = try run(Toolchain.imageMagick, [png] + options + [folder + "/t.jpg"])
        try #require(made.status == 0, "\(made.err)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/t.jpg")))
        let progressive = bytes.indices.dropLast().contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 }
        #expect(progressive == options.contains("-interlace"), "the file is the kind asked for")
        let picture = try PictureDecoder.decode(bytes).get()
        #expect(picture.width == 61 && picture.height == 37)
        #expect(Self.difference(picture, try Self.imageMagick(folder + "/t.jpg")) == 0)
    }

    /// A picture decoded to fit a smaller frame: each pixel the mean of a box
    /// of the full decode's (premultiplied, within a rounding), the factor the
    /// largest whole one that keeps it at least the frame's size; a picture
    /// less than twice the frame's size is decoded whole.
    static func expectReduced(_ bytes: [UInt8], _ what: String) throws {
        let full = try PictureDecoder.decode(bytes).get()
        let reduced = try PictureDecoder.decode(bytes, fitting: (20, 12)).get()
        // 61 x 37 at least 20 x 12: a factor of 3 (61 / 20 and 37 / 12), the last column and row left out.
        #expect(reduced.width == 20 && reduced.height == 12, "\(what): \(reduced.width) x \(reduced.height)")
        var worst = 0
        for y in 0..<reduced.height {
            for x in 0..<reduced.width {
                var sums = [0, 0, 0, 0]
                for dy in 0..<3 {
                    for dx in 0..<3 {
                        let p = full.pixel(x * 3 + dx, y * 3 + dy)
                        sums[0] += Int(p.r); sums[1] += Int(p.g); sums[2] += Int(p.b); sums[3] += Int(p.a)
                    }
                }
                let got = reduced.pixel(x, y)
                for (c, value) in [got.r, got.g, got.b, got.a].enumerated() { worst = max(worst, abs(Int(value) - (sums[c] + 4) / 9)) }
            }
        }
        #expect(worst <= 2, "\(what): \(worst) steps from the box mean")
        let whole = try PictureDecoder.decode(bytes, fitting: (31, 19)).get()
        #expect(whole.width == 61 && whole.height == 37, "\(what): less than twice the frame is decoded whole")
    }

    @Test(arguments: [false, true])
    func aLargePNGIsDecodedReducedToTheFrame(interlaced: Bool) throws {
        try Self.expectReduced(try Self.png(Variant(colorType: 6, depth: 8, interlaced: interlaced), width: 61, height: 37),
                               interlaced ? "an interlaced PNG" : "a PNG")
    }

    @Test(.enabled(if: Toolchain.hasImageMagick, .init(rawValue: imageMagickNote)))
    func aLargeJPEGIsDecodedReducedToTheFrame() throws {
        let folder = makeTemporaryFolder("jpeg-reduced")
        try Data(try Self.png(Variant(colorType: 2, depth: 8, interlaced: false), width: 61, height: 37)).write(to: URL(fileURLWithPath: folder + "/source.png"))
        let made = try run(Toolchain.imageMagick, [folder + "/source.png", "-quality", "92", folder + "/t.jpg"])
        try #require(made.status == 0, "\(made.err)")
        try Self.expectReduced([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/t.jpg"))), "a JPEG")
    }

    @Test(.enabled(if: Toolchain.graphicsHeaders != nil, "skipped: needs libpng-dev, libjpeg62-turbo-dev and libfreetype-dev (.ci/run installs them)"))
    func theRecordsAreLaidOutAsTheLibrariesHeadersSay() throws {
        let out = makeTemporaryFolder("layouts") + "/check"
        let built = try run("/usr/bin/env", ["cc"] + Toolchain.graphicsHeaders! + ["-I", Paths.packageRoot + "/Sources/GraphicsShims", "-o", out,
                                                                                  Paths.packageRoot + "/Tests/Fixtures/graphics_layouts.c"])
        #expect(built.status == 0, "layouts.h differs from the headers: \(built.err)")
        #expect(try run(out, []).out == "layouts match\n")
    }

    /// What is not a picture is named, whatever it is; nothing crashes and nothing huge is allocated.
    @Test func filesThatAreNotPicturesAreNamed() throws {
        let folder = makeTemporaryFolder("bad-pictures")
        let good = try Self.png(Variant(colorType: 6, depth: 8, interlaced: false))
        // A PNG whose header claims 30,000 x 30,000 pixels, in 100 bytes: refused before a pixel is decoded.
        var bomb = Array(good.prefix(33))
        bomb.replaceSubrange(16..<24, with: [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30])
        let crc = try Zlib.crc32(Array(bomb[12..<29]))
        bomb.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        bomb += good[33...]
        let files: [(String, [UInt8]?, String)] = [
            ("truncated.png", Array(good.prefix(good.count / 2)), "a PNG that is truncated or corrupt"),
            ("bomb.png", bomb, "a PNG of 30000 x 30000 pixels, more than the 40 megapixels Segue decodes"),
            ("text.png", Array("not a picture\n".utf8), "neither a PNG nor a JPEG"),
            ("empty.png", [], "neither a PNG nor a JPEG"),
            ("folder.png", nil, "a folder"),
        ]
        let cache = PictureCache()
        for (name, bytes, words) in files {
            let path = folder + "/" + name
            if let bytes { try Data(bytes).write(to: URL(fileURLWithPath: path)) } else {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            }
            guard case .failure(let problem) = cache.load(path) else {
                Issue.record("\(name) decoded")
                continue
            }
            #expect(problem.description.contains(words), "\(name): \(problem)")
        }
        for (path, words) in [("/dev/zero", "a device or other special file, not a regular file"), (folder + "/missing.png", "nothing (no such file)")] {
            #expect((try? cache.load(path).get()) == nil)
            if case .failure(let problem) = cache.load(path) { #expect(problem.description == words) }
        }
        var corrupt = good
        corrupt[good.count - 20] ^= 0xFF  // inside IDAT: the CRC no longer matches
        if case .failure(let problem) = PictureDecoder.decode(corrupt) {
            #expect(problem.description.hasPrefix("a PNG that is truncated or corrupt"), "\(problem)")
        } else {
            Issue.record("a corrupt PNG decoded")
        }
    }

    @Test func withoutItsLibraryAFormatIsRefusedNamingThePackage() {
        let png = (try? Self.png(Variant(colorType: 2, depth: 8, interlaced: false))) ?? []
        guard case .failure(let problem) = PictureDecoder.decode(png, library: "libsegue-no-such-png.so.16") else {
            Issue.record("decoded without the library")
            return
        }
        #expect(problem.libraryMissing && problem.description.contains("apt-get install libpng16-16"), "\(problem)")
        guard case .failure(let jpeg) = PictureDecoder.decode([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 64),
                                                              library: "libsegue-no-such-jpeg.so.62") else { return }
        #expect(jpeg.libraryMissing && jpeg.description.contains("apt-get install libjpeg62-turbo"), "\(jpeg)")
    }

    /// A file saved anew is decoded again; one saved broken leaves the last good picture to draw while `load` says why.
    @Test func aChangedFileIsReadAgainAndABrokenOneKeepsTheLastGood() throws {
        let path = makeTemporaryFolder("changing") + "/screen.png"
        let cache = PictureCache()
        try Data(try Self.png(Variant(colorType: 6, depth: 8, interlaced: false))).write(to: URL(fileURLWithPath: path))
        let first = try cache.load(path).get()
        #expect(try cache.load(path).get() === first, "decoded once while unchanged")
        try replaceByRename(path, with: "")  // a new file: other inode
        try Data(try Self.png(Variant(colorType: 2, depth: 8, interlaced: false), width: 12, height: 10)).write(to: URL(fileURLWithPath: path))
        let second = try cache.load(path).get()
        #expect(second !== first && second.width == 12)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        #expect((try? cache.load(path).get()) == nil)
        #expect(cache.picture(at: path) === second, "the last good picture stays to draw")
    }

    /// A 2 x 1 picture (red, blue) in a 40 x 10 view: cover crops it to its middle, contain letterboxes it, fill stretches it.
    @Test func aPictureCoversContainsOrFillsItsView() throws {
        let path = makeTemporaryFolder("fit") + "/two.png"
        var pixels = [UInt8](repeating: 255, count: 2 * 1 * 4)
        (pixels[0], pixels[1], pixels[2]) = (255, 0, 0)
        (pixels[4], pixels[5], pixels[6]) = (0, 0, 255)
        try Data(try rgbaPNG(pixels, width: 2, height: 1)).write(to: URL(fileURLWithPath: path))
        func drawn(_ fit: PictureFit) -> Canvas {
            let view = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
            view.backgroundColor = Color(red: 0, green: 1, blue: 0)
            view.content = .picture(path: path, fit: fit)
            return ViewRenderer(scale: 1).render(view)
        }
        func color(_ c: Canvas, _ x: Int, _ y: Int) -> [UInt8] { Array(c.rgba8[(y * c.width + x) * 4..<(y * c.width + x) * 4 + 3]) }
        let fill = drawn(.fill), contain = drawn(.contain), cover = drawn(.cover)
        #expect(color(fill, 1, 5) == [255, 0, 0] && color(fill, 38, 5) == [0, 0, 255], "stretched end to end")
        #expect(color(contain, 2, 5) == [0, 255, 0] && color(contain, 37, 5) == [0, 255, 0], "20 x 10 in the middle: green beside it")
        #expect(color(contain, 10, 5) == [255, 0, 0] && color(contain, 29, 5) == [0, 0, 255])
        // Cover scales it to 40 x 20: the row shown is its only one, red then blue, cut at the middle.
        #expect(color(cover, 1, 5) == [255, 0, 0] && color(cover, 38, 5) == [0, 0, 255])
    }

    /// Every pixel of a picture stretched over a view is the bilinear mix of
    /// its texels at the pixel's centre (red to blue across), through the
    /// wholly covered span's fast path and the edge's alike.
    /// (Over an opaque background an opaque picture's rows are gathered and mixed
    /// eight at a time; over none, a pixel at a time: both are checked.)
    @Test(arguments: [false, true])
    func aPictureIsSampledBilinearlyAtEveryPixel(overOpaque: Bool) throws {
        let path = makeTemporaryFolder("bilinear") + "/two.png"
        try Data(try rgbaPNG([255, 0, 0, 255, 0, 0, 255, 255], width: 2, height: 1)).write(to: URL(fileURLWithPath: path))
        let view = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        if overOpaque { view.backgroundColor = .white }
        view.content = .picture(path: path, fit: .fill)
        let canvas = ViewRenderer(scale: 1).render(view)
        let rgba = canvas.rgba8
        var worst = 0
        for y in 0..<10 {
            for x in 0..<40 {
                let f = min(max((Double(x) + 0.5) / 20 - 0.5, 0), 1)
                let expected = [255 * (1 - f), 0, 255 * f].map { Int($0.rounded()) }
                let k = (y * 40 + x) * 4
                worst = max(worst, zip(expected, rgba[k..<k + 3]).map { abs($0 - Int($1)) }.max()!)
            }
        }
        #expect(worst <= 1, "\(worst) steps from the bilinear mix")
    }

    /// A picture drawn smaller than it is, at the same size frame after frame, is
    /// drawn from a copy made at that size from the second frame on: the same
    /// pixels as sampling the mipmap (within a rounding), and moved by a
    /// fraction of a pixel, the same as sampling it there.
    @Test func aPictureKeptAtTheSizeItIsDrawnDrawsTheSamePixels() throws {
        let path = makeTemporaryFolder("resampled") + "/big.png"
        var pixels: [UInt8] = []
        for y in 0..<90 { for x in 0..<120 { pixels += [UInt8(x * 2), UInt8(y * 2), UInt8((x + y) % 256), 255] } }
        try Data(try rgbaPNG(pixels, width: 120, height: 90)).write(to: URL(fileURLWithPath: path))
        let view = View(frame: Rect(x: 0, y: 0, width: 40, height: 30))
        view.content = .picture(path: path, fit: .cover)
        let frames = FrameRenderer(renderer: ViewRenderer(scale: 1))
        func draw() -> [UInt8] {
            frames.render(view, everything: true)
            return frames.canvas.rgba8
        }
        let sampled = draw(), kept = draw()
        #expect(zip(sampled, kept).map { abs(Int($0) - Int($1)) }.max()! <= 1, "the copy's pixels are the sampled ones")
        let root = View(frame: Rect(x: 0, y: 0, width: 60, height: 30))
        root.addSubview(view)
        view.frame.x = 10.25
        let moved = FrameRenderer(renderer: ViewRenderer(scale: 1))
        moved.render(root, everything: true)
        let once = moved.canvas.rgba8
        moved.render(root, everything: true)
        #expect(zip(once, moved.canvas.rgba8).map { abs(Int($0) - Int($1)) }.max()! <= 1, "a quarter-pixel offset, sampled from the copy")
    }

    /// The renderer redraws a picture saved anew, though nothing else of the view changed.
    @Test func aFrameRendererDrawsAChangedPictureAgain() throws {
        let path = makeTemporaryFolder("redraw") + "/screen.png"
        try Data(try rgbaPNG([255, 0, 0, 255], width: 1, height: 1)).write(to: URL(fileURLWithPath: path))
        let view = View(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        view.content = .picture(path: path, fit: .cover)
        let frames = FrameRenderer(renderer: ViewRenderer(scale: 1))
        frames.render(view)
        #expect(frames.render(view).isEmpty, "nothing changed")
        try replaceByRename(path, with: "")
        try Data(try rgbaPNG([0, 0, 255, 255], width: 1, height: 1)).write(to: URL(fileURLWithPath: path))
        #expect(!frames.render(view).isEmpty)
        #expect(Array(frames.canvas.rgba8[0..<3]) == [0, 0, 255])
    }
}
