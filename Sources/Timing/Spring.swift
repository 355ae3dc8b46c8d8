import Glibc

/// A UIKit-style spring from duration, damping ratio and initial velocity: a
/// damped harmonic oscillator of mass 1 whose displacement x(t) starts at 1 with
/// velocity -v and decays towards 0; progress is 1 - x(t).
///
/// The undamped frequency ω0 comes from the duration as in the public
/// reimplementation of UIKit's duration-based spring that matches UIKit
/// (Framer's duration-to-stiffness solver): the coefficient of the sine term,
/// scaled by the decay, is 0.001 at the duration,
///
///     ((ζω0 - v) / ωd) · e^(-ζω0·T) = 0.001,  ωd = ω0·sqrt(1 - ζ²)    (ζ < 1)
///     (1 + (ω0 - v)·T) · e^(-ω0·T) = 0.001                            (ζ = 1)
///
/// so duration 3, damping 0.25, velocity 0 gives ω0 = 7.4050 (stiffness
/// ω0² = 54.8336). The root is taken on the branch where the left side falls
/// as ω0 grows (the only branch for v <= 0), bracketed and solved by Newton's
/// method with a bisection fallback, so it always converges.
///
/// Where the condition has no root (a low damping ratio with no velocity, or
/// a velocity so high that the coefficient never reaches 0.001), ω0 is chosen
/// so that the decay alone reaches 0.001 at the duration: e^(-ζω0·T) = 0.001.
public struct Spring: Equatable, Sendable {
    /// Seconds; progress is exactly 1 from here on.
    public let duration: Double
    /// Zeta: lower bounces more, 1 does not overshoot; in (0, 1] for a
    /// duration-based spring, above 1 too (overdamped) for a physical one.
    public let dampingRatio: Double
    /// In units of the whole distance per second: 200 pt at 100 pt/s is 0.5.
    public let initialVelocity: Double
    /// The undamped angular frequency ω0, in radians per second.
    public let omega0: Double

    /// The value of the sine term's decayed coefficient at `duration` that defines ω0.
    public static let settlingThreshold = 0.001

    /// Solves the spring; nil when duration is not finite and positive, the damping
    /// ratio is not in (0, 1], the velocity is not finite (NaN included), or the
    /// solution is not a finite positive frequency (a duration so short that ω0
    /// overflows).
    public init?(duration: Double, dampingRatio: Double, initialVelocity: Double) {
        guard duration.isFinite, duration > 0, dampingRatio.isFinite, dampingRatio > 0, dampingRatio <= 1,
              initialVelocity.isFinite,
              let omega0 = Spring.solveOmega0(duration: duration, zeta: dampingRatio, v: initialVelocity),
              omega0.isFinite, omega0 > 0 else { return nil }
        self.duration = duration
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
        self.omega0 = omega0
    }

    /// The precision a physical spring settles to unless told: libadwaita's
    /// default (`AdwSpringAnimation:epsilon`), a thousandth of the distance.
    public static let defaultEpsilon = 0.001

    /// A physical spring, as libadwaita's `AdwSpringParams`, niri's and
    /// Hyprland's `spring` curves state one: a mass `mass` on a spring of
    /// `stiffness`, with `damping` (in N·s/m for a distance of 1 m: ω0 =
    /// sqrt(stiffness / mass), damping ratio ζ = damping / (2·sqrt(stiffness·mass)),
    /// which may exceed 1 (overdamped)). It lasts as long as it takes to
    /// settle within `epsilon` of the distance, as libadwaita estimates it:
    /// until the envelope e^(-βt) (β = damping / 2·mass) is epsilon for an
    /// underdamped or critically damped spring (libadwaita's estimate to the
    /// millisecond; what motion is left then, at most e^(-βT)·(1 + βT) for a
    /// critically damped one, ends at once, as there); until the motion
    /// itself is epsilon from rest for an overdamped one, whose motion decays
    /// more slowly than its envelope (libadwaita's Newton steps stop at the
    /// first within epsilon: the same time or a little later). nil when any value is
    /// not finite, stiffness, mass or damping is not positive (an undamped
    /// spring never settles), or epsilon is not in (0, 1).
    public init?(stiffness: Double, damping: Double, mass: Double, initialVelocity: Double = 0, epsilon: Double = Spring.defaultEpsilon) {
        guard [stiffness, damping, mass, initialVelocity, epsilon].allSatisfy(\.isFinite), stiffness > 0, damping > 0, mass > 0,
              epsilon > 0, epsilon < 1 else { return nil }
        let omega0 = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        let beta = zeta * omega0
        // The envelope at epsilon; an overdamped spring's motion decays more slowly than its envelope, so it is followed.
        var settle = -log(epsilon) / beta
        if zeta > 1 {
            func off(_ t: Double) -> Double { abs(Spring.displacement(t: t, omega0: omega0, zeta: zeta, v: initialVelocity)) - epsilon }
            var (lo, hi) = (0.0, settle)
            while off(hi) > 0 {
                guard hi.isFinite, hi < 1e9 else { return nil }
                (lo, hi) = (hi, hi * 2)
            }
            // The last time the motion is epsilon away: bisection from the bracket's far end.
            for _ in 0..<200 where hi - lo > 1e-12 * hi {
                let mid = (lo + hi) / 2
                if off(mid) > 0 { lo = mid } else { hi = mid }
            }
            settle = hi
        }
        guard settle.isFinite, settle > 0 else { return nil }
        self.init(duration: settle, dampingRatio: zeta, initialVelocity: initialVelocity, omega0: omega0)
    }

