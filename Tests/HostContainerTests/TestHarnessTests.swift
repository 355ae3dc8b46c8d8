import Foundation
import Glibc
import Testing
import TestSupport

/// The test harness's own promise: what a test starts dies with the test process, however that ends.
struct TestHarnessTests {
    /// A guardian kills the processes that carry its mark once the pipe it reads closes (as when the test
    /// process ends, even by SIGKILL), one in a session of its own included, then ends itself.
    @Test func theGuardianKillsWhatItsTestProcessLeftOnceThatEnds() throws {
        let mark = "probe-" + UUID().uuidString
        let guardian = RunGuard.start(for: mark)
        // A process marked as the tests' are, in a session and group of its own, as a daemon is.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(0x80 /* POSIX_SPAWN_SETSID */))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("300"), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("\(RunGuard.variable)=\(mark)"), nil]
        defer { (argv + envp).forEach { free($0) } }
        var daemon: pid_t = 0
        #expect(posix_spawn(&daemon, "/bin/sleep", nil, &attributes, argv, envp) == 0, "the daemon started")
        var status: Int32 = 0
        #expect(waitpid(daemon, &status, WNOHANG) == 0, "the daemon runs while the guardian's pipe is open")
        close(guardian.end) // as the test process's end closes it
        let deadline = Date().addingTimeInterval(20)
        var (killed, ended): (pid_t, pid_t) = (0, 0)
        while (killed == 0 || ended == 0) && Date() < deadline {
            if killed == 0 { killed = waitpid(daemon, &status, WNOHANG) }
            if ended == 0 { ended = waitpid(guardian.pid, nil, WNOHANG) }
            usleep(20_000)
        }
        #expect(killed == daemon && status & 0x7f == SIGKILL, "the daemon was killed (wait status \(status))")
        #expect(ended == guardian.pid, "the guardian ended")
        if killed == 0 { kill(daemon, SIGKILL); waitpid(daemon, nil, 0) }
    }
}
