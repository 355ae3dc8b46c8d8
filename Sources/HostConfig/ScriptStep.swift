/// One step of a config's script: select a child, on its own or
/// interactively, or present a window over the shown child, or dismiss it.
///
/// In JSON a step is a child's name, or an object:
/// ```json
/// {"select": "detail", "interactive": [0.2, 0.45, 0.3], "release": "cancel"}
/// {"select": "b", "interactive": [0.1, 0.3], "release": "finish", "velocity": 2.5}
/// {"present": "calculator"}
/// {"dismiss": "calculator"}
/// ```
/// `interactive` lists the fractions an interaction scrubs to, one per frame;
/// `release` is `finish`, `cancel` or `gesture` (the edge-pan rule,
/// ``EdgePanGesture``; the default); `velocity` is the pan's speed at release
/// in container widths per second, positive towards finishing (0 by default).
public struct ScriptStep: Equatable, Sendable, ExpressibleByStringLiteral {
    /// How an interactive step lets go.
    public enum Release: String, Equatable, Sendable, CaseIterable {
        /// Play the rest to the end.
        case finish
        /// Play back to the start: the transition ends not completed.
        case cancel
        /// Decide by ``EdgePanGesture``: progress over 0.5 or a forward flick finishes.
        case gesture
    }

    /// What the step does.
    public enum Action: Equatable, Sendable {
        /// Selects ``ScriptStep/child``.
        case select
        /// Presents the window ``ScriptStep/child`` over the shown child (an appearance).
        case present
        /// Dismisses the window ``ScriptStep/child`` (a disappearance).
        case dismiss
    }

    /// What the step does: a selection unless said.
    public var action = Action.select
    /// The child to select, or the window to present or dismiss.
    public var child: String
    /// The fractions to scrub to, one per frame; nil for a transition that runs on its own.
    public var interactive: [Double]?
    /// How an interactive step lets go.
    public var release: Release
    /// The release speed in container widths per second, positive towards finishing.
    public var velocity: Double

    /// A step selecting `child`, interactively when `interactive` is given.
    public init(child: String, interactive: [Double]? = nil, release: Release = .gesture, velocity: Double = 0) {
        self.child = child
        self.interactive = interactive
        self.release = release
        self.velocity = velocity
    }

    /// A plain selection of the child called `value`.
    public init(stringLiteral value: String) { self.init(child: value) }
}
