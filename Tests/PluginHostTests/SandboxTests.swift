import Foundation
import Glibc
@testable import HostConfig
@testable import PluginHost
@testable import PluginValidation
import HostTestSupport
import TestSupport
import Testing

@testable import HostContainer
@testable import PluginRuntime

/// Plugins written to break out, each a C fixture that makes one attempt at
/// one point, run through the real `segue` tool with the sandbox on (the
/// default) and off: on, the host survives, prints every report, names the
/// attempt and leaves nothing behind; off, the same fixture shows what the
/// attempt would have done, so each test proves it can fail.
@Suite(.serialized)
struct SandboxTests {
    /// Where the attempt is made (the fixture's ATTEMPT_AT).
    enum Place: Int, Sendable { case constructor = 1, entry, setup, evaluate }

    struct Attempt: Sendable, CustomTestStringConvertible {
        let label: String
        /// The fixture's -D, with `{MARKER}`, `{SECRET}` and `{PORT}` filled in by the test.
        let define: String
        let place: Place
        /// Words the report (or rejection) must contain.
        let named: String
        var testDescription: String { label }
    }

    static let attempts: [Attempt] = [
        Attempt(label: "kill the parent in the constructor", define: "ATTEMPT_KILL_PARENT", place: .constructor,
                named: "the plugin tried to signal another process (kill pid "),
        Attempt(label: "kill the parent in the entry point", define: "ATTEMPT_KILL_PARENT", place: .entry,
                named: "the plugin tried to signal another process (kill pid "),
        Attempt(label: "kill the parent in setup", define: "ATTEMPT_KILL_PARENT", place: .setup,
                named: "TestFade tried to signal another process (kill pid "),
        Attempt(label: "kill the parent in evaluate", define: "ATTEMPT_KILL_PARENT", place: .evaluate,
                named: "TestFade tried to signal another process (kill pid "),
        Attempt(label: "ptrace the parent", define: "ATTEMPT_PTRACE_PARENT", place: .setup,
                named: "TestFade tried to trace or read another process (ptrace PTRACE_ATTACH, pid "),
        Attempt(label: "open the parent's memory", define: "ATTEMPT_PARENT_MEMORY", place: .setup,
                named: "TestFade tried to open a file for writing (openat /proc/"),
        Attempt(label: "write a file", define: "ATTEMPT_WRITE_FILE=\"{MARKER}\"", place: .setup,
                named: "TestFade tried to open a file for writing (openat {MARKER}) in setup: refused by the sandbox"),
        Attempt(label: "connect to a loopback port", define: "ATTEMPT_CONNECT={PORT}", place: .setup,
                named: "TestFade tried to open a socket (socket AF_INET) in setup: refused by the sandbox"),
        Attempt(label: "fork and exec a program", define: "ATTEMPT_EXEC=\"{MARKER}\"", place: .setup,
                named: "TestFade tried to start a process (clone without CLONE_THREAD) in setup: refused by the sandbox"),
        Attempt(label: "socket(AF_INET)", define: "ATTEMPT_SOCKET", place: .evaluate,
                named: "TestFade tried to open a socket (socket AF_INET) in evaluate at t = "),
        Attempt(label: "clone without CLONE_THREAD", define: "ATTEMPT_CLONE", place: .setup,
                named: "TestFade tried to start a process (clone without CLONE_THREAD) in setup: refused by the sandbox"),
        Attempt(label: "read a secret file", define: "ATTEMPT_READ_SECRET=\"{SECRET}\"", place: .setup, named: ""),
        Attempt(label: "a thread bomb in the constructor", define: "ATTEMPT_THREADS=1000", place: .constructor,
                named: "the plugin tried to start more than 64 threads (clone) while loading"),
        Attempt(label: "a thread bomb in setup", define: "ATTEMPT_THREADS=1000", place: .setup,
                named: "TestFade tried to start more than 64 threads (clone) in setup"),
        Attempt(label: "fcntl(F_SETOWN) at the host", define: "ATTEMPT_SETOWN", place: .setup,
                named: "TestFade tried to direct signals at a process (fcntl F_SETOWN on descriptor "),
        // Not refused: read in a network namespace of the worker's own, the list holds nothing of the machine's.
        Attempt(label: "list the machine's UNIX sockets", define: "ATTEMPT_NET_LIST", place: .setup, named: ""),
        Attempt(label: "a byte-range lock on a file all can read", define: "ATTEMPT_FILE_LOCK", place: .setup,
                named: "TestFade tried to lock a file, which other processes see (fcntl F_OFD_SETLK on descriptor "),
        Attempt(label: "flock on a file all can read", define: "ATTEMPT_FLOCK", place: .evaluate,
                named: "TestFade tried to lock a file, which other processes see (flock on descriptor "),
        Attempt(label: "mincore on a file all can read", define: "ATTEMPT_MINCORE", place: .setup,
                named: "TestFade tried to probe the page cache other processes share (mincore) in setup: refused by the sandbox"),
        Attempt(label: "fadvise DONTNEED on a file all can read", define: "ATTEMPT_FADVISE", place: .constructor,
                named: "the plugin tried to probe the page cache other processes share (fadvise64) while loading"),
        // Looking at paths outside its folder (stat, access, readlink) and at the machine's mounts: not refused,
        // but the file view holds nothing outside what it may read.
        Attempt(label: "look outside its folder in the constructor", define: "ATTEMPT_LOOK=\"{SECRET}\"", place: .constructor, named: ""),
        Attempt(label: "look outside its folder in setup", define: "ATTEMPT_LOOK=\"{SECRET}\"", place: .setup, named: ""),
        // A shared futex on a file's page (keyed by the file, seen by other processes); pthread_join still works.
        Attempt(label: "a futex on a file's page in the constructor", define: "ATTEMPT_FUTEX", place: .constructor,
                named: "the plugin tried to wake or wait on a futex other processes can share (futex FUTEX_WAKE) while loading"),
        Attempt(label: "a futex on a file's page in setup", define: "ATTEMPT_FUTEX", place: .setup,
                named: "TestFade tried to wake or wait on a futex other processes can share (futex FUTEX_WAKE) in setup"),
        // Refused calls between a copy of every shared mapping and its return: the record is not the plugin's to rewrite.
        Attempt(label: "hide refusals in the constructor", define: "ATTEMPT_HIDE=\"{MARKER}\"", place: .constructor,
                named: "the plugin tried to open a socket (socket AF_INET) and to signal another process (kill pid "),
        Attempt(label: "hide refusals in setup", define: "ATTEMPT_HIDE=\"{MARKER}\"", place: .setup,
                named: "TestFade tried to open a socket (socket AF_INET) and to signal another process (kill pid "),
        Attempt(label: "hide refusals in evaluate", define: "ATTEMPT_HIDE=\"{MARKER}\"", place: .evaluate,
                named: "TestFade tried to open a socket (socket AF_INET) and to signal another process (kill pid "),
        Attempt(label: "an i386 system call in the constructor", define: "ATTEMPT_INT80", place: .constructor,
                named: "the plugin tried to make a system call of another architecture (i386 system call 20, int $0x80) while loading"),
        Attempt(label: "an i386 system call in evaluate", define: "ATTEMPT_INT80", place: .evaluate,
                named: "TestFade tried to make a system call of another architecture (i386 system call 20, int $0x80) in evaluate at t = "),
    ]

