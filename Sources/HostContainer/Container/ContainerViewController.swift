/// A container view controller that shows one of its children at a time and
/// switches between them with animated transitions, as in the objc.io article
/// "Custom Container View Controller Transitions", stage 3.
///
/// - The first child is shown without animation when the container is made.
/// - Selecting the shown child does nothing.
/// - A switch calls `from.willMove(toParent: nil)` and `addChild(to)`, runs the
///   transition, then `from.view.removeFromSuperview()`,
///   `from.removeFromParent()`, `to.didMove(toParent: self)`, the animator's
///   `animationEnded`, and the delegate's `didSelect`.
/// - The delegate supplies the animator; when it supplies none, the animator
///   declines, plans something unusable or produces non-finite values, the
///   private default animator runs, and the report says why.
///
/// Transitions run on the embedder's clock: call ``tick()`` once per frame.
/// A selection asked for while a transition runs is kept and started when the
/// transition ends; several such requests coalesce to the last.
/// Not thread-safe: drive a container from one thread.
open class ContainerViewController: ViewController {
    /// The children, in order.
    public let viewControllers: [ViewController]
    /// The child shown, or the one being left while a transition runs.
    public private(set) var selectedViewController: ViewController?
    /// Supplies animators and hears selections. Held weakly, as in UIKit.
    public weak var delegate: (any ContainerViewControllerDelegate)?
    /// The clock ``tick()`` reads; owned by the embedder.
    public let clock: any TransitionClock
    /// Hears every containment step, in order.
    public var onEvent: ((ContainerEvent) -> Void)?
    /// Hears the report of every transition when it ends.
    public var onTransitionEnd: ((TransitionReport) -> Void)?

    private var active: ActiveTransition?
    private var pendingSelection: ViewController?
    /// True while a switch is being set up or completed and calls out (the
    /// delegate, the animator, observers): a selection made from there waits
    /// until the container is consistent again.
    private var isSwitching = false

    /// Makes a container of `size` showing `viewControllers[0]` without animation.
    public init(name: String = "container", viewControllers: [ViewController], size: Rect, clock: any TransitionClock) {
        self.viewControllers = viewControllers
        self.clock = clock
        super.init(name: name, view: View(name: nil, frame: size.bounds))
        if let first = viewControllers.first { showWithoutAnimation(first) }
    }

    /// The built-in default animator, for embedders that want to run it explicitly.
    public static func makeDefaultAnimator() -> any TransitionAnimator { PrivateAnimatedTransition() }

    /// Whether a transition is running.
    public var isTransitioning: Bool { active != nil }

    /// The index of the shown (or being left) child.
    public var selectedIndex: Int? {
        selectedViewController.flatMap { s in viewControllers.firstIndex { $0 === s } }
    }

    /// Selects the child at `index`, clamped to `0...count-1` as seed-000's swipes are.
    public func select(index: Int) {
        guard !viewControllers.isEmpty else { return }
        select(viewControllers[min(max(index, 0), viewControllers.count - 1)])
    }

    /// Selects the child called `name`.
    /// - Throws: ``SelectionError/unknownChild(_:available:)`` when there is none.
    public func select(named name: String) throws(SelectionError) {
        guard let vc = viewControllers.first(where: { $0.name == name }) else {
            throw .unknownChild(name, available: viewControllers.map(\.name))
        }
        select(vc)
    }

    private func select(_ target: ViewController) {
        if active != nil || isSwitching {
            pendingSelection = target
            return
        }
        guard let from = selectedViewController, target !== from else { return }
        startTransition(from: from, to: target)
    }

    /// Advances the running transition to the clock's time, applying the
    /// animator's layer states, and completes it when its duration has passed.
    /// Does nothing when idle.
    public func tick() {
        guard let transition = active else { return }
        let t = clock.now - transition.startTime
        // Within a nanosecond of the end is the end: frame times summed in
        // floating point land a hair short of it.
        if t >= transition.duration - 1e-9 {
            transition.apply(at: transition.duration)
            if transition.failure != nil { fallBackToDefault(transition, progress: 1) }
            active?.context.completeTransition(true)
        } else {
            transition.apply(at: max(t, 0))
            if transition.failure != nil { fallBackToDefault(transition, progress: t / transition.duration) }
        }
    }

    /// Drives transitions on a virtual clock until the container is idle,
    /// pending selections included.
    /// - Returns: the number of frames ticked.
    @discardableResult
    public func runUntilIdle(advancing clock: VirtualClock, frameInterval: Double = 1.0 / 60.0) -> Int {
        var frames = 0
        let origin = clock.now
        while isTransitioning {
            frames += 1
            clock.advance(to: origin + Double(frames) * frameInterval)
            tick()
        }
        return frames
    }

