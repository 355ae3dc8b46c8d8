import Foundation
@testable import HostConfig
@testable import PluginHost
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
        let timing = try #require(targets.first { $0.name == "Timing" })
        #expect(timing.dependencies.isEmpty)
        // The library embedders link carries nothing only the tool needs.
        let runtime = try #require(targets.first { $0.name == "PluginRuntime" })
        #expect(!runtime.dependencies.contains("HostContainer"), "the worker's runtime does not know the container")
        let renderer = try #require(targets.first { $0.name == "Renderer" })
        #expect(renderer.dependencies == ["HostContainer", "Timing"], "the renderer draws views, not configs")
        // The live view is the tool's: nothing the library is made of depends on it.
        for name in ["HostContainer", "PluginHost", "HostConfig", "Renderer"] {
            let target = try #require(targets.first { $0.name == name })
            #expect(!target.dependencies.contains("LiveView"), "\(name) depends on LiveView")
        }
        let package = try String(contentsOfFile: Paths.packageRoot + "/Package.swift", encoding: .utf8)
        #expect(package.contains(#".library(name: "HostContainer", targets: ["HostContainer", "PluginHost", "HostConfig"])"#))
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

    @Test func nothingReExportsAModule() throws {
        for target in try Self.targets() {
            let root = Paths.packageRoot + "/" + target.folder
            for case let file as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                #expect(!text.split(separator: "\n").contains { $0.hasPrefix("@_exported") }, "\(target.folder)/\(file) re-exports a module")
            }
        }
    }

    /// Two registries in one process, over the same plugin, one confined and
    /// one not: each keeps its own workers and its own quarantine.
    @Test func twoRegistriesWithDifferentSettingsLiveSideBySide() throws {
        let (folder, file) = try CPlugin.fixture("sidebyside", "ATTEMPT_SOCKET", "ATTEMPT_AT=3")
        let strict = RegistryOptions()
        var open = RegistryOptions()
        open.worker.sandbox.mode = .off
        var pids: [Int32] = []
        do {
            let confined = AnimatorRegistry(folders: [folder], options: strict)
            let trusted = AnimatorRegistry(folders: [folder], options: open)
            #expect(confined.animator(named: "TestFade") != nil && trusted.animator(named: "TestFade") != nil)
            func play(_ registry: AnimatorRegistry) throws -> TransitionReport {
                let config = try SegueConfig.parse(
                    Data(#"{"children": ["a", "b"], "rules": [{"to": "b", "animator": "TestFade"}]}"#.utf8), file: "t.json", baseDirectory: "/")
                let h = Harness(["a", "b"])
                h.delegate = ConfigDrivenDelegate(config: config, registry: registry)
                try h.switchTo("b")
                h.expectConsistent()
                return try #require(h.reports.first)
            }
            let refused = try play(confined)
            #expect(refused.fellBack && refused.reason.contains("TestFade tried to open a socket (socket AF_INET) in setup: refused by the sandbox"),
                    "\(refused.reason)")
            let ran = try play(trusted)
            #expect(ran.animator == "TestFade" && ran.source == .plugin(path: file) && !ran.fellBack, "\(ran.reason)")
            #expect(confined.quarantined.map(\.file) == [file])
            #expect(trusted.quarantined.isEmpty, "one registry's quarantine is not the other's")
            // The trusted registry's plugin still runs after the confined one's was quarantined.
            #expect(try play(trusted).animator == "TestFade")
            for registry in [confined, trusted] {
                pids += (registry.factory as? WorkerFactory)?.pool.processIDs ?? []
            }
            #expect(!pids.isEmpty)
        }
        // Each registry owned its workers: released, they end.
        let deadline = Date().addingTimeInterval(5)
        func alive() -> [Int32] {
            pids.filter { pid in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
                return !stat.contains(") Z ")
            }
        }
        while !alive().isEmpty && Date() < deadline { usleep(20_000) }
        #expect(alive().isEmpty, "workers of released registries end")
    }
}

/// A host and a worker from different builds: the worker's first reply
/// carries its protocol version, and the host refuses it, saying why.
struct WorkerProtocolVersionTests {
    @Test func aWorkerOfAnotherBuildIsRefusedAtItsFirstReply() throws {
        let folder = makeTemporaryFolder("old-worker")
        let worker = folder + "/segue-worker"
        let built = try run("/usr/bin/env", ["cc", "-o", worker, Paths.packageRoot + "/Tests/Fixtures/old_worker.c"])
        try #require(built.status == 0, "\(built.err)")
        let (plugins, _) = try CPlugin.fixture("versioned")
        let result = try IsolationTests.segue(["list", "--plugins", plugins, "--json"], environment: ["SEGUE_WORKER": worker])
        let listing = try #require(try IsolationTests.jsonLines(result.out).first)
        let rejected = try #require((listing["rejected"] as? [[String: Any]])?.first)
        let link = try #require((rejected["reason"] as? String)?.split(separator: " ").dropFirst(4).first.map(String.init))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == worker, "the worker run is the old one")
        #expect((rejected["reason"] as? String) == "not scanned: the worker \(link) speaks worker protocol 0, this program \(WorkerReply.protocolVersion): they come from different builds (install them together, or point SEGUE_WORKER at the worker built with this program)")
    }
}

/// The worker deadlines have one home, ``WorkerDeadlines``; the README, the
/// author's guide and the public header quote it, and this test keeps the
/// quotes true.
struct DeadlineQuoteTests {
    static let deadlines = WorkerDeadlines()
    static func s(_ seconds: Double) -> String { seconds.formatted() }

    /// `text` with comment prefixes and line breaks folded to single spaces.
    static func folded(_ path: String) throws -> String {
        let text = try String(contentsOfFile: Paths.packageRoot + "/" + path, encoding: .utf8)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " *")) }.joined(separator: " ")
    }

    @Test func theReadmeTableQuotesEachDeadline() throws {
        let readme = try String(contentsOfFile: Paths.packageRoot + "/docs/isolation.md", encoding: .utf8)
        let d = Self.deadlines
        for row in ["| scanning one file (load, entry point, descriptor) | \(Self.s(d.scan)) |",
                    "| loading its plugin in a worker | \(Self.s(d.load)) |", "| `setup` | \(Self.s(d.setup)) |",
                    "| `evaluate` (one frame) | \(Self.s(d.evaluate)) |", "| `end` | \(Self.s(d.end)) |"] {
            #expect(readme.contains(row), "docs/isolation.md: expected the row \(row)")
        }
    }

    @Test func theGuideAndTheHeaderQuoteTheCallDeadlines() throws {
        let d = Self.deadlines
        let calls = "setup \(Self.s(d.setup)) s, evaluate \(Self.s(d.evaluate)) s, end \(Self.s(d.end)) s"
        #expect(try Self.folded("docs/writing-an-animator.md").contains("(\(calls))"))
        let header = try Self.folded("Sources/AnimatorABI/include/segue/entry.h")
        #expect(header.contains("(\(calls); loading \(Self.s(d.load)) s)"), "entry.h quotes the call deadlines")
        #expect(header.contains("a scan that takes more than \(Self.s(d.scan)) s rejects the file"), "entry.h quotes the scan deadline")
    }
}
