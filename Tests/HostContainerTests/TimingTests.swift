import Foundation
import Testing

@testable import HostContainer

/// SEEDS.md section 6: the named cubic Bezier curves and the UIKit-style spring.
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
        #expect(TimingCurve.easeIn.value(at: .nan) == 0)
    }

    @Test func customCurvesClampXToKeepTheCurveAFunction() {
        let c = TimingCurve(x1: -1, y1: 2, x2: 3, y2: -1)
        #expect(c.x1 == 0 && c.x2 == 1 && c.y1 == 2)
        #expect(c.value(at: 0.5).isFinite)
    }

    @Test func springEnvelopeDecaysTo0001AtTheDuration() throws {
        for (duration, damping, velocity) in [(1.0, 0.75, 0.5), (1.0, 0.5, 0.5), (0.4, 0.9, 0), (2.0, 0.2, -1.0), (1.0, 1.0, 0.5)] {
            let s = try #require(Spring(duration: duration, dampingRatio: damping, initialVelocity: velocity))
            #expect(approx(s.envelope(at: duration), 0.001, 1e-9), "\(duration) \(damping) \(velocity)")
        }
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
}
