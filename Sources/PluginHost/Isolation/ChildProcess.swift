import Foundation
import Glibc
import PluginRuntime
import ProcessShims
import SystemCalls

/// A child process the host started: spawned with its descriptors in place,
/// reaped with `waitpid`, and killed when its owner lets go of it, so that no
/// child outlives its use. Every child is started from one thread that lasts
/// as long as this process (``SpawningThread``): a worker asks the kernel to
/// kill it when that thread ends (PR_SET_PDEATHSIG, see `segue-worker`), so it
/// never outlives the host either, however the host ends and whatever the
/// worker does (stopped, or with its threads parked).
package final class ChildProcess: @unchecked Sendable {  // `ended` is guarded by `lock`
    /// The child's process id.
    package let pid: pid_t
    private let lock = NSLock()
    private var ended: Termination?

    /// What the child prints, as this process relays it.
    package let output: OutputRelay

    /// The environment every child starts with, built from nothing: none of
    /// this process's variables (tokens, keys, `LD_*`) reach plugin code.
    /// Glibc's loader needs none; the Swift runtime only learns that a crash
    /// is reported by the host, not by its own backtracer.
    package static let environment = ["SWIFT_BACKTRACE": "enable=no"]

    /// Starts `executable` with `arguments`; `descriptors[i]` becomes descriptor
    /// 3 + i in the child, standard input is empty, standard output and error
    /// are a pipe whose lines this process relays (``OutputRelay``, marked
    /// with `label`, every line when `runsPluginCode`, to `output`), and nothing else is
    /// inherited. The environment is ``environment``.
    /// - Throws: ``SpawnError`` naming the executable and the system's reason.
    package init(executable: String, arguments: [String], descriptors: [Int32], label: String,
                 runsPluginCode: Bool = false, output: PluginOutput = .standardError) throws(SpawnError) {
        // Whatever the child runs, it cannot trace this process or read its memory.
        HostProtection.makeUntraceable()
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = Self.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        guard let pipe = closeOnExecPipe() else { throw SpawnError(executable: executable, reason: Errno.current.description) }
        let writeEnd = pipe.write
        let (rc, child) = SpawningThread.shared.run { () -> (Int32, pid_t) in
            var child: pid_t = 0
            let rc = process_shims_spawn(executable, argv, envp, descriptors, Int32(descriptors.count), writeEnd, &child)
            return (rc, child)
        }
        close(pipe.write)
        guard rc == 0 else {
            close(pipe.read)
            throw SpawnError(executable: executable, reason: Errno(rc).description)
        }
        pid = child
        self.output = OutputRelay(reading: pipe.read, label: label, runsPluginCode: runsPluginCode, output: output)
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
        return Termination(status: status)
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

/// The one thread that starts every child, for the life of the process. A
/// child's parent-death signal (PR_SET_PDEATHSIG) is sent when the *thread*
/// that started it ends, not the process: a child started from a pool thread
/// that later retired would be killed with it. This thread never ends, so
/// the signal comes when the process does, and only then.
final class SpawningThread: @unchecked Sendable {  // `jobs` is guarded by `condition`
    static let shared = SpawningThread()
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    /// False when the system gave no thread: children then start on their caller's thread.
    private var running = false

    private init() {
        running = detachThread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
    }

    private final class Outcome<T>: @unchecked Sendable { var value: T? }

    /// Runs `body` on the spawning thread and waits for what it returns.
    func run<T>(_ body: @escaping () -> T) -> T {
        guard running else { return body() }
        let outcome = Outcome<T>(), done = DispatchSemaphore(value: 0)
        condition.lock()
        jobs.append {
            outcome.value = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return outcome.value!
    }
}
