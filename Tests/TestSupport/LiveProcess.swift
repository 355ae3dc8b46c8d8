import Foundation
import Glibc

/// A program left running while a test talks to it: its output is collected
/// as it comes, every wait has a deadline, and it is killed if the test ends first.
public final class LiveProcess: @unchecked Sendable {
    public let process = Process()
    private let lock = NSCondition()
    private var out = "", err = ""

    public init(_ program: String, _ arguments: [String], in folder: String, environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var env = guardedEnvironment()
        env["SEGUE_REGISTRY_CACHE"] = Paths.testCache
        env["XDG_DATA_HOME"] = Paths.emptyDataHome
        env["XDG_CONFIG_HOME"] = Paths.emptyConfigHome
        env["SEGUE_PLUGIN_PATH"] = nil
        env["SEGUE_PLUGIN_SYSTEM_PATH"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let outPipe = Pipe(), errPipe = Pipe()
        (process.standardOutput, process.standardError) = (outPipe, errPipe)
        process.standardInput = FileHandle.nullDevice
        // A test runs on a Dispatch worker thread, which blocks most signals, and a child starts with the
        // mask of the thread that started it: the program would not hear SIGTERM, and `stop(with:)` would
        // wait out its deadline. It is started with none blocked, as from a shell.
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
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

    /// Standard error so far.
    public var standardError: String { lock.withLock { err } }

    /// Waits until standard output holds `text` `count` times; the output so
    /// far either way (check with `contains`).
    @discardableResult
    public func waitForOutput(_ text: String, count: Int = 1, timeout: Double = 30) -> String {
        waitFor(timeout) { $0.out.components(separatedBy: text).count > count }
        return lock.withLock { out }
    }

    /// Waits until standard error holds `text`; standard error so far.
    @discardableResult
    public func waitForError(_ text: String, timeout: Double = 30) -> String {
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
    public func stop(with signal: Int32, timeout: Double = 10) -> Int32? {
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
