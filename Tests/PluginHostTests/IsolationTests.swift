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

/// Plugins that misbehave the ways real ones do, each a C fixture built with
/// one fault, run through the real `segue` tool: the host survives, reports
/// every transition, names the fault, and leaves no process behind.
struct IsolationTests {
    /// Where a fault shows: when the file is examined, or when its animator runs.
    enum Stage: Sendable { case scan, run, harmless }

    struct Fault: Sendable, CustomTestStringConvertible {
        let label: String
        let define: String?
        let stage: Stage
        /// Words the report or rejection must contain.
        let expected: String
        var testDescription: String { label }
    }

    static let faults: [Fault] = [
        Fault(label: "crash in the constructor", define: "FAULT_CRASH_CONSTRUCTOR", stage: .scan,
              expected: "the plugin crashed with signal 11 (SIGSEGV, a segmentation fault) while loading"),
        Fault(label: "crash in the entry point", define: "FAULT_CRASH_ENTRY", stage: .scan,
              expected: "the plugin crashed with signal 11 (SIGSEGV, a segmentation fault) in its entry point"),
        Fault(label: "endless loop in the entry point", define: "FAULT_HANG_ENTRY", stage: .scan,
              expected: "did not finish within 5 s in its entry point 'segue_animator_entry' (an endless loop?)"),
        Fault(label: "print in the entry point", define: "FAULT_PRINT_ENTRY", stage: .scan,
              expected: "bytes to standard output while it was examined"),
        Fault(label: "data symbol as the entry", define: "FAULT_DATA_ENTRY", stage: .scan,
              expected: "'segue_animator_entry' is exported as data, not as a function"),
        Fault(label: "truncated file", define: nil, stage: .scan, expected: "truncated: the file is"),
        Fault(label: "crash in setup", define: "FAULT_CRASH_SETUP", stage: .run,
              expected: "TestFade crashed with signal 11 (SIGSEGV, a segmentation fault) in setup"),
        Fault(label: "abort in setup", define: "FAULT_ABORT_SETUP", stage: .run,
              expected: "TestFade crashed with signal 6 (SIGABRT, an abort) in setup"),
        Fault(label: "exit(0) in setup", define: "FAULT_EXIT_SETUP", stage: .run, expected: "TestFade exited with status 0 in setup"),
        Fault(label: "_exit(3) in setup", define: "FAULT__EXIT_SETUP", stage: .run, expected: "TestFade exited with status 3 in setup"),
        Fault(label: "endless loop in setup", define: "FAULT_HANG_SETUP", stage: .run,
              expected: "TestFade did not answer within 1 s (an endless loop?) and was killed in setup"),
        Fault(label: "crash in evaluate", define: "FAULT_CRASH_EVALUATE", stage: .run,
              expected: "TestFade crashed with signal 11 (SIGSEGV, a segmentation fault) in evaluate at t = 0.1"),
        Fault(label: "endless loop in evaluate", define: "FAULT_HANG_EVALUATE", stage: .run,
              expected: "TestFade did not answer within 0.5 s (an endless loop?) and was killed in evaluate at t = 0.1"),
        Fault(label: "crash in end", define: "FAULT_CRASH_END", stage: .run,
              expected: "; then TestFade crashed with signal 11 (SIGSEGV, a segmentation fault) in end"),
        Fault(label: "print in evaluate", define: "FAULT_PRINT_EVALUATE", stage: .harmless, expected: ""),
        Fault(label: "descriptor changed after load", define: "FAULT_CHANGE_DESCRIPTOR", stage: .harmless, expected: ""),
        Fault(label: "mesh pointer overwritten", define: "FAULT_MESH_POINTER", stage: .harmless, expected: ""),
    ]

