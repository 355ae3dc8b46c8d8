import AnimatorABI

/// One running transition: the animator's plan turned into layers, and the
/// per-frame loop that evaluates and applies them. Everything a frame needs is
/// allocated in ``begin(_:context:)``, so ``apply(at:)`` allocates nothing.
package final class ActiveTransition {
    /// The longest duration the container accepts, in seconds.
    package static let maximumDuration = SEGUE_MAX_DURATION
    /// The most mesh divisions along either axis.
    static let maximumMeshDivisions = Int(SEGUE_MAX_MESH_DIVISIONS)

    package let animator: any TransitionAnimator
    /// The transition asked for: its completion ends the transition.
    var request: TransitionContext { playback.request }
    /// The context the animator was set up with (see ``KindPlayback``).
    var context: TransitionContext { playback.context }
    let playback: KindPlayback
    let plan: TransitionPlan
    /// Where the transition is and how it moves; the container steers it.
    /// Held at the start until the container sets it moving.
    var playhead = Playhead.held(0) {
        didSet {
            request.transitionWasCancelled = playhead.target == 0
            context.transitionWasCancelled = playhead.target == 0
        }
    }
    var reason = ""
    /// Whether the built-in default runs in place of the animator that was chosen.
    var fellBack = false
    /// The animator's parameter values, for the report.
    var parameters: [NamedParameterValue] = []
    var frames = 0
    /// Set when the animator produced a value the container cannot show.
    package private(set) var failure: String?

    private let layers: [View]
    /// Each layer as it was before the transition, in container coordinates.
    private let restingPoses: [Pose]
    private let snapshots: [View]
    /// The elements the plan hides, with whether each was hidden before.
    private let hiddenElements: [(view: View, wasHidden: Bool)]
    private let meshes: [Mesh?]
    /// The stand-in's layers (``KindPlayback``), hidden in every state.
    private let concealed: [Int]
    /// One state per layer, reused every frame.
    private let states: UnsafeMutablePointer<LayerState>

    /// How many evaluations' durations are kept for the median: the last ones.
    package static let timedEvaluations = 1_024
    /// The durations of the last evaluations, in seconds: a ring, allocated
    /// with the transition so that a frame allocates nothing.
    private let evaluationSeconds: UnsafeMutablePointer<Double>
    private var evaluationsTimed = 0, evaluationsOverAFrame = 0
    private var slowestEvaluation = 0.0
    private let stopwatch = MonotonicClock()

    package var duration: Double { plan.duration }

    /// What a transition changes on a layer, to put back at its end.
    private struct Pose {
        var frame: Rect, transform: Transform3D, alpha: Double, zPosition: Double, isHidden: Bool
        /// ABI 1.4's look: the view's own corner radius, clip and shadow.
        var cornerRadius: Double, masksToBounds: Bool, clip: Clip?, shadow: Shadow?
    }

    private init(animator: any TransitionAnimator, playback: KindPlayback, plan: TransitionPlan,
                 layers: [View], snapshots: [View], hiddenElements: [(view: View, wasHidden: Bool)], meshes: [Mesh?]) {
        self.animator = animator
        self.playback = playback
        self.plan = plan
        self.concealed = playback.concealedLayers(of: plan)
        let context = playback.context
        self.layers = layers
        self.restingPoses = layers.map {
            Pose(frame: $0.convert($0.bounds, to: context.containerView), transform: $0.transform,
                 alpha: $0.alpha, zPosition: $0.zPosition, isHidden: $0.isHidden,
                 cornerRadius: $0.cornerRadius, masksToBounds: $0.masksToBounds, clip: $0.clip, shadow: $0.shadow)
        }
        self.snapshots = snapshots
        self.hiddenElements = hiddenElements
        self.meshes = meshes
        self.states = .allocate(capacity: max(layers.count, 1))
        self.evaluationSeconds = .allocate(capacity: Self.timedEvaluations)
    }

    deinit {
        states.deallocate()
        evaluationSeconds.deallocate()
    }

    /// How long the animator's evaluations took so far; nil before the first.
    package var evaluationTiming: EvaluationTiming? {
        EvaluationTiming(UnsafeBufferPointer(start: evaluationSeconds, count: min(evaluationsTimed, Self.timedEvaluations)),
                         count: evaluationsTimed, slowest: slowestEvaluation, overAFrame: evaluationsOverAFrame)
    }

    /// Asks `animator` for a plan of the transition `request` asks for (or of
    /// the kind it plays instead: ``KindPlayback``), checks it, and sets its
    /// layers up in the container view. On failure nothing in the view tree
    /// has changed and the error says why, naming the animator.
    package static func begin(_ animator: any TransitionAnimator, context request: TransitionContext) -> Result<ActiveTransition, PlanError> {
        let playback: KindPlayback
        switch KindPlayback.play(animator, request) {
        case .failure(let error): return .failure(error)
        case .success(let p): playback = p
        }
        let context = playback.context
        let plan: TransitionPlan
        switch self.plan(of: animator, context: context) {
        case .failure(let error):
            playback.standIn?.view.removeFromSuperview()
            return .failure(error)
        case .success(let p): plan = p
        }
        let container = context.containerView
        let from = context.fromViewController.view, to = context.toViewController.view
        let fromElements = from.elements, toElements = to.elements
        if to.superview !== container { container.addSubview(to) }
        var layers: [View] = [], snapshots: [View] = [], meshes: [Mesh?] = []
        for request in plan.layers {
            let layer: View
            switch request.kind {
            case .view(.from): layer = from
            case .view(.to): layer = to
            case .snapshot(let ref):
                let element = (ref.side == .from ? fromElements : toElements)[ref.index]
                let frame = element.convert(element.bounds, to: container)
                layer = element.snapshot()
                layer.frame = frame
                container.addSubview(layer)
                snapshots.append(layer)
            }
            layers.append(layer)
            meshes.append(request.meshColumns > 0
                ? Mesh(columns: request.meshColumns, rows: request.meshRows,
                       covering: layer.convert(layer.bounds, to: container))
                : nil)
        }
        let hidden = plan.hiddenElements.map { ref in
            let element = (ref.side == .from ? fromElements : toElements)[ref.index]
            return (view: element, wasHidden: element.isHidden)
        }
        for element in hidden { element.view.isHidden = true }
        return .success(ActiveTransition(
            animator: animator, playback: playback, plan: plan,
            layers: layers, snapshots: snapshots, hiddenElements: hidden, meshes: meshes))
    }

    /// Asks `animator` for a plan and checks it against the context's views,
    /// as ``begin(_:context:)`` does, changing no view. On failure the error
    /// says why, naming the animator; an animator whose plan was refused has
    /// heard `animationEnded(false)`.
    package static func plan(of animator: any TransitionAnimator, context: TransitionContext) -> Result<TransitionPlan, PlanError> {
        let plan: TransitionPlan
        switch animator.setup(context) {
        case .decline(let why):
            return .failure(PlanError("\(animator.name) declined: \(why)"))
        case .failed(let why):
            return .failure(PlanError("\(animator.name) \(why)"))
        case .invalid(let problem):
            animator.animationEnded(false)
            return .failure(PlanError("\(animator.name) planned an unusable transition: \(problem)"))
        case .animate(let p):
            plan = p
        }
        let counts: [TransitionSide: Int] = [.from: context.fromViewController.view.elements.count,
                                             .to: context.toViewController.view.elements.count]
        if let problem = problem(in: plan, elementCounts: counts) {
            animator.animationEnded(false)
            return .failure(PlanError("\(animator.name) planned an unusable transition: \(problem)"))
        }
        return .success(plan)
    }

    private static func problem(in plan: TransitionPlan, elementCounts counts: [TransitionSide: Int]) -> String? {
        guard plan.duration.isFinite, plan.duration > 0, plan.duration <= maximumDuration else {
            return "duration \(plan.duration) s is outside (0, \(maximumDuration)]"
        }
        func check(_ ref: ElementReference) -> String? {
            let n = counts[ref.side]!
            return ref.index >= 0 && ref.index < n
                ? nil : "element \(ref.index) of the \(ref.side) view does not exist (it has \(n))"
        }
        var seenViews: Set<String> = []
        for (i, request) in plan.layers.enumerated() {
            switch request.kind {
            case .view(let side):
                if !seenViews.insert("\(side)").inserted { return "layer \(i) repeats the \(side) view" }
            case .snapshot(let ref):
                if let p = check(ref) { return "layer \(i): \(p)" }
            }
            let meshOK = (request.meshColumns == 0 && request.meshRows == 0)
                || (1...maximumMeshDivisions).contains(request.meshColumns)
                && (1...maximumMeshDivisions).contains(request.meshRows)
            if !meshOK { return "layer \(i) asks for a \(request.meshColumns)x\(request.meshRows) mesh" }
        }
        for ref in plan.hiddenElements {
            if let p = check(ref) { return "hidden \(p)" }
        }
        return nil
    }

    /// The first state value of the last ``apply(at:)`` that was finite but
    /// out of range (applied clamped), with its layer and t; nil when none was.
    package private(set) var outOfRange: String?

    /// Evaluates every layer at `t` and applies the states. When a state is not
    /// finite, nothing is applied and ``failure`` says which value it was.
    package func apply(at t: Double) {
        frames += 1
        outOfRange = nil
        for index in layers.indices {
            (states + index).initialize(to: LayerState(
                frame: restingPoses[index].frame, zPosition: Double(index),
                mesh: meshes[index]?.vertices ?? .init(start: nil, count: 0)))
        }
        let started = stopwatch.now
        animator.evaluate(at: playback.localTime(t, duration: plan.duration), layers: LayerStates(base: states, count: layers.count))
        let took = stopwatch.now - started
        evaluationSeconds[evaluationsTimed % Self.timedEvaluations] = took
        evaluationsTimed += 1
        slowestEvaluation = max(slowestEvaluation, took)
        if took > EvaluationTiming.frameAt60Hz { evaluationsOverAFrame += 1 }
        for index in concealed { states[index].isHidden = true }
        if let why = animator.failure {
            failure = why
            return
        }
        for index in layers.indices {
            if let problem = states[index].nonFiniteProblem(layer: index, at: t) {
                failure = problem
                return
            }
            if outOfRange == nil, let member = states[index].firstOutOfRangeMember {
                outOfRange = "\(member) for layer \(index) at t = \(LayerState.seconds(t)) s"
            }
        }
        for index in layers.indices {
            let state = states[index]
            let layer = layers[index]
            layer.frame = state.frame
            layer.transform = state.transform
            layer.alpha = min(max(state.alpha, 0), 1)
            layer.zPosition = state.zPosition
            layer.isHidden = state.isHidden
            // A state rounds a view whose own corners are squarer; its clip and shadow replace the view's own.
            let pose = restingPoses[index]
            layer.cornerRadius = max(pose.cornerRadius, state.cornerRadius)
            layer.masksToBounds = pose.masksToBounds || state.cornerRadius > 0
            layer.clip = state.clip ?? pose.clip
            layer.shadow = state.shadow ?? pose.shadow
            if layer.mesh !== meshes[index] { layer.mesh = meshes[index] }
        }
    }

    /// Puts every view back as it was before the transition: snapshots
    /// removed, hidden elements as they were, the root views' frames,
    /// transforms, alpha, order and visibility restored, meshes dropped.
    package func tearDown() {
        for snapshot in snapshots { snapshot.removeFromSuperview() }
        for element in hiddenElements { element.view.isHidden = element.wasHidden }
        for (layer, pose) in zip(layers, restingPoses) where layer.superview === context.containerView {
            layer.frame = pose.frame
            layer.transform = pose.transform
            layer.alpha = pose.alpha
            layer.zPosition = pose.zPosition
            layer.isHidden = pose.isHidden
            (layer.cornerRadius, layer.masksToBounds, layer.clip, layer.shadow) = (pose.cornerRadius, pose.masksToBounds, pose.clip, pose.shadow)
            layer.mesh = nil
        }
        let to = context.toViewController.view
        if !layers.contains(where: { $0 === to }) { to.frame = context.finalFrame(for: context.toViewController) }
        playback.standIn?.view.removeFromSuperview()
    }
}

/// Why a plan could not be used; the text names the animator.
package struct PlanError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// How reports word a fallback to the built-in default: one wording for the
/// container and for every host that plays transitions (libsegue).
package enum FallbackReason {
    /// The chosen animator could not begin: `why` names it (a ``PlanError``).
    package static func atSetup(_ why: some CustomStringConvertible) -> String {
        "\(why); the built-in default ran instead"
    }

    /// The animator `name` failed while the transition ran: `why` says how.
    package static func midway(_ name: String, _ why: String) -> String {
        "\(name) \(why); the built-in default finished the transition"
    }
}
