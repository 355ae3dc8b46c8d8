import Foundation
@testable import HostConfig
@testable import PluginHost
import TestSupport
import Testing

@testable import HostContainer

/// Animators that decline, break the plan rules or produce non-finite values
/// never crash the host: the built-in default takes over, the report says
/// why, the transition completes exactly once, and the container ends consistent.
struct FallbackTests {
    /// A harness whose config rule picks the fixture plugin, built with `defines`, for a -> b.
    func fixtureHarness(_ label: String, _ defines: [String], parameters: String = "{}") throws -> (Harness, String) {
        let folder = makeTemporaryFolder("fallback-\(label)")
        let file = try CPlugin.build(CPlugin.fixtureSource, name: label, defines: defines, into: folder)
        let registry = AnimatorRegistry(folders: [folder], isolation: .none)
        #expect(registry.rejections.isEmpty, "\(registry.rejections)")
        let config = try SegueConfig.parse(
            Data(#"{"children": ["a", "b", "c"], "rules": [{"to": "b", "animator": "TestFade", "parameters": \#(parameters)}]}"#.utf8),
            file: "t.json", baseDirectory: "/")
        let h = Harness()
        h.delegate = ConfigDrivenDelegate(config: config, registry: registry)
        return (h, file)
    }

    /// Runs a -> b with the fixture plugin built with `defines`.
    func runFixture(_ label: String, _ defines: String...) throws -> (Harness, TransitionReport, String) {
        let (h, file) = try fixtureHarness(label, defines)
        try h.switchTo("b")
        h.expectConsistent()
        #expect(h.reports.count == 1)
        return (h, try #require(h.reports.first), file)
    }

    @Test func aWorkingCPluginRunsWithItsConfiguredParameter() throws {
        let (h, file) = try fixtureHarness("fade", [], parameters: #"{"level": 0.25}"#)
        try h.container.select(named: "b")
        h.clock.advance(by: 0.125)
        h.container.tick()
        // f = 0.25, so the to view's alpha is f * 2 * level = 0.125.
        #expect(approx(h.child("b").view.alpha, 0.125))
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.first?.animator == "TestFade" && h.reports.first?.source == .plugin(path: file))
        #expect(CPlugin.counter("fixture_end_calls", in: file) == 1, "end is called exactly once")
        #expect(CPlugin.counter("fixture_last_completed", in: file) == 1)
        h.expectConsistent()
    }

    @Test func aDecliningAnimatorHandsOverToTheDefaultWithItsReason() throws {
        let (_, report, file) = try runFixture("decline", "FAULT_DECLINE")
        #expect(report.animator == "default" && report.source == .builtin && report.completed && report.fellBack)
        #expect(report.reason == "TestFade declined: this fixture always declines; the built-in default ran instead")
        #expect(CPlugin.counter("fixture_end_calls", in: file) == 0, "end follows only a successful setup")
    }

    @Test func anUnknownSetupResultIsTreatedAsADecline() throws {
        let (_, report, _) = try runFixture("result7", "FAULT_SETUP_RESULT")
        #expect(report.reason == "TestFade declined: setup returned 7, which is neither SEGUE_SETUP_ANIMATE nor SEGUE_SETUP_DECLINE; the built-in default ran instead")
    }

    @Test func tooManyLayersIsAnUnusablePlan() throws {
        let (_, report, file) = try runFixture("layers9", "FAULT_TOO_MANY_LAYERS")
        #expect(report.animator == "default")
        #expect(report.reason == "TestFade planned an unusable transition: layer_count is 9, at most 8 are allowed; the built-in default ran instead")
        #expect(CPlugin.counter("fixture_end_calls", in: file) == 1)
        #expect(CPlugin.counter("fixture_last_completed", in: file) == 0)
    }

    @Test func anUnknownLayerKindIsAnUnusablePlan() throws {
        let (_, report, file) = try runFixture("kind42", "FAULT_BAD_LAYER_KIND")
        #expect(report.reason == "TestFade planned an unusable transition: layers[1].kind is 42, not a segue_layer_kind_t value; the built-in default ran instead")
        #expect(CPlugin.counter("fixture_end_calls", in: file) == 1, "a successful setup is always followed by end")
    }

    @Test func aMeshFinerThanTheABIAllowsIsAnUnusablePlan() throws {
        let (_, report, _) = try runFixture("mesh65", "FAULT_BIG_MESH")
        #expect(report.reason == "TestFade planned an unusable transition: layer 1 asks for a 65x1 mesh; the built-in default ran instead")
    }

    @Test func hidingAnElementThatDoesNotExistIsAnUnusablePlan() throws {
        let (_, report, _) = try runFixture("element99", "FAULT_BAD_ELEMENT")
        #expect(report.reason == "TestFade planned an unusable transition: hidden element 99 of the to view does not exist (it has 0); the built-in default ran instead")
    }

    @Test func anAnimatorThatReturnsNaNIsReplacedMidwayAndTheTransitionStillCompletes() throws {
        let (h, report, file) = try runFixture("nan", "FAULT_NAN")
        #expect(report.animator == "default" && report.source == .builtin && report.completed)
        #expect(report.reason.hasPrefix("TestFade produced a non-finite alpha for layer 0 at t = "))
        #expect(report.reason.hasSuffix("; the built-in default finished the transition") && report.fellBack)
        #expect(CPlugin.counter("fixture_end_calls", in: file) == 1)
        #expect(CPlugin.counter("fixture_last_completed", in: file) == 0, "the abandoned animator hears completed = false")
        let ended = h.events.filter { if case .animationEnded = $0 { true } else { false } }
        #expect(ended == [.animationEnded(animator: "default", completed: true)], "the transition completes exactly once")
        #expect(h.events.filter { $0 == .didSelect("b") }.count == 1)
    }
}

/// The plain C example in Examples/, built with the system C compiler against
/// the header alone, loads and is selected by name.
struct CExampleTests {
    @Test func theCurveSlideExampleBuildsLoadsAndIsSelectedByName() throws {
        let folder = makeTemporaryFolder("c-example")
        let file = try CPlugin.build(Paths.packageRoot + "/Examples/c-animator/curve_slide.c", name: "CurveSlide", into: folder)
        let registry = AnimatorRegistry(folders: [folder], isolation: .none)
        let slide = try #require(registry.animator(named: "CurveSlide"))
        #expect(slide.id == "org.segue.example.curve-slide/1" && slide.file == file)
        let config = try SegueConfig.parse(
            Data(#"{"children": ["a", "b", "c"], "rules": [{"to": "b", "animator": "CurveSlide", "parameters": {"curve": "linear"}}]}"#.utf8),
            file: "t.json", baseDirectory: "/")
        let h = Harness()
        h.delegate = ConfigDrivenDelegate(config: config, registry: registry)
        try h.container.select(named: "b")
        // The frames the host computed, followed linearly: at t = 0.1 of 0.4 s, a quarter of the way.
        #expect(h.child("b").view.frame.x == 320)
        h.clock.advance(by: 0.1)
        h.container.tick()
        #expect(approx(h.child("a").view.frame.x, -80) && approx(h.child("b").view.frame.x, 240))
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.first?.animator == "CurveSlide" && h.reports.first?.duration == 0.4)
        h.expectConsistent()
    }
}
