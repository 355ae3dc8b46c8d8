import Foundation
@testable import PluginHost
import TestSupport
import Testing

@testable import HostContainer

/// The author's guide cannot rot: its C blocks are compiled, its Swift blocks
/// are the template's files (which are built and validated), and its shell
/// blocks are run in order, in a fresh folder outside the project, exactly as
/// a reader would: install the SDK, build with pkg-config, list, validate,
/// select in a config, preview.
struct GuideTests {
    static let guide = Paths.packageRoot + "/docs/writing-an-animator.md"

    /// The fenced code blocks of the guide, in order, with their language.
    func blocks() throws -> [(language: String, text: String)] {
        let lines = try String(contentsOfFile: Self.guide, encoding: .utf8).components(separatedBy: "\n")
        var result: [(String, String)] = [], language: String?, body: [String] = []
        for line in lines {
            if line.hasPrefix("```") {
                if let open = language {
                    result.append((open, body.joined(separator: "\n") + "\n"))
                    language = nil
                } else {
                    language = String(line.dropFirst(3))
                    body = []
                }
            } else if language != nil {
                body.append(line)
            }
        }
        return result
    }

    @Test func everyCBlockCompilesAgainstTheHeaderAlone() throws {
        let c = try blocks().filter { $0.language == "c" }
        #expect(!c.isEmpty)
        let folder = makeTemporaryFolder("guide-c")
        for (i, block) in c.enumerated() {
            let source = folder + "/block\(i).c"
            try block.text.write(toFile: source, atomically: false, encoding: .utf8)
            _ = try CPlugin.build(source, name: "Block\(i)", into: folder)
        }
    }

    @Test func theBuildLineLinksTheMathsLibraryAPluginUses() throws {
        // The SDK's pkg-config file says what to link, and the guide's build line uses it.
        let prefix = makeTemporaryFolder("guide-sdk")
        let install = try run("/bin/bash", [Paths.packageRoot + "/Scripts/install-sdk.sh", prefix])
        #expect(install.status == 0, "\(install.err)")
        let pc = try String(contentsOfFile: prefix + "/lib/pkgconfig/segue-animator.pc", encoding: .utf8)
        #expect(pc.contains("\nLibs: -lm\n"))
        let buildLine = try #require(try blocks().first { $0.language == "sh" && $0.text.hasPrefix("cc ") }?.text)
        #expect(buildLine.contains("-Wl,-z,defs") && buildLine.contains("$(pkg-config --libs segue-animator)"), "\(buildLine)")
        // A plugin that calls sin: refused by -z defs without -lm, built with it.
        let source = prefix + "/wave.c"
        try "#include <math.h>\ndouble wave(double t) { return sin(t); }\n".write(toFile: source, atomically: false, encoding: .utf8)
        let flags = ["cc", "-shared", "-fPIC", "-Wl,-z,defs", "-o", prefix + "/libwave.so", source]
        let without = try run("/usr/bin/env", flags)
        #expect(without.status != 0 && without.err.contains("sin"), "\(without.err)")
        let with = try run("/usr/bin/env", flags + ["-lm"])
        #expect(with.status == 0, "\(with.err)")
    }

    @Test func theSwiftBlocksAreTheTemplateWhichBuildsAndPasses() throws {
        let swift = try blocks().filter { $0.language == "swift" }.map(\.text)
        let template = Paths.packageRoot + "/Examples/swift-animator"
        #expect(swift == [try String(contentsOfFile: template + "/Package.swift", encoding: .utf8),
                          try String(contentsOfFile: template + "/Sources/Crossfade/Crossfade.swift", encoding: .utf8)])
        let scratch = makeTemporaryFolder("swift-template")
        let build = try run("/usr/bin/env", ["swift", "build", "--package-path", template, "--scratch-path", scratch], in: scratch)
        #expect(build.status == 0, "\(build.out)\(build.err)")
        let plugin = scratch + "/debug/libCrossfade.so"
        let validate = try run(Paths.segue, ["validate", plugin], in: scratch)
        #expect(validate.status == 0 && validate.out.contains("passed: 11 checks, 0 failed"), "\(validate.out)")
        let exports = try run("/usr/bin/env", ["nm", "-D", "--defined-only", plugin], in: scratch)
        #expect(exports.out.split(separator: "\n").filter { $0.contains(" T ") }.map { $0.split(separator: " ").last! } == ["segue_animator_entry"])
    }

    /// The acceptance check: the guide, followed to the letter in a fresh home folder.
    @Test func followingTheGuideGivesAWorkingAnimator() throws {
        let home = makeTemporaryFolder("guide-home")
        var script = "set -eu\n"
        for block in try blocks() {
            switch block.language {
            case "sh": script += block.text
            case "c":
                let name = try #require(block.text.split(separator: ":").first?.replacingOccurrences(of: "/* ", with: ""))
                script += "cat > \(name) <<'GUIDE_EOF'\n\(block.text)GUIDE_EOF\n"
            default: continue
            }
        }
        try script.write(toFile: home + "/guide.sh", atomically: false, encoding: .utf8)
        // The guide's user folder is in its own home; pkg-config finds only what the guide installs.
        let guide = try run("/bin/bash", [home + "/guide.sh"], in: home,
                            environment: ["HOME": home, "SEGUE": Paths.packageRoot, "PREFIX": home + "/prefix"],
                            unsetting: ["PKG_CONFIG_PATH", "XDG_DATA_HOME"], timeout: 600)
        let output = guide.out
        #expect(guide.status == 0, "\(output)\n\(guide.err)")
        #expect(FileManager.default.fileExists(atPath: home + "/prefix/lib/pkgconfig/segue-animator.pc"))
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/segue/plugins/libFadeUp.so"),
                "the guide installs the animator in the user's folder, where segue list finds it with no flag")
        #expect(FileManager.default.fileExists(atPath: home + "/prefix/include/segue_animator.h"))
        #expect(output.contains("FadeUp"), "segue list shows it: \(output)")
        #expect(output.contains("passed: 11 checks, 0 failed"), "segue validate passes it: \(output)")
        #expect(output.contains("photo -> video: FadeUp (plugin plugins/libFadeUp.so)"), "the config selects it: \(output)")
        #expect(output.contains("wrote fade-up.png"))
        #expect(FileManager.default.fileExists(atPath: home + "/fade-up/fade-up.png"))
    }

    @Test(.enabled(if: Toolchain.hasMake, "the Makefile needs make"))
    func theCTemplatesMakefileBuildsThePlugin() throws {
        let out = makeTemporaryFolder("c-template")
        let result = try run("/usr/bin/make", ["-C", Paths.packageRoot + "/Examples/c-animator", "OUT=\(out)"], in: out)
        #expect(result.status == 0, "\(result.err)")
        let registry = AnimatorRegistry(folders: [out])
        #expect(registry.animators.map(\.name) == ["CurveSlide"])

        let data = makeTemporaryFolder("segue-data")
        let installed = try run("/usr/bin/make", ["-C", Paths.packageRoot + "/Examples/c-animator", "OUT=\(out)", "install"],
                                in: out, environment: ["XDG_DATA_HOME": data])
        #expect(installed.status == 0, "\(installed.err)")
        let user = PluginSearchPath.standard(executable: "/nowhere/bin/segue", environment: ["XDG_DATA_HOME": data])
        #expect(AnimatorRegistry(searchPath: user).animators.map(\.name) == ["CurveSlide"], "make install puts it in the user's folder")
    }
}
