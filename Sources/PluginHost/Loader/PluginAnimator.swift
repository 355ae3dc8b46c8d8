import AnimatorABI
import Glibc
import HostContainer
import PluginRuntime
import Timing

/// A plugin animator run in this process (`PluginIsolation.none`) for one
/// transition: translates the Swift ``TransitionAnimator`` calls into the C
/// ABI. The C context is built in ``setup(_:)`` and released after `end`, so
/// the per-frame ``evaluate(at:layers:)`` allocates nothing and copies nothing:
/// the plugin writes straight into the container's layer states.
final class PluginAnimator: TransitionAnimator {
    let animator: LoadedAnimator
    let file: String
    let parameters: [Double]
    let curves: [[Double]]
    var name: String { animator.description.name }
    var source: AnimatorSource { .plugin(path: file) }
    var kinds: TransitionKinds { animator.description.kinds }

    /// The `states` array handed to evaluate, filled once per transition with pointers into the container's states.
    private let statePointers = UnsafeMutablePointer<UnsafeMutablePointer<segue_layer_state_t>?>.allocate(
        capacity: Int(SEGUE_MAX_LAYERS))
    private var pointedCount = 0
    private var context: CContext?
    private let plan = UnsafeMutablePointer<segue_plan_t>.allocate(capacity: 1)
    private var isSetUp = false

    init(animator: LoadedAnimator, file: String, parameters: [Double], curves: [[Double]]) {
        self.animator = animator
        self.file = file
        self.parameters = parameters
        self.curves = curves
        plan.initialize(to: ABI.emptyPlan())
        statePointers.initialize(repeating: nil, count: Int(SEGUE_MAX_LAYERS))
    }

    deinit {
        if isSetUp { animationEnded(false) }
        plan.deallocate()
        statePointers.deallocate()
    }

    func setup(_ ctx: TransitionContext) -> AnimatorSetup {
        let context = CContext(TransitionPayload(ctx, parameters: parameters, curves: curves), host: animator.host)
        self.context = context
        plan.pointee = ABI.emptyPlan()
        let result = animator.setup(animator.raw, context.pointer, plan)
        if result == SEGUE_SETUP_ANIMATE { isSetUp = true }
        return AnimatorSetup(PluginBoundary.plan(result: result.rawValue, copyingFrom: plan))
    }

    func evaluate(at t: Double, layers: LayerStates) {
        guard let context else { return }
        let count = min(layers.count, Int(SEGUE_MAX_LAYERS))
        let base = UnsafeMutableRawPointer(layers.base).assumingMemoryBound(to: segue_layer_state_t.self)
        // The container reuses its storage every frame, so this fills the array once per transition.
        if statePointers[0] != base || pointedCount != count {
            for i in 0..<count { statePointers[i] = base + i }
            pointedCount = count
        }
        PluginBoundary.evaluateInPlace(base, count: count) {
            animator.evaluate(animator.raw, context.pointer, plan, t, statePointers, UInt32(count))
        }
    }

    func animationEnded(_ completed: Bool) {
        guard isSetUp, let context else { return }
        isSetUp = false
        animator.end?(animator.raw, context.pointer, plan, completed)
        self.context = nil
    }
}
