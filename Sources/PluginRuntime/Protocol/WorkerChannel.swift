import Glibc
import ProcessShims
import SystemCalls

/// One end of the host–worker conversation: fixed-size messages over a
/// `SOCK_SEQPACKET` socket (boundaries kept, one message per read), with a
/// deadline on every wait. A message of the wrong size is a protocol error.
package struct WorkerChannel: Sendable {
    package let descriptor: Int32

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A connected pair, both ends close-on-exec.
    package static func pair() -> (WorkerChannel, WorkerChannel)? {
        var fds: [Int32] = [0, 0]
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { return nil }
        return (WorkerChannel(descriptor: fds[0]), WorkerChannel(descriptor: fds[1]))
    }

    /// Why a message did not arrive.
    package enum Failure: Error, Equatable {
        /// Nothing within the deadline.
        case timedOut
        /// The other end closed (it exited or crashed).
        case closed
        /// A message of the wrong size.
        case malformed(Int)
        /// A reply from a worker of another build, which speaks this protocol version.
        case otherVersion(UInt32)
    }

    /// Sends `message`; false when the other end is gone. Never raises SIGPIPE.
    @discardableResult
    package func send<T: BitwiseCopyable>(_ message: T) -> Bool {
        withUnsafeBytes(of: message) { bytes in
            Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
        }
    }

    /// Sends `message` with `descriptor` attached (`SCM_RIGHTS`; -1 for
    /// none); false when the other end is gone.
    @discardableResult
    package func send<T: BitwiseCopyable>(_ message: T, passing descriptor: Int32) -> Bool {
        withUnsafeBytes(of: message) { bytes in
            process_shims_send_with_descriptor(self.descriptor, bytes.baseAddress, bytes.count, descriptor) == 0
        }
    }

    /// Waits as ``receiveReply(within:)`` does for a reply that may carry a
    /// descriptor (``send(_:passing:)``); the caller owns the descriptor.
    package func receiveReplyWithDescriptor(within seconds: Double) -> Result<(WorkerReply, Int32?), Failure> {
        var poller = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        do {
            if try SystemCall.poll(&poller, until: MonotonicTime.now + seconds) == 0 { return .failure(.timedOut) }
        } catch {
            return .failure(.closed)
        }
        let size = MemoryLayout<WorkerReply>.size
        var fd: Int32 = -1
        let (got, reply) = withUnsafeTemporaryAllocation(byteCount: size + 1, alignment: MemoryLayout<WorkerReply>.alignment) { buffer in
            let got = process_shims_receive_with_descriptor(descriptor, buffer.baseAddress, size + 1, &fd)
            return (got, got == size ? buffer.load(as: WorkerReply.self) : nil)
        }
        guard let reply else {
            if fd >= 0 { Glibc.close(fd) }
            return .failure(got <= 0 ? .closed : .malformed(got))
        }
        switch Self.checked(reply) {
        case .success: return .success((reply, fd >= 0 ? fd : nil))
        case .failure(let why):
            if fd >= 0 { Glibc.close(fd) }
            return .failure(why)
        }
    }

    /// `reply`, unless it comes from a worker of another build.
    private static func checked(_ reply: WorkerReply) -> Result<WorkerReply, Failure> {
        reply.version == WorkerReply.protocolVersion ? .success(reply) : .failure(.otherVersion(reply.version))
    }

    /// Makes a blocking ``receive(_:within:)`` with no deadline give up after
    /// `seconds` (`SO_RCVTIMEO`): one system call per message instead of a
    /// poll and a read, for a caller whose every wait has the same deadline.
    package func setReceiveTimeout(_ seconds: Double) {
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Waits as ``receive(_:within:)`` does for a worker's reply, and refuses
    /// one whose protocol version is not this build's.
    package func receiveReply(within seconds: Double?) -> Result<WorkerReply, Failure> {
        receive(WorkerReply.self, within: seconds).flatMap(Self.checked)
    }

    /// Waits at most `seconds` (forever when nil, or until the timeout of
    /// ``setReceiveTimeout(_:)``) for one message of type `T`.
    package func receive<T: BitwiseCopyable>(_: T.Type, within seconds: Double?) -> Result<T, Failure> {
        // A message already queued (the usual case after the host spun for it) needs no poll.
        if seconds != nil, let queued = read(T.self, flags: Int32(MSG_DONTWAIT)) { return queued }
        if let seconds {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            do {
                if try SystemCall.poll(&poller, until: MonotonicTime.now + seconds) == 0 { return .failure(.timedOut) }
            } catch {
                return .failure(.closed)
            }
        }
        return read(T.self, flags: 0) ?? .failure(.closed)
    }

    /// One message, or nil when `MSG_DONTWAIT` found none.
    private func read<T: BitwiseCopyable>(_: T.Type, flags: Int32) -> Result<T, Failure>? {
        let size = MemoryLayout<T>.size
        // One byte more than a message, so that a longer one shows as malformed.
        return withUnsafeTemporaryAllocation(byteCount: size + 1, alignment: MemoryLayout<T>.alignment) { buffer in
            let got: Int
            do throws(Errno) {
                got = try SystemCall.receive(descriptor, into: buffer, flags: flags)
            } catch where error.wouldBlock {
                // None queued (MSG_DONTWAIT), or none within SO_RCVTIMEO.
                return flags != 0 ? nil : .failure(.timedOut)
            } catch {
                return .failure(.closed)
            }
            if got == 0 { return .failure(.closed) }
            guard got == size else { return .failure(.malformed(got)) }
            return .success(buffer.load(as: T.self))
        }
    }

    package func close() { _ = Glibc.close(descriptor) }
}

extension SharedMemory {
    /// The UInt32 at `offset`, read with acquire ordering.
    package func loadAcquire(at offset: Int) -> UInt32 {
        UInt32(process_shims_load_acquire((base + offset).assumingMemoryBound(to: UInt32.self)))
    }

    /// Stores `value` at `offset` with release ordering.
    package func storeRelease(_ value: UInt32, at offset: Int) {
        process_shims_store_release((base + offset).assumingMemoryBound(to: UInt32.self), value)
    }

    /// Spins until the UInt32 at `offset` differs from `value`, for at most
    /// `seconds`. A frame's answer usually comes sooner than a sleep and a
    /// wake-up would take, so the host waits this way before it sleeps.
    /// - Returns: whether it changed.
    package func spin(whileEqual value: UInt32, at offset: Int, seconds: Double) -> Bool {
        let deadline = MonotonicTime.now + seconds
        while true {
            for _ in 0..<64 {
                if loadAcquire(at: offset) != value { return true }
                process_shims_spin_pause()
            }
            if MonotonicTime.now > deadline { return false }
        }
    }
}

/// A shared-memory region, mapped in the host and in one worker. The host
/// copies out of it before it validates or uses anything, and never reads a
/// pointer or a size from it: the worker runs plugin code and may write
/// anything here at any time.
package final class SharedMemory: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let size: Int
    /// The memfd, to pass to the worker.
    package let descriptor: Int32

    /// A new region of `size` bytes, zeroed.
    package init?(size: Int) {
        let fd = process_shims_shared_memory("segue-worker", size)
        guard fd >= 0, let mapped = Self.map(fd, size) else { return nil }
        (base, self.size, descriptor) = (mapped, size, fd)
    }

    /// Maps the region another process made and passed as `descriptor`.
    package init?(descriptor fd: Int32, size: Int) {
        guard let mapped = Self.map(fd, size) else { return nil }
        (base, self.size, descriptor) = (mapped, size, fd)
    }

    private static func map(_ fd: Int32, _ size: Int) -> UnsafeMutableRawPointer? {
        let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        return p == MAP_FAILED ? nil : p
    }

    deinit {
        munmap(base, size)
        Glibc.close(descriptor)
    }

    /// Writes `bytes` at `offset`; false when they do not fit in `capacity`.
    package func write(_ bytes: [UInt8], at offset: Int, capacity: Int) -> Bool {
        guard bytes.count <= capacity, offset + capacity <= size else { return false }
        bytes.withUnsafeBytes { (base + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return true
    }

    /// A private copy of `count` bytes at `offset`, clamped to `capacity`.
    package func copy(at offset: Int, count: Int, capacity: Int) -> [UInt8] {
        let n = max(0, min(count, capacity, size - offset))
        return Array(UnsafeRawBufferPointer(start: base + offset, count: n))
    }
}
