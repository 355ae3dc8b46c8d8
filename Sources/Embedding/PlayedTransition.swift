import AnimatorABI
import Glibc
import EmbedABI
import HostConfig
import HostContainer
import PluginHost
import PluginRuntime
import SystemCalls
import Timing

/// A transition a program plays on views of its own: the animator chosen as
/// the container would choose it, set up on a model of the program's views,
/// and sampled at any t into the program's memory.
///
/// The chosen animator's plan stands until it fails. Plugin animators are
/// asked through an ``Evaluator``, so a sample waits at most the player's
/// bound; the built-in default, set up ahead as a standby, evaluates on the
/// caller's thread and takes over from the same fraction of the transition
/// when the plugin fails, as the container's fallback does.
final class PlayedTransition: @unchecked Sendable {  // mutable state guarded by `lock`
    /// One side of a transition as the program describes it.
    struct ViewRequest {
        var name: String
        /// Container coordinates.
        var frame: Rect
        /// Named elements, frames in container coordinates.
        var elements: [(name: String, frame: Rect)]
    }

    /// A transition as the program asks for it.
    struct Request {
        var kind: TransitionKind = .switch
        var bounds: Rect
        var from: ViewRequest
        var to: ViewRequest
        var goingRight: Bool
        var interactive: Bool
        /// Nil: the config's rules.
        var animator: String?
        var parameters: [String: ParameterValue] = [:]
        /// API 1.5: where it comes from or goes to, and the window's type.
        var anchor = TransitionAnchor.none
        var windowType = WindowType.normal
        var isModal = false
    }

    /// One animator's part: the animator, set up, with its plan, and how it
    /// plays the kind asked for.
    final class Part {
        let animator: any TransitionAnimator
        let playback: KindPlayback
        let plan: TransitionPlan
        /// The layers the program is told of: the plan's, on the request's sides.
        let layers: [LayerRequest]
        let hiddenElements: [ElementReference]
        /// Whether each layer is a stand-in's, hidden in every state.
        let concealed: [Bool]
        let layout: LayerBuffer.Layout
        let name: CString
        let file: CString?
        /// Mesh vertices per layer (0 without a mesh), for checking a caller's buffers.
        let meshVertices: [Int]
        /// The layers that show the view arriving (a switch's to view, an
        /// opening window): hidden until the animator first answers, so a
        /// late plugin shows the transition's start, not its end.
        var arriving: [Int] {
            guard playback.request.kind != .disappear else { return [] }
            return layers.indices.filter { layers[$0].kind == .view(.to) }
        }

        init(animator: any TransitionAnimator, playback: KindPlayback, plan: TransitionPlan, name: CString, file: CString?) {
            (self.animator, self.playback, self.plan, self.name, self.file) = (animator, playback, plan, name, file)
            layout = LayerBuffer.Layout(plan: plan, context: playback.context)
            meshVertices = plan.layers.map { $0.meshColumns > 0 ? ($0.meshColumns + 1) * ($0.meshRows + 1) : 0 }
            func side(_ ref: ElementReference) -> ElementReference {
                ElementReference(side: playback.requestSide(of: ref.side), index: ref.index)
            }
            layers = plan.layers.map { layer in
                var told = layer
                switch layer.kind {
                case .view(let s): told.kind = .view(playback.requestSide(of: s))
                case .snapshot(let ref): told.kind = .snapshot(side(ref))
                }
                return told
            }
            hiddenElements = plan.hiddenElements.map(side)
            let standIns = Set(playback.concealedLayers(of: plan))
            concealed = plan.layers.indices.map(standIns.contains)
        }

        /// The animator's t for the transition's `t`.
        func localTime(_ t: Double) -> Double { playback.localTime(t, duration: plan.duration) }

        /// `state` as the program gets it: hidden for a stand-in's layer.
        func told(_ index: Int, _ state: LayerState) -> LayerState {
            guard concealed[index] else { return state }
            var hidden = state
            hidden.isHidden = true
            return hidden
        }
    }

