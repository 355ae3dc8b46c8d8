import Glibc
import ProcessShims

// The system calls Segue makes where an interruption or an error must be
// handled, behind one thin layer (swift-system's habit): each call is retried
// when a signal interrupts it (EINTR) and reports failure as a typed
// ``Errno`` instead of -1 and a global. Callers decide what an error means.

/// The error a system call failed with.
package struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    package let code: Int32

    package init(_ code: Int32) { self.code = code }

    /// The calling thread's `errno`, now.
    package static var current: Errno { Errno(errno) }

    /// The C library's words for it: "No such file or directory".
    package var description: String { String(cString: strerror(code)) }

    package static let noSuchFile = Errno(ENOENT)
    package static let noSpace = Errno(ENOSPC)
    package static let noChild = Errno(ECHILD)
    /// Nothing to read yet on a non-blocking descriptor (EAGAIN, EWOULDBLOCK), or a receive timeout passed.
    package var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
}

/// Calls `call` until a signal does not interrupt it.
/// - Returns: what it returned, unless that was -1.
/// - Throws: the ``Errno`` it failed with, EINTR excepted.
@inline(__always)
package func retryingInterrupts<T: SignedInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if error.code != EINTR { throw error }
    }
}

/// System calls on descriptors, each retried when interrupted.
package enum SystemCall {
    /// Reads at most `buffer.count` bytes; 0 at the end of the file.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads until the end of the file or `limit` bytes, whichever comes first.
    package static func read(_ fd: Int32, upTo limit: Int) throws(Errno) -> [UInt8] {
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(limit, 1), 1 << 16), alignment: 1)
        defer { piece.deallocate() }
        var bytes: [UInt8] = []
        while bytes.count < limit {
            let n = try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: piece[..<min(piece.count, limit - bytes.count)]))
            if n == 0 { break }
            bytes += piece[..<n]
        }
        return bytes
    }

    /// Writes all of `bytes`, retrying short writes.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try retryingInterrupts { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
        }
    }

    /// Receives one message of at most `buffer.count` bytes; 0 when the other end closed.
    package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32) throws(Errno) -> Int {
        try retryingInterrupts { recv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// ``poll(_:until:)`` for one descriptor, without an array: a render
    /// thread's wait for a worker allocates nothing.
    package static func poll(_ fd: inout pollfd, until deadline: Double?) throws(Errno) -> Int {
        Int(try retryingInterrupts { withTimeout(until: deadline) { process_shims_poll(&fd, 1, $0) } })
    }

    /// Waits until one of `fds` is ready or `deadline` (``MonotonicTime``; nil:
    /// none) passes; an interruption waits again for what is left.
    /// - Returns: how many are ready, 0 when the deadline passed.
    package static func poll(_ fds: inout [pollfd], until deadline: Double?) throws(Errno) -> Int {
        let count = nfds_t(fds.count)
        return Int(try retryingInterrupts { withTimeout(until: deadline) { process_shims_poll(&fds, count, $0) } })
    }

    /// Calls `body` with the time left until `deadline` to the nanosecond (a
    /// bound under a millisecond holds as set; poll's whole milliseconds made
    /// 0.8 ms none), zero once it has passed, or nil for none.
    private static func withTimeout<R>(until deadline: Double?, _ body: (UnsafePointer<timespec>?) -> R) -> R {
        guard let deadline else { return body(nil) }
        let left = max(0, deadline - MonotonicTime.now)
        var timeout = timespec(tv_sec: Int(left), tv_nsec: min(Int((left - left.rounded(.down)) * 1e9), 999_999_999))
        return body(&timeout)
    }

    /// Waits for child `pid` to change state (`options`: `WNOHANG` not to wait).
    /// - Returns: the child's pid and its status, or nil when `WNOHANG` found it still running.
    package static func wait(for pid: pid_t, options: Int32) throws(Errno) -> Int32? {
        var status: Int32 = 0
        let result = try retryingInterrupts { waitpid(pid, &status, options) }
        return result == pid ? status : nil
    }
}
