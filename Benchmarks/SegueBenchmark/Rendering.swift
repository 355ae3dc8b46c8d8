import Foundation
import HostConfig
import HostContainer
import PluginHost
import Renderer

/// What drawing one frame costs: every frame of each animator's transition at
/// 60 fps, 390x844 at scale 1 and 2, each drawn whole `rounds` times into the
/// frame renderer's canvas, as a live view draws (the median of a frame's
/// rounds is its time; the canvas is 8-bit premultiplied RGBA, ready for a
/// window or an encoder, so no conversion follows); the median and 99th
/// percentile over the frames. Beside it the same frames drawn with cairo
/// (``CairoScene``), round by round in turn with Segue's, and the ratio of
/// the medians; CurlUp's meshes cairo cannot draw.
func frameTimes(registry: AnimatorRegistry, rounds: Int = 9, only: String? = nil) {
    print("\nDrawing one frame at 390x844 (every frame of the transition at 60 fps; ms; Segue beside cairo drawing the same views):")
    print("  animator      frames | scale 1: Segue median / p99   cairo median / p99   Segue/cairo | scale 2: Segue median / p99   cairo median / p99   Segue/cairo")
    var cairoVersion: String?, differences: [String] = []
    for (name, from, to) in renderingCases where only == nil || only == name {
        var config = SegueConfig(file: "benchmark")
        config.rules = [SegueConfig.Rule(from: from, to: to, animator: name, label: "benchmark")]
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        var figures: [String] = []
        var count = 0
        // SEGUE_BENCH_SCALE=S: that scale alone, in the first column (for a profiler, or a terminal's 2.84).
        let alone = ProcessInfo.processInfo.environment["SEGUE_BENCH_SCALE"].flatMap(Double.init)
        for scale in alone.map({ [$0] }) ?? [1.0, 2.0] {
            let renderer = ViewRenderer(scale: scale)
            let preview = TransitionPreview(children: { Scene.viewControllers(for: SegueConfig.builtinScene.children) },
                                            size: Rect.phonePortrait, from: from, to: to, renderer: renderer)
            var times: [Double] = [], theirs: [Double] = []
            let frames = FrameRenderer(renderer: renderer)
            let size = renderer.pixels(for: Rect.phonePortrait)
            var cairo: CairoScene?, missing = "cairo cannot draw meshes", difference = (mean: 0.0, far: 0.0)
            if name != "CurlUp" {
                do { cairo = try CairoScene(width: size.width, height: size.height, scale: scale) } catch { missing = (error as? CairoMissing)?.reason ?? "\(error)" }
            }
            cairoVersion = cairoVersion ?? cairo?.version
            let only = ProcessInfo.processInfo.environment["SEGUE_BENCH_FRAME"].flatMap { Int($0) }
            _ = try? preview.play(fps: 60, delegate: delegate) { index, _, view, _ in
                // SEGUE_BENCH_FRAME=N: that frame alone, drawn 200 times (SEGUE_BENCH_RUNS=K: K times; for a profiler).
                if let only {
                    let runs = ProcessInfo.processInfo.environment["SEGUE_BENCH_RUNS"].flatMap { Int($0) } ?? 200
                    if index == only { times.append(median(runs: runs) { frames.render(view, everything: true) }) }
                    return
                }
                guard let cairo else {
                    times.append(median(runs: rounds) { frames.render(view, everything: true) })
                    return
                }
                cairo.prepare(view)
                // Round by round in turn, Segue first every other frame: the comparison below passes over
                // both frames and three copies, and whichever drew first after it would find the caches cold.
                let pair = medians(runs: rounds, bFirst: index % 2 == 1,
                                   { frames.render(view, everything: true) }, { cairo.draw(view, background: renderer.background) })
                times.append(pair.a)
                theirs.append(pair.b)
                // That both drew the same frame: the mean difference per channel, and the share of pixels far apart.
                if let drawn = cairo.rgba8() {
                    let ours = frames.canvas.rgba8
                    var total = 0, far = 0
                    for k in stride(from: 0, to: ours.count, by: 4) {
                        let (r, g, b) = (abs(Int(ours[k]) - Int(drawn[k])), abs(Int(ours[k + 1]) - Int(drawn[k + 1])), abs(Int(ours[k + 2]) - Int(drawn[k + 2])))
                        total += r + g + b
                        if max(r, g, b) > 32 { far += 1 }
                    }
                    difference.mean = max(difference.mean, Double(total) / Double(ours.count / 4 * 3))
                    difference.far = max(difference.far, Double(far) / Double(ours.count / 4))
                } else {
                    missing = "cairo failed to draw"
                }
            }
            guard !times.isEmpty else { figures.append("        -        -             -        -            -"); continue }
            count = times.count
            if ProcessInfo.processInfo.environment["SEGUE_BENCH_EACH"] != nil {
                print("    \(name) x\(scale) each frame (ms): " + times.map { String(format: "%.2f", $0 * 1000) }.joined(separator: " "))
                if !theirs.isEmpty { print("    cairo x\(scale) each frame (ms): " + theirs.map { String(format: "%.2f", $0 * 1000) }.joined(separator: " ")) }
            }
            let ours = medianAndP99(times)
            var figure = String(format: "   %6.3f / %6.3f  ", ours.median * 1000, ours.p99 * 1000)
            if theirs.isEmpty {
                figure += "  (\(missing))"
            } else {
                let cairoFigures = medianAndP99(theirs)
                figure += String(format: "     %6.3f / %6.3f       %5.2fx", cairoFigures.median * 1000, cairoFigures.p99 * 1000, ours.median / cairoFigures.median)
                differences.append(String(format: "%@ x%d: mean %.1f/255, %.1f%% far", name, Int(scale), difference.mean, difference.far * 100))
            }
            figures.append(figure)
        }
        print("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0))  \(String(format: "%6d", count)) |" + figures.joined(separator: " |"))
    }
    if let cairoVersion, !differences.isEmpty {
        print("  (cairo \(cairoVersion), ARGB32, per-fill alpha, pictures sampled bilinear from the paintings Segue samples, DejaVu Sans through its glyph cache;")
        print("   the frames differ at most by, per channel, and pixels more than 32 apart: \(differences.joined(separator: "; ")))")
    }
}

