import Foundation
import Glibc
@testable import HostConfig
import TestSupport
import Testing

@testable import HostContainer
@testable import Renderer

/// `segue preview` and `segue run --preview`: the files they write, decoded.
struct PreviewCommandTests {
    @Test func previewWritesAGIFWithOneFramePerTimeStep() throws {
        let folder = makeTemporaryFolder("preview")
        let result = try run(Paths.segue, ["preview", "CurlUp", "--out", "a.gif", "--scale", "0.2", "--fps", "20", "--json"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        let gif = try decodeGIF(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/a.gif"))))
        // 0.4 s at 20 fps: t = 0, 0.05, ..., 0.4; by 0.05 the corner has not yet
        // lifted by a visible amount, and the page is gone by 0.35, so the first
        // two are one picture, held 0.55 s, and the last two one, held 1 s.
        #expect(gif.frames.count == 7 && gif.delays == [55] + Array(repeating: 5, count: 5) + [100] && gif.loops == 0)
        #expect(gif.width == 78 && gif.height == 169)
        #expect(gif.comment == "segue preview CurlUp video -> file (with rules[1]'s parameters from <built-in scene>)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(written["frames"] as? Int == 9 && written["animator"] as? String == "CurlUp" && written["from"] as? String == "video")
        #expect(written["rule"] as? String == "rules[1]")
        #expect(withoutSlowEvaluationWarnings(result.err).isEmpty, "no progress line when not on a terminal: \(result.err)")
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
            (["preview", "default", "--out", "x.jpg"], 2, "expected a file ending in .gif, .png, .mp4 or .webm"),
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

    /// `--from` and `--to` take picture files: each a child of its own, shown whole.
    @Test func previewSwitchesBetweenPictureFiles() throws {
        let folder = makeTemporaryFolder("preview-pictures")
        for (name, rgb) in [("red", [240, 20, 20]), ("blue", [20, 20, 240])] as [(String, [UInt8])] {
            try Data(try rgbaPNG(Array(repeating: rgb + [255], count: 6).flatMap { $0 }, width: 2, height: 3))
                .write(to: URL(fileURLWithPath: folder + "/\(name).png"))
        }
        let result = try run(Paths.segue, ["preview", "SpringSlide", "--from", "red.png", "--to", "blue.png", "--frames", "3",
                                           "--scale", "0.25", "--out", "strip.png"], in: folder)
        #expect(result.status == 0 && result.out.contains("SpringSlide red -> blue"), "\(result.out)\(result.err)")
        let strip = try decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/strip.png"))))
        // The first still's middle is the red picture, the last's the blue one (filmstrip: 4-pixel gaps, stills of 98 x 211).
        func middle(_ k: Int) -> [UInt8] {
            let x = 4 + k * (98 + 4) + 49, y = 4 + 105
            return Array(strip.rgba[(y * strip.width + x) * 4..<(y * strip.width + x) * 4 + 3])
        }
        #expect(middle(0) == [240, 20, 20] && middle(2) == [20, 20, 240], "\(middle(0)) \(middle(2))")
    }

    /// `--target` hands a closing window's animator where it goes (ABI 1.4's
    /// anchor): Pop minimizes the calculator into the bottom-left entry,
    /// where without it the calculator shrinks about its centre.
    @Test func previewMinimizesIntoTheTargetRectangle() throws {
        let folder = makeTemporaryFolder("preview-target")
        func centreOfWindow(_ extra: [String]) throws -> (Double, Double) {
            let result = try run(Paths.segue, ["preview", "Pop", "--kind", "disappear", "--frames", "5", "--scale", "0.25",
                                               "--out", "strip.png"] + extra, in: folder)
            #expect(result.status == 0, "\(result.out)\(result.err)")
            let strip = try decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/strip.png"))))
            // Stills of 98 x 211 with 4-pixel gaps: the window in still 3 (0.19 s) is what differs from still 4 (gone).
            func pixel(_ k: Int, _ x: Int, _ y: Int) -> [UInt8] {
                let at = ((4 + y) * strip.width + 4 + k * (98 + 4) + x) * 4
                return Array(strip.rgba[at..<at + 3])
            }
            var (sx, sy, n) = (0.0, 0.0, 0.0)
            for y in 0..<211 { for x in 0..<98 where pixel(3, x, y) != pixel(4, x, y) { (sx, sy, n) = (sx + Double(x), sy + Double(y), n + 1) } }
            #expect(n > 0)
            return (sx / max(n, 1), sy / max(n, 1))
        }
        let (into, alone) = (try centreOfWindow(["--target", "20,780,60,44"]), try centreOfWindow([]))
        #expect(into.0 < 30 && into.1 > 150, "in the bottom-left, towards the entry at (50, 802) points: \(into)")
        #expect(abs(alone.0 - 49) < 15 && abs(alone.1 - 105) < 40, "about the window's own centre without one: \(alone)")
        let refused = try run(Paths.segue, ["preview", "Pop", "--target", "1,2,3", "--kind", "disappear"], in: folder)
        #expect(refused.status == 2 && refused.err.contains("--target 1,2,3: expected X,Y,W,H"), "\(refused.err)")
    }

    /// A picture that cannot be decoded is named, with the config's key path and place or the option
    /// that gave it, before anything is drawn; nothing is written.
    @Test func aPictureThatCannotBeDecodedIsNamedBeforeAnythingIsDrawn() throws {
        let folder = makeTemporaryFolder("preview-broken")
        let good = try rgbaPNG([UInt8](repeating: 128, count: 64 * 64 * 4), width: 64, height: 64)
        try Data(good.prefix(good.count / 2)).write(to: URL(fileURLWithPath: folder + "/half.png"))
        try #"{"children": ["a", {"name": "b", "picture": "half.png"}]}"#.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        let fromConfig = try run(Paths.segue, ["preview", "SpringSlide", "--config", "segue.json", "--out", "x.gif"], in: folder)
        #expect(fromConfig.status == 1, "\(fromConfig.err)")
        #expect(fromConfig.err.contains("segue.json:1:34: $.children[1].picture: expected a PNG or JPEG picture of at most 40 megapixels, found \(folder)/half.png: a PNG that is truncated or corrupt"),
                "\(fromConfig.err)")
        let fromOption = try run(Paths.segue, ["preview", "SpringSlide", "--to", "nowhere.jpg", "--out", "x.gif"], in: folder)
        #expect(fromOption.status == 1 && fromOption.err.contains("the command line: --to: expected a PNG or JPEG picture of at most 40 megapixels, found \(folder)/nowhere.jpg: nothing (no such file)"),
                "\(fromOption.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.gif"))
    }


    /// A font that cannot be had costs one line saying where it was named and why; the preview is
    /// still drawn, its labels in DejaVu Sans.
    @Test func aFontThatCannotBeHadIsSaidInOneLine() throws {
        let folder = makeTemporaryFolder("preview-font")
        let given = try run(Paths.segue, ["preview", "SpringSlide", "--font", "missing.ttf", "--frames", "2", "--scale", "0.2", "--out", "a.png"],
                            in: folder)
        #expect(given.status == 0 && withoutSlowEvaluationWarnings(given.err) == "segue: the command line: --font: expected a font FreeType reads: a family fontconfig matches, or a font file, found no font file at \(folder)/missing.ttf; labels are drawn in DejaVu Sans\n",
                "\(given.err)")
        try #"{"font": "No Such Family"}"#.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        let configured = try run(Paths.segue, ["preview", "SpringSlide", "--config", "segue.json", "--frames", "2", "--scale", "0.2", "--out", "b.png"],
                                 in: folder)
        #expect(configured.status == 0 && configured.err.hasPrefix("segue: segue.json:1:2: $.font: expected a font FreeType reads"), "\(configured.err)")
        #expect(configured.err.contains("found no font named 'No Such Family'") && withoutSlowEvaluationWarnings(configured.err).split(separator: "\n").count == 1,
                "\(configured.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/b.png"))
    }


    /// `--animated` writes the .png as an animated PNG: every frame of the GIF
    /// at full colour, each only what changed, at exactly --fps between the GIF's holds.
    @Test func anAnimatedPNGPlaysTheSameFramesAsTheGIFInFullColour() throws {
        let folder = makeTemporaryFolder("apng")
        let made = try run(Paths.segue, ["preview", "CurlUp", "--animated", "--fps", "20", "--scale", "0.2", "--out", "a.png"], in: folder)
        #expect(made.status == 0, "\(made.err)")
        let apng = try decodeAPNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/a.png"))))
        #expect(apng.width == 78 && apng.height == 169 && apng.plays == 0)
        let gif = try run(Paths.segue, ["preview", "CurlUp", "--fps", "20", "--scale", "0.2", "--out", "a.gif"], in: folder)
        #expect(gif.status == 0)
        let frames = try decodeGIF([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/a.gif"))))
        // The same frames (a GIF's palette aside: within a few steps), the same holds.
        #expect(apng.frames.count == frames.frames.count, "\(apng.frames.count) and \(frames.frames.count)")
        #expect(apng.frames.map(\.delay) == [0.55] + Array(repeating: 0.05, count: apng.frames.count - 2) + [1])
        for (k, frame) in zip(apng.frames, frames.frames).enumerated() {
            let worst = (0..<(78 * 169)).map { p in
                let rgb = frame.1[p]
                return max(abs(Int(frame.0.rgba[p * 4]) - Int(rgb >> 16 & 0xFF)), abs(Int(frame.0.rgba[p * 4 + 1]) - Int(rgb >> 8 & 0xFF)),
                           abs(Int(frame.0.rgba[p * 4 + 2]) - Int(rgb & 0xFF)))
            }.max()!
            #expect(worst < 40, "frame \(k): \(worst)")
        }
        // Full colour: more distinct colours than a GIF's palette holds.
        let colours = Set(apng.frames.flatMap { frame in stride(from: 0, to: frame.rgba.count, by: 4).map { Array(frame.rgba[$0..<$0 + 3]) } })
        #expect(colours.count > 256, "\(colours.count) colours")
        let refused = try run(Paths.segue, ["preview", "CurlUp", "--animated", "--out", "a.gif"], in: folder)
        #expect(refused.status == 2 && refused.err.contains("--animated only works with a .png"), "\(refused.err)")
    }


    /// `.mp4` and `.webm` through ffmpeg: the animation at a constant --fps, the GIF's holds as repeated frames.
    @Test(.enabled(if: Toolchain.found("ffmpeg") && Toolchain.found("ffprobe"), "skipped: needs ffmpeg (apt-get install ffmpeg; .ci/run does)"),
          arguments: [("mp4", "h264"), ("webm", "vp9")])
    func aVideoIsWrittenThroughFFmpeg(_ c: (format: String, codec: String)) throws {
        let folder = makeTemporaryFolder("video")
        let made = try runSegue(["preview", "default", "--scale", "0.25", "--fps", "30", "--json", "--out", folder + "/a." + c.format])
        #expect(made.status == 0, "\(made.err)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(made.out.utf8)) as? [String: Any])
        let frames = try #require(written["frames"] as? Int)
        let probe = try run("/usr/bin/env", ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                                             "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", folder + "/a." + c.format])
        // 98 x 211 at a quarter scale, padded to even sizes; half a second (15 frames) of the first, a second (30) of the last.
        #expect(probe.out == "\(c.codec),98,212,\(15 + frames - 1 + 30)\n", "\(probe.out)\(probe.err)")
    }

    @Test func withoutFFmpegAVideoIsRefusedSayingWhatToInstall() throws {
        let folder = makeTemporaryFolder("no-ffmpeg")
        let refused = try run(Paths.segue, ["preview", "SpringSlide", "--out", "a.mp4"], in: folder, environment: ["PATH": folder])
        #expect(refused.status == 1 && refused.err == "segue: --out a.mp4: writing .mp4 needs ffmpeg, which is not on the PATH (apt-get install ffmpeg); .gif and .png need nothing\n",
                "\(refused.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }


    /// An animator that is missing because the loader refused its file says
    /// so wherever it is named: preview's and inspect's "no animator named",
    /// and the reason run and explain give for the fallback name each refused
    /// file and why, as `segue list` does.
    @Test func aMissingAnimatorsMessageNamesEveryRefusedFileAndWhy() throws {
        let folder = makeTemporaryFolder("refused")
        try "not a library".write(toFile: folder + "/libBroken.so", atomically: false, encoding: .utf8)
        let listed = try runSegue(["list", "--json", "--plugins", folder])
        let rejected = try #require((try jsonLines(listed.out).first?["rejected"] as? [[String: Any]])?.first, "\(listed.out)")
        let file = try #require(rejected["file"] as? String), reason = try #require(rejected["reason"] as? String)
        #expect(file == folder + "/libBroken.so" && !reason.isEmpty)
        let refused = "refused: \(file): \(reason)"

        let previewed = try runSegue(["preview", "Broken", "--plugins", folder, "--out", folder + "/b.png"])
        #expect(previewed.status == 1 && previewed.err.contains("no animator named 'Broken'") && previewed.err.contains(refused),
                "\(previewed.err)")
        let inspected = try runSegue(["inspect", "Broken", "--plugins", folder])
        #expect(inspected.status == 1 && inspected.err.contains(refused), "\(inspected.err)")

        try #"{"plugins": ["\#(folder)"], "children": ["a", "b"], "rules": [{"to": "b", "animator": "Broken"}], "script": ["b"]}"#
            .write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        let played = try jsonLines(try runSegue(["run", "--json", "--config", folder + "/segue.json"]).out)
        let why = try #require(played.first?["reason"] as? String)
        #expect(why.contains("names the animator 'Broken', which no loaded plugin provides") && why.contains(refused), "\(why)")
        let explained = try runSegue(["explain", "a", "b", "--config", folder + "/segue.json"])
        #expect(explained.out.contains(refused), "\(explained.out)")
    }

    /// An animator that takes 50 ms an evaluation plays, and then `run` and
    /// `preview` say it will stutter, naming it and the figure; `run --json`
    /// carries the timing.
    @Test func aSlowAnimatorIsWarnedAboutAfterItsTransition() throws {
        let (folder, _) = try CPlugin.fixture("slow-evaluate", "FAULT_SLOW_EVALUATE")
        try #"{"plugins": ["\#(folder)"], "children": ["a", "b"], "rules": [{"to": "b", "animator": "TestFade"}], "script": ["b"]}"#
            .write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        let warning = /segue: warning: TestFade took a median (\d+\.\d) ms per evaluation, (?:at most|up to) \d+\.\d ms \(budget 4 ms; a frame at 60 Hz is 16\.7 ms\): it will stutter\n/
        let played = try runSegue(["run", "--json", "--config", folder + "/segue.json"])
        #expect(played.status == 0, "\(played.err)")
        let median = try #require(played.err.firstMatch(of: warning)?.output.1, "\(played.err)")
        #expect(Double(median)! >= 50, "a nap of 50 ms takes at least 50 ms: \(played.err)")
        let report = try #require(try jsonLines(played.out).first)
        #expect(report["animator"] as? String == "TestFade", "\(report)")
        let evaluation = try #require(report["evaluation"] as? [String: Any], "\(report)")
        #expect(evaluation["slow"] as? Bool == true && (evaluation["median"] as? Double ?? 0) >= 0.05, "\(evaluation)")
        #expect(evaluation["count"] as? Int == report["frames"] as? Int, "\(evaluation)")

        let previewed = try runSegue(["preview", "TestFade", "--plugins", folder, "--frames", "2", "--scale", "0.1", "--out", folder + "/s.png"])
        #expect(previewed.status == 0 && previewed.err.contains(warning), "\(previewed.err)")
    }
}

/// `err` without `run`'s and `preview`'s warnings that an evaluation took longer than its budget:
/// on a machine as busy as the suite makes it, a debug build's worker round trip can pass 4 ms
/// for any animator (a CI run saw SpringSlide's median at 4.1 ms), so tests about other messages
/// leave those lines out. aSlowAnimatorIsWarnedAboutAfterItsTransition tests the warning itself.
func withoutSlowEvaluationWarnings(_ err: String) -> String {
    err.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !($0.hasPrefix("segue: warning: ") && $0.contains(" per evaluation, ") && $0.contains("(budget ")) }
        .joined(separator: "\n")
}
