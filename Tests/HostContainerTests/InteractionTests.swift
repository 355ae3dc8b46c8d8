import Foundation
@testable import HostConfig
@testable import PluginHost
import Testing
@testable import Timing

@testable import HostContainer

/// Interactive, cancellable, reversible and interruptible transitions (the
/// edge-pan way back, percent-driven, with UIKit's timing), for every animator: the bundled plugins and the default.
struct InteractionTests {
    static let animators = ["default", "SpringSlide", "CurlUp", "ImageZoom"]
    static let image = Rect(x: 10, y: 10, width: 50, height: 50), big = Rect(x: 0, y: 40, width: 320, height: 320)

    /// A harness whose switches use `animator`; a and b share an element, so ImageZoom animates a <-> b.
    func harness(_ animator: String) throws -> Harness {
        let h = Harness(["a", "b", "c"], elements: ["a": [("image", Self.image)], "b": [("image", Self.big)]])
        if animator != "default" {
            let d = try #require(bundledRegistry.animator(named: animator))
            h.delegate = BundledPluginTests.Delegate(d, d.parameters.map(\.defaultValue))
        }
        return h
    }

    /// Everything a transition may touch on a child, to compare before and after.
    struct Pose: Equatable {
        var frame: Rect, transform: Transform3D, alpha: Double, hidden: [Bool], parent: String?, inContainer: Bool
        init(_ vc: ViewController, in container: ContainerViewController) {
            let v = vc.view
            (frame, transform, alpha) = (v.frame, v.transform, v.alpha)
            hidden = [v.isHidden] + v.elements.map(\.isHidden)
            parent = vc.parent?.name
            inContainer = v.superview === container.view
        }
    }

    /// Records `t` and shows it as the to view's alpha: progress is readable from the view.
    final class Probe: TransitionAnimator {
        let name = "Probe", source = AnimatorSource.application
        let duration: Double
        var ended: [Bool] = []
        var context: TransitionContext?
        init(duration: Double) { self.duration = duration }
        func setup(_ context: TransitionContext) -> AnimatorSetup {
            self.context = context
            return .animate(TransitionPlan(duration: duration, layers: [LayerRequest(.view(.from)), LayerRequest(.view(.to))]))
        }
        func evaluate(at t: Double, layers: LayerStates) { layers[1].alpha = t / duration }
        func animationEnded(_ completed: Bool) { ended.append(completed) }
    }

    final class ProbeDelegate: ContainerViewControllerDelegate {
        let probe: Probe
        init(_ probe: Probe) { self.probe = probe }
        func containerViewController(_ c: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                     to: ViewController) -> AnimatorResolution { .use(probe, reason: "probe") }
    }

