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
        /// What changed, for people ("config x.json changed", "added CurlUp from ..."); empty when nothing that matters did.
        public var changes: [String]
        /// The config file as saved now cannot be used: why (the last good config stays in force).
        public var configProblem: String?
        /// The config file was broken and is good again.
        public var configRecovered = false
    }

    /// The config file watched and reread, absolute; nil when there is none (or it is standard input).
    public let configPath: String?
    /// The config in force.
    public private(set) var config: SegueConfig
    /// The animators in force.
    public private(set) var registry: AnimatorRegistry
    /// Whether the config file as saved now is broken (and the last good one in force).
    public private(set) var configIsBroken = false

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
        var notes: [String] = []
        var problem: String?
        var recovered = false
        if let configPath, changed.contains(configPath) {
            switch load(configPath) {
            case .success(let fresh):
                recovered = configIsBroken
                configIsBroken = false
                if fresh != config {
                    config = fresh
                    notes.append("config \(configPath) changed")
                }
            case .failure(let unusable):
                configIsBroken = true
                problem = unusable.why
            }
        }
        let (next, changes) = registry.reloaded(searchPath: searchPath(config))
        registry = next
        notes += changes.descriptions
        return Outcome(config: config, registry: registry, changes: notes, configProblem: problem, configRecovered: recovered)
    }

    /// Why a config cannot be applied, in words.
    private struct Unusable: Error { let why: String }

    /// The config as saved at `path`, or why it cannot be applied.
    private func load(_ path: String) -> Result<SegueConfig, Unusable> {
        guard strict else {
            do {
                return .success(try SegueConfig.load(path: path, forViewsOfAProgram: forViewsOfAProgram))
            } catch {
                return .failure(Unusable(why: "\(error)"))
            }
        }
        let (fresh, problems) = ConfigCheck.check(path: path) { fresh in
            registry.reloaded(searchPath: searchPath(fresh)).registry
        }
        let errors = problems.filter { $0.severity == .error }
        guard let fresh, errors.isEmpty else {
            let count = errors.count
            return .failure(Unusable(why: (errors.map(\.description) + ["strict: not applying \(path): \(count) error\(count == 1 ? "" : "s")"])
                .joined(separator: "\n")))
        }
        return .success(fresh)
    }
}
