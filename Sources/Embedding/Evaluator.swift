import Glibc
import HostContainer

/// Asks a plugin animator for layer states on a thread of its own, so that a
/// caller (a program's render thread) never waits on plugin code for longer
/// than a bound: ``sample(at:within:_:)`` asks for t and waits at most the
/// bound; a late answer leaves the caller with the newest states the plugin
/// did give (or the resting states before its first), and the evaluation goes
/// on under the plugin's own deadline. When the plugin fails (its worker
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
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread = pthread_t()
    private var running = false

    // Guarded by `mutex`.
    private var wanted: Double?
    private var answered: Double?
    private var failure: String?
    private var stopping = false
    /// The newest answer (resting states before the first).
    private let newest: LayerBuffer

    /// The evaluator thread's own states, which the plugin writes.
    private let scratch: LayerBuffer
    private let failed: @Sendable (String, Double) -> Void

    /// An evaluator of `animator` (set up, with `layers` planned); `failed`
    /// hears, once, on the evaluator's thread, how it failed and at which t.
    init?(animator: any TransitionAnimator, layers: LayerBuffer.Layout, failed: @escaping @Sendable (String, Double) -> Void) {
        self.animator = animator
        self.failed = failed
        newest = LayerBuffer(layers)
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

    /// Ends the thread, after the call to the plugin it may be in (which its
    /// own deadline bounds). Then the animator is the caller's alone again.
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
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let failure { return .failed(failure) }
        if answered != t {
            wanted = t
            pthread_cond_broadcast(condition)
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let nanoseconds = Int(deadline.tv_nsec) + Int(bound * 1e9)
            deadline.tv_sec += nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            while answered != t, failure == nil, !stopping {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            if let failure { return .failed(failure) }
        }
        read(newest)
        return answered == t ? .fresh : .held
    }

    private func run() {
        pthread_mutex_lock(mutex)
        while !stopping {
            guard let t = wanted else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            wanted = nil
            pthread_mutex_unlock(mutex)
            scratch.rest()
            animator.evaluate(at: t, layers: scratch.states)
            let problem = animator.failure ?? scratch.nonFinite(at: t)
            pthread_mutex_lock(mutex)
            if let problem {
                failure = problem
                pthread_cond_broadcast(condition)
                pthread_mutex_unlock(mutex)
                failed(problem, t)
                return
            }
            newest.copy(from: scratch)
            answered = t
            pthread_cond_broadcast(condition)
        }
        pthread_mutex_unlock(mutex)
    }
}
