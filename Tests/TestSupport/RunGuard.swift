import Foundation
import Glibc

/// The environment a test starts a process with: this test process's own,
/// with this run's mark (`SEGUE_TEST_RUN`) in it. Every process a test
/// starts carries the mark, and so do theirs (a script's children, a daemon
/// that forks away from its parent, a session bus's services), unless a
/// program clears its children's environment (Segue's workers, which die
/// with their host instead).
///
/// The first call starts the run's guardian: a small shell in a session of
/// its own, reading a pipe whose other end only this test process holds.
/// When this process ends, however it ends (a crash, a timeout's SIGKILL,
/// where no `deinit` nor `defer` runs), the pipe reaches its end, and the
/// guardian kills every process still marked, again until none is left (at
/// most 5 rounds, 0.2 s apart), then ends. Tests still check that their own
/// processes are gone (``processesTagged(_:within:)``): the guardian is the
/// floor under them, not their cleanup.
public func guardedEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment[RunGuard.variable] = RunGuard.mark
    return environment
}

/// The run's guardian (see ``guardedEnvironment()``).
public enum RunGuard {
    /// The variable that carries a run's mark.
    public static let variable = "SEGUE_TEST_RUN"

    /// This run's mark, once its guardian is started.
    static let mark: String = {
        let mark = UUID().uuidString
        _ = start(for: mark)
        setenv(variable, mark, 1) // what a test starts without an environment of its own carries it too
        return mark
    }()

    /// Starts a guardian of the processes marked `mark`: it kills them once `end` (the pipe's write end,
    /// close-on-exec, held by this process alone) is closed, when this process ends or closes it. The
    /// guardian is this process's child, in a session of its own.
    public static func start(for mark: String) -> (end: Int32, pid: pid_t) {
        var ends: [Int32] = [0, 0]
        // Close-on-exec: no child holds the write end, so only this process's end closes the pipe. (Glibc's
        // module has no pipe2; the run's guardian starts once, as the first test starts its first process.)
        guard pipe(&ends) == 0 else { fatalError("the run's guardian: pipe failed (errno \(errno))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        // Bash (essential on Debian) first closes every descriptor it was started with but the pipe, its
        // standard input: one it held, such as the socket through which Foundation sees a child end, would
        // keep a test's process from being seen to end. (Swift's Glibc has no posix_spawn closefrom.)
        let script = """
            for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && exec {fd}<&-; done 2>/dev/null
            read -r line
            for round in 1 2 3 4 5; do
                found=
                for file in /proc/[0-9]*/environ; do
                    pid=${file#/proc/}; pid=${pid%/environ}
                    [ "$pid" = "$$" ] && continue
                    if grep -qz "^\(variable)=\(mark)$" "$file" 2>/dev/null; then kill -9 "$pid" 2>/dev/null; found=1; fi
                done
                [ -z "$found" ] && break
                sleep 0.2
            done
            """
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own (a signal to the tests' process group does not reach it), no signal blocked
        // whatever this thread blocks; its environment carries no mark, so it does not count itself.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(0x80 /* POSIX_SPAWN_SETSID */ | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/bash"), strdup("-c"), strdup(script), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, envp) == 0 else {
            fatalError("the run's guardian: /bin/bash did not start")
        }
        return (ends[1], pid)
    }
}
