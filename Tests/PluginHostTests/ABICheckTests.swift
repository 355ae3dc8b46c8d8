import Foundation
import Glibc
@testable import HostConfig
@testable import HostContainer
@testable import PluginHost
import TestSupport
import Testing

/// libabigail, when installed.
enum Abigail {
    static let available = ["abidw", "abidiff"].allSatisfy { tool in
        ["/usr/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) }
    }
    static let skipNote = "skipped: needs abidw and abidiff (apt-get install abigail-tools; .ci/run does) and python3"
    static let baselines = Paths.packageRoot + "/Tests/ABI"

    /// Today's ABIs of the sources under `root` (the package's own unless given), written by Scripts/abi-dump.py.
    static func dump(root: String = Paths.packageRoot) throws -> String {
        let folder = makeTemporaryFolder("abi")
        let dumped = try run("/usr/bin/env", ["python3", Paths.packageRoot + "/Scripts/abi-dump.py", folder, root])
        guard dumped.status == 0 else { throw DumpFailure(message: dumped.err) }
        return folder
    }

    struct DumpFailure: Error { let message: String }

    /// What in an abidiff report is not growth at a struct's end: a member
    /// inserted before the old size, anything removed, moved or retyped.
    static func growthProblems(_ report: String) -> [String] {
        var problems: [String] = []
        var oldSize: Int?
        for line in report.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("type size changed from"), let bits = Int(line.split(separator: " ")[4]) {
                oldSize = bits
            } else if line.hasPrefix("type size hasn't changed") {
                oldSize = nil  // a member in the padding: past every member, as the size did not move
            } else if line.hasPrefix("'"), let range = line.range(of: "', at offset "),
                      let offset = Int(line[range.upperBound...].split(separator: " ")[0]) {
                if let oldSize, offset < oldSize {
                    problems.append("\(line[..<range.lowerBound])' inserted at bit \(offset), before the old end at bit \(oldSize)")
                }
            } else if ["deletion", "offset changed", "type name changed", "Removed,", "enumerator change", "value changed"]
                        .contains(where: line.contains), !line.contains(" 0 Removed") {
                problems.append(line)
            }
        }
        return problems
    }

    /// What abidiff says of `name` between the baseline and `folder`: its status and report.
    static func compare(_ name: String, with folder: String) throws -> (status: Int32, report: String) {
        let compared = try run("/usr/bin/env", ["abidiff", baselines + "/" + name, folder + "/" + name])
        return (compared.status, compared.out + compared.err)
    }
}

