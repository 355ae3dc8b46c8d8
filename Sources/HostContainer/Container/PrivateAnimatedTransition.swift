/// The container's private default animator (the objc.io article's
/// `PrivateAnimatedTransition`): the to view slides in from one side and fades
/// in while the from view slides out the other side and fades out, on a spring.
///
/// It reads the frames only for the direction, so frames that carry no
/// direction always slide the same way, as in the article.
final class PrivateAnimatedTransition: TransitionAnimator {
    static let childPadding = 16.0
    static let damping = 0.75
    static let initialSpringVelocity = 0.5
    static let transitionDuration = 1.0

    let name = "default"
    let source = AnimatorSource.builtin

    private let spring = Spring(
        duration: transitionDuration, dampingRatio: damping, initialVelocity: initialSpringVelocity)!
    /// The from view's x translation at the end; the to view starts at its inverse.
    private var travel = 0.0

    func setup(_ context: TransitionContext) -> AnimatorSetup {
        let to = context.toViewController
        let goingRight = context.initialFrame(for: to).x < context.finalFrame(for: to).x
        let travelDistance = context.containerView.bounds.width + Self.childPadding
        travel = goingRight ? travelDistance : -travelDistance
        return .animate(TransitionPlan(
            duration: Self.transitionDuration, layers: [LayerRequest(.view(.from)), LayerRequest(.view(.to))]))
    }

    func evaluate(at t: Double, layers: LayerStates) {
        let p = spring.value(at: t)
        layers[0].transform = .translation(travel * p, 0)
        layers[0].alpha = 1 - p
        layers[1].transform = .translation(-travel * (1 - p), 0)
        layers[1].alpha = p
    }

    func animationEnded(_ completed: Bool) {}
}
