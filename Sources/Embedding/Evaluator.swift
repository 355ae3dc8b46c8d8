import AnimatorABI
import Glibc
import HostContainer
import PluginHost
import SystemCalls

/// Asks a plugin animator for layer states so that a caller (a program's
/// render thread) never waits on plugin code for longer than a bound.
///
/// A sample asks the plugin on the caller's own thread when it can (a plugin
/// in a worker: ``BoundedEvaluation``), waiting at most the bound; an answer
/// later than that, and every question to a plugin that cannot be asked that
/// way (one in this process), goes to the evaluator's thread, which waits
/// under the plugin's own deadline. A sample that finds no answer for its t
/// within the bound leaves with the newest states the plugin did give (or the
/// resting states before its first). When the plugin fails (its worker
/// crashed, hung past its deadline, was refused by its sandbox) or answers a
/// non-finite value, the evaluator stops and says so once, through `failed`.
///
/// Ahead: a plugin in a worker (``AheadEvaluation``) whose host samples on a
/// regular clock (a prefetch of t + Δ after a sample at t) is asked, in one
/// round trip on the evaluator's thread, for the frames at t + Δ, t + 2Δ, ...
/// (up to ``aheadFrames``, fewer for large meshes); a sample or a prefetch
/// within ``aheadTolerance`` of one of them takes the plugin's answer at that
/// time, with no round trip and no thread woken. The next frames are asked
/// for when fewer than half are left ahead; the first two (on a 60 Hz clock)
/// as the transition starts (``start(at:step:)``). Evaluating ahead is
/// legitimate because an animator's evaluate depends only on t and its setup
/// (DESIGN.md, "The ABI"). A frame evaluated ahead whose values are not
/// finite fails the transition only when a sample reaches it. A worker that
/// fails while evaluating ahead fails it at once, its batch lost with it; a
/// batch is at most as long as all the frames answered before it, so the
/// frames before a failing t have been answered in earlier ones.
final class Evaluator: @unchecked Sendable {  // shared state guarded by `mutex`
    /// What a sample found.
    enum Answer: Equatable {
        /// The states at the time asked for.
        case fresh
        /// The newest states there are, at another time: the plugin is late.
        case held
        /// The plugin failed; the text says how.
        case failed(String)
    }

    /// How far a sample's t may lie from a time evaluated ahead and take its
    /// answer, in seconds of the transition: KWin's presentation times are
    /// whole milliseconds, and a frame on a regular clock is never further.
    static let aheadTolerance = 0.002
    /// The most frames kept evaluated ahead (a quarter of a second at 60 Hz):
    /// the next are asked for when half are left, so a worker that a busy
    /// machine runs late has an eighth of a second to answer.
    static let aheadFrames = 16
    /// The memory the frames evaluated ahead may take, which fewer frames of a large mesh keep to.
    static let aheadMemory = 1 << 20
    /// How many frames this evaluator keeps ahead.
    private let frameCount: Int
    /// The largest step between frames taken for a regular clock (10 Hz).
    static let aheadLongestStep = 0.1

    private let animator: any TransitionAnimator
    private let bounded: (any BoundedEvaluation)?
    private let aheadCapable: (any AheadEvaluation)?
    /// The animator's times run over [0, end].
    private let end: Double
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread = pthread_t()
    private var running = false

    // Guarded by `mutex`.
    /// A t for the thread to evaluate.
    private var wanted: Double?
    /// The t of an answer the thread is to collect (a sample's, which came late).
    private var collecting: Double?
    /// Someone (a sample or the thread) is asking the plugin: `scratch` is theirs.
    private var asking = false
    private var answered: Double?
    /// A sample ran out of its bound and the plugin has not answered since:
    /// later samples take the newest states at once rather than wait again.
    private var late = false
    private var failure: String?
    private var stopping = false
    /// How many samples wait for an answer now.
    private var waiters = 0
    /// The newest answer (before the first, resting states with the arriving layers hidden).
    private let newest: LayerBuffer

    /// What the plugin writes into: whoever is asking has it.
    private let scratch: LayerBuffer

