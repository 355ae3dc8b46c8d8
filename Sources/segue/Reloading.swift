import HostConfig
import PluginHost

/// How the tool's watching commands (`run --watch`, `show`, `preview
/// --watch`) reload, and say so, alike: one ``ConfigReloader`` over the
/// command's `--config`, `--plugins` and `--strict`.
enum Reloading {
    /// The reloader of a command's config and plugin folders. A config read
    /// from standard input (`--config -`) is read once; only the folders are
    /// watched. A command that draws (`drawing`) also watches the pictures the
    /// config names, and holds back a config whose pictures cannot be decoded.
    static func reloader(_ args: Arguments, config: SegueConfig, registry: AnimatorRegistry, drawing: Bool = false,
                         adjusting: @escaping (SegueConfig) -> SegueConfig = { $0 }) -> ConfigReloader {
        let path = args.single("--config").flatMap { $0 == "-" ? nil : PluginFolders.absolute($0) }
        let check: ((SegueConfig) -> [ConfigError])? = drawing ? { PictureFiles.problems(in: $0) } : nil
        // The reloaded registry keeps `registry`'s options (its limits among them); only the search path is made again.
        return PluginFolders.hosting(args, config: config).reloader(config: config, configPath: path, registry: registry,
                                                                    strict: args.has("--strict"), contentCheck: check,
                                                                    adjusting: adjusting)
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
