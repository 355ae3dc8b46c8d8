import Foundation

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

/// What `segue check` and `segue run --strict` check: everything a run could
/// meet, found before anything plays.
public enum ConfigCheck {
    /// Checks the config at `path` (nil: the built-in scene) with the
    /// animators of the registry `makeRegistry` builds for it.
    /// - Returns: the config (nil when it cannot be read at all) and every
    ///   problem, errors and warnings, in file order where they have one.
    public static func check(path: String?, makeRegistry: (SegueConfig) -> AnimatorRegistry)
        -> (config: SegueConfig?, problems: [ConfigProblem]) {
        let read: SegueConfig.Checked
        do {
            read = try path.map { p throws(ConfigError) in try SegueConfig.loadForCheck(path: p) }
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
        func checkAnimator(_ name: String, _ parameters: [String: ParameterValue], at path: String) {
            let declared: [ParameterDescriptor]
            if name == SegueConfig.builtinAnimatorName {
                declared = PrivateAnimatedTransition.parameters
            } else if let animator = registry.animator(named: name) {
                declared = animator.parameters
            } else {
                let hint = closest(to: name, in: names + [SegueConfig.builtinAnimatorName]).map { " (did you mean '\($0)'?)" } ?? ""
                let known = names.isEmpty ? "no plugin animator was found" : "the animators are \(names.joined(separator: ", ")) and 'default'"
                add("\(path).animator", "no animator named '\(name)'\(hint); \(known)")
                return
            }
            for key in parameters.keys.sorted() {
                let at = "\(path).parameters.\(key)"
                guard let parameter = declared.first(where: { $0.name == key }) else {
                    let hint = closest(to: key, in: declared.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
                    let known = declared.isEmpty ? "it has none" : "it has " + declared.map { "'\($0.name)'" }.joined(separator: ", ")
                    add(at, "\(name) has no parameter '\(key)'\(hint); \(known)")
                    continue
                }
                if case .failure(let error) = parameter.validate(parameters[key]!, curves: config.curves) {
                    var hint = ""
                    var names: [String] = []
                    if case .choice(let choices) = parameter.kind { names = choices }
                    if parameter.kind == .curve { names = config.curves.names }
                    if case .string(let given) = parameters[key]!, let near = closest(to: given, in: names) {
                        hint = " (did you mean '\(near)'?)"
                    }
                    add(at, "\(name) parameter '\(key)': \(error.message)\(hint)")
                }
            }
        }
        if let fallback = config.defaultAnimator { checkAnimator(fallback, [:], at: "$.defaultAnimator") }
        for (i, rule) in config.rules.enumerated() { checkAnimator(rule.animator, rule.parameters, at: "$.rules[\(i)]") }

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
        for (i, rule) in config.rules.enumerated() where [rule.from, rule.to].allSatisfy({ $0.map(known.contains) ?? true }) {
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

        // Script steps that do nothing: selecting the child already shown.
        var shown = children.first
        for (i, step) in config.script.enumerated() {
            if step.child == shown {
                add(step.interactive == nil ? "$.script[\(i)]" : "$.script[\(i)].select",
                    "this step does nothing: '\(step.child)' is already shown", .warning)
            }
            if step.interactive == nil || step.release != .cancel { shown = step.child }
        }

        // In file order; problems without a place (plugins, folders) after.
        problems.sort { ($0.line ?? .max, $0.column ?? 0) < ($1.line ?? .max, $1.column ?? 0) }
        for warning in registry.warnings {
            problems.append(ConfigProblem(severity: .warning, file: config.file, message: warning))
        }
        for rejection in registry.rejections {
            problems.append(ConfigProblem(severity: .warning, file: rejection.file, message: "plugin rejected: \(rejection.reason)"))
        }
        return (config, problems)
    }

    /// The name in `candidates` closest to `name`: the same but for case, or
    /// at most a third of its letters away (edits and swaps of neighbours).
    public static func closest(to name: String, in candidates: [String]) -> String? {
        let folded = name.lowercased()
        if let same = candidates.first(where: { $0.lowercased() == folded }) { return same }
        let limit = name.count / 3  // a name of one or two letters is too short to guess from
        guard limit > 0 else { return nil }
        return candidates.map { ($0, distance(folded, $0.lowercased())) }.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }

    /// Edits from `a` to `b`: insertions, deletions, substitutions and swaps
    /// of neighbours (optimal string alignment), the typos people make.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous) = (previous, current)
        }
        return previous[b.count]
    }

    private static func problem(_ error: ConfigError) -> ConfigProblem {
        ConfigProblem(severity: .error, file: error.file, line: error.line, column: error.column, keyPath: error.keyPath,
                      message: "expected \(error.expected), found \(error.found)")
    }
}
