import Foundation
import PluginRuntime
import SystemCalls

/// What a child process prints, relayed to this process's standard error on
/// a thread of its own: each line escaped (a plugin's bytes never reach the
/// terminal raw), marked with whose it is, and held to a budget, so that a
/// plugin that prints without end costs neither the user's terminal nor the
/// host's memory. Lines the child marks itself (`segue: [warning] NAME: ...`,
/// a plugin's log message as the worker writes it; a scanner's `segue: plugin
/// FILE wrote: ...`) keep their mark; any other line, what a plugin printed,
/// is marked `segue: LABEL wrote: `. The relay ends when every holder of the
/// pipe's write end has closed it (the child and whatever it started).
package final class OutputRelay: @unchecked Sendable {  // `label` is guarded by `lock`
    /// Bytes of lines relayed per child process (per plugin and run, for a worker).
    package static let budget = 64 << 10
    /// Lines relayed per second at most; lines past it, in that second, are dropped.
    package static let linesPerSecond = 200
    /// The longest line relayed whole; a longer one is cut there.
    package static let longestLine = 4096

    /// Budget in words, for messages and the docs.
    package static let budgetText = "64 KiB a run and \(linesPerSecond) lines a second"

    private let lock = NSLock()
    private var label: String

    /// Starts relaying what arrives on `reader` (which the relay closes at its end).
    package init(reading reader: Int32, label: String) {
        self.label = label
        detachThread { [self] in run(reader) }
    }

    /// Whose lines these are from now on ("plugin /path/libX.so"): a worker
    /// started ahead learns its plugin later.
    package func relabel(_ label: String) { lock.withLock { self.label = label } }

    private var currentLabel: String { lock.withLock { label } }

    private func run(_ reader: Int32) {
        defer { close(reader) }
        var line: [UInt8] = []
        line.reserveCapacity(Self.longestLine)
        var budget = Budget()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            guard let n = try? chunk.withUnsafeMutableBytes({ bytes throws(Errno) in try SystemCall.read(reader, into: bytes) }),
                  n > 0 else { break }
            var start = 0
            while start < n {
                let end = chunk.withUnsafeBytes { all in
                    memchr(all.baseAddress! + start, 10, n - start).map { UnsafeRawPointer($0) - all.baseAddress! } ?? n
                }
                let take = min(end - start, Self.longestLine - line.count)
                line += chunk[start..<start + take]
                budget.dropped(bytes: end - start - take)  // the part of a line past the longest
                if end < n {
                    if !line.isEmpty { emit(line, &budget) }
                    line.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
        }
        if !line.isEmpty { emit(line, &budget) }
        if budget.droppedLines > 0 || budget.droppedBytes > 0 {
            writeAll("segue: \(currentLabel): \(budget.droppedLines) lines (\(budget.droppedBytes) bytes) of its output dropped, over its budget of \(Self.budgetText)\n")
        }
    }

    private func emit(_ line: [UInt8], _ budget: inout Budget) {
        switch budget.admit(bytes: line.count + 1, now: MonotonicTime.now) {
        case .drop: return
        case .dropWithNotice:
            writeAll("segue: \(currentLabel): printing more than its budget of \(Self.budgetText); the lines past it are dropped\n")
            return
        case .relay:
            let text = PluginText.escaped(line)
            writeAll((text.hasPrefix("segue: ") ? text : "segue: \(currentLabel) wrote: \(text)") + "\n")
        }
    }

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
