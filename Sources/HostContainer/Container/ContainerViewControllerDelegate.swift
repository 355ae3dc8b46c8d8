/// The container's delegate: it supplies animators and hears about selections,
/// as UIKit's `UITabBarControllerDelegate` does for tab bar controllers.
public protocol ContainerViewControllerDelegate: AnyObject {
    /// Called after a transition completed and `viewController` is shown.
    func containerViewController(_ container: ContainerViewController, didSelect viewController: ViewController)

    /// The animator for a switch between two children, or none (with why) to
    /// let the container use its private default animator.
    func containerViewController(
        _ container: ContainerViewController,
        animationControllerForTransitionFrom from: ViewController,
        to: ViewController
    ) -> AnimatorResolution
}

extension ContainerViewControllerDelegate {
    public func containerViewController(_ container: ContainerViewController, didSelect viewController: ViewController) {}

    public func containerViewController(
        _ container: ContainerViewController,
        animationControllerForTransitionFrom from: ViewController,
        to: ViewController
    ) -> AnimatorResolution {
        .useDefault(reason: "the delegate supplies no animator")
    }
}

/// A delegate's answer: an animator and why it was chosen, or why there is none.
public struct AnimatorResolution {
    public var animator: (any TransitionAnimator)?
    /// For reports: which rule chose it, or why none did.
    public var reason: String

    public init(animator: (any TransitionAnimator)?, reason: String) {
        self.animator = animator
        self.reason = reason
    }

    public static func use(_ animator: any TransitionAnimator, reason: String) -> AnimatorResolution {
        AnimatorResolution(animator: animator, reason: reason)
    }

    public static func useDefault(reason: String) -> AnimatorResolution {
        AnimatorResolution(animator: nil, reason: reason)
    }
}
