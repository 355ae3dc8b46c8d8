import Foundation
import Glibc
@testable import HostConfig
@testable import HostContainer
@testable import PluginHost
import Testing

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

    /// Builds `Tests/Fixtures/embedding/NAME.c` as a program would: `cc NAME.c $(pkg-config --cflags --libs segue)`.
    static func program(_ name: String) throws -> String {
        let prefix = try prefix.get()
        let output = makeTemporaryFolder("program") + "/" + name
        let built = try run("/bin/sh", ["-c", "cc -std=c99 -Wall -Wextra -Werror \"$0\" $(pkg-config --cflags --libs segue) -lm -lpthread -o \"$1\"",
                                        fixtures + "/\(name).c", output], environment: environment(prefix))
        guard built.status == 0 else { throw SetupFailure(message: "cc \(name).c: " + built.err) }
        return output
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
            ("info past the last", -2, "index 999 is past the last animator (there are 4)"),
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
            ("sample with struct_size 0", -6, "states[0].struct_size is 0"),
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
        for helper in ["project NULL", "project 0 divisions", "project too little room", "indices too little room", "spring NULL"] {
            #expect(lines[helper] == ["0"], "\(helper)")
        }
        #expect(lines["spring value NULL"] == ["1"])
        #expect(lines["fd of NULL"] == ["-1"])
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

    /// A render thread samples while the plugin hangs, crashes or tries to
    /// leave its sandbox mid-transition: samples are held (SEGUE_LATE) instead
    /// of waiting, the default takes over, the reason arrives through the
    /// descriptor, and no process is left behind once the player is freed.
    @Test(arguments: [
        ("hangs", ["FAULT_HANG_EVALUATE"], "did not answer within 0.5 s (an endless loop?) and was killed in evaluate"),
        ("crashes", ["FAULT_CRASH_EVALUATE"], "crashed with signal 11 (SIGSEGV, a segmentation fault) in evaluate"),
        ("escapes", ["ATTEMPT_AT=4", "ATTEMPT_EXEC=\"/bin/true\""], "refused by the sandbox"),
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
        let event = try #require(lines["event"], "a fallback event arrived through dispatch:\n\(ran.out)")
        #expect(event[0] == "3" && event[1].contains(words) && event[1].hasSuffix("the built-in default finished the transition"), "\(event)")
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
}
