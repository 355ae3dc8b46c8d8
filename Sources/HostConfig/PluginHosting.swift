import Foundation
import PluginHost
import PluginRuntime

/// How a host finds, checks and runs plugins, assembled one way for `segue`,
/// libsegue and a Swift program: the search path (the folders given, then
/// `SEGUE_PLUGIN_PATH`, the config's, the user's, the installation's), the
/// registry cache (`SEGUE_REGISTRY_CACHE`), the permission check, where
/// plugin code runs and the sandbox that confines it. Each choice is the
/// program's when it sets one, else the config's, else the environment's,
/// else the default; the reloader and its watch search the same way.
///
/// ```swift
/// let hosting = PluginHosting(folders: [myPlugins])
/// let registry = try hosting.registry(for: config)
/// let reloader = hosting.reloader(config: config, configPath: path, registry: registry)
/// ```
public struct PluginHosting: Sendable {
    /// Folders searched first, in order (a command line's `--plugins`, a
    /// program's own folder), absolute.
    public var folders: [String]
    /// Search only `folders` and the config's `plugins`, not the standard
    /// search path (a program that ships its animators).
    public var onlyGivenFolders = false
    /// Where plugin code runs; nil for the config's choice, else in workers.
    public var isolation: PluginIsolation?
    /// The sandbox asked for; nil for the environment's (`SEGUE_SANDBOX`),
    /// else the config's, else strict.
    public var sandbox: SandboxPolicy.Mode?
    /// A worker's memory and thread limits; nil for the config's `limits`, else the standard ones.
    public var memoryLimit: UInt64?
    public var threadLimit: Int?
    /// The memory all workers may use together; nil for the config's `"limits": {"totalMemory": ...}`, else 4 GiB.
    public var totalMemory: UInt64?
    /// Load plugin files others could change (`SEGUE_ALLOW_INSECURE_PLUGINS=1` does too).
    public var allowsInsecurePlugins = false
    /// The host's own file (an executable, or libsegue), and the PREFIX
    /// subfolders it may be installed in: they place the installation's
    /// plugin folder and the plugins built beside it.
    public var executable = PluginSearchPath.currentExecutable()
    public var installedIn: Set<String> = ["bin"]
    /// The `segue-worker` executable; nil to find it beside `executable`.
    public var workerPath: String?
    /// Where what plugins print in their workers goes; nil for standard error.
    public var output: PluginOutput?
    /// Seconds a caller spins for a worker's answer before it sleeps; nil for the standard (``WorkerSettings/spin``).
    public var workerSpin: Double?
    /// Start a worker while the folders are read (see ``RegistryOptions/prestartsWorker``).
    public var prestartsWorker = false
    /// The environment the choices read.
    public var environment = ProcessInfo.processInfo.environment

    /// Hosting with `folders` searched first and every other choice left to
    /// the config, the environment and the defaults.
    public init(folders: [String] = []) { self.folders = folders }

    /// The folders searched for `config`, in order.
    public func searchPath(for config: SegueConfig?) -> [PluginFolder] {
        let configured = config?.plugins ?? []
        if onlyGivenFolders {
            return folders.map { PluginFolder($0, origin: .given) } + configured.map { PluginFolder($0, origin: .config) }
        }
        return PluginSearchPath.standard(given: folders, config: configured, executable: executable, installedIn: installedIn,
                                         environment: environment)
    }

    /// The registry options for `config`: the standard cache, the permission
    /// check, the worker and its sandbox.
    /// - Throws: when `SEGUE_SANDBOX` is neither strict nor off.
    public func options(for config: SegueConfig?) throws(SandboxChoiceError) -> RegistryOptions {
        var options = RegistryOptions()
        options.prestartsWorker = prestartsWorker
        options.cache = RegistryCache.standard(environment: environment)
        options.checksPermissions = RegistryOptions.checksPermissions(allowingInsecure: allowsInsecurePlugins, environment: environment)
        options.worker.executable = workerPath ?? WorkerSettings.locateWorker(beside: executable)
        if let output { options.worker.output = output }
        if let workerSpin { options.worker.spin = workerSpin }
        options.worker.sandbox = try SandboxPolicy.chosen(mode: sandbox, memoryLimit: memoryLimit, threadLimit: threadLimit,
                                                          totalMemory: totalMemory, config: config, environment: environment)
        return options
    }

    /// The animators for `config`, found, checked and examined as this hosting says.
    /// - Throws: when `SEGUE_SANDBOX` is neither strict nor off.
    public func registry(for config: SegueConfig?) throws(SandboxChoiceError) -> AnimatorRegistry {
        AnimatorRegistry(searchPath: searchPath(for: config), isolation: isolation ?? config?.isolation ?? .process,
                         options: try options(for: config))
    }

    /// The reloader of `config` (read from `configPath`) and `registry`,
    /// searching as this hosting does (see ``ConfigReloader``).
    public func reloader(config: SegueConfig, configPath: String?, registry: AnimatorRegistry, strict: Bool = false,
                         forViewsOfAProgram: Bool = false, optional: Bool = false, missing: Bool = false,
                         contentCheck: ((SegueConfig) -> [ConfigError])? = nil,
                         adjusting: @escaping (SegueConfig) -> SegueConfig = { $0 }) -> ConfigReloader {
        ConfigReloader(config: config, configPath: configPath, registry: registry, strict: strict, forViewsOfAProgram: forViewsOfAProgram,
                       optional: optional, missing: missing, contentCheck: contentCheck, adjusting: adjusting) { [self] in searchPath(for: $0) }
    }

    /// The standard config a desktop's hosts follow: `$XDG_CONFIG_HOME/segue/segue.json`,
    /// else `~/.config/segue/segue.json`; nil with neither variable set.
    public static func standardConfigPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let dir = environment["XDG_CONFIG_HOME"], dir.hasPrefix("/") { return dir + "/segue/segue.json" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/segue/segue.json"
    }
}