/// The median and 99th percentile of `values` (not empty).
func medianAndP99(_ values: [Double]) -> (median: Double, p99: Double) {
    let sorted = values.sorted()
    return (sorted[sorted.count / 2], sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)])
}

let renderingCases = [("default", "photo", "video"), ("SpringSlide", "photo", "video"),
                      ("CurlUp", "video", "file"), ("ImageZoom", "grid", "detail")]

/// Rendering figures for 390x844 at scale 1: for each animator, the preview's
/// time and peak memory (the release `segue preview` run as a child), and the
/// sizes of its GIF against gifsicle -O3 (where installed) on the same frames,
/// and of its filmstrip's IDAT against zlib level 6 on the same filtered bytes.
func renderingBenchmark(registry: AnimatorRegistry, segue: String) {
    frameTimes(registry: registry)
    print("\nRendering 390x844 at scale 1:")
    let cases = renderingCases
    // segue preview NAME (GIF, defaults) with the first renderer, at 77d2abd on this 2-core machine.
    let firstPreview = ["default": "0.97 s, 36.7 MiB", "SpringSlide": "0.95 s, 35.7 MiB", "CurlUp": "1.14 s, 64.8 MiB", "ImageZoom": "0.40 s, 36.0 MiB"]
    let scratch = NSTemporaryDirectory() + "segue-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let gifsicle = ["/usr/bin/gifsicle", "/usr/local/bin/gifsicle"].first { FileManager.default.isExecutableFile(atPath: $0) }
    let frame = Canvas(width: 390, height: 844, color: Color(red: 0.3, green: 0.5, blue: 0.7))
    var bytes = 0
    let conversion = median(runs: 9) { bytes = frame.rgba8.count }
    print("  premultiplied to straight RGBA for encoders (Canvas.rgba8; opaque pixels copied), one 390x844 frame: \(String(format: "%.2f", conversion * 1000)) ms (\(bytes / 1024) KiB)")
    for (name, from, to) in cases {
        // The tool as users run it: time and peak resident memory.
        let out = "\(scratch)/\(name).gif"
        let (seconds, peak) = measureChild(segue, ["preview", name, "--out", out])
        let written = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0

        // The same frames, every pixel of each (own palettes, no differences), for gifsicle -O3.
        var config = SegueConfig(file: "benchmark")
        config.rules = [SegueConfig.Rule(from: from, to: to, animator: name, label: "benchmark")]
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        let preview = TransitionPreview(children: { Scene.viewControllers(for: SegueConfig.builtinScene.children) }, size: Rect.phonePortrait,
                                        from: from, to: to, renderer: ViewRenderer())
        var ours: GIFEncoder?, plain: GIFEncoder?, index = 0
        var encodeTime = 0.0
        _ = try? preview.animation(fps: 60, delegate: delegate) { frame in
            if ours == nil {
                ours = GIFEncoder(width: frame.canvas.width, height: frame.canvas.height)
                plain = GIFEncoder(width: frame.canvas.width, height: frame.canvas.height, frameDifferences: false)
            }
            let delay = index == 0 ? 50 : 2
            let start = Date()
            ours?.add(frame.canvas, delay: delay)
            encodeTime += Date().timeIntervalSince(start)
            plain?.add(frame.canvas, delay: delay)
            index += 1
        }
        let ourBytes = ours?.finish(lastDelay: 100) ?? []
        var versus = "gifsicle not installed"
        if let gifsicle, let plainBytes = plain?.finish(lastDelay: 100) {
            let plainPath = "\(scratch)/\(name)-plain.gif", optimized = "\(scratch)/\(name)-O3.gif"
            guard FileManager.default.createFile(atPath: plainPath, contents: Data(plainBytes)) else { fatalError("cannot write \(plainPath)") }
            _ = measureChild(gifsicle, ["-O3", plainPath, "-o", optimized])
            let theirs = (try? FileManager.default.attributesOfItem(atPath: optimized)[.size] as? Int) ?? 0
            versus = "gifsicle -O3 \(theirs / 1024) KiB, ratio \(String(format: "%.2f", Double(ourBytes.count) / Double(max(theirs, 1))))"
        }
        // A filmstrip of six stills, as segue preview --out x.png draws it.
        let stills = (try? preview.stills(count: 6, delegate: delegate).frames) ?? []
        let strip = Filmstrip.compose(stills, renderer: ViewRenderer())
        var png: [UInt8] = []
        let pngTime = median(runs: 5) { png = PNG.encode(strip) }
        let idat = pngIDATLength(png)
        var filtered: [UInt8] = []
        let filterTime = median(runs: 5) { filtered = PNG.filtered(strip) }
        let zlibTime = median(runs: 5) { _ = SystemZlib6.compress(filtered) }
        let zlib6 = SystemZlib6.compress(PNG.filtered(strip))?.count ?? 0
        print("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) preview \(index) frames in \(String(format: "%.2f", seconds)) s, peak \(String(format: "%.1f", Double(peak) / 1024)) MiB (first renderer: \(firstPreview[name] ?? "?")), file \(written / 1024) KiB;"
              + " GIF \(ourBytes.count / 1024) KiB (encoding \(String(format: "%.1f", encodeTime / Double(max(index, 1)) * 1000)) ms/frame), \(versus);"
              + " PNG \(strip.width)x\(strip.height) in \(String(format: "%.1f", pngTime * 1000)) ms (filtering \(String(format: "%.1f", filterTime * 1000)) ms, zlib-6 \(String(format: "%.1f", zlibTime * 1000)) ms), IDAT \(idat / 1024) KiB vs zlib-6 \(zlib6 / 1024) KiB, ratio \(String(format: "%.2f", Double(idat) / Double(max(zlib6, 1))))")
    }
}

