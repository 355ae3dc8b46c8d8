import Foundation
import HostConfig
import HostContainer
import PluginHost
import PluginRuntime

/// Where the tool looks for plugins: the standard search path (see
/// ``PluginSearchPath``), with `--plugins` folders first and the config's
/// `plugins` after `SEGUE_PLUGIN_PATH`. The current folder is never searched
/// unless named: running segue inside a cloned repository must not run that
/// repository's code.
enum PluginFolders {
    static func resolve(commandLine: [String], config: SegueConfig?) -> [PluginFolder] {
        PluginSearchPath.standard(given: commandLine.map(absolute), config: config?.plugins ?? [])
    }

    /// The search order, for every command's help.
    static let searchOrderHelp = """
    Plugin folders are searched in this order, earlier ones winning a name
    clash: --plugins DIR (in the order given), SEGUE_PLUGIN_PATH (colon-
    separated), the config's "plugins", the user folder
    $XDG_DATA_HOME/segue/plugins (~/.local/share/segue/plugins), the
    installation's PREFIX/lib/segue/plugins, and the plugins built beside the
    segue executable. SEGUE_PLUGIN_SYSTEM_PATH, when set, replaces the last
    two (set it empty to search only your own folders).
    """

    /// The registry for a command's `--plugins`, `--isolation` and
    /// `--allow-insecure-plugins` and its config: the standard cache
    /// (`SEGUE_REGISTRY_CACHE`), permissions checked unless
    /// `--allow-insecure-plugins` or `SEGUE_ALLOW_INSECURE_PLUGINS=1`.
    /// - Parameter playing: the registry is for playing `config` now: a worker
    ///   process is started while the folders are read if it names a plugin animator.
    static func registry(_ args: Arguments, config: SegueConfig?, playing: Bool = false) throws(UsageError) -> AnimatorRegistry {
        var options = RegistryOptions()
        options.prestartsWorker = playing && (config.map(namesPluginAnimator) ?? false)
        options.cache = RegistryCache.standard()
        options.checksPermissions = checksPermissions(args)
        // The parser checked the choice.
        let isolation = args.single("--isolation").flatMap(PluginIsolation.init(rawValue:)) ?? config?.isolation ?? .process
        options.worker.sandbox = try sandbox(args, config: config)
        let registry = AnimatorRegistry(searchPath: resolve(commandLine: args.values("--plugins"), config: config),
                                        isolation: isolation, options: options)
        kept.append(registry)
        return registry
    }

    /// Whether plugin files others could change are refused: unless
    /// `--allow-insecure-plugins` or `SEGUE_ALLOW_INSECURE_PLUGINS=1`.
    static func checksPermissions(_ args: Arguments) -> Bool {
        RegistryOptions.checksPermissions(allowingInsecure: args.has("--allow-insecure-plugins"))
    }

    /// The sandbox of `--sandbox`, `--plugin-memory` and `--plugin-threads`,
    /// in the order every host follows (``SandboxPolicy/chosen(mode:memoryLimit:threadLimit:config:environment:)``).
    static func sandbox(_ args: Arguments, config: SegueConfig?) throws(UsageError) -> SandboxPolicy {
        let memory = try args.single("--plugin-memory").map { value throws(UsageError) in
            guard let bytes = SandboxPolicy.memory(value), bytes >= SandboxPolicy.minimumMemoryLimit else {
                throw args.usage("--plugin-memory \(value): expected a size of at least \(SandboxPolicy.formatted(SandboxPolicy.minimumMemoryLimit)), like 512MiB or 2GiB")
            }
            return bytes
        }
        do {
            // The parser checked --sandbox's choice and --plugin-threads's range.
            return try SandboxPolicy.chosen(mode: args.single("--sandbox").flatMap(SandboxPolicy.Mode.init(rawValue:)),
                                            memoryLimit: memory, threadLimit: args.integer("--plugin-threads"), config: config)
        } catch {
            throw args.usage(error.message)
        }
    }

    /// Every registry a command made, kept until the process exits: tearing
    /// down thousands of animators at exit would only cost time.
    nonisolated(unsafe) private static var kept: [AnimatorRegistry] = []

    /// Whether `config` names an animator other than the built-in default.
    private static func namesPluginAnimator(_ config: SegueConfig) -> Bool {
        config.rules.contains { $0.animator != "default" } || config.defaultAnimator.map { $0 != "default" } ?? false
    }

    /// `path` relative to the current folder when it lies inside it, for people.
    static func display(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(cwd) ? String(path.dropFirst(cwd.count)) : path
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/"))
            .standardizedFileURL.path
    }

}
