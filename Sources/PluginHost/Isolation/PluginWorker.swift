import AnimatorABI
import Foundation
import HostContainer
import PluginRuntime
import SystemCalls

/// How a plugin failed in its worker: what the quarantine remembers and the
/// reports say.
public struct PluginFailure: Sendable, Equatable, CustomStringConvertible {
    /// The plugin file.
    public var file: String
    /// The animator whose call failed, when one did.
    public var animator: String?
    /// "load", "setup", "evaluate" or "end" (``WorkerOp/name``).
    public var call: String
    /// The time asked of evaluate.
    public var t: Double?
    /// What happened: "crashed with signal 11 (...)", "exited with status 3",
    /// "did not answer within 0.5 s and was killed", "tried to start a
    /// program (execve /bin/sh)", "ran out of memory"...
    public var what: String
    /// What came of it, when `what` alone does not say: "refused by the
    /// sandbox", "refused by the sandbox; then it crashed with signal 11 (...)",
    /// "it reached its limit of 1 GiB of address space and ...".
    public var detail: String?
    /// When.
    public var date: Date
    /// Whether the sandbox refused something the plugin tried (``what`` says what).
    public var refusedBySandbox = false

    /// "crashed with signal 11 (SIGSEGV, a segmentation fault) in evaluate at t = 0.250 s (plugin FILE)",
    /// "tried to start a program (execve /bin/sh) in setup: refused by the sandbox (plugin FILE)".
    public var description: String { "\(what) in \(call)\(atTime)\(detailText) (plugin \(file))" }

    private var detailText: String { detail.map { ": \($0)" } ?? "" }

    /// " at t = 0.250 s", or nothing when no t was asked.
    private var atTime: String { t.map { " at t = \(String(format: "%.3f", $0)) s" } ?? "" }

    /// The reason a quarantined plugin's animators fall back, with when it failed.
    var quarantineReason: String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        let time = formatter.string(from: date)
        let who = animator.map { "\($0) " } ?? ""
        return "is quarantined: its plugin \(file) \(what) in \(who)\(call)\(atTime)\(detailText) at \(time)"
    }
}

/// The host's side of one worker process: the plugin file it serves, started
/// on first use and reused by every transition of that file's animators.
/// Every call has a deadline; a crash, an exit, a hang or a malformed reply
/// ends the worker and quarantines the plugin in its pool until cleared.
/// Thread-safe: calls are serialised.
final class PluginWorker: @unchecked Sendable {  // mutable state is guarded by `lock`
    let file: String
    let settings: WorkerSettings
    private let lock = NSLock()
    private var process: ChildProcess?
    private var channel: WorkerChannel?
    private var memory: SharedMemory?
    /// What the worker's sandbox refused it, kept here, out of the plugin's reach.
    private var sandbox: SandboxSupervisor?
    private var animatorIDs: Set<String> = []
    private var nextSlot: UInt32 = 1
    /// The slots of the transitions set up and not yet ended.
    private var active: Set<UInt32> = []
    /// What the processor watch compares with (``checkProcessorUse()``):
    /// since when, the worker's use then, and whether a transition was in flight.
    private var window: (since: Double, use: ProcessorUse, busy: Bool)?
    /// Counts the turns between a transition in flight and none (``turned()``).
    private var phase: UInt64 = 0
    /// The animator set up or ended last, named when the watch ends the worker.
    private var lastAnimator = ""
    /// The address space the running worker may use: what its pool granted
    /// it (``WorkerPool/reserve(for:)``), or the policy's limit.
    private var memoryLimit: UInt64
    /// How many times a worker process was started for this file (the pool may end an idle one).
    private var starts = 0
    /// Set once the worker failed: the plugin is quarantined.
    var failure: PluginFailure? { lock.withLock { _failure } }
    private var _failure: PluginFailure?

    /// The pool that may hold a worker started ahead.
    private weak var pool: WorkerPool?

    init(file: String, settings: WorkerSettings, pool: WorkerPool?) {
        self.pool = pool
        self.file = file
        self.settings = settings
        memoryLimit = settings.sandbox.memoryLimit
        PluginBoundary.prepareToTakeLayerStates()
    }

