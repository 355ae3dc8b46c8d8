import Foundation
import HostConfig
import HostContainer
import PluginHost
import Renderer
import Timing

/// `segue preview ANIMATOR`: renders one transition by one animator to an
/// animated GIF or a PNG filmstrip.
enum PreviewCommand {
    static let about = """
    Renders one transition by ANIMATOR (a plugin's short name, or 'default' for
    the built-in one) on the virtual clock, with Segue's software renderer.
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.preview) else { return .success }
        let name = args.operand
        let size = try args.single("--size").map { value throws(UsageError) in try parseSize(value, args) } ?? Rect.phonePortrait
        let fps = args.number("--fps")!
        let scale = args.number("--scale")!
        // The renderer rounds the container's size in pixels: it must keep at least one of each.
        let pixels = ViewRenderer(scale: scale).pixels(for: size)
        guard pixels.width >= 1, pixels.height >= 1 else {
            throw args.usage("--size \(Int(size.width))x\(Int(size.height)) at --scale \(scale.formatted()) makes a picture of \(pixels.width)x\(pixels.height) pixels; expected at least 1x1: raise --scale or --size")
        }
        // No view is drawn larger than the frame: larger pictures are decoded reduced to about its size.
        PictureCache.shared.drawnAtMost = pixels
        let stills = args.integer("--frames")!
        let out = args.single("--out") ?? "\(name).gif"
        let format = (out as NSString).pathExtension.lowercased()
        guard format == "gif" || format == "png" || VideoWriter.formats[format] != nil else {
            throw args.usage("--out \(out): expected a file ending in .gif, .png, .mp4 or .webm")
        }
        let video = VideoWriter.formats[format] != nil
        let animated = format == "gif" || video || args.has("--animated")
        if format != "png", args.has("--animated") { throw args.usage("--animated only works with a .png (a GIF or a video is animated already)") }
        if animated, args.single("--frames") != nil { throw args.usage("--frames only works with a .png filmstrip (--out FILE.png, without --animated)") }
        if !animated, args.single("--fps") != nil { throw args.usage("--fps only works with an animation (--out FILE.gif, FILE.mp4, FILE.webm, or FILE.png with --animated)") }
        if format != "gif", args.has("--dither") { throw args.usage("--dither only works with a .gif (--out FILE.gif)") }
        // A video is ffmpeg's to encode: said before anything is drawn when it is missing.
        let ffmpeg = video ? VideoWriter.ffmpeg() : nil
        if video, ffmpeg == nil {
            printError("segue: --out \(out): writing .\(format) needs ffmpeg, which is not on the PATH (apt-get install ffmpeg); .gif and .png need nothing")
            return .failure
        }
        var parameters: [String: ParameterValue] = [:]
        for item in args.values("--param") {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw args.usage("--param \(item): expected NAME=VALUE")
            }
            let value = String(item[item.index(after: eq)...])
            parameters[String(item[..<eq])] = Double(value).map(ParameterValue.number)
                ?? (value == "true" || value == "false" ? .bool(value == "true") : .string(value))
        }

        let watching = args.has("--watch")
        try args.require("--watch", for: "--strict")
        let signals = watching ? FileWatcher.signalPipe([SIGINT, SIGTERM]) : -1
        // --from and --to name children, or picture files that become children of their own.
        let given = [("--from", args.single("--from")), ("--to", args.single("--to"))]
            .compactMap { option, value in value.flatMap { PictureFiles.isPicture($0) ? (option, $0) : nil } }
        let pictures = PictureFiles.Operands(given, replacing: false)
        guard let config = try args.config(drawing: true, adjusting: { pictures.applied(to: $0) }) else { return .failure }
        var endpoint = Dictionary(uniqueKeysWithValues: zip(given.map(\.0), pictures.names(in: config)))
        for option in ["--from", "--to"] where endpoint[option] == nil { endpoint[option] = args.single(option) }
        let registry = try PluginFolders.registry(args, config: config)
        var job = Job(name: name, config: config, parameters: parameters, from: endpoint["--from"] ?? nil,
                      to: endpoint["--to"] ?? nil, typeface: TypeChoice.typeface(args, config: config),
                      size: size, fps: fps, scale: scale, stills: stills, out: out,
                      format: format, animated: args.has("--animated"), ffmpeg: ffmpeg, dither: args.has("--dither"), json: args.has("--json"))
        job.kind = args.single("--kind").flatMap(TransitionKind.init(key:)) ?? .switch
        func numbers(_ option: String, count: Int) throws(UsageError) -> [Double]? {
            guard let text = args.single(option) else { return nil }
            let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == count, values.allSatisfy(\.isFinite), count < 4 || (values[2] >= 0 && values[3] >= 0) else {
                throw args.usage("\(option) \(text): expected \(count == 2 ? "X,Y" : "X,Y,W,H (a width and height of 0 or more)"), finite numbers")
            }
            guard job.kind != .switch else { throw args.usage("\(option) only works with --kind appear or disappear") }
            return values
        }
        if let p = try numbers("--pointer", count: 2) { job.anchor.point = (p[0], p[1]) }
        if let r = try numbers("--target", count: 4) { job.anchor.rect = Rect(x: r[0], y: r[1], width: r[2], height: r[3]) }
        let rendered = job.render(with: registry)
        guard watching else { return rendered ? .success : .failure }

        // The author's loop: render again whenever a plugin or the config changes.
        let reloader = Reloading.reloader(args, config: config, registry: registry, drawing: true,
                                          adjusting: { pictures.applied(to: $0) })
        let watcher: FileWatcher
        do {
            watcher = try FileWatcher(folders: reloader.watched.folders, files: reloader.watched.files)
        } catch {
            printError("segue: \(error)")
            return .failure
        }
        printError("segue: " + Reloading.watching(args, reloader))
        watcher.follow(interruptedBy: signals, failed: { printError("segue: warning: \($0)") }) { paths in
            let outcome = reloader.reload(changed: paths)
            for line in Reloading.problems(outcome, reloader) { printError("segue: \(line)") }
            if let path = reloader.configPath, let state = outcome.configState(naming: PluginFolders.display(path)) {
                printError("segue: \(state)")
            }
            let changes = outcome.changes(naming: reloader.configPath.map(PluginFolders.display) ?? "")
            guard !changes.isEmpty else { return reloader.watched }
            for line in changes { printError("segue: \(line)") }
            if outcome.registry.animator(named: name) == nil,
               let rejection = outcome.registryChanges.rejected.first {
                printError("segue: the new build was rejected (\(rejection.file): \(rejection.reason)); \(out) is left as it was")
                return reloader.watched
            }
            if outcome.config.font != job.config.font { job.typeface = TypeChoice.typeface(args, config: outcome.config) }
            job.config = outcome.config
            _ = job.render(with: outcome.registry)
            return reloader.watched
        }
        printError("segue: stopped watching.")
        return .success
    }

    /// One preview to render: the options, checked.
    struct Job {
        let name: String
        var config: SegueConfig
        let parameters: [String: ParameterValue]
        let from, to: String?
        /// What labels are drawn in (nil: the built-in 5 x 7 font).
        var typeface: Typeface?
        let size: Rect
        let fps, scale: Double
        let stills: Int
        let out, format: String
        /// A .png written as an animated PNG rather than a filmstrip.
        let animated: Bool
        /// The ffmpeg that encodes a .mp4 or .webm.
        let ffmpeg: String?
        let dither: Bool
        let json: Bool
        /// A switch, or the scene's first window opening over `from` or closing.
        var kind = TransitionKind.switch
        /// Where that window comes from or goes to (--pointer, --target).
        var anchor = TransitionAnchor.none

        /// Renders the preview with `registry`'s animators and writes it,
        /// printing what was written or why not.
        /// - Returns: whether it was written.
        func render(with registry: AnimatorRegistry) -> Bool {
            let children = config.sceneChildren
            let names = children.map(\.name)
            guard names.count >= 2 else {
                printError("segue: \(config.file): a preview needs at least two children")
                return false
            }
            var (from, to, rule) = endpoints(for: name, config: config, children: names, from: from, to: to)
            // The child shown first: the one a switch leaves, or the one beneath the window.
            var shown = from
            let window = config.sceneWindows.first
            if kind != .switch {
                guard let window else {
                    printError("segue: \(config.file): --kind \(kind.key) needs a window to show: add one to 'windows'")
                    return false
                }
                // The window opens over --from (else the first child), or closes revealing it.
                shown = self.from ?? names[0]
                (from, to) = kind.sides(presented: window.name, beneath: shown)
                rule = windowRule(for: name, kind: kind, window: window.name, config: config)
            }
            for child in kind == .switch ? [from, to] : [shown] where !names.contains(child) {
                printError("segue: \(SelectionError.unknownChild(child, available: names))")
                return false
            }
            guard from != to else {
                printError("segue: --from and --to are both '\(from)': there is no transition to show")
                return false
            }
            // The rule's parameters, then --param's on top.
            let parameters = (rule?.parameters ?? [:]).merging(self.parameters) { _, option in option }
            let source = rule.map { " (with \($0.label)'s parameters from \(config.file))" } ?? ""
            guard let descriptor = registry.animator(named: name) else {
                let hint = NameSuggestion.hint(for: name, in: registry.names)
                let known = registry.animators.map(\.name).joined(separator: ", ")
                printError("segue: no animator named '\(name)'\(hint); found: \(known.isEmpty ? "none" : known), and '\(DefaultAnimator.name)'\(registry.refusedNote)")
                return false
            }
            let resolve = { descriptor.resolveParameters($0, curves: config.curves) }
            // The rule's values that --param leaves on their own first, so that a message says where a bad value came from.
            if let rule, case .failure(let error) = resolve(rule.parameters.filter { self.parameters[$0.key] == nil }) {
                printError("segue: \(error.message) (in \(rule.label) of \(config.file))")
                return false
            }
            if case .failure(let error) = resolve(parameters) {
                printError("segue: \(error.message)")
                return false
            }

            // One rule, from -> to with ANIMATOR: the config's delegate does the rest.
            var forced = SegueConfig(file: config.file)
            forced.curves = config.curves
            let label = rule?.label ?? "preview"
            let forcedRule: SegueConfig.Rule = switch kind {
            case .switch: SegueConfig.Rule(from: from, to: to, animator: name, parameters: parameters, label: label)
            case .appear: SegueConfig.Rule(appear: window?.name, animator: name, parameters: parameters, label: label)
            case .disappear: SegueConfig.Rule(disappear: window?.name, animator: name, parameters: parameters, label: label)
            }
            forced.rules = [forcedRule]
            let delegate = ConfigDrivenDelegate(config: forced, registry: registry)
            let renderer = ViewRenderer(scale: scale, typeface: typeface)
            var preview = TransitionPreview(children: { Scene.viewControllers(for: children, size: size) }, size: size,
                                            from: shown, to: kind == .switch ? to : window?.name ?? to, renderer: renderer)
            preview.kind = kind
            preview.anchor = anchor
            if let window { preview.window = { (Scene.viewControllers(for: [window], size: size)[0], window.frame) } }
            let what = switch kind {
            case .switch: "\(from) -> \(to)"
            case .appear: "\(to) appearing over \(from)"
            case .disappear: "\(from) disappearing from over \(to)"
            }
            let progress = Progress(enabled: !json, label: "\(name) \(what)")
            // Said in the file itself, so that a picture carries how it was made.
            let settings = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let comment = "segue preview \(name) \(what)\(source)\(settings.isEmpty ? "" : ": " + settings)"
            var frames = 0, width = 0, height = 0
            let report: TransitionReport?
            let bytes: [UInt8]
            do {
                if format == "gif" {
                    var encoder: BackgroundGIFEncoder?, index = 0
                    (frames, report) = try preview.animation(fps: fps, delegate: delegate, onFrame: { progress.frame($0, of: $1) }) { frame in
                        if encoder == nil {
                            encoder = BackgroundGIFEncoder(width: frame.canvas.width, height: frame.canvas.height, dither: dither, comment: comment)
                            (width, height) = (frame.canvas.width, frame.canvas.height)
                        }
                        encoder?.add(frame.canvas, delay: gifDelay(frame: index, fps: fps), changed: frame.changed)
                        index += 1
                    }
                    bytes = encoder?.finish(lastDelay: gifLastDelay) ?? []
                } else if let ffmpeg {
                    // Constant frame rate: the GIF's holds as repeated frames (half a second first, a second last).
                    var writer: VideoWriter?, last: Canvas?, failure: VideoWriter.Failure?
                    (frames, report) = try preview.animation(fps: fps, delegate: delegate, onFrame: { progress.frame($0, of: $1) }) { frame in
                        guard failure == nil else { return }
                        do throws(VideoWriter.Failure) {
                            if writer == nil {
                                (width, height) = (frame.canvas.width, frame.canvas.height)
                                writer = try VideoWriter(ffmpeg: ffmpeg, out: out, format: format, width: width, height: height, fps: fps, comment: comment)
                                try writer?.add(frame.canvas, repeats: Int((fps / 2).rounded()))
                            } else {
                                try writer?.add(frame.canvas)
                            }
                            last = frame.canvas
                        } catch {
                            failure = error
                        }
                    }
                    do throws(VideoWriter.Failure) {
                        if failure == nil, let last { try writer?.add(last, repeats: Int(fps.rounded())) }
                    } catch {
                        failure = error
                    }
                    // ffmpeg's end is waited for whatever went before.
                    do throws(VideoWriter.Failure) {
                        try writer?.finish()
                    } catch {
                        failure = failure ?? error
                    }
                    if let failure {
                        printError("segue: \(failure.message)")
                        return false
                    }
                    bytes = []
                } else if animated {
                    var encoder: APNGEncoder?, index = 0
                    (frames, report) = try preview.animation(fps: fps, delegate: delegate, onFrame: { progress.frame($0, of: $1) }) { frame in
                        if encoder == nil {
                            encoder = APNGEncoder(width: frame.canvas.width, height: frame.canvas.height, comment: comment)
                            (width, height) = (frame.canvas.width, frame.canvas.height)
                        }
                        // The GIF's holds (half a second on the first frame, a second on the last); the frames between at exactly --fps.
                        encoder?.add(frame.canvas, delay: index == 0 ? (1, 2) : (1, UInt16(fps.rounded())), changed: index == 0 ? nil : frame.changed)
                        index += 1
                    }
                    bytes = encoder?.finish(lastDelay: (1, 1)) ?? []
                } else {
                    let stills: [TransitionPreview.Frame]
                    (stills, report) = try preview.stills(count: self.stills, delegate: delegate, onFrame: { progress.frame($0, of: $1) })
                    (frames, width, height) = (stills.count, stills.first?.canvas.width ?? 0, stills.first?.canvas.height ?? 0)
                    bytes = PNG.encode(Filmstrip.compose(stills, renderer: renderer), comment: comment)
                }
            } catch {
                printError("segue: \(error)")
                return false
            }
            progress.finish()
            guard ffmpeg != nil || FileManager.default.createFile(atPath: out, contents: Data(bytes)) else {
                printError("segue: cannot write \(out)")
                return false
            }
            if let report, report.animator != name {
                printError("segue: warning: \(report.reason)")
            }
            if let slow = report.flatMap(SlowEvaluation.warning) { printError("segue: warning: \(slow)") }
            let written = Written(
                written: out, format: format, frames: frames, width: width, height: height, bytes: ffmpeg == nil ? bytes.count : ((try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0),
                animator: report?.animator ?? name, kind: kind.key, from: from, to: to, duration: report?.duration ?? 0,
                reason: report?.reason ?? "", rule: rule?.label,
                parameters: Dictionary(uniqueKeysWithValues: (report?.parameters ?? []).map { ($0.name, JSONParameter($0.value)) }))
            printNow(json ? jsonLine(written) : "wrote \(out): \(frames) frames of \(width)x\(height), \(report?.animator ?? name) \(what)\(source)")
            return true
        }
    }

    /// What `--json` prints.
    struct Written: Encodable {
        var version = 1
        let written, format: String
        let frames, width, height, bytes: Int
        let animator: String
        /// "switch", "appear" or "disappear"; `from` and `to` are named as `segue run --json` names them.
        let kind, from, to: String
        let duration: Double
        let reason: String
        /// The config rule whose parameters were used, like "rules[2]"; nil when none.
        let rule: String?
        /// The parameters the animator ran with, resolved.
        let parameters: [String: JSONParameter]
    }

    /// GIF delays in hundredths of a second: one time step per frame (GIF's
    /// resolution is 1/100 s, and viewers treat less than 2 as 10, so at least
    /// 2), with the first frame held 0.5 s and the last 1 s.
    static func gifDelay(frame index: Int, fps: Double) -> Int { index == 0 ? 50 : max(Int((100 / fps).rounded()), 2) }
    static let gifLastDelay = 100

    /// The children a preview of `name` switches between, and the rule that
    /// names `name` for them (the config's rules, else the built-in scene's).
    static func endpoints(for name: String, config: SegueConfig, children: [String], from: String?, to: String?)
        -> (from: String, to: String, rule: SegueConfig.Rule?) {
        let scene = ruled(config)
        let rule = scene.rules.first { $0.animator == name && (from == nil || $0.from == nil || $0.from == from) && (to == nil || $0.to == nil || $0.to == to) }
        let target = to ?? rule?.to ?? (from.flatMap { f in children.first { $0 != f } } ?? children[1])
        let source = from ?? rule?.from ?? {
            // The child before the target, as a script would come to it.
            let i = children.firstIndex(of: target) ?? 0
            return i > 0 ? children[i - 1] : children[1]
        }()
        return (source, target, rule)
    }

    /// The config whose rules a preview reads: `config`, or the built-in
    /// scene's when it has no rules and no children of its own.
    static func ruled(_ config: SegueConfig) -> SegueConfig {
        config.rules.isEmpty && config.children.isEmpty ? SegueConfig.builtinScene : config
    }

    /// The rule that names `name` for the `kind` (an appearance or a
    /// disappearance) of the window called `window`: the most specific of
    /// the config's rules that do (else the built-in scene's), as a config
    /// picks among its rules.
    static func windowRule(for name: String, kind: TransitionKind, window: String, config: SegueConfig) -> SegueConfig.Rule? {
        let scene = ruled(config)
        return ConfigDrivenDelegate.rule(for: .presenting(kind, view: window), among: scene.rules, naming: name)
    }

    static func parseSize(_ text: String, _ args: Arguments) throws(UsageError) -> Rect {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), (1...4096).contains(w), (1...4096).contains(h) else {
            throw args.usage("--size \(text): expected WIDTHxHEIGHT in points, each from 1 to 4096, like 390x844")
        }
        return Rect(x: 0, y: 0, width: w, height: h)
    }
}

/// A one-line progress report on the terminal, "frame N of TOTAL"; silent
/// when stderr is not a TTY.
final class Progress {
    let enabled: Bool
    var label: String
    private var shown = false

    init(enabled: Bool, label: String) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
        self.label = label
    }

    /// Shows "frame N of TOTAL" (TOTAL: the number expected, when known).
    func frame(_ index: Int, of total: Int? = nil) {
        guard enabled else { return }
        let of = total.map { " of \($0)" } ?? ""
        FileHandle.standardError.write(Data("\r\u{1B}[Krendering \(label): frame \(index + 1)\(of)".utf8))
        shown = true
    }

    func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
