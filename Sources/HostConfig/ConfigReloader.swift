import Foundation
import PluginHost

/// A host's config and animators, reloaded when their files change: the one
/// reload path of `segue run --watch`, `segue show`, `segue preview --watch`
/// and libsegue. It keeps the last good config while the file is broken, says
/// what changed, and lists what to watch.
///
/// It does not watch by itself: pair it with a ``FileWatcher`` (on whatever
/// thread suits the host) and call ``reload(changed:)`` with each burst.
/// Not thread-safe: use it from one thread at a time.
public final class ConfigReloader {
    /// What one reload found.
    public struct Outcome {
        /// The config in force: the new one, or the last good one when the file is broken.
        public var config: SegueConfig
        /// The animators now.
        public var registry: AnimatorRegistry
        /// Whether the config in force changed.
        public var configChanged = false
        /// What changed among the animators.
        public var registryChanges = RegistryChanges()
        /// What is wrong with the config file as saved now, one line each
        /// (with `strict`, every problem `segue check` finds, warnings too).
        public var configProblems: [String] = []
        /// How many of those are errors: the file is not applied when there is one.
        public var configErrors = 0
        /// The config file was broken and is good again.
        public var configRecovered = false

        /// What changed, for people, the config named as `file`.
        public func changes(naming file: String) -> [String] {
            (configChanged ? ["config \(file) changed"] : []) + registryChanges.descriptions
        }
    }

    /// The config file watched and reread, absolute; nil when there is none (or it is standard input).
    public let configPath: String?
    /// The config in force.
    public private(set) var config: SegueConfig
    /// The animators in force.
    public private(set) var registry: AnimatorRegistry
    /// Whether the config file as saved now is broken (and the last good one in force).
    public private(set) var configIsBroken = false

    /// Whether a config `segue check` finds an error in is held back, as a broken one.
    public var isStrict: Bool { strict }
    private let strict: Bool
    private let forViewsOfAProgram: Bool
    private let searchPath: (SegueConfig) -> [PluginFolder]

    /// Reloads `config` (read from `configPath`) and `registry`.
    /// - Parameters:
    ///   - strict: a config that `segue check` finds an error in is not applied, as a broken one.
    ///   - forViewsOfAProgram: the config is a player's, whose rules name a program's views (see ``SegueConfig/load(path:forViewsOfAProgram:)``).
    ///   - searchPath: the plugin folders for a config (its `plugins` may change).
    public init(config: SegueConfig, configPath: String?, registry: AnimatorRegistry, strict: Bool = false,
                forViewsOfAProgram: Bool = false, searchPath: @escaping (SegueConfig) -> [PluginFolder]) {
        (self.config, self.configPath, self.registry) = (config, configPath, registry)
        (self.strict, self.forViewsOfAProgram, self.searchPath) = (strict, forViewsOfAProgram, searchPath)
    }

    /// The plugin folders and the files (the config) to watch.
    public var watched: (folders: [String], files: [String]) {
        (registry.folders, configPath.map { [$0] } ?? [])
    }

    /// Reloads after the paths in `changed` changed: the config when it is
    /// among them, then the plugin folders (only changed files are examined).
    public func reload(changed: Set<String>) -> Outcome {
        var outcome = Outcome(config: config, registry: registry)
        if let configPath, changed.contains(configPath) {
            let (fresh, problems, errors) = load(configPath)
            (outcome.configProblems, outcome.configErrors) = (problems, errors)
            if let fresh {
                outcome.configRecovered = configIsBroken
                configIsBroken = false
                outcome.configChanged = fresh != config
                config = fresh
            } else {
                configIsBroken = true
            }
        }
        let (next, changes) = registry.reloaded(searchPath: searchPath(config))
        registry = next
        (outcome.config, outcome.registry, outcome.registryChanges) = (config, registry, changes)
        return outcome
    }

    /// The config as saved at `path`, or nil when it cannot be applied; the
    /// problems found, one line each, and how many are errors.
    private func load(_ path: String) -> (SegueConfig?, [String], Int) {
        guard strict else {
            do {
                return (try SegueConfig.load(path: path, forViewsOfAProgram: forViewsOfAProgram), [], 0)
            } catch {
                return (nil, ["\(error)"], 1)
            }
        }
        let (fresh, problems) = ConfigCheck.check(path: path) { fresh in
            registry.reloaded(searchPath: searchPath(fresh)).registry
        }
        let errors = problems.filter { $0.severity == .error }.count
        return (errors == 0 ? fresh : nil, problems.map(\.description), max(errors, fresh == nil ? 1 : 0))
    }
}
