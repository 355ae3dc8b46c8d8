import Timing

/// A container view controller that shows one of its children at a time and
/// switches between them with animated transitions, as in the objc.io article
/// "Custom Container View Controller Transitions", stage 3, with the article's
/// "exercise" done: interactive, cancellable and interruptible transitions.
///
/// - The first child is shown without animation when the container is made.
/// - Selecting the shown child does nothing.
/// - A switch calls `from.willMove(toParent: nil)` and `addChild(to)`, runs the
///   transition, then `from.view.removeFromSuperview()`,
///   `from.removeFromParent()`, `to.didMove(toParent: self)`, the animator's
///   `animationEnded(true)`, and the delegate's `didSelect`.
/// - A cancelled or reversed switch ends instead with
///   `to.view.removeFromSuperview()`, `to.removeFromParent()` (so `to` hears
///   `didMove(toParent: nil)`), `from.didMove(toParent: self)` and
///   `animationEnded(false)`; the delegate's `didSelect` is not called. Every
///   `willMove` a child heard is answered by one `didMove` naming where it ended up.
/// - The delegate supplies the animator; when it supplies none, the animator
///   declines, plans something unusable or produces non-finite values, the
///   private default animator runs, and the report says why.
///
/// Presentation (UIKit's, over the current context): ``present(_:frame:)``
/// adds a child over the shown one with an appearance, and
/// ``dismissPresented()`` takes it away with a disappearance, the shown child
/// staying where it is beneath. An appearance calls `addChild(presented)`,
/// runs, then `presented.didMove(toParent: self)`; a disappearance calls
/// `presented.willMove(toParent: nil)`, runs, then removes its view and
/// `removeFromParent()`. Cancelled, each puts back what it began with. A
/// switch while a child is presented happens beneath it.
///
/// Interruptions: a selection is never lost. Asked for while a transition
/// runs on its own, selecting the child it is leaving reverses it, selecting
/// the child it is heading to keeps (or restores) that course, and selecting
/// any other child hurries the running transition to its end (in at most
/// ``hurryDuration``) and then runs the new switch. While an interaction
/// holds a transition, selections wait for its release. A burst of requests
/// coalesces to the last.
///
/// Transitions run on the embedder's clock: call ``tick()`` once per frame.
/// Not thread-safe: drive a container from one thread.
open class ContainerViewController: ViewController {
    /// The children, in order.
    public let viewControllers: [ViewController]
    /// The child shown, or the one being left while a transition runs.
    public private(set) var selectedViewController: ViewController?
    /// The child presented over the shown one: set when its appearance
    /// completes, cleared when its disappearance does.
    public internal(set) var presentedViewController: ViewController?
    /// Supplies animators and hears selections. Held weakly, as in UIKit.
    public weak var delegate: (any ContainerViewControllerDelegate)?
    /// The clock ``tick()`` reads; owned by the embedder.
    public let clock: any TransitionClock
    /// Hears every containment step, in order.
    public var onEvent: ((ContainerEvent) -> Void)?
    /// Hears the report of every transition when it ends.
    public var onTransitionEnd: ((TransitionReport) -> Void)?

    /// The longest a running transition takes to finish once a selection of
    /// another child interrupts it: 0.15 s.
    public static let hurryDuration = 0.15

    var active: ActiveTransition?
    /// The interaction holding or releasing the active transition, kept here
    /// so that a transition never freezes because its driver was dropped.
    private var interaction: PercentDrivenInteraction?
    private var pendingSelection: ViewController?
    /// Presentations and dismissals asked for while a transition ran, in order.
    var pendingPresentations: [PresentationRequest] = []
    /// Where presentations come from and dismissals go to, as far as the
    /// host knows (ABI 1.4's anchor: a launcher or task-bar entry, the
    /// pointer), handed to every appearance's and disappearance's animator.
    public var presentationAnchor = TransitionAnchor.none

    enum PresentationRequest {
        case present(ViewController, frame: Rect?)
        case dismiss
    }
    /// True while a switch is being set up or completed and calls out (the
    /// delegate, the animator, observers): a selection made from there waits
    /// until the container is consistent again.
    var isSwitching = false

    /// Makes a container of `size` showing `viewControllers[0]` without animation.
    public init(name: String = "container", viewControllers: [ViewController], size: Rect, clock: any TransitionClock) {
        self.viewControllers = viewControllers
        self.clock = clock
        super.init(name: name, view: View(name: nil, frame: size.bounds))
        if let first = viewControllers.first { showWithoutAnimation(first) }
    }

