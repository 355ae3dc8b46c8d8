import AnimatorABI
import HostContainer
import PluginRuntime
import Timing

/// A plugin animator run in its plugin's worker process, for one transition.
/// Each call is one request to the worker: the context goes over once at
/// setup, then each frame is one round trip through shared memory, however
/// many layers there are. When the worker fails, ``failure`` says how, and the
/// container lets the built-in default finish the transition.
final class IsolatedAnimator: TransitionAnimator, BoundedEvaluation, AheadEvaluation, BoundedSetup {
    let worker: PluginWorker
    let id: String
    let name: String
    let kinds: TransitionKinds
    let parameters: [Double]
    let curves: [[Double]]
    var source: AnimatorSource { .plugin(path: worker.file) }
    private(set) var failure: String?
    /// The worker's number for this transition, between a successful setup and end.
    private var slot: UInt32?

    init(worker: PluginWorker, id: String, name: String, kinds: TransitionKinds, parameters: [Double], curves: [[Double]]) {
        (self.worker, self.id, self.name, self.parameters, self.curves) = (worker, id, name, parameters, curves)
        self.kinds = kinds
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

    func prepare() { worker.prepare(for: name) }

    func evaluate(at t: Double, layers: LayerStates) {
        guard let slot, failure == nil else { return }
        failure = worker.evaluate(slot: slot, name: name, t: t, layers: layers)
    }

    func evaluate(at t: Double, layers: LayerStates, within patience: Double) -> BoundedAnswer {
        guard let slot, failure == nil else { return .failed }
        switch worker.evaluate(slot: slot, name: name, t: t, layers: layers, patience: patience) {
        case .answered: return .answered
        case .pending: return .pending
        case .busy: return .busy
        case .failed(let why):
            failure = why
            return .failed
        }
    }

    /// Where the worker puts frames evaluated ahead, laid out for the first layers asked for.
    private var frames: WorkerLayout.AheadFrames?

    func evaluate(ahead times: UnsafeBufferPointer<Double>, from layers: LayerStates, into frame: (Int) -> LayerStates) -> Int {
        guard let slot, failure == nil, !times.isEmpty else { return 0 }
        let frames = self.frames ?? WorkerLayout.AheadFrames(vertices: (0..<layers.count).map {
            layers[$0].raw.mesh == nil ? 0 : Int(layers[$0].raw.mesh_vertex_count)
        })
        self.frames = frames
        let answered = worker.evaluate(slot: slot, name: name, times: times, layers: layers, frames: frames) { j, memory in
            let target = frame(j)
            PluginBoundary.takeLayerStates(from: memory, frame: j, of: frames,
                                           into: UnsafeMutableRawPointer(target.base).assumingMemoryBound(to: segue_layer_state_t.self),
                                           count: target.count)
        }
        switch answered {
        case .success(let n): return n
        case .failure(let why):
            failure = why.message
            return 0
        }
    }

    func collect(into layers: LayerStates) -> Bool {
        switch worker.collect(into: layers) {
        case .collected: return true
        case .nothing: return false
        case .failed(let why):
            failure = why
            return false
        }
    }

    func animationEnded(_ completed: Bool) {
        guard let slot else { return }
        self.slot = nil
        if failure == nil { failure = worker.end(slot: slot, name: name, completed: completed) }
    }
}

/// An animator whose setup a host may wait for a bounded time, on another
/// thread: a plugin in a worker.
package protocol BoundedSetup: AnyObject {
    /// Starts its worker and loads its plugin if need be (Segue's own work,
    /// bounded by the load deadline), so that setting it up afterwards waits
    /// on the plugin's own setup alone; never waits on a call to the plugin.
    /// A plugin that cannot run is said so by setup.
    func prepare()
}

/// An animator whose evaluation can wait a bounded time for its plugin and
/// leave a late answer to be collected later: a plugin in a worker. Lets a
/// render thread ask for layer states without a thread in between, and never
/// wait longer than it chose. Not for concurrent use: one caller at a time.
package protocol BoundedEvaluation: AnyObject {
    /// Evaluates at `t` into `layers`, waiting at most `patience` seconds.
    func evaluate(at t: Double, layers: LayerStates, within patience: Double) -> BoundedAnswer
    /// Waits, until the plugin's own deadline, for the answer a `.pending`
    /// evaluation left, and takes it into `layers`; false when there was none
    /// to take or the plugin failed (``TransitionAnimator/failure`` says how).
    func collect(into layers: LayerStates) -> Bool
}

/// An animator that can evaluate several times in one go: a plugin in a
/// worker, which answers frames a host will show later in one round trip.
/// Not for concurrent use with the animator's other calls.
package protocol AheadEvaluation: AnyObject {
    /// Evaluates at each of `times`, in order, each from the pre-filled
    /// `from` (states and meshes, left as they were), into `frame(j)` for the
    /// `j`th time (states laid out as `from`). May answer fewer than asked
    /// (the first ones): a worker stops after a short budget.
    /// - Returns: how many were answered; 0 when the plugin failed
    ///   (``TransitionAnimator/failure`` says how).
    func evaluate(ahead times: UnsafeBufferPointer<Double>, from layers: LayerStates, into frame: (Int) -> LayerStates) -> Int
}

/// What ``BoundedEvaluation/evaluate(at:layers:within:)`` found.
package enum BoundedAnswer: Equatable, Sendable {
    /// `layers` hold the states.
    case answered
    /// The answer is late: the evaluation goes on; collect it.
    case pending
    /// The plugin's worker is talking to someone else: nothing was asked.
    case busy
    /// The plugin failed: ``TransitionAnimator/failure`` says how.
    case failed
}
