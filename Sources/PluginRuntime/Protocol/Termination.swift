import Glibc

/// How a child process ended.
package enum Termination: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    /// "exited with status 3", "crashed with signal 11 (SIGSEGV, a segmentation fault)".
    package var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let signal): "crashed with signal \(signal) (\(Termination.signalName(signal)))"
        }
    }

    package static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV, a segmentation fault", SIGABRT: "SIGABRT, an abort", SIGBUS: "SIGBUS, a bus error",
            SIGFPE: "SIGFPE, an arithmetic fault", SIGILL: "SIGILL, an illegal instruction or a trap",
            SIGKILL: "SIGKILL", SIGTRAP: "SIGTRAP", SIGTERM: "SIGTERM", SIGPIPE: "SIGPIPE",
        ]
        return names[signal] ?? "an unexpected signal"
    }

    /// What `waitpid` reported as `status`.
    package init(status: Int32) {
        // WIFEXITED / WTERMSIG are macros: the low 7 bits are the signal, 0 for a normal exit.
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}
