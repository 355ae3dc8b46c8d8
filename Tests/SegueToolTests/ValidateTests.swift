import Foundation
import Glibc
import TestSupport
import Testing

@testable import HostContainer

/// `segue validate`, run as an author would run it, on real plugin files: the
/// bundled animators and the C example pass; each broken C fixture fails the
/// check it should, with a message saying what was expected and found, and
/// the validator itself always exits normally.
struct ValidateTests {
    struct Outcome {
        var status: Int32
        var passed: Bool
        var checks: [String: (status: String, message: String)]
        var names: [String]
    }

    func validate(_ file: String, _ extra: [String] = []) throws -> Outcome {
        let result = try run(Paths.segue, ["validate", file, "--json"] + extra, in: makeTemporaryFolder())
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.out) \(result.err)")
        let checks = try #require(doc["checks"] as? [[String: String]])
        var byName: [String: (String, String)] = [:]
        for c in checks { byName[c["name"]!] = (c["status"]!, c["message"]!) }
        return Outcome(status: result.status, passed: doc["passed"] as? Bool ?? false, checks: byName, names: checks.map { $0["name"]! })
    }

    @Test(arguments: ["SpringSlide", "CurlUp", "ImageZoom", "Pop"])
    func theBundledAnimatorsPass(name: String) throws {
        let outcome = try validate(Paths.binFolder + "/lib\(name).so", ["--strictness", "6", "--seed", "42"])
        #expect(outcome.status == 0 && outcome.passed)
        #expect(outcome.names.count == 11 && outcome.names.allSatisfy { outcome.checks[$0]?.status == "pass" }, "\(outcome.checks)")
        #expect(outcome.checks["\(name): no memory growth"] != nil && outcome.checks["\(name): time per evaluation"] != nil)
    }

    /// The matrix runs once for each kind an animator was written for: Pop's
    /// two (appearances, disappearances), the fixture's three, CurlUp's one.
    @Test func theMatrixCoversEachKindTheAnimatorDeclares() throws {
        let (_, fixture) = try CPlugin.fixture("validate-kinds", "FIXTURE_KINDS")
        for (file, name, contexts) in [(Paths.plugin("Pop"), "Pop", 96), (fixture, "TestFade", 144), (Paths.plugin("CurlUp"), "CurlUp", 48)] {
            let outcome = try validate(file)
            #expect(outcome.status == 0, "\(name): \(outcome.checks)")
            #expect(outcome.checks["\(name): setup over the context matrix"]?.message.hasPrefix("\(contexts) context(s) animated") == true,
                    "\(name): \(outcome.checks)")
        }
    }

    /// Faults only a window's opening or closing shows, in an animator
    /// written for every kind: out of process (the default) and in process,
    /// the checks play each context as its kind and name all three faults
    /// alike, with the context and the command that reruns it.
    @Test(arguments: [[], ["--in-process"]])
    func faultsInAWindowsTransitionsAreNamedInEitherMode(_ mode: [String]) throws {
        let (_, file) = try CPlugin.fixture("validate-windows", "FIXTURE_KINDS", "FAULT_IN_WINDOWS")
        let outcome = try validate(file, ["--strictness", "2"] + mode)
        #expect(outcome.status == 1)
        let finite = try #require(outcome.checks["TestFade: finite states"])
        #expect(finite.status == "fail" && finite.message.contains("a non-finite alpha for layer 1")
                && finite.message.contains("in context 12 of the matrix (a window's appearance, tiny 24x48"), "\(finite)")
        #expect(finite.message.contains("to run that context alone: segue validate \(file) --strictness 2 --seed 1 --context 12 --in-process"),
                "\(finite)")
        let range = try #require(outcome.checks["TestFade: states in range"])
        #expect(range.status == "warn" && range.message.contains("found alpha 1.25 (expected 0 to 1; the host clamps it) for layer 1")
                && range.message.contains("a window's disappearance"), "\(range)")
        let final = try #require(outcome.checks["TestFade: final state"])
        #expect(final.status == "fail" && final.message.contains("expected the closing window hidden, transparent, shrunk to nothing, clipped to nothing or moved out of the container")
                && final.message.contains("found (3.6, 9.6, 16.8, 24.0) at alpha 1.0, in context 24 of the matrix (a window's disappearance"), "\(final)")
    }

    /// Values are rounded where a report prints them.
    @Test func anAlphaOutOfRangeIsPrintedRounded() throws {
        let (_, file) = try CPlugin.fixture("validate-rounded", "FAULT_ALPHA_OVER", "FAULT_ALPHA_ODD")
        let range = try #require(try validate(file, ["--strictness", "1"]).checks["TestFade: states in range"])
        #expect(range.message.contains("found alpha 1.0548 (expected"), "\(range)")
    }

    /// A slow animator (50 ms an evaluation) is timed, not taken for a hang:
    /// the deadline is for one call, and the time check reports the median.
    @Test func aSlowAnimatorIsTimedNotKilled() throws {
        let (_, file) = try CPlugin.fixture("validate-slow", "FAULT_SLOW_EVALUATE")
        let outcome = try validate(file, ["--strictness", "4", "--context", "12", "--timeout", "1"])
        let time = try #require(outcome.checks["TestFade: time per evaluation"], "\(outcome.names)")
        #expect(time.status == "fail" && time.message.contains("expected at most 1000 µs per evaluation of all layers; found a median of "),
                "\(time)")
        // Only the bound a 50 ms nap guarantees: a busy machine may make each take longer.
        let median = try #require(time.message.firstMatch(of: /found a median of (\d+\.\d) µs/)?.output.1, "\(time)")
        #expect(Double(median)! >= 50_000, "\(time)")
        #expect(!outcome.checks.values.contains { $0.message.contains("did not finish") }, "\(outcome.checks)")
    }

    /// A context past the matrix's end is a mistake, not a pass.
    @Test func aContextOutsideTheMatrixFails() throws {
        let outcome = try validate(Paths.plugin("CurlUp"), ["--strictness", "2", "--context", "200"])
        #expect(outcome.status == 1)
        let setup = try #require(outcome.checks["CurlUp: setup over the context matrix"])
        #expect(setup.status == "fail" && setup.message == "--context 200 is not in CurlUp's matrix: at strictness 2 it has 12 contexts, 0 to 11",
                "\(setup)")
    }

    @Test func theCExamplePasses() throws {
        let folder = makeTemporaryFolder("validate-c")
        let file = try CPlugin.build(Paths.packageRoot + "/Examples/c-animator/curve_slide.c", name: "CurveSlide", into: folder)
        let outcome = try validate(file)
        #expect(outcome.status == 0 && outcome.passed, "\(outcome.checks)")
    }

    /// The iris example (ABI 1.4's clip and anchor) passes every check, the
    /// anchor known in some contexts and its parts NaN in the others.
    @Test func theIrisExamplePasses() throws {
        let folder = makeTemporaryFolder("validate-iris")
        let file = try CPlugin.build(Paths.packageRoot + "/Examples/iris-animator/iris.c", name: "Iris", into: folder)
        let outcome = try validate(file)
        #expect(outcome.status == 0 && outcome.passed, "\(outcome.checks)")
    }

    static let broken: [(fault: String, check: String, message: String)] = [
        ("FAULT_ABI_MAJOR", "entry point and ABI version", "ABI major mismatch: segue_plugin_t was built for ABI 2.0, but this host speaks ABI 1.x"),
        ("FAULT_NULL_NAME", "descriptor", "animators[0].name is NULL"),
        ("FAULT_DEFAULT_OUT_OF_RANGE", "descriptor", "'level' has default 5.0 outside [min, max] = [0.0, 1.0]"),
        ("FAULT_NAN", "TestFade: finite states", "expected finite values; it produced a non-finite alpha for layer 0 at t = "),
        ("FAULT_WRONG_FINAL_FRAME", "TestFade: final state", "expected the to view's corners where its final frame (0.0, 0.0, 24.0, 48.0) puts them, (0, 0) (24, 0) (24, 48) (0, 48), at t = duration; found (10, 0) (34, 0) (34, 48) (10, 48): frame.x 10 (expected 0)"),
        ("FAULT_ALPHA_OVER", "TestFade: states in range", "found alpha 1.25 (expected 0 to 1; the host clamps it) for layer 1 at t = "),
        ("FAULT_CRASH_SETUP", "TestFade: setup over the context matrix", "the plugin crashed with signal 11 (SIGSEGV, a segmentation fault) in setup, context 0 of the matrix (tiny 24x48, going right, a shared element, parameters at default); to run that context alone in one process, for a debugger: segue validate "),
        ("FAULT_HANG_EVALUATE", "TestFade: finite states", "the plugin did not finish within 1 s (an endless loop?) and was killed in evaluate at t = 0."),
        ("FAULT_HANG_ENTRY", "entry point and ABI version", "the plugin did not finish within 1 s (an endless loop?) and was killed while it was loaded"),
        ("FAULT_EXIT_CONSTRUCTOR", "entry point and ABI version", "the plugin exited with status 0 while it was loaded"),
        ("FAULT_LEAK", "TestFade: no memory growth", "expected no heap growth across 2500 evaluations; found"),
        ("FAULT_DECLINE", "TestFade: setup over the context matrix", "declined all 48 contexts, each with a reason"),
        ("FAULT_CLIP_RADIUS", "TestFade: states in range",
         "found clip.radii.top_left 6.0 (expected 0 to 4.0, half the clip's shorter side; the host clamps it) for layer 1 at t = "),
        ("FAULT_READS_UNKNOWN_ANCHOR", "TestFade: finite states",
         "expected it to read context.anchor's rect and point only when has_rect and has_point say they are known; it read one that was not (NaN here), and produced a non-finite frame for layer 1 at t = "),
    ]

    @Test(arguments: broken)
    func aBrokenPluginFailsTheCheckItShould(_ c: (fault: String, check: String, message: String)) throws {
        let (_, file) = try CPlugin.fixture("validate-\(c.fault)", c.fault)
        let outcome = try validate(file, ["--timeout", "1"])
        let check = try #require(outcome.checks[c.check], "\(c.check) in \(outcome.names)")
        #expect(check.message.contains(c.message), "\(check.message)")
        if ["FAULT_DECLINE", "FAULT_ALPHA_OVER", "FAULT_CLIP_RADIUS"].contains(c.fault) {
            // Legal (declining everything) or coped with (the host clamps alpha), but worth a warning.
            #expect(check.status == "warn" && outcome.status == 0)
        } else {
            #expect(check.status == "fail" && outcome.status == 1 && !outcome.passed, "exits 1, normally")
            let failed = outcome.checks.filter { $0.value.status == "fail" }.map(\.key)
            #expect(failed.contains(c.check))
        }
        // Every check of the plan has an outcome, even after a crash or a hang.
        #expect(Set(outcome.names).count == outcome.names.count && outcome.names.count >= 2, "\(outcome.names)")
    }

    @Test func aPerspectiveTermAloneLooksTheSameAndPassesTheFinalState() throws {
        // m34 on a flat layer changes nothing on screen: the check compares the corners seen.
        let (_, file) = try CPlugin.fixture("validate-perspective", "FAULT_PERSPECTIVE_ONLY")
        let outcome = try validate(file, ["--strictness", "2"])
        #expect(outcome.checks["TestFade: final state"]?.status == "pass", "\(outcome.checks)")
    }

    @Test func aCrashNamesTheCommandThatRunsItsContextAloneAndThatCommandDoes() throws {
        let (_, file) = try CPlugin.fixture("validate-rerun", "FAULT_CRASH_SETUP")
        let outcome = try validate(file, ["--strictness", "2", "--seed", "7"])
        let message = try #require(outcome.checks["TestFade: setup over the context matrix"]?.message)
        #expect(message.contains("segue validate \(file) --strictness 2 --seed 7 --context 0 --in-process during this check"), "\(message)")
        let one = try run(Paths.segue, ["validate", Paths.binFolder + "/libCurlUp.so", "--strictness", "2", "--context", "5", "--in-process"])
        #expect(one.status == 0)
        #expect(one.out.contains("PASS  CurlUp: finite states: finite at t = 0, 5 sampled times and t = duration over 1 context(s)"), "\(one.out)")
    }

    @Test func theChildDiesWithTheValidator() throws {
        let (_, file) = try CPlugin.fixture("validate-spin", "FAULT_HANG_EVALUATE")
        let tag = UUID().uuidString
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.segue)
        process.arguments = ["validate", file, "--timeout", "600"]
        process.environment = guardedEnvironment().merging(tagged(tag)) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while processesTagged(tag, within: 0).count < 2 && Date() < deadline { usleep(10_000) }
        usleep(300_000)  // the child is spinning in evaluate by now
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(processesTagged(tag, within: 3).isEmpty, "the validator's child ended with it")
    }

    @Test func theTextOutputNamesEachCheck() throws {
        let result = try run(Paths.segue, ["validate", Paths.binFolder + "/libCurlUp.so", "--strictness", "1"], in: makeTemporaryFolder())
        #expect(result.status == 0)
        #expect(result.out.contains("PASS  entry point and ABI version: "))
        #expect(result.out.contains("PASS  CurlUp: finite states: finite at t = 0, 3 sampled times and t = duration over 4 context(s)"))
        #expect(result.out.hasSuffix("passed: 7 checks, 0 failed, 0 warning(s)\n"))
        #expect(result.out.contains("PASS  loads as segue list loads it: "))
        let missing = try run(Paths.segue, ["validate", "/nonexistent/libX.so"], in: makeTemporaryFolder())
        #expect(missing.status == 1 && missing.out.contains("FAIL  entry point and ABI version: cannot be opened: No such file or directory"))
    }
}
