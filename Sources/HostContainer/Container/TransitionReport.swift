import Timing

/// What happened in one transition, for people and scripts.
public struct TransitionReport: Equatable, Sendable {
    /// The child that was left.
    public var from: String
    /// The child that was selected.
    public var to: String
    /// The animator that finished the transition: a plugin's short name or "default".
    public var animator: String
    /// Where that animator came from.
    public var source: AnimatorSource
    /// Which rule chose the animator, or why the built-in default ran instead.
    public var reason: String
    /// True when the built-in default ran in place of the animator that was
    /// chosen: it was unknown, declined, planned something unusable, failed,
    /// or a parameter did not fit. ``reason`` says which.
    public var fellBack = false
    /// Seconds, as planned by the animator that finished the transition.
    public var duration: Double
    /// How many times the layers were evaluated and applied.
    public var frames: Int
    /// False when the transition was cancelled or reversed back to its start.
    public var completed: Bool
    /// The child shown once the transition ended: `to` when completed, else `from`.
    public var shown: String
    /// Whether the transition was started interactively.
    public var interactive: Bool
    /// The parameter values the animator that finished the transition ran
    /// with, defaults filled in; empty for the built-in default.
    public var parameters: [NamedParameterValue] = []
    /// What the transition did: a switch, or a presented child's appearance
    /// (`from` the shown child, `to` the presented one) or disappearance
    /// (`from` the presented child, `to` the shown one).
    public var kind: TransitionKind = .switch
    /// How long the evaluations of the animator that finished the transition
    /// took on the monotonic clock; nil when it evaluated none.
    public var evaluation: EvaluationTiming?
}

/// The containment steps of a switch, in the order the container performs them.
public enum ContainerEvent: Equatable, Sendable {
    case willMoveToParent(child: String, parent: String?)
    case addChild(String)
    case transitionStarted(from: String, to: String, animator: String)
    case removeFromSuperview(String)
    case removeFromParent(String)
    case didMoveToParent(child: String, parent: String?)
    case animationEnded(animator: String, completed: Bool)
    case didSelect(String)
}