    /// Whether a transition is running.
    public var isTransitioning: Bool { active != nil }

    /// The running transition's duration in seconds, as its animator planned it; nil when idle.
    public var transitionDuration: Double? { active?.duration }

    /// Whether an interaction holds the running transition (not yet released).
    public var isInteracting: Bool { active.map { $0.playhead.target == nil } ?? false }

    /// Whether the running transition is heading back to the child it left.
    /// Setting it reverses a transition mid-flight, as
    /// `UIViewPropertyAnimator.isReversed`, for every animator; it is ignored
    /// when idle or while an interaction holds the transition.
    public var isReversed: Bool {
        get { active?.playhead.target == 0 }
        set {
            guard let running = active, let target = running.playhead.target, target != (newValue ? 0 : 1) else { return }
            steer(running, toward: newValue ? 0 : 1)
        }
    }

    /// The index of the shown (or being left) child.
    public var selectedIndex: Int? {
        selectedViewController.flatMap { s in viewControllers.firstIndex { $0 === s } }
    }

    /// Selects the child at `index`, clamped to `0...count-1`, as swipes past either end are.
    public func select(index: Int) {
        guard let target = child(at: index) else { return }
        select(target)
    }

    /// Selects the child called `name`.
    /// - Throws: ``SelectionError/unknownChild(_:available:)`` when there is none.
    public func select(named name: String) throws(SelectionError) {
        select(try child(named: name))
    }

    /// Starts an interactive switch to the child at `index` (clamped), held at
    /// 0 until the returned interaction moves it.
    ///
    /// A transition already running on its own is first brought to its end at
    /// once, so the gesture starts from a child at rest and is never lost.
    /// - Returns: the interaction, or nil when no switch started: the child is
    ///   already shown, or another interaction holds a transition (the
    ///   selection then waits for its release), or the container is busy
    ///   calling out (the selection then runs on its own when it can).
    @discardableResult
    public func selectInteractively(index: Int) -> PercentDrivenInteraction? {
        child(at: index).flatMap(selectInteractively)
    }

    /// Starts an interactive switch to the child called `name`; see ``selectInteractively(index:)``.
    /// - Throws: ``SelectionError/unknownChild(_:available:)`` when there is none.
    @discardableResult
    public func selectInteractively(named name: String) throws(SelectionError) -> PercentDrivenInteraction? {
        selectInteractively(try child(named: name))
    }

    private func child(at index: Int) -> ViewController? {
        viewControllers.isEmpty ? nil : viewControllers[min(max(index, 0), viewControllers.count - 1)]
    }

    private func child(named name: String) throws(SelectionError) -> ViewController {
        guard let vc = viewControllers.first(where: { $0.name == name }) else {
            throw .unknownChild(name, available: viewControllers.map(\.name))
        }
        return vc
    }

    private func select(_ target: ViewController) {
        if isSwitching {
            pendingSelection = target
        } else if let running = active {
            retarget(running, to: target)
        } else if let from = selectedViewController, target !== from {
            startTransition(from: from, to: target, interactive: false)
        }
    }

    /// The interruption policy: reverse or resume towards a child the running
    /// transition joins, hurry it for any other, wait while an interaction holds it.
    private func retarget(_ running: ActiveTransition, to target: ViewController) {
        guard running.playhead.target != nil else {
            pendingSelection = target
            return
        }
        let context = running.request
        if context.kind != .switch {
            // A presentation or a dismissal: the selection happens beneath, after it.
            if target !== selectedViewController || pendingSelection != nil {
                pendingSelection = target
                steer(running, toward: running.playhead.target!, within: Self.hurryDuration)
            }
            return
        }
        if target === context.toViewController || target === context.fromViewController {
            pendingSelection = nil
            let end = target === context.toViewController ? 1.0 : 0.0
            if running.playhead.target != end { steer(running, toward: end) }
        } else {
            pendingSelection = target
            steer(running, toward: running.playhead.target!, within: Self.hurryDuration)
        }
    }

    /// Sends a transition towards `end` (1: the to child, 0: back) from where
    /// it is now, linearly at its animator's own pace, in at most `limit` seconds.
    func steer(_ running: ActiveTransition, toward end: Double, within limit: Double = .infinity) {
        let now = clock.now
        running.playhead = .heading(to: end, from: running.playhead.fraction(at: now), at: now,
                                    duration: running.duration, limit: limit)
    }

