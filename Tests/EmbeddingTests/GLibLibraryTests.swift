import Foundation
import Glibc
import Testing
import TestSupport
import HostTestSupport

/// Integrations/glib built as docs/glib.md says (Meson, against libsegue
/// installed by Scripts/install.sh into a prefix, with pkg-config), installed
/// beside it with `meson install`, once per test run.
enum GLibBuild {
    /// What is missing to build the library and run its scripts, or nil.
    static let problem: String? = {
        let needed = ["/usr/bin/meson": "meson", "/usr/bin/ninja": "ninja-build", "/usr/bin/g-ir-scanner": "gobject-introspection",
                      "/usr/share/gir-1.0/Gio-2.0.gir": "libgirepository1.0-dev",
                      "/usr/include/graphene-1.0/graphene-gobject.h": "libgraphene-1.0-dev",
                      "/usr/share/gir-1.0/Graphene-1.0.gir": "libgraphene-1.0-dev",
                      "/usr/lib/x86_64-linux-gnu/girepository-1.0/Graphene-1.0.typelib": "gir1.2-graphene-1.0",
                      "/usr/lib/python3/dist-packages/gi/__init__.py": "python3-gi", "/usr/bin/gjs": "gjs"]
        let missing = Set(needed.filter { !FileManager.default.fileExists(atPath: $0.key) }.map(\.value)).sorted()
        return missing.isEmpty ? nil : "skipped: the GObject library needs \(missing.joined(separator: ", ")) (apt-get install them; .ci/run does)"
    }()

    /// libsegue installed by Scripts/install.sh, and the library beside it by `meson install`, as docs/glib.md says.
    static let installed: Result<String, InstalledLibsegue.SetupFailure> = {
        let prefix = makeTemporaryFolder("glib-prefix")
        let build = makeTemporaryFolder("glib-build")
        do {
            let installed = try run("/bin/sh", [Paths.packageRoot + "/Scripts/install.sh", "--from", Paths.binFolder, "--prefix", prefix])
            guard installed.status == 0 else { return .failure(.init(message: "install.sh: " + installed.err)) }
            for (command, log) in [(["/usr/bin/meson", "setup", build + "/out", Paths.packageRoot + "/Integrations/glib", "--prefix", prefix,
                                     "-Dwerror=true"], "setup"),
                                   (["/usr/bin/ninja", "-C", build + "/out"], "build"), (["/usr/bin/meson", "install", "-C", build + "/out"], "install")] {
                // A developer's clean environment: the system's tools, the prefix's pkg-config files; the output
                // into a log (a tool's pipe filling up must not stall it), shown on failure.
                let ran = try run("/bin/sh", ["-c", "\"$@\" > \(build)/\(log).log 2>&1", "sh", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin",
                                              "HOME=\(build)", "PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig"] + command, timeout: 600)
                guard ran.status == 0 else {
                    return .failure(.init(message: "\(command.joined(separator: " ")): "
                                          + ((try? String(contentsOfFile: "\(build)/\(log).log", encoding: .utf8)) ?? "")))
                }
            }
        } catch {
            return .failure(.init(message: "\(error)"))
        }
        return .success(prefix)
    }()

    /// The fixture plugin that crashes past a quarter of its transition, twice ("TestFade" and "LateCrash": a
    /// crash quarantines a plugin), in a folder of their own.
    static let crasher: Result<String, Error> = Result {
        let folder = try CPlugin.fixture("glib-crash", "FAULT_CRASH_EVALUATE").folder
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "glib-late-crash", defines: ["FAULT_CRASH_EVALUATE", "FIXTURE_NAME=\"LateCrash\"",
                              "FIXTURE_ID=\"org.segue.test.late-crash/1\""], into: folder)
        return folder
    }

    /// `/usr/bin/env` arguments that run `program` with nothing of the test's environment: an empty home and
    /// config folder, `variables`, and the tag its workers carry (a link to the prefix's worker named after it).
    static func alone(_ program: String, _ arguments: [String], prefix: String, tag: String, _ variables: [String: String] = [:]) -> [String] {
        let home = makeTemporaryFolder("glib-home")
        let marks = tagged(tag, worker: prefix + "/libexec/segue/segue-worker")
        return ["-i", "PATH=/usr/bin:/bin", "HOME=\(home)", "XDG_CONFIG_HOME=\(home)/config"]
            + variables.merging(marks) { $1 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [program] + arguments
    }

    /// The `check|NAME|VERDICT|detail` lines of a script, by name.
    static func checks(_ output: String) -> [String: (ok: Bool, detail: String)] {
        var found = [String: (ok: Bool, detail: String)]()
        for line in output.split(separator: "\n") where line.hasPrefix("check|") {
            let parts = line.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4 else { continue }
            found[parts[1]] = (parts[2] == "true" || parts[2] == "True", parts[3])
        }
        return found
    }

    /// The animators the scripts must list: the bundled ones as Scripts/install.sh puts them, the fixture, the default.
    static let animators = ["TestFade", "LateCrash", "CurlUp", "ImageZoom", "Pop", "SpringSlide", "default"]
}