    deinit {
        channel?.close()
        pool?.release(ObjectIdentifier(self))
    }

    /// The worker's process id once it has started.
    var processID: Int32? { lock.withLock { process?.pid } }

    enum SetupOutcome {
        /// Setup ran: what it answered, read by the boundary.
        case planned(slot: UInt32, plan: PluginBoundary.Plan)
        case failed(String)
    }

    /// Starts the worker and loads the plugin, if not yet done, as ``setup(animator:name:payload:)``
    /// would first: Segue's own work (the plugin's constructors ran at its scan), bounded by the load
    /// deadline, so that a setup after it waits on the plugin's setup alone. Does nothing while another
    /// thread talks to the worker (which has then started): it never waits on a call to the plugin.
    func prepare(for name: String) {
        guard lock.try() else { return }
        defer { lock.unlock() }
        if _failure == nil { _ = startIfNeeded(for: name) }
    }

    func setup(animator id: String, name: String, payload: TransitionPayload) -> SetupOutcome {
        lock.withLock {
            if let failure = _failure { return .failed(failure.quarantineReason) }
            if let why = startIfNeeded(for: name) { return .failed(why) }
            guard animatorIDs.contains(id) else {
                return .failed("is no longer provided by \(file) (was the file replaced since it was scanned?)")
            }
            let text = SetupRequest(animator: id, payload: payload).encoded()
            guard let memory, memory.write(text, at: WorkerLayout.text, capacity: WorkerLayout.textCapacity) else {
                return .failed("could not be sent its context")
            }
            let slot = nextSlot
            nextSlot &+= 1
            let reply = call(WorkerRequest(op: .setup, slot: slot, length: UInt32(text.count)), name, nil,
                             settings.deadlines.setup)
            switch reply {
            case .failure(let why): return .failed(why.message)
            case .success(let r) where r.status != WorkerReply.ok:
                return .failed("could not be set up: \(PluginBoundary.text(in: memory, at: WorkerLayout.text, length: r.length, capacity: 4096))")
            case .success(let r):
                if active.isEmpty { _ = turned(busy: true) }
                active.insert(slot)
                lastAnimator = name
                return .planned(slot: slot, plan: PluginBoundary.plan(result: r.value, copyingFrom: memory.base + WorkerLayout.plan))
            }
        }
    }

    /// Evaluates `slot` at `t` into `layers` (and their meshes).
    /// - Returns: nil, or what went wrong (the worker is then gone).
    func evaluate(slot: UInt32, name: String, t: Double, layers: LayerStates) -> String? {
        lock.withLock {
            if let failure = _failure { return failure.quarantineReason }
            guard let memory else { return "has no worker" }
            let count = send(layers, to: memory)
            if case .failure(let why) = call(WorkerRequest(op: .evaluate, slot: slot, argument: UInt32(count), t: t),
                                             name, t, settings.deadlines.evaluate) {
                return why.message
            }
            take(count, into: layers, from: memory)
            return nil
        }
    }

    /// Evaluates `slot` at each of `times` (at most `frames.capacity`) in one
    /// round trip, each from the pre-filled `layers` (states and meshes), and
    /// hands each answered frame to `take` (its index, in the order asked;
    /// the worker's states at that frame, to copy with
    /// ``PluginBoundary/takeLayerStates(from:frame:of:into:count:)``). The
    /// worker may answer fewer than asked (``WorkerLayout/aheadBudget``).
    /// Waits as ``evaluate(slot:name:t:layers:)`` does (the deadline counts
    /// the budget too).
    /// - Returns: how many frames were answered, or what went wrong (the worker is then gone).
    func evaluate(slot: UInt32, name: String, times: UnsafeBufferPointer<Double>, layers: LayerStates,
                  frames: WorkerLayout.AheadFrames, _ take: (Int, SharedMemory) -> Void) -> Result<Int, CallFailure> {
        lock.withLock {
            if let failure = _failure { return .failure(CallFailure(message: failure.quarantineReason)) }
            guard let memory else { return .failure(CallFailure(message: "has no worker")) }
            let asked = min(times.count, frames.capacity)
            let count = send(layers, to: memory)
            for j in 0..<asked { (memory.base + WorkerLayout.aheadTimes + j * 8).storeBytes(of: times[j], as: Double.self) }
            let request = WorkerRequest(op: .evaluateAhead, slot: slot, argument: UInt32(count), length: UInt32(asked), t: times.first ?? 0)
            let settled = inFlight == nil
            memory.storeRelease(0, at: WorkerLayout.aheadProgress)
            switch call(request, name, times.first, settings.deadlines.evaluate + WorkerLayout.aheadBudget) {
            case .failure(let why):
                // The report names the t of the frame the worker was at, as far as it said.
                guard settled, asked > 1, var failure = _failure else { return .failure(why) }
                failure.t = times[min(Int(memory.loadAcquire(at: WorkerLayout.aheadProgress)), asked - 1)]
                _failure = failure
                return .failure(CallFailure(message: "\(failure.description); the plugin is quarantined"))
            case .success(let reply):
                let answered = min(Int(reply.value), asked)
                for j in 0..<answered { take(j, memory) }
                return .success(answered)
            }
        }
    }

