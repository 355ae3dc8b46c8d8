import Foundation
import HostContainer
import PluginHost
import PluginRuntime
import Timing

/// A problem `segue check` reports: where, how bad, and what.
public struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable {
        /// A run would not do what the config says (an unknown animator, a
        /// parameter out of range...): `segue check` exits 1.
        case error
        /// Worth a look, harmless to a run (a rule that can never win, a
        /// rejected plugin file...).
        case warning
    }

    public var severity: Severity
    /// The config file, or the plugin file for a rejected plugin.
    public var file: String
    /// Where in the file, when the problem is at one place.
    public var line: Int?
    public var column: Int?
    /// Where in the document (`$.rules[2].animator`), when it is in the config.
    public var keyPath: String?
    /// What is wrong, with what was expected and what was found.
    public var message: String

    /// `FILE:LINE:COLUMN: error: KEYPATH: MESSAGE`, on one line, control characters escaped.
    public var description: String {
        let place = line.map { ":\($0):\(column ?? 1)" } ?? ""
        let path = keyPath.map { "\($0): " } ?? ""
        return PluginText.escaped("\(file)\(place): \(severity.rawValue): \(path)\(message)")
    }
}

extension ConfigProblem {
    /// A config error as a problem: an error, at its place.
    public init(_ error: ConfigError) {
        self.init(severity: .error, file: error.file, line: error.line, column: error.column, keyPath: error.keyPath,
                  message: "expected \(error.expected), found \(error.found)")
    }
}

