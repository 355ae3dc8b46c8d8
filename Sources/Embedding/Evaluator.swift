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

    private let animator: any TransitionAnimator
    private let bounded: (any BoundedEvaluation)?
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
    private let failed: @Sendable (String, Double) -> Void

    /// An evaluator of `animator` (set up, with `layers` planned); `failed`
    /// hears, once, how it failed and at which t. Until the animator first
    /// answers, samples hold the resting states with the layers at
    /// `hiddenAtFirst` hidden: the transition's start.
    init?(animator: any TransitionAnimator, layers: LayerBuffer.Layout, hiddenAtFirst: [Int],
          failed: @escaping @Sendable (String, Double) -> Void) {
        self.animator = animator
        bounded = animator as? any BoundedEvaluation
        self.failed = failed
        newest = LayerBuffer(layers)
        newest.conceal(hiddenAtFirst)
        scratch = LayerBuffer(layers)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
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
            // own t, the thread with a t to evaluate or an answer to collect)
            // may go on now. Nobody waiting, nobody is woken: a frame's
            // sample then costs no wake-up of the thread.
            if waiters > 0 || wanted != nil || collecting != nil { pthread_cond_broadcast(condition) }
        }
        if answered != t, failure == nil, !late {
            wanted = t
            pthread_cond_broadcast(condition)
            var until = timespec(tv_sec: Int(deadline.rounded(.down)), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
            waiters += 1
            defer { waiters -= 1 }
            while answered != t, failure == nil, !stopping {
                if pthread_cond_timedwait(condition, mutex, &until) == ETIMEDOUT {
                    late = answered != t
                    break
                }
            }
        } else if answered != t, failure == nil {
            wanted = t  // asked again once the plugin answers
            pthread_cond_broadcast(condition)
        }
        if let failure { return .failed(failure) }
        read(newest)
        return answered == t ? .fresh : .held
    }

    /// Asks the plugin for the states at `t` on the evaluator's thread, ahead
    /// of a sample at that t, and returns at once: the sample then finds the
    /// answer (or waits for it under its bound) without a round trip of its
    /// own. Nothing when the states at `t` are in hand or the plugin failed. [any thread]
    func prefetch(at t: Double) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard failure == nil, !stopping, answered != t, wanted != t else { return }
        wanted = t
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
            } else if let t = wanted, answered == t {
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
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        pthread_mutex_unlock(mutex)
    }
}