    /// What ``evaluate(slot:name:t:layers:patience:)`` found.
    enum Bounded: Equatable {
        /// `layers` hold the states.
        case answered
        /// The worker did not answer within the patience: the call is in flight; ``collect(into:)`` takes its answer.
        case pending
        /// Another call to this worker is under way or in flight: nothing was sent.
        case busy
        /// The worker failed (it is gone); the text says how.
        case failed(String)
    }

    /// Evaluates as ``evaluate(slot:name:t:layers:)`` does, but waits at most
    /// `patience` seconds for the worker, and never for another caller: a
    /// render thread's call. A late answer stays in flight under the call's
    /// own deadline; the next call to this worker, or ``collect(into:)``,
    /// takes it (killing the worker if the deadline passes).
    func evaluate(slot: UInt32, name: String, t: Double, layers: LayerStates, patience: Double) -> Bounded {
        guard lock.try() else { return .busy }
        defer { lock.unlock() }
        guard inFlight == nil else { return .busy }
        if let failure = _failure { return .failed(failure.quarantineReason) }
        guard let memory, let channel else { return .failed("has no worker") }
        let count = send(layers, to: memory)
        let before = memory.loadAcquire(at: WorkerLayout.replies)
        let started = MonotonicTime.now
        guard channel.send(WorkerRequest(op: .evaluate, slot: slot, argument: UInt32(count), t: t)) else {
            return .failed(fail(.evaluate, animator: name, t: t, what: ended(), kill: false))
        }
        if settings.spin > 0 { _ = memory.spin(whileEqual: before, at: WorkerLayout.replies, seconds: min(settings.spin, patience)) }
        let waited = MonotonicTime.now - started
        if waited >= patience, memory.loadAcquire(at: WorkerLayout.replies) == before {
            inFlight = InFlight(name: name, t: t, count: count, deadline: started + settings.deadlines.evaluate)
            return .pending
        }
        switch channel.receiveReply(within: max(patience - waited, 0)) {
        case .failure(.timedOut):
            inFlight = InFlight(name: name, t: t, count: count, deadline: started + settings.deadlines.evaluate)
            return .pending
        case let other:
            if case .failure(let why) = received(other, .evaluate, name, t, settings.deadlines.evaluate) { return .failed(why.message) }
            take(count, into: layers, from: memory)
            return .answered
        }
    }

    /// What ``collect(into:)`` found.
    enum Collected: Equatable {
        /// `layers` hold the answer of the call that was in flight.
        case collected
        /// No call was in flight (another caller took its answer).
        case nothing
        /// The worker failed (it is gone); the text says how.
        case failed(String)
    }

    /// Waits, until its deadline, for the answer of the call
    /// ``evaluate(slot:name:t:layers:patience:)`` left in flight, and takes
    /// its states into `layers`.
    func collect(into layers: LayerStates) -> Collected {
        lock.withLock {
            guard let pending = inFlight else { return .nothing }
            if let why = settle() { return .failed(why) }
            guard let memory else { return .failed("has no worker") }
            take(pending.count, into: layers, from: memory)
            return .collected
        }
    }

