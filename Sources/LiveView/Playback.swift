import HostConfig
import HostContainer

/// The live view's clock: wall-clock seconds times the playback speed, frozen
/// while paused, stepped a frame at a time by hand. Never goes back.
/// Not thread-safe: the live loop's thread owns it.
public final class PlaybackClock: TransitionClock {
    /// Scene seconds since the view opened.
    public private(set) var now = 0.0
    /// How fast scene time runs against the wall clock: 1, 0.25 or 0.1.
    public var speed = 1.0
    /// Whether scene time stands still (but for steps).
    public var isPaused = false

    /// The speeds `s` cycles through.
    public static let speeds = [1.0, 0.25, 0.1]

    /// Lets `seconds` of wall-clock time pass.
    func pass(_ seconds: Double) {
        if !isPaused, seconds > 0, seconds.isFinite { now += seconds * speed }
    }

    /// Moves scene time on by `seconds`, paused or not.
    func step(_ seconds: Double) {
        if seconds > 0 { now += seconds }
    }

    /// The next speed of the cycle.
    func cycleSpeed() {
        let index = Self.speeds.firstIndex(of: speed) ?? 0
        speed = Self.speeds[(index + 1) % Self.speeds.count]
    }
}

/// A transition shown again, on a container of its own: replayed, scrubbed or
/// stepped back through, while the live container stays where it is. Any
/// time can be shown; a time earlier than the last one builds the container
/// again (animators are evaluated as pure functions of time, so the frame is
/// the same).
final class Review {
    let from: String, to: String
    /// Seconds into the transition shown.
    private(set) var time = 0.0
    /// The transition's duration as its animator planned it.
    private(set) var duration = 0.0
    private(set) var container: ContainerViewController
    private var clock: VirtualClock
    private var origin = 0.0
    /// Builds the container anew at the transition's start, with its clock.
    private let make: () -> (ContainerViewController, VirtualClock)?

    /// A review of `from` -> `to`, or nil when no transition runs between them.
    init?(from: String, to: String, children: @escaping () -> [ViewController], size: Rect,
          delegate: any ContainerViewControllerDelegate) {
        (self.from, self.to) = (from, to)
        make = {
            let clock = VirtualClock()
            let container = ContainerViewController(name: "review", viewControllers: children(), size: size, clock: clock)
            // Reach `from` without an animator, then start the switch with the live delegate.
            guard (try? container.select(named: from)) != nil else { return nil }
            container.runUntilIdle(advancing: clock)
            container.delegate = delegate
            guard (try? container.select(named: to)) != nil, container.isTransitioning else { return nil }
            return (container, clock)
        }
        guard let (first, clock) = make() else { return nil }
        container = first
        self.clock = clock
        origin = clock.now
        duration = first.transitionDuration ?? 0
        container.tick()
    }

    /// Shows the transition at `t` seconds (clamped to 0...duration).
    func show(at t: Double) {
        let t = min(max(t, 0), duration)
        if t < time, let (again, clock) = make() {
            container = again
            self.clock = clock
            origin = clock.now
        }
        time = t
        clock.advance(to: origin + t)
        // At the very end the container completes and shows `to` at rest.
        container.tick()
    }
}