    /// What a sample did.
    enum Sampled: Equatable {
        /// The states at the time asked for, from the animator running now.
        case fresh
        /// The plugin is late: the newest states it gave.
        case held
        /// The first sample since the default took over: its states, from a plan of its own.
        case tookOver
    }

    /// The duration the program's clock runs over: the chosen plan's, kept after a takeover.
    let duration: Double
    /// The player's main thread: finishing and freeing happen there.
    let mainThread: pthread_t
    private weak var player: Player?
    let chosen: Part
    /// The built-in default, set up at the start, for a plugin that fails midway.
    let standby: Part
    private let evaluator: Evaluator?
    private let bound: Double
    private let events: EventQueue
    private let pluginWaits: PluginWaits
    /// The model the animators were set up on; they may read it until they end.
    private let context: TransitionContext

    private let lock = Lock()
    private var tookOver = false
    /// A sample has answered that the default took over: later ones answer as usual.
    private var takeOverSaid = false
    private var ended = false
    private var fellBack: Bool
    /// Whether the program freed its handle (a sampler may keep it alive).
    private var freed = false
    private var reason: CString
    /// Reasons replaced by later ones, kept alive for pointers already handed out.
    private var earlierReasons: [CString] = []

    /// Chooses the animator for `request` in `player` (by name, else by the
    /// config's rules) and sets it up. Never fails: what cannot run falls back
    /// to the built-in default, and the reason says why.
    init(_ request: Request, player: Player) {
        context = Self.model(request)
        let delegate = ConfigDrivenDelegate(config: player.config, registry: player.registry)
        let subject: ConfigDrivenDelegate.Subject = request.kind == .switch
            ? .switching(from: request.from.name, to: request.to.name)
            : .presenting(request.kind, view: request.kind.presented(from: request.from.name, to: request.to.name))
        let resolution = request.animator.map {
            delegate.resolve(animator: $0, for: request.kind, parameters: request.parameters, why: "the program's choice")
        } ?? delegate.resolve(subject)
        var why = resolution.reason, fellBack = resolution.fellBack
        // A plugin's worker started and its plugin loaded: Segue's own work, not counted. From then on, begin
        // waits for the plugin's code (its setup, then its first frames) until `deadline`.
        (resolution.animator as? BoundedSetup)?.prepare()
        let deadline = MonotonicTime.now + Self.beginBound
        // The default first: a plugin's setup may still read the model on another thread after the wait.
        guard case .success(let builtin) = Self.part(DefaultAnimator.make(curves: player.config.curves), context, until: deadline,
                                                     waits: player.pluginWaits, events: player.events) else {
            fatalError("the built-in default animator always plans a usable transition")
        }
        var picked: Part?
        if let animator = resolution.animator {
            switch Self.part(animator, context, until: deadline, waits: player.pluginWaits, events: player.events) {
            case .success(let part): picked = part
            case .failure(let error): (why, fellBack) = (FallbackReason.atSetup(error), true)
            }
        }
        standby = builtin
        chosen = picked ?? standby
        why = chosen.playback.said(in: why)
        duration = chosen.plan.duration
        (self.fellBack, reason) = (fellBack, CString(why))
        bound = player.settings.sampleBound
        events = player.events
        pluginWaits = player.pluginWaits
        mainThread = player.mainThread
        self.player = player
        let needsThread = chosen.animator.source != .builtin || chosen.plan.layers.contains { $0.meshColumns > 0 }
        guard needsThread else {
            evaluator = nil
            return
        }
        let failedHere = WeakReference<PlayedTransition>()
        evaluator = Evaluator(animator: chosen.animator, layers: chosen.layout, hiddenAtFirst: chosen.arriving,
                              duration: chosen.plan.duration) { why, _ in
            failedHere.value?.takeOver(why)
        }
        failedHere.value = self
        if evaluator == nil { takeOver("could not be given a thread to run on") }
        // Hosts sample a transition's start first, most on a 60 Hz clock: those frames are asked for now, and
        // waited for within what is left of the bound (a plugin in this process, whose setup ran unbounded,
        // has the whole bound for them).
        let framesDeadline = chosen.animator is BoundedSetup ? deadline : MonotonicTime.now + Self.beginBound
        if let evaluator, !evaluator.start(at: chosen.localTime(0), step: chosen.localTime(1.0 / 60) - chosen.localTime(0),
                                           until: framesDeadline) {
            events.post(.init(kind: SEGUE_EVENT_LOG.rawValue, level: SEGUE_LOG_WARNING.rawValue,
                              message: PluginText.escaped("segue: \(chosen.animator.name) did not give its first frames within \(Self.milliseconds) ms"
                                                          + "\(Self.plugin(of: chosen.animator)); the transition holds its start until it does"),
                              transition: nil))  // said even when the transition is freed before the program dispatches
        }
    }

