import Foundation
import Testing
import TestSupport

/// The `segue` Python package (Integrations/python): installable with pip
/// from the checkout, its ctypes structs laid out as the C compiler lays out
/// segue/embed.h's, and libsegue's refusals raised as SegueError with
/// libsegue's words. (Its layer states are checked against the Swift
/// container's by "libsegue from Python".)
@Suite("the segue Python package")
struct PythonPackageTests {
    static let package = Paths.packageRoot + "/Integrations/python"
    static let python = "/usr/bin/python3"
    static let hasPython = FileManager.default.isExecutableFile(atPath: python)
    /// pip and setuptools, to install the package as its users do.
    static let hasPip = hasPython && (try? run(python, ["-c", "import setuptools, pip"]))?.status == 0
    /// venv with ensurepip (Debian's python3-venv), for a virtual environment as users make one.
    static let hasVenv = hasPip && (try? run(python, ["-c", "import ensurepip, venv"]))?.status == 0
    /// mypy, run as .ci/run installs it (python3 -m pip install mypy): by the PATH's python3.
    static let hasMypy = (try? run("/usr/bin/env", ["python3", "-m", "mypy", "--version"]))?.status == 0

    /// A virtual environment with the package pip-installed from a copy of the checkout; its folder.
    /// It sees the system's packages for setuptools, the build backend, as pip would otherwise fetch it.
    static let venv: Result<String, InstalledLibsegue.SetupFailure> = {
        let scratch = makeTemporaryFolder("python-venv")
        do {
            try FileManager.default.copyItem(atPath: package, toPath: scratch + "/python")
            let made = try run(python, ["-m", "venv", "--system-site-packages", scratch + "/venv"], environment: ["PATH": "/usr/bin:/bin"])
            guard made.status == 0 else { return .failure(.init(message: "python3 -m venv: \(made.err)")) }
            let installed = try run(scratch + "/venv/bin/python", ["-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation",
                                                                   "--no-deps", scratch + "/python"],
                                    environment: ["PATH": "/usr/bin:/bin", "PIP_NO_INPUT": "1"])
            guard installed.status == 0 else { return .failure(.init(message: "pip install: \(installed.err)")) }
        } catch {
            return .failure(.init(message: "\(error)"))
        }
        return .success(scratch + "/venv")
    }()

    /// Runs `script` with the virtual environment's python, `home` as HOME, and neither
    /// SEGUE_LIBRARY (unless given) nor a library path: libsegue as the package finds it alone.
    static func inVenv(_ script: String, home: String, segueLibrary: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let venv = try venv.get()
        var environment = ["HOME": home, "PATH": "/usr/bin:/bin"]
        environment["SEGUE_LIBRARY"] = segueLibrary
        return try run(venv + "/bin/python", ["-c", script], environment: environment,
                       unsetting: ["LD_LIBRARY_PATH", "PYTHONPATH"] + (segueLibrary == nil ? ["SEGUE_LIBRARY"] : []))
    }

    /// Python for a script that has imported segue: `answered(t, at)` samples `t` at `at` until the
    /// plugin's answer comes, not states held from before (SEGUE_LATE, a busy machine's), within 10 s.
    static let answered = """
        import time
        def answered(t, at):
            deadline = time.monotonic() + 10
            layers = t.sample(at)
            while t.status is segue.LATE and time.monotonic() < deadline:
                time.sleep(0.001)
                layers = t.sample(at)
            return layers
        """

