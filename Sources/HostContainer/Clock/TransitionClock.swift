import Glibc

/// The time source that drives transitions. The embedding app owns it: a real
/// clock for people, a virtual one for tests and previews.
public protocol TransitionClock: AnyObject {
    /// Seconds since an arbitrary origin; never decreases.
    var now: Double { get }
}

/// A clock that moves only when told to: deterministic frames for tests and previews.
public final class VirtualClock: TransitionClock {
    /// The current virtual time, in seconds.
    public private(set) var now: Double

    /// A clock that starts at `start` seconds.
    public init(start: Double = 0) {
        now = start
    }

    /// Moves the clock forward by `seconds` (negative values are ignored).
    public func advance(by seconds: Double) {
        if seconds > 0 { now += seconds }
    }

    /// Moves the clock forward to `time` (an earlier time is ignored).
    public func advance(to time: Double) {
        if time > now { now = time }
    }
}

/// The system's monotonic clock.
/// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
public final class MonotonicClock: TransitionClock {
    /// The system's monotonic clock.
    public init() {}

    /// Seconds since an unspecified point in the past (typically boot).
    public var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
