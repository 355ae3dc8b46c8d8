import Glibc

/// How a worker yields the processor to the program it serves: it runs 10
/// nice levels below the host (at most 19), under the normal policy even
/// when its host is real-time, from before any plugin code runs,
/// whatever the sandbox; the strict sandbox then refuses every call that
/// would raise it (setpriority, sched_setattr, sched_setscheduler,
/// sched_setparam), naming it, and the sandbox's dropped capabilities keep
/// even a worker started by root from raising it. Under the kernel's fair
/// scheduler, a worker at +10 gets about a tenth of a core the program wants
/// at the same time; a compositor's real-time threads always run before it.
package enum WorkerPriority {
    /// How many levels below its host a worker runs.
    package static let niceness: Int32 = 10

    /// Lowers this process's priority by ``niceness`` (a thread started after
    /// inherits it). A host at a real-time priority (`SCHED_FIFO`, `SCHED_RR`:
    /// a compositor's thread, say) whose children inherit it (no
    /// `SCHED_RESET_ON_FORK`) would make this process real-time too, ahead of
    /// every ordinary program: it first returns to the normal policy
    /// (`SCHED_OTHER`), which any process may do. Call it while the process has one thread.
    package static func lower() {
        let policy = sched_getscheduler(0)
        if policy == SCHED_FIFO || policy == SCHED_RR {
            var normal = sched_param()
            normal.sched_priority = 0
            _ = sched_setscheduler(0, SCHED_OTHER, &normal)
        }
        errno = 0
        _ = nice(niceness)
    }
}
