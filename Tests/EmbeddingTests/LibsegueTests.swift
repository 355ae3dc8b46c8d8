import Foundation
import Glibc
@testable import HostConfig
@testable import HostContainer
@testable import PluginHost
import TestSupport
import Testing
import Timing
@testable import Embedding
import EmbedABI
import AnimatorABI

/// libsegue as a program finds it: installed by Scripts/install.sh into a
/// prefix of this test process's own, and built against with pkg-config and
/// the system C compiler, with no Swift toolchain on the path.
enum InstalledLibsegue {
    static let prefix: Result<String, SetupFailure> = {
        let prefix = makeTemporaryFolder("prefix")
        do {
            let installed = try run("/bin/sh", [Paths.packageRoot + "/Scripts/install.sh", "--from", Paths.binFolder, "--prefix", prefix])
            guard installed.status == 0 else { return .failure(SetupFailure(message: "install.sh: " + installed.err)) }
        } catch {
            return .failure(SetupFailure(message: "install.sh: \(error)"))
        }
        return .success(prefix)
    }()

    struct SetupFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static let fixtures = Paths.packageRoot + "/Tests/Fixtures/embedding"

    /// A program's build environment: the system's tools and the installed pkg-config file, no Swift.
    static func environment(_ prefix: String) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "PKG_CONFIG_PATH": prefix + "/lib/pkgconfig", "LD_LIBRARY_PATH": ""]
    }

    /// Builds `Tests/Fixtures/embedding/NAME.c` as a program would: `cc NAME.c $(pkg-config --cflags --libs segue)`;
    /// once a run, the tests that run it share it.
    static func program(_ name: String) throws -> String {
        try programs.value(name) {
            let prefix = try prefix.get()
            let output = makeTemporaryFolder("program") + "/" + name
            let built = try run("/bin/sh", ["-c", "cc -std=c99 -Wall -Wextra -Werror \"$0\" $(pkg-config --cflags --libs segue) -lm -lpthread -o \"$1\"",
                                            fixtures + "/\(name).c", output], environment: environment(prefix))
            guard built.status == 0 else { throw SetupFailure(message: "cc \(name).c: " + built.err) }
            return output
        }
    }
    private static let programs = OncePerRun<String>()

    /// The first `event|KIND|MESSAGE` line whose message contains `text`: the kind and the message.
    static func event(in output: String, containing text: String) -> (kind: String, message: String)? {
        output.split(separator: "\n").lazy.filter { $0.hasPrefix("event|") }
            .map { $0.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false).map(String.init) }
            .first { $0.count == 3 && $0[2].contains(text) }.map { ($0[1], $0[2]) }
    }

    /// Lines `A|B|C` of a program's output, by their first field.
    static func fields(_ output: String) -> [String: [String]] {
        Dictionary(output.split(separator: "\n").map { line in
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return (parts[0], Array(parts.dropFirst()))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether a mount namespace can hide the toolchain (root with unshare, as in CI).
    static let canHideToolchain: Bool = {
        (try? run("/usr/bin/env", ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /opt/swift"]).status) == 0
    }()
}

@Suite("libsegue: the host behind a C API")
struct LibsegueTests {
    /// Every bad input a program can pass answers a status and words naming it, and nothing crashes.
    @Test func badInputGetsAStatusAndAMessageNeverACrash() throws {
        let program = try InstalledLibsegue.program("bad_input")
        let folder = makeTemporaryFolder("broken-config")
        let broken = folder + "/segue.json"
        try #"{"rules": [{"to": "settings", "animator": 5}]}"#.write(toFile: broken, atomically: true, encoding: .utf8)
        let ran = try run(program, [Paths.binFolder, broken])
        #expect(ran.status == 0, "\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        let expected: [(String, Int, String)] = [
            ("new with NULL options", -1, "options is NULL"),
            ("new with struct_size 0", -1, "options.struct_size is 0: expected sizeof(segue_player_options_t)"),
            ("new with a small struct_size", -1, "options.struct_size is 8"),
            ("new with NULL out", -1, "out is NULL"),
            ("new with NULL folders", -1, "options.plugin_dirs is NULL but plugin_dir_count is 1"),
            ("new with an unknown isolation", -1, "options.isolation is 7"),
            ("new with unknown flags", -1, "unknown bits 0x80"),
            ("new with a broken config", -3, "\(broken):1:31: $.rules[0].animator: expected a non-empty string, found the number 5"),
            ("new", 0, ""),
            ("info with struct_size 0", -1, "info.struct_size is 0"),
            ("info past the last", -2, "index 999 is past the last animator (there are 5)"),
            ("info into NULL", -1, "info is NULL"),
            ("find a misspelt name", -2, "no animator named 'CurlUpp' (did you mean 'CurlUp'?)"),
            ("find NULL", -1, "name is NULL"),
            ("param past the last", -2, "CurlUp has 5 parameters; there is no parameter 99"),
            ("begin with NULL desc", -1, "desc is NULL"),
            ("begin with struct_size 0", -1, "desc.struct_size is 0"),
            ("begin with empty bounds", -1, "desc.bounds is 0.0, 0.0, 0.0 x 0.0: expected a finite width and height above 0"),
            ("begin with a NULL view name", -1, "desc.from.name is NULL"),
            ("begin with NULL elements", -1, "desc.from.elements is NULL but element_count is 2"),
            ("begin with a NULL element", -1, "desc.from.elements[0] is NULL"),
            ("begin with a NaN frame", -1, "desc.from.elements[0].frame is 10.0, 10.0, nan x 50.0"),
            ("begin with malformed parameters", -1, "desc.parameters_json:1:18: $: expected"),
            ("begin with parameters not an object", -1, "desc.parameters_json: $: expected an object, found an array"),
            ("begin an unknown animator", 0, ""),
            ("begin with a parameter out of range", 0, ""),
            ("plan into NULL", -1, "plan is NULL"),
            ("plan with struct_size 0", -1, "plan.struct_size is 0"),
            ("sample with NULL states", -1, "states is NULL"),
            ("sample with too few states", -6, "state_count is 1: the plan has 2 layers"),
            ("sample with struct_size 0", -1, "states[0].struct_size is 0"),
            ("sample with a state 8 bytes short", -1, "states[0].struct_size is 200: expected sizeof(segue_layer_state_t) (344, 208 at the least)"),
            ("sample without room for the mesh", -6, "states[1] has room for 0 mesh vertices"),
            ("sample at NaN", -1, "t is NaN"),
            ("sample before the start", 3, "t was outside [0, duration]"),
            ("sample past the end", 3, "t was outside [0, duration]"),
            ("sample", 0, ""),
            ("begin from another thread", -4, "not the player's main thread"),
            ("dispatch from another thread", -4, "not the player's main thread"),
            ("finish from another thread", -4, "not the player's main thread"),
            ("sample from another thread", 0, ""),
            ("finish with a small report", -1, "report.struct_size is 4"),
            ("finish", 0, ""),
            ("finish again", -5, "finished already: a transition ends exactly once"),
            ("sample after finish", -5, "the transition has been finished"),
            ("dispatch", 0, ""),
        ]
        for (name, status, words) in expected {
            let line = try #require(lines[name], "no line for '\(name)' in:\n\(ran.out)")
            #expect(line[0] == String(status), "\(name): \(line)")
            #expect(words.isEmpty ? line[1].isEmpty : line[1].contains(words), "\(name): \(line[1])")
        }
        #expect(lines["plan of an unknown animator"] == ["default", "1", "the program's choice names the animator 'Nope', which no loaded plugin provides; the built-in default ran instead"])
        #expect(lines["plan with a parameter out of range"] == ["default", "1", "the program's choice: CurlUp parameter 'duration': expected a number in [0.05, 10], found 99; the built-in default ran instead"])
        #expect(lines["plan of CurlUp"] == ["CurlUp", "0", "2 layers"])
        #expect(lines["report"] == ["CurlUp", "0", "1"])
        #expect(lines["spring physical"] == ["1", "1382"], "damping 10, mass 1, stiffness 100: the envelope's 1.3816 s")
        for helper in ["project NULL", "project 0 divisions", "project too little room", "indices too little room", "spring NULL",
                       "spring physical undamped"] {
            #expect(lines[helper] == ["0"], "\(helper)")
        }
        #expect(lines["spring value NULL"] == ["1"])
        #expect(lines["fd of NULL"] == ["-1"])
        let count = try #require(lines["animator count from another thread"], "\(ran.out)")
        #expect(count[0] == "0" && count[1].contains("segue_player_animator_count: called from a thread that is not the player's main thread"),
                "a count of 0 from another thread says why: \(count)")
        #expect(lines["done"] != nil)
    }

    /// The install carries what libsegue needs at run time: with the toolchain
    /// hidden, a program still plays a Swift plugin in a sandboxed worker.
    @Test(.enabled(if: InstalledLibsegue.canHideToolchain, "skipped: needs root and unshare to hide /opt/swift in a mount namespace (CI has both)"))
    func aProgramPlaysAnimatorsWithNoSwiftToolchainPresent() throws {
        let program = try InstalledLibsegue.program("bad_input")
        let prefix = try InstalledLibsegue.prefix.get()
        let folder = makeTemporaryFolder("config")
        try "{}".write(toFile: folder + "/segue.json", atomically: true, encoding: .utf8)
        let ran = try run("/usr/bin/env", ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /opt/swift && exec \"$0\" \"$1\" \"$2\"",
                                           program, prefix + "/lib/segue/plugins", folder + "/segue.json"])
        #expect(ran.status == 0, "\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        #expect(lines["plan of CurlUp"] == ["CurlUp", "0", "2 layers"], "CurlUp ran in its worker:\n\(ran.out)")
        #expect(lines["done"] != nil)
    }

    /// A plugin file with several animators: libsegue plays each in the
    /// file's worker, with the sandbox strict (the default) and off.
    @Test(arguments: ["strict", "off"])
    func eachAnimatorOfAFilePlaysInItsWorker(sandbox: String) throws {
        let program = try InstalledLibsegue.program("every_animator")
        let (folder, file) = try CPlugin.fixture("two-animators", "FIXTURE_TWO_ANIMATORS")
        let tag = "SEGUE_TEST_TAG=libsegue-two-\(sandbox)-\(getpid())"
        let ran = try run(program, [folder], environment: tagged(tag).merging(["SEGUE_SANDBOX": sandbox]) { $1 }, timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let played = ran.out.split(separator: "\n").filter { $0.hasPrefix("played|") }
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(played.map { $0[1] } == ["TestFade", "SecondFade"], "\(ran.out)")
        for line in played {
            #expect(line[2] == file && line[3] == line[1] && line[4] == "0", "played by its plugin, not the default: \(line)")
        }
        #expect(ran.out.hasSuffix("done\n"))
        #expect(processesTagged(tag).isEmpty, "no worker outlives the player")
    }

    /// The standard config as a desktop host follows it: absent at start
    /// (the default plays, said once), written, broken (the last good kept),
    /// removed (no rules again) and written again, each said by an event.
    @Test func theStandardConfigIsFollowedAsItAppearsBreaksAndVanishes() throws {
        let program = try InstalledLibsegue.program("follow_config")
        let (folder, _) = try CPlugin.fixture("follow", "FIXTURE_KINDS")
        let home = makeTemporaryFolder("config-home")
        let tag = "SEGUE_TEST_TAG=libsegue-follow-\(getpid())"
        let ran = try run(program, [folder], environment: tagged(tag).merging(["XDG_CONFIG_HOME": home]) { $1 }, timeout: 90)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let lines = ran.out.split(separator: "\n").map(String.init)
        let stages = lines.filter { $0.hasPrefix("stage|") }
        #expect(stages == ["stage|absent|default", "stage|written|TestFade", "stage|broken|TestFade", "stage|removed|default", "stage|back|TestFade"],
                "\(ran.out)")
        let config = home + "/segue/segue.json"
        #expect(lines.first == "event|0|segue: no config at \(config): the built-in default plays every transition not given an animator; it is read when it appears",
                "said once, at the start: \(ran.out)")
        #expect(lines.contains { $0.hasPrefix("event|2|") && $0.contains(config) && $0.contains("keeping the last good config until \(config) is fixed") },
                "\(ran.out)")
        #expect(lines.contains("event|1|\(config) is gone: no rules apply (the built-in default plays every transition not given an animator) until it is back"), "\(ran.out)")
        #expect(lines.contains("event|1|\(config) appeared and is followed"), "\(ran.out)")
        #expect(processesTagged(tag).isEmpty, "no worker outlives the player")
    }

    /// A broken standard config at start: the player starts all the same,
    /// no rules apply, and one config-error event names the file's mistake.
    @Test func aBrokenStandardConfigAtStartPlaysTheDefaultAndSaysWhy() throws {
        let program = try InstalledLibsegue.program("follow_config")
        let (folder, _) = try CPlugin.fixture("follow-broken", "FIXTURE_KINDS")
        let home = makeTemporaryFolder("config-home")
        try FileManager.default.createDirectory(atPath: home + "/segue", withIntermediateDirectories: true)
        try #"{"rules": [}"#.write(toFile: home + "/segue/segue.json", atomically: false, encoding: .utf8)
        let ran = try run(program, [folder], environment: ["XDG_CONFIG_HOME": home], timeout: 90)
        let lines = ran.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("event|2|\(home)/segue/segue.json:1:") == true
                && lines.first?.hasSuffix("no rules apply (the built-in default plays every transition not given an animator) until \(home)/segue/segue.json is fixed") == true,
                "\(ran.out)")
        #expect(lines.contains("stage|absent|default") && lines.contains("stage|written|TestFade"), "\(ran.out)")
    }

    /// A plugin whose threads compute once its transition is over (started
    /// in setup, well within its thread limit, each evaluate in time): its worker is
    /// ended within seconds of the transition's end, the plugin quarantined
    /// saying so, and the next transition naming it plays the default and
    /// says why. Sandbox strict and off.
    @Test(arguments: ["strict", "off"])
    func aPluginThatKeepsComputingAfterItsTransitionIsEnded(sandbox: String) throws {
        let program = try InstalledLibsegue.program("play_twice")
        let (folder, file) = try CPlugin.fixture("spin-after-\(sandbox)", "ATTEMPT_SPIN_AFTER", "ATTEMPT_AT=3")
        let tag = "SEGUE_TEST_TAG=libsegue-spin-\(sandbox)-\(getpid())"
        // 6 s between the transitions: its spinning threads, ten nice levels down, may get little of a busy machine.
        let ran = try run(program, [folder, "TestFade", "6"], environment: tagged(tag).merging(["SEGUE_SANDBOX": sandbox]) { $1 },
                          timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        #expect(lines["plan"]?.prefix(3) == ["1", "TestFade", "0"], "the first plays: \(ran.out)")
        let second = ran.out.split(separator: "\n").first { $0.hasPrefix("plan|2|") }.map(String.init) ?? ""
        #expect(second.hasPrefix("plan|2|default|1|"), "\(ran.out)")
        #expect(second.contains("TestFade is quarantined: its plugin \(file) kept computing after its transition ended (used ")
                && second.contains(" for a processor in "), "\(second)")
        #expect(processesTagged(tag).isEmpty, "no worker outlives the player")
    }

    /// A plugin whose setup starts 8 threads that compute while its
    /// transition plays (each evaluate in time): the worker asks more than
    /// 2 processors' worth of its transition's wall time, is ended, the
    /// default finishes the transition saying why, and the next transition
    /// naming it plays the default. The transition is played slowed to 4 s,
    /// so the watch reads it mid-way; what is measured (CPU time used and
    /// time waited for a processor) does not shrink on a loaded machine.
    /// Sandbox strict and off.
    @Test(arguments: ["strict", "off"])
    func aPluginThatComputesBesideItsCallsIsEnded(sandbox: String) throws {
        let program = try InstalledLibsegue.program("play_twice")
        let (folder, file) = try CPlugin.fixture("spin-during-\(sandbox)", "ATTEMPT_SPIN_DURING", "ATTEMPT_AT=3")
        let tag = "SEGUE_TEST_TAG=libsegue-spin-during-\(sandbox)-\(getpid())"
        let ran = try run(program, [folder, "TestFade", "0", "4"], environment: tagged(tag).merging(["SEGUE_SANDBOX": sandbox]) { $1 },
                          timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        #expect(lines["plan"]?.prefix(3) == ["1", "TestFade", "0"], "the first begins with the plugin: \(ran.out)")
        let words = "computed beside its calls during its transition (used "
        let finish = try #require(lines["finish"], "\(ran.out)")
        #expect(finish[0] == "default" && finish[1] == "1" && finish[2].contains("its plugin \(file) \(words)")
                && finish[2].contains(" for a processor in ") && finish[2].contains("more than 2x its wall time"), "\(finish)")
        let second = ran.out.split(separator: "\n").first { $0.hasPrefix("plan|2|") }.map(String.init) ?? ""
        #expect(second.hasPrefix("plan|2|default|1|") && second.contains("TestFade is quarantined: its plugin \(file) computed beside its calls"),
                "\(second)")
        #expect(processesTagged(tag).isEmpty, "no worker outlives the player")
    }

    /// A render thread samples while the plugin hangs, crashes or tries to
    /// leave its sandbox mid-transition: samples are held (SEGUE_LATE) instead
    /// of waiting, the default takes over, the reason arrives through the
    /// descriptor, and no process is left behind once the player is freed.
    @Test(arguments: [
        ("hangs", ["FAULT_HANG_EVALUATE"], "did not answer within 0.5 s (an endless loop?) and was killed in evaluate"),
        ("crashes", ["FAULT_CRASH_EVALUATE"], "crashed with signal 11 (SIGSEGV, a segmentation fault) in evaluate"),
        ("escapes", ["ATTEMPT_AT=4", "ATTEMPT_EXEC=\"/bin/true\""], "refused by the sandbox"),
        // Refused calls between a copy of every shared mapping and its return: named all the same.
        ("hides", ["ATTEMPT_AT=4", "ATTEMPT_HIDE=\"/nonexistent/segue-hidden\""],
         "tried to open a socket (socket AF_INET) and to signal another process (kill pid "),
        ("futex", ["ATTEMPT_AT=4", "ATTEMPT_FUTEX"], "tried to wake or wait on a futex other processes can share (futex FUTEX_WAKE)"),
    ])
    func aFailingPluginCostsOnlyItsTransition(_ fault: String, _ defines: [String], _ words: String) throws {
        let program = try InstalledLibsegue.program("faults")
        let plugin = makeTemporaryFolder("fault-\(fault)")
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "fault", defines: defines, into: plugin)
        let tag = "SEGUE_TEST_TAG=libsegue-\(fault)-\(getpid())"
        let ran = try run(program, [plugin, "TestFade"], environment: tagged(tag), timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        #expect(lines["plan"] == ["TestFade", "0", "0.500"], "\(ran.out)")
        // (Its first event may be another: a log that the first frames came late, on a busy machine.)
        let event = try #require(InstalledLibsegue.event(in: ran.out, containing: words), "a fallback event arrived through dispatch:\n\(ran.out)")
        #expect(event.kind == "\(SEGUE_EVENT_FELL_BACK.rawValue)" && event.message.hasSuffix("the built-in default finished the transition"),
                "\(event)")
        let statuses = try #require(lines["statuses"]).compactMap { Int($0) }
        #expect(statuses[0] > 0, "the plugin answered before its fault: \(statuses)")
        #expect(statuses[2] > 0, "the default took over: \(statuses)")
        #expect(statuses[4] == 0, "no sample failed: \(statuses)")
        if fault == "hangs" { #expect(statuses[1] > 0, "samples were held while the plugin hung, not waited for: \(statuses)") }
        let after = try #require(lines["after"])
        #expect(after[0] == "default" && after[1] == "1" && after[2] == "2" && after[3].contains(words), "\(after)")
        #expect(lines["report"] == ["default", "1", "1"])
        #expect(lines["done"] != nil)
        #expect(processesTagged(tag).isEmpty, "no worker outlives the player")
    }

    /// A plugin that hangs in setup costs the program a wait of 100 ms, not
    /// its deadline of 1 s: begin gives the built-in default, saying so; the
    /// setup goes on, on a thread of libsegue's, until the worker is killed at
    /// its deadline and the plugin quarantined, which a log event says.
    @Test func aPluginHangingInSetupCostsTheProgramTheBeginBoundOnly() throws {
        let program = try InstalledLibsegue.program("faults")
        let plugin = makeTemporaryFolder("setup-hangs")
        let file = try CPlugin.build(CPlugin.fixtureSource, name: "fault", defines: ["FAULT_HANG_SETUP"], into: plugin)
        let tag = "SEGUE_TEST_TAG=libsegue-setup-\(getpid())"
        let ran = try run(program, [plugin, "TestFade", "setup"], environment: tagged(tag), timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        #expect(lines["plan"]?.prefix(2) == ["default", "1"], "\(ran.out)")
        #expect(lines["reason"] == ["TestFade did not set up within 100 ms (plugin \(file)); the built-in default ran instead"], "\(ran.out)")
        let event = try #require(InstalledLibsegue.event(in: ran.out, containing: " in setup"), "the setup's end came as an event:\n\(ran.out)")
        #expect(event.kind == "\(SEGUE_EVENT_LOG.rawValue)"
                && event.message.contains("TestFade did not answer within 1 s (an endless loop?) and was killed in setup (plugin \(file))")
                && event.message.contains("the plugin is quarantined"), "\(event)")
        let again = try #require(lines["again"], "\(ran.out)")
        #expect(again.prefix(2) == ["default", "1"] && again[2].contains("TestFade is quarantined: its plugin \(file)"), "\(again)")
        #expect(lines["done"] != nil)
        #expect(processesTagged(tag).isEmpty, "no worker outlives the player")
    }

    /// A plugin that hangs in its first frame costs the program's begin the
    /// same 100 ms at most, not the evaluate deadline of 0.5 s: begin says it
    /// was late and returns, samples hold the start, and the default takes
    /// over once the plugin is killed at its deadline.
    @Test func aPluginHangingInItsFirstFrameCostsTheProgramTheBeginBoundOnly() throws {
        let program = try InstalledLibsegue.program("faults")
        let plugin = makeTemporaryFolder("first-frame-hangs")
        let file = try CPlugin.build(CPlugin.fixtureSource, name: "fault", defines: ["FAULT_HANG_FIRST_FRAME"], into: plugin)
        let tag = "SEGUE_TEST_TAG=libsegue-first-frame-\(getpid())"
        let ran = try run(program, [plugin, "TestFade"], environment: tagged(tag), timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let late = try #require(InstalledLibsegue.event(in: ran.out, containing: "first frames"), "begin said the plugin was late:\n\(ran.out)")
        #expect(late.kind == "\(SEGUE_EVENT_LOG.rawValue)" && late.message == "segue: TestFade did not give its first frames within 100 ms "
                + "(plugin \(file)); the transition holds its start until it does", "\(late)")
        let killed = try #require(InstalledLibsegue.event(in: ran.out, containing: "killed"), "the hang was said:\n\(ran.out)")
        #expect(killed.kind == "\(SEGUE_EVENT_FELL_BACK.rawValue)"
                && killed.message.contains("TestFade did not answer within 0.5") && killed.message.contains("killed in evaluate at t = 0.000 s")
                && killed.message.hasSuffix("the built-in default finished the transition"), "\(killed)")
        let statuses = try #require(InstalledLibsegue.fields(ran.out)["statuses"]).compactMap { Int($0) }
        #expect(statuses[1] > 0 && statuses[2] > 0 && statuses[4] == 0, "held, then taken over, none failed: \(statuses)")
        #expect(InstalledLibsegue.fields(ran.out)["report"] == ["default", "1", "1"], "\(ran.out)")
        #expect(processesTagged(tag).isEmpty, "no worker outlives the player")
    }

    /// A plugin in the program's process (SEGUE_ISOLATION_NONE) whose setup
    /// takes longer than begin's bound still has that bound for its first
    /// frames: begin says nothing of them, and the first sample finds them.
    @Test func aSlowSetupInTheProgramsProcessLeavesItsFirstFramesTheirBound() throws {
        let program = try InstalledLibsegue.program("faults")
        let plugin = makeTemporaryFolder("slow-setup-in-process")
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "fault", defines: ["FAULT_SLOW_SETUP"], into: plugin)
        let ran = try run(program, [plugin, "TestFade", "inprocess"], timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        #expect(lines["plan"] == ["TestFade", "0", "0.500"], "\(ran.out)")
        #expect(InstalledLibsegue.event(in: ran.out, containing: "first frames") == nil, "no word of late first frames:\n\(ran.out)")
        #expect(lines["first"] == ["\(SEGUE_OK.rawValue)"], "the first sample found its frame: \(ran.out)")
        #expect(lines["done"] != nil)
    }

    /// A plugin that hangs or crashes in its end costs the program no wait:
    /// finish answers at once with what it knows, the plugin's end is waited
    /// for on a thread of libsegue's, and what it did arrives later as a log
    /// event; the plugin is quarantined and no worker is left.
    @Test(arguments: [
        ("hangs", "FAULT_HANG_END", "did not answer within 1 s (an endless loop?) and was killed in end"),
        ("crashes", "FAULT_CRASH_END", "crashed with signal 11 (SIGSEGV, a segmentation fault) in end"),
    ])
    func aPluginFailingInItsEndCostsTheProgramNoWait(_ fault: String, _ define: String, _ words: String) throws {
        let program = try InstalledLibsegue.program("faults")
        let plugin = makeTemporaryFolder("end-\(fault)")
        let file = try CPlugin.build(CPlugin.fixtureSource, name: "fault", defines: [define], into: plugin)
        let tag = "SEGUE_TEST_TAG=libsegue-end-\(fault)-\(getpid())"
        let ran = try run(program, [plugin, "TestFade", "end"], environment: tagged(tag), timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\n\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        #expect(lines["plan"] == ["TestFade", "0", "0.500"], "\(ran.out)")
        #expect(lines["report"] == ["TestFade", "0", "1"], "the transition itself completed: \(ran.out)")
        // Finish did not wait for the plugin's end: its report cannot say what the end did.
        #expect(lines["reason"].map { !$0.joined().contains(" in end") } == true, "\(ran.out)")
        let event = try #require(InstalledLibsegue.event(in: ran.out, containing: " in end"),
                                 "the end's failure arrived through dispatch after finish:\n\(ran.out)")
        #expect(event.kind == "\(SEGUE_EVENT_LOG.rawValue)" && event.message.contains("TestFade \(words) (plugin \(file))")
                && event.message.contains("the plugin is quarantined"), "\(event)")
        #expect(lines["done"] != nil)
        #expect(processesTagged(tag).isEmpty, "no worker outlives the player")
    }
}