    /// How long begin waits for a plugin's code: its setup (past the bound the default plays), then its
    /// first frames (past it, samples hold the start until they come). A plugin in a worker set up in
    /// 0.2 ms (median), 4 ms at its 99.9th percentile and 10 ms at most with both processors busy, but a
    /// worker (ten nice levels down) whose own threads compute, on a busy machine, took more than 20 ms.
    /// The worker's start and the plugin's load are not counted.
    static let beginBound = 0.1
    /// ``beginBound`` as the messages say it.
    private static var milliseconds: Int { Int((beginBound * 1000).rounded()) }

    /// Where `animator` comes from, as the messages say it: " (plugin PATH)", or nothing for the default.
    private static func plugin(of animator: any TransitionAnimator) -> String {
        if case .plugin(let path) = animator.source { " (plugin \(path))" } else { "" }
    }

    /// Why an animator could not begin, as the reason says it.
    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `animator`'s setup on `playback`'s context, and its part.
    private static func part(_ animator: any TransitionAnimator, _ playback: KindPlayback) -> Result<Part, PlanError> {
        ActiveTransition.plan(of: animator, context: playback.context).map { plan in
            let file: CString? = if case .plugin(let path) = animator.source { CString(path) } else { nil }
            return Part(animator: animator, playback: playback, plan: plan, name: CString(animator.name), file: file)
        }
    }

    /// `animator` set up for the transition `context` asks for, as it plays it (``KindPlayback``). A plugin
    /// in a worker (prepared: its worker started and its plugin loaded) is waited for until `deadline`: its
    /// setup runs on a thread of `waits`', which, should it answer late, ends it unused, or says how it failed.
    private static func part(_ animator: any TransitionAnimator, _ context: TransitionContext, until deadline: Double,
                             waits: PluginWaits, events: EventQueue) -> Result<Part, SetupFailure> {
        let playback: KindPlayback
        switch KindPlayback.play(animator, context) {
        case .failure(let error): return .failure(SetupFailure(description: error.description))
        case .success(let p): playback = p
        }
        guard animator is BoundedSetup else {
            return part(animator, playback).mapError { SetupFailure(description: $0.description) }
        }
        let handoff = Handoff<Result<Part, PlanError>> { late in
            switch late {
            case .success(let part): part.animator.animationEnded(false)
            case .failure(let error):
                events.post(.init(kind: SEGUE_EVENT_LOG.rawValue, level: SEGUE_LOG_WARNING.rawValue,
                                  message: PluginText.escaped("segue: \(error)"), transition: nil))
            }
        }
        let setup = Setup(animator: animator, playback: playback, handoff: handoff)
        waits.run { setup.handoff.give(part(setup.animator, setup.playback)) }
        guard let result = handoff.take(until: deadline) else {
            return .failure(SetupFailure(description: "\(animator.name) did not set up within \(milliseconds) ms\(plugin(of: animator))"))
        }
        return result.mapError { SetupFailure(description: $0.description) }
    }