/// What `segue check` and `segue run --strict` check: everything a run could
/// meet, found before anything plays.
public enum ConfigCheck {
    /// Checks the config at `path` (nil: the built-in scene) with the
    /// animators of the registry `makeRegistry` builds for it.
    /// - Parameter forViewsOfAProgram: the config is read as a player reads
    ///   it (see ``SegueConfig/load(path:forViewsOfAProgram:)``): the
    ///   standard config's rules name a program's views, not children.
    /// - Returns: the config (nil when it cannot be read at all) and every
    ///   problem, errors and warnings, in file order where they have one.
    public static func check(path: String?, forViewsOfAProgram: Bool = false, makeRegistry: (SegueConfig) -> AnimatorRegistry)
        -> (config: SegueConfig?, problems: [ConfigProblem]) {
        let read: SegueConfig.Checked
        do {
            read = try path.map { p throws(ConfigError) in try SegueConfig.loadForCheck(path: p, checksNames: !forViewsOfAProgram) }
                ?? SegueConfig.Checked(config: SegueConfig.builtinScene, text: Array(SegueConfig.builtinSceneJSON.utf8), childProblems: [])
        } catch {
            return (nil, [problem(error)])
        }
        let config = read.config
        var problems = read.childProblems.map(problem)
        func add(_ keyPath: String, _ message: String, _ severity: ConfigProblem.Severity = .error) {
            var found = ConfigProblem(severity: severity, file: config.file, keyPath: keyPath, message: message)
            if let offset = JSONReader.offset(of: keyPath, in: read.text) {
                let (line, column) = JSONReader.lineAndColumn(of: offset, in: read.text)
                (found.line, found.column) = (line, column)
            }
            problems.append(found)
        }

        let registry = makeRegistry(config)
        let names = registry.animators.map(\.name)
        func checkAnimator(_ name: String, _ parameters: [String: ParameterValue], at path: String, switches: Bool) {
            guard let animator = registry.animator(named: name) else {
                let hint = NameSuggestion.hint(for: name, in: registry.names)
                let known = names.isEmpty ? "no plugin animator was found" : "the animators are \(names.joined(separator: ", ")) and '\(DefaultAnimator.name)'"
                add("\(path).animator", "no animator named '\(name)'\(hint); \(known)")
                return
            }
            // What a run decides up front (KindPlayback's table): a switch to an animator that declares none is the default's.
            if switches, let refusal = KindPlayback.refusal(of: .switch, kinds: animator.kinds) {
                add("\(path).animator", "\(name) \(refusal): the built-in default would play these switches; name an animator that plays switches, or make this a rule for windows (appear, disappear)")
            }
            let declared = animator.parameters
            for key in parameters.keys.sorted() {
                let at = "\(path).parameters.\(key)"
                guard let parameter = declared.first(where: { $0.name == key }) else {
                    let hint = NameSuggestion.hint(for: key, in: declared.map(\.name))
                    let known = declared.isEmpty ? "it has none" : "it has " + declared.map { "'\($0.name)'" }.joined(separator: ", ")
                    add(at, "\(name) has no parameter '\(key)'\(hint); \(known)")
                    continue
                }
                if case .failure(let error) = parameter.validate(parameters[key]!, curves: config.curves) {
                    var hint = ""
                    var names: [String] = []
                    if case .choice(let choices) = parameter.kind { names = choices }
                    if parameter.kind == .curve { names = config.curves.names }
                    if case .string(let given) = parameters[key]! { hint = NameSuggestion.hint(for: given, in: names) }
                    add(at, "\(name) parameter '\(key)': \(error.message)\(hint)")
                }
            }
        }
        if let fallback = config.defaultAnimator {
            checkAnimator(fallback, [:], at: "$.defaultAnimator", switches: false)
            if let animator = registry.animator(named: fallback), let refusal = KindPlayback.refusal(of: .switch, kinds: animator.kinds) {
                add("$.defaultAnimator", "\(fallback) \(refusal): switches no rule names play the built-in default", .warning)
            }
        }
        for (i, rule) in config.rules.enumerated() {
            checkAnimator(rule.animator, rule.parameters, at: "$.rules[\(i)]", switches: rule.from != nil || rule.to != nil)
        }

        // Rules that can never win: exactly, over every pair of children (a
        // config with very many children gets the duplicate check only).
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        let children = config.sceneChildren.map(\.name)
        var won = Set<String>()
        if children.count <= 300 {
            for from in children {
                for to in children where to != from {
                    if let rule = delegate.rule(from: from, to: to) { won.insert(rule.label) }
                }
            }
        }
        var seen: [String: String] = [:]
        let known = Set(children)
        for (i, rule) in config.rules.enumerated() where rule.from != nil || rule.to != nil {
            guard [rule.from, rule.to].allSatisfy({ $0.map(known.contains) ?? true }) else { continue }
            let key = "\(rule.from ?? "*")\u{0}\(rule.to ?? "*")"
            if let earlier = seen[key] {
                add("$.rules[\(i)]", "this rule can never win: \(earlier) matches the same transitions and comes first", .warning)
            } else if let from = rule.from, from == rule.to {
                add("$.rules[\(i)]", "this rule can never win: a child never switches to itself", .warning)
            } else if children.count <= 300, !won.contains(rule.label) {
                add("$.rules[\(i)]", "this rule can never win: more specific or earlier rules take every transition it matches", .warning)
            }
            seen[key] = seen[key] ?? rule.label
        }

        // Appearance and disappearance rules whose pattern an earlier rule has (in any case):
        // views are the program's, so no other can be known never to win.
        var patterns: [String: String] = [:]
        for (i, rule) in config.rules.enumerated() {
            for (kind, pattern) in [(TransitionKind.appear, rule.appear), (.disappear, rule.disappear)] {
                guard let pattern else { continue }
                let key = "\(kind.key)\u{0}\(SegueConfig.NamePattern(pattern).folded)"
                if let earlier = patterns[key] {
                    add("$.rules[\(i)].\(kind.key)", "this rule can never win for the \(kind) of \"\(pattern)\": \(earlier) has the same pattern and comes first", .warning)
                }
                patterns[key] = patterns[key] ?? rule.label
            }
        }

        // Script steps that do nothing: selecting the child already shown.
        var shown = children.first
        for (i, step) in config.script.enumerated() where step.action == .select {
            if step.child == shown {
                add(step.interactive == nil ? "$.script[\(i)]" : "$.script[\(i)].select",
                    "this step does nothing: '\(step.child)' is already shown", .warning)
            }
            if step.interactive == nil || step.release != .cancel { shown = step.child }
        }

        // The config's own plugin folders that are missing, at their place in the file (the registry says it without one).
        var placed = Set<String>()
        for (i, folder) in config.plugins.enumerated() where !FileManager.default.fileExists(atPath: folder) {
            let warning = "plugin folder \(folder) does not exist"
            add("$.plugins[\(i)]", warning, .warning)
            placed.insert(warning)
        }
        // In file order; problems without a place (plugins, folders) after.
        problems.sort { ($0.line ?? .max, $0.column ?? 0) < ($1.line ?? .max, $1.column ?? 0) }
        for warning in registry.warnings where !placed.contains(warning) {
            problems.append(ConfigProblem(severity: .warning, file: config.file, message: warning))
        }
        for rejection in registry.rejections {
            problems.append(ConfigProblem(severity: .warning, file: rejection.file, message: "plugin rejected: \(rejection.reason)"))
        }
        return (config, problems)
    }

    private static func problem(_ error: ConfigError) -> ConfigProblem { ConfigProblem(error) }
}
