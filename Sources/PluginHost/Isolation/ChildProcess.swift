import Foundation
import Glibc
import PluginRuntime
import ProcessShims
import SystemCalls

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
}

/// A child process the host started: spawned with its descriptors in place,
/// reaped with `waitpid`, and killed when its owner lets go of it, so that no
/// child outlives its use. The child learns that the host died from its end of
/// a socket (see `segue-worker`), so it never outlives the host either.
package final class ChildProcess: @unchecked Sendable {  // `ended` is guarded by `lock`
    /// The child's process id.
    package let pid: pid_t
    private let lock = NSLock()
    private var ended: Termination?

    /// Starts `executable` with `arguments`; `descriptors[i]` becomes descriptor
    /// 3 + i in the child, standard output and error are this process's
    /// standard error, standard input is empty, and nothing else is inherited.
    /// The environment is this process's, with Swift's crash backtraces off (a
    /// crash is reported by the host) and `extraEnvironment` added.
    /// - Throws: ``SpawnError`` naming the executable and the system's reason.
    package init(executable: String, arguments: [String], descriptors: [Int32],
                 extraEnvironment: [String: String] = [:]) throws(SpawnError) {
        // Whatever the child runs, it cannot trace this process or read its memory.
        HostProtection.makeUntraceable()
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        for (key, value) in extraEnvironment { environment[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var child: pid_t = 0
        let rc = process_shims_spawn(executable, argv, envp, descriptors, Int32(descriptors.count), &child)
        guard rc == 0 else { throw SpawnError(executable: executable, reason: Errno(rc).description) }
        pid = child
    }

    deinit { _ = kill() }

    /// How the child ended, if it has (reaping it), without waiting.
    package var termination: Termination? {
        lock.withLock {
            if ended == nil { ended = Self.reap(pid, options: WNOHANG) }
            return ended
        }
    }

    /// Waits at most `seconds` for the child to end.
    /// - Returns: how it ended, or nil if it is still running.
    package func wait(seconds: Double) -> Termination? {
        let deadline = MonotonicTime.now + seconds
        var pause: UInt32 = 50
        while true {
            if let ended = termination { return ended }
            if MonotonicTime.now >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
    }

    /// Kills the child with SIGKILL (if it is still running) and reaps it.
    /// - Returns: how it ended; `.signalled(SIGKILL)` when this killed it. Nil
    ///   only if the kernel did not reap it within 5 s.
    @discardableResult
    package func kill() -> Termination? {
        if let ended = termination { return ended }
        Glibc.kill(pid, SIGKILL)
        return wait(seconds: 5)
    }

    private static func reap(_ pid: pid_t, options: Int32) -> Termination? {
        let status: Int32
        do throws(Errno) {
            guard let changed = try SystemCall.wait(for: pid, options: options) else { return nil }
            status = changed
        } catch {
            return error == .noChild ? .exited(-1) : nil
        }
        // WIFEXITED / WTERMSIG are macros: the low 7 bits are the signal, 0 for a normal exit.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}

/// A child process could not be started.
package struct SpawnError: Error, CustomStringConvertible {
    package let executable: String
    package let reason: String
    package init(executable: String, reason: String) {
        (self.executable, self.reason) = (executable, reason)
    }
    package var description: String { "cannot start \(executable): \(reason)" }
}
