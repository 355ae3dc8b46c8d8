import Foundation
@testable import PluginHost
import HostTestSupport
import TestSupport
import Testing

@testable import HostContainer

/// Interactive, cancellable and reversible transitions with every animator:
/// the bundled plugins (their real .so files, in this process) and the
/// default; a plugin hears its end once, and one that fails mid-interaction is
/// replaced and stays held.
struct PluginInteractionTests {
    static let animators = ["default", "SpringSlide", "CurlUp", "ImageZoom"]
    static let image = Rect(x: 10, y: 10, width: 50, height: 50), big = Rect(x: 0, y: 40, width: 320, height: 320)

    /// A harness whose switches use `animator`; a and b share an element, so ImageZoom animates a <-> b.
    func harness(_ animator: String) throws -> Harness {
        let h = Harness(["a", "b", "c"], elements: ["a": [("image", Self.image)], "b": [("image", Self.big)]])
        if animator != "default" {
            let d = try #require(bundledRegistry.animator(named: animator))
            h.delegate = FixedDelegate(d, d.parameters.map(\.defaultValue))
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
        h.delegate = FixedDelegate(d, d.parameters.map(\.defaultValue))
        let interaction = try #require(try h.container.selectInteractively(named: "b"))
        interaction.update(0.4)
        interaction.cancel()
        h.container.runUntilIdle(advancing: h.clock)
        #expect(CPlugin.counter("fixture_setup_calls", in: file) == 1)
        #expect(CPlugin.counter("fixture_end_calls", in: file) == 1)
        #expect(CPlugin.counter("fixture_last_completed", in: file) == 0)
        h.expectConsistent()
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

    @Test func anAnimatorThatFailsMidInteractionIsReplacedAndStaysHeld() throws {
        let folder = makeTemporaryFolder("interactive-nan")
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "nan", defines: ["FAULT_NAN"], into: folder)
        let d = try #require(AnimatorRegistry(folders: [folder], isolation: .none).animator(named: "TestFade"))
        let h = Harness()
        h.delegate = FixedDelegate(d, d.parameters.map(\.defaultValue))
        let interaction = try #require(try h.container.selectInteractively(named: "b"))
        interaction.update(0.8)
        #expect(h.container.isInteracting, "the default took over, still held")
        interaction.cancel()
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.first?.animator == "default" && h.reports.first?.completed == false)
        #expect(h.reports.first?.reason.contains("TestFade produced a non-finite") == true)
        h.expectConsistent()
    }
}
