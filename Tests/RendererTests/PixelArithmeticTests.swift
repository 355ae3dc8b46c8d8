import Testing

@testable import Renderer

/// The renderer's pixel arithmetic done several pixels at a time, against the
/// same done one at a time, and procedural pictures painted a row at a time
/// against their colour at each pixel's centre.
struct PixelArithmeticTests {
    /// A procedural picture painted row by row is each pixel's colour at its
    /// centre, to the byte, at sizes whole and odd.
    @Test func aPaintedPictureIsEachPixelsColourAtItsCentre() throws {
        for (seed, width, height) in [(1, 64, 64), (3, 97, 41), (7, 5, 130)] {
            let painter = ImagePainter(seed: seed)
            let level = try #require(ImagePainter.bitmap(seed: seed, width: Double(width), height: Double(height)))
            #expect(level.width == width && level.height == height)
            var worst = 0
            for y in 0..<height {
                for x in 0..<width {
                    let c = painter.color(u: (Double(x) + 0.5) / Double(width), v: (Double(y) + 0.5) / Double(height))
                    let expected = [c.red, c.green, c.blue].map { Int(UInt8($0 * 255 + 0.5)) } + [255]
                    let k = (y * width + x) * 4
                    worst = max(worst, (0..<4).map { abs(Int(level.pixels[k + $0]) - expected[$0]) }.max()!)
                }
            }
            #expect(worst == 0, "seed \(seed), \(width) x \(height): a byte off by \(worst)")
        }
    }

    /// Opaque words blended over a row in vector lanes at an opacity are the
    /// same bytes as each scaled and put over its pixel alone.
    @Test func opaqueWordsBlendedEightAtATimeAreBlendedAsOneAtATime() {
        Self.rows(seed: 0xB1E4D) { random, count in
            let opacity = random.next() % 255
            let source = (0..<count).map { _ in random.next() | 0xFF00_0000 }
            let beneath = (0..<count).map { _ in random.premultiplied() }
            var found = beneath
            source.withUnsafeBufferPointer { s in
                found.withUnsafeMutableBufferPointer { Pixel.blend(opaque: s.baseAddress!, count: count, opacity: opacity, over: $0.baseAddress!) }
            }
            let expected = zip(source, beneath).map { Pixel.over(Pixel.scaled($0, opacity), $1) }
            return found == expected ? nil : "\(count) words at opacity \(opacity): \(found), not \(expected)"
        }
    }

    /// A translucent colour blended over a row in vector lanes (eight words,
    /// then four, then one at a time) is the same bytes as put over each word alone.
    @Test func aColourBlendedOverARowIsPutOverEachWord() {
        Self.rows(seed: 0xC0105) { random, count in
            var color = random.premultiplied()
            if color >> 24 == 255 || color >> 24 == 0 { color = (color & 0x007F_7F7F) | 0x7F00_0000 }
            let beneath = (0..<count).map { _ in random.premultiplied() }
            var found = beneath
            found.withUnsafeMutableBufferPointer { words in
                DrawingTarget(pixels: words.baseAddress!, width: count, height: 1, clip: PixelRect(x0: 0, y0: 0, x1: count, y1: 1))
                    .blend(color, y: 0, from: 0, to: count - 1)
            }
            let expected = beneath.map { Pixel.over(color, $0) }
            return found == expected ? nil : "\(count) words under \(color): \(found), not \(expected)"
        }
    }

    /// Two rows mixed in vector lanes, by one weight or by each word's own,
    /// are the same bytes as each pair of words mixed alone.
    @Test func rowsMixedInLanesAreMixedWordByWord() {
        Self.rows(seed: 0x1A7E5) { random, count in
            let f = random.next() % 257
            let (a, b) = ((0..<count).map { _ in random.premultiplied() }, (0..<count).map { _ in random.premultiplied() })
            let weights = (0..<count).map { _ in random.next() % 257 }
            var (byOne, byEach) = ([UInt32](repeating: 0, count: count), [UInt32](repeating: 0, count: count))
            a.withUnsafeBytes { a in
                b.withUnsafeBytes { b in
                    byOne.withUnsafeMutableBufferPointer { PictureSampler.mix(rows: a.baseAddress!, b.baseAddress!, count: count, by: f, into: $0.baseAddress!) }
                    weights.withUnsafeBufferPointer { w in
                        byEach.withUnsafeMutableBufferPointer {
                            PictureSampler.mix(rows: a.baseAddress!, b.baseAddress!, count: count, weights: w.baseAddress!, into: $0.baseAddress!)
                        }
                    }
                }
            }
            let (one, each) = ((0..<count).map { Pixel.mix(a[$0], b[$0], f) }, (0..<count).map { Pixel.mix(a[$0], b[$0], weights[$0]) })
            return byOne == one && byEach == each ? nil : "\(count) words by \(f): \(byOne), not \(one); by each: \(byEach), not \(each)"
        }
    }

    /// Runs `check` on 2,000 rows of 1 to 37 words, drawn from `seed` (every
    /// count through the vector loops and their tails); records the first it
    /// finds wrong, by what it says.
    static func rows(seed: UInt64, _ check: (inout RandomWords, Int) -> String?) {
        var random = RandomWords(seed: seed)
        for round in 0..<2_000 {
            if let wrong = check(&random, 1 + round % 37) {
                Issue.record(Comment(rawValue: wrong))
                return
            }
        }
    }

    /// A mesh's texels mixed four channels at a time in 64-bit words are the
    /// same bytes as mixed a pair of channels at a time and then lit.
    @Test func fourTexelsMixedAtOnceAreMixedAsTwoChannelsAtATime() {
        var random = RandomWords(seed: 0x5EED)
        for _ in 0..<20_000 {
            let (t00, t01, t10, t11) = (random.premultiplied(), random.premultiplied(), random.premultiplied(), random.premultiplied())
            let (f, g) = (random.next() % 256, random.next() % 256)
            let light = random.next() % 2 == 0 ? 255 : random.next() % 256
            var expected = Pixel.mix(Pixel.mix(t00, t01, f), Pixel.mix(t10, t11, f), g)
            if light < 255 { expected = (Pixel.scaled(expected, light) & 0x00FF_FFFF) | (expected & 0xFF00_0000) }
            let found = Pixel.bilinear(UInt64(t00) | UInt64(t01) << 32, UInt64(t10) | UInt64(t11) << 32, f, g, light: light)
            guard found == expected else {
                Issue.record("\(t00) \(t01) \(t10) \(t11) by \(f), \(g), light \(light): \(found), not \(expected)")
                return
            }
        }
    }
}

/// Words for the pixel arithmetic's tests, from a fixed seed (a linear congruential generator's high bits).
struct RandomWords {
    var seed: UInt64

    mutating func next() -> UInt32 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt32(truncatingIfNeeded: seed >> 32)
    }

    /// A premultiplied word: no channel above its alpha.
    mutating func premultiplied() -> UInt32 {
        let a = next() & 0xFF, w = next()
        return (0..<3).reduce(a << 24) { $0 | (((w >> ($1 * 8)) & 0xFF) * a / 255) << ($1 * 8) }
    }
}
