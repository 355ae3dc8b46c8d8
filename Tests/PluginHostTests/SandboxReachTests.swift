import Foundation
import Glibc
import TestSupport
import Testing

/// What a plugin can reach besides the system: other plugins, the host's
/// environment, its terminal and files, its memory with the worker, the
/// machine's limits on output. Each a C fixture run through the real `segue`
/// (`list` and `run`, each transition of the fixture played twice among
/// others), strict, and where a control proves the test can fail, with the
/// plugin sharing segue's own process (`--isolation none`).
@Suite(.serialized)
struct SandboxReachTests {
    /// `segue ARGUMENTS`, every report printed and parsed.
    static func played(_ config: String, _ extra: [String] = [], environment: [String: String] = [:]) throws
        -> (status: Int32, out: String, err: String, reasons: [String], animators: [String]) {
        let result = try runSegue(["run", "--json", "--config", config] + extra, environment: environment)
        let reports = try jsonLines(result.out)
        #expect(reports.map { "\($0["from"]!)->\($0["to"]!)" } == ["photo->video", "video->file", "file->contact", "contact->clipboard"],
                "every report is printed: \(result.err.prefix(2000))")
        return (result.status, result.out, result.err, reports.map { $0["reason"] as? String ?? "" },
                reports.map { $0["animator"] as? String ?? "" })
    }

    /// The program playing wins the processor: a worker runs 10 nice levels
    /// below its host, sandbox strict or off, from before plugin code runs;
    /// the strict sandbox refuses raising it and names the attempt (off, the
    /// control, root's worker can).
    @Test(arguments: ["strict", "off"])
    func aWorkerRunsBelowItsHostAndCannotRaiseItself(_ sandbox: String) throws {
        let (folder, file) = try CPlugin.fixture("priority-\(sandbox)", "ATTEMPT_PRIORITY", "ATTEMPT_AT=3")
        let run = try Self.played(try IsolationTests.config(pluginsIn: folder), ["--sandbox", sandbox])
        #expect(run.status == 0)
        errno = 0
        let host = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(run.err.contains("runs at nice \(min(host + 10, 19)) under SCHED_OTHER"), "\(run.err)")
        if sandbox == "strict" {
            #expect(run.reasons[0].hasPrefix("TestFade tried to change its scheduling priority (setpriority) in setup: refused by the sandbox (plugin \(file)); the plugin is quarantined"),
                    "reading its priority is allowed, raising it is refused and named: \(run.reasons[0])")
            #expect(!run.err.contains("ATTEMPT SUCCEEDED"), "\(run.err)")
        } else if getuid() == 0 {
            #expect(run.err.contains("ATTEMPT SUCCEEDED: raised its priority to nice 0"), "\(run.err)")
        }
    }

    /// A host at a real-time priority (SCHED_FIFO, as a compositor's thread
    /// may be) whose children would inherit it: its workers run under the
    /// normal policy all the same, ten nice levels down, so a plugin never
    /// runs ahead of ordinary programs. Needs the right to start a
    /// real-time program (root's, as the tests' CI has).
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/chrt"),
                   "skipped: needs root and chrt (util-linux) to start segue at SCHED_FIFO"),
          arguments: ["strict", "off"])
    func aWorkerOfARealTimeHostRunsUnderTheNormalPolicy(_ sandbox: String) throws {
        let (folder, _) = try CPlugin.fixture("priority-rt-\(sandbox)", "ATTEMPT_PRIORITY", "ATTEMPT_AT=3")
        let config = try IsolationTests.config(pluginsIn: folder)
        let tag = UUID().uuidString
        let result = try run("/usr/bin/chrt", ["--fifo", "1", Paths.segue, "run", "--json", "--config", config, "--sandbox", sandbox],
                             environment: tagged(tag).merging(["SEGUE_PLUGIN_SYSTEM_PATH": ""]) { $1 }, timeout: 60)
        #expect(processesTagged(tag).isEmpty, "no process is left behind")
        #expect(result.status == 0, "\(result.err)")
        errno = 0
        let host = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(result.err.contains("runs at nice \(min(host + 10, 19)) under SCHED_OTHER"), "\(result.err)")
    }

    @Test func theHostsEnvironmentDoesNotReachAPlugin() throws {
        let secret = "token-\(UUID().uuidString)"
        let (folder, _) = try CPlugin.fixture("environment", "ATTEMPT_ENVIRONMENT", "ATTEMPT_AT=1")
        let config = try IsolationTests.config(pluginsIn: folder)
        let environment = ["SEGUE_TEST_SECRET": secret]
        let list = try runSegue(["list", "--json", "--config", config], environment: environment)
        let run = try Self.played(config, environment: environment)
        #expect(list.status == 0 && run.status == 0)
        #expect(list.out.contains("no secret in the environment"), "the description says what the plugin found: \(list.out)")
        #expect(run.reasons[0].contains("declined: no secret in the environment") || run.reasons[0].contains("no secret in the environment"),
                "\(run.reasons[0])")
        for text in [list.out, list.err, run.out, run.err] { #expect(!text.contains(secret), "the secret stays the host's") }

        // The control: in segue's own process, the same plugin finds it and says it everywhere.
        let cache = makeTemporaryFolder("environment-cache") + "/registry.bin"  // what the first scan found is not reused
        let shared = try runSegue(["list", "--json", "--config", config, "--isolation", "none"],
                                              environment: environment.merging(["SEGUE_REGISTRY_CACHE": cache]) { $1 })
        #expect(shared.out.contains(secret), "\(shared.out)")
    }

    @Test func aPluginReachesNoDescriptorOfTheHostsAndWritesNothingRaw() throws {
        let (folder, _) = try CPlugin.fixture("raw-output", "ATTEMPT_RAW_OUTPUT", "ATTEMPT_AT=3")
        let config = try IsolationTests.config(pluginsIn: folder)
        let errors = makeTemporaryFolder("raw-output-err") + "/segue.err"
        // Standard error is a file here: a worker that inherited it would list its path.
        let tag = UUID().uuidString
        let result = try run("/bin/sh", ["-c", "exec \"$0\" run --json --config \"$1\" 2>\"$2\"", Paths.segue, config, errors],
                             environment: tagged(tag).merging(["SEGUE_PLUGIN_SYSTEM_PATH": ""]) { $1 }, timeout: 60)
        #expect(processesTagged(tag).isEmpty, "no process is left behind")
        let err = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(result.status == 0, "\(err)")
        #expect(!result.out.utf8.contains(0x1B) && !err.utf8.contains(0x1B), "no escape byte of the plugin's reaches the terminal")
        #expect(err.contains("\\u{1B}]52;c;"), "what it wrote is shown, escaped: \(err.prefix(2000))")
        let descriptors = err.split(separator: "\n").compactMap { line -> (Int, String)? in
            guard let range = line.range(of: "DESCRIPTOR ") else { return nil }
            let fields = line[range.upperBound...].split(separator: " ", maxSplits: 1)
            return fields.count == 2 ? (Int(fields[0]) ?? -1, String(fields[1])) : nil
        }
        #expect(descriptors.count >= 3, "the plugin listed its descriptors: \(err.prefix(2000))")
        for (fd, target) in descriptors {
            let own = target.hasPrefix("pipe:") || target.hasPrefix("socket:") || target.hasPrefix("anon_inode:")
                || target == "/dev/null" || target.hasPrefix("/memfd:segue")
            #expect(own && target != errors && !target.hasPrefix("/dev/pts") && !target.hasPrefix("/dev/tty"),
                    "descriptor \(fd) is \(target): not the worker's own")
        }
        #expect(descriptors.first { $0.0 == 0 }?.1 == "/dev/null", "standard input is /dev/null")

        // The control: in segue's own process, the bytes go out raw.
        let shared = try runSegue(["run", "--json", "--config", config, "--isolation", "none"])
        #expect(shared.out.utf8.contains(0x1B) || shared.err.utf8.contains(0x1B))
    }

    @Test func whatAPluginPrintsIsHeldToItsBudget() throws {
        let (folder, file) = try CPlugin.fixture("log-flood", "ATTEMPT_LOG_FLOOD=200", "ATTEMPT_AT=3")
        let config = try IsolationTests.config(pluginsIn: folder)
        let run = try Self.played(config)
        #expect(run.status == 0)
        #expect(run.err.utf8.count < 256 << 10, "200 MiB of log costs at most the budget: \(run.err.utf8.count) bytes")
        #expect(run.err.contains("segue: plugin \(file): printing more than its budget of 64 KiB a run and 200 lines a second; the lines past it are dropped"),
                "\(run.err.suffix(2000))")

        // The control: in segue's own process, no budget applies.
        let (sharedFolder, _) = try CPlugin.fixture("log-flood-shared", "ATTEMPT_LOG_FLOOD=8", "ATTEMPT_AT=3")
        let shared = try runSegue(["run", "--json", "--config", try IsolationTests.config(pluginsIn: sharedFolder),
                                               "--isolation", "none"])
        #expect(shared.err.utf8.count > 4 << 20)
    }

    /// A plugin reached through a link reads where the link lies, and of
    /// where it leads only its own file: a link into a home folder must not
    /// open the home folder. In the scanner's process and in its worker.
    @Test(arguments: [1, 3])
    func aLinkedPluginReadsNothingBesideWhereItsLinkLeads(_ place: Int) throws {
        let home = makeTemporaryFolder("home")
        let token = "hunter2-\(UUID().uuidString.prefix(8))"
        try token.write(toFile: home + "/secret", atomically: false, encoding: .utf8)
        let real = try CPlugin.build(CPlugin.fixtureSource, name: "linked",
                                     defines: ["ATTEMPT_READ_SECRET=\"\(home)/secret\"", "ATTEMPT_AT=\(place)"], into: home)
        let plugins = makeTemporaryFolder("linked-plugins")
        try FileManager.default.createSymbolicLink(atPath: plugins + "/liblinked.so", withDestinationPath: real)
        let config = try IsolationTests.config(pluginsIn: plugins)
        let list = try runSegue(["list", "--json", "--config", config])
        let run = try Self.played(config)
        #expect(list.status == 0 && run.status == 0, "\(list.err)\(run.err)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
        let files = (listing["animators"] as? [[String: Any]] ?? []).map { $0["file"] as? String }
        #expect(files == [plugins + "/liblinked.so"], "listed where it was found: \(list.out.prefix(1500))")
        #expect(run.animators[0] == "TestFade", "it loads and plays through its link: \(run.reasons[0])")
        #expect(!(list.out + list.err + run.out + run.err).contains(token), "nothing beside its real file is read: \(run.err)")

        // The control: without the sandbox, the file beside it is read.
        let off = try runSegue(["run", "--json", "--config", config, "--sandbox", "off"])
        #expect(off.err.contains(token), "\(off.err)")
    }

    /// The sandbox as an ordinary user has it (the tests run as root): the
    /// worker makes its namespaces in a user namespace of its own, its ids
    /// mapped, and its file view holds what it holds for root.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "skipped: needs root and setpriv to run segue as another user (CI has both)"))
    func anOrdinaryUsersPluginsAreConfinedAlike() throws {
        // A folder every user can read (the tests' own are root's alone), removed afterwards.
        var template = Array("/tmp/segue-ordinary-XXXXXX".utf8CString)
        let folder = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: false)
        try "hunter2".write(toFile: folder + "/secret", atomically: false, encoding: .utf8)
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "look", defines: ["ATTEMPT_LOOK=\"\(folder)/secret\"", "ATTEMPT_AT=3"],
                              into: folder + "/plugins")
        let config = folder + "/segue.json"
        try #"{"plugins": ["plugins"], "rules": [{"to": "video", "animator": "TestFade"}], "script": ["video", "file"]}"#
            .write(toFile: config, atomically: false, encoding: .utf8)
        // The programs too: the clone may lie in a folder only root may enter (as `mktemp -d` makes one).
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: false)
        for program in ["segue", "segue-worker"] {
            try FileManager.default.copyItem(atPath: Paths.binFolder + "/" + program, toPath: folder + "/bin/" + program)
        }
        let tag = "ordinary-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let worker = folder + "/segue-worker-\(tag)"  // tags the workers, whose environment is built from nothing
        _ = symlink(folder + "/bin/segue-worker", worker)
        for path in [folder, folder + "/plugins", folder + "/bin"] { chmod(path, 0o755) }
        for path in [folder + "/secret", config] { chmod(path, 0o644) }
        let environment = ["SEGUE_TEST_TAG": tag, "SEGUE_WORKER": worker, "SEGUE_REGISTRY_CACHE": "off", "HOME": folder,
                           "SEGUE_PLUGIN_SYSTEM_PATH": ""]
        func play(_ extra: [String]) throws -> (status: Int32, out: String, err: String) {
            try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", folder + "/bin/segue", "run", "--json",
                                         "--config", config] + extra, environment: environment, timeout: 60)
        }
        let strict = try play([])
        #expect(strict.status == 0, "\(strict.err)")
        #expect(try jsonLines(strict.out).first?["animator"] as? String == "TestFade", "it plays, sandboxed: \(strict.out)\(strict.err)")
        #expect(!strict.err.contains("ATTEMPT SUCCEEDED"), "\(strict.err)")
        // The control: the same user, the sandbox off, sees the file beside its folder.
        let off = try play(["--sandbox", "off"])
        #expect(off.err.contains("ATTEMPT SUCCEEDED: learnt that a file outside its folder exists"), "\(off.err)")
        #expect(processesTagged(tag).isEmpty, "no process is left behind")
    }

    @Test(arguments: ["strict", "off"])
    func aPluginThatWritesOverItsSharedMemoryIsNamedSo(_ sandbox: String) throws {
        let (folder, file) = try CPlugin.fixture("scribble-\(sandbox)", "ATTEMPT_SCRIBBLE", "ATTEMPT_AT=3")
        let run = try Self.played(try IsolationTests.config(pluginsIn: folder), ["--sandbox", sandbox])
        #expect(run.status == 0)
        #expect(run.reasons[0].hasPrefix("TestFade wrote over its shared memory in setup") && run.reasons[0].contains("(plugin \(file))"),
                "\(run.reasons[0])")
        #expect(run.animators[0] == "default" && !run.reasons[0].contains("system call"))
    }

    /// A plugin that rewrites "SpringSlide" wherever it can reach it: in a
    /// library loaded beside it, in answers waiting in shared memory it can
    /// map, from its constructor, its entry point, and a thread that keeps at
    /// it. Before and after its victim in scan order.
    @Test(arguments: ["aa", "zz"], [1, 2])
    func aPluginCannotRewriteAnother(_ order: String, _ place: Int) throws {
        let folder = makeTemporaryFolder("neighbour")
        let victim = folder + "/libSpringSlide.so"
        try FileManager.default.copyItem(atPath: Paths.plugin("SpringSlide"), toPath: victim)
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "\(order)Tamper",
                              defines: ["ATTEMPT_NEIGHBOUR=\"SpringSlide\"", "ATTEMPT_AT=\(place)"], into: folder)
        let config = makeTemporaryFolder("neighbour-config") + "/segue.json"
        try """
        {"plugins": ["\(folder)"],
         "rules": [{"to": "video", "animator": "SpringSlide"}, {"to": "contact", "animator": "SpringSlide"}],
         "script": ["video", "file", "contact", "clipboard"]}
        """.write(toFile: config, atomically: false, encoding: .utf8)
        for _ in 0..<2 {
            let list = try runSegue(["list", "--json", "--config", config])
            let listing = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
            let animators = listing["animators"] as? [[String: Any]] ?? []
            let spring = animators.first { $0["name"] as? String == "SpringSlide" }
            #expect(spring?["file"] as? String == victim, "the victim is listed, from its file: \(list.out.prefix(3000))")
            #expect((spring?["description"] as? String)?.hasPrefix("Slides and fades the children past each other on a bouncy spring") == true,
                    "its own words, not the neighbour's: \(spring ?? [:])")
            #expect(!list.out.contains("TamperSlide") && !list.err.contains("ATTEMPT SUCCEEDED"), "\(list.err)")
            #expect((listing["rejected"] as? [[String: String]] ?? []).isEmpty, "nothing is rejected as a duplicate")
            let run = try Self.played(config)
            #expect(run.animators[0] == "SpringSlide" && run.animators[2] == "SpringSlide", "\(run.reasons)")
            #expect(!run.err.contains("ATTEMPT SUCCEEDED") && !run.out.contains("TamperSlide"))
        }
    }

    /// The control for ``aPluginCannotRewriteAnother(_:_:)``: the same
    /// tamperer in one address space with its victim (a C program loading
    /// both, as a scanner that examined every file in one process did)
    /// rewrites the victim's name, loaded before it or after.
    @Test(arguments: ["victim-first", "tamperer-first"])
    func sharingAnAddressSpaceTheTampererRewritesItsNeighbour(_ order: String) throws {
        let folder = makeTemporaryFolder("neighbour-control")
        let victim = try CPlugin.build(CPlugin.fixtureSource, name: "SpringSlide", defines: ["FIXTURE_NAME=\"SpringSlide\""], into: folder)
        let tamperer = try CPlugin.build(CPlugin.fixtureSource, name: "Tamper",
                                         defines: ["ATTEMPT_NEIGHBOUR=\"SpringSlide\"", "ATTEMPT_AT=1"], into: folder)
        let harness = folder + "/neighbour-harness"
        let built = try run("/usr/bin/env", ["cc", "-std=c11", "-Wall", "-Werror", "-I", Paths.header, "-o", harness,
                                              Paths.packageRoot + "/Tests/Fixtures/neighbour_harness.c", "-ldl"])
        try #require(built.status == 0, "\(built.err)")
        let result = try run(harness, [victim, tamperer, order], timeout: 30)
        #expect(result.status == 0 && result.out == "TamperSlide\n", "status \(result.status): \(result.out) \(result.err)")
    }

    /// `validate` never passes what `list` refuses, and says it in `list`'s words.
    @Test func validateFailsWhatListRefuses() throws {
        let (_, printing) = try CPlugin.fixture("validate-print", "FAULT_PRINT_ENTRY")
        let printed = try run(Paths.segue, ["validate", printing])
        #expect(printed.status == 1 && printed.out.contains("FAIL  loads as segue list loads it: wrote 67 bytes to standard output while it was examined"),
                "\(printed.out)")
        let (_, open) = try CPlugin.fixture("validate-open")
        chmod(open, 0o757)
        let insecure = try run(Paths.segue, ["validate", open])
        #expect(insecure.status == 1 && insecure.out.contains("FAIL  loads as segue list loads it: refused: the file \(open) is writable by others")
                && insecure.out.contains("fix: chmod o-w \(open)"), "\(insecure.out)")
        let allowed = try run(Paths.segue, ["validate", open, "--allow-insecure-plugins"])
        #expect(allowed.status == 0 && allowed.out.contains("PASS  loads as segue list loads it"), "as list allows it: \(allowed.out)")
        let listed = try run(Paths.segue, ["list", "--plugins", (open as NSString).deletingLastPathComponent])
        #expect(listed.err.contains("is writable by others") || listed.out.contains("is writable by others"), "list refuses it too")
        // Owned by someone else (as root, the tests can give it away).
        let (_, foreign) = try CPlugin.fixture("validate-foreign")
        if geteuid() == 0, chown(foreign, 4321, 0) == 0 {
            let owned = try run(Paths.segue, ["validate", foreign])
            #expect(owned.status == 1 && owned.out.contains("FAIL  loads as segue list loads it: refused: the file \(foreign) is owned by user 4321")
                    && owned.out.contains("fix: chown 0 \(foreign)"), "\(owned.out)")
        }
    }
}
