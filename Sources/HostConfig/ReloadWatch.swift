import Foundation
import PluginHost
import SystemCalls

/// Watches a host's plugin folders and config file on a thread of its own and
/// hands each burst of changes to the host, which applies it with a
/// ``ConfigReloader`` on its own thread, when it suits it (between frames, in
/// a dispatch call). The watch then waits for ``resume(folders:files:)``, which
/// says what to watch from then on (a reload may find new folders), so that a
/// reload never races the watcher. It runs until ``stop()``.
public final class ReloadWatch: @unchecked Sendable {  // the watcher is its thread's alone; the rest is guarded by `lock`
    private let lock = Lock()
    private var next: (folders: [String], files: [String])?
    private let wake = DispatchSemaphore(value: 0)
    private let stopPipe: (read: Int32, write: Int32)
    private var stopped = false

    /// Starts watching `folders` (for `.so` files) and `files`.
    /// - Parameter changed: receives each burst's changed paths, on the watch's thread.
    /// - Throws: ``WatchError`` when the files cannot be watched.
    public init(folders: [String], files: [String], settle: Double = 0.1,
                changed: @escaping @Sendable (Set<String>) -> Void) throws(WatchError) {
        let made = try FileWatcher(folders: folders, files: files)
        guard let pipe = closeOnExecPipe() else { throw WatchError(message: "cannot make a pipe: \(Errno.current)") }
        stopPipe = pipe
        nonisolated(unsafe) let watcher = made
        let started = detachThread { [self] in
            while case .changed(let paths) = watcher.next(settle: settle, interruptedBy: stopPipe.read) {
                changed(paths)
                wake.wait()
                guard let watched = lock.withLock({ stopped ? nil : next }) else { return }
                try? watcher.watch(folders: watched.folders, files: watched.files)
            }
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

    /// Ends the watch; its thread ends at once, or after the burst it is handing over.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        let byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: byte) { bytes throws(Errno) in try SystemCall.write(stopPipe.write, bytes) }
        wake.signal()
    }

    /// Runs once the thread has ended (it holds the watch until then).
    deinit {
        close(stopPipe.read)
        close(stopPipe.write)
    }
}
