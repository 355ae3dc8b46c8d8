import Foundation
import HostConfig
import HostContainer
import PluginHost

extension RunCommand {
    /// `segue run --watch`: after the first play, reloads and plays again on
    /// every change to the plugin folders or the config, until SIGINT or SIGTERM.
    struct Watch {
        let args: Arguments
        var config: SegueConfig
        var registry: AnimatorRegistry
        let json: Bool
        let recorder: PreviewRecorder?

        /// The config file watched, absolute; nil for the built-in scene.
        var configPath: String? { args.single("--config").map(PluginFolders.absolute) }

        consuming func run(signals: Int32) -> ExitCode {
            let watcher: FileWatcher
            do {
                watcher = try FileWatcher(folders: registry.folders, files: configPath.map { [$0] } ?? [])
            } catch {
                printError("segue: \(error)")
                return .failure
            }
            status("Watching \(registry.folders.count) plugin folder(s)\(configPath.map { " and \(PluginFolders.display($0))" } ?? ""); SIGINT (Ctrl-C) stops.")
            var reloads = 0
            var configBroken = false
            while true {
                let paths: Set<String>
                switch watcher.next(settle: 0.1, interruptedBy: signals) {
                case .interrupted(let signal):
                    status("Stopped watching (\(signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)")).")
                    return .success
                case .changed(let changed):
                    paths = changed
                }
                var notes: [String] = []
                if let configPath, paths.contains(configPath) {
                    if let fresh = load(configPath) {
                        if configBroken { status("\(PluginFolders.display(configPath)) is good again.") }
                        configBroken = false
                        if fresh != config {
                            config = fresh
                            notes.append("config \(PluginFolders.display(configPath)) changed")
                        }
                    } else {
                        configBroken = true
                        status("Keeping the last good config until \(PluginFolders.display(configPath)) is fixed.")
                    }
                }
                let (next, changes) = registry.reloaded(
                    searchPath: PluginFolders.resolve(commandLine: args.values("--plugins"), config: config))
                registry = next
                do {
                    try watcher.watch(folders: registry.folders, files: configPath.map { [$0] } ?? [])
                } catch {
                    printError("segue: warning: \(error)")
                }
                notes += changes.descriptions
                guard !notes.isEmpty else { continue }
                reloads += 1
                if json {
                    printNow(jsonLine(ReloadLine(reload: reloads, changes: notes)))
                } else {
                    printNow("Reload \(reloads): " + notes.joined(separator: "; "))
                }
                _ = RunCommand.play(config, registry, json: json, recorder: recorder)
            }
        }

        /// The config at `path` as saved now, or nil (having said why) when it
        /// cannot be read, or, with --strict, when `segue check` finds an
        /// error in it: the checks of the first play hold for every reload.
        func load(_ path: String) -> SegueConfig? {
            guard args.has("--strict") else {
                do {
                    return try SegueConfig.load(path: path)
                } catch {
                    printError("segue: \(error)")
                    return nil
                }
            }
            let (fresh, problems) = ConfigCheck.check(path: path) { fresh in
                registry.reloaded(searchPath: PluginFolders.resolve(commandLine: args.values("--plugins"), config: fresh)).registry
            }
            for problem in problems { printError("segue: \(problem)") }
            let errors = problems.filter { $0.severity == .error }.count
            guard errors == 0 else {
                printError("segue: --strict: not applying \(PluginFolders.display(path)): \(errors) error\(errors == 1 ? "" : "s")")
                return nil
            }
            return fresh
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
