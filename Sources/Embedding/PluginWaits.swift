import Foundation
import SystemCalls

/// Where a player waits on plugin code that the program's thread must not
/// wait for: a setup past the begin bound, a transition's end (a late
/// evaluate, then the plugin's end). Each runs on a thread of its own, within
/// the plugin's deadlines, and is counted, so that the player's close waits
/// for them before its workers go, never longer than those deadlines.
final class PluginWaits: @unchecked Sendable {  // `running` is guarded by `condition`
    private let condition = NSCondition()
    private var running = 0

    /// Runs `body` on a thread of its own; on this one when no thread can be had.
    func run(_ body: @escaping @Sendable () -> Void) {
        condition.withLock { running += 1 }
        let done: @Sendable () -> Void = { [self] in
            condition.withLock {
                running -= 1
                condition.broadcast()
            }
        }
        if !detachThread({ body(); done() }) {
            body()
            done()
        }
    }

    /// Waits until none runs, at most `seconds`.
    /// - Returns: whether none runs.
    @discardableResult
    func wait(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while running > 0 && condition.wait(until: deadline) {}
            return running == 0
        }
    }
}

/// A value one thread hands another, which waits for it a bounded time: a
/// value given after the waiter gave up goes to `late` instead.
final class Handoff<Value>: @unchecked Sendable {  // guarded by `condition`
    private let condition = NSCondition()
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

    /// The value, waiting at most `seconds`; nil (and later values go to `late`) when none came.
    func take(within seconds: Double) -> Value? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while value == nil && condition.wait(until: deadline) {}
            if value == nil { abandoned = true }
            return value
        }
    }
}
