import Timing

/// The transition context a container builds for each transition, as the
/// objc.io article's `PrivateTransitionContext`: the two children, the
/// container view, the direction, and the frame rules.
///
/// In a switch, with W the container's width and `travel = goingRight ? -W : +W`:
/// the from view goes from the bounds to the bounds moved by `travel`, and the
/// to view from the bounds moved by `-travel` to the bounds. A host whose
/// views have frames of their own (a window on its output) gives them
/// instead of the bounds, and they move the same way. In an appearance or a
/// disappearance nothing moves by itself: each view starts and ends at its own frame.
public final class TransitionContext {
    /// Which participant, for ``viewController(forKey:)``.
    public enum Key: Sendable { case from, to }
    /// Always `.custom`, as in the article.
    public enum PresentationStyle: Sendable { case custom }

    /// What the transition does. In an appearance `to` arrives over `from`,
    /// which stays; in a disappearance `from` leaves, revealing `to`.
    public let kind: TransitionKind
    /// The view the transition happens in: the from view's superview.
    public let containerView: View
    /// The child being left.
    public let fromViewController: ViewController
    /// The child being shown.
    public let toViewController: ViewController
    /// True when the target child comes after the current one.
    public let goingRight: Bool
    /// `.custom`.
    public let presentationStyle = PresentationStyle.custom
    /// Always true.
    public let isAnimated = true
    /// True when the transition was started interactively
    /// (``ContainerViewController/selectInteractively(named:)``).
    public let isInteractive: Bool
    /// Where the transition comes from (an appearance, a switch) or goes to
    /// (a disappearance: a minimize's task-bar entry), as far as the host
    /// knows; nothing unless it says.
    public var anchor = TransitionAnchor.none
    /// The kind of window that appears or disappears; normal for a switch.
    public var windowType = WindowType.normal
    /// Whether that window is modal.
    public var isModal = false

    private let disappearingFrom, disappearingTo, appearingFrom, appearingTo: Rect
    private let onComplete: (Bool) -> Void
    private var completed = false

    /// Builds the context for a transition of `kind` (a switch unless said)
    /// between two children of `containerView`.
    /// Containers build contexts; so may any other container that reuses an
    /// animator, which only ever concerns itself with the context.
    /// - Parameters:
    ///   - frames: the from view's frame before and the to view's after, in
    ///     the container's coordinates, when the views have frames of their
    ///     own; nil for the container rule (both the bounds).
    ///   - completion: runs once, on the first ``completeTransition(_:)``.
    /// - Precondition: the from view is loaded and in the container view.
    public init(kind: TransitionKind = .switch, from: ViewController, to: ViewController, containerView: View,
                goingRight: Bool, isInteractive: Bool = false, frames: (from: Rect, to: Rect)? = nil,
                completion: @escaping (Bool) -> Void) {
        precondition(from.view.superview === containerView, "the from view must be in the container view")
        self.kind = kind
        self.containerView = containerView
        self.fromViewController = from
        self.toViewController = to
        self.goingRight = goingRight
        self.isInteractive = isInteractive
        self.onComplete = completion
        let bounds = containerView.bounds
        let travel = kind != .switch ? 0 : goingRight ? -bounds.width : bounds.width
        disappearingFrom = frames?.from ?? bounds
        appearingTo = frames?.to ?? bounds
        disappearingTo = disappearingFrom.offsetBy(dx: travel, dy: 0)
        appearingFrom = appearingTo.offsetBy(dx: -travel, dy: 0)
    }

    /// The from or the to controller.
    public func viewController(forKey key: Key) -> ViewController {
        key == .from ? fromViewController : toViewController
    }

    /// Where a participating controller's view starts: `.zero` for any other controller.
    public func initialFrame(for vc: ViewController) -> Rect {
        if vc === fromViewController { return disappearingFrom }
        if vc === toViewController { return appearingFrom }
        return .zero
    }

    /// Where a participating controller's view ends: `.zero` for any other controller.
    public func finalFrame(for vc: ViewController) -> Rect {
        if vc === fromViewController { return disappearingTo }
        if vc === toViewController { return appearingTo }
        return .zero
    }

    /// The named elements of one side with their frames in container coordinates.
    public func elements(of side: TransitionSide) -> [(name: String, frame: Rect)] {
        let root = (side == .from ? fromViewController : toViewController).view
        return root.elements.map { element in
            (element.name ?? "", element.convert(element.bounds, to: containerView))
        }
    }

    /// True while the transition is heading back to its start: after a cancel
    /// or a reversal. A transition that ends this way reports `completed == false`.
    public internal(set) var transitionWasCancelled = false

    /// Where the container hears an interactive transition's calls; set by the container.
    var onInteraction: ((InteractionCommand) -> Void)?

    /// Scrubs an interactive transition to `percentComplete` (clamped to
    /// [0, 1]), as ``PercentDrivenInteraction/update(_:)``. A no-op for a
    /// non-interactive transition, as in the article, and after a release.
    public func updateInteractiveTransition(_ percentComplete: Double) {
        guard isInteractive, !percentComplete.isNaN else { return }
        onInteraction?(.update(min(max(percentComplete, 0), 1)))
    }
    /// Plays the rest of an interactive transition, as ``PercentDrivenInteraction/finish(velocity:)``.
    /// A no-op for a non-interactive transition.
    public func finishInteractiveTransition() {
        if isInteractive { onInteraction?(.release(target: 1, velocity: 0)) }
    }
    /// Plays an interactive transition back to its start, as ``PercentDrivenInteraction/cancel(velocity:)``.
    /// A no-op for a non-interactive transition.
    public func cancelInteractiveTransition() {
        if isInteractive { onInteraction?(.release(target: 0, velocity: 0)) }
    }

    /// Runs the container's completion. Only the first call has an effect: a
    /// transition completes exactly once.
    public func completeTransition(_ didComplete: Bool) {
        guard !completed else { return }
        completed = true
        onComplete(didComplete)
    }
}