    /// What a setup's thread is handed: the animator and its model, which this thread no longer uses.
    private struct Setup: @unchecked Sendable {
        let animator: any TransitionAnimator
        let playback: KindPlayback
        let handoff: Handoff<Result<Part, PlanError>>
    }

    /// The program's views as the model's: a container of the bounds, each
    /// side a root view at its frame with its elements inside it. A side
    /// with a frame of its own (a width and a height) keeps it: a window on
    /// its output is not the output. Without one, the container rule (the bounds).
    private static func model(_ request: Request) -> TransitionContext {
        func own(_ side: ViewRequest) -> Rect { side.frame.width > 0 && side.frame.height > 0 ? side.frame : request.bounds }
        let container = View(frame: request.bounds)
        func controller(_ side: ViewRequest) -> ViewController {
            let frame = own(side)
            let root = View(frame: frame)
            for element in side.elements {
                root.addSubview(View(name: element.name, frame: element.frame.offsetBy(dx: -frame.x, dy: -frame.y)))
            }
            return ViewController(name: side.name, view: root)
        }
        let from = controller(request.from), to = controller(request.to)
        container.addSubview(from.view)
        container.addSubview(to.view)
        let context = TransitionContext(kind: request.kind, from: from, to: to, containerView: container, goingRight: request.goingRight,
                                        isInteractive: request.interactive, frames: (own(request.from), own(request.to))) { _ in }
        (context.anchor, context.windowType, context.isModal) = (request.anchor, request.windowType, request.isModal)
        return context
    }

    // MARK: - Any thread

    /// The part running now: the chosen one, or the default after a takeover.
    var current: Part { lock.withLock { tookOver ? standby : chosen } }

    /// Whether the built-in default runs instead of the chosen animator, and why this animator runs.
    var explanation: (fellBack: Bool, reason: UnsafePointer<CChar>, tookOver: Bool) {
        lock.withLock { (fellBack, reason.pointer, tookOver) }
    }

    /// Whether the transition ended, and the part running now, read at once.
    struct State {
        let ended: Bool
        let part: Part
    }

    /// ``State`` now. A struct, not a tuple: a tuple's type is made at run
    /// time, on its first use, which allocated in a process's first sample.
    var state: State { lock.withLock { State(ended: ended, part: tookOver ? standby : chosen) } }

    /// Writes the states at `t` (already clamped to [0, duration]) of
    /// `part` (``state``'s) through `write`, which receives each layer's
    /// index and state, and says what they are. `write` is called with the
    /// evaluator's lock held: copy and return.
    func sample(at t: Double, of part: Part, _ write: (Int, LayerState) -> Void) -> Sampled {
        var part = part
        if part === chosen, let evaluator {
            switch evaluator.sample(at: part.localTime(t), within: bound, { buffer in
                for i in 0..<buffer.count { write(i, part.told(i, buffer[i])) }
            }) {
            case .fresh: return .fresh
            case .held: return .held
            case .failed: part = standby  // it takes over
            }
        }
        let local = part === chosen ? t : t / duration * part.plan.duration
        let resting = part.layout.resting
        withUnsafeTemporaryAllocation(of: LayerState.self, capacity: max(resting.count, 1)) { storage in
            for i in resting.indices { (storage.baseAddress! + i).initialize(to: LayerState(frame: resting[i], zPosition: Double(i))) }
            part.animator.evaluate(at: part.localTime(local), layers: LayerStates(base: storage.baseAddress!, count: resting.count))
            for i in resting.indices { write(i, part.told(i, storage[i])) }
        }
        guard part !== chosen else { return .fresh }
        // Said once: a program re-reads the plan then, not every frame after.
        return lock.withLock { () -> Sampled in
            defer { takeOverSaid = true }
            return takeOverSaid ? .fresh : .tookOver
        }
    }

