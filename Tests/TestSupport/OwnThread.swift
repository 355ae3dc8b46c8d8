import Foundation

/// Runs `body`, a test's whole work, on a thread of its own. Swift Testing
/// calls a synchronous test on Swift's cooperative thread pool, which has as
/// many threads as the machine has processors (two on the machines the suite
/// runs on): a test that waits minutes on processes it started (a desktop
/// session, say) holds one of them all that time, and every other test waits
/// for the other. A test that calls this instead is `async`, and its waits
/// leave the pool to the rest. The test's task-locals stay with `body` (it
/// runs in the same task), so `#expect` and `#require` inside it report to
/// the test as ever.
public func onThreadOfItsOwn<T>(_ body: () throws -> T) async rethrows -> T {
    try await withTaskExecutorPreference(OwnThreadExecutor()) { try body() }
}

/// Runs each job it is given on a new thread (a test's body is one job: it never suspends).
private final class OwnThreadExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // The thread holds the executor for as long as the job runs on it.
        let thread = Thread { [self] in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
