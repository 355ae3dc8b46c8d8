/// How long an animator's evaluations of one transition took on the
/// system's monotonic clock, whatever clock drove the transition: what
/// decides whether it plays smoothly or stutters in a host that draws at a
/// display's rate. For a plugin in a worker process, an evaluation is the
/// whole round trip.
public struct EvaluationTiming: Equatable, Sendable {
    /// How many evaluations were timed.
    public var count: Int
    /// The median, in seconds (of the last ``ActiveTransition/timedEvaluations``
    /// when there were more).
    public var median: Double
    /// The slowest, in seconds.
    public var slowest: Double
    /// How many took longer than ``frameAt60Hz``.
    public var overAFrame: Int

    /// A frame at 60 Hz, in seconds.
    public static let frameAt60Hz = 1.0 / 60

    /// Timing of the evaluations that took `seconds` each, in any order;
    /// nil when there were none.
    /// - Complexity: O(n log n), for the median: call it once a transition.
    public init?(_ seconds: some Collection<Double>, count: Int, slowest: Double, overAFrame: Int) {
        guard !seconds.isEmpty else { return nil }
        let sorted = seconds.sorted()
        (self.count, median, self.slowest, self.overAFrame) = (count, sorted[sorted.count / 2], slowest, overAFrame)
    }

    /// Whether the animator is too slow for a display: a median over
    /// `budget` seconds. (Single slow evaluations are not enough: a busy
    /// system keeps any process waiting a frame now and then.)
    public func isSlow(budget: Double) -> Bool { median > budget }

    /// Whether frames will be missed at 60 Hz, rather than only squeezed.
    public var missesFrames: Bool { median > Self.frameAt60Hz }
}