    private func selectInteractively(_ target: ViewController) -> PercentDrivenInteraction? {
        if isSwitching || isInteracting {
            pendingSelection = target
            return nil
        }
        if let running = active {
            // Bring it to where it was heading now, so the gesture starts at rest.
            pendingSelection = nil
            steer(running, toward: running.playhead.target!, within: 0)
            tick()
            if active != nil { return nil }
        }
        guard let from = selectedViewController, target !== from else { return nil }
        startTransition(from: from, to: target, interactive: true)
        return interaction
    }

    /// Advances the running transition to the clock's time, applying the
    /// animator's layer states, and completes it when it has reached either
    /// end: its duration (completed) or, after a cancel or a reversal, its
    /// start (not completed). Does nothing when idle.
    public func tick() {
        guard let running = active else { return }
        let now = clock.now
        let fraction = running.playhead.fraction(at: now)
        running.apply(at: fraction * running.duration)
        if running.failure != nil { fallBackToDefault(running, fraction: fraction) }
        if let current = active, current.playhead.arrived(at: now) {
            current.request.completeTransition(current.playhead.target == 1)
        }
    }

    /// Drives transitions on a virtual clock until the container is idle,
    /// pending selections included, or an interaction holds a transition.
    /// - Returns: the number of frames ticked.
    @discardableResult
    public func runUntilIdle(advancing clock: VirtualClock, frameInterval: Double = 1.0 / 60.0) -> Int {
        var frames = 0
        let origin = clock.now
        while isTransitioning && !isInteracting {
            frames += 1
            clock.advance(to: origin + Double(frames) * frameInterval)
            tick()
        }
        return frames
    }

    // MARK: - Interaction

    /// Carries out an interaction's command, when `context` is the running
    /// transition's and an interaction holds it; otherwise does nothing.
    func interact(_ context: TransitionContext, _ command: InteractionCommand) {
        guard isHeld(context), let running = active, let interaction else { return }
        let now = clock.now
        switch command {
        case .update(let fraction):
            running.playhead = .held(fraction)
        case .release(let target, let velocity):
            running.playhead = interaction.releasePlayhead(
                target: target, velocity: velocity, from: running.playhead.fraction(at: now), at: now,
                duration: running.duration)
        }
        tick()
    }

    /// Whether an interaction holds the transition of `context`.
    func isHeld(_ context: TransitionContext) -> Bool { active?.request === context && isInteracting }

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

    private func startTransition(from: ViewController, to: ViewController, interactive: Bool) {
        isSwitching = true
        defer { isSwitching = false }
        let fromIndex = viewControllers.firstIndex { $0 === from }!
        let toIndex = viewControllers.firstIndex { $0 === to }!
        from.willMove(toParent: nil)
        emit(.willMoveToParent(child: from.name, parent: nil))
        addChild(to)
        emit(.addChild(to.name))
        to.view.frame = view.bounds
        if let presented = presentedViewController { view.insertSubview(to.view, below: presented.view) }

        let context = TransitionContext(
            from: from, to: to, containerView: view, goingRight: toIndex > fromIndex, isInteractive: interactive
        ) { [unowned self] completed in self.finishTransition(completed: completed) }
        let resolution = delegate?.containerViewController(self, animationControllerForTransitionFrom: from, to: to)
            ?? .useDefault(reason: "no delegate")
        begin(context, resolution, interactive: interactive)
    }

    /// Starts the appearance of `presented` over the shown child, or its disappearance.
    func startPresentation(_ kind: TransitionKind, of presented: ViewController, frame: Rect?) {
        isSwitching = true
        defer { isSwitching = false }
        let beneath = selectedViewController!
        if kind == .appear {
            addChild(presented)
            emit(.addChild(presented.name))
            presented.view.frame = frame ?? view.bounds
            view.addSubview(presented.view)
        } else {
            presented.willMove(toParent: nil)
            emit(.willMoveToParent(child: presented.name, parent: nil))
        }
        let (from, to) = kind.sides(presented: presented, beneath: beneath)
        let context = TransitionContext(
            kind: kind, from: from, to: to, containerView: view, goingRight: true,
            frames: (from.view.frame, to.view.frame)
        ) { [unowned self] completed in self.finishTransition(completed: completed) }
        context.anchor = presentationAnchor
        let resolution = delegate?.containerViewController(self, animationControllerFor: kind, of: presented, over: beneath)
            ?? .useDefault(reason: "no delegate")
        begin(context, resolution, interactive: false)
    }

