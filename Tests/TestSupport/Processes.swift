import Foundation
import Glibc
import Testing

/// Runs a program to its end, killing it (and the process group it leads,
/// so a script's children too) after `timeout` seconds, with the tests' own
/// registry cache and `environment` added and the variables named in
/// `unsetting` removed.
@discardableResult
public func run(_ program: String, _ arguments: [String], in folder: String? = nil, environment: [String: String] = [:],
                unsetting: [String] = [], timeout: Double = 120) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var env = guardedEnvironment()
    env["SEGUE_REGISTRY_CACHE"] = Paths.testCache
    env["XDG_DATA_HOME"] = Paths.emptyDataHome  // the user's own plugins never reach a test
    env["XDG_CONFIG_HOME"] = Paths.emptyConfigHome  // nor their desktop's config
    env["SEGUE_PLUGIN_PATH"] = nil
    env["SEGUE_PLUGIN_SYSTEM_PATH"] = nil
    for (key, value) in environment { env[key] = value }
    for key in unsetting { env[key] = nil }
    process.environment = env
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let pid = process.processIdentifier
    // Foundation starts the child as the leader of a process group of its own.
    let watchdog = DispatchWorkItem { kill(-pid, SIGKILL); kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let errData = ReadAll(err.fileHandleForReading)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData.wait(), as: UTF8.self))
}

/// Reads a pipe to its end on another thread, so that a child filling one pipe never blocks on the other.
public final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    public init(_ handle: FileHandle) {
        DispatchQueue.global().async { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }
    public func wait() -> Data {
        done.wait()
        return data
    }
}

/// The environment that marks the processes of one run with `tag`, for
/// ``processesTagged(_:within:)``: `segue` carries it in its environment;
/// its workers and scanners, which start with an environment of their own
/// (nothing of the host's reaches them), carry it in their program's path,
/// a link to the worker (`worker`, else the one built) named after the tag (`SEGUE_WORKER`).
public func tagged(_ tag: String, worker: String? = nil) -> [String: String] {
    let name = tag.replacingOccurrences(of: "SEGUE_TEST_TAG=", with: "")
    let link = makeTemporaryFolder("worker") + "/segue-worker-\(name)"
    _ = symlink(worker ?? Paths.binFolder + "/segue-worker", link)
    return ["SEGUE_TEST_TAG": name, "SEGUE_WORKER": link]
}

/// The processes still running whose environment holds `tag` (children of a
/// `segue` started with it), after waiting up to `seconds` for them to end.
public func processesTagged(_ tag: String, within seconds: Double = 5) -> [String] {
    let deadline = Date().addingTimeInterval(seconds)
    let marker = Data(tag.replacingOccurrences(of: "SEGUE_TEST_TAG=", with: "").utf8)
    while true {
        let alive = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { pid in
            guard Int(pid) != nil else { return false }
            let env = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            return (env.range(of: marker) != nil || command.range(of: marker) != nil) && isRunning(pid)
        } ?? []
        if alive.isEmpty || Date() > deadline { return alive }
        usleep(20_000)
    }
}

/// Those of `pids` still running after waiting up to `seconds` for them to end.
public func processesRunning(_ pids: [Int32], within seconds: Double = 5) -> [Int32] {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        let running = pids.filter { isRunning("\($0)") }
        if running.isEmpty || Date() > deadline { return running }
        usleep(20_000)
    }
}

/// Whether process `pid` runs: it exists and has not ended (a zombie its parent has yet to reap has).
private func isRunning(_ pid: String) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    return !stat.contains(") Z ")
}

/// Runs `segue` with a tag in its environment, only the plugins the test
/// names (no system folder), and checks it left no process behind.
public func runSegue(_ arguments: [String], environment: [String: String] = [:],
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, out: String, err: String) {
    let tag = UUID().uuidString
    let result = try run(Paths.segue, arguments,
                         environment: environment.merging(tagged(tag, worker: environment["SEGUE_WORKER"]).merging(["SEGUE_PLUGIN_SYSTEM_PATH": ""]) { $1 }) { $1 },
                         timeout: 60)
    #expect(processesTagged(tag).isEmpty, "no process is left behind", sourceLocation: sourceLocation)
    return result
}

/// Each line of `text` as a JSON object (what `--json` prints).
public func jsonLines(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "a JSON object: \(line)",
                     sourceLocation: sourceLocation)
    }
}

extension RandomNumberGenerator {
    /// A value in 0..<n.
    public mutating func below(_ n: Int) -> Int { Int.random(in: 0..<n, using: &self) }
}
