import Foundation
import HostConfig
import HostContainer
import PluginHost

extension RunCommand {
    /// `segue run --watch`: after the first play, reloads and plays again on
    /// every change to the plugin folders or the config, until SIGINT or SIGTERM.
    struct Watch {
        let args: Arguments
        let config: SegueConfig
        let registry: AnimatorRegistry
        let json: Bool
        let recorder: PreviewRecorder?

        consuming func run(signals: Int32) -> ExitCode {
            let reloader = Reloading.reloader(args, config: config, registry: registry)
            let watcher: FileWatcher
            do {
                watcher = try FileWatcher(folders: reloader.watched.folders, files: reloader.watched.files)
            } catch {
                printError("segue: \(error)")
                return .failure
            }
            status(Reloading.watching(args, reloader))
            var reloads = 0
            while true {
                let paths: Set<String>
                switch watcher.next(settle: 0.1, interruptedBy: signals) {
                case .interrupted(let signal):
                    status("Stopped watching (\(signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)")).")
                    return .success
                case .changed(let changed):
                    paths = changed
                }
                let outcome = reloader.reload(changed: paths)
                do {
                    try watcher.watch(folders: reloader.watched.folders, files: reloader.watched.files)
                } catch {
                    printError("segue: warning: \(error)")
                }
                for line in Reloading.problems(outcome, reloader) { printError("segue: \(line)") }
                if outcome.configErrors > 0, let path = reloader.configPath {
                    status("Keeping the last good config until \(PluginFolders.display(path)) is fixed.")
                }
                if outcome.configRecovered, let path = reloader.configPath {
                    status("\(PluginFolders.display(path)) is good again.")
                }
                let notes = outcome.changes(naming: reloader.configPath.map(PluginFolders.display) ?? "")
                guard !notes.isEmpty else { continue }
                reloads += 1
                if json {
                    printNow(jsonLine(ReloadLine(reload: reloads, changes: notes)))
                } else {
                    printNow("Reload \(reloads): " + notes.joined(separator: "; "))
                }
                _ = RunCommand.play(outcome.config, outcome.registry, json: json, recorder: recorder)
            }
        }

        /// A line about the watch itself: on standard output for people, on
        /// standard error with --json (whose output is reports and reloads only).
        func status(_ text: String) {
            if json { printError("segue: \(text)") } else { printNow(text) }
        }
    }

    /// A reload, as `--json --watch` prints it between plays.
    struct ReloadLine: Encodable {
        var version = 1
        let reload: Int
        let changes: [String]
    }
}

/// How the tool's watching commands (`run --watch`, `show`, `preview
/// --watch`) reload, and say so, alike: one ``ConfigReloader`` over the
/// command's `--config`, `--plugins` and `--strict`.
enum Reloading {
    /// The reloader of a command's config and plugin folders. A config read
    /// from standard input (`--config -`) is read once; only the folders are watched.
    static func reloader(_ args: Arguments, config: SegueConfig, registry: AnimatorRegistry) -> ConfigReloader {
        let path = args.single("--config").flatMap { $0 == "-" ? nil : PluginFolders.absolute($0) }
        let given = args.values("--plugins")
        return ConfigReloader(config: config, configPath: path, registry: registry, strict: args.has("--strict")) {
            PluginFolders.resolve(commandLine: given, config: $0)
        }
    }

    /// What is watched, for the line a watching command starts with.
    static func watching(_ args: Arguments, _ reloader: ConfigReloader) -> String {
        let folders = "\(reloader.watched.folders.count) plugin folder(s)"
        let config = reloader.configPath.map { " and \(PluginFolders.display($0))" }
            ?? (args.single("--config") == "-" ? " (the config came from standard input: it is read once)" : "")
        return "Watching \(folders)\(config); SIGINT (Ctrl-C) stops."
    }

    /// The lines that say why a config saved is not applied (with --strict,
    /// every problem found), ending with --strict's verdict.
    static func problems(_ outcome: ConfigReloader.Outcome, _ reloader: ConfigReloader) -> [String] {
        guard outcome.configErrors > 0 || !outcome.configProblems.isEmpty else { return [] }
        guard reloader.isStrict, outcome.configErrors > 0, let path = reloader.configPath else { return outcome.configProblems }
        let errors = outcome.configErrors
        return outcome.configProblems + ["--strict: not applying \(PluginFolders.display(path)): \(errors) error\(errors == 1 ? "" : "s")"]
    }
}
