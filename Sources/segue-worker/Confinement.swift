import Glibc
import PluginRuntime

/// The worker's side of the sandbox: entered once, before plugin code runs.
enum Confinement {
    /// Enters `policy`'s sandbox with reading allowed beneath `readable`
    /// (nothing to enter when it is off).
    /// - Returns: the thread listener to hand to the host (-1 for none), or
    ///   why the sandbox could not be entered: no plugin code may run then.
    static func enter(_ policy: SandboxPolicy, readable: [String], memory: SharedMemory) -> Result<Int32, SandboxError> {
        guard policy.mode == .strict else { return .success(-1) }
        return WorkerConfinement.enter(policy, readable: readable, record: memory.base + WorkerLayout.sandbox).map(\.threadListener)
    }

    /// The folders a plugin file may read: its own, and its real file's when it is a link.
    static func folders(of file: String) -> [String] {
        var folders = [parent(file)]
        if let resolved = realpath(file, nil) {
            folders.append(parent(String(cString: resolved)))
            free(resolved)
        }
        return folders
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
