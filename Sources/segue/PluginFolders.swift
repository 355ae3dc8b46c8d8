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

    /// How a command hosts plugins (``PluginHosting``): `--plugins` folders
    /// first, `--isolation`, `--sandbox`, `--plugin-threads` and
    /// `--allow-insecure-plugins` (`--plugin-memory`, which can be wrong, is
    /// read by ``registry(_:config:playing:)``); what a command does not say
    /// is the config's, the environment's or the default.
    /// - Parameter playing: the registry is for playing `config` now: a worker
    ///   process is started while the folders are read if it names a plugin animator.
    static func hosting(_ args: Arguments, config: SegueConfig?, playing: Bool = false) -> PluginHosting {
        var hosting = PluginHosting(folders: args.values("--plugins").map(absolute))
        hosting.prestartsWorker = playing && (config.map(namesPluginAnimator) ?? false)
        hosting.allowsInsecurePlugins = args.has("--allow-insecure-plugins")
        // The parser checked the choices and --plugin-threads's range.
        hosting.isolation = args.single("--isolation").flatMap(PluginIsolation.init(rawValue:))
        hosting.sandbox = args.single("--sandbox").flatMap(SandboxPolicy.Mode.init(rawValue:))
        hosting.threadLimit = args.integer("--plugin-threads")
        return hosting
    }

    /// The registry of a command's ``hosting(_:config:playing:)`` for
    /// `config`, with `--plugin-memory`'s limit.
    static func registry(_ args: Arguments, config: SegueConfig?, playing: Bool = false) throws(UsageError) -> AnimatorRegistry {
        var hosting = hosting(args, config: config, playing: playing)
        hosting.memoryLimit = try args.single("--plugin-memory").map { value throws(UsageError) in
            guard let bytes = SandboxPolicy.memory(value), bytes >= SandboxPolicy.minimumMemoryLimit else {
                throw args.usage("--plugin-memory \(value): expected a size of at least \(SandboxPolicy.formatted(SandboxPolicy.minimumMemoryLimit)), like 512MiB or 2GiB")
            }
            return bytes
        }
        let registry: AnimatorRegistry
        do {
            registry = try hosting.registry(for: config)
        } catch {
            throw args.usage(error.message)
        }
        kept.append(registry)
        return registry
    }

    /// Whether plugin files others could change are refused: unless
    /// `--allow-insecure-plugins` or `SEGUE_ALLOW_INSECURE_PLUGINS=1`.
    static func checksPermissions(_ args: Arguments) -> Bool {
        RegistryOptions.checksPermissions(allowingInsecure: args.has("--allow-insecure-plugins"))
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