/// The length of a PNG's IDAT data (all chunks).
func pngIDATLength(_ png: [UInt8]) -> Int {
    var i = 8, total = 0
    while i + 8 <= png.count {
        let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
        if String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self) == "IDAT" { total += length }
        i += 12 + length
    }
    return total
}

/// zlib level 6 through the system's libz.so.1, independently of the renderer's use of it.
enum SystemZlib6 {
    typealias Compress2 = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt, Int32) -> Int32
    static func compress(_ data: [UInt8]) -> [UInt8]? {
        guard let handle = dlopen("libz.so.1", RTLD_NOW), let symbol = dlsym(handle, "compress2") else { return nil }
        let f = unsafeBitCast(symbol, to: Compress2.self)
        var length = UInt(data.count + data.count / 100 + 1024)
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { o in data.withUnsafeBufferPointer { f(o.baseAddress, &length, $0.baseAddress, UInt($0.count), 6) } }
        return status == 0 ? Array(out.prefix(Int(length))) : nil
    }
}

/// Runs `path` with `arguments` (output discarded) and returns its wall time
/// and peak resident memory in KiB: the high-water mark of its own address
/// space (VmHWM in /proc/PID/status), read every 2 ms until it exits. (wait4's
/// ru_maxrss would not do: a spawned child's starts from the parent's.)
func measureChild(_ path: String, _ arguments: [String]) -> (seconds: Double, peakKiB: Int) {
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = Date()
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return (0, 0) }
    var peak = 0, status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kib = Int(line.split(separator: " ").dropFirst().first ?? "") {
            peak = max(peak, kib)
        }
        usleep(2_000)
    }
    return (Date().timeIntervalSince(start), peak)
}