    // Evaluating ahead, guarded by `mutex`.
    private let layout: LayerBuffer.Layout
    /// Frames evaluated ahead (made on the thread when first needed), and
    /// the time of each (NaN: none, or being filled by the thread).
    private var ahead: [LayerBuffer] = []
    private var aheadTimes: [Double]
    /// The first frame evaluated ahead that is not finite, and why: it fails
    /// the transition when a sample reaches it.
    private var aheadProblem: (t: Double, why: String)?
    /// The step of the host's clock, from a prefetch after a sample.
    private var step: Double?
    /// The t of the last sample.
    private var lastSampled: Double?
    /// The thread is to evaluate ahead from this t (`restart`: after dropping every frame).
    private var aheadFrom: (t: Double, restart: Bool)?
    /// The times the thread evaluates ahead now (`batchCount` of them), and into which frames.
    private let batchTimes: UnsafeMutableBufferPointer<Double>
    private var batchSlots: [Int]
    private var batchCount = 0
    /// How many frames the animator answered ahead so far.
    private var aheadAnswered = 0
    private let failed: @Sendable (String, Double) -> Void

    /// An evaluator of `animator` (set up, with `layers` planned); `failed`
    /// hears, once, how it failed and at which t. Until the animator first
    /// answers, samples hold the resting states with the layers at
    /// `hiddenAtFirst` hidden: the transition's start.
    init?(animator: any TransitionAnimator, layers: LayerBuffer.Layout, hiddenAtFirst: [Int], duration: Double = 0,
          failed: @escaping @Sendable (String, Double) -> Void) {
        self.animator = animator
        bounded = animator as? any BoundedEvaluation
        aheadCapable = duration > 0 ? animator as? any AheadEvaluation : nil
        end = duration
        layout = layers
        let vertices = layers.meshes.reduce(0) { $0 + ($1.columns > 0 ? ($1.columns + 1) * ($1.rows + 1) : 0) }
        let frameBytes = layers.resting.count * MemoryLayout<LayerState>.stride + vertices * MemoryLayout<segue_vec3_t>.stride
        frameCount = min(Self.aheadFrames, max(4, Self.aheadMemory / max(frameBytes, 1)))
        aheadTimes = [Double](repeating: .nan, count: frameCount)
        batchTimes = .allocate(capacity: frameCount)
        batchSlots = [Int](repeating: 0, count: frameCount)
        self.failed = failed
        newest = LayerBuffer(layers)
        newest.conceal(hiddenAtFirst)
        scratch = LayerBuffer(layers)
        pthread_mutex_init(mutex, nil)
        MonotonicCondition.initialize(condition)
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard pthread_create(&thread, nil, { raw in
            Unmanaged<Evaluator>.fromOpaque(raw!).takeUnretainedValue().run()
            return nil
        }, context) == 0 else { return nil }
        running = true
    }

    deinit {
        stop()
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
        batchTimes.deallocate()
    }

    /// Ends the thread, after the question to the plugin it may be asking
    /// (which the plugin's own deadline bounds). Then the animator is the
    /// caller's alone again.
    func stop() {
        guard running else { return }
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        pthread_join(thread, nil)
        running = false
    }

    /// The states at `t`, handed to `read` (with the evaluator's lock held,
    /// so copy them out and return), waiting at most `bound` seconds for the
    /// plugin. [any thread]
    func sample(at t: Double, within bound: Double, _ read: (LayerBuffer) -> Void) -> Answer {
        let deadline = MonotonicTime.now + bound
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let failure { return .failed(failure) }
        lastSampled = t
        if let answer = fromAhead(t, read) { return answer }
        if answered != t, let bounded, !asking {
            // Ask on this thread: no hand-over to another thread and back.
            asking = true
            pthread_mutex_unlock(mutex)
            scratch.rest()
            let answer = bounded.evaluate(at: t, layers: scratch.states, within: bound)
            let problem = answer == .failed ? animator.failure ?? "failed" : answer == .answered ? scratch.nonFinite(at: t) : nil
            pthread_mutex_lock(mutex)
            switch answer {
            case _ where problem != nil:
                asking = false
                return fail(problem!, at: t)
            case .answered:
                newest.copy(from: scratch)
                answered = t
                late = false
                asking = false
            case .pending:
                collecting = t  // the thread takes the late answer; `asking` stays set until it has
                late = true
            case .busy, .failed:
                asking = false
            }
            // Whoever waited while this thread asked (another sample for its
            // own t, the thread with a t to evaluate, frames to evaluate ahead or an answer to collect)
            // may go on now. Nobody waiting, nobody is woken: a frame's
            // sample then costs no wake-up of the thread.
            if waiters > 0 || wanted != nil || collecting != nil || aheadFrom != nil { pthread_cond_broadcast(condition) }
        }
        if answered != t, failure == nil, !late {
            wanted = t
            pthread_cond_broadcast(condition)
            waiters += 1
            defer { waiters -= 1 }
            while answered != t, failure == nil, !stopping, aheadSlot(t) == nil {
                if !MonotonicCondition.wait(condition, mutex, until: deadline) {
                    late = answered != t
                    break
                }
            }
        } else if answered != t, failure == nil {
            wanted = t  // asked again once the plugin answers
            pthread_cond_broadcast(condition)
        }
        if let failure { return .failed(failure) }
        if answered != t, let answer = fromAhead(t, read) { return answer }
        read(newest)
        return answered == t ? .fresh : .held
    }

