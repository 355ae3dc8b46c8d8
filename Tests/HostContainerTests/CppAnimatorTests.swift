import Foundation
@testable import PluginHost
import Testing

@testable import HostContainer

/// `Examples/cpp-animator`, an animator written in C++17 against the header
/// as it is, built with its own Makefile: it loads, plays isolated in the
/// sandbox, passes `segue validate` at its strictest with no warning, and its
/// preview moves.
struct CppAnimatorTests {
    static let example = Paths.packageRoot + "/Examples/cpp-animator"
    static let canBuild = HeaderTests.hasCPlusPlus && FileManager.default.isExecutableFile(atPath: "/usr/bin/make")

    /// The example built by its Makefile into a folder of its own.
    static func build() throws -> String {
        let out = makeTemporaryFolder("cpp-animator")
        let result = try run("/usr/bin/make", ["-C", example, "OUT=\(out)"], in: out)
        try #require(result.status == 0, "\(result.err)")
        return out
    }

    @Test(.enabled(if: canBuild, "skipped: C++ example needs c++ and make (apt-get install g++ make; .ci/run does)"))
    func theCPlusPlusExampleLoadsPlaysValidatesAndMoves() throws {
        let folder = try Self.build()
        let registry = AnimatorRegistry(folders: [folder])
        #expect(registry.animators.map(\.name) == ["CardFlip"])
        #expect(registry.animator(named: "CardFlip")?.parameters.map(\.name) == ["duration", "perspective", "axis"])

        // Played as every plugin is: in a worker, inside the sandbox.
        let config = folder + "/segue.json"
        try """
        {"plugins": ["\(folder)"], "isolation": "process", "sandbox": "strict",
         "rules": [{"to": "video", "animator": "CardFlip", "parameters": {"axis": "horizontal"}}], "script": ["video"]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let played = try run(Paths.segue, ["run", "--json", "--config", config])
        #expect(played.status == 0, "\(played.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(played.out.utf8)) as? [String: Any])
        #expect(report["animator"] as? String == "CardFlip" && report["source"] as? String == "plugin", "\(report)")
        #expect(report["completed"] as? Bool == true && report["fellBack"] as? Bool == false)

        let validated = try run(Paths.segue, ["validate", folder + "/libCardFlip.so", "--strictness", "10"])
        #expect(validated.status == 0 && validated.out.hasSuffix("0 failed, 0 warning(s)\n"), "\(validated.out)")

        // A filmstrip of three stills: the middle one, mid-flip, differs from both ends.
        let strip = folder + "/flip.png"
        let previewed = try run(Paths.segue, ["preview", "CardFlip", "--plugins", folder, "--frames", "3", "--scale", "0.25", "--out", strip])
        #expect(previewed.status == 0, "\(previewed.err)")
        let png = try RendererTests().decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: strip))))
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
        #expect(still(1) != still(0) && still(1) != still(2), "the middle still is mid-flip")
    }

    @Test(.enabled(if: canBuild, "skipped: C++ example needs c++ and make (apt-get install g++ make; .ci/run does)"))
    func makeInstallPutsItInTheUsersFolder() throws {
        let out = makeTemporaryFolder("cpp-install")
        let data = makeTemporaryFolder("segue-data")
        let installed = try run("/usr/bin/make", ["-C", Self.example, "OUT=\(out)", "install"], in: out, environment: ["XDG_DATA_HOME": data])
        #expect(installed.status == 0, "\(installed.err)")
        let user = PluginSearchPath.standard(executable: "/nowhere/bin/segue", environment: ["XDG_DATA_HOME": data])
        #expect(AnimatorRegistry(searchPath: user).animators.map(\.name) == ["CardFlip"])
    }
}