/// Frames with pictures and type, as people now see them: the built-in
/// scene with every child showing a 1170 x 2532 screenshot (two files,
/// alternating; its labels and procedural pictures kept), drawn at 390 x 844
/// for every animator; then `segue preview` between the two screenshots,
/// its time and peak memory. The screenshots are made here (a gradient,
/// bands and blocks, as a screen has) and written with Segue's PNG encoder.
func pictureFrameTimes(registry: AnimatorRegistry, segue: String, rounds: Int = 5, only: String? = nil) {
    let scratch = NSTemporaryDirectory() + "segue-bench-pictures-\(getpid())"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    var files: [String] = []
    for (k, hue) in [(0, 0.6), (1, 0.08)] {
        var canvas = Canvas(width: 1170, height: 2532, color: Color(red: 0.96, green: 0.96, blue: 0.97))
        canvas.fill(PixelRect(x0: 0, y0: 0, x1: 1170, y1: 300), with: Color(red: hue, green: 0.45, blue: 0.9 - hue))
        for row in 0..<12 {
            let y = 340 + row * 180
            canvas.fill(PixelRect(x0: 40, y0: y, x1: 1130, y1: y + 150), with: .white)
            canvas.fill(PixelRect(x0: 70, y0: y + 30, x1: 160, y1: y + 120), with: Color(red: Double(row) / 12, green: 0.5, blue: hue))
            canvas.fill(PixelRect(x0: 200, y0: y + 40, x1: 200 + 60 * (row % 7 + 6), y1: y + 70), with: Color(red: 0.2, green: 0.2, blue: 0.22))
        }
        let path = "\(scratch)/screen\(k).png"
        _ = FileManager.default.createFile(atPath: path, contents: Data(PNG.encode(canvas)))
        files.append(path)
    }
    let children = SegueConfig.builtinScene.children.enumerated().map { k, child in
        var child = child
        child.content = .picture(path: files[k % 2], fit: .cover)
        return child
    }
    print("\nDrawing one frame at 390x844 with pictures and type (every child a 1170x2532 screenshot, labels in DejaVu Sans; ms):")
    print("  animator      frames   scale 1 median   p99    scale 2 median   p99")
    for (name, from, to) in renderingCases where only == nil || only == name {
        var config = SegueConfig(file: "benchmark")
        config.rules = [SegueConfig.Rule(from: from, to: to, animator: name, label: "benchmark")]
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        var figures: [String] = [], count = 0
        for scale in [1.0, 2.0] {
            let renderer = ViewRenderer(scale: scale)
            let preview = TransitionPreview(children: { Scene.viewControllers(for: children) }, size: Rect.phonePortrait,
                                            from: from, to: to, renderer: renderer)
            let frames = FrameRenderer(renderer: renderer)
            var times: [Double] = []
            _ = try? preview.play(fps: 60, delegate: delegate) { _, _, view, _ in
                times.append(median(runs: rounds) { frames.render(view, everything: true) })
            }
            count = times.count
            times.sort()
            let p99 = times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
            figures.append(String(format: "%8.2f   %6.2f", times[times.count / 2] * 1000, p99 * 1000))
        }
        print("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0))  \(String(format: "%6d", count))   \(figures[0])          \(figures[1])")
    }
    guard only == nil else { return }
    print("\nsegue preview between two 1170x2532 screenshots (390x844 at scale 1, the release build as users run it):")
    for name in ["SpringSlide", "CurlUp"] {
        for out in ["\(scratch)/\(name).gif", "\(scratch)/\(name).png"] {
            let (seconds, peak) = measureChild(segue, ["preview", name, "--from", files[0], "--to", files[1], "--out", out])
            let written = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
            print("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \((out as NSString).pathExtension): \(String(format: "%.2f", seconds)) s, peak \(String(format: "%.1f", Double(peak) / 1024)) MiB, file \(written / 1024) KiB")
        }
    }
}