    /// A listening loopback socket: its port, and whether anyone connected.
    final class Listener {
        let fd: Int32
        let port: UInt16
        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0 && listen(fd, 4) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            (self.fd, port) = (fd, UInt16(bigEndian: address.sin_port))
        }
        deinit { close(fd) }
        /// Whether a connection is waiting (no wait: the run has ended).
        var connected: Bool {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&poller, 1, 0) > 0
        }
    }

    /// The fixture built with `attempt`, its config, and what the test made for it.
    struct Prepared {
        let folder, file, config, marker, secret: String
        let listener: Listener
        let named: String
    }

    static func prepare(_ attempt: Attempt) throws -> Prepared {
        let scratch = makeTemporaryFolder("attempt")
        let marker = scratch + "/marker", secret = scratch + "/secret"
        try "hunter2-\(UUID().uuidString.prefix(8))".write(toFile: secret, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: secret + ".link", withDestinationPath: secret)
        let listener = try Listener()
        let define = attempt.define.replacingOccurrences(of: "{MARKER}", with: marker)
            .replacingOccurrences(of: "{SECRET}", with: secret).replacingOccurrences(of: "{PORT}", with: "\(listener.port)")
        let (folder, file) = try CPlugin.fixture("attempt", define, "ATTEMPT_AT=\(attempt.place.rawValue)")
        return Prepared(folder: folder, file: file, config: try IsolationTests.config(pluginsIn: folder), marker: marker,
                        secret: secret, listener: listener, named: attempt.named.replacingOccurrences(of: "{MARKER}", with: marker))
    }

    @Test(arguments: attempts)
    func anAttemptToLeaveTheSandboxIsRefusedAndNamed(_ attempt: Attempt) throws {
        let p = try Self.prepare(attempt)
        let list = try runSegue(["list", "--json", "--config", p.config])
        #expect(list.status == 0, "\(list.err)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
        let rejected = listing["rejected"] as? [[String: String]] ?? []

        let played = try runSegue(["run", "--json", "--config", p.config])
        #expect(played.status == 0, "the host survives: \(played.err)")
        let reports = try jsonLines(played.out)
        #expect(reports.map { "\($0["from"]!)->\($0["to"]!)" } == ["photo->video", "video->file", "file->contact", "contact->clipboard"],
                "every report is printed")
        #expect(reports.allSatisfy { $0["completed"] as? Bool == true })
        let reasons = reports.map { $0["reason"] as? String ?? "" }

        switch attempt.place {
        case .constructor where p.named.isEmpty, .entry where p.named.isEmpty:
            #expect(rejected.isEmpty && reports[0]["animator"] as? String == "TestFade", "\(rejected) \(reasons[0])")
        case .constructor, .entry:
            #expect(rejected.map { $0["file"] } == [p.file])
            let reason = rejected.first?["reason"] ?? ""
            #expect(reason.contains(p.named) && reason.contains(": refused by the sandbox"), "\(reason)")
            #expect(reasons[0].contains("names the animator 'TestFade', which no loaded plugin provides"), "\(reasons[0])")
        case .setup where !p.named.isEmpty, .evaluate where !p.named.isEmpty:
            #expect(reasons[0].contains(p.named), "\(reasons[0])")
            #expect(reasons[0].contains("refused by the sandbox (plugin \(p.file)); the plugin is quarantined"), "\(reasons[0])")
            #expect(reports[0]["animator"] as? String == "default", "the built-in default finished it")
            #expect(reasons[2].contains("TestFade is quarantined: its plugin \(p.file) tried to"), "\(reasons[2])")
        case .setup, .evaluate:
            // Reading is refused by Landlock: open fails with EACCES and the plugin goes on, unnamed.
            #expect(reports[0]["animator"] as? String == "TestFade")
        }
        // Whatever the attempt, nothing of it happened.
        let secret = try String(contentsOfFile: p.secret, encoding: .utf8)
        #expect(!played.out.contains(secret) && !played.err.contains(secret) && !list.err.contains(secret), "the secret stays secret")
        #expect(!played.err.contains("ATTEMPT SUCCEEDED") && !list.err.contains("ATTEMPT SUCCEEDED"), "\(played.err)")
        #expect(!FileManager.default.fileExists(atPath: p.marker), "no file was written, no program ran")
        #expect(!p.listener.connected, "no connection arrived")
    }

    @Test(arguments: attempts)
    func withTheSandboxOffTheSameAttemptSucceeds(_ attempt: Attempt) throws {
        let p = try Self.prepare(attempt)
        let command = attempt.place.rawValue <= Place.entry.rawValue ? ["list", "--json"] : ["run", "--json"]
        let result = try runSegue(command + ["--config", p.config, "--sandbox", "off"])
        switch attempt.define {
        case "ATTEMPT_KILL_PARENT" where attempt.place.rawValue <= Place.entry.rawValue:
            // A file is examined in a process of its own, whose parent is the scanner: that is what it kills.
            #expect(result.status == 0 && result.out.contains("not scanned: the scanner crashed with signal 9 (SIGKILL)"), "\(result.out)")
        case "ATTEMPT_KILL_PARENT":
            #expect(result.status == SIGKILL, "the plugin killed segue (status \(result.status))")
        case "ATTEMPT_SETOWN":
            // SIGIO ends segue, unless the process that started it blocks the signal (a test runner may).
            #expect(result.status == SIGIO || result.err.contains("ATTEMPT SUCCEEDED: directed SIGIO at the parent"),
                    "status \(result.status): \(result.err)")
        case let define where define.hasPrefix("ATTEMPT_WRITE_FILE") || define.hasPrefix("ATTEMPT_EXEC") || define.hasPrefix("ATTEMPT_HIDE"):
            #expect(FileManager.default.fileExists(atPath: p.marker), "\(result.err)")
        case let define where define.hasPrefix("ATTEMPT_CONNECT"):
            #expect(p.listener.connected, "\(result.err)")
        case let define where define.hasPrefix("ATTEMPT_READ_SECRET"):
            #expect(result.err.contains(try String(contentsOfFile: p.secret, encoding: .utf8)), "\(result.err)")
        default:
            #expect(result.err.contains("ATTEMPT SUCCEEDED"), "\(result.err)")
        }
        #expect((result.err + result.out).contains("the plugin sandbox is off") || result.status == SIGKILL || result.status == SIGIO,
                "off says so: \(result.err)")
    }

    @Test(arguments: [SandboxPolicy.Mode.strict, .off])
    func aSecretCannotLeaveThroughLayerValues(_ mode: SandboxPolicy.Mode) throws {
        let p = try Self.prepare(Self.attempts.first { $0.define.hasPrefix("ATTEMPT_READ_SECRET") }!)
        let secret = Array(try String(contentsOfFile: p.secret, encoding: .utf8).utf8)
        let stolen = secret.prefix(6).reduce(0.0) { $0 * 256 + Double($1) }
        var options = RegistryOptions()
        options.worker.sandbox.mode = mode
        let registry = AnimatorRegistry(folders: [p.folder], options: options)
        let h = Harness()
        h.delegate = FixedDelegate(try #require(registry.animator(named: "TestFade")))
        try h.container.select(named: "b")
        var seen: Set<Double> = []
        while h.container.isTransitioning {
            h.clock.advance(by: 1.0 / 60)
            h.container.tick()
            seen.formUnion(PluginValidator.Pose.of(h.container.view).values)
        }
        #expect(h.reports.map(\.animator) == ["TestFade"], "\(h.reports.map(\.reason))")
        #expect(seen.contains(stolen) == (mode == .off), "the secret's bytes reach the host only without the sandbox")
    }

    /// `segue preview` plays the third wave's acts as `run` does: the host
    /// survives, a refusal is named however the plugin hid it, and nothing
    /// outside the plugin's folder is seen.
    @Test(arguments: [("ATTEMPT_HIDE=\"/nonexistent/segue-hidden\"", "TestFade tried to open a socket (socket AF_INET) and to signal another process"),
                      ("ATTEMPT_FUTEX", "TestFade tried to wake or wait on a futex other processes can share (futex FUTEX_WAKE) in setup"),
                      ("ATTEMPT_LOOK=\"/etc/hostname\"", "")])
    func aPreviewNamesOrStopsEachAct(_ define: String, _ named: String) throws {
        let (folder, file) = try CPlugin.fixture("preview-act", define, "ATTEMPT_AT=3")
        let out = makeTemporaryFolder("preview-act") + "/act.png"
        let preview = try runSegue(["preview", "TestFade", "--plugins", folder, "--out", out, "--frames", "3"])
        #expect(preview.status == 0 && FileManager.default.fileExists(atPath: out), "\(preview.err)")
        #expect(!preview.err.contains("ATTEMPT SUCCEEDED"), "\(preview.err)")
        if !named.isEmpty {
            #expect(preview.err.contains(named) && preview.err.contains("refused by the sandbox (plugin \(file)); the plugin is quarantined"),
                    "\(preview.err)")
        }
    }

    @Test func aPluginThatAllocatesWithoutLimitIsStoppedAtItsLimitSayingSo() throws {
        let (folder, file) = try CPlugin.fixture("allocate", "ATTEMPT_ALLOCATE", "ATTEMPT_AT=3")
        let config = makeTemporaryFolder("allocate-config") + "/segue.json"
        // The limit from the config: a smaller one than the default is reached sooner.
        try """
        {"plugins": ["\(folder)"], "limits": {"memory": "256MiB"},
         "rules": [{"to": "video", "animator": "TestFade"}], "script": ["video", "file"]}
        """.write(toFile: config, atomically: false, encoding: .utf8)
        let played = try runSegue(["run", "--json", "--config", config])
        #expect(played.status == 0, "\(played.err)")
        let reports = try jsonLines(played.out)
        #expect(reports.count == 2 && reports.allSatisfy { $0["completed"] as? Bool == true })
        let reason = reports.first?["reason"] as? String ?? ""
        #expect(reason.hasPrefix("TestFade ran out of memory in setup: it reached its limit of 256 MiB of address space and crashed with signal 11"),
                "\(reason)")
        #expect(reason.contains("(plugin \(file)); the plugin is quarantined"), "\(reason)")
    }

    @Test func segueListSaysWhatConfinementIsInForce() throws {
        let (folder, _) = try CPlugin.fixture("listed")
        let strict = try runSegue(["list", "--json", "--plugins", folder, "--plugin-memory", "512MiB"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(strict.out.utf8)) as? [String: Any])
        let sandbox = try #require(document["sandbox"] as? [String: Any])
        let support = SandboxSupport.current
        #expect(sandbox["mode"] as? String == "strict" && sandbox["isolation"] as? String == "process")
        #expect(sandbox["landlock"] as? Int == support.landlockABI && sandbox["seccomp"] as? Bool == support.seccomp)
        #expect(sandbox["limits"] as? [String: Int] == ["memory": 512 << 20, "descriptors": 64, "threads": 64, "core": 0])
        let warnings = document["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("the plugin sandbox is incomplete") } == (support.missing != nil))
        let human = try runSegue(["list", "--plugins", folder])
        #expect(human.out.contains("Sandbox: strict: "), "\(human.out)")

        let off = try runSegue(["list", "--json", "--plugins", folder], environment: ["SEGUE_SANDBOX": "off"])
        let offDocument = try #require(try JSONSerialization.jsonObject(with: Data(off.out.utf8)) as? [String: Any])
        #expect((offDocument["sandbox"] as? [String: Any])?["mode"] as? String == "off", "SEGUE_SANDBOX chooses it")
        #expect((offDocument["warnings"] as? [String])?.contains { $0.hasPrefix("the plugin sandbox is off") } == true)
        let inProcess = try runSegue(["list", "--plugins", folder, "--isolation", "none"])
        #expect(inProcess.out.contains("warning: plugins run inside this process (isolation none), with no sandbox"))

        let bad = try runSegue(["list", "--plugins", folder, "--plugin-memory", "12 parsecs"])
        #expect(bad.status == 2 && bad.err.contains("--plugin-memory 12 parsecs: expected a size of at least 256 MiB"), "\(bad.err)")
    }

    /// A Swift plugin that uses Foundation, built with the host's toolchain:
    /// it loads, scans, runs and validates inside the sandbox.
    @Test func aSwiftPluginUsingFoundationWorksInsideTheSandbox() throws {
        let folder = makeTemporaryFolder("foundation-plugin")
        let example = try String(contentsOfFile: Paths.packageRoot + "/Examples/swift-animator/Sources/Crossfade/Crossfade.swift",
                                 encoding: .utf8)
        let source = "import Foundation\n" + example
            .replacingOccurrences(of: "com.example.crossfade/1", with: "com.example.foundation-fade/1")
            .replacingOccurrences(of: "cString(\"Crossfade\")", with: "cString(\"FoundationFade\")")
            .replacingOccurrences(of: "    guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }\n",
                                  with: "    guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }\n    guard foundationWorks() else { return SEGUE_SETUP_DECLINE }\n")
            + """

            /// Dates, formatting, JSON, the processor count and the time zone: what an author reaches for.
            private func foundationWorks() -> Bool {
                let text = String(format: "%.2f", Date().timeIntervalSince1970)
                let json = try? JSONEncoder().encode(["cores": ProcessInfo.processInfo.activeProcessorCount])
                return !text.isEmpty && json != nil && !TimeZone.current.identifier.isEmpty
            }
            """
        try source.write(toFile: folder + "/FoundationFade.swift", atomically: false, encoding: .utf8)
        try "module AnimatorABI { umbrella header \"\(Paths.header)/segue_animator.h\"\n export * }\n"
            .write(toFile: folder + "/module.modulemap", atomically: false, encoding: .utf8)
        let library = folder + "/libFoundationFade.so"
        let built = try run("/usr/bin/env", ["swiftc", "-emit-library", "-parse-as-library", "-module-name", "FoundationFade",
                                              "-I", folder, "-o", library, folder + "/FoundationFade.swift"], in: folder, timeout: 300)
        try #require(built.status == 0, "\(built.err)")

        let config = makeTemporaryFolder("foundation-config") + "/segue.json"
        try """
        {"plugins": ["\(folder)"], "rules": [{"to": "video", "animator": "FoundationFade"}], "script": ["video", "file"]}
        """.write(toFile: config, atomically: false, encoding: .utf8)
        let played = try runSegue(["run", "--json", "--config", config])
        let reports = try jsonLines(played.out)
        #expect(reports.first?["animator"] as? String == "FoundationFade", "\(reports.first?["reason"] ?? played.err)")
        let validated = try run(Paths.segue, ["validate", library], in: folder)
        #expect(validated.status == 0 && validated.out.contains("PASS  stays in its sandbox"), "\(validated.out)")
    }

    @Test func segueValidateFailsAPluginThatLeavesItsSandboxNamingEachCall() throws {
        let (_, file) = try CPlugin.fixture("validate-attempt", "ATTEMPT_SOCKET", "ATTEMPT_AT=4")
        let result = try run(Paths.segue, ["validate", file, "--strictness", "1"])
        #expect(result.status == 1)
        let line = try #require(result.out.split(separator: "\n").first { $0.contains("stays in its sandbox") })
        #expect(line.contains("FAIL") && line.contains("tried to open a socket (socket AF_INET)"), "\(line)")
    }

    @Test func aConfigFromAnEndlessFileIsRefusedAtItsLimit() throws {
        #expect(throws: ConfigError.self) { try SegueConfig.load(path: "/dev/zero") }
        do {
            _ = try SegueConfig.load(path: "/dev/zero")
        } catch {
            #expect(error.description.contains("the config is larger than 64 MiB"), "\(error)")
        }
    }

    @Test(arguments: ["#+FFFFF", "#-00000", "#+FFFFFFF", "# FFFFFF"])
    func aColourIsHexDigitsOnly(_ text: String) {
        #expect(Color(hex: text) == nil)
    }

    @Test func aFrameMemberOfTheWrongTypeIsNamedByItsIndex() throws {
        let text = #"{"children": [{"name": "a", "elements": [{"name": "e", "frame": ["wrong", 0, 10, 10]}]}]}"#
        do {
            _ = try SegueConfig.parse(Data(text.utf8), file: "x.json", baseDirectory: "/")
            Issue.record("a string in a frame was accepted")
        } catch {
            #expect(error.keyPath == "$.children[0].elements[0].frame[0]", "\(error)")
            #expect(error.description.contains("expected a number, found the string \"wrong\""), "\(error)")
        }
    }
}