    /// Begins the transition `context` asks for with the delegate's answer
    /// (or the default), and makes it the active one.
    private func begin(_ context: TransitionContext, _ resolution: AnimatorResolution, interactive: Bool) {
        let running: ActiveTransition
        switch resolution.animator.map({ ActiveTransition.begin($0, context: context) }) {
        case .success(let t)?:
            running = t
            running.reason = resolution.reason
            running.parameters = resolution.parameters
        case .failure(let why)?:
            running = beginDefault(context)
            running.reason = FallbackReason.atSetup(why)
            running.fellBack = true
        case nil:
            running = beginDefault(context)
            running.reason = resolution.reason
            running.fellBack = resolution.fellBack
        }
        running.reason = running.playback.said(in: running.reason)
        if interactive {
            interaction = PercentDrivenInteraction(container: self, context: context)
            context.onInteraction = { [weak self, unowned context] command in self?.interact(context, command) }
        } else {
            running.playhead = .playing(duration: running.duration, from: clock.now)
        }
        active = running
        emit(.transitionStarted(from: context.fromViewController.name, to: context.toViewController.name,
                                animator: running.animator.name))
        tick()
    }

    /// Hands a transition whose animator produced non-finite values to the
    /// default animator, at the same fraction and with the same motion.
    private func fallBackToDefault(_ failed: ActiveTransition, fraction: Double) {
        let why = failed.failure ?? "it failed"
        failed.tearDown()
        failed.animator.animationEnded(false)
        let replacement = beginDefault(failed.request)
        replacement.reason = FallbackReason.midway(failed.animator.name, why)
        replacement.fellBack = true
        replacement.frames = failed.frames
        replacement.playhead = failed.playhead
        active = replacement
        replacement.apply(at: fraction * replacement.duration)
    }

    private func beginDefault(_ context: TransitionContext) -> ActiveTransition {
        guard case .success(let transition) = ActiveTransition.begin(DefaultAnimator.make(), context: context) else {
            fatalError("the built-in default animator always plans a usable transition")
        }
        return transition
    }

    private func finishTransition(completed: Bool) {
        guard let transition = active else { return }
        isSwitching = true
        let context = transition.request
        let from = context.fromViewController, to = context.toViewController
        transition.tearDown()
        interaction = nil
        switch (context.kind, completed) {
        case (.switch, true):
            to.view.frame = context.finalFrame(for: to)
            leave(from)
            arrive(to)
            selectedViewController = to
        case (.switch, false), (.appear, false):
            leave(to)
            arrive(from)
        case (.appear, true):
            arrive(to)
            presentedViewController = to
        case (.disappear, true):
            leave(from)
            presentedViewController = nil
        case (.disappear, false):
            arrive(from)
        }
        active = nil
        let failedBefore = transition.animator.failure != nil
        transition.animator.animationEnded(completed)
        if !failedBefore, let why = transition.animator.failure {
            transition.reason += "; then \(transition.animator.name) \(why)"
        }
        emit(.animationEnded(animator: transition.animator.name, completed: completed))
        if completed && context.kind == .switch {
            delegate?.containerViewController(self, didSelect: to)
            emit(.didSelect(to.name))
        }
        onTransitionEnd?(TransitionReport(
            from: from.name, to: to.name, animator: transition.animator.name, source: transition.animator.source,
            reason: transition.reason, fellBack: transition.fellBack, duration: transition.duration,
            frames: transition.frames, completed: completed, shown: (completed ? to : from).name,
            interactive: context.isInteractive, parameters: transition.parameters, kind: context.kind,
            evaluation: transition.evaluationTiming))
        isSwitching = false

        if !pendingPresentations.isEmpty {
            switch pendingPresentations.removeFirst() {
            case .present(let child, let frame): startPresentation(.appear, of: child, frame: frame)
            case .dismiss: if let presented = presentedViewController { startPresentation(.disappear, of: presented, frame: nil) }
            }
        } else if let next = pendingSelection {
            pendingSelection = nil
            select(next)
        }
    }

    /// A child's view leaves the container and the child its parent.
    private func leave(_ child: ViewController) {
        child.view.removeFromSuperview()
        emit(.removeFromSuperview(child.name))
        child.removeFromParent()
        emit(.removeFromParent(child.name))
    }

    /// A child that heard `willMove` hears that it is (still, or now) this container's.
    private func arrive(_ child: ViewController) {
        child.didMove(toParent: self)
        emit(.didMoveToParent(child: child.name, parent: name))
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
            "no child named '\(name)'\(NameSuggestion.hint(for: name, in: available)); the children are \(available.map { "'\($0)'" }.joined(separator: ", "))"
        }
    }
}
