import Foundation
import TestSupport
import Testing
@testable import Timing

@testable import HostContainer

/// The custom container (the objc.io article's): its lifecycle calls and the context's frame rules.
struct ContainerTests {
    @Test func firstChildIsShownWithoutAnimation() {
        let h = Harness()
        #expect(h.container.selectedViewController === h.child("a"))
        #expect(!h.container.isTransitioning)
        #expect(h.reports.isEmpty)
        #expect(h.child("a").view.superview === h.container.view)
        #expect(h.child("b").view.superview == nil && h.child("b").calls.isEmpty)
        #expect(h.child("a").calls == ["willMove(container)", "didMove(container)"])
        h.expectConsistent()
    }

    @Test func selectingTheShownChildDoesNothing() throws {
        let h = Harness()
        h.events.removeAll()
        try h.container.select(named: "a")
        h.container.select(index: 0)
        #expect(!h.container.isTransitioning)
        #expect(h.events.isEmpty)
        #expect(h.child("a").calls.count == 2)
    }

    @Test func switchPerformsTheLifecycleCallsInUIKitsOrder() throws {
        let h = Harness()
        h.events.removeAll()
        try h.switchTo("b")
        #expect(h.events == [
            .willMoveToParent(child: "a", parent: nil),
            .addChild("b"),
            .transitionStarted(from: "a", to: "b", animator: "default"),
            .removeFromSuperview("a"),
            .removeFromParent("a"),
            .didMoveToParent(child: "b", parent: "container"),
            .animationEnded(animator: "default", completed: true),
            .didSelect("b"),
        ])
        #expect(h.child("a").calls == ["willMove(container)", "didMove(container)", "willMove(nil)", "didMove(nil)"])
        #expect(h.child("b").calls == ["willMove(container)", "didMove(container)"])
        h.expectConsistent()
    }

    @Test func transitionCompletesExactlyOnceAndAnimationEndedFollows() throws {
        let h = Harness()
        try h.switchTo("c")
        try h.switchTo("a")
        #expect(h.reports.count == 2)
        let ended = h.events.filter { if case .animationEnded = $0 { true } else { false } }
        #expect(ended.count == 2)
        // Ticking after the end changes nothing.
        h.clock.advance(by: 5)
        h.container.tick()
        #expect(h.reports.count == 2)
    }

    @Test func delegateHearsDidSelectAfterTheTransition() throws {
        final class Delegate: ContainerViewControllerDelegate {
            var selected: [String] = []
            func containerViewController(_ c: ContainerViewController, didSelect vc: ViewController) { selected.append(vc.name) }
        }
        let h = Harness()
        let d = Delegate()
        h.container.delegate = d
        try h.container.select(named: "b")
        #expect(d.selected.isEmpty, "not before the transition ends")
        h.container.runUntilIdle(advancing: h.clock)
        #expect(d.selected == ["b"])
        #expect(h.reports.first?.reason == "the delegate supplies no animator")
    }

    @Test func withoutADelegateTheDefaultAnimatorRunsAndSaysWhy() throws {
        let h = Harness()
        try h.switchTo("b")
        let r = try #require(h.reports.first)
        #expect(r.animator == "default" && r.source == .builtin && r.completed)
        #expect(r.reason == "no delegate")
        #expect(r.duration == 1.0)
        #expect(r.frames == 61, "t = 0 and 60 frames at 60 fps over 1 s")
    }

    @Test func aSelectionMadeFromDidSelectRunsAfterTheCompletionHasFinished() throws {
        final class Chain: ContainerViewControllerDelegate {
            func containerViewController(_ c: ContainerViewController, didSelect vc: ViewController) {
                if vc.name == "b" { c.select(index: 2) }
            }
        }
        let h = Harness()
        h.delegate = Chain()
        h.events.removeAll()
        try h.switchTo("b")
        #expect(h.reports.map { "\($0.from)->\($0.to)" } == ["a->b", "b->c"])
        let firstDidSelect = try #require(h.events.firstIndex(of: .didSelect("b")))
        let secondStart = try #require(h.events.firstIndex(of: .willMoveToParent(child: "b", parent: nil)))
        #expect(firstDidSelect < secondStart, "b's completion finishes before the next switch starts")
        h.expectConsistent()
    }

    @Test func aSelectionMadeWhileTheDelegateChoosesAnAnimatorWaits() throws {
        let h = Harness()
        h.delegate = StandInDelegate { c, _, to in
            if to.name == "b" { c.select(index: 2) }
            return .useDefault(reason: "eager")
        }
        try h.switchTo("b")
        #expect(h.reports.map { "\($0.from)->\($0.to)" } == ["a->b", "b->c"])
        h.expectConsistent()
    }

    @Test func indexSelectionIsClampedLikeSeed000Swipes() {
        let h = Harness()
        h.container.select(index: 99)
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.container.selectedViewController === h.child("c"))
        h.container.select(index: -5)
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.container.selectedViewController === h.child("a"))
    }

    @Test func unknownChildNameThrowsAndChangesNothing() {
        let h = Harness()
        #expect(throws: SelectionError.unknownChild("zz", available: ["a", "b", "c"])) { try h.container.select(named: "zz") }
        h.expectConsistent()
    }

    @Test func aBurstOfSelectionsHurriesTheRunningTransitionThenRunsTheLast() throws {
        let h = Harness(["a", "b", "c", "d"])
        var endTimes: [Double] = []
        h.container.onTransitionEnd = { [unowned h] in h.reports.append($0); endTimes.append(h.clock.now) }
        try h.container.select(named: "b")
        h.clock.advance(by: 0.2)
        h.container.tick()
        try h.container.select(named: "c")
        try h.container.select(named: "d")
        try h.container.select(named: "c")
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.map { "\($0.from)->\($0.to)" } == ["a->b", "b->c"])
        #expect(h.reports.map(\.completed) == [true, true])
        // The default runs 1 s; interrupted at 0.2 s, it ends within the hurry (plus a frame).
        #expect(endTimes[0] <= 0.2 + ContainerViewController.hurryDuration + 1.0 / 60 + 1e-9)
        #expect(h.container.selectedViewController === h.child("c"))
        h.expectConsistent()
    }

    @Test func aRealClockDrivesATransitionToItsEnd() throws {
        let clock = MonotonicClock()
        let a = ViewController(name: "a", view: View(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        let b = ViewController(name: "b", view: View(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        let container = ContainerViewController(viewControllers: [a, b], size: Rect(x: 0, y: 0, width: 10, height: 10), clock: clock)
        let d = StandInDelegate(using: StandInAnimator("Quick", duration: 0.02), reason: "quick")
        container.delegate = d
        var completed: [Bool] = []
        container.onTransitionEnd = { completed.append($0.completed) }
        try container.select(named: "b")
        while container.isTransitioning {
            usleep(2_000)
            container.tick()
        }
        #expect(completed == [true])
        #expect(container.selectedViewController === b && b.view.alpha == 1)
    }

    @Test func contextFramesFollowTheRulesGoingRight() {
        let h = Harness()
        let a = h.child("a"), b = h.child("b")
        b.view.frame = h.container.view.bounds
        let ctx = TransitionContext(from: a, to: b, containerView: h.container.view, goingRight: true) { _ in }
        let bounds = Rect(x: 0, y: 0, width: 320, height: 480)
        #expect(ctx.initialFrame(for: a) == bounds)
        #expect(ctx.finalFrame(for: a) == bounds.offsetBy(dx: -320, dy: 0))
        #expect(ctx.initialFrame(for: b) == bounds.offsetBy(dx: 320, dy: 0))
        #expect(ctx.finalFrame(for: b) == bounds)
        #expect(ctx.initialFrame(for: h.child("c")) == .zero)
        #expect(ctx.containerView === h.container.view)
        #expect(ctx.presentationStyle == .custom && ctx.isAnimated && !ctx.isInteractive && !ctx.transitionWasCancelled)
        #expect(ctx.viewController(forKey: .from) === a && ctx.viewController(forKey: .to) === b)
    }

    @Test func contextFramesFollowTheRulesGoingLeft() {
        let h = Harness()
        let a = h.child("a"), b = h.child("b")
        let ctx = TransitionContext(from: a, to: b, containerView: h.container.view, goingRight: false) { _ in }
        let bounds = Rect(x: 0, y: 0, width: 320, height: 480)
        #expect(ctx.finalFrame(for: a) == bounds.offsetBy(dx: 320, dy: 0))
        #expect(ctx.initialFrame(for: b) == bounds.offsetBy(dx: -320, dy: 0))
    }

    @Test func completeTransitionRunsTheCompletionOnlyOnce() {
        let h = Harness()
        var calls: [Bool] = []
        let ctx = TransitionContext(from: h.child("a"), to: h.child("b"), containerView: h.container.view,
                                    goingRight: true) { calls.append($0) }
        ctx.completeTransition(true)
        ctx.completeTransition(false)
        #expect(calls == [true])
    }

    @Test func directionIsGoingRightWhenTheTargetComesLater() throws {
        final class Spy: ContainerViewControllerDelegate {
            var directions: [Bool] = []
            let inner = DefaultAnimator.make()
            func containerViewController(_ c: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                         to: ViewController) -> AnimatorResolution {
                .use(Recorder(inner) { self.directions.append($0.goingRight) }, reason: "spy")
            }
        }
        let h = Harness()
        let spy = Spy()
        h.container.delegate = spy
        try h.switchTo("c")
        try h.switchTo("b")
        #expect(spy.directions == [true, false])
    }
}

/// The private default animator's geometry: slide and fade on a spring, 16 pt apart.
struct DefaultAnimatorTests {
    /// The layers mid-transition: the from view and the to view, with their states.
    func midway(_ goingTo: String, at t: Double) throws -> Harness {
        let h = Harness()
        try h.container.select(named: goingTo)
        h.clock.advance(by: t)
        h.container.tick()
        return h
    }

    @Test func setupPlacesTheToViewOneTravelAwayAndTransparent() throws {
        let h = try midway("b", at: 0)
        let to = h.child("b").view, from = h.child("a").view
        #expect(to.superview === h.container.view)
        #expect(to.alpha == 0)
        // Going right the from view leaves to the left, so the to view starts at +(width + 16).
        #expect(to.transform == .translation(320 + 16, 0))
        #expect(from.transform == .identity && from.alpha == 1)
    }

    @Test func midwayBothViewsFollowTheSpring() throws {
        let spring = try #require(Spring(duration: 1, dampingRatio: 0.75, initialVelocity: 0.5))
        let h = try midway("b", at: 0.25)
        let p = spring.value(at: 0.25)
        let from = h.child("a").view, to = h.child("b").view
        #expect(approx(from.transform.translation.x, -336 * p))
        #expect(approx(to.transform.translation.x, 336 * (1 - p)))
        #expect(approx(from.alpha, min(max(1 - p, 0), 1)))
        #expect(approx(to.alpha, min(max(p, 0), 1)))
    }

    @Test func goingLeftSlidesTheOtherWay() throws {
        let h = Harness()
        try h.switchTo("c")
        try h.container.select(named: "a")
        #expect(h.child("a").view.transform == .translation(-336, 0))
    }

    @Test func completionLeavesEveryViewAtRest() throws {
        let h = Harness()
        try h.switchTo("b")
        #expect(h.child("a").view.superview == nil)
        #expect(h.child("a").view.transform == .identity && h.child("a").view.alpha == 1)
        h.expectConsistent()
    }

    @Test func withFramesThatCarryNoDirectionItAlwaysSlidesTheSameWay() {
        // The article's note: only the frames' direction is read.
        let container = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let a = ViewController(name: "a", view: View(frame: container.bounds))
        let b = ViewController(name: "b", view: View(frame: container.bounds))
        container.addSubview(a.view)
        for goingRight in [true, false] {
            let ctx = TransitionContext(from: a, to: b, containerView: container, goingRight: goingRight) { _ in }
            let animator = PrivateAnimatedTransition()
            guard case .animate(let plan) = animator.setup(ctx) else { Issue.record("declined"); return }
            #expect(plan.duration == 1.0)
            let storage = UnsafeMutablePointer<LayerState>.allocate(capacity: 2)
            defer { storage.deallocate() }
            storage.initialize(repeating: LayerState(frame: container.bounds, zPosition: 0), count: 2)
            animator.evaluate(at: 1, layers: LayerStates(base: storage, count: 2))
            #expect(storage[0].transform.translation.x == (goingRight ? -116 : 116))
        }
    }
}

/// Wraps an animator to watch its setup.
final class Recorder: TransitionAnimator {
    let inner: any TransitionAnimator
    let onSetup: (TransitionContext) -> Void
    init(_ inner: any TransitionAnimator, onSetup: @escaping (TransitionContext) -> Void) {
        self.inner = inner
        self.onSetup = onSetup
    }
    var name: String { inner.name }
    var source: AnimatorSource { .application }
    func setup(_ context: TransitionContext) -> AnimatorSetup {
        onSetup(context)
        return inner.setup(context)
    }
    func evaluate(at t: Double, layers: LayerStates) { inner.evaluate(at: t, layers: layers) }
    func animationEnded(_ completed: Bool) { inner.animationEnded(completed) }
}

/// Animators that produce non-finite values or plan absurd transitions never
/// crash the container: the built-in default takes over and the report says why.
struct FaultyAnimatorTests {
    @Test func nonFiniteValuesAreNeverApplied() throws {
        let nan = StandInAnimator("NaN", duration: 1, evaluate: { t, layers in layers[0].frame.x = t > 0.3 ? .infinity : 0 })
        let h = Harness()
        h.delegate = StandInDelegate(using: nan, reason: "test")
        try h.container.select(named: "b")
        for _ in 0..<70 {
            h.clock.advance(by: 1.0 / 60)
            h.container.tick()
            for view in h.container.view.subviews {
                #expect(view.frame.isFinite && view.transform.isFinite && view.alpha.isFinite)
            }
        }
        h.expectConsistent()
        #expect(h.reports.first?.reason.hasPrefix("NaN produced a non-finite frame for layer 0 at t = ") == true)
    }

    @Test func aPlanWithAnAbsurdDurationIsRefused() throws {
        let slow = StandInAnimator("Slow", plan: { _ in .animate(TransitionPlan(duration: .nan, layers: [LayerRequest(.view(.from))])) },
                                   evaluate: { _, _ in })
        let h = Harness()
        h.delegate = StandInDelegate(using: slow, reason: "test")
        try h.switchTo("b")
        #expect(h.reports.first?.reason == "Slow planned an unusable transition: duration nan s is outside (0, 60.0]; the built-in default ran instead")
        #expect(slow.ended == [false])
        h.expectConsistent()
    }
}
