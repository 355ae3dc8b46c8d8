import Foundation

import HostContainer
import Timing

/// An animator made of closures: by default it animates the from and to
/// views over `duration` and shows `t / duration` as the to view's alpha, so
/// progress is readable from the view. It records its context and its ends.
public final class StandInAnimator: TransitionAnimator {
    public let name: String
    public let source = AnimatorSource.application
    public let duration: Double
    public let kinds: TransitionKinds
    public private(set) var context: TransitionContext?
    /// Every t evaluated, in order.
    public private(set) var times: [Double] = []
    public private(set) var ended: [Bool] = []
    private let plan: (TransitionContext) -> AnimatorSetup
    private let frame: (Double, LayerStates) -> Void

    /// `plan` (else two view layers over `duration`) and `evaluate` (else the to view's alpha as progress).
    public init(_ name: String = "Probe", duration: Double = 1, kinds: TransitionKinds = .switches,
                plan: ((TransitionContext) -> AnimatorSetup)? = nil, evaluate: ((Double, LayerStates) -> Void)? = nil) {
        self.name = name
        self.duration = duration
        self.kinds = kinds
        self.plan = plan ?? { _ in .animate(TransitionPlan(duration: duration, layers: [LayerRequest(.view(.from)), LayerRequest(.view(.to))])) }
        self.frame = evaluate ?? { t, layers in layers[1].alpha = t / duration }
    }

    public func setup(_ context: TransitionContext) -> AnimatorSetup {
        self.context = context
        return plan(context)
    }
    public func evaluate(at t: Double, layers: LayerStates) {
        times.append(t)
        frame(t, layers)
    }
    public func animationEnded(_ completed: Bool) { ended.append(completed) }
}

/// A delegate that answers every switch with `choose` and records the
/// children it heard were selected.
public final class StandInDelegate: ContainerViewControllerDelegate {
    private let choose: (ContainerViewController, ViewController, ViewController) -> AnimatorResolution
    public private(set) var selected: [String] = []

    public init(_ choose: @escaping (_ container: ContainerViewController, _ from: ViewController, _ to: ViewController) -> AnimatorResolution) {
        self.choose = choose
    }

    /// Uses `animator` for every switch, and for every appearance and disappearance.
    public convenience init(using animator: any TransitionAnimator, reason: String = "stand-in") {
        self.init { _, _, _ in .use(animator, reason: reason) }
        presenting = { _, _ in .use(animator, reason: reason) }
    }

    /// Answers appearances and disappearances; the container's default when nil.
    public var presenting: ((TransitionKind, ViewController) -> AnimatorResolution)?

    public func containerViewController(_ c: ContainerViewController, animationControllerFor kind: TransitionKind,
                                        of presented: ViewController, over beneath: ViewController) -> AnimatorResolution {
        presenting?(kind, presented) ?? .useDefault(reason: "no stand-in for presentations")
    }

    public func containerViewController(_ c: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                        to: ViewController) -> AnimatorResolution {
        choose(c, from, to)
    }
    public func containerViewController(_ c: ContainerViewController, didSelect vc: ViewController) { selected.append(vc.name) }
}
