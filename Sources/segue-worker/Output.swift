import Glibc
import PluginRuntime
import SystemCalls

/// The worker's standard streams and its tie to the host.
enum Output {
    /// The pipe the host relays (the worker's first standard error), kept
    /// apart from the descriptors plugins write to.
    nonisolated(unsafe) static var hostError: Int32 = 2

    static func write(_ line: String) {
        writeAll(line + "\n", to: hostError)
    }

    /// What plugins write to `descriptors` (standard output, error or both)
    /// reaches the host, each line escaped and marked with `label`; plugin
    /// log messages go there too. The host escapes and budgets them again.
    static func relay(_ descriptors: [Int32], label: String) {
        hostError = dup(2)
        PluginLoader.setLogHandler(logLine)
        guard let fds = closeOnExecPipe() else { return }
        for d in descriptors { dup2(fds.write, d) }
        close(fds.write)
        startRelay(from: fds.read, label: label)
    }

    @Sendable static func logLine(_ m: PluginLogMessage) {
        write("segue: [\(m.level)] \(m.plugin): \(m.message)")
    }

    /// A thread that writes the lines arriving on `reader` to the host's standard error.
    private static func startRelay(from reader: Int32, label: String) {
        detachThread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                guard let n = try? buffer.withUnsafeMutableBytes({ bytes throws(Errno) in try SystemCall.read(reader, into: bytes) }),
                      n > 0 else { return }
                pending += buffer[0..<n]
                while let newline = pending.firstIndex(of: 10) {
                    write("segue: \(label): \(PluginText.escaped(pending[..<newline]))")
                    pending.removeSubrange(...newline)
                }
                if pending.count > 1024 {
                    write("segue: \(label): \(PluginText.escaped(pending))")
                    pending.removeAll()
                }
            }
        }
    }
}
