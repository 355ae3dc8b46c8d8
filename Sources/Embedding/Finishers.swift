import Foundation
import SystemCalls

/// Where transitions end: each on a thread of its own, so that the program's
/// thread never waits on a plugin to end (a late evaluate and `end` are
/// waited for there, each within the plugin's deadline). Counted, so that
/// the player's close waits for them, never longer than those deadlines.
final class Finishers: @unchecked Sendable {  // `running` is guarded by `condition`
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
