import Foundation
import HostContainer
import PluginHost
import PluginRuntime
import PluginValidation
import SystemCalls

/// `segue validate PLUGIN.so`: checks a plugin in a child process, in the
/// spirit of pluginval and clap-validator, so that a plugin that crashes or
/// hangs is reported against the check that triggered it, not suffered.
enum ValidateCommand {
    static let about = """
    Runs the checks below in a child process, one after another. Each prints
    PASS, WARN or FAIL with what was expected and what was found, and a
    failure names the context of the matrix and the command that reruns it.
    A crash, an exit or a hang (a call to the plugin, or its loading,
    unanswered within --timeout, 10 s by default) fails the check that was
    running, naming the call (setup, evaluate or end), the context and t;
    the animator's later checks are then not run (WARN), and the others go
    on in a fresh child. The child never outlives segue validate. Exits 1
    when any check failed.

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
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.validate) else { return .success }
        let path = args.operand
        try args.refuse("--in-process", with: ["--timeout"])
        let strictness = args.integer("--strictness")!
        let seed = UInt64(args.integer("--seed")!)
        let timeout = args.number("--timeout")!
        let context = args.integer("--context")
        var validator = PluginValidator(path: path, strictness: strictness, seed: seed)
        validator.onlyContext = context
        validator.checksPermissions = PluginFolders.checksPermissions(args)
        if let from = args.single("--worker") {
            return worker(validator, from: Int(from) ?? 0)
        }
        var forwarded = ["--strictness", "\(strictness)", "--seed", "\(seed)"]
        if let context { forwarded += ["--context", "\(context)"] }
        if !validator.checksPermissions { forwarded.append("--allow-insecure-plugins") }  // the child's environment is not this one
        let json = args.has("--json")
        let checks = args.has("--in-process")
            ? inProcess(validator, json: json)
            : supervise(path: path, arguments: forwarded, timeout: timeout, json: json)
        let failed = checks.filter { $0.status == .fail }.count
        if json {
            print(jsonLine(Summary(plugin: path, strictness: strictness, seed: seed, passed: failed == 0, checks: checks)))
        } else {
            let warnings = checks.filter { $0.status == .warn }.count
            print("\(failed == 0 ? Style.pass("passed") : Style.fail("FAILED")): \(checks.count) checks, \(failed) failed, \(warnings) warning(s)")
        }
        return failed == 0 ? .success : .failure
    }

    struct Summary: Encodable {
        var version = 1
        let plugin: String
        let strictness: Int
        let seed: UInt64
        let passed: Bool
        let checks: [ValidationCheck]
    }

    /// What a child writes to the parent, one JSON object per line, on descriptor 3.
    struct Line: Codable {
        var names: [String]?
        var start: Int?
        var result: ValidationCheck?
    }

    /// Prints a check's outcome as it comes.
    static func show(_ check: ValidationCheck, json: Bool) {
        guard !json else { return }
        let label = check.status.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0)
        let styled = switch check.status {
        case .pass: Style.pass(label)
        case .warn: Style.warn(label)
        case .fail: Style.fail(label)
        }
        printNow("\(styled)  \(check.name): \(check.message)")
    }

    /// Every check in this process.
    static func inProcess(_ validator: PluginValidator, json: Bool) -> [ValidationCheck] {
        if !json { printNow("Validating \(validator.path) in this process") }
        return validator.checkNames.indices.map { index in
            let check = validator.run(check: index)
            show(check, json: json)
            return check
        }
    }

    /// The child: lists the checks, then runs them from `from` on, announcing
    /// each on descriptor 3 and recording each plugin call in the shared memory
    /// on descriptor 4. Ends when the parent goes away.
    static func worker(_ validator: PluginValidator, from: Int) -> ExitCode {
        HostLifeline.exitWhenClosed(3)
        var validator = validator
        if let memory = SharedMemory(descriptor: 4, size: ValidationProgress.size) {
            validator.progress = ValidationProgress(memory: memory)
        }
        let channel = FileHandle(fileDescriptor: 3, closeOnDealloc: false)
        func send(_ line: Line) { channel.write(Data((jsonLine(line) + "\n").utf8)) }
        let names = validator.checkNames
        send(Line(names: names))
        for index in from..<max(names.count, from) {
            send(Line(start: index))
            send(Line(result: validator.run(check: index)))
        }
        return .success
    }

    /// The parent: runs children until every check has an outcome.
    static func supervise(path: String, arguments: [String], timeout: Double, json: Bool) -> [ValidationCheck] {
        if !json { printNow("Validating \(path)") }
        var names: [String]?
        var results: [ValidationCheck] = []
        func report(_ check: ValidationCheck) {
            results.append(check)
            show(check, json: json)
        }
        while names == nil || results.count < names!.count {
            let child: ValidationChild
            do {
                child = try ValidationChild(arguments: ["validate", path] + arguments + ["--worker", "\(results.count)"])
            } catch {
                report(ValidationCheck(name: names?[results.count] ?? "entry point and ABI version", status: .fail,
                                       message: "the validator could not start its child process: \(error)"))
                return results
            }
            // The deadline is for one plugin call, and runs from the start: loading the plugin counts.
            var running = (index: results.count, since: now())
            var calls = child.calls
            var outcome: String?
            var finished = false
            while outcome == nil && !finished {
                let ended = child.process.termination  // read first: once it is set, all the output is in
                for line in child.lines(waiting: ended == nil ? 0.005 : 0) {
                    guard let message = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else { continue }
                    if let list = message.names { names = list }
                    if let index = message.start { running = (index, now()) }
                    if let result = message.result {
                        report(result)
                        running = (results.count, now())
                    }
                }
                if child.calls != calls { (calls, running.since) = (child.calls, now()) }
                if let ended {
                    finished = names != nil && results.count >= names!.count
                    if !finished { outcome = ended.description }
                } else if now() - running.since > timeout {
                    child.process.kill()
                    outcome = "did not finish within \(timeout.formatted()) s (an endless loop?) and was killed"
                }
            }
            guard let what = outcome else { continue }
            let place = child.place(path: path, arguments: arguments)
            guard let list = names else {
                report(ValidationCheck(name: "entry point and ABI version", status: .fail, message: "the plugin \(what) while it was loaded\(place)"))
                report(ValidationCheck(name: "descriptor", status: .warn, message: "not read: loading stopped before the descriptor"))
                return results
            }
            let index = min(running.index, list.count - 1)
            report(ValidationCheck(name: list[index], status: .fail, message: "the plugin \(what)\(place) during this check"))
            // The animator's other checks would only meet the same fault.
            let owner = list[index].split(separator: ":", maxSplits: 1).first.map(String.init)
            while results.count < list.count {
                let next = list[results.count]
                guard index < 2 || next.hasPrefix("\(owner ?? ""): ") else { break }
                report(ValidationCheck(name: next, status: .warn, message: "not run: the plugin \(what.hasPrefix("did not") ? "hung" : "failed") in an earlier check"))
            }
            if index < 2 { return results }
        }
        return results
    }

    static func now() -> Double { MonotonicClock().now }
}

/// A child `segue validate --worker` process: its lines come on a pipe, its
/// plugin calls are recorded in shared memory, and it ends with its parent.
final class ValidationChild {
    let process: ChildProcess
    private let reader: Int32
    private let memory: SharedMemory
    private var buffer: [UInt8] = []

    init(arguments: [String]) throws {
        guard let fds = closeOnExecPipe(), let memory = SharedMemory(size: ValidationProgress.size) else {
            throw SpawnError(executable: "segue", reason: Errno.current.description)
        }
        defer { close(fds.write) }
        do {
            process = try ChildProcess(executable: PluginSearchPath.currentExecutable(), arguments: arguments,
                                       descriptors: [fds.write, memory.descriptor], label: "the plugin being validated")
        } catch {
            close(fds.read)
            throw error
        }
        (reader, self.memory) = (fds.read, memory)
    }

    deinit {
        close(reader)
        process.kill()
    }

    /// The complete lines that arrived, waiting at most `seconds` for the first.
    func lines(waiting seconds: Double) -> [String] {
        var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        // Through SystemCall: a signal that interrupts the wait or the read does not end the loop.
        var chunk = [UInt8](repeating: 0, count: 65536)
        while (try? SystemCall.poll(&poller, until: MonotonicTime.now + seconds)) ?? 0 > 0 {
            // One read of what is there (reading to the end would wait for the child to close the pipe).
            let n = (try? chunk.withUnsafeMutableBytes { bytes throws(Errno) in try SystemCall.read(reader, into: bytes) }) ?? 0
            if n <= 0 { break }
            buffer += chunk[0..<n]
            if seconds > 0 { break }
        }
        var result: [String] = []
        while let newline = buffer.firstIndex(of: 10) {
            result.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
        return result
    }

    /// How many plugin calls the child has begun.
    var calls: UInt32 { ValidationProgress.calls(memory) }

    /// Where the plugin was when the child died, and how to run that context again.
    func place(path: String, arguments: [String]) -> String {
        guard let p = ValidationProgress.read(memory) else { return "" }
        let at = p.t.map { " at t = \(String(format: "%.3f", $0)) s" } ?? ""
        // The forwarded arguments start with --strictness N --seed S.
        let again = ["segue", "validate", path] + arguments.prefix(4) + ["--context", "\(p.context)", "--in-process"]
        return " in \(p.call)\(at), context \(p.context) of the matrix (\(p.label)); to run that context alone in one process, for a debugger: \(again.joined(separator: " "))"
    }
}
