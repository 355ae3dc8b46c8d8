import Foundation
import Glibc
@testable import PluginHost
import Testing

@testable import HostContainer

/// Where things are when the tests run.
enum Paths {
    /// The package's root folder.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/HostContainerTests/TestSupport.swift
        return url.path
    }()

    /// The build folder holding the test runner, the plugin .so files and `segue`.
    static let binFolder: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (exe as NSString).deletingLastPathComponent
    }()

    static let header = packageRoot + "/Sources/AnimatorABI/include"

    static func plugin(_ name: String) -> String { binFolder + "/lib\(name).so" }

    static let segue = binFolder + "/segue"

    /// The registry cache the tests' `segue` runs share, away from the user's own.
    static let testCache = makeTemporaryFolder("segue-cache") + "/registry.bin"

    /// An `XDG_DATA_HOME` with no plugins in it.
    static let emptyDataHome = makeTemporaryFolder("segue-data")
}

/// A system shared library that is not a plugin (resolved, so that copying it copies the file).
func systemLibrary() throws -> String {
    let candidates = ["x86_64-linux-gnu", "aarch64-linux-gnu", "riscv64-linux-gnu"].flatMap { triple in
        ["/lib/\(triple)/libz.so.1", "/usr/lib/\(triple)/libz.so.1", "/lib/\(triple)/libm.so.6"]
    }
    let found = try #require(candidates.first { FileManager.default.fileExists(atPath: $0) }, "a system library to copy")
    return URL(fileURLWithPath: found).resolvingSymlinksInPath().path
}

/// One folder for everything a test process makes, removed when the process
/// exits (not sooner: the loader keeps libraries in it mapped). It is also
/// the process's TMPDIR, so what Foundation and the programs the tests start
/// put in temporary folders goes with it.
enum Scratch {
    static let root: String = {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path
        var template = Array((base + "/segue-tests-XXXXXX").utf8CString)
        let path = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
        setenv("TMPDIR", path, 1)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.root) }
        return path
    }()
}

/// Writes `text` beside `path`, then renames it over `path`, as editors and
/// build tools replace files (Foundation's atomic write does the same but
/// leaves a folder behind in /tmp on Linux).
func replaceByRename(_ path: String, with text: String) throws {
    let temporary = path + ".new"
    try text.write(toFile: temporary, atomically: false, encoding: .utf8)
    guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
}

/// A fresh folder inside ``Scratch/root``.
func makeTemporaryFolder(_ label: String = "segue-test") -> String {
    var template = Array((Scratch.root + "/\(label)-XXXXXX").utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: path!)
}

/// Runs a program to its end, killing it after `timeout` seconds, with the
/// tests' own registry cache and `environment` added.
@discardableResult
func run(_ program: String, _ arguments: [String], in folder: String? = nil, environment: [String: String] = [:],
         timeout: Double = 120) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["SEGUE_REGISTRY_CACHE"] = Paths.testCache
    env["XDG_DATA_HOME"] = Paths.emptyDataHome  // the user's own plugins never reach a test
    env["SEGUE_PLUGIN_PATH"] = nil
    env["SEGUE_PLUGIN_SYSTEM_PATH"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let errData = ReadAll(err.fileHandleForReading)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData.wait(), as: UTF8.self))
}