    /// A call sent whose answer the caller did not wait for.
    private struct InFlight {
        var name: String, t: Double, count: Int, deadline: Double
    }
    private var inFlight: InFlight?

    /// Waits for the answer of the call in flight, if any, until its
    /// deadline; nil, or why the worker failed (it is then gone).
    private func settle() -> String? {
        guard let pending = inFlight else { return nil }
        inFlight = nil
        let left = max(pending.deadline - MonotonicTime.now, 0)
        if case .failure(let why) = receive(.evaluate, pending.name, pending.t, left, stating: settings.deadlines.evaluate) {
            return why.message
        }
        return nil
    }

    /// Writes `layers` (states and meshes) into the worker's shared memory; how many.
    private func send(_ layers: LayerStates, to memory: SharedMemory) -> Int {
        let count = min(layers.count, Int(SEGUE_MAX_LAYERS))
        for i in 0..<count {
            let slotBase = memory.base + WorkerLayout.state(i)
            var state = layers[i].raw
            let mesh = UnsafeMutableBufferPointer(start: state.mesh, count: min(Int(state.mesh_vertex_count), WorkerLayout.meshCapacity))
            state.mesh = nil
            state.mesh_vertex_count = UInt32(mesh.count)
            slotBase.storeBytes(of: state, as: segue_layer_state_t.self)
            if let source = mesh.baseAddress {
                (memory.base + WorkerLayout.mesh(i)).copyMemory(from: source, byteCount: mesh.count * WorkerLayout.vertexStride)
            }
        }
        return count
    }

    /// Takes the worker's answer for `count` layers into `layers`, through the boundary.
    private func take(_ count: Int, into layers: LayerStates, from memory: SharedMemory) {
        PluginBoundary.takeLayerStates(from: memory, into: UnsafeMutableRawPointer(layers.base).assumingMemoryBound(to: segue_layer_state_t.self), count: count)
    }

    func end(slot: UInt32, name: String, completed: Bool) -> String? {
        lock.withLock {
            if let failure = _failure { return failure.quarantineReason }
            if case .failure(let why) = call(WorkerRequest(op: .end, slot: slot, argument: completed ? 1 : 0), name, nil,
                                             settings.deadlines.end) {
                return why.message
            }
            if active.remove(slot) != nil, active.isEmpty {
                defer { lastAnimator = name }
                return turned(busy: false)
            }
            return nil
        }
    }

    // MARK: - Processor time kept in its place

    /// What a worker may ask of the processors beyond its requests: while no
    /// transition is in flight, 0.1 CPU-seconds plus a tenth of every second
    /// idle (its own housekeeping is far less; a thread left computing is
    /// over it within a second); while one is, 2 processors' worth (2 s a
    /// second of wall time, plus the 0.1 s), judged at every reading over
    /// a window renewed each ``busyWindow`` and, when the transition ends,
    /// over its last part. A plugin whose evaluate and setup run on the
    /// thread that calls them asks at most one processor's worth, whatever
    /// it computes: only threads computing beside it (fanning out) reach two.
    /// What is asked is CPU time used plus time waited for a processor
    /// (``ProcessorUse``), so a loaded machine neither hides a plugin's
    /// threads nor blames an honest one.
    static let idleAllowance = (base: 0.1, perSecond: 0.1)
    /// How many processors' worth a worker may ask while a transition is in flight.
    static let busyMultiple = 2.0
    /// How long a window lasts while a transition does, in seconds.
    static let busyWindow = 1.0
    /// How often a worker's use is read.
    static let watchInterval = 0.5

    /// Reads the worker's use every ``watchInterval`` seconds for as long
    /// as it lives; one that asks more than it may (``idleAllowance``,
    /// ``busyMultiple``) is ended and its plugin quarantined, saying so, as
    /// a crash is.
    private func watchProcessorUse() {
        // The worker is held only while it is checked, never while the thread sleeps: a worker its
        // pool lets go of ends (its process with it) as it would without the watch.
        let start = starts
        _ = detachThread { [weak self] in
            while let stop = self?.checkProcessorUse(start: start), !stop {
                usleep(UInt32(PluginWorker.watchInterval * 1e6))
            }
        }
    }

