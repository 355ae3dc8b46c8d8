import Glibc

// The plugin runtime runs in `segue-worker`, which does without Foundation so
// that it starts fast (a worker starts for every plugin file in use, scanners
// for every scan); these stand in for NSLock, Thread, FileHandle and a clock.

/// A mutual-exclusion lock (a pthread mutex).
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// Runs `body` on a new detached thread; false when none could be started.
@discardableResult
package func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, context)
    guard started == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        return false
    }
    pthread_detach(thread)
    return true
}

/// Writes `text` to `descriptor` (standard error unless given), whole; an
/// error (a closed pipe) loses the text, as it would for `FileHandle`.
package func writeAll(_ text: String, to descriptor: Int32 = 2) {
    var text = text
    text.withUTF8 { bytes in try? SystemCall.write(descriptor, UnsafeRawBufferPointer(bytes)) }
}

/// A pipe for talking to a child, both ends close-on-exec (the child gets an
/// end through ``ChildProcess``'s descriptors): read end, write end.
package func closeOnExecPipe(nonblockingRead: Bool = false) -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    if nonblockingRead { _ = fcntl(fds[0], F_SETFL, O_NONBLOCK) }
    return (fds[0], fds[1])
}

/// Seconds on the system's monotonic clock, for deadlines.
package enum MonotonicTime {
    package static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// `deadline` (``now``'s seconds) as the timespec a wait on a CLOCK_MONOTONIC condition takes.
    package static func absolute(_ deadline: Double) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(deadline.rounded(.down)), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
    }
}
