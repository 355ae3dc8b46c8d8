import Foundation
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

/// A running watch of a registry's folders (``AnimatorRegistry/watch(settle:handler:)``):
/// a ``ReloadWatch`` whose bursts are applied at once, on its thread.
/// Thread-safe.
public final class RegistryWatch: @unchecked Sendable {
    private let watch: ReloadWatch

    fileprivate init(registry: AnimatorRegistry, settle: Double,
                     handler: @escaping @Sendable (AnimatorRegistry, RegistryChanges) -> Void) throws(WatchError) {
        let state = State(registry)
        watch = try ReloadWatch(folders: registry.folders, files: [], settle: settle) { _ in
            let (next, changes) = state.current.reloaded()
            state.current = next
            if !changes.isEmpty { handler(next, changes) }
            return (next.folders, [])
        }
    }

    /// Ends the watch: waits for a reload in progress, and the handler, to
    /// finish (from within the handler, it ends the watch once the handler returns).
    public func stop() { watch.stop() }

    deinit { watch.stop() }

    /// The registry in force: used on the watch's thread alone.
    private final class State: @unchecked Sendable {
        var current: AnimatorRegistry
        init(_ registry: AnimatorRegistry) { current = registry }
    }
}