/// The ABIs are checked, not promised: today's headers against the committed
/// baselines, and a plugin built against the 1.0 header against today's host.
@Suite("ABI checks")
struct ABICheckTests {
    @Test(.enabled(if: Abigail.available, "\(Abigail.skipNote)"))
    func theAnimatorABIAndLibseguesMatchTheirBaselines() throws {
        let today = try Abigail.dump()
        for name in ["animator.abi", "libsegue.abi"] {
            let (status, report) = try Abigail.compare(name, with: today)
            #expect(status == 0, """
                \(name) changed (abidiff status \(status)). If this is compatible growth, write the baselines \
                again (python3 Scripts/abi-dump.py Tests/ABI) and say why in the commit:
                \(report)
                """)
        }
        let declared = try String(contentsOfFile: today + "/libsegue.symbols", encoding: .utf8)
        #expect(declared == (try String(contentsOfFile: Abigail.baselines + "/libsegue.symbols", encoding: .utf8)))
        let exported = try run("/usr/bin/env", ["nm", "-D", "--defined-only", Paths.binFolder + "/" + PluginSearchPath.hostLibrary])
        let functions = exported.out.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[1] == "T" else { return nil }
            return String(parts[2].split(separator: "@")[0])
        }.sorted()
        #expect(functions.joined(separator: "\n") + "\n" == declared, "libsegue exports exactly what segue/embed.h declares")
    }

    /// Each change since ABI 1.2 (libsegue API 1.1) and since ABI 1.3
    /// (libsegue API 1.4), as released, is growth the rule allows: members
    /// appended at a struct's end (or in its padding), functions added;
    /// nothing removed, moved or retyped.
    @Test(.enabled(if: Abigail.available, "\(Abigail.skipNote)"), arguments: ["release-1.2", "release-1.3"])
    func theABIsOnlyGrewAtTheirEndsSinceTheLastRelease(_ release: String) throws {
        let today = try Abigail.dump()
        for name in ["animator.abi", "libsegue.abi"] {
            let compared = try run("/usr/bin/env", ["abidiff", Abigail.baselines + "/" + release + "/" + name, today + "/" + name])
            let report = compared.out + compared.err
            #expect(report.contains("data member insertion"), "\(name) grew since \(release): \(report)")
            // Since API 1.4, segue_drawn_layer_t's members after the layer state it embeds moved as that state grew
            // (ABI 1.4's look): libsegue writes 1.4's layout to a program whose struct_size says 1.4, as
            // LibsegueSamplerTests.aProgramBuiltAgainstAPI14GetsItsOwnLayout checks. Nothing else may move.
            let compensated = release == "release-1.3" && name == "libsegue.abi"
                ? ["'bool visible' offset changed", "'bool has_mesh' offset changed", "'double map[9]' offset changed"] : []
            let problems = Abigail.growthProblems(report).filter { p in !compensated.contains { p.hasPrefix($0) } }
            #expect(problems.isEmpty, "\(name): \(problems)\n\(report)")
        }
    }

    /// The growth check can fail: a member inserted before the end is caught.
    @Test func theGrowthCheckCatchesAMemberInsertedBeforeTheEnd() {
        let report = """
              type size changed from 1408 to 1472 (in bits)
              1 data member insertion:
                'uint32_t kind', at offset 64 (in bits)
            """
        #expect(Abigail.growthProblems(report) == ["'uint32_t kind' inserted at bit 64, before the old end at bit 1408"])
        #expect(!Abigail.growthProblems("  1 data member deletion:\n").isEmpty)
        #expect(!Abigail.growthProblems("'double alpha' offset changed from 64 to 128").isEmpty)
    }

    /// The check can fail: a member moved in animator.h and a type changed in embed.h are both caught.
    @Test(.enabled(if: Abigail.available, "\(Abigail.skipNote)"))
    func anIncompatibleChangeFailsTheCheck() throws {
        let root = makeTemporaryFolder("changed-headers")
        for folder in ["Sources/AnimatorABI", "Sources/EmbedABI", "Examples/c-animator"] {
            try FileManager.default.createDirectory(atPath: root + "/" + (folder as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Paths.packageRoot + "/" + folder, toPath: root + "/" + folder)
        }
        func edit(_ file: String, _ old: String, _ new: String) throws {
            let path = root + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(old), "\(file) has \(old)")
            try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        }
        try edit("Sources/AnimatorABI/include/segue/animator.h", "    double alpha;\n", "    float alpha;\n")
        try edit("Sources/EmbedABI/include/segue/embed.h", "    double duration;\n", "    float duration;\n")
        let changed = try Abigail.dump(root: root)
        for name in ["animator.abi", "libsegue.abi"] {
            let (status, report) = try Abigail.compare(name, with: changed)
            #expect(status != 0, "\(name): \(report)")
            #expect(report.contains("type size changed") || report.contains("offset changed"), "\(name): \(report)")
        }
    }

    /// A plugin built against the ABI 1.0 header, as released, loads and runs in today's host, sandboxed.
    @Test func aPluginBuiltAgainstABI10StillLoadsAndRuns() throws {
        let folder = try CPlugin.curveSlide(builtAgainst: "1.0")
        let registry = AnimatorRegistry(folders: [folder], isolation: .process)
        #expect(registry.rejections.isEmpty, "\(registry.rejections)")
        let descriptor = try #require(registry.animator(named: "CurveSlide"))
        #expect(descriptor.parameters.map(\.name) == ["duration", "curve"])
        var config = SegueConfig(file: "<test>")
        config.defaultAnimator = "CurveSlide"
        let harness = Harness()
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        harness.delegate = delegate
        try harness.switchTo("b")
        let report = try #require(harness.reports.last)
        #expect(report.animator == "CurveSlide" && !report.fellBack && report.completed, "\(report.reason)")
        #expect(report.frames > 10)
        harness.expectConsistent()
    }
}
