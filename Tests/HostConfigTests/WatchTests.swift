import Foundation
@testable import HostConfig
@testable import PluginHost
import TestSupport
import Testing

@testable import HostContainer

/// Hot reload: the watcher, the registry's watch API, and `segue run --watch`
/// as an operator uses it. Every wait has a deadline; none asserts a duration.
struct WatchTests {
    /// The fixture plugin built once per variant, outside any watched folder.
    static func build(_ name: String, _ defines: String...) throws -> String {
        try CPlugin.build(CPlugin.fixtureSource, name: name, defines: defines, into: makeTemporaryFolder("fixture-\(name)"))
    }

    /// Copies `file` to `destination` the way `cp` does: in place, written then closed.
    static func copy(_ file: String, to destination: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o755)
        #expect(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Puts `file` at `destination` the way installers and linkers do: a temporary name, then rename.
    static func install(_ file: String, at destination: String) throws {
        let temporary = destination + ".tmp-\(UUID().uuidString)"
        try copy(file, to: temporary)
        #expect(rename(temporary, destination) == 0)
    }

    @Test func aBurstOfChangesIsOneEventAndOnlyPluginsCount() throws {
        let folder = makeTemporaryFolder()
        let plugin = try Self.build("fade")
        let watcher = try FileWatcher(folders: [folder])
        try "notes".write(toFile: folder + "/README.txt", atomically: false, encoding: .utf8)
        for name in ["a", "b", "c"] { try Self.copy(plugin, to: folder + "/lib\(name).so") }
        let event = watcher.next(settle: 0.5)
        #expect(event == .changed([folder + "/liba.so", folder + "/libb.so", folder + "/libc.so"]))
    }

