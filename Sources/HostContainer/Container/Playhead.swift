import Timing

/// Where a running transition is, as a fraction of its animator's duration,
/// and how that fraction moves with the clock.
///
/// Because animators are evaluated at times the host chooses, every kind of
/// motion (playing, scrubbing, finishing, cancelling, reversing, hurrying) is
/// just a different playhead over the same pure `evaluate(t)`: no animator
/// needs to know which one drives it.
enum Playhead: Equatable {
    /// Held by an interaction at a fraction.
    case held(Double)
    /// Moving from `origin` to `target` (0 or 1) over `seconds` from `start`,
    /// with `curve` shaping the way.
    case moving(origin: Double, target: Double, start: Double, seconds: Double, curve: TimingCurve)

    /// Playing forward from the start in the animator's own time.
    static func playing(duration: Double, from start: Double) -> Playhead {
        .moving(origin: 0, target: 1, start: start, seconds: duration, curve: .linear)
    }

    /// The fraction at `now`, in [0, 1].
    func fraction(at now: Double) -> Double {
        switch self {
        case .held(let f):
            return f
        case .moving(let origin, let target, let start, let seconds, let curve):
            if arrived(at: now) { return target }
            return origin + (target - origin) * curve.value(at: (now - start) / seconds)
        }
    }

    /// Whether a moving playhead has reached its target at `now`. Within a
    /// nanosecond of the end is the end: frame times summed in floating point
    /// land a hair short of it.
    func arrived(at now: Double) -> Bool {
        guard case .moving(_, _, let start, let seconds, _) = self else { return false }
        return now - start >= seconds - 1e-9
    }

    /// The end it is heading for: 1 (the to child) or 0 (back to the from child);
    /// nil while held.
    var target: Double? {
        if case .moving(_, let target, _, _, _) = self { return target }
        return nil
    }

    /// Moving from where it is at `now` to `target`, linearly at the pace of a
    /// transition of `duration` seconds played at `speed`, never longer than `limit`.
    static func heading(to target: Double, from fraction: Double, at now: Double, duration: Double,
                        speed: Double = 1, curve: TimingCurve = .linear, limit: Double = .infinity) -> Playhead {
        .moving(origin: fraction, target: target, start: now,
                seconds: min(abs(target - fraction) * duration / speed, limit), curve: curve)
    }
}
