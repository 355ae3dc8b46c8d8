import Testing
import Timing
import TestSupport

@testable import HostContainer

/// Presenting a child over the shown one and dismissing it: the appearance
/// and disappearance kinds (ABI 1.3), played by animators written for them
/// and by animators that were not (``KindPlayback``).
@Suite struct PresentationTests {
    let window = Rect(x: 100, y: 80, width: 200, height: 150)

    /// A harness whose delegate answers every transition with `animator`, and a presentable child.
    func harness(_ animator: StandInAnimator) -> (Harness, StandInDelegate, RecordingViewController) {
        let harness = Harness(size: Rect(x: 0, y: 0, width: 640, height: 360))
        let delegate = StandInDelegate(using: animator)
        harness.delegate = delegate
        return (harness, delegate, RecordingViewController(name: "window", view: View(frame: window.bounds)))
    }

    @Test func anAnimatorWrittenForTheKindsSeesThemWithTheViewsOwnFrames() throws {
        let pop = StandInAnimator("Pop", kinds: [.appearances, .disappearances])
        let (h, _, presented) = harness(pop)
        try h.container.present(presented, frame: window)
        h.container.runUntilIdle(advancing: h.clock)

        let appear = try #require(pop.context)
        #expect(appear.kind == .appear)
        #expect(appear.fromViewController === h.child("a") && appear.toViewController === presented)
        #expect(appear.initialFrame(for: presented) == window && appear.finalFrame(for: presented) == window,
                "nothing moves by itself in an appearance")
        #expect(appear.initialFrame(for: h.child("a")) == h.container.view.bounds)
        #expect(h.container.presentedViewController === presented)
        #expect(h.container.view.subviews.map(ObjectIdentifier.init) == [h.child("a").view, presented.view].map(ObjectIdentifier.init),
                "the window over the child")
        #expect(presented.view.frame == window && presented.view.isAtRest)
        #expect(presented.calls == ["willMove(container)", "didMove(container)"])

        try h.container.dismissPresented()
        h.container.runUntilIdle(advancing: h.clock)
        let disappear = try #require(pop.context)
        #expect(disappear.kind == .disappear)
        #expect(disappear.fromViewController === presented && disappear.toViewController === h.child("a"))
        #expect(h.container.presentedViewController == nil)
        #expect(presented.calls == ["willMove(container)", "didMove(container)", "willMove(nil)", "didMove(nil)"])
        #expect(h.reports.map(\.kind) == [.appear, .disappear])
        #expect(h.reports.map(\.shown) == ["window", "a"])
        #expect(h.reports.allSatisfy { $0.completed && !$0.fellBack && $0.animator == "Pop" })
        #expect(pop.ended == [true, true])
        h.expectConsistent()
    }

    @Test func anAnimatorForSwitchesPlaysADisappearanceAsASwitchToAHiddenStandIn() throws {
        final class Seen { var hidden: [Bool] = [] }
        let seen = Seen()
        let slide = StandInAnimator("Slide", evaluate: { t, layers in
            layers[0].transform = Transform3D.translation(-t * 100, 0)
            seen.hidden.append(layers[1].isHidden)
        })
        let (h, delegate, presented) = harness(slide)
        delegate.presenting = { (kind: TransitionKind, _: ViewController) -> AnimatorResolution in
            kind == .disappear ? .use(slide, reason: "test") : .useDefault(reason: "test")
        }
        try h.container.present(presented, frame: window)
        h.container.runUntilIdle(advancing: h.clock)
        try h.container.dismissPresented()
        h.clock.advance(by: 0.3)
        h.container.tick()
        let standIn = try #require(slide.context?.toViewController.view)
        #expect(standIn.superview === h.container.view && standIn.isHidden, "the stand-in is in the container, never drawn")
        h.container.runUntilIdle(advancing: h.clock)

        let context = try #require(slide.context)
        #expect(context.kind == .switch)
        #expect(context.fromViewController === presented)
        #expect(context.toViewController.name == "" && context.toViewController.view.frame == window, "a stand-in of the window's frame")
        #expect(context.finalFrame(for: presented) == window.offsetBy(dx: -640, dy: 0), "a switch's travel")
        #expect(slide.times.first == 0 && slide.times == slide.times.sorted(), "forward")
        #expect(!seen.hidden.isEmpty && !seen.hidden.contains(true), "the animator may show it: the container hides it after")
        let report = try #require(h.reports.last)
        #expect(report.kind == .disappear && report.animator == "Slide" && !report.fellBack)
        #expect(report.reason.hasSuffix("; played as a switch to a transparent stand-in"), "\(report.reason)")
        #expect(context.toViewController.view.superview == nil, "the stand-in is gone")
        h.expectConsistent()
    }

    @Test func anAppearanceRunsBackwardsWhenTheAnimatorWasNotWrittenForIt() throws {
        let slide = StandInAnimator("Slide")
        let (h, _, presented) = harness(slide)
        try h.container.present(presented, frame: window)
        h.container.runUntilIdle(advancing: h.clock)
        let context = try #require(slide.context)
        #expect(context.kind == .switch && context.fromViewController === presented)
        #expect(slide.times.first == slide.duration && slide.times.last == 0, "from its end to its start: \(slide.times)")
        #expect(h.reports.last?.reason.hasSuffix("played as a switch to a transparent stand-in run backwards") == true)
        #expect(h.container.presentedViewController === presented && presented.view.isAtRest)

        let closing = StandInAnimator("Close", kinds: .disappearances)
        h.delegate = StandInDelegate(using: closing)
        try h.container.dismissPresented()
        h.container.runUntilIdle(advancing: h.clock)
        try h.container.present(presented, frame: window)
        h.container.runUntilIdle(advancing: h.clock)
        let backwards = try #require(closing.context)
        #expect(backwards.kind == .disappear && backwards.fromViewController === presented, "its disappearance, run backwards")
        #expect(h.reports.last?.reason.hasSuffix("played as a disappearance run backwards") == true)
    }

    /// The built-in default opens a window as a desktop's Scale does: shown
    /// from the first frames, growing to its size on the spring; it closes
    /// shrinking and fading out. Both as written, not a switch run backwards.
    @Test func theDefaultOpensAWindowVisiblyAndClosesItAway() throws {
        let h = Harness(size: Rect(x: 0, y: 0, width: 640, height: 360))
        let presented = RecordingViewController(name: "window", view: View(frame: window.bounds))
        try h.container.present(presented, frame: window)
        h.clock.advance(by: 0.1)
        h.container.tick()
        let early = presented.view
        #expect(early.alpha > 0.3, "shown a tenth into its second: alpha \(early.alpha)")
        #expect(early.transform.values[0] < 1 && early.transform.values[0] >= 0.85 && early.transform.values[0] == early.transform.values[5],
                "growing from 85% about its centre: \(early.transform.values)")
        #expect(early.frame == window, "in its own place")
        h.container.runUntilIdle(advancing: h.clock)
        #expect(presented.view.isAtRest && presented.view.frame == window)
        #expect(h.reports.last.map { $0.animator == DefaultAnimator.name && !$0.reason.contains("played") } == true,
                "\(h.reports.last?.reason ?? "")")

        try h.container.dismissPresented()
        h.clock.advance(by: 0.1)
        h.container.tick()
        #expect(presented.view.alpha < 0.9 && presented.view.transform.values[0] < 1, "closing at once: alpha \(presented.view.alpha)")
        h.container.runUntilIdle(advancing: h.clock)
        #expect(presented.view.superview == nil && h.reports.map(\.kind) == [.appear, .disappear])
        #expect(h.reports.allSatisfy { $0.completed && !$0.fellBack })
        h.expectConsistent()
    }

    @Test func anAnimatorWithoutSwitchesLeavesSwitchesToTheDefault() throws {
        let pop = StandInAnimator("Pop", kinds: [.appearances, .disappearances])
        let (h, _, _) = harness(pop)
        try h.switchTo("b")
        let report = try #require(h.reports.last)
        #expect(report.animator == DefaultAnimator.name && report.fellBack)
        #expect(report.reason.contains("Pop plays only appearances and disappearances, not a switch"), "\(report.reason)")
        #expect(pop.context == nil, "never set up")
        h.expectConsistent()
    }

    @Test func dismissingDuringTheAppearanceReversesIt() throws {
        let (h, _, presented) = harness(StandInAnimator("Pop", kinds: .all))
        try h.container.present(presented, frame: window)
        h.clock.advance(by: 0.3)
        h.container.tick()
        try h.container.dismissPresented()
        #expect(h.container.isReversed)
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.map(\.completed) == [false])
        #expect(h.container.presentedViewController == nil && presented.view.superview == nil)
        #expect(presented.calls == ["willMove(container)", "didMove(nil)"])
        #expect(throws: PresentationError.nothingPresented) { try h.container.dismissPresented() }
        h.expectConsistent()
    }

    @Test func aSwitchWhileAChildIsPresentedHappensBeneathIt() throws {
        let (h, _, presented) = harness(StandInAnimator("Any", kinds: .all))
        try h.container.present(presented, frame: window)
        try h.container.select(named: "b")  // waits for the appearance, then runs beneath
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.map(\.kind) == [.appear, .switch])
        #expect(h.container.selectedViewController === h.child("b"))
        #expect(h.container.view.subviews.map(ObjectIdentifier.init) == [h.child("b").view, presented.view].map(ObjectIdentifier.init))
        #expect(throws: PresentationError.alreadyPresenting("window")) { try h.container.present(presented) }
        #expect(throws: PresentationError.isAChild("c")) { try h.container.present(h.child("c")) }
    }
}
