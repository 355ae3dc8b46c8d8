import Foundation

/// A UIKit-style spring from duration, damping ratio and initial velocity: a
/// damped harmonic oscillator of mass 1 whose displacement x(t) starts at 1 with
/// velocity -v and decays towards 0; progress is 1 - x(t).
///
/// UIKit picks the undamped frequency ω0 so that the oscillation's envelope has
/// decayed to 0.001 at the requested duration. Segue solves that with Newton's
/// method from ω0 = 5 / duration. The envelope used is the amplitude of x(t):
/// e^(-ζω0t) · sqrt(1 + ((ζω0 - v)/ωd)²) when underdamped, and x(t) itself,
/// e^(-ω0t) · (1 + (ω0 - v)t), when critically damped.
public struct Spring: Equatable, Sendable {
    /// Seconds; progress is exactly 1 from here on.
    public let duration: Double
    /// Zeta, in (0, 1]: lower bounces more, 1 does not overshoot.
    public let dampingRatio: Double
    /// In units of the whole distance per second: 200 pt at 100 pt/s is 0.5.
    public let initialVelocity: Double
    /// The undamped angular frequency ω0, in radians per second.
    public let omega0: Double

    /// The envelope's value at `duration` that defines ω0.
    public static let settlingThreshold = 0.001

    /// Solves the spring; nil when duration is not finite and positive, the damping
    /// ratio is not in (0, 1], or the velocity is not finite.
    public init?(duration: Double, dampingRatio: Double, initialVelocity: Double) {
        guard duration.isFinite, duration > 0, dampingRatio.isFinite, dampingRatio > 0, dampingRatio <= 1,
              initialVelocity.isFinite else { return nil }
        self.duration = duration
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
        self.omega0 = Spring.solveOmega0(duration: duration, zeta: dampingRatio, v: initialVelocity)
    }

    /// Rebuilds a spring whose ω0 was solved before (for example by the ABI's `spring_init`).
    public init(duration: Double, dampingRatio: Double, initialVelocity: Double, omega0: Double) {
        self.duration = duration
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
        self.omega0 = omega0
    }

    /// The displacement x(t): 1 at t = 0, towards 0 as t grows.
    public func displacement(at t: Double) -> Double {
        Spring.displacement(t: t, omega0: omega0, zeta: dampingRatio, v: initialVelocity)
    }

    /// Progress 1 - x(t): 0 at t <= 0, exactly 1 at t >= duration (where UIKit
    /// also ends the animation), possibly overshooting 1 in between.
    public func value(at t: Double) -> Double {
        if !(t > 0) { return 0 }
        if t >= duration { return 1 }
        return 1 - displacement(at: t)
    }

    /// The envelope of the oscillation at `t`; equals ``settlingThreshold`` at `duration`.
    public func envelope(at t: Double) -> Double {
        Spring.envelope(t: t, omega0: omega0, zeta: dampingRatio, v: initialVelocity)
    }

    static func displacement(t: Double, omega0 w0: Double, zeta: Double, v: Double) -> Double {
        if zeta >= 1 {
            return exp(-w0 * t) * (1 + (w0 - v) * t)
        }
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        return exp(-zeta * w0 * t) * (cos(wd * t) + ((zeta * w0 - v) / wd) * sin(wd * t))
    }

    static func envelope(t: Double, omega0 w0: Double, zeta: Double, v: Double) -> Double {
        if zeta >= 1 {
            return exp(-w0 * t) * abs(1 + (w0 - v) * t)
        }
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        let b = (zeta * w0 - v) / wd
        return exp(-zeta * w0 * t) * (1 + b * b).squareRoot()
    }

    /// Newton's method on g(ω0) = ln envelope(duration) - ln 0.001, with a
    /// central-difference derivative, from ω0 = 5 / duration.
    static func solveOmega0(duration T: Double, zeta: Double, v: Double) -> Double {
        let target = log(settlingThreshold)
        func g(_ w: Double) -> Double { log(envelope(t: T, omega0: w, zeta: zeta, v: v)) - target }
        var w = 5 / T
        for _ in 0..<100 {
            let value = g(w)
            if abs(value) < 1e-12 { break }
            let h = max(w * 1e-6, 1e-9)
            let slope = (g(w + h) - g(w - h)) / (2 * h)
            guard slope.isFinite, slope != 0 else { break }
            // Keep ω0 positive: never step past half of the current value.
            w = max(w - value / slope, w / 2)
        }
        return w
    }
}
