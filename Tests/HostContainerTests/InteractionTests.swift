import Foundation
import TestSupport
import Testing
@testable import Timing

@testable import HostContainer

/// Interactive, cancellable, reversible and interruptible transitions (the
/// edge-pan way back, percent-driven, with UIKit's timing), driven on a probe
/// animator whose progress is readable from the view. The same with the
/// bundled plugins: `PluginInteractionTests`.
struct InteractionTests {
    /// A harness whose every switch uses a probe: `t / duration` shows as the to view's alpha.
    func probeHarness(duration: Double = 1) -> (Harness, StandInAnimator) {
        let h = Harness()
        let probe = StandInAnimator("Probe", duration: duration)
        h.delegate = StandInDelegate(using: probe, reason: "probe")
        return (h, probe)
    }

    @Test func updateScrubsLinearlyInTimeAndHoldsThere() throws {
        let (h, probe) = probeHarness(duration: 0.8)
        let interaction = try #require(try h.container.selectInteractively(named: "b"))
        #expect(h.container.isInteracting && interaction.isActive)
        #expect(probe.context?.isInteractive == true)
        #expect(h.child("b").view.alpha == 0)
        interaction.update(0.3)
        #expect(approx(h.child("b").view.alpha, 0.3) && interaction.percentComplete == 0.3)
        h.clock.advance(by: 5)
        h.container.tick()
        #expect(approx(h.child("b").view.alpha, 0.3), "held while the interaction holds it")
        interaction.update(1.7)
        #expect(h.child("b").view.alpha == 1 && interaction.percentComplete == 1, "clamped to 1")
        interaction.update(.nan)
        #expect(interaction.percentComplete == 1, "NaN is ignored")
        #expect(h.container.runUntilIdle(advancing: h.clock) == 0, "runUntilIdle does not wait on a held transition")
        #expect(h.reports.isEmpty)
    }

    @Test func finishPlaysTheRestAtTheCompletionSpeedOnTheCompletionCurve() throws {
        let (h, probe) = probeHarness(duration: 1)
        let interaction = try #require(try h.container.selectInteractively(named: "b"))
        interaction.completionSpeed = 2
        interaction.update(0.6)
        interaction.finish()
        #expect(!interaction.isActive)
        // The rest takes (1 - 0.6) * 1 s / 2 = 0.2 s on easeInOut: halfway through, 0.6 + 0.4 * easeInOut(0.5).
        h.clock.advance(by: 0.1)
        h.container.tick()
        #expect(approx(h.child("b").view.alpha, 0.6 + 0.4 * TimingCurve.easeInEaseOut.value(at: 0.5)))
        h.clock.advance(by: 0.1)
        h.container.tick()
        #expect(!h.container.isTransitioning)
        #expect(h.reports.map(\.completed) == [true] && h.reports.first?.shown == "b" && h.reports.first?.interactive == true)
        #expect(probe.ended == [true])
        #expect(h.events.last == .didSelect("b"))
        interaction.cancel()
        #expect(h.reports.count == 1, "calls after the end are no-ops")
        h.expectConsistent()
    }

    @Test func aFlickFasterThanTheCompletionSpeedSetsThePace() throws {
        let (h, _) = probeHarness(duration: 1)
        let interaction = try #require(try h.container.selectInteractively(named: "b"))
        interaction.update(0.5)
        interaction.finish(velocity: 5)
        // 0.5 left at 5 per second: 0.1 s, linearly.
        h.clock.advance(by: 0.05)
        h.container.tick()
        #expect(approx(h.child("b").view.alpha, 0.75))
        h.clock.advance(by: 0.05)
        h.container.tick()
        #expect(h.reports.map(\.completed) == [true])
    }

