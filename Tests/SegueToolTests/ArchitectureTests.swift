import Foundation
@testable import HostConfig
@testable import PluginHost
import TestSupport
import Testing
@testable import PluginRuntime

@testable import HostContainer

/// The layout is the architecture: each target imports only the targets
/// Package.swift says it depends on, the core depends on nothing but the ABI
/// and Timing, and what was process-wide belongs to the object that owns it.
struct ArchitectureTests {
    /// Each target of Package.swift: its folder and the targets it declares.
    struct Target {
        var name: String, folder: String, dependencies: Set<String>
    }

    static func targets() throws -> [Target] {
        let manifest = try String(contentsOfFile: Paths.packageRoot + "/Package.swift", encoding: .utf8)
        // `.target(name: "X", dependencies: [...], path: "..."` and the executable and test forms; one call may span lines.
        let call = try Regex(#"\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?(?:,\s*path:\s*"([^"]+)")?"#)
        return manifest.matches(of: call).map { match in
            let kind = String(match.output[1].substring!), name = String(match.output[2].substring!)
            let dependencies = match.output[3].substring.map { list in
                Set(list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\"")) }.filter { !$0.isEmpty })
            } ?? []
            let folder = match.output[4].substring.map(String.init) ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            return Target(name: name, folder: folder, dependencies: dependencies)
        }
    }

    /// The modules a target's Swift files import, with the file that imports each first.
    static func imports(of target: Target) -> [String: String] {
        let root = Paths.packageRoot + "/" + target.folder
        var found: [String: String] = [:]
        for case let file as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] where file.hasSuffix(".swift") {
            let text = (try? String(contentsOfFile: root + "/" + file, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                // `import X` or `@testable import X` at the start of a line.
                let words = line.split(separator: " ")
                guard line.first != " ", let at = words.firstIndex(of: "import"), at + 1 < words.count,
                      words[..<at].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                found[String(words[at + 1])] = found[String(words[at + 1])] ?? target.folder + "/" + file
            }
        }
        return found
    }

    /// The toolchain's modules: importing them needs no declared dependency.
    static let system: Set<String> = ["Foundation", "Glibc", "Dispatch", "Testing", "XCTest", "Synchronization"]

    @Test func everyTargetImportsOnlyWhatItDeclares() throws {
        let targets = try Self.targets()
        let names = Set(targets.map(\.name))
        #expect(names.isSuperset(of: ["AnimatorABI", "Timing", "HostContainer", "PluginRuntime", "PluginHost", "HostConfig",
                                      "PluginValidation", "Renderer", "LiveView", "segue", "segue-worker"]), "\(names)")
        for target in targets {
            for (module, file) in Self.imports(of: target) where !Self.system.contains(module) {
                #expect(target.dependencies.contains(module), "\(file) imports \(module), which \(target.name) does not declare")
            }
        }
    }

    @Test func theCoreDependsOnTheABIAndTimingAlone() throws {
        let targets = try Self.targets()
        let core = try #require(targets.first { $0.name == "HostContainer" })
        #expect(core.dependencies == ["AnimatorABI", "Timing"])
        // Timing knows the ABI's values (a parameter kind's segue_param_type_t), and nothing else.
        let timing = try #require(targets.first { $0.name == "Timing" })
        #expect(timing.dependencies == ["AnimatorABI"])
        // The library embedders link carries nothing only the tool needs.
        let runtime = try #require(targets.first { $0.name == "PluginRuntime" })
        #expect(!runtime.dependencies.contains("HostContainer"), "the worker's runtime does not know the container")
        let renderer = try #require(targets.first { $0.name == "Renderer" })
        #expect(renderer.dependencies == ["HostContainer", "Timing", "GraphicsShims"], "the renderer draws views, not configs")
        // The live view is the tool's: nothing the library is made of depends on it.
        for name in ["HostContainer", "PluginHost", "HostConfig", "Renderer"] {
            let target = try #require(targets.first { $0.name == name })
            #expect(!target.dependencies.contains("LiveView"), "\(name) depends on LiveView")
        }
        let package = try String(contentsOfFile: Paths.packageRoot + "/Package.swift", encoding: .utf8)
        #expect(package.contains(#".library(name: "HostContainer", targets: ["HostContainer", "PluginHost", "HostConfig"])"#))
    }

    /// Tests are by layer, a target each; the core's build without the plugin
    /// runtime: nothing they depend on, directly or not, runs or hosts plugins.
    @Test func theCoreTestsBuildWithoutThePluginRuntime() throws {
        let targets = try Self.targets()
        #expect(Set(targets.map(\.name)).isSuperset(of: ["HostContainerTests", "PluginHostTests", "HostConfigTests", "RendererTests",
                                                         "LiveViewTests", "EmbeddingTests", "SegueToolTests", "TestSupport"]))
        let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
        var closure: Set<String> = [], queue = ["HostContainerTests"]
        while let next = queue.popLast() {
            for dependency in byName[next]?.dependencies ?? [] where closure.insert(dependency).inserted { queue.append(dependency) }
        }
        #expect(closure == ["TestSupport", "HostContainer", "Timing", "AnimatorABI"], "\(closure.sorted())")
    }

    @Test func theDependenciesHaveNoCycle() throws {
        let targets = try Self.targets()
        let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
        var done: Set<String> = [], path: [String] = []
        func visit(_ name: String) {
            if done.contains(name) { return }
            if let at = path.firstIndex(of: name) {
                Issue.record("a cycle: \((path[at...] + [name]).joined(separator: " -> "))")
                return
            }
            path.append(name)
            for next in byName[name]?.dependencies.sorted() ?? [] { visit(next) }
            path.removeLast()
            done.insert(name)
        }
        for target in targets { visit(target.name) }
    }

    /// Only test targets import with @testable: a release build (which does not
    /// compile for testing) builds every other target, the test support ones included.
    @Test func onlyTestTargetsImportForTesting() throws {
        let manifest = try String(contentsOfFile: Paths.packageRoot + "/Package.swift", encoding: .utf8)
        let testTargets = Set(manifest.matches(of: /\.testTarget\(\s*name:\s*"([^"]+)"/).map { String($0.1) })
        for target in try Self.targets() where !testTargets.contains(target.name) {
            let root = Paths.packageRoot + "/" + target.folder
            for case let file as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                #expect(!text.split(separator: "\n").contains { $0.hasPrefix("@testable") }, "\(target.folder)/\(file) imports for testing")
            }
        }
        #expect(testTargets.count >= 7)
    }

    @Test func nothingReExportsAModule() throws {
        for target in try Self.targets() {
            let root = Paths.packageRoot + "/" + target.folder
            for case let file as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                #expect(!text.split(separator: "\n").contains { $0.hasPrefix("@_exported") }, "\(target.folder)/\(file) re-exports a module")
            }
        }
    }
}
