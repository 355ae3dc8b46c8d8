import Foundation
import TestSupport
import Testing

/// The renderer draws the same pictures it drew before it was made fast:
/// `Tests/Reference` holds filmstrips `segue preview` wrote with the first
/// renderer (each bundled animator and the default at 6 times, scale 1 and
/// 2; the curl's shadow at mid-curl; every glyph of the font at several
/// sizes, on colours, on a picture and over nothing), and each is drawn again
/// now and compared: the mean absolute error at most 1/255 per channel, and
/// at most 8/255 on any pixel away from an anti-aliased edge. The mid-curl
/// filmstrips were recorded anew when a curled page came to be read once a
/// pixel, bilinearly (docs/performance.md shows the difference).
///
/// `SEGUE_RECORD_REFERENCES=1 swift test --filter ReferenceFrameTests`
/// writes them anew, for a change that means to alter the pictures (say why
/// in its commit); `SEGUE_REFERENCE_REPORT=1` prints each file's errors.
struct ReferenceFrameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let arguments: [String]
        var testDescription: String { file }
    }

    static let folder = Paths.packageRoot + "/Tests/Reference"

    static let cases: [Case] = ["default", "SpringSlide", "CurlUp", "ImageZoom"].flatMap { name in
        [1, 2].map { scale in Case(file: "\(name)-x\(scale).png", arguments: ["preview", name, "--frames", "6", "--scale", "\(scale)"]) }
    } + [1, 2].flatMap { scale in
        [
            Case(file: "CurlUp-mid-x\(scale).png", arguments: ["preview", "CurlUp", "--frames", "3", "--scale", "\(scale)"]),
            Case(file: "text-x\(scale).png",
                 arguments: ["preview", "default", "--config", folder + "/text.json", "--frames", "3", "--scale", "\(scale)"]),
        ]
    }

    /// How far a picture is from its reference.
    struct Difference: CustomStringConvertible {
        /// Mean absolute error over every channel of every pixel, in 1/255.
        var mean = 0.0
        /// The largest error of any channel on a pixel away from an edge, in 1/255.
        var largestAwayFromEdges = 0
        /// The largest error anywhere, in 1/255.
        var largest = 0
        var description: String {
            "mean \(String(format: "%.3f", mean))/255, largest \(largestAwayFromEdges)/255 away from edges (\(largest)/255 anywhere)"
        }
    }

    /// Compares two RGBA pictures of the same size. A pixel is on an edge when,
    /// in the reference, some channel varies by 32/255 or more within its 3×3
    /// neighbourhood: where an anti-aliased edge or a glyph's rim falls.
    static func difference(_ picture: [UInt8], from reference: [UInt8], width: Int, height: Int) -> Difference {
        var result = Difference()
        var total = 0
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                var worst = 0
                for c in 0..<4 {
                    let e = abs(Int(picture[i + c]) - Int(reference[i + c]))
                    total += e
                    worst = max(worst, e)
                }
                result.largest = max(result.largest, worst)
                guard worst > result.largestAwayFromEdges else { continue }
                var onEdge = false
                for c in 0..<4 where !onEdge {
                    var low = 255, high = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let (nx, ny) = (x + dx, y + dy)
                            guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                            let v = Int(reference[(ny * width + nx) * 4 + c])
                            (low, high) = (min(low, v), max(high, v))
                        }
                    }
                    onEdge = high - low >= 32
                }
                if !onEdge { result.largestAwayFromEdges = worst }
            }
        }
        result.mean = Double(total) / Double(max(width * height * 4, 1))
        return result
    }

    @Test(arguments: cases)
    func theRendererDrawsTheReferencePictures(_ reference: Case) throws {
        let out = makeTemporaryFolder("reference") + "/" + reference.file
        let made = try run(Paths.segue, reference.arguments + ["--out", out, "--isolation", "none"], timeout: 120)
        #expect(made.status == 0, "\(made.err)")
        let path = Self.folder + "/" + reference.file
        if ProcessInfo.processInfo.environment["SEGUE_RECORD_REFERENCES"] == "1" {
            _ = try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: out, toPath: path)
            return
        }
        let expected = try decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let drawn = try decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        try #require(drawn.width == expected.width && drawn.height == expected.height, "\(reference.file): the size")
        let difference = Self.difference(drawn.rgba, from: expected.rgba, width: expected.width, height: expected.height)
        if ProcessInfo.processInfo.environment["SEGUE_REFERENCE_REPORT"] == "1" { print("\(reference.file): \(difference)") }
        #expect(difference.mean <= 1, "\(reference.file): \(difference)")
        #expect(difference.largestAwayFromEdges <= 8, "\(reference.file): \(difference)")
    }

    /// The measure itself: it sees a changed pixel, and forgives an edge that moved.
    @Test func theComparisonTellsAnEdgeFromAChange() {
        // A 6×6 picture: left half black, right half white.
        let reference = (0..<36).flatMap { i -> [UInt8] in i % 6 < 3 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        var shifted = reference
        for y in 0..<6 { shifted[(y * 6 + 3) * 4..<(y * 6 + 3) * 4 + 3] = [128, 128, 128] }  // the edge half a pixel over
        let moved = Self.difference(shifted, from: reference, width: 6, height: 6)
        #expect(moved.largestAwayFromEdges == 0 && moved.largest == 127)
        var spotted = reference
        spotted[(2 * 6 + 0) * 4] = 20  // a pixel in the flat black
        let changed = Self.difference(spotted, from: reference, width: 6, height: 6)
        #expect(changed.largestAwayFromEdges == 20)
        #expect(changed.mean == 20.0 / 144)
    }
}
