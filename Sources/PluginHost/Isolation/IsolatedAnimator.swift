import AnimatorABI
import HostContainer
import PluginRuntime

/// A plugin animator run in its plugin's worker process, for one transition.
/// Each call is one request to the worker: the context goes over once at
/// setup, then each frame is one round trip through shared memory, however
/// many layers there are. When the worker fails, ``failure`` says how, and the
/// container lets the built-in default finish the transition.
final class IsolatedAnimator: TransitionAnimator {
    let worker: PluginWorker
    let id: String
    let name: String
    let parameters: [Double]
    let curves: [[Double]]
    var source: AnimatorSource { .plugin(path: worker.file) }
    private(set) var failure: String?
    /// The worker's number for this transition, between a successful setup and end.
    private var slot: UInt32?

    init(worker: PluginWorker, id: String, name: String, parameters: [Double], curves: [[Double]]) {
        (self.worker, self.id, self.name, self.parameters, self.curves) = (worker, id, name, parameters, curves)
    }

    deinit { if slot != nil { animationEnded(false) } }

    func setup(_ ctx: TransitionContext) -> AnimatorSetup {
        switch worker.setup(animator: id, name: name, payload: TransitionPayload(ctx, parameters: parameters, curves: curves)) {
        case .failed(let why):
            failure = why
            return .failed(why)
        case .planned(let slot, let plan):
            if plan.owesEnd { self.slot = slot }
            return AnimatorSetup(plan)
        }
    }

    func evaluate(at t: Double, layers: LayerStates) {
        guard let slot, failure == nil else { return }
        failure = worker.evaluate(slot: slot, name: name, t: t, layers: layers)
    }

    func animationEnded(_ completed: Bool) {
        guard let slot else { return }
        self.slot = nil
        if failure == nil { failure = worker.end(slot: slot, name: name, completed: completed) }
    }
}