    /// The frame evaluated ahead within ``aheadTolerance`` of `t`, the nearest. Called with `mutex` held.
    private func aheadSlot(_ t: Double) -> Int? {
        var best: Int?
        for s in aheadTimes.indices where abs(aheadTimes[s] - t) <= Self.aheadTolerance {
            if best == nil || abs(aheadTimes[s] - t) < abs(aheadTimes[best!] - t) { best = s }
        }
        return best
    }

    /// The sample at `t` answered from the frames evaluated ahead, or nil
    /// when none is within the tolerance: the frame's states become the
    /// newest and go to `read`; a frame that was not finite fails. Called with `mutex` held.
    private func fromAhead(_ t: Double, _ read: (LayerBuffer) -> Void) -> Answer? {
        if let problem = aheadProblem, abs(problem.t - t) <= Self.aheadTolerance { return fail(problem.why, at: problem.t) }
        guard let slot = aheadSlot(t) else { return nil }
        newest.copy(from: ahead[slot])
        answered = aheadTimes[slot]
        late = false
        read(newest)
        return .fresh
    }

    /// Asks the plugin for the states at `t` on the evaluator's thread, ahead
    /// of a sample at that t, and returns at once: the sample then finds the
    /// answer (or waits for it under its bound) without a round trip of its
    /// own. Nothing when the states at `t` are in hand or the plugin failed. [any thread]
    func prefetch(at t: Double) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard failure == nil, !stopping else { return }
        if aheadCapable != nil, let last = lastSampled, t != last, abs(t - last) <= Self.aheadLongestStep { step = t - last }
        if aheadCapable != nil, let step {
            prefetchAhead(t, step)
            return
        }
        guard answered != t, wanted != t else { return }
        wanted = t
        pthread_cond_broadcast(condition)
    }

    /// Has the evaluator's thread ask the animator for the first frames from
    /// `t` on a clock of `step` (a guess: the first prefetch after a sample
    /// says the host's own), or for `t` alone when it cannot evaluate ahead,
    /// and waits for them until `deadline` (``MonotonicTime/now``'s clock), so
    /// that the first samples find them. [any thread]
    /// - Returns: false when they had not come by the deadline: the plugin
    ///   is late, and samples hold the start until it answers.
    @discardableResult
    func start(at t: Double, step guess: Double, until deadline: Double) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard failure == nil, !stopping else { return true }
        if aheadCapable != nil, guess != 0 {
            step = guess
            prefetchAhead(t, guess)
        } else {
            wanted = t
            pthread_cond_broadcast(condition)
        }
        while answered != t, aheadSlot(t) == nil, aheadProblem == nil, failure == nil, !stopping {
            if !MonotonicCondition.wait(condition, mutex, until: deadline) {
                // Samples take the start at once rather than each wait its bound, until the plugin answers.
                late = answered != t && aheadSlot(t) == nil
                return !late
            }
        }
        return true
    }

    /// A prefetch on a regular clock of `step`: nothing while the frames
    /// evaluated ahead hold `t` and at least half of them lie beyond it;
    /// else the thread evaluates the next ones (from `t` when it is not
    /// among them). Called with `mutex` held.
    private func prefetchAhead(_ t: Double, _ step: Double) {
        if let problem = aheadProblem, abs(problem.t - t) <= Self.aheadTolerance { return }
        guard aheadSlot(t) != nil else {
            let coming = (0..<batchCount).contains { abs(batchTimes[$0] - t) <= Self.aheadTolerance }
            if !coming {
                aheadFrom = (t, true)
                pthread_cond_broadcast(condition)
            }
            return
        }
        guard aheadFrom == nil, batchCount == 0, aheadProblem == nil else { return }
        var beyond = 0, furthest = t
        for time in aheadTimes where (time - t) / step > 0.5 {
            beyond += 1
            if (time - furthest) / step > 0 { furthest = time }
        }
        let more = step > 0 ? furthest < end : furthest > 0
        guard beyond < frameCount / 2, more else { return }
        aheadFrom = (furthest + step, false)
        pthread_cond_broadcast(condition)
    }

    /// Has the animator evaluate ahead from `from`, into the frames that are
    /// free (none, or behind the last sample; all of them on a `restart`).
    /// Called on the thread with `mutex` held; returns with it held.
    private func evaluateAhead(from: Double, restart: Bool, step: Double, _ capable: any AheadEvaluation) {
        if ahead.isEmpty {
            pthread_mutex_unlock(mutex)
            let made = (0..<frameCount).map { _ in LayerBuffer(layout) }
            pthread_mutex_lock(mutex)
            ahead = made
        }
        if restart {
            for s in aheadTimes.indices { aheadTimes[s] = .nan }
            aheadProblem = nil
        }
        var free = 0
        for s in aheadTimes.indices where aheadTimes[s].isNaN || lastSampled.map({ (aheadTimes[s] - $0) / step < -0.5 }) == true {
            batchSlots[free] = s
            free += 1
        }
        // A batch is at most as long as all before it (two frames first): a
        // plugin that fails at some t keeps answering the frames before it.
        var n = 0
        while n < min(free, max(2, aheadAnswered)) {
            let next = from + Double(n) * step
            let time = min(max(next, 0), end)
            if n > 0 && time == batchTimes[n - 1] { break }
            batchTimes[n] = time
            n += 1
            if time != next { break }  // the end of the transition
        }
        guard n > 0 else { return }
        for j in 0..<n { aheadTimes[batchSlots[j]] = .nan }
        batchCount = n
        asking = true
        pthread_mutex_unlock(mutex)
        scratch.rest()
        let frames = ahead, slots = batchSlots
        let answered = capable.evaluate(ahead: UnsafeBufferPointer(rebasing: batchTimes[0..<n]), from: scratch.states) { j in
            frames[slots[j]].states
        }
        var problem: (frame: Int, why: String)?
        for j in 0..<answered {
            if let why = frames[slots[j]].nonFinite(at: batchTimes[j]) {
                problem = (j, why)
                break
            }
        }
        let failure = answered == 0 ? animator.failure : nil
        pthread_mutex_lock(mutex)
        asking = false
        batchCount = 0
        let good = problem?.frame ?? answered
        for j in 0..<good { aheadTimes[slots[j]] = batchTimes[j] }
        aheadAnswered += good
        if good > 0 { late = false }
        if let problem { aheadProblem = (batchTimes[problem.frame], problem.why) }
        if let failure { _ = fail(failure, at: batchTimes[0]) }
        pthread_cond_broadcast(condition)
    }

    /// How many samples are waiting for an answer now. [any thread]
    var waitingSamples: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return waiters
    }

    /// Records the failure, wakes every waiter, and says it once (outside the lock). Called with `mutex` held.
    private func fail(_ problem: String, at t: Double) -> Answer {
        guard failure == nil else { return .failed(failure!) }
        failure = problem
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        failed(problem, t)
        pthread_mutex_lock(mutex)
        return .failed(problem)
    }

    private func run() {
        // Woken by a render thread's prefetch, this thread waits its turn
        // rather than take the processor from the render thread at once
        // (SCHED_BATCH: a fair share, no preemption on wake-up).
        var parameters = sched_param()
        _ = pthread_setschedparam(pthread_self(), 3 /* SCHED_BATCH, which Glibc's module does not import */, &parameters)
        pthread_mutex_lock(mutex)
        while !stopping, failure == nil {
            if let t = collecting {
                collecting = nil
                pthread_mutex_unlock(mutex)
                let took = bounded?.collect(into: scratch.states) ?? false
                let problem = animator.failure ?? (took ? scratch.nonFinite(at: t) : nil)
                pthread_mutex_lock(mutex)
                asking = false
                if let problem {
                    _ = fail(problem, at: t)
                } else if took {
                    newest.copy(from: scratch)
                    answered = t
                    late = false
                }
                pthread_cond_broadcast(condition)
            } else if let t = wanted, answered == t || aheadSlot(t) != nil {
                wanted = nil  // answered already (a prefetch that a sample also asked for)
            } else if let t = wanted, !asking {
                wanted = nil
                asking = true
                pthread_mutex_unlock(mutex)
                scratch.rest()
                animator.evaluate(at: t, layers: scratch.states)
                let problem = animator.failure ?? scratch.nonFinite(at: t)
                pthread_mutex_lock(mutex)
                asking = false
                if let problem {
                    _ = fail(problem, at: t)
                } else {
                    newest.copy(from: scratch)
                    answered = t
                    late = false
                }
                pthread_cond_broadcast(condition)
            } else if let from = aheadFrom, !asking, let aheadCapable, let step {
                aheadFrom = nil
                evaluateAhead(from: from.t, restart: from.restart, step: step, aheadCapable)
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        pthread_mutex_unlock(mutex)
    }
}
