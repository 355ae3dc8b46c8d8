import Foundation
import Glibc
@testable import HostContainer
@testable import PluginHost
import TestSupport
import Testing
@testable import Embedding
import EmbedABI
import AnimatorABI
import SystemCalls

/// Frames evaluated ahead (Evaluator, "Ahead"): a host on a regular clock
/// gets the plugin's own answers at the times evaluated, in one round trip
/// for several frames, and a plugin's failure at a later t still costs it
/// only from there.
@Suite("libsegue evaluates frames ahead", .serialized)
struct LibsegueAheadTests {
    /// An animator that can evaluate ahead, in this process: it notes every
    /// batch of times and every single t it is asked for, and answers alpha =
    /// t, or NaN from `nanFrom` on.
    final class AheadAnimator: TransitionAnimator, BoundedEvaluation, AheadEvaluation, @unchecked Sendable {
        let name = "Ahead"
        let source = AnimatorSource.application
        let nanFrom: Double
        private let lock = NSLock()
        private var asked: (batches: [[Double]], singles: [Double]) = ([], [])
        var batches: [[Double]] { lock.withLock { asked.batches } }
        var singles: [Double] { lock.withLock { asked.singles } }

        init(nanFrom: Double = .infinity) { self.nanFrom = nanFrom }

        func setup(_ context: TransitionContext) -> AnimatorSetup { .animate(TransitionPlan(duration: 1, layers: [LayerRequest(.view(.from))])) }
        func evaluate(at t: Double, layers: LayerStates) {
            lock.withLock { asked.singles.append(t) }
            layers[0].alpha = t >= nanFrom ? .nan : t
        }
        func animationEnded(_ completed: Bool) {}
        func evaluate(at t: Double, layers: LayerStates, within patience: Double) -> BoundedAnswer {
            evaluate(at: t, layers: layers)
            return .answered
        }
        func collect(into layers: LayerStates) -> Bool { false }
        func evaluate(ahead times: UnsafeBufferPointer<Double>, from layers: LayerStates, into frame: (Int) -> LayerStates) -> Int {
            lock.withLock { asked.batches.append(Array(times)) }
            for (j, t) in times.enumerated() { frame(j)[0].alpha = t >= nanFrom ? .nan : t }
            return times.count
        }
    }

    /// An evaluator of `animator` over a one-layer plan of a second; `failed` hears its failure.
    static func evaluator(of animator: any TransitionAnimator, failed: @escaping @Sendable (String, Double) -> Void = { _, _ in }) throws -> Evaluator {
        let container = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let from = ViewController(name: "a", view: View(frame: container.bounds)), to = ViewController(name: "b", view: View(frame: container.bounds))
        container.addSubview(from.view)
        container.addSubview(to.view)
        let context = TransitionContext(from: from, to: to, containerView: container, goingRight: true, isInteractive: false) { _ in }
        let layout = LayerBuffer.Layout(plan: TransitionPlan(duration: 1, layers: [LayerRequest(.view(.from))]), context: context)
        return try #require(Evaluator(animator: animator, layers: layout, hiddenAtFirst: [], duration: 1, failed: failed))
    }

    /// Waits (10 s at most) until `animator` has been asked `count` batches.
    static func waitForBatches(_ animator: AheadAnimator, _ count: Int) {
        let deadline = Date().addingTimeInterval(10)
        while animator.batches.count < count && Date() < deadline { usleep(1000) }
    }

