import Foundation
import Glibc
@testable import HostContainer
@testable import PluginHost
@testable import PluginRuntime
import HostTestSupport
import TestSupport
import Testing

/// The memory a player's workers share: twenty plugin files, each taking
/// all the memory its worker is given, played one after another and then
/// four at once. Workers' memory is read from /proc, never from a worker.
/// The deadlines are raised far above what the plugins take: they bound a
/// hang here, and a loaded machine's slow page faults must not fail a setup.
@Suite(.serialized)
struct MemoryBudgetTests {
    /// 256 MiB a worker, 1 GiB for all: four workers at once.
    static let limit: UInt64 = 256 << 20, budget: UInt64 = 1 << 30

    /// `count` copies of the hoarding fixture in one folder, each a plugin file of its own with its own animator (Hoard0...).
    static func hoarders(_ count: Int) throws -> (folder: String, files: [String]) {
        let folder = makeTemporaryFolder("hoarders")
        let files = try (0..<count).map { i in
            try CPlugin.build(CPlugin.fixtureSource, name: "hoard\(i)",
                              defines: ["ATTEMPT_HOARD", "ATTEMPT_AT=3", "FIXTURE_ID=\"org.segue.test.hoard\(i)/1\"", "FIXTURE_NAME=\"Hoard\(i)\""],
                              into: folder)
        }
        return (folder, files)
    }

    /// A process's resident memory, from /proc/PID/status; nil once it is gone.
    static func residentBytes(_ pid: Int32) -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kB = UInt64(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kB << 10
    }

    /// A transition of `animator` in a container of its own, begun (set up in its worker) and not yet played.
    static func begin(_ registry: AnimatorRegistry, _ animator: String) throws -> Harness {
        let h = Harness()
        h.delegate = FixedDelegate(try #require(registry.animator(named: animator)))
        try h.container.select(named: "b")
        return h
    }

    /// Plays `h`'s transition to its end.
    static func finish(_ h: Harness) {
        while h.container.isTransitioning {
            h.clock.advance(by: 1.0 / 60)
            h.container.tick()
        }
    }

    @Test func twentyPluginsShareOneBudgetTheOldestIdleEndingFirst() throws {
        let (folder, files) = try Self.hoarders(20)
        var options = RegistryOptions()
        options.worker.sandbox.memoryLimit = Self.limit
        options.worker.sandbox.totalMemory = Self.budget
        options.worker.deadlines.load = 60
        options.worker.deadlines.setup = 60
        options.worker.deadlines.end = 60
        let registry = AnimatorRegistry(folders: [folder], options: options)
        let pool = try #require((registry.factory as? WorkerFactory)?.pool)

        // One after another: each worker takes all it is given, then sits idle; the fifth ends the first, and so on.
        var started: [String: Int32] = [:]
        for (i, file) in files.enumerated() {
            let h = try Self.begin(registry, "Hoard\(i)")
            Self.finish(h)
            #expect(h.reports.map(\.animator) == ["Hoard\(i)"], "\(h.reports.map(\.reason))")
            let running = pool.processIDsByFile
            started[file] = running[file]
            let expected = Set(files[max(0, i - 3)...i])
            #expect(Set(running.keys) == expected, "after Hoard\(i), the four played last run; the oldest idle went first")
            for (gone, pid) in started where !expected.contains(gone) {
                #expect(Self.residentBytes(pid) == nil, "the worker of \(gone) (\(pid)) has ended")
            }
            let resident = running.values.compactMap(Self.residentBytes)
            #expect(resident.allSatisfy { $0 > 64 << 20 }, "each worker took what it was given: \(resident)")
            #expect(resident.reduce(0, +) <= Self.budget, "together within the budget: \(resident)")
            #expect(pool.granted.values.reduce(0, +) <= Self.budget)
        }

        // Four at once, in flight: the idle workers make room, oldest first; a fifth finds none and says so.
        let playing = try (0..<4).map { try Self.begin(registry, "Hoard\($0)") }
        #expect(Set(pool.processIDsByFile.keys) == Set(files[0..<4]), "the idle ones were ended for the four in flight")
        let refused = try Self.begin(registry, "Hoard4")
        Self.finish(refused)
        let report = try #require(refused.reports.first)
        #expect(report.fellBack && report.animator == "default", "\(report.reason)")
        #expect(report.reason.contains("Hoard4 could not be started: the workers' memory budget of 1 GiB is in use by 4 workers in transitions"),
                "\(report.reason)")
        playing.forEach(Self.finish)
        #expect(playing.map { $0.reports.map(\.animator) } == (0..<4).map { ["Hoard\($0)"] })
        #expect(pool.processIDsByFile[files[4]] == nil, "the refused plugin has no worker")

        // Not quarantined: with room again (an idle worker to end), it plays.
        let again = try Self.begin(registry, "Hoard4")
        Self.finish(again)
        #expect(again.reports.map(\.animator) == ["Hoard4"], "\(again.reports.map(\.reason))")
    }

