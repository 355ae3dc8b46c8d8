import HostContainer
import PluginHost
import Timing

/// A container delegate that picks animators by a config's rules, from the
/// animators in a registry, and says why for every transition.
///
/// For a switch from A to B it takes the most specific matching rule (from and
/// to, then to only, then from only; the first in the file among equals), else
/// `defaultAnimator`, else the built-in default. When the named animator is not
/// loaded, cannot play the transition's kind (``KindPlayback/way(kinds:playing:)``:
/// a switch, by one that declares only appearances and disappearances), or a
/// parameter does not fit, it falls back to the built-in default and the
/// reason says so. Never throws, never traps.
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

    /// What rules match: a switch between two children, or a view's
    /// appearance or disappearance, by names.
    public enum Subject: Equatable, Sendable, CustomStringConvertible {
        case switching(from: String, to: String)
        /// The appearance (or disappearance) of the view called `view`.
        case presenting(TransitionKind, view: String)

        /// What the transition does: a switch, an appearance or a disappearance.
        public var kind: TransitionKind {
            switch self {
            case .switching: .switch
            case .presenting(let kind, _): kind
            }
        }

        /// "a -> b", "the appearance of org.gnome.Calculator".
        public var description: String {
            switch self {
            case .switching(let from, let to): "\(from) -> \(to)"
            case .presenting(let kind, let view): "the \(kind) of \(view)"
            }
        }
    }

    /// How specifically `rule` matches `subject`, or nil when it does not:
    /// from and to (3), to only (2), from only (1); a view's exact name, else
    /// the characters of its pattern that are not wildcards.
    static func specificity(of rule: SegueConfig.Rule, for subject: Subject) -> Int? {
        switch subject {
        case .switching(let from, let to):
            guard rule.from != nil || rule.to != nil, rule.from.map({ $0 == from }) ?? true,
                  rule.to.map({ $0 == to }) ?? true else { return nil }
            return (rule.to != nil ? 2 : 0) + (rule.from != nil ? 1 : 0)
        case .presenting(let kind, let view):
            guard let text = kind == .appear ? rule.appear : kind == .disappear ? rule.disappear : nil else { return nil }
            let pattern = SegueConfig.NamePattern(text)
            return pattern.matches(view) ? pattern.specificity : nil
        }
    }

    /// The rule for `subject`, if any: the most specific, the first in the file among equals.
    public func rule(for subject: Subject) -> SegueConfig.Rule? { Self.rule(for: subject, among: config.rules) }

    /// The rule of `rules` for `subject` (only those naming `animator`, when
    /// given), if any: the most specific, the first among equals.
    public static func rule(for subject: Subject, among rules: [SegueConfig.Rule], naming animator: String? = nil) -> SegueConfig.Rule? {
        var best: (rule: SegueConfig.Rule, score: Int)?
        for rule in rules where animator.map({ rule.animator == $0 }) ?? true {
            if let score = specificity(of: rule, for: subject), score > best?.score ?? 0 { best = (rule, score) }
        }
        return best?.rule
    }

    /// The rule for a switch between the children called `from` and `to`, if any.
    public func rule(from: String, to: String) -> SegueConfig.Rule? { rule(for: .switching(from: from, to: to)) }

    /// Answers ``resolve(from:to:)`` for the two children's names.
    public func containerViewController(
        _ container: ContainerViewController,
        animationControllerForTransitionFrom from: ViewController,
        to: ViewController
    ) -> AnimatorResolution {
        resolve(from: from.name, to: to.name)
    }

    /// Answers ``resolve(_:)`` for the presented child's name.
    public func containerViewController(
        _ container: ContainerViewController, animationControllerFor kind: TransitionKind,
        of presented: ViewController, over beneath: ViewController
    ) -> AnimatorResolution {
        resolve(.presenting(kind, view: presented.name))
    }

    /// The animator and reason for a switch between two children, by name.
    public func resolve(from: String, to: String) -> AnimatorResolution {
        resolve(.switching(from: from, to: to))
    }

    /// The animator and reason for `subject`, by its rules.
    public func resolve(_ subject: Subject) -> AnimatorResolution {
        resolution(decide(subject))
    }

    /// The animator called `name` with `parameters`, chosen by the program
    /// rather than by a rule, for a transition of `kind`, with the config's
    /// curves: the built-in default when no loaded plugin provides it, it
    /// cannot play `kind`, or a parameter does not fit, the reason saying so.
    /// `why` says who chose it, for the reason.
    public func resolve(animator name: String, for kind: TransitionKind, parameters: [String: ParameterValue], why: String) -> AnimatorResolution {
        resolution(decide(animator: name, for: kind, parameters: parameters, why: why))
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

    func decide(_ subject: Subject) -> Decision {
        let name: String, parameters: [String: ParameterValue], why: String
        if let rule = rule(for: subject) {
            (name, parameters, why) = (rule.animator, rule.parameters, "\(rule.label) (\(Self.matching(rule)))")
        } else if let fallback = config.defaultAnimator {
            (name, parameters, why) = (fallback, [:], "defaultAnimator")
        } else {
            return .builtin(reason: "no rule matches \(subject) and no defaultAnimator is set")
        }
        return decide(animator: name, for: subject.kind, parameters: parameters, why: why)
    }

    func decide(animator name: String, for kind: TransitionKind, parameters: [String: ParameterValue], why: String) -> Decision {
        guard let descriptor = registry.animator(named: name) else {
            if let gone = registry.departure(of: name) {
                return .fallBack(reason: "\(why) names the animator '\(name)', which is gone: \(gone); the built-in default ran instead")
            }
            let hint = NameSuggestion.hint(for: name, in: registry.names)
            return .fallBack(reason: "\(why) names the animator '\(name)', which no loaded plugin provides\(hint)\(registry.refusedNote); the built-in default ran instead")
        }
        // Decided here, not when the transition starts, so that explain says what run does.
        if let refusal = KindPlayback.refusal(of: kind, kinds: descriptor.kinds) {
            return .fallBack(reason: "\(why) names \(descriptor.name), which \(refusal); the built-in default ran instead")
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
        if let a = rule.appear { matched.append("appear \"\(a)\"") }
        if let d = rule.disappear { matched.append("disappear \"\(d)\"") }
        return matched.joined(separator: ", ")
    }

    /// Everything about the choice for a switch from `from` to `to`: the rule
    /// that wins and the ones it beat, the animator and its file, its
    /// parameter values and where each comes from. Makes no animator.
    public func explain(from: String, to: String) -> TransitionExplanation {
        explain(.switching(from: from, to: to))
    }

    /// ``explain(from:to:)`` for any subject: a switch, or a view's appearance or disappearance.
    public func explain(_ subject: Subject) -> TransitionExplanation {
        let winner = rule(for: subject)
        let winningScore = winner.flatMap { Self.specificity(of: $0, for: subject) }
        let beaten = config.rules.compactMap { rule -> TransitionExplanation.Beaten? in
            guard rule.label != winner?.label, let score = Self.specificity(of: rule, for: subject) else { return nil }
            return TransitionExplanation.Beaten(
                label: rule.label, matches: Self.matching(rule), animator: rule.animator,
                why: score == winningScore ? "as specific, but later in the file" : "less specific")
        }
        let (from, to): (String, String)
        switch subject {
        case .switching(let f, let t): (from, to) = (f, t)
        case .presenting(let kind, let view): (from, to) = kind.sides(presented: view, beneath: "")
        }
        var explanation = TransitionExplanation(from: from, to: to, rule: winner.map { "\($0.label) (\(Self.matching($0)))" },
                                                beaten: beaten, animator: DefaultAnimator.name, file: nil,
                                                reason: "", parameters: [])
        let given = winner.map(\.parameters) ?? [:]
        func values(_ parameters: [ParameterDescriptor], _ values: [Double]) -> [TransitionExplanation.Parameter] {
            named(parameters, values).map { TransitionExplanation.Parameter(name: $0.name, value: $0.value, fromRule: given[$0.name] != nil) }
        }
        explanation.kind = subject.kind
        explanation.played = KindPlayback.way(kinds: DefaultAnimator.kinds, playing: subject.kind).description
        switch decide(subject) {
        case .builtin(let reason), .fallBack(let reason):
            explanation.reason = reason
            explanation.parameters = values(DefaultAnimator.parameters, DefaultAnimator.parameters.map(\.defaultValue))
        case .chosen(let descriptor, let chosen, let reason) where descriptor.source == .builtin:
            explanation.reason = reason
            explanation.parameters = values(descriptor.parameters, chosen)
        case .chosen(let descriptor, let pluginValues, let reason):
            explanation.played = KindPlayback.way(kinds: descriptor.kinds, playing: subject.kind).description
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

    /// The children of a switch; for an appearance, `to` is the view (`from`
    /// is empty), for a disappearance `from`.
    public var from, to: String
    /// What the transition does.
    public var kind: TransitionKind = .switch
    /// How the animator plays that kind, by the kinds it declares: "as
    /// written", or as it plays one it was not written for ("as a switch to
    /// a transparent stand-in"; ``KindPlayback/Way``). The same words a
    /// report's reason ends with ("...; played as ...").
    public var played = KindPlayback.Way.asWritten.description
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
