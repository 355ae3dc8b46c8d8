import Glibc
import SystemCalls

/// Where a player waits on plugin code that the program's thread must not
/// wait for: a setup past the begin bound, a transition's end (a late
/// evaluate, then the plugin's end), for plugins in workers. Each runs on a
/// thread of its own, within the plugin's deadlines, and is counted, so that
/// the player's close waits for them before its workers go.
final class PluginWaits: @unchecked Sendable {  // `running` is guarded by `condition`
    private let condition = MonotonicCondition()
    private var running = 0

    /// Runs `body` on a thread of its own; on this one when no thread can be had.
    /// What `body` captured is let go of before a wait hears that it ended: a
    /// worker only it still held ends there and then (its process killed and
    /// reaped), not a moment later on that thread, after the player's close
    /// has returned.
    func run(_ body: @escaping @Sendable () -> Void) {
        condition.withLock { running += 1 }
        let once = Once(body)
        let done: @Sendable () -> Void = { [self] in
            condition.withLock {
                running -= 1
                condition.broadcast()
            }
        }
        if !detachThread({ once.run(); done() }) {
            once.run()
            done()
        }
    }

    /// Waits until none runs, at most `seconds` for each running now (their
    /// calls to one worker take turns).
    /// - Returns: whether none runs.
    @discardableResult
    func wait(secondsEach seconds: Double) -> Bool {
        condition.withLock {
            let deadline = MonotonicTime.now + seconds * Double(running)
            while running > 0 && condition.wait(until: deadline) {}
            return running == 0
        }
    }
}

/// A closure run once, and let go of, with all it captured, as it returns.
private final class Once: @unchecked Sendable {  // run by one thread
    private var body: (@Sendable () -> Void)?

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func run() {
        let body = self.body
        self.body = nil
        body?()
    }
}

/// A value one thread hands another, which waits for it a bounded time: a
/// value given after the waiter gave up goes to `late` instead.
final class Handoff<Value>: @unchecked Sendable {  // guarded by `condition`
    private let condition = MonotonicCondition()
    private var value: Value?
    private var abandoned = false
    private let late: (Value) -> Void

    /// `late` takes a value given after the wait gave up, on the giving thread.
    init(late: @escaping (Value) -> Void) { self.late = late }

    /// Hands `value` over, or to `late` when the waiter has given up.
    func give(_ value: Value) {
        let taken = condition.withLock { () -> Bool in
            guard !abandoned else { return false }
            self.value = value
            condition.broadcast()
            return true
        }
        if !taken { late(value) }
    }

    /// The value, waiting until `deadline` (``MonotonicTime/now``'s clock); nil (and later values go to
    /// `late`) when none came.
    func take(until deadline: Double) -> Value? {
        condition.withLock {
            while value == nil && condition.wait(until: deadline) {}
            if value == nil { abandoned = true }
            return value
        }
    }
}

/// A mutex and a condition whose waits run on the monotonic clock (a wall
/// clock set back or forward moves no deadline).
final class MonotonicCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        Self.initialize(condition)
    }

    /// Initializes `condition` to time its waits by CLOCK_MONOTONIC.
    static func initialize(_ condition: UnsafeMutablePointer<pthread_cond_t>) {
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every waiter. Call it holding the mutex.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits to be woken until `deadline` (``MonotonicTime/now``'s clock), holding the mutex.
    /// - Returns: false once the deadline has passed.
    func wait(until deadline: Double) -> Bool {
        Self.wait(condition, mutex, until: deadline)
    }

    /// Waits on `condition` (made by ``initialize(_:)``), holding `mutex`, to be woken until `deadline`.
    /// - Returns: false once the deadline has passed.
    static func wait(_ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>,
                     until deadline: Double) -> Bool {
        guard deadline > MonotonicTime.now else { return false }
        var until = MonotonicTime.absolute(deadline)
        return pthread_cond_timedwait(condition, mutex, &until) != ETIMEDOUT
    }
}