    /// Asks the running plugin for the states at `t` (clamped to [0,
    /// duration]) ahead of a sample at that t (see ``Evaluator/prefetch(at:)``);
    /// nothing for an animator that runs in this process.
    func prefetch(at t: Double) {
        let state = self.state
        guard !state.ended, state.part === chosen, let evaluator else { return }
        evaluator.prefetch(at: chosen.localTime(t))
    }

    /// The plugin failed while the transition ran: the built-in default
    /// finishes it, the reason says why, and the program hears it. [any thread]
    private func takeOver(_ why: String) {
        let text = FallbackReason.midway(chosen.animator.name, why)
        // Posted under the lock forget() takes: the program never hears of a transition it freed.
        lock.withLock {
            // Once finished, nothing is left to take over: ending says how the plugin failed.
            guard !ended else { return }
            tookOver = true
            fellBack = true
            earlierReasons.append(reason)
            reason = CString(text)
            events.post(.init(kind: SEGUE_EVENT_FELL_BACK.rawValue, level: SEGUE_LOG_WARNING.rawValue,
                              message: PluginText.escaped("segue: \(text)"),
                              transition: freed ? nil : Unmanaged.passUnretained(self).toOpaque()))
        }
    }

    // MARK: - Main thread

    /// Ends the transition, once: every animator set up hears how it ended.
    /// A plugin in a worker is waited for on a thread of its own
    /// (``PluginWaits``), never on the caller's: one that fails in its end,
    /// or whose late evaluate is still running, costs the program no wait;
    /// its failure comes as a log event.
    /// - Returns: false when it had ended already.
    @discardableResult
    func finish(completed: Bool) -> Bool {
        guard lock.withLock({ () -> Bool in defer { ended = true }; return !ended }) else { return false }
        let took = lock.withLock { tookOver }
        let ending = Ending(evaluator: evaluator, last: took ? standby : chosen,
                            other: chosen === standby ? nil : took ? chosen : standby, events: events)
        if ending.waitsOnPlugins {
            pluginWaits.run { ending.run(completed: completed) }
        } else {
            ending.run(completed: completed)
        }
        return true
    }

    /// What ending a transition does, away from the transition (which may be
    /// gone by the time a plugin answers).
    private struct Ending: @unchecked Sendable {  // run on one thread, after the transition let go of its parts
        let evaluator: Evaluator?
        /// The part running at the end, and the other one set up, if any.
        let last: Part
        let other: Part?
        let events: EventQueue

        /// Whether ending may wait on a plugin in a worker (an evaluate still running, its end). A
        /// plugin in the program's process hears end on the main thread, as its ABI says, and is
        /// waited for there (it cannot be stopped anyway).
        var waitsOnPlugins: Bool {
            [last, other].contains { $0?.animator is any BoundedSetup }
        }

        func run(completed: Bool) {
            evaluator?.stop()
            other?.animator.animationEnded(false)
            last.animator.animationEnded(completed)
            // A failure before the end was a takeover, and `last` the default (which does not fail): this
            // one came as it ended, from an evaluate still running or from end.
            if let why = last.animator.failure {
                events.post(.init(kind: SEGUE_EVENT_LOG.rawValue, level: SEGUE_LOG_WARNING.rawValue,
                                  message: PluginText.escaped("segue: \(last.animator.name) \(why)"),
                                  transition: nil))
            }
        }
    }

    /// Leaves the player's list: the program freed the transition. Events
    /// waiting, or posted later (a sampler keeps it alive), no longer name it.
    func forget() {
        player?.transitions[ObjectIdentifier(self)] = nil
        let handle = Unmanaged.passUnretained(self).toOpaque()
        lock.withLock {
            freed = true
            events.forget(transition: handle)
        }
    }

    deinit { finish(completed: false) }
}

/// A reference that is set once, before any other thread reads it, and does not keep its object alive.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    weak var value: Object?
}
