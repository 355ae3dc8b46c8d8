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
        /// A config that may be absent (``ConfigReloader/isOptional``) was
        /// removed: no rules apply until it is back.
        public var configVanished = false
        /// A config that may be absent came (back) and is followed.
        public var configAppeared = false
        /// Picture files the config names that changed on disk (and passed the content check).
        public var picturesChanged: [String] = []

        /// What this reload means for the config file named `file`, in the one
        /// wording every host uses: "keeping the last good config until
        /// segue.json is fixed", "segue.json is good again"; nil when neither.
        public func configState(naming file: String) -> String? {
            if configErrors > 0 { return "keeping the last good config until \(file) is fixed" }
            if configVanished { return "\(file) is gone: no rules apply (the built-in default plays every transition not given an animator) until it is back" }
            if configAppeared { return "\(file) appeared and is followed" }
            return configRecovered ? "\(file) is good again" : nil
        }

        /// What changed, for people, the config named as `file`.
        public func changes(naming file: String) -> [String] {
            (configChanged ? ["config \(file) changed"] : []) + picturesChanged.map { "picture \($0) changed" }
                + registryChanges.descriptions
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
    /// Whether the config file may be absent (a host following the standard
    /// config): absent, the empty config is in force, with no rules, and the
    /// file's appearance is a change like any other; a file that cannot be
    /// read for another reason is broken as always.
    public let isOptional: Bool
    /// Whether the optional config file is absent now.
    public private(set) var configIsMissing = false

    /// Whether a config `segue check` finds an error in is held back, as a broken one.
    public var isStrict: Bool { strict }
    private let strict: Bool
    private let forViewsOfAProgram: Bool
    private let searchPath: (SegueConfig) -> [PluginFolder]
    private let contentCheck: ((SegueConfig) -> [ConfigError])?
    private let adjust: (SegueConfig) -> SegueConfig

    /// Reloads `config` (read from `configPath`) and `registry`.
    /// - Parameters:
    ///   - strict: a config that `segue check` finds an error in is not applied, as a broken one.
    ///   - forViewsOfAProgram: the config is a player's, whose rules name a program's views (see ``SegueConfig/load(path:forViewsOfAProgram:)``).
    ///   - contentCheck: what is wrong with a config's content beyond the file
    ///     (a host that draws decodes its pictures); a config it finds an
    ///     error in is not applied, as a broken one.
    ///   - adjusting: what the host adds to every config it reads (the
    ///     pictures given on `segue show`'s command line); `config` is already adjusted.
    ///   - searchPath: the plugin folders for a config (its `plugins` may change).
    ///   - optional: the config file may be absent (``isOptional``); `missing`: it is now.
    public init(config: SegueConfig, configPath: String?, registry: AnimatorRegistry, strict: Bool = false,
                forViewsOfAProgram: Bool = false, optional: Bool = false, missing: Bool = false,
                contentCheck: ((SegueConfig) -> [ConfigError])? = nil,
                adjusting: @escaping (SegueConfig) -> SegueConfig = { $0 }, searchPath: @escaping (SegueConfig) -> [PluginFolder]) {
        (self.config, self.configPath, self.registry) = (config, configPath, registry)
        (isOptional, configIsMissing) = (optional, optional && missing)
        (self.strict, self.forViewsOfAProgram, self.searchPath) = (strict, forViewsOfAProgram, searchPath)
        (self.contentCheck, self.adjust) = (contentCheck, adjusting)
    }

    /// The plugin folders and the files (the config and the pictures it names) to watch.
    public var watched: (folders: [String], files: [String]) {
        (registry.folders, (configPath.map { [$0] } ?? []) + Set(config.pictures.map(\.path)).sorted())
    }

    /// Reloads after the paths in `changed` changed: the config when it is
    /// among them, then the plugin folders (only changed files are examined).
    public func reload(changed: Set<String>) -> Outcome {
        var outcome = Outcome(config: config, registry: registry)
        if let configPath, changed.contains(configPath), isOptional, SegueConfig.isAbsent(path: configPath) {
            // Gone: the empty config, whatever was in force or broken.
            outcome.configVanished = !configIsMissing
            (configIsMissing, configIsBroken) = (true, false)
            outcome.configChanged = config != SegueConfig(file: configPath)
            config = adjust(SegueConfig(file: configPath))
        } else if let configPath, changed.contains(configPath) {
            outcome.configAppeared = configIsMissing
            configIsMissing = false
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
        } else if let contentCheck, case let pictures = Set(config.pictures.map(\.path)).intersection(changed), !pictures.isEmpty {
            // A picture changed under the config in force: it stays in force; a picture that cannot be shown is said.
            let problems = contentCheck(config).map(\.description)
            (outcome.configProblems, outcome.configErrors) = (problems, problems.count)
            if problems.isEmpty {
                outcome.configRecovered = configIsBroken
                configIsBroken = false
                outcome.picturesChanged = pictures.sorted()
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
                let fresh = adjust(try SegueConfig.load(path: path, forViewsOfAProgram: forViewsOfAProgram))
                let problems = contentCheck?(fresh).map(\.description) ?? []
                return (problems.isEmpty ? fresh : nil, problems, problems.count)
            } catch {
                return (nil, ["\(error)"], 1)
            }
        }
        let (checked, found) = ConfigCheck.check(path: path) { fresh in
            registry.reloaded(searchPath: searchPath(fresh)).registry
        }
        let fresh = checked.map(adjust)
        let content = fresh.map { contentCheck?($0).map(\.description) ?? [] } ?? []
        let problems = found.map(\.description) + content
        let errors = found.filter { $0.severity == .error }.count + content.count
        return (errors == 0 ? fresh : nil, problems, max(errors, fresh == nil ? 1 : 0))
    }
}