/// The same animators played by libsegue from Python (ctypes, no compile
/// step) and by the Swift container, for the same views and times.
@Suite("libsegue from Python")
struct LibseguePythonTests {
    /// One transition of the comparison: the views, how the animator is chosen, the times.
    struct Case {
        var from: String, to: String
        var elements: [String: [(String, Rect)]] = [:]
        var animator: String?
        var parameters: String?
        var times: [Double]
    }

    static let size = Rect(x: 0, y: 0, width: 390, height: 844)
    static let photo: [String: [(String, Rect)]] = [
        "grid": [("photo", Rect(x: 20, y: 120, width: 160, height: 120))],
        "detail": [("photo", Rect(x: 0, y: 0, width: 390, height: 300))],
    ]
    static let cases = [
        Case(from: "a", to: "b", animator: "SpringSlide", parameters: #"{"duration": 0.5}"#, times: [0, 0.05, 0.13, 0.27, 0.41]),
        Case(from: "a", to: "b", animator: "CurlUp", parameters: #"{"rows": 8, "curve": "easeOut"}"#, times: [0, 0.07, 0.2, 0.33]),
        Case(from: "grid", to: "detail", elements: photo, times: [0, 0.1, 0.2, 0.35]),  // ImageZoom, by the config's rule
        Case(from: "b", to: "a", times: [0, 0.25, 0.5, 0.75]),  // no rule: the built-in default
    ]
    static let config = #"{"rules": [{"from": "grid", "to": "detail", "animator": "ImageZoom", "parameters": {"duration": 0.45}}]}"#

    /// What play.py printed.
    struct Played: Decodable {
        struct Animator: Decodable { let name: String; let id: String; let file: String?; let parameters: [Parameter] }
        struct Parameter: Decodable { let name: String; let type: Int; let `default`: Double; let min: Double; let max: Double; let choices: [String] }
        struct Transition: Decodable {
            let animator: String, file: String?, duration: Double, fell_back: Bool, reason: String
            let layers: [[Int]], hidden: [[Int]], samples: [Sample]
        }
        struct Sample: Decodable { let t: Double; let status: Int; let layers: [Layer] }
        struct Layer: Decodable {
            let frame: [Double], transform: [Double], alpha: Double, z: Double, hidden: Bool, mesh: [[Double]]
        }
        let version: Int
        let sizes: [String: Int]
        let animators: [Animator]
        let transitions: [Transition]
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func pythonGetsTheContainersLayerStates() throws {
        let prefix = try InstalledLibsegue.prefix.get()
        let folder = makeTemporaryFolder("python")
        try Self.config.write(toFile: folder + "/segue.json", atomically: true, encoding: .utf8)
        func box(_ r: Rect) -> [Double] { [r.x, r.y, r.width, r.height] }
        let request: [String: Any] = [
            "library": prefix + "/lib/libsegue.so.1", "package": Paths.packageRoot + "/Integrations/python",
            "plugins": [Paths.binFolder], "config": folder + "/segue.json",
            "transitions": Self.cases.map { c -> [String: Any] in
                func side(_ name: String) -> [String: Any] {
                    ["name": name, "frame": box(Self.size), "elements": (c.elements[name] ?? []).map { [$0.0, box($0.1)] as [Any] }]
                }
                var spec: [String: Any] = ["bounds": [Self.size.width, Self.size.height], "from": side(c.from), "to": side(c.to),
                                           "going_right": c.from < c.to, "times": c.times]
                if let a = c.animator { spec["animator"] = a }
                if let p = c.parameters { spec["parameters"] = p }
                return spec
            },
        ]
        let input = folder + "/request.json"
        try JSONSerialization.data(withJSONObject: request).write(to: URL(fileURLWithPath: input))
        let ran = try run("/bin/sh", ["-c", "exec python3 \"$0\" < \"$1\"", InstalledLibsegue.fixtures + "/play.py", input],
                          environment: ["PATH": "/usr/bin:/bin"])
        #expect(ran.status == 0, "\(ran.err)")
        let played = try JSONDecoder().decode(Played.self, from: Data(ran.out.utf8))

        #expect(played.version == 0x10005, "API 1.5")
        #expect(played.sizes == ["options": 80, "desc": 248, "plan": 248, "info": 56, "state": 344], "ctypes lays the structs out as C does")
        #expect(played.animators.map(\.name) == ["CurlUp", "ImageZoom", "Pop", "SpringSlide", "default"])
        let curl = try #require(played.animators.first { $0.name == "CurlUp" })
        #expect(curl.id == "org.segue.curl-up/1" && curl.file == Paths.binFolder + "/libCurlUp.so")
        #expect(curl.parameters.map(\.name) == ["duration", "curve", "radius", "angle", "rows"])
        #expect(curl.parameters[4].type == 1 && curl.parameters[4].min == 2 && curl.parameters[4].max == 64)

        let registry = AnimatorRegistry(folders: [Paths.binFolder], isolation: .process)
        let config = try SegueConfig.load(path: folder + "/segue.json", forViewsOfAProgram: true)
        for (c, transition) in zip(Self.cases, played.transitions) {
            let harness = Harness([c.from, c.to].sorted(), size: Self.size, elements: c.elements)
            let choice = ProgramChoice(ConfigDrivenDelegate(config: config, registry: registry), animator: c.animator,
                                       parameters: try c.parameters.map { try SegueConfig.parameters(json: Array($0.utf8), label: "parameters") } ?? [:])
            harness.delegate = choice
            try harness.switchTo(c.from)  // from rest at the child the transition leaves
            harness.reports.removeAll()
            let origin = harness.clock.now
            try harness.container.select(named: c.to)
            let from = harness.child(c.from).view, to = harness.child(c.to).view
            for sample in transition.samples {
                harness.clock.advance(to: origin + sample.t)
                harness.container.tick()
                #expect(sample.status == 0, "\(transition.animator) at \(sample.t)")
                let snapshots = harness.container.view.subviews.filter { $0 !== from && $0 !== to }
                var snapshotIndex = 0
                for (layer, state) in zip(transition.layers, sample.layers) {
                    let view: View
                    switch layer[0] {
                    case 0: view = from
                    case 1: view = to
                    default:
                        view = snapshots[snapshotIndex]
                        snapshotIndex += 1
                    }
                    let where_ = "\(transition.animator) at t = \(sample.t)"
                    #expect(zip(state.frame, box(view.frame)).allSatisfy { approx($0, $1) }, "frame \(where_)")
                    #expect(zip(state.transform, view.transform.values).allSatisfy { approx($0, $1) }, "transform \(where_)")
                    #expect(approx(state.alpha, view.alpha) && approx(state.z, view.zPosition) && state.hidden == view.isHidden, "\(where_)")
                    let mesh = view.mesh.map { Array($0.vertices) } ?? []
                    #expect(state.mesh.count == mesh.count, "mesh \(where_)")
                    #expect(zip(state.mesh, mesh).allSatisfy { approx($0[0], $1.x) && approx($0[1], $1.y) && approx($0[2], $1.z) }, "mesh \(where_)")
                }
            }
            harness.container.runUntilIdle(advancing: harness.clock)
            let report = try #require(harness.reports.last)
            #expect(transition.animator == report.animator && transition.fell_back == report.fellBack && transition.reason == report.reason,
                    "\(transition.animator): \(transition.reason) / \(report.reason)")
            #expect(approx(transition.duration, report.duration))
        }
        #expect(played.transitions.map(\.animator) == ["SpringSlide", "CurlUp", "ImageZoom", "default"])
        #expect(played.transitions[2].hidden == [[0, 0], [1, 0]], "ImageZoom hides both photos")
        #expect(played.transitions[1].layers[1] == [0, 0, 4, 8], "CurlUp's page is a 4x8 mesh")
    }
}

/// A delegate that picks as a program using libsegue does: the animator it
/// names, else the config's rules.
final class ProgramChoice: ContainerViewControllerDelegate {
    let rules: ConfigDrivenDelegate
    let animator: String?
    let parameters: [String: ParameterValue]

    init(_ rules: ConfigDrivenDelegate, animator: String?, parameters: [String: ParameterValue]) {
        (self.rules, self.animator, self.parameters) = (rules, animator, parameters)
    }

    func containerViewController(_ container: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                 to: ViewController) -> AnimatorResolution {
        animator.map { rules.resolve(animator: $0, for: .switch, parameters: parameters, why: "the program's choice") }
            ?? rules.resolve(from: from.name, to: to.name)
    }
}

/// Reloads reach a program through the player's descriptor and dispatch,
/// never as a callback on a thread of libsegue's. Driven through the C API's
/// own functions.
@Suite("libsegue's descriptor and dispatch", .serialized)
struct LibsegueDispatchTests {
    /// What on_event received, on the test's thread.
    nonisolated(unsafe) static var heard: [(kind: UInt32, message: String, onMainThread: Bool)] = []
    nonisolated(unsafe) static var mainThread = pthread_self()

    /// Waits on the descriptor (10 s at most) and dispatches, until an event of `kind` was heard.
    func dispatch(_ player: OpaquePointer, until kind: segue_event_kind_t) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var poller = pollfd(fd: seguePlayerFD(player), events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 { #expect(seguePlayerDispatch(player) == SEGUE_OK) }
            if Self.heard.contains(where: { $0.kind == kind.rawValue }) { return true }
        }
        return false
    }

    func animatorNames(_ player: OpaquePointer) -> [String] {
        (0..<seguePlayerAnimatorCount(player)).map { i in
            var info = segue_animator_info_t()
            info.struct_size = UInt32(MemoryLayout<segue_animator_info_t>.size)
            _ = seguePlayerAnimatorInfo(player, i, &info)
            return String(cString: info.name)
        }
    }

    /// The animator a switch from "home" to "settings" gets by the rules now.
    func ruledAnimator(_ player: OpaquePointer) -> String {
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = segue_rect_t(x: 0, y: 0, width: 390, height: 844)
        return "home".withCString { home in
            "settings".withCString { settings in
                desc.from = segue_view_t(name: home, frame: desc.bounds, elements: nil, element_count: 0)
                desc.to = segue_view_t(name: settings, frame: desc.bounds, elements: nil, element_count: 0)
                var transition: OpaquePointer?
                guard LibseguePromiseTests.beginInTime(player, &desc, &transition) == SEGUE_OK, let transition else { return "?" }
                defer { segueTransitionFree(transition) }
                var plan = segue_plan_info_t()
                plan.struct_size = UInt32(MemoryLayout<segue_plan_info_t>.size)
                _ = segueTransitionPlan(transition, &plan)
                return String(cString: plan.animator)
            }
        }
    }

    @Test func reloadsAndBrokenConfigsArriveThroughDispatch() throws {
        Self.heard = []
        Self.mainThread = pthread_self()
        let plugins = makeTemporaryFolder("watched-plugins")
        let config = makeTemporaryFolder("watched-config") + "/segue.json"
        try replaceByRename(config, with: #"{"rules": [{"to": "settings", "animator": "SpringSlide"}]}"#)
        var options = segue_player_options_t()
        options.struct_size = UInt32(MemoryLayout<segue_player_options_t>.size)
        options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS | SEGUE_PLAYER_WATCH
        options.on_event = { _, event in
            guard let event else { return }
            LibsegueDispatchTests.heard.append((event.pointee.kind, String(cString: event.pointee.message),
                                                pthread_equal(pthread_self(), LibsegueDispatchTests.mainThread) != 0))
        }
        var made: OpaquePointer?
        let status = plugins.withCString { folder in
            config.withCString { path in
                var folders: [UnsafePointer<CChar>?] = [folder]
                return folders.withUnsafeMutableBufferPointer { list in
                    options.plugin_dirs = UnsafePointer(list.baseAddress)
                    options.plugin_dir_count = 1
                    options.config_path = path
                    return seguePlayerNew(&options, &made)
                }
            }
        }
        let player = try #require(made, "segue_player_new: \(status)")
        defer { seguePlayerFree(player) }
        #expect(animatorNames(player) == ["default"])
        #expect(ruledAnimator(player) == "default", "the rule names an animator no folder has yet")

        try FileManager.default.copyItem(atPath: Paths.plugin("SpringSlide"), toPath: plugins + "/libSpringSlide.so")
        #expect(dispatch(player, until: SEGUE_EVENT_RELOADED), "the new plugin was announced: \(Self.heard)")
        #expect(Self.heard.contains { $0.message.contains("added SpringSlide") }, "\(Self.heard)")
        #expect(animatorNames(player) == ["SpringSlide", "default"])
        #expect(ruledAnimator(player) == "SpringSlide")

        Self.heard = []
        try replaceByRename(config, with: #"{"rules": [{"to": "settings", "animator": 5}]}"#)
        #expect(dispatch(player, until: SEGUE_EVENT_CONFIG_ERROR), "\(Self.heard)")
        let problem = try #require(Self.heard.first { $0.kind == SEGUE_EVENT_CONFIG_ERROR.rawValue })
        #expect(problem.message.contains("segue.json:1:31: $.rules[0].animator: expected a non-empty string") && problem.message.hasSuffix("; keeping the last good config until \(config) is fixed"), "\(problem.message)")
        #expect(ruledAnimator(player) == "SpringSlide", "the last good config is kept")

        Self.heard = []
        try replaceByRename(config, with: #"{"rules": [{"to": "settings", "animator": "default"}]}"#)
        #expect(dispatch(player, until: SEGUE_EVENT_RELOADED), "\(Self.heard)")
        #expect(Self.heard.contains { $0.message.hasSuffix("segue.json is good again") }, "\(Self.heard)")
        #expect(Self.heard.contains { $0.message.contains("segue.json changed") }, "\(Self.heard)")
        #expect(ruledAnimator(player) == "default")
        #expect(Self.heard.allSatisfy { $0.onMainThread }, "every event on the thread that dispatched")
    }
}
