import Foundation
@testable import PluginHost
import TestSupport
import Testing

@testable import HostContainer

/// The examples in other languages, each built with its own build file from
/// the header alone, proven as a user would find them: the animator loads,
/// plays in a worker inside the sandbox (reported as the plugin's), passes
/// `segue validate --strictness 10` with no warning, its preview moves, and
/// `make install` puts it where `segue` looks.
struct ExampleAnimatorTests {
    /// Builds `example` with `make` (and `arguments`) into a folder of its own; returns the folder.
    static func build(_ example: String, _ arguments: [String] = []) throws -> String {
        let out = makeTemporaryFolder(example)
        let result = try run("/usr/bin/make", ["-C", Paths.packageRoot + "/Examples/" + example, "OUT=\(out)"] + arguments, in: out,
                             environment: ["CARGO_TARGET_DIR": out + "/target"], timeout: 600)
        try #require(result.status == 0, "\(result.out)\(result.err)")
        return out
    }

    /// Everything a user does with an animator, checked.
    static func prove(_ name: String, in folder: String, parameters: [String], setting: String) throws {
        let listed = try run(Paths.segue, ["list", "--names", "--plugins", folder], environment: ["SEGUE_PLUGIN_SYSTEM_PATH": ""])
        #expect(listed.status == 0 && listed.out == name + "\n", "segue list: \(listed.out)\(listed.err)")
        #expect(AnimatorRegistry(folders: [folder]).animator(named: name)?.parameters.map(\.name) == parameters)

        // Played as every plugin is: in a worker, inside the sandbox.
        let config = folder + "/segue.json"
        try """
        {"plugins": ["\(folder)"], "isolation": "process", "sandbox": "strict",
         "rules": [{"to": "video", "animator": "\(name)", "parameters": {\(setting)}}], "script": ["video"]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let played = try run(Paths.segue, ["run", "--json", "--config", config])
        #expect(played.status == 0, "\(played.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(played.out.utf8)) as? [String: Any])
        #expect(report["animator"] as? String == name && report["source"] as? String == "plugin", "\(report)")
        #expect(report["completed"] as? Bool == true && report["fellBack"] as? Bool == false, "\(report)")

        let validated = try run(Paths.segue, ["validate", folder + "/lib\(name).so", "--strictness", "10"])
        #expect(validated.status == 0 && validated.out.hasSuffix("0 failed, 0 warning(s)\n"), "\(validated.out)")

        // A filmstrip of three stills: the middle one differs from both ends.
        let strip = folder + "/preview.png"
        let previewed = try run(Paths.segue, ["preview", name, "--plugins", folder, "--frames", "3", "--scale", "0.25", "--out", strip])
        #expect(previewed.status == 0, "\(previewed.err)")
        let png = try decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: strip))))
        let (width, gap) = (Int((390 * 0.25).rounded()), 4)
        func still(_ k: Int) -> [UInt8] {
            var pixels: [UInt8] = []
            let left = gap + k * (width + gap)
            for y in gap..<(gap + 200) {
                let start = (y * png.width + left) * 4
                pixels += png.rgba[start..<(start + width * 4)]
            }
            return pixels
        }
        #expect(still(1) != still(0) && still(1) != still(2), "the middle still is mid-transition")
    }

    /// `make install` puts the animator in the user's plugin folder: run after `make`, as a user runs
    /// them, with the build in `folder` (the plugin is not built again).
    static func proveInstall(_ example: String, builtIn folder: String, name: String) throws {
        try proveInstall(["-C", Paths.packageRoot + "/Examples/" + example, "OUT=\(folder)"], in: folder, name: name)
    }

    /// `make ARGUMENTS install`, run in `folder`, puts the animator `name` in the user's plugin folder.
    static func proveInstall(_ makeArguments: [String], in folder: String, name: String) throws {
        let data = makeTemporaryFolder("segue-data")
        let installed = try run("/usr/bin/make", makeArguments + ["install"], in: folder,
                                environment: ["XDG_DATA_HOME": data, "CARGO_TARGET_DIR": folder + "/target"], timeout: 600)
        #expect(installed.status == 0, "\(installed.err)")
        let user = PluginSearchPath.standard(executable: "/nowhere/bin/segue", environment: ["XDG_DATA_HOME": data])
        #expect(AnimatorRegistry(searchPath: user).animators.map(\.name) == [name])
    }

    @Test(.enabled(if: Toolchain.canBuildCPlusPlus, "skipped: the C++ example needs c++ and make (apt-get install g++ make; .ci/run does)"))
    func theCPlusPlusExampleIsAWorkingAnimator() throws {
        let folder = try Self.build("cpp-animator")
        try Self.prove("CardFlip", in: folder, parameters: ["duration", "perspective", "axis"], setting: #""axis": "horizontal""#)
        try Self.proveInstall("cpp-animator", builtIn: folder, name: "CardFlip")
    }

    @Test(.enabled(if: Toolchain.canBuildZig, "skipped: the Zig example needs Zig 0.14 (pip install ziglang==0.14.1; .ci/run does) and make"))
    func theZigExampleIsAWorkingAnimator() throws {
        let folder = try Self.build("zig-animator")
        try Self.prove("SlideUp", in: folder, parameters: ["duration", "fade"], setting: #""fade": 0.8"#)
        try Self.proveInstall("zig-animator", builtIn: folder, name: "SlideUp")
    }

    /// Why bindgen cannot be used, or nil: it is run once, because Debian's
    /// bindgen can be installed without libclang and then panics on first use.
    static let bindgenProblem: String? = {
        guard Toolchain.found("bindgen") else { return "no bindgen" }
        let probe = makeTemporaryFolder("bindgen-probe") + "/probe.h"
        guard (try? "int probe;\n".write(toFile: probe, atomically: true, encoding: .utf8)) != nil,
              let ran = try? run("/usr/bin/env", ["bindgen", probe], timeout: 60) else { return "bindgen could not be run" }
        guard ran.status == 0 else {
            let first = ran.err.split(separator: "\n").first { !$0.isEmpty }.map(String.init) ?? "status \(ran.status)"
            return "bindgen is installed but does not work (\(first))"
        }
        return nil
    }()

    /// The committed bindings are what bindgen makes of the header today: a
    /// change to the header that the Rust example has not caught up with fails here.
    @Test(.enabled(if: bindgenProblem == nil, "skipped: \(bindgenProblem ?? ""): apt-get install bindgen libclang1-14; .ci/run does"))
    func theRustBindingsAreTheHeadersCurrentTranslation() throws {
        let fresh = makeTemporaryFolder("bindings") + "/bindings.rs"
        let made = try run("/bin/sh", [Paths.packageRoot + "/Examples/rust-animator/regenerate-bindings.sh"], environment: ["BINDINGS": fresh])
        try #require(made.status == 0, "\(made.err)")
        let committed = try String(contentsOfFile: Paths.packageRoot + "/Examples/rust-animator/src/bindings.rs", encoding: .utf8)
        #expect(try String(contentsOfFile: fresh, encoding: .utf8) == committed,
                "Examples/rust-animator/src/bindings.rs is stale: run Examples/rust-animator/regenerate-bindings.sh")
    }

    @Test(.enabled(if: Toolchain.canBuildRust, "skipped: the Rust example needs cargo and make"))
    func theRustExampleIsAWorkingAnimator() throws {
        let folder = try Self.build("rust-animator")
        // bindgen's layout tests: every struct of the bindings as C lays it out.
        let tests = try run("/usr/bin/make", ["-C", Paths.packageRoot + "/Examples/rust-animator", "test"], in: folder,
                            environment: ["CARGO_TARGET_DIR": folder + "/target"], timeout: 600)
        #expect(tests.status == 0 && tests.out.contains("bindgen_test_layout_segue_plan ... ok") && tests.out.contains("test result: ok."), "\(tests.out)\(tests.err)")
        try Self.prove("ZoomFade", in: folder, parameters: ["duration", "depth"], setting: #""depth": 0.3"#)
        try Self.proveInstall("rust-animator", builtIn: folder, name: "ZoomFade")
    }
}
