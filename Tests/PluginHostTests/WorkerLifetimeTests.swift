import Foundation
import Glibc
import Testing
import TestSupport

/// Workers die with Segue whatever they do: a worker that stops itself once
/// its last answer is sent (so that it notices nothing, not even its host's
/// end of the socket closing) is gone when `segue run` exits, and when
/// `segue run --watch` is killed outright. Found by their program's path,
/// which carries the test's tag (workers start with an empty environment).
@Suite struct WorkerLifetimeTests {
    /// A config whose one transition is the fixture's: its worker stops after it and is asked nothing more.
    static func config(pluginsIn folder: String) throws -> String {
        let path = makeTemporaryFolder("lifetime-config") + "/segue.json"
        try #"{"plugins": ["\#(folder)"], "rules": [{"to": "video", "animator": "TestFade"}], "script": ["video"]}"#
            .write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Whether `pid` is stopped (state T), from /proc.
    static func isStopped(_ pid: String) -> Bool {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.components(separatedBy: ") ").dropFirst().first?.hasPrefix("T") == true
    }

    /// The signals `pid` blocks (/proc's SigBlk mask), or nil when it cannot be read.
    static func blockedSignals(_ pid: String) -> UInt64? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
            .flatMap { UInt64($0.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
    }

    /// A program a test starts hears SIGTERM and SIGINT, whatever the test's thread blocks (a Dispatch
    /// thread blocks most, and a child starts with its starter's mask): else `stop(with: SIGTERM)` would
    /// wait out its deadline and kill it, and a terminal would never hear that its program ended.
    @Test func aProgramATestStartsBlocksNoSignal() throws {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGCHLD)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let sleeper = try LiveProcess("/bin/sleep", ["60"], in: NSTemporaryDirectory(), environment: [:])
        defer { if sleeper.process.isRunning { kill(sleeper.process.processIdentifier, SIGKILL) } }
        #expect(Self.blockedSignals(String(sleeper.process.processIdentifier)) == 0)
        #expect(sleeper.stop(with: SIGTERM, timeout: 30) != nil, "it ended on SIGTERM, not killed at the deadline")
    }

    @Test(arguments: ["strict", "off"])
    func aStoppedWorkerEndsWhenSegueExits(_ sandbox: String) throws {
        let (folder, _) = try CPlugin.fixture("stop-\(sandbox)", "ATTEMPT_STOP_AFTER_END")
        let config = try Self.config(pluginsIn: folder)
        // runSegue checks that nothing tagged is left, within five seconds.
        let played = try runSegue(["run", "--config", config], environment: ["SEGUE_SANDBOX": sandbox])
        #expect(played.status == 0, "\(played.out) \(played.err)")
        #expect(played.out.contains("TestFade"), "the plugin played: \(played.out)")
    }

    @Test(arguments: ["strict", "off"])
    func aStoppedWorkerEndsWhenSegueIsKilled(_ sandbox: String) throws {
        let (folder, _) = try CPlugin.fixture("stop-kill-\(sandbox)", "ATTEMPT_STOP_AFTER_END")
        let config = try Self.config(pluginsIn: folder)
        let tag = "stop-kill-\(sandbox)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let watching = try LiveProcess(Paths.segue, ["run", "--watch", "--config", config], in: NSTemporaryDirectory(),
                                       environment: tagged(tag).merging(["SEGUE_SANDBOX": sandbox, "SEGUE_PLUGIN_SYSTEM_PATH": ""]) { $1 })
        defer { if watching.process.isRunning { kill(watching.process.processIdentifier, SIGKILL) } }
        // The worker stops itself after its transition's end: wait for it to be stopped.
        let deadline = Date().addingTimeInterval(60)
        var workers = processesTagged(tag, within: 0).filter { $0 != String(watching.process.processIdentifier) }
        while !workers.contains(where: Self.isStopped) && Date() < deadline {
            usleep(20_000)
            workers = processesTagged(tag, within: 0).filter { $0 != String(watching.process.processIdentifier) }
        }
        #expect(workers.contains(where: Self.isStopped), "a worker stopped itself: \(workers)")
        #expect(workers.allSatisfy { Self.blockedSignals($0) == 0 }, "workers start with no signal blocked: \(workers.map(Self.blockedSignals))")
        #expect(watching.stop(with: SIGKILL) == nil || !watching.process.isRunning)
        #expect(processesTagged(tag).isEmpty, "no worker outlives a host killed outright")
    }
}
