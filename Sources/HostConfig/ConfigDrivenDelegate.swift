import HostContainer
import PluginHost
import Timing

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
        resolution(decide(from: from, to: to))
    }

    /// The animator called `name` with `parameters`, chosen by the program
    /// rather than by a rule, with the config's curves: the built-in default
    /// when no loaded plugin provides it or a parameter does not fit, the
    /// reason saying so. `why` says who chose it, for the reason.
    public func resolve(animator name: String, parameters: [String: ParameterValue], why: String) -> AnimatorResolution {
        resolution(decide(animator: name, parameters: parameters, why: why))
    }

    private func resolution(_ decision: Decision) -> AnimatorResolution {
        switch decision {
        case .builtin(let reason):
            return .useDefault(reason: reason)
        case .fallBack(let reason):
            return .fallBack(reason: reason)
        case .chosen(let descriptor, let values, let why):
            return .use(descriptor.makeAnimator(parameters: values, curves: config.curves), reason: why,
                        parameters: named(descriptor.parameters, values))
        }
    }

    /// Values as a config writes them (a choice or a curve by its name), by parameter.
    private func named(_ parameters: [ParameterDescriptor], _ values: [Double]) -> [NamedParameterValue] {
        zip(parameters, values).map { NamedParameterValue(name: $0.name, value: $0.configValue($1, curves: config.curves)) }
    }

    /// What ``resolve(from:to:)`` decides, without making an animator.
    enum Decision {
        /// The built-in default with its own values: nothing chose another animator.
        case builtin(reason: String)
        /// The built-in default with its own values, because what was chosen cannot run.
        case fallBack(reason: String)
        /// The animator the config chose (the built-in default too, when a rule sets its parameters), with its values.
        case chosen(AnimatorDescriptor, values: [Double], reason: String)
    }

    func decide(from: String, to: String) -> Decision {
        let name: String, parameters: [String: ParameterValue], why: String
        if let rule = rule(from: from, to: to) {
            (name, parameters, why) = (rule.animator, rule.parameters, "\(rule.label) (\(Self.matching(rule)))")
        } else if let fallback = config.defaultAnimator {
            (name, parameters, why) = (fallback, [:], "defaultAnimator")
        } else {
            return .builtin(reason: "no rule matches \(from) -> \(to) and no defaultAnimator is set")
        }
        return decide(animator: name, parameters: parameters, why: why)
    }

    func decide(animator name: String, parameters: [String: ParameterValue], why: String) -> Decision {
        guard let descriptor = registry.animator(named: name) else {
            if let gone = registry.departure(of: name) {
                return .fallBack(reason: "\(why) names the animator '\(name)', which is gone: \(gone); the built-in default ran instead")
            }
            let hint = NameSuggestion.hint(for: name, in: registry.names)
            return .fallBack(reason: "\(why) names the animator '\(name)', which no loaded plugin provides\(hint); the built-in default ran instead")
        }
        let isDefault = descriptor.source == .builtin
        switch descriptor.resolveParameters(parameters, curves: config.curves) {
        case .failure(let error):
            let instead = isDefault ? "the built-in default ran with its own values instead" : "the built-in default ran instead"
            return .fallBack(reason: "\(why): \(error.message); \(instead)")
        case .success(let values):
            if isDefault && parameters.isEmpty { return .builtin(reason: "\(why) chose the built-in default") }
            return .chosen(descriptor, values: values, reason: isDefault ? "\(why) chose the built-in default" : why)
        }
    }

    /// `from "a", to "b"`: what a rule matches, for reasons.
    static func matching(_ rule: SegueConfig.Rule) -> String {
        var matched: [String] = []
        if let f = rule.from { matched.append("from \"\(f)\"") }
        if let t = rule.to { matched.append("to \"\(t)\"") }
        return matched.joined(separator: ", ")
    }

    /// Everything about the choice for a switch from `from` to `to`: the rule
    /// that wins and the ones it beat, the animator and its file, its
    /// parameter values and where each comes from. Makes no animator.
    public func explain(from: String, to: String) -> TransitionExplanation {
        let winner = rule(from: from, to: to)
        let beaten = config.rules.filter { rule in
            rule.label != winner?.label && (rule.from == nil || rule.from == from) && (rule.to == nil || rule.to == to)
        }.map { rule in
            let sameLevel = (rule.from != nil) == (winner?.from != nil) && (rule.to != nil) == (winner?.to != nil)
            return TransitionExplanation.Beaten(
                label: rule.label, matches: Self.matching(rule), animator: rule.animator,
                why: sameLevel ? "as specific, but later in the file" : "less specific")
        }
        var explanation = TransitionExplanation(from: from, to: to, rule: winner.map { "\($0.label) (\(Self.matching($0)))" },
                                                beaten: beaten, animator: DefaultAnimator.name, file: nil,
                                                reason: "", parameters: [])
        let given = winner.map(\.parameters) ?? [:]
        func values(_ parameters: [ParameterDescriptor], _ values: [Double]) -> [TransitionExplanation.Parameter] {
            named(parameters, values).map { TransitionExplanation.Parameter(name: $0.name, value: $0.value, fromRule: given[$0.name] != nil) }
        }
        switch decide(from: from, to: to) {
        case .builtin(let reason), .fallBack(let reason):
            explanation.reason = reason
            explanation.parameters = values(DefaultAnimator.parameters, DefaultAnimator.parameters.map(\.defaultValue))
        case .chosen(let descriptor, let chosen, let reason) where descriptor.source == .builtin:
            explanation.reason = reason
            explanation.parameters = values(descriptor.parameters, chosen)
        case .chosen(let descriptor, let pluginValues, let reason):
            (explanation.animator, explanation.file, explanation.reason) = (descriptor.name, descriptor.file, reason)
            explanation.parameters = values(descriptor.parameters, pluginValues)
            explanation.fallbacks = [
                "if \(descriptor.name) declines, plans something unusable, or fails while it runs (a crash, a hang, a non-finite value), the built-in default runs, or finishes the transition from the same point",
                "if its plugin has failed before in this process, it is quarantined and the built-in default runs at once",
            ]
        }
        return explanation
    }
}

/// What ``ConfigDrivenDelegate/explain(from:to:)`` found.
public struct TransitionExplanation: Sendable, Equatable {
    /// A rule that matched but lost, and why.
    public struct Beaten: Sendable, Equatable {
        public var label, matches, animator, why: String
    }
    /// A parameter value and whether the rule set it (else it is the animator's default).
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var value: ParameterValue
        public var fromRule: Bool
    }

    public var from, to: String
    /// The rule that wins, as reports name it; nil when none matches.
    public var rule: String?
    /// The other matching rules, each with why it lost.
    public var beaten: [Beaten]
    /// The animator that would run: a plugin's name, or "default".
    public var animator: String
    /// Its plugin file; nil for the built-in default.
    public var file: String?
    /// The reason a report would give.
    public var reason: String
    /// The values the animator would run with, in its order.
    public var parameters: [Parameter]
    /// What would happen if the animator does not play its part.
    public var fallbacks: [String] = []
}