    // MARK: - Switching

    private func showWithoutAnimation(_ child: ViewController) {
        addChild(child)
        emit(.addChild(child.name))
        child.view.frame = view.bounds
        view.addSubview(child.view)
        child.didMove(toParent: self)
        emit(.didMoveToParent(child: child.name, parent: name))
        selectedViewController = child
    }

    private func startTransition(from: ViewController, to: ViewController) {
        isSwitching = true
        defer { isSwitching = false }
        let fromIndex = viewControllers.firstIndex { $0 === from }!
        let toIndex = viewControllers.firstIndex { $0 === to }!
        from.willMove(toParent: nil)
        emit(.willMoveToParent(child: from.name, parent: nil))
        addChild(to)
        emit(.addChild(to.name))
        to.view.frame = view.bounds

        let context = TransitionContext(
            from: from, to: to, containerView: view, goingRight: toIndex > fromIndex
        ) { [unowned self] completed in self.finishTransition(completed: completed) }

        let resolution = delegate?.containerViewController(self, animationControllerForTransitionFrom: from, to: to)
            ?? .useDefault(reason: "no delegate")
        let running: ActiveTransition
        switch resolution.animator.map({ ActiveTransition.begin($0, context: context, startTime: clock.now) }) {
        case .success(let t)?:
            running = t
            running.reason = resolution.reason
        case .failure(let why)?:
            running = beginDefault(context, startTime: clock.now)
            running.reason = "\(why); the built-in default ran instead"
        case nil:
            running = beginDefault(context, startTime: clock.now)
            running.reason = resolution.reason
        }
        active = running
        emit(.transitionStarted(from: from.name, to: to.name, animator: running.animator.name))
        tick()
    }

    /// Hands a transition whose animator produced non-finite values to the default
    /// animator, at the same fraction of progress.
    private func fallBackToDefault(_ failed: ActiveTransition, progress: Double) {
        let why = failed.failure ?? "it failed"
        failed.tearDown()
        failed.animator.animationEnded(false)
        let elapsed = min(max(progress, 0), 1) * PrivateAnimatedTransition.transitionDuration
        let replacement = beginDefault(failed.context, startTime: clock.now - elapsed)
        replacement.reason = "\(failed.animator.name) \(why); the built-in default finished the transition"
        replacement.frames = failed.frames
        active = replacement
        replacement.apply(at: min(elapsed, replacement.duration))
    }

    private func beginDefault(_ context: TransitionContext, startTime: Double) -> ActiveTransition {
        guard case .success(let transition) = ActiveTransition.begin(
            PrivateAnimatedTransition(), context: context, startTime: startTime) else {
            fatalError("the built-in default animator always plans a usable transition")
        }
        return transition
    }

    private func finishTransition(completed: Bool) {
        guard let transition = active else { return }
        isSwitching = true
        let context = transition.context
        let from = context.fromViewController, to = context.toViewController
        transition.tearDown()
        to.view.frame = context.finalFrame(for: to)

        from.view.removeFromSuperview()
        emit(.removeFromSuperview(from.name))
        from.removeFromParent()
        emit(.removeFromParent(from.name))
        to.didMove(toParent: self)
        emit(.didMoveToParent(child: to.name, parent: name))
        active = nil
        selectedViewController = to
        transition.animator.animationEnded(completed)
        emit(.animationEnded(animator: transition.animator.name, completed: completed))
        delegate?.containerViewController(self, didSelect: to)
        emit(.didSelect(to.name))
        onTransitionEnd?(TransitionReport(
            from: from.name, to: to.name, animator: transition.animator.name, source: transition.animator.source,
            reason: transition.reason, duration: transition.duration, frames: transition.frames,
            completed: completed))
        isSwitching = false

        if let next = pendingSelection {
            pendingSelection = nil
            select(next)
        }
    }

    private func emit(_ event: ContainerEvent) { onEvent?(event) }
}

/// Why a selection could not be made.
public enum SelectionError: Error, Equatable, CustomStringConvertible {
    case unknownChild(String, available: [String])

    /// The error in words, naming the children there are.
    public var description: String {
        switch self {
        case .unknownChild(let name, let available):
            "no child named '\(name)'; the children are \(available.map { "'\($0)'" }.joined(separator: ", "))"
        }
    }
}