    /// A process's field of /proc/PID/stat (1 the pid, 4 the parent, 19 the nice value), or nil.
    static func stat(_ pid: String, field: Int) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.range(of: ") ", options: .backwards) else { return nil }
        let rest = text[close.upperBound...].split(separator: " ")
        return field >= 3 && field - 3 < rest.count ? String(rest[field - 3]) : nil
    }

    /// The process a scanner forked for a file being examined: it and its parent are scanners (`segue-worker ... scan`).
    static func scannedFileProcess(_ tag: String) -> String? {
        let scanners = Set(processesTagged(tag, within: 0).filter { pid in
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            return command.split(separator: 0).contains(Data("scan".utf8))
        })
        return scanners.first { stat($0, field: 4).map(scanners.contains) == true }
    }

    /// A file being scanned runs in a process niced below segue, within the
    /// scanning share of the memory workers share (its one lane: all of
    /// `totalMemory`, at most a worker's `memory`), and for at most the scan
    /// deadline: its constructor takes all the memory it is given, then its
    /// entry point computes until the process is killed.
    @Test func aFileBeingScannedRunsBelowSegueWithinItsShareAndDeadline() throws {
        let (folder, file) = try CPlugin.fixture("scan-hoard", "ATTEMPT_HOARD", "ATTEMPT_AT=1", "FAULT_HANG_ENTRY")
        let scratch = makeTemporaryFolder("scan-limits")
        try #"{"plugins": ["\#(folder)"], "limits": {"memory": "512MiB", "totalMemory": "300MiB"}}"#
            .write(toFile: scratch + "/segue.json", atomically: false, encoding: .utf8)
        let tag = "scan-limits-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listing = try LiveProcess(Paths.segue, ["list", "--json", "--config", scratch + "/segue.json"], in: scratch,
                                      environment: tagged(tag).merging(["SEGUE_PLUGIN_SYSTEM_PATH": "",
                                                                        "SEGUE_REGISTRY_CACHE": scratch + "/registry.bin"]) { $1 })
        defer { if listing.process.isRunning { kill(listing.process.processIdentifier, SIGKILL) } }
        // It lives until its deadline: seen well before, however busy the machine.
        let deadline = Date().addingTimeInterval(60)
        var examined = Self.scannedFileProcess(tag)
        while examined == nil && listing.process.isRunning && Date() < deadline {
            usleep(20_000)
            examined = Self.scannedFileProcess(tag)
        }
        let pid = try #require(examined, "the file's process was seen: \(listing.standardError)")
        let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        let addressSpace = limits.split(separator: "\n").first { $0.hasPrefix("Max address space") }?.split(separator: " ", omittingEmptySubsequences: true)
        let nice = Self.stat(pid, field: 19).flatMap { Int32($0) }
        errno = 0
        let host = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(addressSpace?.dropFirst(3).first == "\(300 << 20)", "300 MiB, the scanning share: \(limits)")
        #expect(nice == min(host + 10, 19), "ten nice levels below segue")
        let out = listing.waitForOutput(#"did not finish within 5 s in its entry point"#, timeout: 60)
        #expect(out.contains(file) && out.contains("did not finish within 5 s in its entry point 'segue_animator_entry' (an endless loop?); its process was killed"),
                "\(out)\n\(listing.standardError)")
        #expect(listing.stop(with: SIGTERM, timeout: 30) != nil || !listing.process.isRunning)
        #expect(processesTagged(tag).isEmpty, "no scanner is left behind")
    }
}
