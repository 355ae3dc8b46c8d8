import Foundation
import Glibc
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI

/// libsegue's C++ wrapper (segue/segue.hpp), as a C++ host uses it: a
/// program (Tests/Fixtures/embedding/wrapper.cpp) built with the system's
/// `c++ $(pkg-config --cflags --libs segue)` against the installed prefix
/// alone plays CurlUp through it; what it sees is what this process's
/// player gives for the same transition through the C API.
@Suite struct LibsegueCppTests {
    static let compiler = "/usr/bin/c++"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: compiler), "skipped: needs a C++ compiler (apt-get install g++; .ci/run does)"))
    func aCppProgramPlaysAnAnimatorThroughTheWrapper() throws {
        let prefix = try InstalledLibsegue.prefix.get()
        let program = makeTemporaryFolder("cpp-program") + "/wrapper"
        let built = try run("/bin/sh", ["-c", "c++ -std=c++17 -Wall -Wextra -Werror \"$0\" $(pkg-config --cflags --libs segue) -o \"$1\"",
                                        InstalledLibsegue.fixtures + "/wrapper.cpp", program], environment: InstalledLibsegue.environment(prefix))
        try #require(built.status == 0, "c++ wrapper.cpp: \(built.err)")
        let plugins = prefix + "/lib/segue/plugins", t = 0.2
        let tag = "cpp-" + UUID().uuidString
        let ran = try run(program, [plugins, "CurlUp", String(t)], environment: ["SEGUE_TEST_TAG": tag], timeout: 60)
        #expect(ran.status == 0, "\(ran.out)\(ran.err)")
        let lines = ran.out.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        func line(_ name: String) -> [String] { lines.first { $0.first == name }.map { Array($0.dropFirst()) } ?? [] }

        // The same transition in this process, through the C API.
        let player = try LibseguePromiseTests.player(plugins)
        defer { seguePlayerFree(player) }
        let transition = try LibseguePromiseTests.begin(player, "CurlUp")
        defer { segueTransitionFree(transition) }
        var plan = segue_plan_info_t()
        plan.struct_size = UInt32(MemoryLayout<segue_plan_info_t>.size)
        #expect(segueTransitionPlan(transition, &plan) == SEGUE_OK)
        #expect(line("plan") == ["CurlUp", "0", String(format: "%.6f", plan.duration), "\(plan.layer_count)"], "\(ran.out)")
        var made: OpaquePointer?
        #expect(segueSamplerNew(transition, &made) == SEGUE_OK)
        let sampler = try #require(made)
        defer { segueSamplerFree(sampler) }
        var count: UInt32 = 0, status = segueSamplerSample(sampler, t, &count, nil)
        let deadline = Date().addingTimeInterval(10)
        while status == SEGUE_LATE && Date() < deadline {
            usleep(1000)
            status = segueSamplerSample(sampler, t, &count, nil)
        }
        #expect(line("sample") == ["0", "1", "\(count)"], "answered, the first sample, every layer: \(ran.out)")
        let layers = lines.filter { $0.first == "layer" }.map { Array($0.dropFirst()) }
        var expected: [[String]] = []
        for i in 0..<count {
            var layer = segue_drawn_layer_t()
            layer.struct_size = UInt32(MemoryLayout<segue_drawn_layer_t>.size)
            #expect(segueSamplerLayer(sampler, i, &layer) == SEGUE_OK)
            let f = layer.state.frame
            expected.append(["\(layer.plan_index)", "\(layer.request.kind)", String(format: "%.6f", layer.state.alpha),
                             String(format: "%.3f,%.3f,%.3f,%.3f", f.x, f.y, f.width, f.height), layer.has_mesh ? "1" : "0", layer.visible ? "1" : "0"])
            if layer.has_mesh {
                // Mid-curl the page is lit by its angle: from a flat page's 1 down into the shade.
                let mesh = line("mesh")
                #expect(mesh.count == 5 && mesh[0] == "1" && mesh[1] == "\(layer.request.mesh_columns)" && mesh[2] == "\(layer.request.mesh_rows)",
                        "\(ran.out)")
                #expect(mesh.count == 5 && (Double(mesh[3]) ?? 1) < 0.9 && (Double(mesh[4]) ?? 0) > 0.95, "a gradient of light: \(mesh)")
            }
        }
        #expect(layers == expected, "back to front, as segue_sampler_layer gives them")
        #expect(layers.contains { $0[4] == "1" }, "CurlUp's page has a mesh: \(ran.out)")
        // Failures as exceptions carrying the status and libsegue's words; an unknown animator a success.
        #expect(line("bad begin").prefix(2) == ["-1", "segue_transition_begin: desc.bounds is 0.0, 0.0, 0.0 x 0.0: expected a finite width and height above 0"])
        #expect(line("report") == ["CurlUp", "0", "1"])
        #expect(line("finish again").first == "-5")
        #expect(line("sample after finish") == ["-5", "0"])
        #expect(line("missing config").first == "-3" && line("missing config")[1].contains("no-such-config.json"), "\(ran.out)")
        #expect(line("unknown") == ["default", "1"])
        #expect(line("glsl") == ["1"])
        #expect(line("done") == ["0"], "\(ran.out)")
        #expect(processesTagged(tag).isEmpty, "no worker left")
    }
}
