import Foundation
import PluginRuntime
import SystemCalls

/// What a child process prints, relayed to this process's standard error on
/// a thread of its own: each line escaped (a plugin's bytes never reach the
/// terminal raw), marked with whose it is, and held to a budget, so that a
/// plugin that prints without end costs neither the user's terminal nor the
/// host's memory. A child that runs no plugin code marks its own lines (a
/// scanner relays what each file's process printed as `segue: plugin FILE
/// wrote: ...`), and they keep their mark. In a process that runs plugin code
/// (a worker) the plugin can write anything, `segue: ` included: every line is
/// marked with the label, `segue: LABEL: ...` for one the worker marked (a
/// log message, `[warning] NAME: ...`), `segue: LABEL wrote: ...` for any
/// other. The relay ends when every holder of the pipe's write end has closed
/// it (the child and whatever it started).
package final class OutputRelay: @unchecked Sendable {  // mutable state is guarded by `lock`
    /// Bytes of lines relayed per child process (per plugin and run, for a worker).
    package static let budget = 64 << 10
    /// Lines relayed per second at most; lines past it, in that second, are dropped.
    package static let linesPerSecond = 200
    /// The longest line relayed whole; a longer one is cut there.
    package static let longestLine = 4096

    /// Budget in words, for messages and the docs.
    package static let budgetText = "64 KiB a run and \(linesPerSecond) lines a second"

    // Guarded by `lock`: the relay's thread and ``drainAll()`` both read the pipe under it.
    private let lock = NSLock()
    private var label: String
    /// Whether plugin code runs in the child, so that no mark of its own is trusted.
    private let runsPluginCode: Bool
    /// Where the relayed lines go: the output of the registry that started the child.
    private let output: PluginOutput
    private let reader: Int32
    private var line: [UInt8] = []
    private var budget = Budget()
    private var finished = false

    /// Starts relaying what arrives on `reader` (which the relay closes at
    /// its end) to `output`; `runsPluginCode`: the child runs plugin code, so
    /// every line is marked with `label`.
    package init(reading reader: Int32, label: String, runsPluginCode: Bool, output: PluginOutput) {
        (self.reader, self.label, self.runsPluginCode, self.output) = (reader, label, runsPluginCode, output)
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        Self.liveLock.withLock {
            Self.live.removeAll { $0.relay == nil }
            Self.live.append(Weak(relay: self))
        }
        _ = Self.drainAtExit
        detachThread { [self] in run() }
    }

    /// Whose lines these are from now on ("plugin /path/libX.so"): a worker
    /// started ahead learns its plugin later.
    package func relabel(_ label: String) { lock.withLock { self.label = label } }

    private func run() {
        var poller = [pollfd(fd: reader, events: Int16(POLLIN), revents: 0)]
        while lock.withLock({ !finished }) {
            _ = try? SystemCall.poll(&poller, until: nil)
            lock.withLock { take() }
        }
    }

    /// Relays what the pipe holds now; at its end, what was left and what was dropped. Called with `lock` held.
    private func take() {
        guard !finished else { return }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { bytes throws(Errno) in try SystemCall.read(reader, into: bytes) }
            } catch let error as Errno where error.wouldBlock {
                return
            } catch {
                n = 0
            }
            guard n > 0 else { break }
            var start = 0
            while start < n {
                let end = chunk.withUnsafeBytes { all in
                    memchr(all.baseAddress! + start, 10, n - start).map { UnsafeRawPointer($0) - all.baseAddress! } ?? n
                }
                let take = min(end - start, Self.longestLine - line.count)
                line += chunk[start..<start + take]
                budget.dropped(bytes: end - start - take)  // the part of a line past the longest
                if end < n {
                    if !line.isEmpty { emit(line) }
                    line.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
        }
        finished = true
        close(reader)
        if !line.isEmpty { emit(line) }
        if budget.droppedLines > 0 || budget.droppedBytes > 0 {
            deliver("segue: \(label): \(budget.droppedLines) lines (\(budget.droppedBytes) bytes) of its output dropped, over its budget of \(Self.budgetText)\n")
        }
    }

    private func emit(_ line: [UInt8]) {
        switch budget.admit(bytes: line.count + 1, now: MonotonicTime.now) {
        case .drop: return
        case .dropWithNotice:
            deliver("segue: \(label): printing more than its budget of \(Self.budgetText); the lines past it are dropped\n")
            return
        case .relay:
            let text = PluginText.escaped(line), marked = text.hasPrefix("segue: ")
            switch (marked, runsPluginCode) {
            case (true, false): deliver(text + "\n")
            case (true, true): deliver("segue: \(label): \(text.dropFirst("segue: ".count))\n")
            case (false, _): deliver("segue: \(label) wrote: \(text)\n")
            }
        }
    }

    private func deliver(_ line: String) { output.deliver(line) }

    /// Relays, on the calling thread, whatever every relay's pipe holds,
    /// a last line without its newline included: at exit, what a worker
    /// printed before the host's last answer is printed even if the relay's
    /// thread has not run since, or the worker has not ended its line.
    package static func drainAll() {
        for relay in liveLock.withLock({ live.compactMap(\.relay) }) {
            relay.lock.withLock {
                relay.take()
                if !relay.line.isEmpty { relay.emit(relay.line) }
                relay.line.removeAll()
            }
        }
    }

    private struct Weak { weak var relay: OutputRelay? }
    private static let liveLock = NSLock()
    nonisolated(unsafe) private static var live: [Weak] = []  // guarded by `liveLock`
    private static let drainAtExit: Void = { atexit { OutputRelay.drainAll() } }()

    /// The bytes and lines relayed so far, and those dropped.
    struct Budget {
        var relayedBytes = 0
        var windowStart = -Double.infinity
        var linesInWindow = 0
        var droppedLines = 0
        var droppedBytes = 0

        enum Verdict { case relay, drop, dropWithNotice }

        mutating func admit(bytes: Int, now: Double) -> Verdict {
            if now - windowStart >= 1 { (windowStart, linesInWindow) = (now, 0) }
            guard relayedBytes + bytes <= OutputRelay.budget, linesInWindow < OutputRelay.linesPerSecond else {
                let first = droppedLines == 0
                droppedLines += 1
                droppedBytes += bytes
                return first ? .dropWithNotice : .drop
            }
            relayedBytes += bytes
            linesInWindow += 1
            return .relay
        }

        mutating func dropped(bytes: Int) { droppedBytes += bytes }
    }
}

/// Where the lines a registry's plugins print go, as its relays mark and
/// escape them: standard error unless the host says otherwise. A library
/// that hosts plugins inside another program (libsegue) hands each player's
/// lines to that player's program, so two players each hear only their own
/// plugins. Equal only to itself.
public final class PluginOutput: Sendable, Equatable {
    /// Called on a relay's thread with each line, escaped, marked, with its newline.
    let deliver: @Sendable (String) -> Void

    /// An output that hands each line to `deliver`.
    public init(_ deliver: @escaping @Sendable (String) -> Void) { self.deliver = deliver }

    /// This process's standard error.
    public static let standardError = PluginOutput { writeAll($0) }

    public static func == (a: PluginOutput, b: PluginOutput) -> Bool { a === b }
}