/// SegueGLib, the GObject library over libsegue (Integrations/glib), as
/// installed: GJS and PyGObject scripts that load its typelib with no binding
/// of ours play a flat animator (Pop opening a window at its own frame) and a
/// mesh (CurlUp by a config rule), read layers against the 3x3 map and
/// against libsegue's own answers, get errors as GError, receive the
/// player's signals on the GLib main loop (a crashing plugin's fallback, a
/// watched config broken and fixed), tell Pop a minimize's task-bar entry
/// (the request's anchor: the window ends on it, and without it shrinks in
/// place), and leave no worker behind; a C program
/// built against the installed pkg-config file runs with no variables.
@Suite(.serialized, .enabled(if: GLibBuild.problem == nil, "\(GLibBuild.problem ?? "")"))
struct GLibLibraryTests {
    /// The variables docs/glib.md exports for GJS and Python (`export NAME=$HOME/.local/...`), for `prefix`.
    static func documentedVariables(_ prefix: String) throws -> [String: String] {
        let guide = try String(contentsOfFile: Paths.packageRoot + "/docs/glib.md", encoding: .utf8)
        var variables = [String: String]()
        for line in guide.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1).map(String.init)
            guard assignment.count == 2 else { continue }
            variables[assignment[0]] = assignment[1].replacingOccurrences(of: "$HOME/.local", with: prefix)
        }
        return variables
    }

    static let fixtures = Paths.packageRoot + "/Tests/Fixtures/glib"

    /// What both scripts check, each a line of theirs that must say true.
    static let bothCheck = ["pop-plays", "pop-rests-at-window-frame", "pop-matrices-match-map", "report", "finish-twice-ended",
                            "curlup-by-rule", "curlup-has-a-mesh", "mesh-size", "mesh-light", "bad-json-invalid-argument",
                            "fell-back-signal", "default-goes-on", "config-error-signal", "reloaded-signal"]

    static func expectChecks(_ names: [String], in output: String, _ err: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = GLibBuild.checks(output)
        for name in names {
            let check = found[name]
            #expect(check?.ok == true, "\(name): \(check.map { $0.detail } ?? "not reached")\n\(err)", sourceLocation: sourceLocation)
        }
        #expect(output.contains("animators|" + GLibBuild.animators.joined(separator: ",")), "\(output)", sourceLocation: sourceLocation)
        #expect(output.split(separator: "\n").last == "done", "the script ran to its end: \(output)\(err)", sourceLocation: sourceLocation)
        // No GLib CRITICAL or WARNING from the library, GLib or the bindings.
        #expect(GtkInstallTests.complaints(err) == [], "\(err)", sourceLocation: sourceLocation)
    }

    @Test func gjsPlaysThroughTheTypelibFindingItAsAnExtensionDoes() throws {
        let prefix = try GLibBuild.installed.get()
        let crasher = try GLibBuild.crasher.get()
        let config = makeTemporaryFolder("glib-gjs") + "/segue.json"
        let tag = UUID().uuidString
        // No GI_TYPELIB_PATH nor LD_LIBRARY_PATH: the script prepends the prefix's folders to GIRepository's paths.
        let ran = try run("/usr/bin/env", GLibBuild.alone("/usr/bin/gjs", [Self.fixtures + "/player.js", crasher, config, prefix],
                                                          prefix: prefix, tag: tag), timeout: 120)
        #expect(ran.status == 0, "\(ran.err)")
        Self.expectChecks(Self.bothCheck + ["first-sample-changes-plan", "pop-moves", "sample-after-finish-ended", "mesh-curls",
                                            "crasher-plays", "report-fell-back", "reloaded-rules-apply", "standard-player",
                                            "player-with-options", "missing-config-error", "standard-config-absent-logged"], in: ran.out, ran.err)
        #expect(processesTagged(tag).isEmpty, "no worker left after gjs ended")
    }

    @Test func pythonPlaysThroughTheTypelibWithTheDocumentedVariablesAsLibsegueDoes() throws {
        let prefix = try GLibBuild.installed.get()
        let crasher = try GLibBuild.crasher.get()
        var variables = try Self.documentedVariables(prefix)
        #expect(variables.keys.sorted() == ["GI_TYPELIB_PATH", "LD_LIBRARY_PATH"], "docs/glib.md says where the typelib is: \(variables)")
        // libsegue's own answers to compare with, through the segue Python package install.sh put beside it.
        variables["PYTHONPATH"] = prefix + "/lib/segue/python"
        let config = makeTemporaryFolder("glib-python") + "/segue.json"
        let tag = UUID().uuidString
        let ran = try run("/usr/bin/env", GLibBuild.alone("/usr/bin/python3", [Self.fixtures + "/player.py", crasher, config],
                                                          prefix: prefix, tag: tag, variables), timeout: 120)
        #expect(ran.status == 0, "\(ran.err)")
        Self.expectChecks(Self.bothCheck + ["libsegue-package", "pop-layers-as-libsegue", "mesh-as-libsegue", "mesh-projected", "mesh-texels", "element-layer",
                                            "other-thread-refused", "other-thread-samples", "init-refused-where-another-thread-runs-the-context",
                                            "events-another-thread-runs-stop-without-spinning", "fell-back-after-drop-names-none",
                                            "pop-minimizes-into-anchor", "anchor-properties", "pop-without-anchor-shrinks-in-place",
                                            "dispose-frees-the-player"], in: ran.out, ran.err)
        #expect(ran.err.contains("the player's events are dispatched on a thread other than the one that initialized it"),
                "the critical warning for a context another thread runs: \(ran.err)")
        #expect(processesTagged(tag).isEmpty, "no worker left after python3 ended")
    }

    @Test func aCProgramBuiltAgainstTheInstalledPkgConfigFileRunsWithNoVariables() throws {
        let prefix = try GLibBuild.installed.get()
        let program = makeTemporaryFolder("glib-c") + "/player"
        let built = try run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig", "/bin/sh", "-c",
                                             "cc -std=c11 -Wall -Wextra -Werror \"$0\" $(pkg-config --cflags --libs segue-glib-1) -o \"$1\"",
                                             Self.fixtures + "/player.c", program])
        #expect(built.status == 0, "cc player.c against segue-glib-1.pc: \(built.err)")
        let tag = UUID().uuidString
        let ran = try run("/usr/bin/env", GLibBuild.alone(program, ["Pop"], prefix: prefix, tag: tag), timeout: 60)
        #expect(ran.status == 0, "\(ran.err)")
        let lines = ran.out.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let window = lines.filter { $0.first == "layer" }
        // Pop grows the window from 80% about its centre, fading in: its top-left corner, through the graphene
        // matrix, comes from (170, 127.5) to the window's own (100, 80).
        #expect(window.first.map { Array($0[6...7]) } == ["170.0", "127.5"], "\(ran.out)")
        #expect(window.last.map { Array($0[4...7]) } == ["1", "1.000", "100.0", "80.0"], "\(ran.out)")
        #expect(window.count == 5, "\(ran.out)")
        #expect(lines.last.map { Array($0[0...3]) } == ["finished", "Pop", "1", "0"], "\(ran.out)")
        #expect(processesTagged(tag).isEmpty, "no worker left")
    }

    @Test func theBuildFolderTheDocsMakeInTheCheckoutIsIgnoredByGit() throws {
        let guide = try String(contentsOfFile: Paths.packageRoot + "/docs/glib.md", encoding: .utf8)
        let setup = try #require(guide.split(separator: "\n").first { $0.contains("meson setup ") }, "docs/glib.md says how to set up")
        let words = setup.split(separator: " ")
        let folder = try #require(words.firstIndex(of: "setup").flatMap { $0 + 1 < words.count ? String(words[$0 + 1]) : nil }, "\(setup)")
        #expect(try notIgnoredByGit(["Integrations/glib/\(folder)/build.ninja", "Integrations/glib/\(folder)/SegueGLib-1.typelib"]) == [],
                "git status would show them")
    }
}