    @Test func theContextsInteractiveCallsDriveTheTransition() throws {
        let (h, probe) = probeHarness(duration: 1)
        try #require(try h.container.selectInteractively(named: "b") != nil)
        let context = try #require(probe.context)
        context.updateInteractiveTransition(0.4)
        #expect(approx(h.child("b").view.alpha, 0.4))
        #expect(!context.transitionWasCancelled)
        context.cancelInteractiveTransition()
        #expect(context.transitionWasCancelled)
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.map(\.completed) == [false] && probe.ended == [false])
    }

    @Test func reversingTwiceFinishesAndTakesAsLongAsTheWayBack() throws {
        let (h, _) = probeHarness(duration: 1)
        var endedAt: Double?
        h.container.onTransitionEnd = { [unowned h] in h.reports.append($0); endedAt = h.clock.now }
        try h.container.select(named: "b")
        h.clock.advance(by: 0.4)
        h.container.tick()
        h.container.isReversed = true
        h.clock.advance(by: 0.1)
        h.container.tick()
        #expect(approx(h.child("b").view.alpha, 0.3), "played back at the animator's pace")
        h.container.isReversed = false
        h.container.runUntilIdle(advancing: h.clock, frameInterval: 0.05)
        #expect(h.reports.map(\.completed) == [true])
        #expect(approx(endedAt ?? 0, 1.2, 1e-6), "0.4 forward, 0.1 back, 0.7 forward")
        h.expectConsistent()
    }

    @Test func selectingTheChildBeingLeftReversesAndSelectingTheTargetAgainResumes() throws {
        let (h, _) = probeHarness(duration: 1)
        try h.container.select(named: "b")
        h.clock.advance(by: 0.5)
        h.container.tick()
        try h.container.select(named: "a")
        #expect(h.container.isReversed)
        h.clock.advance(by: 0.25)
        h.container.tick()
        try h.container.select(named: "b")
        #expect(!h.container.isReversed)
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.map { "\($0.from)->\($0.to) \($0.completed)" } == ["a->b true"])
        try h.container.select(named: "c")
        h.clock.advance(by: 0.5)
        h.container.tick()
        try h.container.select(named: "b")
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.map { "\($0.from)->\($0.to) \($0.completed)" } == ["a->b true", "b->c false"])
        h.expectConsistent()
    }

    @Test func aSelectionDuringAnInteractionWaitsForItsRelease() throws {
        for release in ["finish", "cancel"] {
            let (h, _) = probeHarness(duration: 0.5)
            let interaction = try #require(try h.container.selectInteractively(named: "b"))
            interaction.update(0.5)
            try h.container.select(named: "c")
            #expect(h.container.isInteracting, "the interaction keeps the transition")
            #expect(try h.container.selectInteractively(named: "c") == nil, "one interaction at a time")
            release == "finish" ? interaction.finish() : interaction.cancel()
            h.container.runUntilIdle(advancing: h.clock)
            let first = release == "finish" ? "a->b true" : "a->b false"
            let second = release == "finish" ? "b->c true" : "a->c true"
            #expect(h.reports.map { "\($0.from)->\($0.to) \($0.completed)" } == [first, second])
            #expect(h.container.selectedViewController === h.child("c"))
            h.expectConsistent()
        }
    }

    @Test func anInteractionAskedForMidTransitionStartsFromItsEnd() throws {
        let (h, _) = probeHarness(duration: 1)
        try h.container.select(named: "b")
        h.clock.advance(by: 0.3)
        h.container.tick()
        let interaction = try #require(try h.container.selectInteractively(named: "c"))
        #expect(h.reports.map { "\($0.from)->\($0.to) \($0.completed)" } == ["a->b true"])
        interaction.update(0.5)
        interaction.finish()
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.map { "\($0.from)->\($0.to) \($0.completed)" } == ["a->b true", "b->c true"])
        h.expectConsistent()
    }

    @Test func theEdgePanRule() {
        let pan = EdgePanGesture(width: 400)
        #expect(pan.progress(translation: -30) == 0 && pan.progress(translation: 100) == 0.25 && pan.progress(translation: 900) == 1)
        #expect(!pan.finishes(translation: 200, velocity: 0), "exactly 0.5 cancels")
        #expect(pan.finishes(translation: 204, velocity: 0))
        #expect(pan.finishes(translation: 80, velocity: 401), "a forward flick finishes below 0.5")
        #expect(!pan.finishes(translation: 80, velocity: 399))
        #expect(!pan.finishes(translation: 360, velocity: -401), "a backward flick cancels above 0.5")
        #expect(pan.finishes(translation: 360, velocity: -399))
        #expect(EdgePanGesture(width: 0).progress(translation: 10) == 0)
    }

    @Test func theEdgePanRuleReleasesAnInteraction() throws {
        for (translation, velocity, completed) in [(240.0, 0.0, true), (80, 500, true), (280, -500, false), (100, 0, false)] {
            let (h, _) = probeHarness()
            let pan = EdgePanGesture(width: h.container.view.bounds.width)
            let interaction = try #require(try h.container.selectInteractively(named: "b"))
            interaction.update(pan.progress(translation: translation))
            pan.release(interaction, translation: translation, velocity: velocity)
            h.container.runUntilIdle(advancing: h.clock)
            #expect(h.reports.map(\.completed) == [completed], "\(translation) at \(velocity)")
        }
    }
}
