import Glibc
import SystemCalls

/// What waits for the program's dispatch call: events posted by any thread of
/// libsegue's, and a descriptor (a pipe's read end) that is readable while any wait.
/// Bounded: past ``capacity`` events, the oldest log lines give way, and one
/// line says how many were dropped.
final class EventQueue: @unchecked Sendable {  // guarded by `lock`
    /// One event, as the program will receive it.
    struct Event {
        var kind: UInt32
        var level: UInt32
        var message: String
        /// For a fallback: the transition (unretained; the program owns it).
        var transition: UnsafeMutableRawPointer?
        /// For a change on disk: the paths, applied by dispatch.
        var changed: Set<String>?
    }

    /// The most events that wait at once.
    static let capacity = 1024

    /// The pipe's read end, for the program's event loop.
    let descriptor: Int32
    private let writeEnd: Int32
    private let lock = Lock()
    private var pending: [Event] = []
    private var dropped = 0

    init?() {
        guard let pipe = closeOnExecPipe(nonblockingRead: true) else { return nil }
        (descriptor, writeEnd) = pipe
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Queues `event` and makes the descriptor readable. [any thread]
    func post(_ event: Event) {
        lock.withLock {
            if pending.count >= Self.capacity, let oldest = pending.firstIndex(where: { $0.changed == nil && $0.transition == nil }) {
                pending.remove(at: oldest)
                dropped += 1
            }
            pending.append(event)
            // One byte while any event waits: the pipe never fills.
            if pending.count == 1 {
                let byte: UInt8 = 1
                _ = try? withUnsafeBytes(of: byte) { bytes throws(Errno) in try SystemCall.write(writeEnd, bytes) }
            }
        }
    }

    /// Names no longer `transition` in the events waiting: the program freed it. [any thread]
    func forget(transition: UnsafeMutableRawPointer) {
        lock.withLock {
            for i in pending.indices where pending[i].transition == transition { pending[i].transition = nil }
        }
    }

    /// Every event waiting, oldest first, and the descriptor no longer readable.
    func take() -> (events: [Event], dropped: Int) {
        lock.withLock {
            var byte: UInt8 = 0
            while (try? withUnsafeMutableBytes(of: &byte) { bytes throws(Errno) in try SystemCall.read(descriptor, into: bytes) }) == 1 {}
            defer { (pending, dropped) = ([], 0) }
            return (pending, dropped)
        }
    }
}
