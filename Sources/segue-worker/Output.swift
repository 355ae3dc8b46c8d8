import Foundation
import Glibc
import HostContainer

/// The worker's standard streams and its tie to the host.
enum Output {
    /// The host's standard error, kept apart from the descriptors plugins write to.
    nonisolated(unsafe) static var hostError: Int32 = 2

    static func write(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = Glibc.write(hostError, bytes.baseAddress, bytes.count) }
    }

    /// Plugins' writes to standard error reach the host's, each line marked.
    static func relayStandardError() {
        hostError = dup(2)
        relay(into: [2], label: "a plugin being scanned wrote")
        PluginLoader.setLogHandler(logLine)
    }

    /// Plugins' writes to standard output and error reach the host's standard error, each line marked.
    static func relayStandardOutputAndError(as file: String) {
        hostError = dup(2)
        relay(into: [1, 2], label: "plugin \(file) wrote")
        PluginLoader.setLogHandler(logLine)
    }

    @Sendable static func logLine(_ m: PluginLogMessage) {
        write("segue: [\(m.level)] \(m.plugin): \(m.message)")
    }

    /// A close-on-exec pipe: read end, write end.
    static func pipe(nonblockingRead: Bool) -> [Int32]? {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        if nonblockingRead { _ = fcntl(fds[0], F_SETFL, O_NONBLOCK) }
        return fds
    }

    /// Points `descriptors` at a pipe whose lines a thread writes to the host's standard error, escaped and marked.
    private static func relay(into descriptors: [Int32], label: String) {
        guard let fds = pipe(nonblockingRead: false) else { return }
        for d in descriptors { dup2(fds[1], d) }
        close(fds[1])
        let reader = fds[0]
        Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, 4096) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
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
        }.start()
    }
}
