import Glibc
import PluginRuntime

/// The worker's side of the sandbox: entered once, before plugin code runs.
enum Confinement {
    /// Enters `policy`'s sandbox with reading allowed beneath `readable`
    /// (nothing to enter when it is off).
    /// - Returns: the listener to hand to the host, its supervisor (-1 for none), or
    ///   why the sandbox could not be entered: no plugin code may run then.
    static func enter(_ policy: SandboxPolicy, readable: [String], memory: SharedMemory) -> Result<Int32, SandboxError> {
        guard policy.mode == .strict else { return .success(-1) }
        return WorkerConfinement.enter(policy, readable: readable, note: memory.base + WorkerLayout.sandbox).map(\.listener)
    }
}