/// Reads a pipe to its end on another thread, so that a child filling one pipe never blocks on the other.
final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ handle: FileHandle) {
        DispatchQueue.global().async { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// The environment that marks the processes of one run with `tag`, for
/// ``processesTagged(_:within:)``: `segue` carries it in its environment;
/// its workers and scanners, which start with an environment of their own
/// (nothing of the host's reaches them), carry it in their program's path,
/// a link to the worker (`worker`, else the one built) named after the tag (`SEGUE_WORKER`).
func tagged(_ tag: String, worker: String? = nil) -> [String: String] {
    let name = tag.replacingOccurrences(of: "SEGUE_TEST_TAG=", with: "")
    let link = makeTemporaryFolder("worker") + "/segue-worker-\(name)"
    _ = symlink(worker ?? Paths.binFolder + "/segue-worker", link)
    return ["SEGUE_TEST_TAG": name, "SEGUE_WORKER": link]
}

/// The processes still running whose environment holds `tag` (children of a
/// `segue` started with it), after waiting up to `seconds` for them to end.
func processesTagged(_ tag: String, within seconds: Double = 5) -> [String] {
    let deadline = Date().addingTimeInterval(seconds)
    let marker = Data(tag.replacingOccurrences(of: "SEGUE_TEST_TAG=", with: "").utf8)
    while true {
        let alive = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { pid in
            guard Int(pid) != nil else { return false }
            let env = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return (env.range(of: marker) != nil || command.range(of: marker) != nil) && !stat.contains(") Z ")
        } ?? []
        if alive.isEmpty || Date() > deadline { return alive }
        usleep(20_000)
    }
}

/// Builds C plugins with the system C compiler against the public header alone:
/// the proof that the ABI is a C ABI.
enum CPlugin {
    /// Compiles `source` (a path) with `defines` into `folder/lib<name>.so`.
    static func build(_ source: String, name: String, defines: [String] = [], into folder: String) throws -> String {
        let output = folder + "/lib\(name).so"
        let result = try run("/usr/bin/env", ["cc", "-std=c11", "-Wall", "-Werror", "-shared", "-fPIC",
                                               "-I", Paths.header] + defines.map { "-D\($0)" } + ["-o", output, source, "-lm"])
        guard result.status == 0 else { throw CompileError(message: result.err) }
        return output
    }

    struct CompileError: Error { let message: String }

    static let fixtureSource = Paths.packageRoot + "/Tests/Fixtures/fixture_plugin.c"

    /// The fixture plugin built with the given faults, each in a folder of its own.
    static func fixture(_ name: String, _ defines: String...) throws -> (folder: String, file: String) {
        let folder = makeTemporaryFolder("fixture-\(name)")
        return (folder, try build(fixtureSource, name: name, defines: defines, into: folder))
    }

    /// An exported `int` of a loaded plugin, for the fixture's call counters.
    static func counter(_ symbol: String, in file: String) -> Int32 {
        let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)!
        return dlsym(handle, symbol)!.assumingMemoryBound(to: Int32.self).pointee
    }
}

/// A child controller that records the containment calls it receives.
final class RecordingViewController: ViewController {
    var calls: [String] = []
    override func willMove(toParent parent: ViewController?) { calls.append("willMove(\(parent?.name ?? "nil"))") }
    override func didMove(toParent parent: ViewController?) { calls.append("didMove(\(parent?.name ?? "nil"))") }
}

/// A container of named children with recording controllers, on a virtual clock.
final class Harness {
    let clock = VirtualClock()
    let children: [RecordingViewController]
    let container: ContainerViewController
    var events: [ContainerEvent] = []
    var reports: [TransitionReport] = []
    /// Held strongly here: the container holds its delegate weakly, as UIKit does.
    var delegate: (any ContainerViewControllerDelegate)? {
        didSet { container.delegate = delegate }
    }

    init(_ names: [String] = ["a", "b", "c"], size: Rect = Rect(x: 0, y: 0, width: 320, height: 480),
         elements: [String: [(String, Rect)]] = [:]) {
        children = names.map { name in
            let root = View(frame: size.bounds)
            for (elementName, frame) in elements[name] ?? [] { root.addSubview(View(name: elementName, frame: frame)) }
            return RecordingViewController(name: name, view: root)
        }
        container = ContainerViewController(viewControllers: children, size: size, clock: clock)
        container.onEvent = { [unowned self] in events.append($0) }
        container.onTransitionEnd = { [unowned self] in reports.append($0) }
    }

    func child(_ name: String) -> RecordingViewController { children.first { $0.name == name }! }

    /// The children whose views are in the container.
    var shownNames: [String] {
        container.view.subviews.compactMap { v in children.first { $0.view === v }?.name }
    }

    /// Selects `name` and runs until idle at 60 fps.
    func switchTo(_ name: String) throws {
        try container.select(named: name)
        container.runUntilIdle(advancing: clock)
    }

    /// Asserts the container is at rest: one child shown, it is the selection,
    /// every view at rest, containment consistent.
    func expectConsistent(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!container.isTransitioning, sourceLocation: sourceLocation)
        #expect(shownNames.count == 1, "exactly one child shown, found \(shownNames)", sourceLocation: sourceLocation)
        #expect(container.view.subviews.count == 1, "no leftover layers", sourceLocation: sourceLocation)
        let selected = container.selectedViewController
        #expect(shownNames.first == selected?.name, sourceLocation: sourceLocation)
        #expect(container.children.count == 1 && container.children.first === selected, sourceLocation: sourceLocation)
        #expect(selected?.view.frame == container.view.bounds, sourceLocation: sourceLocation)
        for child in children {
            #expect(child.view.isAtRest, "\(child.name) is at rest", sourceLocation: sourceLocation)
        }
    }
}

/// A registry of the three bundled plugins, run in this process from their real .so files.
let bundledRegistry = AnimatorRegistry(folders: [Paths.binFolder], isolation: .none)

func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// A program left running while a test talks to it: its output is collected
/// as it comes, every wait has a deadline, and it is killed if the test ends first.
final class LiveProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSCondition()
    private var out = "", err = ""

    init(_ program: String, _ arguments: [String], in folder: String, environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SEGUE_REGISTRY_CACHE"] = Paths.testCache
        env["XDG_DATA_HOME"] = Paths.emptyDataHome
        env["SEGUE_PLUGIN_PATH"] = nil
        env["SEGUE_PLUGIN_SYSTEM_PATH"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let outPipe = Pipe(), errPipe = Pipe()
        (process.standardOutput, process.standardError) = (outPipe, errPipe)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        collect(outPipe.fileHandleForReading) { $0.out += $1 }
        collect(errPipe.fileHandleForReading) { $0.err += $1 }
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    private func collect(_ handle: FileHandle, _ append: @escaping @Sendable (LiveProcess, String) -> Void) {
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                append(self, String(decoding: chunk, as: UTF8.self))
                lock.broadcast()
                lock.unlock()
            }
        }
    }

    /// Waits until standard output holds `text` `count` times; the output so
    /// far either way (check with `contains`).
    @discardableResult
    func waitForOutput(_ text: String, count: Int = 1, timeout: Double = 30) -> String {
        waitFor(timeout) { $0.out.components(separatedBy: text).count > count }
        return lock.withLock { out }
    }

    /// Waits until standard error holds `text`; standard error so far.
    @discardableResult
    func waitForError(_ text: String, timeout: Double = 30) -> String {
        waitFor(timeout) { $0.err.contains(text) }
        return lock.withLock { err }
    }

    private func waitFor(_ timeout: Double, _ done: (LiveProcess) -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        while !done(self) && lock.wait(until: deadline) {}
        lock.unlock()
    }

    /// Sends `signal` and waits for the program to end; its status, or nil
    /// (after killing it) when it did not end within `timeout`.
    func stop(with signal: Int32, timeout: Double = 10) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }
}
