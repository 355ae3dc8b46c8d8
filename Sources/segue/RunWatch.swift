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
            let signal = watcher.follow(interruptedBy: signals, failed: { printError("segue: warning: \($0)") }) { paths in
                let outcome = reloader.reload(changed: paths)
                for line in Reloading.problems(outcome, reloader) { printError("segue: \(line)") }
                if let path = reloader.configPath, let state = outcome.configState(naming: PluginFolders.display(path)) {
                    // A sentence for people: "Keeping ...", but a file's name as it is.
                    status((outcome.configErrors > 0 ? state.prefix(1).uppercased() + state.dropFirst() : state) + ".")
                }
                let notes = outcome.changes(naming: reloader.configPath.map(PluginFolders.display) ?? "")
                if !notes.isEmpty {
                    reloads += 1
                    if json {
                        printNow(jsonLine(ReloadLine(reload: reloads, changes: notes)))
                    } else {
                        printNow("Reload \(reloads): " + notes.joined(separator: "; "))
                    }
                    _ = RunCommand.play(outcome.config, outcome.registry, json: json, recorder: recorder)
                }
                return reloader.watched
            } ?? 0
            status("Stopped watching (\(signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)")).")
            return .success
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