    /// Runs `script` with the package importable and libsegue installed; its standard output.
    static func python(_ script: String, path: String = package) throws -> String {
        let prefix = try InstalledLibsegue.prefix.get()
        let ran = try run(python, ["-c", script], environment: ["PYTHONPATH": path, "SEGUE_LIBRARY": prefix + "/lib/libsegue.so.1",
                                                                "PATH": "/usr/bin:/bin"])
        try #require(ran.status == 0, "\(ran.err)")
        return ran.out
    }

    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func itsStructsAreLaidOutAsTheCCompilerLaysThemOut() throws {
        let out = try Self.python("import json, segue._abi as a; print(json.dumps(a.layouts()))")
        let layouts = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: [String: Any]])
        #expect(layouts.count == 18, "every struct of the header the package declares: \(layouts.keys.sorted())")
        // The same figures from the C compiler, for every struct and member ctypes declares.
        var lines = ["#include <segue/embed.h>", "#include <stddef.h>", "#include <stdio.h>", "int main(void) {"]
        for (name, layout) in layouts.sorted(by: { $0.key < $1.key }) {
            lines.append("    printf(\"\(name) size %zu\\n\", sizeof(\(name)));")
            for member in (layout["offsets"] as? [String: Int] ?? [:]).keys.sorted() {
                lines.append("    printf(\"\(name) \(member) %zu\\n\", offsetof(\(name), \(member)));")
            }
        }
        lines += ["    return 0;", "}"]
        let folder = makeTemporaryFolder("python-layouts")
        try lines.joined(separator: "\n").write(toFile: folder + "/layouts.c", atomically: true, encoding: .utf8)
        let built = try run("/usr/bin/env", ["cc", "-std=c11", "-Wall", "-Werror"] + EmbedHeaderTests.include
                            + ["-o", folder + "/layouts", folder + "/layouts.c"])
        try #require(built.status == 0, "\(built.err)")
        let c = try run(folder + "/layouts", []).out
        var python: [String] = []
        for (name, layout) in layouts.sorted(by: { $0.key < $1.key }) {
            python.append("\(name) size \(layout["size"] as? Int ?? -1)")
            for (member, offset) in (layout["offsets"] as? [String: Int] ?? [:]).sorted(by: { $0.key < $1.key }) {
                python.append("\(name) \(member) \(offset)")
            }
        }
        #expect(c == python.joined(separator: "\n") + "\n", "ctypes lays the structs out as C does")
    }

    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func refusalsRaiseSegueErrorWithLibseguesWords() throws {
        let (folder, file) = try CPlugin.fixture("python-errors")
        let out = try Self.python("""
            import segue
            \(Self.answered)
            try:
                segue.Player(config="/nonexistent/segue.json")
            except segue.SegueError as e:
                print("config", e.status, e.message)
            with segue.Player(["\(folder)"], only_given_folders=True, spin=False) as player:
                print("animators", [a.name for a in player.animators], player.animators[0].file)
                print("parameters", [(p.name, p.type, p.min, p.max) for p in player.animators[0].parameters])
                view = segue.View("a", (0, 0, 390, 844))
                try:
                    player.begin(view, segue.View("b", (0, 0, 390, 844)), (0, 0))
                except segue.SegueError as e:
                    print("bounds", e.call, e.message)
                with player.begin(view, segue.View("b"), (390, 844), animator="TestFade", parameters={"level": 0.25}) as t:
                    print("plan", t.plan.animator, t.plan.duration, [str(l.kind) for l in t.plan.layers])
                    t.prefetch(0.25)
                    layers = answered(t, 0.25)
                    print("sample", t.status, [round(l.alpha, 3) for l in layers], layers[1].frame)
                    try:
                        t.prefetch(float("nan"))
                    except segue.SegueError as e:
                        print("prefetch", e.status, e.message)
                window = segue.View("org.kde.kcalc", (100, 80, 700, 475))
                with player.begin(window, None, (1280, 720), animator="TestFade", kind="disappear") as t:
                    layers = t.sample(0.25)
                    print("window", tuple(map(str, player.animators[0].kinds)), [str(l.kind) for l in t.plan.layers], layers[0].frame, layers[1].hidden,
                          t.plan.reason.endswith("played as a switch to a transparent stand-in"))
                try:
                    player.begin(window, None, (1280, 720), kind="close")
                except ValueError as e:
                    print("kind", e)
            """)
        #expect(out.contains("config -3 ") && out.contains("/nonexistent/segue.json"), "\(out)")
        #expect(out.contains("animators ['TestFade', 'default'] \(file)"), "\(out)")
        #expect(out.contains("parameters [('level', 'number', 0.0, 1.0)]"), "\(out)")
        #expect(out.contains("bounds segue_transition_begin segue_transition_begin: desc.bounds is 0.0, 0.0, 0.0 x 0.0: expected a finite width and height above 0"),
                "\(out)")
        #expect(out.contains("plan TestFade 0.5 ['from', 'to']"), "\(out)")
        // TestFade at half its duration: the from view half faded, the to view at half its level of 0.25; a view
        // without a frame takes the container's bounds.
        #expect(out.contains("sample 0 [0.5, 0.25] (0.0, 0.0, 390.0, 844.0)"), "prefetched, with a player that never spins: \(out)")
        #expect(out.contains("prefetch -1 segue_transition_prefetch: t is NaN"), "\(out)")
        // A window closing over nothing given, by an animator built for switches: the window moves from its
        // own frame, the stand-in's layer is hidden, the reason says how it was played.
        #expect(out.contains("window ('switch',) ['from', 'to'] (100.0, 80.0, 700.0, 475.0) True True"), "\(out)")
        #expect(out.contains("kind kind 'close': expected one of switch, appear, disappear"), "\(out)")
    }

    /// Each kind of failure raises its own subclass of SegueError, by its
    /// segue_status_t (InvalidArgument is also a ValueError, as the
    /// package's own checks raised before); the statuses, kinds and levels
    /// are enumerations with the C header's values, and the kinds still
    /// equal, print and serialize as the strings the package returned.
    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func eachFailureRaisesItsOwnClassAndTheEnumsAreTheHeaders() throws {
        let (folder, _) = try CPlugin.fixture("python-classes")
        let out = try Self.python("""
            import json, segue
            \(Self.answered)
            print("classes", [(s.name, segue._error("f", s, "m").__class__.__name__) for s in segue.Status if s < 0],
                  all(issubclass(c, segue.SegueError) for c in segue._ERRORS.values()), type(segue._error("f", -9, "m")).__name__)
            try:
                segue.Player(config="/nonexistent/segue.json")
            except segue.ConfigError as e:
                print("config", e.status is segue.Status.E_CONFIG, e.call)
            with segue.Player(["\(folder)"], only_given_folders=True, spin=False) as player:
                a, b = segue.View("a"), segue.View("b")
                for name, call in [("bounds", lambda: player.begin(a, b, (0, 0))), ("kind", lambda: player.begin(a, b, (9, 9), kind="close")),
                                   ("isolation", lambda: segue.Player(isolation="thread"))]:
                    try:
                        call()
                    except segue.InvalidArgument as e:
                        print(name, isinstance(e, ValueError), e.status is segue.Status.E_INVALID_ARGUMENT, e.call)
                kinds = player.animators[0].kinds
                print("kinds", kinds == ("switch",), kinds[0] is segue.TransitionKind.SWITCH, "switch" in kinds)
                t = player.begin(a, None, (390, 844), animator="TestFade", kind=segue.TransitionKind.DISAPPEAR)
                layers = [l.kind for l in t.plan.layers]
                print("layers", layers == ["from", "to"], layers[0] is segue.LayerKind.FROM, json.dumps(layers), f"{layers[1]}",
                      {"to": 1}[layers[1]])
                answered(t, 9)
                print("status", repr(t.status), t.status == 3, t.status is segue.CLAMPED)
                t.finish()
                try:
                    t.sample(0.1)
                except segue.Ended as e:
                    print("ended", e.call, e.status is segue.Status.E_ENDED)
                t.close()
            try:
                player.dispatch()
            except segue.Ended as e:
                print("closed", e.call, e.message)
            values = {"SEGUE_" + s.name: int(s) for s in segue.Status}
            values.update({"SEGUE_LOG_" + l.name: int(l) for l in segue.LogLevel})
            values.update({"SEGUE_EVENT_" + k.name: v for v, k in segue._EVENT_KINDS.items()})
            values.update({"SEGUE_TRANSITION_" + k.name: v for k, v in segue._TRANSITION_KINDS.items()})
            values.update({"SEGUE_LAYER_" + k.name.replace("SNAPSHOT", "ELEMENT_SNAPSHOT") + ("" if "SNAPSHOT" in k.name else "_VIEW"): v
                           for v, k in segue._LAYER_KINDS.items()})
            print(json.dumps(values))
            """)
        #expect(out.contains("classes [('E_INVALID_ARGUMENT', 'InvalidArgument'), ('E_NOT_FOUND', 'NotFound'), ('E_CONFIG', 'ConfigError'), ('E_WRONG_THREAD', 'WrongThread'), ('E_ENDED', 'Ended'), ('E_BUFFER_TOO_SMALL', 'BufferTooSmall'), ('E_SYSTEM', 'SystemFailure')] True SegueError\n"),
                "\(out)")
        #expect(out.contains("config True segue_player_new\n"), "\(out)")
        #expect(out.contains("bounds True True segue_transition_begin\n") && out.contains("kind True True begin\n")
                && out.contains("isolation True True Player\n"), "\(out)")
        #expect(out.contains("kinds True True True\n"), "\(out)")
        #expect(out.contains("layers True True [\"from\", \"to\"] to 1\n"), "\(out)")
        #expect(out.contains("status <Status.CLAMPED: 3> True True\n"), "\(out)")
        #expect(out.contains("ended segue_transition_sample True\n"), "\(out)")
        #expect(out.contains("closed segue_player the player is closed\n"), "\(out)")
        // The same names' values from the C compiler.
        let python = try #require(try JSONSerialization.jsonObject(with: Data((out.split(separator: "\n").last ?? "").utf8)) as? [String: Int],
                                  "\(out)")
        #expect(python.count == 26, "\(python.keys.sorted())")
        var lines = ["#include <segue/embed.h>", "#include <stdio.h>", "int main(void) {"]
        lines += python.keys.sorted().map { "    printf(\"\($0) %d\\n\", (int)\($0));" }
        lines += ["    return 0;", "}"]
        let scratch = makeTemporaryFolder("python-enums")
        try lines.joined(separator: "\n").write(toFile: scratch + "/enums.c", atomically: true, encoding: .utf8)
        let built = try run("/usr/bin/env", ["cc", "-std=c11", "-Wall", "-Werror"] + EmbedHeaderTests.include
                            + ["-o", scratch + "/enums", scratch + "/enums.c"])
        try #require(built.status == 0, "\(built.err)")
        #expect(try run(scratch + "/enums", []).out == python.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)\n" }.joined(),
                "the enumerations' values are the header's")
    }

    /// The package samples through libsegue's sampler: `layers(t)` hands
    /// the layers back to front with where each rests, whether to draw it
    /// and a flat layer's map; `sample(t)` gives the same states in the
    /// plan's order, and still says DEFAULT_TOOK_OVER once when a plugin
    /// fails mid-transition (the sampler having read the default's plan).
    /// `finish` returns the report; the page's shading and the edge pan's
    /// rule are libsegue's own.
    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func layersComeFromLibseguesSamplerAndFinishReports() throws {
        let (crash, _) = try CPlugin.fixture("python-crash", "FAULT_CRASH_EVALUATE")
        let out = try Self.python("""
            import select, segue
            \(Self.answered)
            a, b = segue.View("a"), segue.View("b")
            with segue.Player(["\(Paths.binFolder)", "\(crash)"], only_given_folders=True) as player:
                with player.begin(a, b, (390, 844), animator="CurlUp", parameters={"rows": 8}) as t:
                    states = answered(t, 0.2)
                    layers = t.layers(0.2)
                    print("order", [l.state.z for l in layers] == sorted(l.state.z for l in layers),
                          [l.state for l in sorted(layers, key=lambda l: l.plan_index)] == states,
                          [l.request == t.plan.layers[l.plan_index] for l in layers])
                    page = next(l for l in layers if l.has_mesh)
                    light = segue.mesh_light(page)
                    print("page", len(page.state.mesh) == (page.request.mesh_columns + 1) * (page.request.mesh_rows + 1),
                          len(light) == len(page.state.mesh), 0.3 - 1e-6 <= min(light) < 0.999, max(light) <= 1 + 1e-6,
                          len(segue.mesh_light(page, back=True)) == len(light), page.resting_frame, page.visible)
                    flat = [l for l in t.layers(0) if not l.has_mesh]
                    print("flat", [(l.resting_frame, [round(m, 9) for m in l.map], l.visible) for l in flat])
                    report = t.finish()
                print("report", report, t.report is report)
                events = []
                with player.begin(a, b, (390, 844), animator="TestFade") as t:
                    statuses = [t.sample(0.1) and int(t.status)]
                    # The fixture crashes past a quarter of its time: the takeover is seen by a sample after the
                    # one that asked (held states until then), once libsegue has queued its event; 10 s at most.
                    deadline, t_ = time.monotonic() + 10, 0.3
                    while 2 not in statuses and time.monotonic() < deadline:
                        t.sample(t_)
                        statuses.append(int(t.status))
                        if 2 in statuses:
                            break
                        select.select([player], [], [], 0.1)
                        events += player.dispatch()
                        t_ = min(t_ + 0.05, 0.45)
                    drawn = t.layers(0.45)
                    print("takeover", statuses.count(2), statuses[-1], t.plan.animator, t.plan.fell_back,
                          [str(l.request.kind) for l in drawn], int(t.status))
                    report = t.finish(False)
                    print("cancelled", report.animator, report.fell_back, report.completed, "default" in report.reason)
                events += player.dispatch()
                print("events", sorted({(str(e.kind), type(e.level).__name__) for e in events}))
            print("back", [round(c, 5) for c in segue.page_back((1, 1, 1, 0.5))], [round(c, 5) for c in segue.page_back([0, 0, 0, 1])])
            try:
                segue.page_back((1, 1, 1))
            except segue.InvalidArgument as e:
                print("rgba", e.message)
            glsl = segue.page_shading_glsl()
            print("glsl", "vec4 segue_page_back(vec4 c)" in glsl, "vec4 segue_page_lit(vec4 c, float shade)" in glsl)
            print("pan", [segue.edge_pan_finishes(*p) for p in [(234, 0, 390), (156, 0, 390), (40, 800, 390), (350, -800, 390),
                                                                 (300, 0, 0)]])
            """)
        #expect(out.contains("order True True [True, True]\n"), "\(out)")
        #expect(out.contains("page True True True True True (0.0, 0.0, 390.0, 844.0) True\n"), "\(out)")
        #expect(out.contains("flat [((0.0, 0.0, 390.0, 844.0), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], True)]"), "\(out)")
        #expect(out.contains("report Report(animator='CurlUp', fell_back=False, completed=True, reason="), "\(out)")
        #expect(out.contains(" True\ntakeover 1 2 default True ['from', 'to'] 0\n"), "\(out)")
        #expect(out.contains("cancelled default True False True\n"), "\(out)")
        #expect(out.contains("('fell-back', 'LogLevel')"), "\(out)")
        // White's back: 35% of it and 65% of the grey for the brightest, 0.97; black's: 65% of 0.72.
        #expect(out.contains("back [0.9805, 0.9805, 0.9805, 0.5] [0.468, 0.468, 0.468, 1.0]\n"), "\(out)")
        #expect(out.contains("rgba segue_page_back: rgba has 3 values: expected 4 (red, green, blue, alpha)\n"), "\(out)")
        #expect(out.contains("glsl True True\n"), "\(out)")
        #expect(out.contains("pan [True, False, True, False, False]\n"), "\(out)")
    }

    /// The package ships py.typed (PEP 561), and `mypy --strict` finds
    /// nothing in it, nor in docs/embedding.md's Python examples as a
    /// program using it would hold them.
    @Test(.enabled(if: hasMypy, "skipped: needs mypy (python3 -m pip install mypy; .ci/run does)"))
    func mypyStrictPassesOnThePackageAndTheDocsExamples() throws {
        #expect(FileManager.default.fileExists(atPath: Self.package + "/segue/py.typed"), "the package says it is typed")
        let docs = try String(contentsOfFile: Paths.packageRoot + "/docs/embedding.md", encoding: .utf8)
        let examples = docs.components(separatedBy: "```python\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        #expect(examples.count >= 2, "the Python section's examples")
        let folder = makeTemporaryFolder("python-mypy")
        var files: [String] = []
        for (i, example) in examples.enumerated() {
            files.append(folder + "/example\(i).py")
            try (example + "\n").write(toFile: files[i], atomically: true, encoding: .utf8)
        }
        let checked = try run("/usr/bin/env", ["python3", "-m", "mypy", "--strict", "--cache-dir", folder + "/cache", Self.package + "/segue"] + files,
                              in: folder, environment: ["MYPYPATH": Self.package])
        #expect(checked.status == 0 && checked.out.hasPrefix("Success: no issues found in \(files.count + 2) source files"),
                "\(checked.out)\(checked.err)")
    }

    /// A libsegue of another major, or older than the 1.4 whose sampler and
    /// helpers the package uses, is refused at load: LibraryError names
    /// the version found and the one needed.
    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func aLibsegueOfAnotherVersionIsRefusedNamingBoth() throws {
        let folder = makeTemporaryFolder("python-versions")
        for (name, version) in [("two", "2u << 16"), ("old", "1u << 16 | 3u")] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
            try "#include <stdint.h>\nuint32_t segue_api_version(void) { return \(version); }\n"
                .write(toFile: folder + "/\(name).c", atomically: true, encoding: .utf8)
            let built = try run("/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", folder + "/\(name)/libsegue.so.1", folder + "/\(name).c"])
            try #require(built.status == 0, "\(built.err)")
        }
        let out = try Self.python("""
            import segue
            for name in ("two", "old"):
                try:
                    segue.library("\(folder)/" + name + "/libsegue.so.1")
                    print(name, "loaded")
                except segue.LibraryError as e:
                    print(name, e.status is segue.Status.E_NOT_FOUND, e.message.splitlines()[1])
            """)
        #expect(out.contains("two True   \(folder)/two/libsegue.so.1: \(folder)/two/libsegue.so.1 is libsegue 2.0; this package needs libsegue 1.4 or a later 1.x (the sampler and the host helpers came in 1.4)\n"),
                "\(out)")
        #expect(out.contains("old True   \(folder)/old/libsegue.so.1: \(folder)/old/libsegue.so.1 is libsegue 1.3; this package needs libsegue 1.4"), "\(out)")
    }

    /// An animator's parameters read as `segue list --json` and `segue inspect --json` write
    /// them: `default` as a config writes it (a curve's and a choice's by name), `min` and `max`
    /// for numbers only; a curve's choices are the named curves (with the built-in default's
    /// own "spring" first). The old `minimum` and `maximum` still answer, with a warning.
    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func parametersReadAsTheToolsJSONWritesThem() throws {
        let examples = makeTemporaryFolder("python-examples")
        _ = try CPlugin.build(Paths.packageRoot + "/Examples/c-animator/curve_slide.c", name: "CurveSlide", into: examples)
        let out = try Self.python("""
            import json, warnings, segue
            with segue.Player(["\(Paths.binFolder)", "\(examples)"], only_given_folders=True) as player:
                animators = player.animators
            print(json.dumps({a.name: [{"name": p.name, "type": p.type, "default": p.default, "min": p.min, "max": p.max,
                                        "choices": list(p.choices)} for p in a.parameters] for a in animators}))
            duration = animators[0].parameters[0]
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                print("aliases", duration.minimum == duration.min, duration.maximum == duration.max,
                      [(w.category.__name__, str(w.message)) for w in caught])
            """)
        let lines = out.split(separator: "\n").map(String.init)
        let python = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: [[String: Any]]], "\(out)")
        let listed = try runSegue(["list", "--json", "--plugins", Paths.binFolder, "--plugins", examples])
        let inspected = try runSegue(["inspect", "default", "--json"])
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])
        let builtin = try #require(try JSONSerialization.jsonObject(with: Data(inspected.out.utf8)) as? [String: Any])
        let animators = try #require(tool["animators"] as? [[String: Any]]) + [try #require(builtin["animator"] as? [String: Any])]
        #expect(Set(python.keys) == Set(animators.compactMap { $0["name"] as? String }) && python.keys.contains("CurveSlide"), "\(python.keys)")
        let curves = ["linear", "easeIn", "easeOut", "easeInOut", "default"]
        var sawCurve = false, sawChoice = false
        for animator in animators {
            let name = animator["name"] as? String ?? ""
            for (theirs, ours) in zip(animator["parameters"] as? [[String: Any]] ?? [], python[name] ?? []) {
                var expected = theirs
                expected["explanation"] = nil
                expected["min"] = theirs["min"] ?? NSNull()
                expected["max"] = theirs["max"] ?? NSNull()
                switch theirs["type"] as? String {
                case "curve": expected["choices"] = (theirs["default"] as? String == "spring" ? ["spring"] : []) + curves; sawCurve = true
                case "choice": sawChoice = true
                default: expected["choices"] = [String]()
                }
                #expect(NSDictionary(dictionary: ours).isEqual(to: expected), "\(name): Python \(ours), the tool \(expected)")
            }
            #expect((animator["parameters"] as? [Any])?.count == python[name]?.count, "\(name)'s parameters")
        }
        #expect(sawCurve && sawChoice, "curves and choices were compared")
        #expect(python["default"]?.last?["default"] as? String == "spring", "the built-in default follows its spring: \(python["default"] ?? [])")
        #expect(out.contains("aliases True True [('DeprecationWarning', 'Parameter.minimum is deprecated: use Parameter.min (the name segue list --json uses)'), ('DeprecationWarning', 'Parameter.maximum is deprecated: use Parameter.max (the name segue list --json uses)')]"),
                "\(out)")
    }

    /// segue_player_free finishes and frees every transition the player
    /// still has: a Transition whose player is closed answers SegueError,
    /// and closing it (or leaving its `with`) does nothing, where freeing
    /// it again would be a use after free.
    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func aTransitionWhosePlayerIsClosedRaisesAndClosesQuietly() throws {
        let (folder, _) = try CPlugin.fixture("python-orphans")
        let out = try Self.python("""
            import segue
            player = segue.Player(["\(folder)"], only_given_folders=True, spin=False)
            a, b = segue.View("a"), segue.View("b")
            running = player.begin(a, b, (390, 844), animator="TestFade")
            finished = player.begin(a, b, (390, 844))
            finished.finish()
            player.close()
            for name, call in [("sample", lambda: running.sample(0.1)), ("prefetch", lambda: running.prefetch(0.1)),
                               ("plan", lambda: running.plan), ("finish", lambda: running.finish())]:
                try:
                    call()
                    print(name, "answered")
                except segue.SegueError as e:
                    print(name, e.status, e.message)
            running.close()
            finished.close()
            running.close()
            print("closed")
            player = segue.Player(["\(folder)"], only_given_folders=True, spin=False)
            with player.begin(a, b, (390, 844), animator="TestFade") as t:
                t.sample(0.1)
                player.close()
            print("left with")
            """)
        for call in ["sample", "prefetch", "finish"] {
            #expect(out.contains("\(call) -5 segue_transition_\(call): the transition's player was closed, which finished and freed it"), "\(out)")
        }
        #expect(out.contains("plan -5 segue_transition_plan: the transition's player was closed, which finished and freed it"), "\(out)")
        #expect(out.contains("closed\nleft with\n"), "closing a transition the player freed does nothing: \(out)")
    }

    /// Closing a player while another thread samples one of its
    /// transitions: the sample in flight ends first, later ones raise
    /// Ended; never a crash (a new user's trial crashed every time).
    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func closingAPlayerWhileAnotherThreadSamplesRaisesThere() throws {
        let (folder, _) = try CPlugin.fixture("python-race")
        let out = try Self.python("""
            import segue, threading
            ended = 0
            for round in range(20):
                player = segue.Player(["\(folder)"], only_given_folders=True, spin=False)
                transition = player.begin(segue.View("a"), segue.View("b"), (390, 844), animator="TestFade")
                sampling = threading.Event()
                def sample():
                    global ended
                    t = 0.0
                    while True:
                        try:
                            transition.sample(t % 0.5)
                        except segue.Ended:
                            ended += 1
                            return
                        sampling.set()
                        t += 0.001
                thread = threading.Thread(target=sample)
                thread.start()
                assert sampling.wait(10)
                player.close()
                thread.join(10)
                assert not thread.is_alive()
            print("ended", ended)
            """)
        #expect(out == "ended 20\n", "\(out)")
    }

    @Test(.enabled(if: hasPython, "skipped: needs python3 (apt-get install python3; .ci/run does)"))
    func installShPutsItBesideLibsegueWhichItFindsAlone() throws {
        let prefix = try InstalledLibsegue.prefix.get()
        let ran = try run(Self.python, ["-c", "import segue; print(segue.api_version(), segue.library()._name)"],
                          environment: ["PYTHONPATH": prefix + "/lib/segue/python", "PATH": "/usr/bin:/bin"], unsetting: ["SEGUE_LIBRARY"])
        #expect(ran.status == 0 && ran.out.contains("(1, 5)") && ran.out.hasSuffix(" " + prefix + "/lib/libsegue.so.1\n"), "\(ran.out)\(ran.err)")
        #expect(FileManager.default.fileExists(atPath: prefix + "/lib/segue/python/segue/py.typed"), "the package's types are installed with it")
    }

    /// A package pip installed in a virtual environment, or on PYTHONPATH, finds the libsegue
    /// Scripts/install.sh put in its default prefix, ~/.local, after the system's loader found none.
    @Test(.enabled(if: hasVenv, "skipped: needs python3-venv (apt-get install python3-venv; .ci/run does)"))
    func fromAVirtualEnvironmentItFindsLibsegueInTheStandardPrefix() throws {
        let venv = try Self.venv.get()
        let home = makeTemporaryFolder("python-home")
        try FileManager.default.createSymbolicLink(atPath: home + "/.local", withDestinationPath: try InstalledLibsegue.prefix.get())
        let script = """
            import segue
            print("package", segue.__file__)
            print("library", segue.library()._name)
            with segue.Player(only_given_folders=True) as player:
                with player.begin(segue.View("a"), segue.View("b"), (390, 844)) as t:
                    print("played", t.plan.animator, len(t.sample(0.5)))
            """
        let ran = try Self.inVenv(script, home: home)
        #expect(ran.status == 0, "\(ran.err)")
        #expect(ran.out.contains("package \(venv)/lib/"), "the package pip installed: \(ran.out)")
        #expect(ran.out.contains("library \(home)/.local/lib/libsegue.so.1\n") && ran.out.contains("played default 2\n"), "\(ran.out)")
        let fromPath = try run(Self.python, ["-c", script], environment: ["HOME": home, "PYTHONPATH": Self.package, "PATH": "/usr/bin:/bin"],
                               unsetting: ["SEGUE_LIBRARY", "LD_LIBRARY_PATH"])
        #expect(fromPath.status == 0 && fromPath.out.contains("library \(home)/.local/lib/libsegue.so.1\n"), "\(fromPath.out)\(fromPath.err)")
    }

    /// Where no libsegue is, the package raises LibraryError (a SegueError) listing where it
    /// looked, in order, and naming SEGUE_LIBRARY; a SEGUE_LIBRARY that does not load is
    /// reported as such, not passed over for another libsegue.
    @Test(.enabled(if: hasVenv, "skipped: needs python3-venv (apt-get install python3-venv; .ci/run does)"))
    func withoutLibsegueItSaysWhereItLookedAndHowToNameIt() throws {
        let script = """
            import segue
            try:
                segue.Player()
            except segue.LibraryError as e:
                print("raised", isinstance(e, segue.SegueError), e.call, e.status)
                print(e.message)
            """
        let home = makeTemporaryFolder("python-bare-home")
        let ran = try Self.inVenv(script, home: home)
        #expect(ran.status == 0, "importing the package needs no libsegue: \(ran.err)")
        #expect(ran.out.hasPrefix("raised True dlopen -2\nlibsegue.so.1 could not be loaded. Looked, in order, at:\n"), "\(ran.out)")
        let places = ["  SEGUE_LIBRARY: not set\n", "/libsegue.so.1 (beside the package, as Scripts/install.sh lays it out): no such file\n",
                      "  libsegue.so.1 (the system's loader: LD_LIBRARY_PATH, ldconfig's cache, /lib, /usr/lib): ",
                      "  \(home)/.local/lib/libsegue.so.1: no such file\n", "  /usr/local/lib/libsegue.so.1: "]
        let found = places.map { ran.out.range(of: $0)?.lowerBound }
        #expect(found.allSatisfy { $0 != nil } && found.map { $0! } == found.map { $0! }.sorted(), "each place, in order: \(ran.out)")
        #expect(ran.out.hasSuffix("Install it with Scripts/install.sh, or set SEGUE_LIBRARY=/path/to/libsegue.so.1.\n"), "\(ran.out)")

        let withLibsegue = makeTemporaryFolder("python-home")
        try FileManager.default.createSymbolicLink(atPath: withLibsegue + "/.local", withDestinationPath: try InstalledLibsegue.prefix.get())
        let named = try Self.inVenv(script, home: withLibsegue, segueLibrary: withLibsegue + "/libsegue.so.1")
        #expect(named.out.contains("raised True dlopen -2\n") && named.out.contains("  SEGUE_LIBRARY=\(withLibsegue)/libsegue.so.1: ")
                && !named.out.contains(".local"), "the library SEGUE_LIBRARY names, and no other: \(named.out)\(named.err)")
    }

    @Test(.enabled(if: hasPip, "skipped: needs pip and setuptools for python3 (apt-get install python3-pip python3-setuptools; .ci/run does)"))
    func pipInstallsItFromTheCheckout() throws {
        // A copy: pip builds in the folder it is given, and the checkout stays as it is.
        let scratch = makeTemporaryFolder("python-pip")
        try FileManager.default.copyItem(atPath: Self.package, toPath: scratch + "/python")
        let before = Set(filesUnder(scratch + "/python"))
        let target = scratch + "/installed"
        let installed = try run(Self.python, ["-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps", "--target", target,
                                              scratch + "/python"], environment: ["PATH": "/usr/bin:/bin", "PIP_NO_INPUT": "1"])
        #expect(installed.status == 0, "\(installed.err)")
        // What pip leaves in the folder (build/, segue.egg-info/), were it the checkout's, git ignores.
        let left = filesUnder(scratch + "/python").filter { !before.contains($0) }
        #expect(!left.isEmpty, "pip builds in the folder it is given")
        #expect(try notIgnoredByGit(left.map { "Integrations/python/" + $0 }) == [], "git status would show them")
        let out = try Self.python("import segue; print(segue.__file__); print(segue.api_version())", path: target)
        #expect(out.hasPrefix(target + "/segue/__init__.py") && out.contains("(1, 5)"), "\(out)")
        #expect(FileManager.default.fileExists(atPath: target + "/segue/py.typed"), "pip installs py.typed (PEP 561) with the package")
    }
}
