import Foundation
import Testing
import TestSupport

/// No number a plugin answers can crash the host or make its memory follow
/// a layer's size: meshed layers 1e308 points wide, or 30,000 points a side,
/// are drawn within a texture the canvas bounds.
@Suite struct HugeLayerTests {
    /// Runs `segue ARGUMENTS` under python3, which prints the largest
    /// resident size, in KiB, of it and the children it waited for.
    static func measured(_ arguments: [String], in folder: String) throws -> (status: Int32, out: String, err: String, kib: Int) {
        let script = "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
            + "print('maxrss', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(r.returncode)"
        let ran = try run("/usr/bin/python3", ["-c", script, Paths.segue] + arguments, in: folder)
        let kib = ran.err.split(separator: "\n").last { $0.hasPrefix("maxrss ") }.flatMap { Int($0.dropFirst(7)) } ?? -1
        return (ran.status, ran.out, ran.err, kib)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "skipped: needs python3 (apt-get install python3; .ci/run does)"),
          arguments: ["1e308", "30000"])
    func aMeshedLayerOfAnySizeIsDrawnWithinBoundedMemory(_ size: String) throws {
        let (folder, _) = try CPlugin.fixture("huge-\(size)", "HUGE_FRAME=\(size)")
        let out = makeTemporaryFolder("huge-out")
        let preview = try Self.measured(["preview", "TestFade", "--plugins", folder, "--scale", "0.2", "--fps", "10", "--out", out + "/a.gif"],
                                        in: out)
        #expect(preview.status == 0, "segue preview survived: \(preview.err.suffix(600))")
        #expect(FileManager.default.fileExists(atPath: out + "/a.gif"))
        // Without any plugin drawn, a preview at this scale peaks at about 40 MiB; two textures of 6000 pixels a side were 441.
        #expect(preview.kib > 0 && preview.kib < 150 * 1024, "peak \(preview.kib) KiB")
    }
}