    /// The first frames are evaluated as the transition starts, in one
    /// batch; a sample within the tolerance of a time evaluated gets the
    /// plugin's answer at that time (never one made up between two); a
    /// prefetch a step on asks for the next frames in one batch; no sample
    /// asks the plugin on its own.
    @Test func aSampleTakesThePluginsAnswerAtTheTimeEvaluatedAhead() throws {
        let animator = AheadAnimator()
        let evaluator = try Self.evaluator(of: animator)
        defer { evaluator.stop() }
        evaluator.start(at: 0, step: 0.1, until: MonotonicTime.now + 10)
        #expect(animator.batches == [[0, 0.1]], "the first two frames, at once: \(animator.batches)")
        var alpha = -1.0
        #expect(evaluator.sample(at: 0, within: 20) { alpha = $0[0].alpha } == .fresh && alpha == 0)
        let near = 0.1 + Evaluator.aheadTolerance / 2
        #expect(evaluator.sample(at: near, within: 20) { alpha = $0[0].alpha } == .fresh && alpha == 0.1,
                "the answer at 0.1, not at \(near): \(alpha)")
        #expect(evaluator.sample(at: 0.1, within: 20) { alpha = $0[0].alpha } == .fresh && alpha == 0.1)
        evaluator.prefetch(at: 0.2)
        Self.waitForBatches(animator, 2)
        let second = try #require(animator.batches.dropFirst().first, "a second batch: \(animator.batches)")
        #expect(second.count == 2 && abs(second[0] - 0.2) < 1e-9 && abs(second[1] - 0.3) < 1e-9, "\(second)")
        #expect(evaluator.sample(at: 0.2, within: 20) { alpha = $0[0].alpha } == .fresh && alpha == second[0])
        #expect(animator.singles.isEmpty, "no sample asked on its own: \(animator.singles)")
        // Outside the tolerance of every frame: the plugin is asked for that t itself.
        #expect(evaluator.sample(at: 0.75, within: 20) { alpha = $0[0].alpha } == .fresh && alpha == 0.75)
        #expect(animator.singles == [0.75])
    }

    /// A frame evaluated ahead that is not finite fails the transition only
    /// when a sample reaches it: the frames before it play, fresh.
    @Test func aFrameThatIsNotFiniteFailsOnlyWhenASampleReachesIt() throws {
        final class Failures: @unchecked Sendable {
            let lock = NSLock()
            var heard: [(String, Double)] = []
        }
        let failures = Failures()
        let animator = AheadAnimator(nanFrom: 0.3)
        let evaluator = try Self.evaluator(of: animator) { why, t in failures.lock.withLock { failures.heard.append((why, t)) } }
        defer { evaluator.stop() }
        evaluator.start(at: 0, step: 0.1, until: MonotonicTime.now + 10)
        var alpha = -1.0
        for (k, t) in [0, 0.1, 0.2].enumerated() {
            Self.waitForBatches(animator, k / 2 + 1)
            // A sample on the clock, and the prefetch of the next frame, as a host makes them.
            let answer = evaluator.sample(at: t, within: 20) { alpha = $0[0].alpha }
            #expect(answer == .fresh && abs(alpha - t) < 1e-9, "at \(t): \(answer), \(alpha)")
            evaluator.prefetch(at: t + 0.1)
        }
        Self.waitForBatches(animator, 2)
        #expect(animator.batches.joined().contains { abs($0 - 0.3) < 1e-9 }, "0.3 was evaluated ahead: \(animator.batches)")
        #expect(failures.lock.withLock { failures.heard.isEmpty }, "not failed before a sample reached 0.3")
        let answer = evaluator.sample(at: 0.3, within: 20) { alpha = $0[0].alpha }
        guard case .failed(let why) = answer else {
            Issue.record("the sample at 0.3 fails: \(answer)")
            return
        }
        #expect(why.contains("alpha"), "\(why)")
        let heard = failures.lock.withLock { failures.heard }
        #expect(heard.count == 1 && abs((heard.first?.1 ?? 0) - 0.3) < 1e-9, "said once, at 0.3: \(heard)")
    }

    /// Through the C API, a sandboxed plugin in its worker: samples on a
    /// 64 Hz clock, each followed by the prefetch of the next frame (answered
    /// from frames evaluated ahead), give exactly the states that samples of
    /// the same times in reverse order (each asked of the worker on its own)
    /// give. (A 64th of a second adds up without rounding, so the times
    /// evaluated ahead are the very times sampled; on another clock they may
    /// differ from them in the last bits.)
    @Test func framesEvaluatedAheadInAWorkerAreItsOwnAnswers() throws {
        let player = try LibseguePromiseTests.player(try CPlugin.curveSlide(builtAgainst: "1.2")) { $0.flags |= SEGUE_PLAYER_NO_SPIN }
        defer { seguePlayerFree(player) }
        let times = (0...25).map { Double($0) / 64 }  // CurveSlide plays 0.4 s
        var seen: [[Double]] = []
        for ahead in [true, false] {
            let transition = try LibseguePromiseTests.begin(player, "CurveSlide")
            defer { segueTransitionFree(transition) }
            let plan = LibseguePromiseTests.plan(transition)
            #expect(plan.animator == "CurveSlide" && !plan.fellBack, "\(plan.reason)")
            var states: [Double: [Double]] = [:]
            for t in ahead ? times : times.reversed() {
                states[t] = LibsegueKindsTests.states(transition, at: t).flatMap { [$0.frame.x, $0.frame.y, $0.frame.width, $0.alpha] }
                if ahead { #expect(segueTransitionPrefetch(transition, t + 1.0 / 64) == SEGUE_OK) }
            }
            seen.append(times.flatMap { states[$0] ?? [] })
        }
        #expect(seen[0].count == times.count * 8 && seen[0] == seen[1], "ahead \(seen[0]), one by one \(seen[1])")
        #expect(Set(seen[0]).count > 8, "the states change over the transition")
    }

    /// A plugin in its worker asked for several frames at once: it answers
    /// them all in one round trip; when it crashes at one of them (past a
    /// quarter of its half second), the report names that frame's t, not
    /// the first t asked for.
    @Test func aWorkerThatCrashesWhileEvaluatingAheadIsReportedAtTheFrameItCrashedOn() throws {
        let plugin = try CPlugin.fixture("ahead-crash", "FAULT_CRASH_EVALUATE")
        let registry = AnimatorRegistry(folders: [plugin.folder], isolation: .process)
        let descriptor = try #require(registry.animator(named: "TestFade"))
        let animator = descriptor.makeAnimator(parameters: descriptor.parameters.map(\.defaultValue))
        let ahead = try #require(animator as? any AheadEvaluation, "a plugin in a worker evaluates ahead")
        let container = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let from = ViewController(name: "a", view: View(frame: container.bounds)), to = ViewController(name: "b", view: View(frame: container.bounds))
        container.addSubview(from.view)
        container.addSubview(to.view)
        let context = TransitionContext(from: from, to: to, containerView: container, goingRight: true, isInteractive: false) { _ in }
        guard case .animate(let plan) = animator.setup(context) else {
            Issue.record("TestFade plans: \(String(describing: animator.failure))")
            return
        }
        defer { animator.animationEnded(false) }
        let layout = LayerBuffer.Layout(plan: plan, context: context)
        let template = LayerBuffer(layout), frames = (0..<4).map { _ in LayerBuffer(layout) }
        func ask(_ times: [Double]) -> Int {
            times.withUnsafeBufferPointer { ahead.evaluate(ahead: $0, from: template.states) { frames[$0].states } }
        }
        #expect(ask([0, 0.05, 0.1]) == 3 && animator.failure == nil)
        #expect(frames[1][0].alpha == 0.9 && frames[2][0].alpha == 0.8, "each frame its own t's answer: \(frames.map { $0[0].alpha })")
        #expect(ask([0.09, 0.12, 0.15, 0.18]) == 0)
        let failure = try #require(animator.failure)
        #expect(failure.contains("crashed with signal 11") && failure.contains("in evaluate at t = 0.150 s"), "\(failure)")
    }
}
