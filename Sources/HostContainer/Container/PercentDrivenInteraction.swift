import Timing

/// Drives one interactive transition by the fraction of its way done, as UIKit's
/// `UIPercentDrivenInteractiveTransition`. Works with every animator, plugin or
/// built-in, because the container evaluates the animator at the time the
/// fraction names.
///
/// Get one from ``ContainerViewController/selectInteractively(named:)`` or
/// ``ContainerViewController/selectInteractively(index:)``. While it holds the
/// transition, ``update(_:)`` scrubs (linearly in time); ``finish(velocity:)``
/// plays the rest, ``cancel(velocity:)`` plays back to the start. After either,
/// or once the transition has ended, every call is a no-op.
///
/// Not thread-safe: use it on the thread that drives the container. It holds
/// its container weakly.
public final class PercentDrivenInteraction {
    /// How fast the rest plays after a release: the finishing part takes
    /// `(1 - percentComplete) * duration / completionSpeed` seconds, cancelling
    /// `percentComplete * duration / completionSpeed`. 1 by default; values of
    /// 0 or less, or not finite, count as 1.
    public var completionSpeed: Double = 1
    /// The curve the rest plays on after a release; easeInOut by default.
    public var completionCurve: TimingCurve = .easeInEaseOut

    weak var container: ContainerViewController?
    let context: TransitionContext

    init(container: ContainerViewController, context: TransitionContext) {
        self.container = container
        self.context = context
    }

    /// The fraction last set with ``update(_:)`` while active, in [0, 1].
    public private(set) var percentComplete = 0.0

    /// True while the interaction holds the transition: not yet released, and
    /// the transition has not ended.
    public var isActive: Bool { container?.isHeld(context) ?? false }

    /// Moves the transition to `fraction` (clamped to [0, 1]; NaN is ignored)
    /// and shows it at once.
    public func update(_ fraction: Double) {
        guard !fraction.isNaN, isActive else { return }
        percentComplete = min(max(fraction, 0), 1)
        container?.interact(context, .update(percentComplete))
    }

    /// Plays the rest of the transition to its end; it then completes.
    /// - Parameter velocity: the release speed in fractions of the transition
    ///   per second towards the end; when it is faster than the completion
    ///   speed would be, the rest plays linearly at that pace instead.
    public func finish(velocity: Double = 0) {
        container?.interact(context, .release(target: 1, velocity: velocity))
    }

    /// Plays the transition back to its start; it then ends with `completed ==
    /// false`, the from child shown exactly as before and the to child out.
    /// - Parameter velocity: the release speed in fractions per second towards
    ///   the start (a positive number), as for ``finish(velocity:)``.
    public func cancel(velocity: Double = 0) {
        container?.interact(context, .release(target: 0, velocity: velocity))
    }

    /// The playhead a release starts from `fraction` towards `target`.
    func releasePlayhead(target: Double, velocity: Double, from fraction: Double, at now: Double,
                         duration: Double) -> Playhead {
        let speed = completionSpeed > 0 && completionSpeed.isFinite ? completionSpeed : 1
        let paced = Playhead.heading(to: target, from: fraction, at: now, duration: duration,
                                     speed: speed, curve: completionCurve)
        let flick = abs(velocity)
        guard flick.isFinite, flick > 0, case .moving(_, _, _, let seconds, _) = paced,
              abs(target - fraction) / flick < seconds else { return paced }
        return .moving(origin: fraction, target: target, start: now, seconds: abs(target - fraction) / flick, curve: .linear)
    }
}

/// What an interaction asks of its container.
enum InteractionCommand {
    case update(Double)
    case release(target: Double, velocity: Double)
}

/// The edge-pan rule of an interactive way back (a drag from the left edge), ready to drive an
/// interaction from a gesture: progress is `translation / width`, clamped to
/// 0...1; on release the transition finishes when progress > 0.5 and cancels
/// otherwise, unless the pan was a flick: a release faster than
/// ``flickVelocity`` forwards finishes below 0.5, and one faster than it
/// backwards cancels above it.
public struct EdgePanGesture: Sendable {
    /// The release speed, in container widths per second, beyond which a flick
    /// decides the outcome regardless of progress: 1.0 (a 390-point container
    /// flicked at 390 points per second).
    public static let flickVelocity = 1.0
    /// The progress beyond which a release without a flick finishes: 0.5.
    public static let finishThreshold = 0.5

    /// The width the pan's translation is measured against: the container's.
    public var width: Double

    /// A rule for a container `width` points wide.
    public init(width: Double) { self.width = width }

    /// `translation / width`, clamped to 0...1 (0 for a width of 0 or less).
    public func progress(translation: Double) -> Double {
        guard width > 0, !translation.isNaN else { return 0 }
        return min(max(translation / width, 0), 1)
    }

    /// Whether a release at `translation` moving at `velocity` (points per
    /// second, positive in the finishing direction) finishes the transition.
    public func finishes(translation: Double, velocity: Double) -> Bool {
        let flick = width > 0 && velocity.isFinite ? velocity / width : 0
        if flick > Self.flickVelocity { return true }
        if flick < -Self.flickVelocity { return false }
        return progress(translation: translation) > Self.finishThreshold
    }

    /// Releases `interaction` by this rule: finishes or cancels it, carrying the
    /// pan's speed (converted to fractions per second) into the rest.
    public func release(_ interaction: PercentDrivenInteraction, translation: Double, velocity: Double) {
        let perSecond = width > 0 && velocity.isFinite ? velocity / width : 0
        if finishes(translation: translation, velocity: velocity) {
            interaction.finish(velocity: max(perSecond, 0))
        } else {
            interaction.cancel(velocity: max(-perSecond, 0))
        }
    }
}
