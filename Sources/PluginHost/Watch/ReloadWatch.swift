import Foundation
import SystemCalls

/// Watches a host's plugin folders and config file on a thread of its own and
/// hands each burst of changes to the host, which applies it (with a
/// `ConfigReloader`, or ``AnimatorRegistry/reloaded()``) when it suits it:
/// between frames, in a dispatch call, or at once on the watch's thread.
/// The watch then waits for ``resume(folders:files:)``, which says what to
/// watch from then on (a reload may find new folders), so that a reload
/// never races the watcher. It runs until ``stop()``. The loop is
/// ``FileWatcher/follow(settle:interruptedBy:failed:_:)``, the one every host
/// watches with; commands that watch on their main thread run it there.
public final class ReloadWatch: @unchecked Sendable {  // the watcher is its thread's alone; the rest is guarded by `lock`
    private let lock = Lock()
    private var next: (folders: [String], files: [String])?
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let stopPipe: (read: Int32, write: Int32)
    private var stopped = false
    /// The watch's thread, so that ``stop()`` called from `changed` does not wait for itself.
    private var thread: pthread_t?

    /// Starts watching `folders` (for `.so` files) and `files`; each burst
    /// is handed over, and the watch waits for ``resume(folders:files:)``.
    /// - Parameter changed: receives each burst's changed paths, on the watch's thread.
    /// - Throws: ``WatchError`` when the files cannot be watched.
    public convenience init(folders: [String], files: [String], settle: Double = 0.1,
                            changed: @escaping @Sendable (Set<String>) -> Void) throws(WatchError) {
        try self.init(folders: folders, files: files, settle: settle, each: .handOver(changed))
    }

    /// Starts watching `folders` (for `.so` files) and `files`; each burst is
    /// applied at once, on the watch's thread.
    /// - Parameter apply: applies a burst's changed paths and says what to watch from then on (nil ends the watch).
    /// - Throws: ``WatchError`` when the files cannot be watched.
    public convenience init(folders: [String], files: [String], settle: Double = 0.1,
                            applying apply: @escaping @Sendable (Set<String>) -> (folders: [String], files: [String])?) throws(WatchError) {
        try self.init(folders: folders, files: files, settle: settle, each: .apply(apply))
    }

    /// What the watch does with a burst.
    private enum Each {
        case handOver(@Sendable (Set<String>) -> Void)
        case apply(@Sendable (Set<String>) -> (folders: [String], files: [String])?)
    }

    private init(folders: [String], files: [String], settle: Double, each: Each) throws(WatchError) {
        let made = try FileWatcher(folders: folders, files: files)
        guard let pipe = closeOnExecPipe() else { throw WatchError(message: "cannot make a pipe: \(Errno.current)") }
        stopPipe = pipe
        nonisolated(unsafe) let watcher = made
        let started = detachThread { [self] in
            lock.withLock { thread = pthread_self() }
            watcher.follow(settle: settle, interruptedBy: stopPipe.read) { paths in
                switch each {
                case .handOver(let changed):
                    changed(paths)
                    wake.wait()
                    return lock.withLock { stopped ? nil : next }
                case .apply(let apply):
                    return lock.withLock { stopped } ? nil : apply(paths)
                }
            }
            ended.signal()
        }
        guard started else {
            close(pipe.read)
            close(pipe.write)
            throw WatchError(message: "cannot start the watch's thread")
        }
    }

    /// Goes on watching, now `folders` and `files`, after the host applied a burst.
    public func resume(folders: [String], files: [String]) {
        lock.withLock { next = (folders, files) }
        wake.signal()
    }

    /// Ends the watch, waiting for the burst being handed over (and what
    /// `changed` does with it) to finish; called from `changed` itself, the
    /// watch ends once `changed` returns.
    public func stop() {
        let (first, own) = lock.withLock { () -> (Bool, Bool) in
            defer { stopped = true }
            return (!stopped, thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        guard first else { return }
        let byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: byte) { bytes throws(Errno) in try SystemCall.write(stopPipe.write, bytes) }
        wake.signal()
        if !own { ended.wait() }
    }

    /// Runs once the thread has ended (it holds the watch until then).
    deinit {
        close(stopPipe.read)
        close(stopPipe.write)
    }
}
