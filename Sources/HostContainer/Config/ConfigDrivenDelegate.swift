/// A container delegate that picks animators by a config's rules, from the
/// animators in a registry, and says why for every transition.
///
/// For a switch from A to B it takes the most specific matching rule (from and
/// to, then to only, then from only; the first in the file among equals), else
/// `defaultAnimator`, else the built-in default. When the named animator is not
/// loaded, or a parameter does not fit, it falls back to the built-in default
/// and the reason says so. Never throws, never traps.
public final class ConfigDrivenDelegate: ContainerViewControllerDelegate {
    /// The rules and default animator it follows.
    public let config: SegueConfig
    /// Where animators are looked up by short name.
    public let registry: AnimatorRegistry

    /// A delegate that follows `config`'s rules with the animators in `registry`.
    public init(config: SegueConfig, registry: AnimatorRegistry) {
        self.config = config
        self.registry = registry
    }

    /// The rule for a switch between the children called `from` and `to`, if any.
    public func rule(from: String, to: String) -> SegueConfig.Rule? {
        func specificity(_ rule: SegueConfig.Rule) -> Int {
            switch (rule.from != nil, rule.to != nil) {
            case (true, true): 3
            case (false, true): 2
            case (true, false): 1
            case (false, false): 0
            }
        }
        var best: SegueConfig.Rule?
        var bestScore = 0
        for rule in config.rules {
            let matches = (rule.from == nil || rule.from == from) && (rule.to == nil || rule.to == to)
            let score = matches ? specificity(rule) : 0
            if score > bestScore {
                best = rule
                bestScore = score
            }
        }
        return best
    }

    /// Answers ``resolve(from:to:)`` for the two children's names.
    public func containerViewController(
        _ container: ContainerViewController,
        animationControllerForTransitionFrom from: ViewController,
        to: ViewController
    ) -> AnimatorResolution {
        resolve(from: from.name, to: to.name)
    }

    /// The animator and reason for a switch between two children, by name.
    public func resolve(from: String, to: String) -> AnimatorResolution {
        let name: String, parameters: [String: ParameterValue], why: String
        if let rule = rule(from: from, to: to) {
            var matched: [String] = []
            if let f = rule.from { matched.append("from \"\(f)\"") }
            if let t = rule.to { matched.append("to \"\(t)\"") }
            (name, parameters, why) = (rule.animator, rule.parameters, "\(rule.label) (\(matched.joined(separator: ", ")))")
        } else if let fallback = config.defaultAnimator {
            (name, parameters, why) = (fallback, [:], "defaultAnimator")
        } else {
            return .useDefault(reason: "no rule matches \(from) -> \(to) and no defaultAnimator is set")
        }
        if name == SegueConfig.builtinAnimatorName {
            return .useDefault(reason: "\(why) chose the built-in default")
        }
        guard let descriptor = registry.animator(named: name) else {
            if let gone = registry.departure(of: name) {
                return .useDefault(reason: "\(why) names the animator '\(name)', which is gone: \(gone); the built-in default ran instead")
            }
            let hint = registry.suggestion(for: name).map { " (did you mean '\($0)'?)" } ?? ""
            return .useDefault(reason: "\(why) names the animator '\(name)', which no loaded plugin provides\(hint); the built-in default ran instead")
        }
        switch descriptor.resolveParameters(parameters) {
        case .failure(let error):
            return .useDefault(reason: "\(why): \(error.message); the built-in default ran instead")
        case .success(let values):
            return .use(descriptor.makeAnimator(parameters: values), reason: why)
        }
    }
}
