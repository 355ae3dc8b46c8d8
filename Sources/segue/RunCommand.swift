import Foundation
import HostContainer

/// `segue run`: the main job. Builds a container from a config (or the
/// built-in scene), plays its script, and reports every transition.
enum RunCommand {
    static let help = """
    USAGE: segue run [--config FILE] [--plugins DIR]... [--json] [--print-config]

    Builds a container from a config file, plays its script on a virtual clock
    at 60 frames per second, and prints one line per transition: from -> to,
    the animator and where it came from, why it was chosen (or why the built-in
    default ran instead), the duration, the frames evaluated, whether it
    completed or was cancelled, and the child shown at its end. Script steps
    may be interactive: see the README's "Interactive transitions".

    Without --config, plays the built-in scene: seed-000's five children, a
    grid and a detail child sharing an image, and rules that exercise
    SpringSlide, CurlUp, ImageZoom and the built-in default.

    OPTIONS:
      --config FILE    The config file (JSON). See the README for its keys.
      --plugins DIR    A plugin folder; repeat for more. Searched before the
                       config's folders. With neither, ./plugins and the
                       folder of the segue executable are searched.
      --json           One JSON object per transition per line, keys: from,
                       to, animator, source ("plugin" or "builtin"), file,
                       reason, duration, frames, completed.
      --print-config   Print the built-in scene's config and exit.
      --help           Show this help.
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try Arguments(arguments, flags: ["--json", "--help", "--print-config"], options: ["--config", "--plugins"])
        if args.has("--help") {
            print(help)
            return .success
        }
        if args.has("--print-config") {
            print(SegueConfig.builtinSceneJSON)
            return .success
        }
        let config: SegueConfig
        do {
            config = try args.single("--config").map { path throws(ConfigError) in try SegueConfig.load(path: path) }
                ?? SegueConfig.builtinScene
        } catch {
            printError("segue: \(error)")
            return .failure
        }
        let json = args.has("--json")
        let registry = AnimatorRegistry(folders: PluginFolders.resolve(commandLine: args.values("--plugins"), config: config))
        for warning in registry.warnings { printError("segue: warning: \(warning)") }
        for rejection in registry.rejections { printError("segue: skipped \(rejection.file): \(rejection.reason)") }
        if !json {
            let names = registry.animators.map(\.name).joined(separator: ", ")
            print("Playing \(config.file) with \(registry.animators.count) plugin animator(s)\(names.isEmpty ? "" : ": \(names)")")
        }
        do {
            try ScriptPlayer(config: config, registry: registry).play { report in
                print(json ? jsonLine(ReportLine(report)) : describe(report))
            }
        } catch {
            printError("segue: \(config.file): $.script: \(error)")
            return .failure
        }
        return .success
    }

    static func describe(_ r: TransitionReport) -> String {
        let origin = r.source.file.map { "plugin \(PluginFolders.display($0))" } ?? r.source.kind
        let outcome = (r.interactive ? "interactive, " : "") + (r.completed ? "completed" : "cancelled, \(r.shown) stays shown")
        return "\(r.from) -> \(r.to): \(r.animator) (\(origin)), \(String(format: "%.3f", r.duration)) s, \(r.frames) frames, \(outcome)\n    why: \(r.reason)"
    }

    /// A report as one JSON line.
    struct ReportLine: Encodable {
        let from, to, animator, source, reason: String
        let file: String?
        let duration: Double
        let frames: Int
        let completed: Bool
        let shown: String
        let interactive: Bool

        init(_ r: TransitionReport) {
            (from, to, animator, source, reason, file) = (r.from, r.to, r.animator, r.source.kind, r.reason, r.source.file)
            (duration, frames, completed, shown, interactive) = (r.duration, r.frames, r.completed, r.shown, r.interactive)
        }
    }
}
