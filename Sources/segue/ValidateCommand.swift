import Foundation
import HostContainer

/// `segue validate PLUGIN.so`: checks a plugin in a child process, in the
/// spirit of pluginval and clap-validator, so that a plugin that crashes or
/// hangs is reported against the check that triggered it, not suffered.
enum ValidateCommand {
    static let help = """
    USAGE: segue validate PLUGIN.so [--strictness 1-10] [--seed N] [--timeout SECONDS] [--json]

    Runs the checks below in a child process, one after another. Each prints
    PASS, WARN or FAIL with what was expected and what was found. A crash or a
    hang (no answer within --timeout, 10 s by default) fails the check that was
    running; the animator's later checks are then not run (WARN), and the
    others go on in a fresh child. Exits 1 when any check failed.

    Checks, rising with strictness (default 5):
      1+  entry point and ABI version; descriptor (ids, names, versions,
          parameter metadata, defaults within [min, max]); per animator: setup
          over the context matrix (plans usable, declines with a reason);
          finite states at t = 0, sampled times and t = duration
      2+  tiny, ordinary and huge containers; the final state (the to view at
          its final frame, shown as is, at t = duration)
      3+  parameters at minimum and maximum too; the same t gives the same state
      4+  no heap growth across 500 x strictness evaluations; the median time
          per evaluation within 1 ms
      5+  parameter sets fuzzed from --seed (strictness - 4 of them)

    OPTIONS:
      --json     One JSON object: plugin, strictness, seed, passed, checks
                 [{name, status, message}].
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let (path, rest) = try Arguments.operand(arguments, missing: "validate needs a plugin file") else {
            print(help)
            return .success
        }
        let args = try Arguments(rest, flags: ["--json", "--help"],
                                 options: ["--strictness", "--seed", "--timeout", "--worker"])
        if args.has("--help") {
            print(help)
            return .success
        }
        let strictness = Int(try PreviewCommand.number(args, "--strictness", default: 5, range: 1...10))
        let seed = UInt64(try PreviewCommand.number(args, "--seed", default: 1, range: 0...Double(UInt32.max)))
        let timeout = try PreviewCommand.number(args, "--timeout", default: 10, range: 0.1...3600)
        if let from = try args.single("--worker") {
            return worker(PluginValidator(path: path, strictness: strictness, seed: seed), from: Int(from) ?? 0)
        }
        let checks = supervise(path: path, arguments: ["--strictness", "\(strictness)", "--seed", "\(seed)"],
                               timeout: timeout, json: args.has("--json"))
        let failed = checks.filter { $0.status == .fail }.count
        if args.has("--json") {
            print(jsonLine(Summary(plugin: path, strictness: strictness, seed: seed, passed: failed == 0, checks: checks)))
        } else {
            let warnings = checks.filter { $0.status == .warn }.count
            print("\(failed == 0 ? "passed" : "FAILED"): \(checks.count) checks, \(failed) failed, \(warnings) warning(s)")
        }
        return failed == 0 ? .success : .failure
    }

    struct Summary: Encodable {
        let plugin: String
        let strictness: Int
        let seed: UInt64
        let passed: Bool
        let checks: [ValidationCheck]
    }

    /// What a worker prints, one JSON object per line.
    struct Line: Codable {
        var names: [String]?
        var start: Int?
        var result: ValidationCheck?
    }

    /// The child: lists the checks, then runs them from `from` on, announcing each.
    static func worker(_ validator: PluginValidator, from: Int) -> ExitCode {
        func send(_ line: Line) {
            FileHandle.standardOutput.write(Data((jsonLine(line) + "\n").utf8))
        }
        let names = validator.checkNames
        send(Line(names: names))
        for index in from..<max(names.count, from) {
            send(Line(start: index))
            send(Line(result: validator.run(check: index)))
        }
        return .success
    }

    /// The parent: runs workers until every check has an outcome.
    static func supervise(path: String, arguments: [String], timeout: Double, json: Bool) -> [ValidationCheck] {
        if !json { print("Validating \(path)") }
        var names: [String]?
        var results: [ValidationCheck] = []
        func report(_ check: ValidationCheck) {
            results.append(check)
            if !json { print("\(check.status.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0))  \(check.name): \(check.message)") }
        }
        while names == nil || results.count < names!.count {
            let run: Worker
            do {
                run = try Worker(arguments: ["validate", path] + arguments + ["--worker", "\(results.count)"])
            } catch {
                report(ValidationCheck(name: names?[results.count] ?? "entry point and ABI version", status: .fail,
                                       message: "the validator could not start its child process: \(error)"))
                return results
            }
            var running: (index: Int, since: Double)?
            var outcome: String?
            while outcome == nil {
                let status = run.exitStatus  // read first: once it is set, all the output is in
                for line in run.lines() {
                    guard let data = line.data(using: .utf8), let message = try? JSONDecoder().decode(Line.self, from: data) else { continue }
                    if let list = message.names { names = list }
                    if let index = message.start { running = (index, now()) }
                    if let result = message.result {
                        report(result)
                        running = nil
                    }
                }
                if let status {
                    if status.normal && status.code == 0 && running == nil { break }
                    outcome = status.normal ? "the validator's child exited with status \(status.code)" : "crashed (\(signalName(status.code)))"
                } else if let r = running, now() - r.since > timeout {
                    run.kill()
                    outcome = "did not finish within \(timeout.formatted()) s (an endless loop?); the child was killed"
                } else {
                    usleep(2_000)
                }
            }
            guard let why = outcome else { continue }
            guard let list = names else {
                report(ValidationCheck(name: "entry point and ABI version", status: .fail, message: "loading the plugin \(why)"))
                return results
            }
            let index = running?.index ?? results.count
            report(ValidationCheck(name: list[index], status: .fail, message: "\(why) during this check"))
            // The animator's other checks would only meet the same fault.
            let owner = list[index].split(separator: ":", maxSplits: 1).first.map(String.init)
            while results.count < list.count {
                let next = list[results.count]
                guard index < 2 || next.hasPrefix("\(owner ?? ""): ") else { break }
                report(ValidationCheck(name: next, status: .warn, message: "not run: the plugin \(why.hasPrefix("crashed") ? "crashed" : "hung") in an earlier check"))
            }
        }
        return results
    }

    static func now() -> Double { MonotonicClock().now }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV, a segmentation fault", SIGABRT: "SIGABRT, an abort", SIGBUS: "SIGBUS",
                                      SIGFPE: "SIGFPE, an arithmetic fault", SIGILL: "SIGILL, an illegal instruction or a trap",
                                      SIGKILL: "SIGKILL", SIGTRAP: "SIGTRAP"]
        return "signal \(signal), \(names[signal] ?? "an unexpected signal")"
    }
}

/// A child `segue` process whose standard output is read line by line without blocking.
final class Worker: @unchecked Sendable {  // `pending` is shared with the reading thread, under `lock`
    private let process = Process()
    private let output = Pipe()
    private var buffer = Data()
    private let lock = NSLock()
    private var pending = Data()

    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: PluginFolders.executablePath())
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            lock.withLock { pending.append(data) }
        }
        try process.run()
    }

    /// The complete lines received since the last call.
    func lines() -> [String] {
        lock.withLock {
            buffer.append(pending)
            pending.removeAll()
        }
        var result: [String] = []
        while let newline = buffer.firstIndex(of: 10) {
            result.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...newline)
        }
        return result
    }

    /// How the child ended, once it has and its output is read; nil while it runs.
    var exitStatus: (normal: Bool, code: Int32)? {
        guard !process.isRunning else { return nil }
        output.fileHandleForReading.readabilityHandler = nil
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        lock.withLock { pending.append(rest) }
        return (process.terminationReason == .exit, process.terminationStatus)
    }

    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
