import Glibc

/// How a worker yields the processor to the program it serves: it runs 10
/// nice levels below the host (at most 19), from before any plugin code runs,
/// whatever the sandbox; the strict sandbox then refuses every call that
/// would raise it (setpriority, sched_setattr, sched_setscheduler,
/// sched_setparam), naming it, and the sandbox's dropped capabilities keep
/// even a worker started by root from raising it. Under the kernel's fair
/// scheduler, a worker at +10 gets about a tenth of a core the program wants
/// at the same time; a compositor's real-time threads always run before it.
package enum WorkerPriority {
    /// How many levels below its host a worker runs.
    package static let niceness: Int32 = 10

    /// Lowers this process's priority by ``niceness`` (a thread started after inherits it).
    package static func lower() {
        errno = 0
        _ = nice(niceness)
    }
}
