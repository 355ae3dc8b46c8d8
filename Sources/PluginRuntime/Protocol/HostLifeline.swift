import Glibc
import SystemCalls

/// The child's side of "a child never outlives the host": a thread that ends
/// this process as soon as the host's end of a socket or pipe closes, which
/// the kernel does when the host exits or is killed, however busy the main
/// thread is (a plugin spinning in an endless loop included).
package enum HostLifeline {
    /// Ends this process with `_exit(0)` when the peer of `descriptor` closes.
    package static func exitWhenClosed(_ descriptor: Int32) {
        detachThread {
            var poller = pollfd(fd: descriptor, events: 0, revents: 0)
            while true {
                if poll(&poller, 1, -1) > 0 && poller.revents & Int16(POLLHUP | POLLERR) != 0 { _exit(0) }
            }
        }
    }
}