    func probeHarness(duration: Double = 1) -> (Harness, Probe) {
        let h = Harness()
        let probe = Probe(duration: duration)
        h.delegate = ProbeDelegate(probe)
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

    @Test(arguments: animators)
    func cancelRestoresTheFromChildExactlyAndTakesTheToChildOut(animator: String) throws {
        let h = try harness(animator)
        let a = h.child("a"), b = h.child("b")
        a.view.element(named: "image")!.isHidden = false
        let before = (Pose(a, in: h.container), Pose(b, in: h.container))
        h.events.removeAll()
        let interaction = try #require(try h.container.selectInteractively(named: "b"))
        for fraction in [0.2, 0.45, 0.3] {
            h.clock.advance(by: 1.0 / 60)
            interaction.update(fraction)
        }
        #expect(h.container.children.count == 2)
        interaction.cancel()
        h.container.runUntilIdle(advancing: h.clock)
        let report = try #require(h.reports.first)
        #expect(report.completed == false && report.shown == "a" && report.interactive)
        #expect(Pose(a, in: h.container) == before.0, "the from child is exactly as before")
        #expect(Pose(b, in: h.container) == before.1, "the to child is back out")
        #expect(h.container.selectedViewController === a)
        #expect(h.events == [
            .willMoveToParent(child: "a", parent: nil),
            .addChild("b"),
            .transitionStarted(from: "a", to: "b", animator: report.animator),
            .removeFromSuperview("b"),
            .removeFromParent("b"),
            .didMoveToParent(child: "a", parent: "container"),
            .animationEnded(animator: report.animator, completed: false),
        ], "no didSelect after a cancel")
        #expect(a.calls.suffix(2) == ["willMove(nil)", "didMove(container)"])
        #expect(b.calls == ["willMove(container)", "didMove(nil)"])
        h.expectConsistent()
        // And the container switches normally afterwards.
        try h.switchTo("b")
        #expect(h.reports.last?.completed == true && h.reports.last?.shown == "b")
        h.expectConsistent()
    }

    @Test func cancellingAPluginCallsItsEndWithCompletedFalseOnce() throws {
        let folder = makeTemporaryFolder("cancel-end")
        let file = try CPlugin.build(CPlugin.fixtureSource, name: "fade", into: folder)
        let registry = AnimatorRegistry(folders: [folder], isolation: .none)
        let d = try #require(registry.animator(named: "TestFade"))
        let h = Harness()
        h.delegate = BundledPluginTests.Delegate(d, d.parameters.map(\.defaultValue))
        let interaction = try #require(try h.container.selectInteractively(named: "b"))
        interaction.update(0.4)
        interaction.cancel()
        h.container.runUntilIdle(advancing: h.clock)
        #expect(CPlugin.counter("fixture_setup_calls", in: file) == 1)
        #expect(CPlugin.counter("fixture_end_calls", in: file) == 1)
        #expect(CPlugin.counter("fixture_last_completed", in: file) == 0)
        h.expectConsistent()
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

    @Test(arguments: animators)
    func reversingMidFlightPlaysBackToTheStart(animator: String) throws {
        let h = try harness(animator)
        let before = Pose(h.child("a"), in: h.container)
        try h.container.select(named: "b")
        h.clock.advance(by: 0.1)
        h.container.tick()
        h.container.isReversed = true
        #expect(h.container.isReversed)
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.map(\.completed) == [false] && h.reports.first?.shown == "a")
        #expect(Pose(h.child("a"), in: h.container) == before)
        #expect(!h.events.contains(.didSelect("b")))
        h.expectConsistent()
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

    @Test func anAnimatorThatFailsMidInteractionIsReplacedAndStaysHeld() throws {
        let folder = makeTemporaryFolder("interactive-nan")
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "nan", defines: ["FAULT_NAN"], into: folder)
        let d = try #require(AnimatorRegistry(folders: [folder], isolation: .none).animator(named: "TestFade"))
        let h = Harness()
        h.delegate = BundledPluginTests.Delegate(d, d.parameters.map(\.defaultValue))
        let interaction = try #require(try h.container.selectInteractively(named: "b"))
        interaction.update(0.8)
        #expect(h.container.isInteracting, "the default took over, still held")
        interaction.cancel()
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.first?.animator == "default" && h.reports.first?.completed == false)
        #expect(h.reports.first?.reason.contains("TestFade produced a non-finite") == true)
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

    @Test func scriptStepsParseAndBadOnesNameTheirKey() throws {
        let good = #"""
        {"children": ["a", "b"], "script": ["b", {"select": "a", "interactive": [0.2, 0.45], "release": "cancel"},
         {"select": "a", "interactive": [0.1], "release": "finish", "velocity": 2.5}, {"select": "b"}]}
        """#
        let c = try SegueConfig.parse(Data(good.utf8), file: "s.json", baseDirectory: "/")
        #expect(c.script == ["b", ScriptStep(child: "a", interactive: [0.2, 0.45], release: .cancel),
                             ScriptStep(child: "a", interactive: [0.1], release: .finish, velocity: 2.5), "b"])
        let bad: [(String, String, String)] = [
            (#"[{"select": "a", "release": "finish"}]"#, "$.script[0].release", "'release' only with 'interactive'"),
            (#"[{"select": "a", "interactive": [0.2, 1.5]}]"#, "$.script[0].interactive[1]", "a fraction from 0 to 1"),
            (#"[{"select": "a", "interactive": []}]"#, "$.script[0].interactive", "a non-empty array of fractions from 0 to 1"),
            (#"[{"select": "a", "interactive": [0.5], "release": "later"}]"#, "$.script[0].release", "one of 'finish', 'cancel', 'gesture'"),
            (#"[{"select": "z"}]"#, "$.script[0].select", "the name of a child (a, b)"),
            (#"[{"interactive": [0.5]}]"#, "$.script[0].select", "the name of the child to select"),
            (#"[{"select": "a", "speed": 2}]"#, "$.script[0].speed", "one of the keys 'select', 'interactive', 'release', 'velocity'"),
        ]
        for (script, keyPath, expected) in bad {
            let json = #"{"children": ["a", "b"], "script": \#(script)}"#
            #expect(throws: ConfigError.self) { try SegueConfig.parse(Data(json.utf8), file: "s.json", baseDirectory: "/") }
            do {
                _ = try SegueConfig.parse(Data(json.utf8), file: "s.json", baseDirectory: "/")
            } catch {
                #expect(error.keyPath == keyPath && error.expected == expected, "\(error)")
            }
        }
    }

    /// The issue's acceptance check, through the real tool.
    @Test func segueRunPlaysInteractiveStepsAndReportsWhatIsShown() throws {
        let folder = makeTemporaryFolder()
        try """
        {"children": ["a", "b", "grid", "detail"],
         "script": ["grid", "detail",
                    {"select": "grid", "interactive": [0.2, 0.45, 0.3], "release": "cancel"},
                    {"select": "b", "interactive": [0.1, 0.3], "release": "finish", "velocity": 2.5}]}
        """.write(toFile: folder + "/s.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["run", "--config", "s.json", "--json"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        let lines = try ToolTests().jsonLines(result.out)
        #expect(lines.map { $0["completed"] as? Bool } == [true, true, false, true])
        #expect(lines.map { $0["shown"] as? String } == ["grid", "detail", "detail", "b"])
        #expect(lines.map { $0["interactive"] as? Bool } == [false, false, true, true])
        #expect(lines[2]["to"] as? String == "grid" && lines[3]["from"] as? String == "detail")
    }
}
