import Foundation
import HostConfig
import HostContainer
import PluginHost
import PluginRuntime
import Renderer
import Timing

/// `segue run`: the main job. Builds a container from a config (or the
/// built-in scene), plays its script, and reports every transition.
enum RunCommand {
    static let about = """
    Builds a container from a config file, plays its script on a virtual clock
    at 60 frames per second, and prints one line per transition: from -> to,
    the animator and where it came from, why it was chosen (or why the built-in
    default ran instead), the duration, the frames evaluated, whether it
    completed or was cancelled, and the child shown at its end. Script steps
    may be interactive: see "Interactive transitions" in docs/embedding-swift.md.

    Without --config, plays the built-in scene: five sender children, a
    grid and a detail child sharing an image, and rules that exercise
    SpringSlide, CurlUp, ImageZoom and the built-in default.
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.run) else { return .success }
        try args.refuse("--print-config", with: Commands.run.options.map(\.name).filter { $0 != "--print-config" && $0 != "--help" })
        try args.require("--preview", for: "--scale")
        if args.has("--print-config") {
            print(SegueConfig.builtinSceneJSON)
            return .success
        }
        let watching = args.has("--watch")
        // SIGINT and SIGTERM end a watch cleanly, between reloads, instead of killing it.
        let signals = watching ? FileWatcher.signalPipe([SIGINT, SIGTERM]) : -1
        let json = args.has("--json")
        let config: SegueConfig, registry: AnimatorRegistry
        if args.has("--strict") {
            let checked = try CheckCommand.check(args)
            for problem in checked.problems { printError("segue: \(problem)") }
            let errors = checked.problems.filter { $0.severity == .error }.count
            guard errors == 0, let checkedConfig = checked.config, let checkedRegistry = checked.registry else {
                printError("segue: --strict: not playing: \(errors) error\(errors == 1 ? "" : "s") (segue check says the same)")
                return .failure
            }
            (config, registry) = (checkedConfig, checkedRegistry)
        } else {
            guard let loaded = try args.config() else { return .failure }
            (config, registry) = (loaded, try PluginFolders.registry(args, config: loaded, playing: true))
        }
        for warning in registry.warnings { printError("segue: warning: \(warning)") }
        for rejection in registry.rejections { printError("segue: skipped \(rejection.file): \(rejection.reason)") }
        if registry.animators.isEmpty {
            let searched = registry.folders.map(PluginFolders.display).joined(separator: ", ")
            printError("segue: warning: no plugin animators found (searched \(searched.isEmpty ? "no folder" : searched); 'segue list' says more): rules naming one fall back to the built-in default")
        }
        let recorder = try args.single("--preview").map { folder throws(UsageError) in
            PreviewRecorder(folder: folder, renderer: ViewRenderer(scale: args.number("--scale")!, typeface: TypeChoice.typeface(args, config: config)),
                            progress: !json)
        }
        if let recorder {
            do {
                try FileManager.default.createDirectory(atPath: recorder.folder, withIntermediateDirectories: true)
            } catch {
                printError("segue: cannot make the preview folder \(recorder.folder): \(error.localizedDescription)")
                return .failure
            }
        }
        let played = play(config, registry, json: json, recorder: recorder)
        guard watching else { return played ? .success : .failure }
        let watch = Watch(args: args, config: config, registry: registry, json: json, recorder: recorder)
        return watch.run(signals: signals)
    }

    /// Plays `config`'s script with `registry`'s animators, printing each report as it ends.
    /// - Returns: false when the script cannot be played (it names a child that does not exist).
    static func play(_ config: SegueConfig, _ registry: AnimatorRegistry, json: Bool, recorder: PreviewRecorder?) -> Bool {
        if !json {
            // A name list a reader can take in; segue list shows them all.
            let shown = 12, count = registry.animators.count
            var names = registry.animators.prefix(shown).map(\.name).joined(separator: ", ")
            if count > shown { names += " and \(count - shown) more ('segue list' shows them all)" }
            printNow("Playing \(config.file) with \(count) plugin animator(s)\(names.isEmpty ? "" : ": \(names)")")
        }
        var player = ScriptPlayer(config: config, registry: registry)
        if let recorder {
            recorder.fps = player.frameRate
            recorder.transitions = player.script.count
            player.onFrame = recorder.record
        }
        do {
            try player.play { report in
                var line = ReportLine(report)
                line.preview = recorder?.write(report)
                printNow(json ? jsonLine(line) : describe(report) + (line.preview.map { "\n    preview: \($0)" } ?? ""))
                if let slow = SlowEvaluation.warning(report) { printError("segue: warning: \(slow)") }
            }
        } catch {
            printError("segue: \(config.file): $.script: \(error)")
            return false
        }
        return true
    }

    /// A report for people: three lines at most, whatever the names hold
    /// (control characters from a config or a plugin are escaped).
    static func describe(_ r: TransitionReport) -> String {
        let e = PluginText.escaped
        let origin = r.source.file.map { "plugin \(e(PluginFolders.display($0)))" } ?? r.source.label
        let outcome = (r.interactive ? "interactive, " : "") + (r.completed ? "completed" : "cancelled, \(e(r.shown)) stays shown")
        let parameters = r.parameters.isEmpty ? ""
            : "\n    parameters: " + e(r.parameters.map { "\($0.name) = \($0.value)" }.joined(separator: ", "))
        // A fallback (the default ran instead of the animator a rule named) stands out.
        let animator = r.fellBack ? Style.warn(e(r.animator)) : e(r.animator)
        let what = switch r.kind {
        case .switch: "\(e(r.from)) -> \(e(r.to))"
        case .appear: "\(e(r.to)) appears over \(e(r.from))"
        case .disappear: "\(e(r.from)) disappears from over \(e(r.to))"
        }
        return "\(what): \(animator) (\(origin)), \(String(format: "%.3f", r.duration)) s, \(r.frames) frames, \(outcome)\n    why: \(e(r.reason))\(parameters)"
    }

    /// A report as one JSON line.
    struct ReportLine: Encodable {
        let from, to, animator, source, reason: String
        /// "switch", "appear" or "disappear".
        let kind: String
        let file: String?
        let duration: Double
        let frames: Int
        let completed: Bool
        let shown: String
        let interactive: Bool
        let fellBack: Bool
        let parameters: [String: JSONParameter]
        var preview: String?
        /// How long the animator's evaluations took (run warns when too long).
        let evaluation: SlowEvaluation.JSON?
        var version = 1

        init(_ r: TransitionReport) {
            (from, to, animator, source, reason, file) = (r.from, r.to, r.animator, r.source.key, r.reason, r.source.file)
            kind = r.kind.key
            (duration, frames, completed, shown, interactive) = (r.duration, r.frames, r.completed, r.shown, r.interactive)
            fellBack = r.fellBack
            parameters = Dictionary(r.parameters.map { ($0.name, JSONParameter($0.value)) }, uniquingKeysWith: { first, _ in first })
            evaluation = r.evaluation.map(SlowEvaluation.JSON.init)
        }
    }
}

/// A parameter value in JSON: a number, a boolean or a choice's name.
struct JSONParameter: Encodable {
    let value: ParameterValue
    init(_ value: ParameterValue) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .number(let n): try container.encode(n)
        case .bool(let b): try container.encode(b)
        case .string(let s): try container.encode(s)
        }
    }
}

/// Renders the frames of `segue run --preview` and writes one GIF per
/// transition, encoding each frame as it is drawn.
final class PreviewRecorder {
    let folder: String
    let renderer: ViewRenderer
    var fps: Double = 60
    let progress: Progress
    private var encoder: BackgroundGIFEncoder?
    private var frames = 0
    private var written = 0
    /// Draws each frame, only what changed since the one before.
    private let drawing: FrameRenderer

    init(folder: String, renderer: ViewRenderer, progress: Bool) {
        (self.folder, self.renderer) = (folder, renderer)
        drawing = FrameRenderer(renderer: renderer)
        self.progress = Progress(enabled: progress, label: "previews")
    }

    /// How many transitions the script plays, for "transition K of N".
    var transitions = 0

    func record(_ container: ContainerViewController) {
        let changed = drawing.render(container.view)
        let canvas = drawing.canvas
        if encoder == nil { encoder = BackgroundGIFEncoder(width: canvas.width, height: canvas.height) }
        // A new file's first frame is read whole whatever the damage: it has no frame before it.
        encoder?.add(canvas, delay: PreviewCommand.gifDelay(frame: frames, fps: fps), changed: changed)
        frames += 1
        progress.label = "previews: transition \(written + 1) of \(max(transitions, written + 1))"
        let expected = container.transitionDuration.map { Int(($0 * fps).rounded(.up)) + 1 }
        progress.frame(frames - 1, of: expected.map { max($0, frames) })
    }

    /// Writes the frames since the last report; returns the file's path, or nil when it cannot be written.
    func write(_ report: TransitionReport) -> String? {
        defer { (encoder, frames) = (nil, 0) }
        progress.finish()
        written += 1
        let number = written < 10 ? "0\(written)" : "\(written)"
        let path = (folder as NSString).appendingPathComponent("\(number)-\(report.from)-\(report.to)-\(report.animator).gif")
        let bytes = encoder?.finish(lastDelay: PreviewCommand.gifLastDelay) ?? []
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            printError("segue: cannot write \(path)")
            return nil
        }
        return path
    }
}
