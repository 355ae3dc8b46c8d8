import Glibc
import SystemCalls
import TestSupport
import Testing

/// What a call interrupted on another thread answered, and that thread.
private final class InterruptedCall<T>: @unchecked Sendable {  // guarded by `lock`
    let lock = Lock()
    var thread: pthread_t?
    var result: T?
}

/// A handler without SA_RESTART for SIGUSR2, so that the kernel ends a
/// blocked call with EINTR. Installed once and left: restoring the default
/// (which ends the process) could let a signal still on its way kill the run.
private let interruptingHandler: Bool = {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    return sigaction(SIGUSR2, &action, nil) == 0
}()

/// The thin layer every interruptible system call goes through. Serialized:
/// its interrupting tests signal threads of their own.
@Suite(.serialized) struct SystemCallTests {
    /// Runs `call` on a thread of its own that a signal without SA_RESTART
    /// interrupts five times while it waits on a pipe, then writes a byte to
    /// the pipe; what `call` answered.
    static func interrupted<T: Sendable>(_ call: @escaping @Sendable (Int32) -> T) throws -> T? {
        #expect(interruptingHandler, "SIGUSR2's handler is installed")

        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let outcome = InterruptedCall<T>()
        let reader = fds[0]
        #expect(detachThread {
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)  // the test runner's threads may block it
            outcome.lock.withLock { outcome.thread = pthread_self() }
            let got = call(reader)
            outcome.lock.withLock { outcome.result = got }
        })
        // Signal the caller while it waits (it may take a moment to block), then give it its byte.
        let deadline = MonotonicTime.now + 10
        while outcome.lock.withLock({ outcome.thread == nil }), MonotonicTime.now < deadline { usleep(1000) }
        let thread = try #require(outcome.lock.withLock { outcome.thread })
        for _ in 0..<5 {
            usleep(10_000)
            pthread_kill(thread, SIGUSR2)
        }
        var byte: UInt8 = 42
        #expect(write(fds[1], &byte, 1) == 1)
        while outcome.lock.withLock({ outcome.result == nil }), MonotonicTime.now < deadline { usleep(1000) }
        return outcome.lock.withLock { outcome.result }
    }

    @Test func aReadInterruptedByASignalIsRetriedAndGetsItsBytes() throws {
        let result = try Self.interrupted { reader in Result { () throws(Errno) in try SystemCall.read(reader, upTo: 1) } }
        #expect(result == .success([42]), "interrupted, it waited again instead of failing")
    }

    @Test func aPollInterruptedByASignalWaitsAgainForWhatIsLeft() throws {
        let result = try Self.interrupted { reader in
            var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            return Result { () throws(Errno) in try SystemCall.poll(&poller, until: MonotonicTime.now + 10) }
        }
        #expect(result == .success(1), "interrupted, it waited again until the byte came instead of failing")
    }

    @Test func aFailureIsATypedErrnoWithTheLibrarysWords() {
        #expect(throws: Errno(EBADF)) { try SystemCall.read(-1, upTo: 8) }
        #expect(Errno(ENOENT).description == "No such file or directory")
        #expect(Errno(EAGAIN).wouldBlock && !Errno(EBADF).wouldBlock)
    }

    @Test func aPollWhoseDeadlineHasPassedReportsNothingReady() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var waiting = [pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)]
        #expect(try SystemCall.poll(&waiting, until: MonotonicTime.now - 1) == 0)
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(try SystemCall.poll(&waiting, until: MonotonicTime.now + 10) == 1)
    }
}
