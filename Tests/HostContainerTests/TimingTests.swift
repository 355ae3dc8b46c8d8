import Foundation
import TestSupport
import Testing
@testable import Timing

@testable import HostContainer

/// UIKit's timing: the named cubic Bezier curves and the UIKit-style spring.
struct TimingTests {
    /// Independent reference: the Bezier's x and y at parameter s, solved for x = t by bisection.
    func bezier(_ c: TimingCurve, _ t: Double) -> Double {
        func axis(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if axis(c.x1, c.x2, mid) < t { lo = mid } else { hi = mid }
        }
        return axis(c.y1, c.y2, (lo + hi) / 2)
    }

    @Test func namedCurvesHaveUIKitControlPoints() {
        #expect([TimingCurve.linear.x1, TimingCurve.linear.y1, TimingCurve.linear.x2, TimingCurve.linear.y2] == [0, 0, 1, 1])
        #expect([TimingCurve.easeIn.x1, TimingCurve.easeIn.y1, TimingCurve.easeIn.x2, TimingCurve.easeIn.y2] == [0.42, 0, 1, 1])
        #expect([TimingCurve.easeOut.x1, TimingCurve.easeOut.y1, TimingCurve.easeOut.x2, TimingCurve.easeOut.y2] == [0, 0, 0.58, 1])
        #expect([TimingCurve.easeInEaseOut.x1, TimingCurve.easeInEaseOut.y1, TimingCurve.easeInEaseOut.x2,
                 TimingCurve.easeInEaseOut.y2] == [0.42, 0, 0.58, 1])
        #expect([TimingCurve.default.x1, TimingCurve.default.y1, TimingCurve.default.x2, TimingCurve.default.y2] == [0.25, 0.1, 0.25, 1])
    }

    @Test(arguments: TimingCurve.named.map(\.curve))
    func curveValuesSolveXThenY(curve: TimingCurve) {
        for i in 0...40 {
            let t = Double(i) / 40
            #expect(approx(curve.value(at: t), bezier(curve, t), 1e-7), "t = \(t)")
        }
    }

    @Test func curvesHaveTheirShapes() {
        #expect(approx(TimingCurve.linear.value(at: 0.3), 0.3))
        #expect(TimingCurve.easeIn.value(at: 0.5) < 0.5)
        #expect(TimingCurve.easeOut.value(at: 0.5) > 0.5)
        #expect(approx(TimingCurve.easeInEaseOut.value(at: 0.5), 0.5, 1e-9))
        #expect(TimingCurve.easeInEaseOut.value(at: 0) == 0 && TimingCurve.easeInEaseOut.value(at: 1) == 1)
        #expect(TimingCurve.easeIn.value(at: -3) == 0 && TimingCurve.easeIn.value(at: 7) == 1)
    }

    @Test func customCurvesClampXToKeepTheCurveAFunction() {
        let c = TimingCurve(x1: -1, y1: 2, x2: 3, y2: -1)
        #expect(c.x1 == 0 && c.x2 == 1 && c.y1 == 2)
        #expect(c.value(at: 0.5).isFinite)
    }

    @Test func springMatchesThePublishedPointOfUIKitsDurationSolver() throws {
        // Framer's duration-to-stiffness solver, reported to match UIKit:
        // duration 3, damping 0.25, velocity 0 -> stiffness 54.8336.
        let s = try #require(Spring(duration: 3, dampingRatio: 0.25, initialVelocity: 0))
        #expect(abs(s.stiffness - 54.8336) < 0.01, "stiffness \(s.stiffness)")
        #expect(abs(s.omega0 - 7.4050) < 1e-4, "omega0 \(s.omega0)")
    }

    /// ω0 from the condition, written again from the formula with plain
    /// bisection on the falling branch: an implementation independent of Spring's.
    static func referenceOmega0(duration T: Double, zeta: Double, v: Double) -> Double? {
        func c(_ w: Double) -> Double {
            zeta >= 1 ? (1 + (w - v) * T) * exp(-w * T)
                : (zeta * w - v) / (w * (1 - zeta * zeta).squareRoot()) * exp(-zeta * w * T)
        }
        // Walk up from far below to the peak of c, then bisect beyond it.
        var lo = 1e-6, best = c(lo)
        var w = lo
        while w < 1e5 {
            w *= 1.001
            let value = c(w)
            if value < best, best > 0.001 { break }
            if value > best { (lo, best) = (w, value) }
        }
        guard best > 0.001 else { return nil }
        var hi = lo
        while c(hi) > 0.001 { hi *= 2 }
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if c(mid) > 0.001 { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    @Test(arguments: [
        (3.0, 0.25, 0.0), (1.0, 0.75, 0.5), (1.0, 0.5, 0.5), (0.4, 0.9, 0.0), (2.0, 0.2, -1.0),
        (1.0, 1.0, 0.5), (0.5, 0.1, 0.0), (1.0, 0.3, 2.0), (2.0, 0.95, -4.0), (1.0, 1.0, -3.0), (0.25, 0.6, 1.0),
    ])
    func springAgreesWithAnIndependentSolverOfTheCondition(_ c: (Double, Double, Double)) throws {
        let (duration, damping, velocity) = c
        let s = try #require(Spring(duration: duration, dampingRatio: damping, initialVelocity: velocity))
        let reference = try #require(Self.referenceOmega0(duration: duration, zeta: damping, v: velocity))
        #expect(abs(s.omega0 - reference) <= 1e-9 * reference, "\(c): \(s.omega0) vs \(reference)")
        #expect(approx(s.settlingCoefficient(at: duration), 0.001, 1e-12), "\(c)")
    }

    @Test func aCriticalSpringWhoseVelocityIsFiveOverTheDurationConverges() throws {
        // Newton from ω0 = 5 / T starts on the peak here (zero slope); the bracket still finds the root.
        for duration in [0.5, 1.0, 3.0] {
            let s = try #require(Spring(duration: duration, dampingRatio: 1, initialVelocity: 5 / duration))
            #expect(approx(s.settlingCoefficient(at: duration), 0.001, 1e-12), "T = \(duration)")
            #expect(s.omega0 > 5 / duration)
            // No jump at the end: the last frames run smoothly into 1.
            #expect(abs(s.value(at: duration * 0.999) - 1) < 0.002)
        }
    }

    @Test func whereTheConditionHasNoRootTheDecayAloneReaches0001() throws {
        // No velocity and a tiny damping ratio: the coefficient starts below 0.001.
        let slack = try #require(Spring(duration: 1, dampingRatio: 0.0005, initialVelocity: 0))
        #expect(approx(slack.omega0, log(1000) / 0.0005, 1e-9))
        // A velocity so high that the coefficient never rises to 0.001.
        for damping in [0.5, 1.0] {
            let fast = try #require(Spring(duration: 1, dampingRatio: damping, initialVelocity: 20))
            #expect(approx(fast.omega0, log(1000) / damping, 1e-9), "damping \(damping)")
            #expect(Self.referenceOmega0(duration: 1, zeta: damping, v: 20) == nil)
        }
        // Extreme but finite velocities are solved, or follow the rule; never a guess.
        let huge = try #require(Spring(duration: 1, dampingRatio: 0.5, initialVelocity: 1e300))
        #expect(approx(huge.omega0, log(1000) / 0.5, 1e-9))
        let backwards = try #require(Spring(duration: 1, dampingRatio: 0.5, initialVelocity: -1e300))
        #expect(approx(backwards.settlingCoefficient(at: 1), 0.001, 1e-9))
    }

    @Test func nanGoesInNanComesOut() throws {
        #expect(Spring(duration: 1, dampingRatio: .nan, initialVelocity: 0) == nil)
        #expect(Spring(duration: 1, dampingRatio: 0.5, initialVelocity: .nan) == nil)
        #expect(Spring(duration: .leastNormalMagnitude / 1e12, dampingRatio: 0.5, initialVelocity: 0) == nil, "ω0 overflows")
        let s = try #require(Spring(duration: 1, dampingRatio: 0.5, initialVelocity: 0))
        #expect(s.value(at: .nan).isNaN)
        #expect(Spring(duration: 0, dampingRatio: 0, initialVelocity: 0, omega0: 0).value(at: 0.5).isNaN, "an unsolved spring")
        #expect(TimingCurve.easeIn.value(at: .nan).isNaN)
        #expect(TimingCurve.easeIn.value(at: -.infinity) == 0 && TimingCurve.easeIn.value(at: .infinity) == 1)
        #expect(TimingCurve(x1: .nan, y1: 0, x2: 1, y2: 1).value(at: 0.5).isNaN)
        #expect(TimingCurve(x1: 0.2, y1: 0, x2: 1, y2: .nan).value(at: 0).isNaN)
    }

    @Test func springFollowsTheDampedOscillatorFormula() throws {
        let s = try #require(Spring(duration: 1, dampingRatio: 0.75, initialVelocity: 0.5))
        let z = 0.75, w0 = s.omega0, v = 0.5
        let wd = w0 * (1 - z * z).squareRoot()
        for t in stride(from: 0.05, to: 1.0, by: 0.05) {
            let x = exp(-z * w0 * t) * (cos(wd * t) + ((z * w0 - v) / wd) * sin(wd * t))
            #expect(approx(s.value(at: t), 1 - x, 1e-12), "t = \(t)")
        }
    }

    @Test func criticallyDampedSpringUsesItsOwnFormula() throws {
        let s = try #require(Spring(duration: 1, dampingRatio: 1, initialVelocity: 0.5))
        for t in [0.1, 0.3, 0.7] {
            let x = exp(-s.omega0 * t) * (1 + (s.omega0 - 0.5) * t)
            #expect(approx(s.value(at: t), 1 - x, 1e-12))
        }
    }

    @Test func springVelocityIsInUnitsOfTheDistancePerSecond() throws {
        let s = try #require(Spring(duration: 1, dampingRatio: 0.75, initialVelocity: 0.5))
        let h = 1e-7
        #expect(approx((s.value(at: h) - s.value(at: 0)) / h, 0.5, 1e-4))
        let fast = try #require(Spring(duration: 1, dampingRatio: 0.75, initialVelocity: 3))
        #expect(approx((fast.value(at: h)) / h, 3, 1e-4))
    }

    @Test func springStartsAt0EndsAt1AndUnderdampedOvershoots() throws {
        let s = try #require(Spring(duration: 1, dampingRatio: 0.5, initialVelocity: 0.5))
        #expect(s.value(at: 0) == 0 && s.value(at: -1) == 0)
        #expect(s.value(at: 1) == 1 && s.value(at: 5) == 1)
        let peak = stride(from: 0.0, through: 1.0, by: 0.01).map { s.value(at: $0) }.max()!
        #expect(peak > 1, "damping 0.5 overshoots")
    }

    @Test func springRejectsParametersOutsideItsDomain() {
        #expect(Spring(duration: 0, dampingRatio: 0.5, initialVelocity: 0) == nil)
        #expect(Spring(duration: .nan, dampingRatio: 0.5, initialVelocity: 0) == nil)
        #expect(Spring(duration: 1, dampingRatio: 0, initialVelocity: 0) == nil)
        #expect(Spring(duration: 1, dampingRatio: 1.5, initialVelocity: 0) == nil)
        #expect(Spring(duration: 1, dampingRatio: 0.5, initialVelocity: .infinity) == nil)
    }

    // MARK: - Physical springs (stiffness, damping, mass), as libadwaita states them

    /// libadwaita's `AdwSpringAnimation` as it is published (adw-spring-animation.c): the
    /// motion from 0 to 1, and the estimated duration in whole milliseconds: the envelope's
    /// time for an underdamped or critically damped spring, Newton's method on the motion
    /// (a numeric slope over 1 ms) for an overdamped one.
    struct Libadwaita {
        let k: Double, c: Double, m: Double, v0: Double, epsilon = 0.001
        func value(_ t: Double) -> Double {
            let beta = c / (2 * m), w0 = (k / m).squareRoot(), x0 = -1.0, envelope = exp(-beta * t)
            if beta < w0 {
                let w1 = (w0 * w0 - beta * beta).squareRoot()
                return 1 + envelope * (x0 * cos(w1 * t) + ((beta * x0 + v0) / w1) * sin(w1 * t))
            }
            if beta > w0 {
                let w2 = (beta * beta - w0 * w0).squareRoot()
                return 1 + envelope * (x0 * cosh(w2 * t) + ((beta * x0 + v0) / w2) * sinh(w2 * t))
            }
            return 1 + envelope * (x0 + (beta * x0 + v0) * t)
        }
        var milliseconds: Int {
            let beta = c / (2 * m), w0 = (k / m).squareRoot()
            var x0 = -log(epsilon) / beta
            if beta <= w0 { return Int(x0 * 1000) }
            // The animation samples whole milliseconds.
            func y(_ t: Double) -> Double { value(Double(Int(t * 1000)) / 1000) }
            var slope = (y(x0 + 0.001) - y(x0)) / 0.001
            var x1 = (1 - y(x0) + slope * x0) / slope
            for _ in 0..<1000 where abs(1 - y(x1)) > epsilon {
                x0 = x1
                slope = (y(x0 + 0.001) - y(x0)) / 0.001
                x1 = (1 - y(x0) + slope * x0) / slope
            }
            return Int(x1 * 1000)
        }
    }

    @Test(arguments: [(100.0, 10.0, 1.0, 0.0), (100, 20, 1, 0), (100, 40, 1, 0), (1000, 30, 1, 0), (800, 64, 2, 0), (300, 20, 1, 1.5),
                      (170, 26, 1, 0), (50, 40, 1, 0)])
    func aPhysicalSpringMovesAndSettlesAsLibadwaitasDoes(_ p: (k: Double, c: Double, m: Double, v: Double)) throws {
        let spring = try #require(Spring(stiffness: p.k, damping: p.c, mass: p.m, initialVelocity: p.v))
        let adw = Libadwaita(k: p.k, c: p.c, m: p.m, v0: p.v)
        // The same motion, sampled through the whole of it.
        for k in 0..<50 {
            let t = spring.duration * Double(k) / 50
            #expect(abs(spring.value(at: t) - adw.value(t)) < 1e-9, "t = \(t): \(spring.value(at: t)) and \(adw.value(t))")
        }
        // The same duration. Underdamped and critically damped: the time the envelope e^(-βt) reaches epsilon, as
        // libadwaita's, which counts whole milliseconds. Overdamped: the time the motion itself is epsilon from rest;
        // libadwaita's Newton steps towards rest and stops at the first within epsilon, so at that time or later.
        let ours = spring.duration * 1000, theirs = Double(adw.milliseconds)
        let beta = p.c / (2 * p.m)
        if spring.dampingRatio <= 1 {
            #expect(Int(ours) == Int(theirs), "\(ours) ms against libadwaita's \(theirs) ms")
            #expect(abs(exp(-beta * spring.duration) - 0.001) < 1e-12)
        } else {
            #expect(ours <= theirs + 1 && ours > theirs * 0.8, "\(ours) ms against libadwaita's \(theirs) ms")
            #expect(abs(abs(1 - adw.value(spring.duration)) - 0.001) < 1e-9, "the motion is epsilon from rest")
        }
        #expect(spring.value(at: spring.duration) == 1)
    }

    @Test func aPhysicalSpringHasTheStiffnessAndDampingRatioItWasGiven() throws {
        let spring = try #require(Spring(stiffness: 100, damping: 10, mass: 1))
        #expect(abs(spring.stiffness - 100) < 1e-9 && abs(spring.dampingRatio - 0.5) < 1e-12)
        #expect(abs(spring.duration - log(1000) / 5) < 1e-12, "underdamped: the envelope e^(-5t) reaches 0.001")
        #expect(Int(spring.duration * 1000) == 1381, "libadwaita's estimated-duration for damping 10, mass 1, stiffness 100")
        let tighter = try #require(Spring(stiffness: 100, damping: 10, mass: 1, epsilon: 0.0001))
        #expect(tighter.duration > spring.duration)
        for bad in [(100.0, 0.0, 1.0), (0, 10, 1), (100, 10, 0), (.nan, 10, 1), (100, .infinity, 1), (-5, 10, 1)] {
            #expect(Spring(stiffness: bad.0, damping: bad.1, mass: bad.2) == nil, "\(bad)")
        }
        #expect(Spring(stiffness: 100, damping: 10, mass: 1, epsilon: 0) == nil && Spring(stiffness: 100, damping: 10, mass: 1, epsilon: 1) == nil)
    }

}
