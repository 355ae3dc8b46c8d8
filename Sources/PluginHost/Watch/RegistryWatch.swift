import Foundation
import PluginRuntime
import SystemCalls

extension AnimatorRegistry {
    /// Watches this registry's folders and reloads when plugins change.
    ///
    /// After each burst of changes (see ``FileWatcher``) a thread of the watch
    /// builds the registry that replaces the last one
    /// (``reloaded(searchPath:)``: only changed files are examined, in the
    /// scanner process) and passes it to `handler` with what changed, on that
    /// thread. Swap it in when it suits you (for instance a new
    /// ``ConfigDrivenDelegate`` on the container): until then transitions go
    /// on with the animators they had. Bursts that change nothing that
    /// matters (a file rejected as before) are not reported.
    /// - Parameter settle: seconds without a change that end a burst.
    /// - Returns: the watch; it ends with ``RegistryWatch/stop()`` or when released.
    /// - Throws: ``WatchError`` when the folders cannot be watched.
    public func watch(settle: Double = 0.1,
                      handler: @escaping @Sendable (AnimatorRegistry, RegistryChanges) -> Void) throws(WatchError) -> RegistryWatch {
        try RegistryWatch(registry: self, settle: settle, handler: handler)
    }
}

/// A running watch of a registry's folders (``AnimatorRegistry/watch(settle:handler:)``).
/// Thread-safe.
public final class RegistryWatch: @unchecked Sendable {
    private let stopPipe: (read: Int32, write: Int32)
    private let ended = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var thread: Thread?

    fileprivate init(registry: AnimatorRegistry, settle: Double,
                     handler: @escaping @Sendable (AnimatorRegistry, RegistryChanges) -> Void) throws(WatchError) {
        let watcher = try FileWatcher(folders: registry.folders)
        guard let pipe = closeOnExecPipe() else { throw WatchError(message: "cannot make a pipe: \(Errno.current)") }
        stopPipe = pipe
        let ended = self.ended
        let box = UncheckedBox((registry, watcher))
        let thread = Thread { [stopRead = pipe.read] in
            var (current, watcher) = box.value
            while case .changed = watcher.next(settle: settle, interruptedBy: stopRead) {
                let (next, changes) = current.reloaded()
                current = next
                try? watcher.watch(folders: next.folders, files: [])
                if !changes.isEmpty { handler(next, changes) }
            }
            ended.signal()
        }
        thread.name = "segue registry watch"
        self.thread = thread
        thread.start()
    }

    /// Ends the watch: waits for a reload in progress, and the handler, to
    /// finish (from within the handler, it ends the watch once the handler returns).
    public func stop() {
        let running: Thread? = lock.withLock {
            defer { thread = nil }
            return thread
        }
        guard let running else { return }
        let byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: byte) { bytes throws(Errno) in try SystemCall.write(stopPipe.write, bytes) }
        if running != Thread.current { ended.wait() }
    }

    deinit {
        stop()
        close(stopPipe.read)
        close(stopPipe.write)
    }
}

/// Hands a value that is used by one thread at a time to another thread.
private struct UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