    /// Rebuilds a spring whose ω0 was solved before (for example by the ABI's `spring_init`).
    public init(duration: Double, dampingRatio: Double, initialVelocity: Double, omega0: Double) {
        self.duration = duration
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
        self.omega0 = omega0
    }

    /// The stiffness ω0² of the spring with mass 1, as UIKit's and Framer's APIs state it.
    public var stiffness: Double { omega0 * omega0 }

    /// The displacement x(t): 1 at t = 0, towards 0 as t grows.
    public func displacement(at t: Double) -> Double {
        Spring.displacement(t: t, omega0: omega0, zeta: dampingRatio, v: initialVelocity)
    }

    /// Progress 1 - x(t): 0 at t <= 0, exactly 1 at t >= duration (where UIKit
    /// also ends the animation), possibly overshooting 1 in between.
    /// NaN when `t` is NaN, or when the spring was not solved (its ω0 is not a
    /// finite positive number), so that a mistake shows instead of freezing at 0.
    public func value(at t: Double) -> Double {
        guard !t.isNaN, omega0.isFinite, omega0 > 0, duration.isFinite else { return .nan }
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        return 1 - displacement(at: t)
    }

    /// The decayed coefficient of the sine term at `t` (for ζ = 1, x(t) itself):
    /// the quantity the solver sets to ``settlingThreshold`` at `duration`.
    public func settlingCoefficient(at t: Double) -> Double {
        Spring.coefficient(omega0, t: t, zeta: dampingRatio, v: initialVelocity)
    }

    static func displacement(t: Double, omega0 w0: Double, zeta: Double, v: Double) -> Double {
        if zeta == 1 {
            return exp(-w0 * t) * (1 + (w0 - v) * t)
        }
        if zeta > 1 {
            // Overdamped: the two decaying exponentials of cosh and sinh, apart, so that neither overflows.
            let beta = zeta * w0, w2 = w0 * (zeta * zeta - 1).squareRoot()
            let c = (beta - v) / w2
            return 0.5 * ((1 + c) * exp((w2 - beta) * t) + (1 - c) * exp(-(w2 + beta) * t))
        }
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        return exp(-zeta * w0 * t) * (cos(wd * t) + ((zeta * w0 - v) / wd) * sin(wd * t))
    }

    static func coefficient(_ w: Double, t: Double, zeta: Double, v: Double) -> Double {
        if zeta >= 1 { return (1 + (w - v) * t) * exp(-w * t) }  // the duration-based solver's springs stop at ζ = 1
        return (zeta * w - v) / (w * (1 - zeta * zeta).squareRoot()) * exp(-zeta * w * t)
    }

    /// ω0 from the condition in the type's comment; nil when the arithmetic
    /// does not give a finite number.
    static func solveOmega0(duration T: Double, zeta: Double, v: Double) -> Double? {
        let target = log(settlingThreshold)
        let critical = zeta >= 1
        // f(ω) = ln(condition's left side) - ln 0.001, falling for ω above `peak`.
        func f(_ w: Double) -> Double {
            critical ? log(1 + (w - v) * T) - w * T - target
                : log(zeta * w - v) - log(w * (1 - zeta * zeta).squareRoot()) - zeta * w * T - target
        }
        func slope(_ w: Double) -> Double {
            critical ? T / (1 + (w - v) * T) - T : zeta / (zeta * w - v) - 1 / w - zeta * T
        }
        // Where the left side peaks (its derivative is 0); 0 when it falls everywhere.
        let peak: Double
        if v <= 0 {
            peak = 0
        } else if critical {
            peak = v
        } else {
            let a = zeta * zeta * T, b = zeta * T * v
            peak = (b + (b * b + 4 * a * v).squareRoot()) / (2 * a)
        }
        // The left side at the peak (its limit at ω -> 0 when peak is 0).
        let fPeak: Double = if peak > 0 {
            f(peak)
        } else if v < 0 {
            .infinity
        } else {
            critical ? -target : log(zeta / (1 - zeta * zeta).squareRoot()) - target
        }
        let decayOnly = -target / (zeta * T)
        guard fPeak > 0 else { return decayOnly.isFinite ? decayOnly : nil }  // no root: the rule above

        // Bracket the root on the falling branch: f(lo) > 0 >= f(hi).
        var lo = peak, hi = max(peak * 2, 5 / T)
        var grown = 0
        while !(f(hi) <= 0) {
            guard hi.isFinite, grown < 2_100 else { return nil }
            lo = hi
            hi *= 2
            grown += 1
        }
        // Newton from the bracket's middle; a step that leaves the bracket, or no
        // step at all, is replaced by bisection.
        var w = lo > 0 ? (lo + hi) / 2 : hi / 2
        for _ in 0..<200 {
            let value = f(w)
            if value == 0 { return w }
            if value > 0 { lo = w } else { hi = w }
            if hi - lo <= 4 * hi.ulp { break }
            let d = slope(w)
            let step = w - value / d
            w = d.isFinite && d < 0 && step > lo && step < hi ? step : (lo + hi) / 2
            if abs(value) < 1e-15 { break }
        }
        return w
    }
}