    /// One reading of the worker's use: true when the watch is over (the
    /// worker is gone or failed, or was ended now).
    private func checkProcessorUse(start: Int) -> Bool {
        let (pid, phase) = lock.withLock { (_failure == nil && starts == start ? process?.pid : nil, self.phase) }
        guard let pid else { return true }
        let use = ProcessorUse.read(pid: pid)  // outside the lock: a render thread's call never waits for /proc
        let now = MonotonicTime.now
        return lock.withLock {
            guard _failure == nil, process?.pid == pid else { return true }
            guard let use, phase == self.phase, let window else {
                window = use.map { (now, $0, !active.isEmpty) }  // a transition began or the last ended meanwhile
                return false
            }
            if let what = overUse(since: window, now: now, use: use) {
                _ = fail(window.busy ? .evaluate : .end, animator: lastAnimator, t: nil, what: what, kill: true)
                return true
            }
            if window.busy, now - window.since >= Self.busyWindow { self.window = (now, use, true) }
            return false
        }
    }

    /// What the worker did beyond what it may since `window` began, or nil.
    private func overUse(since window: (since: Double, use: ProcessorUse, busy: Bool), now: Double, use: ProcessorUse) -> String? {
        let elapsed = now - window.since
        let (used, waited) = use.since(window.use)
        let asked = used + waited
        let spent = String(format: "used %.2f CPU-s and waited %.2f s for a processor in %.2f s", used, waited, elapsed)
        if !window.busy {
            guard asked > Self.idleAllowance.base + Self.idleAllowance.perSecond * elapsed else { return nil }
            return "kept computing after its transition ended (\(spent))"
        }
        guard asked > Self.idleAllowance.base + Self.busyMultiple * elapsed else { return nil }
        return "computed beside its calls during its transition (\(spent): more than \(Int(Self.busyMultiple))x its wall time)"
    }

    /// A transition began with none in flight, or the last in flight ended:
    /// the busy window that ends is judged, and a new one, of the other
    /// kind, begins now. Nil, or why the worker was ended.
    private func turned(busy: Bool) -> String? {
        phase &+= 1
        pool?.mark(ObjectIdentifier(self), idleSince: busy ? nil : MonotonicTime.now)
        let now = MonotonicTime.now
        guard let use = process.flatMap({ ProcessorUse.read(pid: $0.pid) }) else {
            window = nil
            return nil
        }
        if let window, window.busy, let what = overUse(since: window, now: now, use: use) {
            self.window = nil
            return fail(.evaluate, animator: lastAnimator, t: nil, what: what, kill: true)
        }
        window = (now, use, busy)
        return nil
    }

    // MARK: - Memory shared with the pool's other workers

    /// Ends the worker if it is idle (started, no transition in flight, not
    /// failed) and no call holds it now, to make room in its pool's memory
    /// budget. Not a failure: the next transition starts it again.
    /// - Returns: whether it was ended.
    func endIfIdle() -> Bool {
        guard lock.try() else { return false }
        defer { lock.unlock() }
        guard let process, active.isEmpty, inFlight == nil, _failure == nil else { return false }
        process.kill()
        channel?.close()
        (self.process, channel, memory, sandbox, window) = (nil, nil, nil, nil, nil)
        phase &+= 1
        pool?.release(ObjectIdentifier(self))
        return true
    }

    // MARK: - The process

