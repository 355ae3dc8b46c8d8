import Timing

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

    /// The animator for the appearance of `presented` over `beneath` (the
    /// shown child), or for its disappearance (`kind`), or none (with why)
    /// to let the container use its private default animator.
    func containerViewController(
        _ container: ContainerViewController,
        animationControllerFor kind: TransitionKind,
        of presented: ViewController,
        over beneath: ViewController
    ) -> AnimatorResolution
}

extension ContainerViewControllerDelegate {
    /// Does nothing by default.
    public func containerViewController(_ container: ContainerViewController, didSelect viewController: ViewController) {}

    /// Supplies no animator by default, so the container's default runs.
    public func containerViewController(
        _ container: ContainerViewController,
        animationControllerForTransitionFrom from: ViewController,
        to: ViewController
    ) -> AnimatorResolution {
        .useDefault(reason: "the delegate supplies no animator")
    }

    /// Supplies no animator by default, so the container's default runs.
    public func containerViewController(
        _ container: ContainerViewController,
        animationControllerFor kind: TransitionKind,
        of presented: ViewController,
        over beneath: ViewController
    ) -> AnimatorResolution {
        .useDefault(reason: "the delegate supplies no animator")
    }
}

/// A delegate's answer: an animator and why it was chosen, or why there is none.
public struct AnimatorResolution {
    /// The animator, or nil for the container's built-in default.
    public var animator: (any TransitionAnimator)?
    /// For reports: which rule chose it, or why none did.
    public var reason: String
    /// For reports: the parameter values `animator` runs with, in its order,
    /// defaults filled in; empty for the built-in default.
    public var parameters: [NamedParameterValue] = []
    /// True when the delegate chose an animator that cannot run (unknown, one
    /// that cannot play the transition's kind, or a parameter that does not
    /// fit) and answers with the default instead.
    public var fellBack = false

    /// An answer with `animator` (nil: the default) and why.
    public init(animator: (any TransitionAnimator)?, reason: String) {
        self.animator = animator
        self.reason = reason
    }

    /// Use `animator`, chosen for `reason`, with `parameters` (for reports).
    public static func use(_ animator: any TransitionAnimator, reason: String,
                           parameters: [NamedParameterValue] = []) -> AnimatorResolution {
        var resolution = AnimatorResolution(animator: animator, reason: reason)
        resolution.parameters = parameters
        return resolution
    }

    /// Use the built-in default, because of `reason`.
    public static func useDefault(reason: String) -> AnimatorResolution {
        AnimatorResolution(animator: nil, reason: reason)
    }

    /// Use the built-in default instead of the animator that was chosen,
    /// which cannot run because of `reason`: the report says it fell back.
    public static func fallBack(reason: String) -> AnimatorResolution {
        var resolution = AnimatorResolution(animator: nil, reason: reason)
        resolution.fellBack = true
        return resolution
    }
}

/// A parameter's name and the value an animator runs with, as a config would write it.
public struct NamedParameterValue: Equatable, Sendable {
    public var name: String
    public var value: ParameterValue

    public init(name: String, value: ParameterValue) {
        (self.name, self.value) = (name, value)
    }
}