    /// A config over the built-in scene whose script uses the fixture twice among other transitions.
    static func config(pluginsIn folder: String) throws -> String {
        let path = makeTemporaryFolder("isolation-config") + "/segue.json"
        try """
        {"plugins": ["\(folder)"],
         "rules": [{"to": "video", "animator": "TestFade"}, {"to": "contact", "animator": "TestFade"}],
         "script": ["video", "file", "contact", "clipboard"]}
        """.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Builds the fixture with its fault, into a folder of its own.
    static func build(_ fault: Fault) throws -> (folder: String, file: String) {
        guard let define = fault.define else {
            let (folder, built) = try CPlugin.fixture("whole")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: built))
            let file = folder + "/libtruncated.so"
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: file))
            try FileManager.default.removeItem(atPath: built)
            return (folder, file)
        }
        return try CPlugin.fixture(define.lowercased(), define)
    }

    @Test(arguments: faults)
    func aMisbehavingPluginCostsAtMostItsOwnTransition(_ fault: Fault) throws {
        let (folder, file) = try Self.build(fault)
        let config = try Self.config(pluginsIn: folder)

        let list = try runSegue(["list", "--json", "--config", config])
        #expect(list.status == 0)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
        let rejected = listing["rejected"] as? [[String: String]] ?? []
        let listed = (listing["animators"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }

        let played = try runSegue(["run", "--json", "--config", config])
        #expect(played.status == 0, "\(played.err)")
        // What it printed may be quoted, escaped, in a reason; it never stands as a line of its own.
        #expect(!played.out.split(separator: "\n").contains { $0.contains(#""animator":"Forged""#) }, "a plugin cannot plant a report line")
        let reports = try jsonLines(played.out)
        #expect(reports.map { "\($0["from"]!)->\($0["to"]!)" } == ["photo->video", "video->file", "file->contact", "contact->clipboard"])
        #expect(reports.allSatisfy { $0["completed"] as? Bool == true })
        let reasons = reports.map { $0["reason"] as? String ?? "" }

        switch fault.stage {
        case .scan:
            #expect(listed.isEmpty)
            #expect(rejected.map { $0["file"] } == [file])
            #expect(rejected.first?["reason"]?.contains(fault.expected) == true, "\(rejected)")
            #expect(reasons[0].contains("names the animator 'TestFade', which no loaded plugin provides"), "\(reasons[0])")
        case .run:
            #expect(listed == ["TestFade"])
            #expect(reasons[0].contains(fault.expected), "\(reasons[0])")
            #expect(reasons[0].contains("(plugin \(file)); the plugin is quarantined"), "\(reasons[0])")
            if fault.define != "FAULT_CRASH_END" {
                #expect(reports[0]["animator"] as? String == "default", "the built-in default finished it")
                #expect(reasons[2].contains("TestFade is quarantined: its plugin \(file)"), "\(reasons[2])")
            } else {
                #expect(reports[0]["animator"] as? String == "TestFade", "the transition itself completed")
            }
        case .harmless:
            #expect(listed == ["TestFade"])
            #expect([reports[0]["animator"], reports[2]["animator"]].map { $0 as? String } == ["TestFade", "TestFade"], "\(reasons)")
            if fault.define == "FAULT_PRINT_EVALUATE" {
                #expect(played.err.contains("segue: plugin \(file) wrote: {\"animator\":\"Forged\""), "marked as the plugin's")
            }
        }
    }

    @Test func aMeshPointerOverwrittenInProcessIsNotFollowed() throws {
        let (_, file) = try CPlugin.fixture("mesh-none", "FAULT_MESH_POINTER")
        let registry = AnimatorRegistry(folders: [(file as NSString).deletingLastPathComponent], isolation: .none)
        let h = Harness()
        h.delegate = FixedDelegate(try #require(registry.animator(named: "TestFade")))
        try h.switchTo("b")
        #expect(h.reports.map(\.animator) == ["TestFade"])
        h.expectConsistent()
    }

    @Test func aCrashQuarantinesThePluginUntilTheEmbedderClearsIt() throws {
        let (folder, file) = try CPlugin.fixture("quarantine", "FAULT_CRASH_EVALUATE")
        let registry = AnimatorRegistry(folders: [folder])
        let h = Harness()
        h.delegate = FixedDelegate(try #require(registry.animator(named: "TestFade")))
        try h.switchTo("b")
        try h.switchTo("c")
        h.expectConsistent()
        #expect(h.reports.map(\.animator) == ["default", "default"])
        #expect(h.reports[0].reason.hasPrefix("TestFade crashed with signal 11 (SIGSEGV, a segmentation fault) in evaluate at t = "))
        #expect(h.reports[0].frames > 1, "the default took over from the same playhead")
        #expect(h.reports[1].reason.hasPrefix("TestFade is quarantined: its plugin \(file) crashed with signal 11"))
        #expect(h.reports[1].frames == 61, "a quarantined plugin falls back at once")
        #expect(registry.quarantined.map(\.call) == ["evaluate"])
        registry.clearQuarantine()
        #expect(registry.quarantined.isEmpty)
        try h.switchTo("a")
        #expect(h.reports[2].reason.contains("crashed with signal 11"), "a fresh worker ran it again: \(h.reports[2].reason)")
    }

    /// The quarantine is of a file: a plugin rebuilt in its place (a new
    /// file at the same path, as a build writes it) gets a fresh worker.
    @Test func aQuarantinedPluginReplacedByARebuildRunsAgain() throws {
        let (folder, file) = try CPlugin.fixture("rebuilt", "FAULT_CRASH_EVALUATE")
        let registry = AnimatorRegistry(folders: [folder])
        let h = Harness()
        h.delegate = FixedDelegate(try #require(registry.animator(named: "TestFade")))
        try h.switchTo("b")
        #expect(registry.quarantined.map(\.file) == [file])

        let (_, fixed) = try CPlugin.fixture("rebuilt-fixed")
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.moveItem(atPath: fixed, toPath: file)
        let reloaded = registry.reloaded().registry
        #expect(reloaded.quarantined.isEmpty, "the quarantine was of the old file")
        h.delegate = FixedDelegate(try #require(reloaded.animator(named: "TestFade")))
        try h.switchTo("c")
        h.expectConsistent()
        #expect(h.reports.map(\.animator) == ["default", "TestFade"], "\(h.reports.map(\.reason))")
    }

    @Test(arguments: ["SpringSlide", "CurlUp", "ImageZoom"])
    func aWorkerProducesExactlyTheStatesOfInProcessLoading(_ name: String) throws {
        let isolated = try #require(AnimatorRegistry(folders: [Paths.binFolder]).animator(named: name))
        let direct = try #require(bundledRegistry.animator(named: name))
        func frames(_ d: AnimatorDescriptor) throws -> [[Double]] {
            let elements = ["a": [("image", Rect(x: 10, y: 10, width: 50, height: 50))],
                            "b": [("image", Rect(x: 0, y: 40, width: 320, height: 320))]]
            let h = Harness(["a", "b"], elements: elements)
            h.delegate = FixedDelegate(d)
            try h.container.select(named: "b")
            var poses: [[Double]] = []
            while h.container.isTransitioning {
                h.clock.advance(by: 1.0 / 60)
                h.container.tick()
                poses.append(PluginValidator.Pose.of(h.container.view).values)
            }
            #expect(h.reports.first?.animator == name, "\(h.reports)")
            return poses
        }
        let expected = try frames(direct)
        #expect(expected.count > 10)
        #expect(try frames(isolated) == expected)
    }

    @Test func aSetupRequestCrossesInItsBinaryFormAndATruncatedOneIsRefused() throws {
        let side = { (name: String, x: Double) in
            TransitionPayload.Side(name: name, frame: [x, 0, 320, 480],
                                   elements: [.init(name: "image", frame: [10, 20, 30, 40]), .init(name: "title ✓", frame: [1, 2, 3, 4])])
        }
        let payload = TransitionPayload(bounds: [0, 0, 320, 480], from: side("a", 0), to: side("b", 320),
                                        fromInitial: [0, 0, 320, 480], fromFinal: [-320, 0, 320, 480], toInitial: [320, 0, 320, 480],
                                        toFinal: [0, 0, 320, 480], goingRight: true, isAnimated: true, isInteractive: false,
                                        parameters: [0.4, 2, -.infinity], curves: [[0, 0, 0, 0], [0.42, 0, 0.58, 1], [0, 0, 0, 0]])
        let request = SetupRequest(animator: "org.segue.test.fade/1", payload: payload)
        let bytes = request.encoded()
        #expect(try SetupRequest(decoding: bytes) == request)
        for end in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: ByteReader.Truncated.self) { try SetupRequest(decoding: Array(bytes.prefix(end))) }
        }
        #expect(throws: ByteReader.Truncated.self) { try SetupRequest(decoding: bytes + [0]) }
    }

    @Test func aDescriptionTooLargeToPassFromTheScannerIsRejectedSayingSo() throws {
        let (folder, file) = try CPlugin.fixture("huge", "FAULT_HUGE_DESCRIPTION")
        let isolated = AnimatorRegistry(folders: [folder])
        #expect(isolated.animators.isEmpty)
        let reason = try #require(isolated.rejections.first { $0.file == file }?.reason)
        #expect(reason.hasPrefix("its description takes "), "\(reason)")
        #expect(reason.hasSuffix("bytes, more than the \(WorkerLayout.scanSlotCapacity - 4) a scanner can send back"), "\(reason)")
        // In process there is no such limit: the same file is a valid plugin.
        #expect(AnimatorRegistry(folders: [folder], isolation: .none).animators.count == 8)
    }

    /// The children of this process running `executable`.
    static func children(running executable: String) -> [pid_t] {
        let me = "\(getpid())"
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe")) == executable,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 2,
                  fields[0] != "Z", String(fields[1]) == me else { return nil }
            return pid
        }
    }

    @Test func aPrestartedWorkerServesTheFirstAnimatorAndADeadOneIsReplacedNotBlamed() throws {
        // A worker executable of this test's own, to tell its processes from every other test's.
        let executable = makeTemporaryFolder("prestart") + "/segue-worker"
        try FileManager.default.copyItem(atPath: Paths.binFolder + "/segue-worker", toPath: executable)
        var options = RegistryOptions()
        options.worker.executable = executable
        options.prestartsWorker = true
        let (first, _) = try CPlugin.fixture("prestart-first")
        let registry = AnimatorRegistry(folders: [first], options: options)
        let idle = Self.children(running: executable)
        #expect(idle.count == 1, "one worker waits, serving no plugin yet")
        let h = Harness()
        h.delegate = FixedDelegate(try #require(registry.animator(named: "TestFade")))
        try h.switchTo("b")
        #expect(h.reports.map(\.animator) == ["TestFade"], "\(h.reports.map(\.reason))")
        #expect(Self.children(running: executable) == idle, "the waiting worker serves it: no other was started")

        // A waiting worker that died meanwhile is not the plugin's fault: a fresh one serves it.
        let (second, _) = try CPlugin.fixture("prestart-second", "FIXTURE_NAME=\"SecondFade\"", "FIXTURE_ID=\"org.segue.test.second/1\"")
        let again = AnimatorRegistry(folders: [second], options: options)
        let waiting = Self.children(running: executable).filter { !idle.contains($0) }
        #expect(waiting.count == 1)
        for pid in waiting { kill(pid, SIGKILL) }
        // Dead (a zombie not yet reaped, or gone) before the next transition: a worker ten nice levels
        // down may take a while to end on a busy machine, and until then it is not "died meanwhile".
        _ = processesRunning(waiting, within: 10)
        let h2 = Harness()
        h2.delegate = FixedDelegate(try #require(again.animator(named: "SecondFade")))
        try h2.switchTo("b")
        #expect(h2.reports.map(\.animator) == ["SecondFade"], "\(h2.reports.map(\.reason))")
        #expect(again.quarantined.isEmpty)
    }

    @Test func aScannerThatDiesMidFolderIsReplacedAndEveryOtherFileIsScanned() throws {
        // Enough files for two scanner lanes, each asking two at a time: every
        // third crashes its scanner in the constructor; the question waiting
        // behind it must be asked again of a fresh scanner, not lost.
        let folder = makeTemporaryFolder("scan-mix")
        var good: Set<String> = [], bad: Set<String> = []
        for i in 0..<18 {
            let name = String(format: "Mix%02d", i)
            if i % 3 == 0 {
                bad.insert(try CPlugin.build(CPlugin.fixtureSource, name: name, defines: ["FAULT_CRASH_CONSTRUCTOR"], into: folder))
            } else {
                good.insert(name)
                _ = try CPlugin.build(CPlugin.fixtureSource, name: name, defines: [
                    "FIXTURE_NAME=\"\(name)\"", "FIXTURE_ID=\"org.segue.test.mix\(i)/1\""], into: folder)
            }
        }
        let registry = AnimatorRegistry(folders: [folder])
        #expect(Set(registry.animators.map(\.name)) == good)
        #expect(Set(registry.rejections.map(\.file)) == bad)
        for rejection in registry.rejections {
            #expect(rejection.reason.contains("while loading"), "\(rejection.reason)")
        }
        #expect(registry.scannedCount == 18)
    }

    @Test func aWarmCacheScansNothingAndAChangedFileIsScannedAgain() throws {
        let (folder, file) = try CPlugin.fixture("cached")
        var options = RegistryOptions()
        options.cache = RegistryCache(path: makeTemporaryFolder("cache") + "/registry.bin")
        #expect(AnimatorRegistry(folders: [folder], options: options).scannedCount == 1)
        let warm = AnimatorRegistry(folders: [folder], options: options)
        #expect(warm.scannedCount == 0)
        #expect(warm.animators.map(\.name) == ["TestFade"])
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "cached", defines: [#"FIXTURE_NAME="Renamed""#], into: folder)
        let changed = AnimatorRegistry(folders: [folder], options: options)
        #expect(changed.scannedCount == 1)
        #expect(changed.animators.map(\.name) == ["Renamed"])
        #expect(changed.animators.first?.file == file)
        let contents = options.cache!.load().contents
        #expect(contents.located.indices.map { String(decoding: contents.path($0), as: UTF8.self) } == [file],
                "the entry of the old build is gone")
        let (other, _) = try CPlugin.fixture("cached-other", #"FIXTURE_NAME="Other""#, #"FIXTURE_ID="org.segue.test.other/1""#)
        #expect(AnimatorRegistry(folders: [other], options: options).scannedCount == 1)
        #expect(AnimatorRegistry(folders: [folder], options: options).scannedCount == 0, "another folder's registry kept this one's entries")
        #expect(AnimatorRegistry(folders: [other], options: options).scannedCount == 0)
        let path = options.cache!.path
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for damage in [Data("not a cache".utf8), whole.prefix(whole.count - 3)] {
            try damage.write(to: URL(fileURLWithPath: path))
            let afterDamage = AnimatorRegistry(folders: [folder], options: options)
            #expect(afterDamage.scannedCount == 1)
            #expect(afterDamage.animators.map(\.parameters.count) == [1])
            #expect(afterDamage.warnings == ["the registry cache \(path) is damaged; it is ignored and will be rewritten"])
            #expect(AnimatorRegistry(folders: [folder], options: options).warnings.isEmpty, "it was rewritten")
        }
    }

    @Test func aFolderOrFileOthersCanWriteIsRefusedSayingHowToFixIt() throws {
        let (folder, file) = try CPlugin.fixture("writable")
        chmod(folder, 0o777)
        let byFolder = AnimatorRegistry(folders: [folder])
        #expect(byFolder.animators.isEmpty)
        #expect(byFolder.rejections.map(\.reason) == ["refused: the folder \(folder) is writable by others (mode 777), so anyone in it could replace the plugin; fix: chmod go-w \(folder), or set SEGUE_ALLOW_INSECURE_PLUGINS=1 if you know why"])
        chmod(folder, 0o755)
        chmod(file, 0o646)
        let byFile = AnimatorRegistry(folders: [folder])
        #expect(byFile.rejections.map(\.reason) == ["refused: the file \(file) is writable by others (mode 646), so anyone in it could replace the plugin; fix: chmod o-w \(file), or set SEGUE_ALLOW_INSECURE_PLUGINS=1 if you know why"])
        var trusting = RegistryOptions()
        trusting.checksPermissions = false
        #expect(AnimatorRegistry(folders: [folder], options: trusting).animators.map(\.name) == ["TestFade"])
        chmod(file, 0o644)
        chown(file, 4242, 4242)
        #expect(AnimatorRegistry(folders: [folder]).rejections.first?.reason.hasPrefix("refused: the file \(file) is owned by user 4242, neither root nor you") == true)
        let listed = try runSegue(["list", "--json", "--plugins", folder, "--allow-insecure-plugins"])
        #expect(listed.out.contains("\"name\":\"TestFade\""))
    }

    @Test func theCurrentFolderIsNotSearchedUnlessNamed() throws {
        let project = makeTemporaryFolder("cloned-repo")
        try FileManager.default.createDirectory(atPath: project + "/plugins", withIntermediateDirectories: true)
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "planted", defines: ["FAULT_CRASH_CONSTRUCTOR"], into: project + "/plugins")
        let listed = try run(Paths.segue, ["list", "--json"], in: project)
        #expect(listed.status == 0)
        #expect(!listed.out.contains("planted"))
    }

    @Test func aWorkerDiesWithItsHostEvenWhileThePluginSpins() throws {
        let (folder, _) = try CPlugin.fixture("spin-forever", "FAULT_HANG_SETUP")
        let config = try Self.config(pluginsIn: folder)
        let tag = UUID().uuidString
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.segue)
        process.arguments = ["run", "--json", "--config", config]
        var env = guardedEnvironment()
        env.merge(tagged(tag)) { $1 }
        env["SEGUE_REGISTRY_CACHE"] = Paths.testCache
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (bounded) until the worker spins in the plugin's setup (a tenth
        // of a second of CPU time, far more than starting takes), then kill
        // the host outright.
        func spinning() -> Bool {
            processesTagged(tag, within: 0).contains { pid in
                guard (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()).range(of: Data("serve\0".utf8)) != nil,
                      let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 13,
                      let user = Int(fields[11]), let system = Int(fields[12]) else { return false }
                return user + system >= sysconf(Int32(_SC_CLK_TCK)) / 10
            }
        }
        let deadline = Date().addingTimeInterval(10)
        while !spinning() && Date() < deadline { usleep(5_000) }
        #expect(spinning(), "the worker spins in the plugin")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(processesTagged(tag, within: 3).isEmpty, "the worker ended with its host")
    }

    /// Two registries in one process, over the same plugin, one confined and
    /// one not: each keeps its own workers and its own quarantine.
    @Test func twoRegistriesWithDifferentSettingsLiveSideBySide() throws {
        let (folder, file) = try CPlugin.fixture("sidebyside", "ATTEMPT_SOCKET", "ATTEMPT_AT=3")
        let strict = RegistryOptions()
        var open = RegistryOptions()
        open.worker.sandbox.mode = .off
        var pids: [Int32] = []
        do {
            let confined = AnimatorRegistry(folders: [folder], options: strict)
            let trusted = AnimatorRegistry(folders: [folder], options: open)
            #expect(confined.animator(named: "TestFade") != nil && trusted.animator(named: "TestFade") != nil)
            func play(_ registry: AnimatorRegistry) throws -> TransitionReport {
                let config = try SegueConfig.parse(
                    Data(#"{"children": ["a", "b"], "rules": [{"to": "b", "animator": "TestFade"}]}"#.utf8), file: "t.json", baseDirectory: "/")
                let h = Harness(["a", "b"])
                h.delegate = ConfigDrivenDelegate(config: config, registry: registry)
                try h.switchTo("b")
                h.expectConsistent()
                return try #require(h.reports.first)
            }
            let refused = try play(confined)
            #expect(refused.fellBack && refused.reason.contains("TestFade tried to open a socket (socket AF_INET) in setup: refused by the sandbox"),
                    "\(refused.reason)")
            let ran = try play(trusted)
            #expect(ran.animator == "TestFade" && ran.source == .plugin(path: file) && !ran.fellBack, "\(ran.reason)")
            #expect(confined.quarantined.map(\.file) == [file])
            #expect(trusted.quarantined.isEmpty, "one registry's quarantine is not the other's")
            // The trusted registry's plugin still runs after the confined one's was quarantined.
            #expect(try play(trusted).animator == "TestFade")
            for registry in [confined, trusted] {
                pids += (registry.factory as? WorkerFactory)?.pool.processIDs ?? []
            }
            #expect(!pids.isEmpty)
        }
        // Each registry owned its workers: released, they end.
        #expect(processesRunning(pids).isEmpty, "workers of released registries end")
    }
}

/// A host and a worker from different builds: the worker's first reply
/// carries its protocol version, and the host refuses it, saying why.
struct WorkerProtocolVersionTests {
    @Test func aWorkerOfAnotherBuildIsRefusedAtItsFirstReply() throws {
        let folder = makeTemporaryFolder("old-worker")
        let worker = folder + "/segue-worker"
        let built = try run("/usr/bin/env", ["cc", "-o", worker, Paths.packageRoot + "/Tests/Fixtures/old_worker.c"])
        try #require(built.status == 0, "\(built.err)")
        let (plugins, _) = try CPlugin.fixture("versioned")
        let result = try runSegue(["list", "--plugins", plugins, "--json"], environment: ["SEGUE_WORKER": worker])
        let listing = try #require(try jsonLines(result.out).first)
        let rejected = try #require((listing["rejected"] as? [[String: Any]])?.first)
        let link = try #require((rejected["reason"] as? String)?.split(separator: " ").dropFirst(4).first.map(String.init))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == worker, "the worker run is the old one")
        #expect((rejected["reason"] as? String) == "not scanned: the worker \(link) speaks worker protocol 0, this program \(WorkerReply.protocolVersion): they come from different builds (install them together, or point SEGUE_WORKER at the worker built with this program)")
    }
}