    /// Starts the worker (or takes the one started ahead, ``WorkerPool/prestart()``)
    /// and has it load the plugin; nil, or why it could not.
    private func startIfNeeded(for name: String) -> String? {
        if process != nil { return nil }
        memoryLimit = settings.sandbox.memoryLimit
        if settings.sandbox.mode == .strict, let pool {
            switch pool.reserve(for: self) {
            case .failure(let why): return why.message
            case .success(let bytes): memoryLimit = bytes
            }
        }
        let idle: IdleWorker
        switch pool?.takeIdle() ?? IdleWorker.start(settings: settings) {
        case .failure(let why):
            pool?.release(ObjectIdentifier(self))
            return why.description
        case .success(let started): idle = started
        }
        starts += 1
        (process, channel, memory, sandbox) = (idle.process, idle.channel, idle.memory, nil)
        idle.process.output.relabel("plugin \(file)")
        let path = [UInt8](file.utf8)
        guard idle.memory.write(path, at: WorkerLayout.text, capacity: WorkerLayout.textCapacity),
              idle.channel.send(WorkerRequest(op: .load, argument: UInt32(clamping: memoryLimit >> 20), length: UInt32(path.count))) else {
            return fail(.load, animator: name, t: nil, what: ended(), kill: true)
        }
        // First: the sandbox is entered, with the thread limit's listener when there is one.
        switch idle.channel.receiveReplyWithDescriptor(within: settings.deadlines.load) {
        case .failure(let why):
            return fail(.load, animator: name, t: nil, what: why == .closed ? ended() : "did not enter its sandbox (\(why))", kill: true)
        case .success(let (r, listener)):
            guard r.status == WorkerReply.ok else {
                listener.map { _ = close($0) }
                let text = PluginBoundary.text(in: idle.memory, at: WorkerLayout.text, length: r.length, capacity: 4096)
                return fail(.load, animator: name, t: nil, what: "could not load it: \(text)", kill: true)
            }
            if let listener {
                let supervisor = SandboxSupervisor()
                guard Self.supervise(listener, pid: idle.process.pid, threadLimit: settings.sandbox.threadLimit, by: supervisor) else {
                    return fail(.load, animator: name, t: nil, what: "could not be supervised: no thread could be started (\(Errno.current))", kill: true)
                }
                sandbox = supervisor
            }
        }
        switch receive(.load, name, nil, settings.deadlines.load) {
        case .failure(let why): return why.message
        case .success(let r):
            guard r.status == WorkerReply.ok else {
                let text = PluginBoundary.text(in: idle.memory, at: WorkerLayout.text, length: r.length, capacity: 1 << 20)
                return fail(.load, animator: name, t: nil, what: "could not load it: \(text)", kill: true)
            }
            animatorIDs = Set(PluginBoundary.lines(in: idle.memory, at: WorkerLayout.text, length: r.length, capacity: 1 << 20))
            watchProcessorUse()
            return nil
        }
    }

    /// Answers the calls the worker's sandbox holds for its supervisor
    /// (``SandboxSupervisor``) on a thread of this process's, until the
    /// worker is gone. False when no thread could be started: the worker's
    /// refused calls would then fail unrecorded, so it must not run.
    private static func supervise(_ listener: Int32, pid: Int32, threadLimit: Int, by supervisor: SandboxSupervisor) -> Bool {
        let started = detachThread {
            defer { close(listener) }
            var poller = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            while (try? SystemCall.poll(&poller, until: nil)) != nil {
                if poller[0].revents & Int16(POLLIN) != 0 {
                    guard supervisor.answer(listener, pid: pid, threadLimit: threadLimit) else { return }
                } else if poller[0].revents != 0 {
                    return  // POLLHUP: the worker is gone
                }
            }
        }
        if !started { close(listener) }
        return started
    }

    /// Sends `request` and waits `deadline` seconds at most for its reply.
    private func call(_ request: WorkerRequest, _ name: String, _ t: Double?, _ deadline: Double) -> Result<WorkerReply, CallFailure> {
        let op = WorkerOp(rawValue: request.op)!  // made from a WorkerOp
        if let why = settle() { return .failure(CallFailure(message: why)) }
        let before = memory?.loadAcquire(at: WorkerLayout.replies) ?? 0
        guard let channel, channel.send(request) else {
            return .failure(CallFailure(message: fail(op, animator: name, t: t, what: ended(), kill: false)))
        }
        // The reply is then already queued: receiving it does not sleep.
        if settings.spin > 0 { _ = memory?.spin(whileEqual: before, at: WorkerLayout.replies, seconds: settings.spin) }
        return receive(op, name, t, deadline)
    }

    /// The plugin tried something its sandbox refused (it may have gone on,
    /// the call failing), or wrote over its shared memory's note: the worker
    /// is ended before anything it answered is used.
    private func refused(_ op: WorkerOp, _ name: String, _ t: Double?) -> CallFailure? {
        guard let memory else { return nil }
        guard (sandbox?.recorded.count ?? 0) > 0 || !SandboxNote(copyingFrom: memory).isIntact else { return nil }
        return CallFailure(message: fail(op, animator: name, t: t, what: nil, kill: true))
    }