    @Test func aFileBeingWrittenIsReportedOnlyOnceClosed() throws {
        let folder = makeTemporaryFolder()
        let plugin = try Data(contentsOf: URL(fileURLWithPath: try Self.build("fade")))
        let watcher = try FileWatcher(folders: [folder])
        let fd = open(folder + "/libslow.so", O_WRONLY | O_CREAT | O_TRUNC, 0o755)
        _ = plugin.prefix(1000).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let closed = Flag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.4) {
            _ = plugin.dropFirst(1000).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            closed.set()
            close(fd)
        }
        let event = watcher.next(settle: 0.05)
        #expect(closed.isSet, "the watcher waited for the writer to close the file")
        #expect(event == .changed([folder + "/libslow.so"]))
    }

    @Test func aFolderThatAppearsLaterIsWatchedOnceItExists() throws {
        let base = makeTemporaryFolder()
        let folder = base + "/not/yet"
        let plugin = try Self.build("fade")
        let watcher = try FileWatcher(folders: [folder])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The folder that appeared, and the watched one below it, which may have come with it.
        #expect(watcher.next(settle: 0.2) == .changed([base + "/not", folder]))
        try Self.copy(plugin, to: folder + "/libfade.so")
        #expect(watcher.next(settle: 0.2) == .changed([folder + "/libfade.so"]))
    }

    /// A watched file whose folder does not exist yet, written right after
    /// the folder is made (`mkdir -p` then save, as a user writes a first
    /// config): seen, though it may have come before the folder's watch.
    @Test func aFileWrittenAsItsFolderAppearsIsSeen() throws {
        let base = makeTemporaryFolder()
        let config = base + "/segue/segue.json"
        let watcher = try FileWatcher(folders: [], files: [config])
        try FileManager.default.createDirectory(atPath: base + "/segue", withIntermediateDirectories: true)
        try "{}".write(toFile: config, atomically: false, encoding: .utf8)
        // One burst: the write comes within the settling time of the folder's appearance.
        let event = watcher.next(settle: 0.2)
        guard case .changed(let seen) = event else {
            Issue.record("no change: \(event)")
            return
        }
        #expect(seen.contains(config), "\(seen)")
    }

    @Test func aWatchedFileSavedByRenameIsSeen() throws {
        let folder = makeTemporaryFolder()
        let config = folder + "/segue.json"
        try "{}".write(toFile: config, atomically: false, encoding: .utf8)
        let watcher = try FileWatcher(folders: [], files: [config])
        try replaceByRename(config, with: "{\"rules\": []}")
        #expect(watcher.next(settle: 0.1) == .changed([config]))
    }

    @Test func aSignalEndsTheWait() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let watcher = try FileWatcher(folders: [makeTemporaryFolder()])
        var byte = UInt8(SIGTERM)
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(watcher.next(interruptedBy: ends[0]) == .interrupted(SIGTERM))
    }

    /// The embedder's API: a new registry with what changed, while the old one stays usable.
    @Test func theRegistryWatchHandsOverANewRegistry() throws {
        let folder = makeTemporaryFolder()
        let plugin = try Self.build("fade")
        let registry = AnimatorRegistry(folders: [folder])
        #expect(registry.animators.isEmpty)
        let received = Mailbox<(AnimatorRegistry, RegistryChanges)>()
        let watch = try registry.watch { received.put(($0, $1)) }
        defer { watch.stop() }
        try Self.install(plugin, at: folder + "/libfade.so")
        let (added, addedChanges) = try #require(received.take(timeout: 30))
        #expect(added.animators.map(\.name) == ["TestFade"])
        #expect(addedChanges.animators == [.init(kind: .added, animator: "TestFade", file: folder + "/libfade.so")])
        #expect(registry.animators.isEmpty, "the old registry is untouched until the embedder swaps it")

        #expect(unlink(folder + "/libfade.so") == 0)
        let (removed, removedChanges) = try #require(received.take(timeout: 30))
        #expect(removed.animators.isEmpty)
        #expect(removedChanges.animators.map(\.kind) == [.removed])
        #expect(removed.departure(of: "TestFade") == "its plugin file \(folder)/libfade.so was removed")
        let delegate = ConfigDrivenDelegate(
            config: try SegueConfig.parse(Data(#"{"children": ["a", "b"], "rules": [{"to": "b", "animator": "TestFade"}]}"#.utf8), file: "c", baseDirectory: "/"),
            registry: removed)
        let resolution = delegate.resolve(from: "a", to: "b")
        #expect(resolution.animator == nil)
        let reason = resolution.reason
        #expect(reason.contains("which is gone: its plugin file \(folder)/libfade.so was removed"))
    }

    /// The issue's scenario, as an operator lives it.
    @Test func runWatchFollowsPluginsAndTheConfig() throws {
        let folder = makeTemporaryFolder()
        let plugins = folder + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let config = folder + "/segue.json"
        func writeConfig(_ rules: String) throws {
            try replaceByRename(config, with: #"{"plugins": ["plugins"], "children": ["a", "b"], "script": ["b"], "rules": [\#(rules)]}"#)
        }
        try writeConfig(#"{"to": "b", "animator": "TestFade"}"#)
        let first = try Self.build("fade")
        let declining = try Self.build("fade", "FAULT_DECLINE")
        let tag = UUID().uuidString
        let segue = try LiveProcess(Paths.segue, ["run", "--watch", "--config", "segue.json"], in: folder,
                                    environment: tagged(tag))
        var out = segue.waitForOutput("SIGINT (Ctrl-C) stops.")
        #expect(out.contains("names the animator 'TestFade', which no loaded plugin provides"), "\(out)")

        try Self.copy(first, to: plugins + "/libfade.so")
        out = segue.waitForOutput("Reload 1: added TestFade (\(plugins)/libfade.so)\nPlaying segue.json")
        out = segue.waitForOutput("a -> b: TestFade (plugin plugins/libfade.so)")
        #expect(out.contains("a -> b: TestFade (plugin plugins/libfade.so), 0.500 s, 31 frames, completed"), "\(out)")

        try Self.install(declining, at: plugins + "/libfade.so")
        out = segue.waitForOutput("Reload 2: replaced TestFade by a new build (\(plugins)/libfade.so)")
        out = segue.waitForOutput("why: TestFade declined: this fixture always declines")
        #expect(out.contains("why: TestFade declined: this fixture always declines"), "the new build runs, in a fresh worker: \(out)")

        try Self.copy(first, to: plugins + "/libfade.so")  // copied over in place
        out = segue.waitForOutput("Reload 3: replaced TestFade by a new build")
        out = segue.waitForOutput("a -> b: TestFade (plugin plugins/libfade.so), 0.500 s", count: 2)
        #expect(out.components(separatedBy: "a -> b: TestFade (plugin plugins/libfade.so), 0.500 s").count == 3, "\(out)")

        try replaceByRename(config, with: "{\"rules\": [,]}")
        let err = segue.waitForError("segue.json:1:12: $.rules[0]: expected a value, found ','")
        #expect(err.contains("segue.json:1:12: $.rules[0]: expected a value, found ','"), "\(err)")
        out = segue.waitForOutput("Keeping the last good config until segue.json is fixed.")
        #expect(out.contains("Keeping the last good config"))

        try writeConfig(#"{"to": "b", "animator": "CurlUp"}"#)
        out = segue.waitForOutput("Reload 4: config segue.json changed")
        out = segue.waitForOutput("a -> b: CurlUp (plugin ")
        #expect(out.contains("segue.json is good again.\nReload 4: config segue.json changed"), "\(out)")

        try writeConfig(#"{"to": "b", "animator": "TestFade"}"#)
        out = segue.waitForOutput("Reload 5: config segue.json changed")
        #expect(unlink(plugins + "/libfade.so") == 0)
        out = segue.waitForOutput("which is gone: its plugin file \(plugins)/libfade.so was removed")
        #expect(out.contains("Reload 6: removed TestFade: its plugin file \(plugins)/libfade.so was removed"), "\(out)")
        #expect(out.contains("why: rules[0] (to \"b\") names the animator 'TestFade', which is gone: its plugin file \(plugins)/libfade.so was removed; the built-in default ran instead"))

        #expect(segue.stop(with: SIGINT) == 0)
        #expect(segue.waitForOutput("Stopped watching (SIGINT).").hasSuffix("Stopped watching (SIGINT).\n"))
        #expect(processesTagged(tag).isEmpty, "no worker or scanner is left behind")
    }

    @Test func runWatchStrictHoldsEveryReloadToTheChecks() throws {
        let folder = makeTemporaryFolder()
        let config = folder + "/segue.json"
        func writeConfig(_ animator: String) throws {
            try replaceByRename(config, with: #"{"children": ["a", "b"], "script": ["b"], "rules": [{"to": "b", "animator": "\#(animator)"}]}"#)
        }
        try writeConfig("CurlUp")
        let tag = UUID().uuidString
        let segue = try LiveProcess(Paths.segue, ["run", "--watch", "--strict", "--config", "segue.json"], in: folder,
                                    environment: tagged(tag))
        var out = segue.waitForOutput("SIGINT (Ctrl-C) stops.")
        #expect(out.contains("a -> b: CurlUp (plugin "), "\(out)")

        // It parses, but names an animator no plugin provides: not applied.
        try writeConfig("CurlUpp")
        let err = segue.waitForError("segue: --strict: not applying segue.json: 1 error")
        #expect(err.contains("$.rules[0].animator"), "the check says where: \(err)")
        out = segue.waitForOutput("Keeping the last good config until segue.json is fixed.")
        #expect(!out.contains("Reload 1"), "nothing played with the config in error: \(out)")

        try writeConfig("SpringSlide")
        out = segue.waitForOutput("a -> b: SpringSlide (plugin ")
        #expect(out.contains("segue.json is good again.\nReload 1: config segue.json changed"), "\(out)")
        #expect(segue.stop(with: SIGINT) == 0)
        #expect(processesTagged(tag).isEmpty, "no worker or scanner is left behind")
    }

    @Test func runWatchEndsCleanlyOnSIGTERMWithJSON() throws {
        let folder = makeTemporaryFolder()
        let tag = UUID().uuidString
        let segue = try LiveProcess(Paths.segue, ["run", "--watch", "--json", "--plugins", folder], in: folder,
                                    environment: tagged(tag))
        segue.waitForError("SIGINT (Ctrl-C) stops.")
        try Self.copy(try Self.build("fade"), to: folder + "/libfade.so")
        let out = segue.waitForOutput(#"{"changes":["added TestFade ("#)
        #expect(out.contains(#"{"changes":["added TestFade (\#(folder)/libfade.so)"],"reload":1,"version":1}"#), "\(out)")
        #expect(segue.stop(with: SIGTERM) == 0)
        #expect(segue.waitForError("Stopped watching (SIGTERM).").contains("segue: Stopped watching (SIGTERM)."))
        #expect(processesTagged(tag).isEmpty)
    }
}

/// A value handed from one thread to another, waited for with a deadline.
final class Mailbox<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []

    func put(_ value: Value) {
        condition.withLock {
            values.append(value)
            condition.broadcast()
        }
    }

    func take(timeout: Double) -> Value? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while values.isEmpty && condition.wait(until: deadline) {}
        return values.isEmpty ? nil : values.removeFirst()
    }
}

/// A flag set by one thread and read by another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

extension WatchTests {
    /// The author's loop: each new build is previewed, a broken one is named and skipped.
    @Test func previewWatchRendersEachNewBuild() throws {
        let folder = makeTemporaryFolder()
        let plugins = folder + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let tag = UUID().uuidString
        let segue = try LiveProcess(Paths.segue, ["preview", "TestFade", "--plugins", plugins, "--out", "fade.png",
                                                  "--scale", "0.1", "--watch"],
                                    in: folder, environment: tagged(tag))
        var err = segue.waitForError("SIGINT (Ctrl-C) stops.")
        #expect(err.contains("segue: no animator named 'TestFade'"), "\(err)")

        try Self.install(try Self.build("fade"), at: plugins + "/libfade.so")
        var out = segue.waitForOutput("wrote fade.png: ")
        #expect(out.contains("wrote fade.png: 6 frames of"), "\(out)")
        #expect(FileManager.default.fileExists(atPath: folder + "/fade.png"))

        try replaceByRename(plugins + "/libfade.so", with: "half a build")
        err = segue.waitForError("the new build was rejected")
        #expect(err.contains("segue: the new build was rejected (\(plugins)/libfade.so: not a shared library"), "\(err)")

        try Self.install(try Self.build("fade", "FAULT_DECLINE"), at: plugins + "/libfade.so")
        out = segue.waitForOutput("wrote fade.png: ", count: 2)
        err = segue.waitForError("TestFade declined")
        #expect(err.contains("warning: TestFade declined: this fixture always declines"), "\(err)")

        #expect(segue.stop(with: SIGINT) == 0)
        #expect(processesTagged(tag).isEmpty)
    }
}

extension WatchTests {
    /// In this process a library is never unloaded: a new build of a loaded file says it cannot take over.
    @Test func aReplacedPluginInProcessSaysItsFirstBuildKeepsRunning() throws {
        let folder = makeTemporaryFolder()
        try Self.install(try Self.build("fade"), at: folder + "/libfade.so")
        let registry = AnimatorRegistry(folders: [folder], isolation: .none)
        #expect(registry.animators.map(\.name) == ["TestFade"])
        try Self.install(try Self.build("fade", "FAULT_DECLINE"), at: folder + "/libfade.so")
        let (_, changes) = registry.reloaded()
        #expect(changes.descriptions == ["replaced TestFade by a new build (\(folder)/libfade.so); with isolation none the build loaded first keeps running until this program restarts"])
    }
}

/// run, show and preview reload through one path (ConfigReloader): the same
/// config handling, the same words.
extension WatchTests {
    /// preview --watch follows the config as run --watch does: a rule's new
    /// parameters render again; a broken save keeps the last good config.
    @Test func previewWatchFollowsTheConfigToo() throws {
        let folder = makeTemporaryFolder()
        let config = folder + "/segue.json"
        func writeConfig(_ duration: String) throws {
            try replaceByRename(config, with: #"{"children": ["a", "b"], "rules": [{"to": "b", "animator": "SpringSlide", "parameters": {"duration": \#(duration)}}]}"#)
        }
        try writeConfig("0.5")
        let tag = UUID().uuidString
        let segue = try LiveProcess(Paths.segue, ["preview", "SpringSlide", "--config", "segue.json", "--out", "slide.png",
                                                  "--scale", "0.1", "--watch", "--json"], in: folder, environment: tagged(tag))
        var err = segue.waitForError("SIGINT (Ctrl-C) stops.")
        #expect(err.contains("segue: Watching") && err.contains("and segue.json;"), "\(err)")
        var out = segue.waitForOutput("\"written\":")
        #expect(out.contains("\"duration\":0.5,"), "\(out)")

        try writeConfig("0.8")
        err = segue.waitForError("segue: config segue.json changed")
        out = segue.waitForOutput("\"written\":", count: 2)
        #expect(out.contains("\"duration\":0.8,"), "the rule's new parameters: \(out)")

        try replaceByRename(config, with: "{\"rules\": [,]}")
        err = segue.waitForError("keeping the last good config until segue.json is fixed")
        #expect(err.contains("segue.json:1:12: $.rules[0]: expected a value, found ','"), "\(err)")
        #expect(segue.stop(with: SIGINT) == 0)
        #expect(processesTagged(tag).isEmpty)
    }

    /// A config read from standard input is read once; run --watch still follows the plugin folders (it used to refuse).
    @Test func runWatchWithTheConfigOnStandardInputFollowsThePlugins() throws {
        let folder = makeTemporaryFolder()
        let plugins = folder + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let tag = UUID().uuidString
        try #"{"children": ["a", "b"], "script": ["b"], "rules": [{"to": "b", "animator": "TestFade"}]}"#
            .write(toFile: folder + "/piped.json", atomically: true, encoding: .utf8)
        let segue = try LiveProcess("/bin/sh", ["-c", "exec \"$0\" run --watch --config - --plugins plugins < piped.json", Paths.segue],
                                    in: folder, environment: tagged(tag))
        var out = segue.waitForOutput("SIGINT (Ctrl-C) stops.")
        #expect(out.contains("(the config came from standard input: it is read once)"), "\(out)")
        #expect(out.contains("a -> b: default"), "no TestFade yet: \(out)")
        try Self.install(try Self.build("fade"), at: plugins + "/libfade.so")
        out = segue.waitForOutput("a -> b: TestFade (plugin ")
        #expect(out.contains("Reload 1: added TestFade"), "\(out)")
        #expect(segue.stop(with: SIGINT) == 0)
        #expect(processesTagged(tag).isEmpty)
    }
}