    /// Waits `deadline` seconds at most for the reply to `op`; a call left
    /// in flight says its whole deadline (`stating`) when it runs out.
    private func receive(_ op: WorkerOp, _ name: String, _ t: Double?, _ deadline: Double,
                         stating stated: Double? = nil) -> Result<WorkerReply, CallFailure> {
        received(channel!.receiveReply(within: deadline), op, name, t, stated ?? deadline)
    }

    /// What a reply that arrived, or did not, means; the worker is ended when it failed.
    private func received(_ reply: Result<WorkerReply, WorkerChannel.Failure>, _ op: WorkerOp, _ name: String, _ t: Double?,
                          _ deadline: Double) -> Result<WorkerReply, CallFailure> {
        switch reply {
        case .success(let reply):
            if let refusal = refused(op, name, t) { return .failure(refusal) }
            return .success(reply)
        case .failure(.timedOut):
            return .failure(CallFailure(message: fail(op, animator: name, t: t, what: "did not answer within \(deadline.formatted()) s (an endless loop?) and was killed", kill: true)))
        case .failure(.closed):
            return .failure(CallFailure(message: fail(op, animator: name, t: t, what: ended(), kill: false)))
        case .failure(.malformed(let size)):
            return .failure(CallFailure(message: fail(op, animator: name, t: t, what: "sent a malformed reply (\(size) bytes) and was killed", kill: true)))
        case .failure(.otherVersion(let version)):
            let worker = (try? settings.worker().get()) ?? "segue-worker"
            return .failure(CallFailure(message: fail(op, animator: name, t: t, what: "could not be used: " + WorkerReply.mismatch(version, worker: worker), kill: true)))
        }
    }

    /// How the worker ended, once its end of the socket closed.
    private func ended() -> String {
        guard let ended = process?.wait(seconds: 2) ?? process?.kill() else { return "stopped answering" }
        return ended.description
    }

    /// Ends the worker and quarantines the plugin. What its sandbox recorded
    /// comes first: what the plugin tried and was refused (`what`, if any, is
    /// then how it ended), or that it ran out of memory. Returns the failure, for reports.
    private func fail(_ op: WorkerOp, animator: String?, t: Double?, what ended: String?, kill: Bool) -> String {
        if kill { process?.kill() }
        let note = memory.map(SandboxNote.init(copyingFrom:))
        let attempts = sandbox?.recorded.attempts()
        channel?.close()
        (process, channel, memory, sandbox) = (nil, nil, nil, nil)
        inFlight = nil  // its answer will not come (the processor watch may end a worker mid-call)
        pool?.release(ObjectIdentifier(self))
        var what = ended ?? "stopped answering", detail: String?
        if let attempts {
            (what, detail) = (attempts, "refused by the sandbox" + (ended.map { "; then it \($0)" } ?? ""))
        } else if note?.isIntact == false {
            // Garbage where the worker's note should be: no cause is made up from it.
            (what, detail) = ("wrote over its shared memory", ended.map { "then it \($0)" })
        } else if let ended, settings.sandbox.mode == .strict,
                  note?.ranOutOfMemory(limit: memoryLimit) == true {
            let limit = SandboxPolicy.formatted(memoryLimit)
            let more = memoryLimit < settings.sandbox.memoryLimit
                ? "what was left of the workers' memory budget; allow more with \"limits\": {\"totalMemory\": ...} in the config"
                : "allow more with \"limits\": {\"memory\": ...} in the config or --plugin-memory"
            (what, detail) = ("ran out of memory", "it reached its limit of \(limit) of address space and \(ended) (\(more))")
        }
        var failure = PluginFailure(file: file, animator: animator, call: op.name, t: t, what: what, detail: detail, date: Date())
        failure.refusedBySandbox = attempts != nil
        _failure = failure
        return "\(failure.description); the plugin is quarantined"
    }
}

/// A call that did not get its answer; the message says why, for reports.
struct CallFailure: Error {
    let message: String
}
