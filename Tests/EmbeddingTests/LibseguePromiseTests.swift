import Dispatch
import Foundation
import Glibc
import SystemCalls
@testable import HostContainer
@testable import PluginHost
import TestSupport
import Testing
@testable import Embedding
import EmbedABI
import AnimatorABI

/// What segue/embed.h promises, each held by a test that failed before the
/// promise was kept: samples from two threads, bounds under the default, a
/// non-finite answer, the statuses a sample answers, the built-in default's
/// parameters, and allocation from the first sample on.
@Suite("libsegue keeps its header's promises", .serialized)
struct LibseguePromiseTests {
    /// A player over one plugin folder, made on the calling thread (its main
    /// thread), with options `configure` sets beside the folder.
    static func player(_ folder: String, boundMicroseconds: UInt32 = 0,
                       configure: (inout segue_player_options_t) -> Void = { _ in }) throws -> OpaquePointer {
        var options = segue_player_options_t()
        options.struct_size = UInt32(MemoryLayout<segue_player_options_t>.size)
        options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS
        options.sample_bound_us = boundMicroseconds
        configure(&options)
        var made: OpaquePointer?
        let status = folder.withCString { path in
            var folders: [UnsafePointer<CChar>?] = [path]
            return folders.withUnsafeMutableBufferPointer { list in
                options.plugin_dirs = UnsafePointer(list.baseAddress)
                options.plugin_dir_count = 1
                return seguePlayerNew(&options, &made)
            }
        }
        return try #require(made, "segue_player_new: \(status.rawValue) \(String(cString: segueErrorMessage()!))")
    }

    /// segue_transition_begin, again (5 times at most) while the plan says the plugin's setup came after
    /// begin's 100 ms bound: a busy machine's (the worker runs ten nice levels down), where the default
    /// plays and a test of the plugin would see nothing of it.
    static func beginInTime(_ player: OpaquePointer, _ desc: inout segue_transition_desc_t, _ made: inout OpaquePointer?) -> segue_status_t {
        var status = segueTransitionBegin(player, &desc, &made)
        for _ in 1..<5 {
            guard status == SEGUE_OK, let transition = made else { break }
            let plan = plan(transition)
            guard plan.fellBack, plan.reason.contains(" did not set up within ") else { break }
            segueTransitionFree(transition)
            made = nil
            status = segueTransitionBegin(player, &desc, &made)
        }
        return status
    }

    /// A switch between two 390 x 844 views played by `animator`.
    static func begin(_ player: OpaquePointer, _ animator: String) throws -> OpaquePointer {
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = segue_rect_t(x: 0, y: 0, width: 390, height: 844)
        var made: OpaquePointer?
        let status = "a".withCString { a in
            "b".withCString { b in
                animator.withCString { name in
                    desc.from = segue_view_t(name: a, frame: desc.bounds, elements: nil, element_count: 0)
                    desc.to = segue_view_t(name: b, frame: desc.bounds, elements: nil, element_count: 0)
                    desc.animator = name
                    return beginInTime(player, &desc, &made)
                }
            }
        }
        return try #require(made, "segue_transition_begin: \(status.rawValue) \(String(cString: segueErrorMessage()!))")
    }

    static func plan(_ transition: OpaquePointer) -> (animator: String, fellBack: Bool, reason: String, layers: Int) {
        var plan = segue_plan_info_t()
        plan.struct_size = UInt32(MemoryLayout<segue_plan_info_t>.size)
        _ = segueTransitionPlan(transition, &plan)
        return (String(cString: plan.animator), plan.fell_back, String(cString: plan.reason), Int(plan.layer_count))
    }

    /// Samples two layers (no mesh) at `t`; the status.
    static func sample(_ transition: OpaquePointer, at t: Double) -> segue_status_t {
        var states = [segue_layer_state_t](repeating: segue_layer_state_t(), count: 2)
        for i in states.indices { states[i].struct_size = UInt32(MemoryLayout<segue_layer_state_t>.size) }
        return states.withUnsafeMutableBufferPointer { buffer in
            var pointers: [UnsafeMutablePointer<segue_layer_state_t>?] = [buffer.baseAddress!, buffer.baseAddress! + 1]
            return segueTransitionSample(transition, t, &pointers, 2)
        }
    }

    /// Samples at `t` until the plugin has answered (a healthy plugin can be
    /// later than the bound on a busy machine: SEGUE_LATE), 10 s at most; the
    /// first other status.
    static func answered(_ transition: OpaquePointer, at t: Double) -> segue_status_t {
        let deadline = Date().addingTimeInterval(10)
        var status = sample(transition, at: t)
        while status == SEGUE_LATE && Date() < deadline {
            usleep(1000)
            status = sample(transition, at: t)
        }
        return status
    }

    /// An animator whose first bounded evaluation waits until the test lets
    /// it go, so that a second sampler arrives while the first is asking.
    final class GatedAnimator: TransitionAnimator, BoundedEvaluation, @unchecked Sendable {
        let name = "Gated"
        let source = AnimatorSource.application
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private var gated = true

        func setup(_ context: TransitionContext) -> AnimatorSetup { .animate(TransitionPlan(duration: 1, layers: [LayerRequest(.view(.from))])) }
        func evaluate(at t: Double, layers: LayerStates) { layers[0].alpha = t }
        func animationEnded(_ completed: Bool) {}
        func evaluate(at t: Double, layers: LayerStates, within patience: Double) -> BoundedAnswer {
            if gated {
                gated = false
                entered.signal()
                release.wait()
            }
            layers[0].alpha = t
            return .answered
        }
        func collect(into layers: LayerStates) -> Bool { false }
    }

    /// An evaluator of `animator` over a switch between two 100 x 100 views, its plan one layer for a second.
    static func evaluator(of animator: any TransitionAnimator) throws -> Evaluator {
        let container = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let from = ViewController(name: "a", view: View(frame: container.bounds)), to = ViewController(name: "b", view: View(frame: container.bounds))
        container.addSubview(from.view)
        container.addSubview(to.view)
        let context = TransitionContext(from: from, to: to, containerView: container, goingRight: true, isInteractive: false) { _ in }
        let layout = LayerBuffer.Layout(plan: TransitionPlan(duration: 1, layers: [LayerRequest(.view(.from))]), context: context)
        return try #require(Evaluator(animator: animator, layers: layout, hiddenAtFirst: []) { _, _ in })
    }

    /// Two threads sample one transition at different times: the second,
    /// arriving while the first asks the plugin, gets the states at its own t
    /// once the first is answered, not the first's states after waiting out
    /// the whole bound (the bound here is long, so a lost wake-up shows as a
    /// held answer rather than as a late one on a busy machine).
    /// options.workers_memory (1.4) sets the memory the player's workers
    /// share; 0 leaves it to the config (else 4 GiB); less than a worker
    /// needs is refused, naming the member.
    @Test func thePlayersWorkersShareTheMemoryItsProgramGives() throws {
        let folder = makeTemporaryFolder("workers-memory")
        func budget(_ player: OpaquePointer) -> UInt64? {
            let made = Unmanaged<Player>.fromOpaque(UnsafeRawPointer(player)).takeUnretainedValue()
            return (made.registry.factory as? WorkerFactory)?.pool.settings.sandbox.totalMemory
        }
        let given = try Self.player(folder) { $0.workers_memory = 300 << 20 }
        defer { seguePlayerFree(given) }
        #expect(budget(given) == 300 << 20)
        let standard = try Self.player(folder)
        defer { seguePlayerFree(standard) }
        #expect(budget(standard) == 4 << 30)

        var options = segue_player_options_t()
        options.struct_size = UInt32(MemoryLayout<segue_player_options_t>.size)
        options.workers_memory = 1 << 20
        var refused: OpaquePointer?
        #expect(seguePlayerNew(&options, &refused) == SEGUE_E_INVALID_ARGUMENT && refused == nil)
        #expect(String(cString: segueErrorMessage()!).contains("options.workers_memory is 1048576: expected 0 (the config's, else 4 GiB) or at least 268435456 (256 MiB)"))
    }

    @Test func aSecondSamplingThreadGetsItsOwnAnswerOnceTheFirstIsAnswered() throws {
        let animator = GatedAnimator()
        let evaluator = try Self.evaluator(of: animator)
        let bound = 20.0
        final class Outcome: @unchecked Sendable { var answer: Evaluator.Answer?; var alpha = -1.0 }
        let first = Outcome(), second = Outcome()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            first.answer = evaluator.sample(at: 0.25, within: bound) { first.alpha = $0[0].alpha }
        }
        #expect(animator.entered.wait(timeout: .now() + 10) == .success, "the first sample asks the plugin")
        DispatchQueue.global().async(group: group) {
            second.answer = evaluator.sample(at: 0.75, within: bound) { second.alpha = $0[0].alpha }
        }
        let deadline = Date().addingTimeInterval(10)
        while evaluator.waitingSamples == 0 && Date() < deadline { usleep(1000) }
        #expect(evaluator.waitingSamples == 1, "the second sample waits while the first asks")
        animator.release.signal()
        #expect(group.wait(timeout: .now() + bound + 10) == .success)
        evaluator.stop()
        #expect(first.answer == .fresh && first.alpha == 0.25)
        #expect(second.answer == .fresh && second.alpha == 0.75, "the second thread's own t was asked for: \(String(describing: second.answer)), alpha \(second.alpha)")
    }

    /// A player made with SEGUE_PLAYER_NO_SPIN (its samples wait for the
    /// worker asleep from the start) gets a sandboxed plugin's own answers,
    /// fresh, the same as a player that spins first.
    @Test func aPlayerThatNeverSpinsGetsThePluginsOwnAnswers() throws {
        let folder = try CPlugin.curveSlide(builtAgainst: "1.2")
        var seen: [[Double]] = []
        for flags in [0, SEGUE_PLAYER_NO_SPIN] {
            let player = try Self.player(folder) { $0.flags |= flags }
            defer { seguePlayerFree(player) }
            let transition = try Self.begin(player, "CurveSlide")
            defer { segueTransitionFree(transition) }
            let plan = Self.plan(transition)
            #expect(plan.animator == "CurveSlide" && !plan.fellBack, "\(plan.reason)")
            seen.append([0.1, 0.25, 0.38].flatMap { t in
                LibsegueKindsTests.states(transition, at: t).flatMap { [$0.frame.x, $0.frame.y, $0.frame.width, $0.alpha] }
            })
        }
        #expect(seen[0].count == 24 && seen[1] == seen[0], "spinning \(seen[0]), asleep \(seen[1])")
    }

    /// An animator that notes every t it is asked for, on whichever thread.
    final class CountingAnimator: TransitionAnimator, BoundedEvaluation, @unchecked Sendable {
        let name = "Counting"
        let source = AnimatorSource.application
        private let lock = NSLock()
        private var asked: [Double] = []
        var questions: [Double] { lock.withLock { asked } }

        func setup(_ context: TransitionContext) -> AnimatorSetup { .animate(TransitionPlan(duration: 1, layers: [LayerRequest(.view(.from))])) }
        func evaluate(at t: Double, layers: LayerStates) {
            lock.withLock { asked.append(t) }
            layers[0].alpha = t
        }
        func animationEnded(_ completed: Bool) {}
        func evaluate(at t: Double, layers: LayerStates, within patience: Double) -> BoundedAnswer {
            evaluate(at: t, layers: layers)
            return .answered
        }
        func collect(into layers: LayerStates) -> Bool { false }
    }

    /// A prefetch asks the plugin on the evaluator's thread and returns; the
    /// sample at that t then takes its answer without asking again, a second
    /// prefetch of states in hand asks nothing, and a sample at another t
    /// asks for its own.
    @Test func aPrefetchedAnswerServesTheSampleAtItsTime() throws {
        let animator = CountingAnimator()
        let evaluator = try Self.evaluator(of: animator)
        evaluator.prefetch(at: 0.25)
        let deadline = Date().addingTimeInterval(10)
        while animator.questions.isEmpty && Date() < deadline { usleep(1000) }
        #expect(animator.questions == [0.25], "the evaluator's thread asked")
        var alpha = -1.0
        #expect(evaluator.sample(at: 0.25, within: 20) { alpha = $0[0].alpha } == .fresh && alpha == 0.25)
        evaluator.prefetch(at: 0.25)
        #expect(evaluator.sample(at: 0.5, within: 20) { alpha = $0[0].alpha } == .fresh && alpha == 0.5)
        evaluator.stop()
        #expect(animator.questions == [0.25, 0.5], "asked once for each t: \(animator.questions)")
    }

    /// Through the C API: a prefetched sample of a sandboxed plugin is its
    /// own answer at that t, as a sample without one; bad calls are refused.
    /// The times are more than 0.1 s apart, off a regular clock, so no frame
    /// is evaluated ahead (a frame ahead answers for a time within 2 ms of
    /// it, as embed.h says; LibsegueAheadTests holds those to the plugin's
    /// answers).
    @Test func aPrefetchThroughTheCAPIGivesTheSampleTheSameStates() throws {
        let player = try Self.player(try CPlugin.curveSlide(builtAgainst: "1.2")) { $0.flags |= SEGUE_PLAYER_NO_SPIN }
        defer { seguePlayerFree(player) }
        var seen: [[Double]] = []
        for prefetching in [false, true] {
            let transition = try Self.begin(player, "CurveSlide")
            defer { segueTransitionFree(transition) }
            seen.append([0.1, 0.25, 0.38].flatMap { t in
                if prefetching { #expect(segueTransitionPrefetch(transition, t) == SEGUE_OK) }
                return LibsegueKindsTests.states(transition, at: t).flatMap { [$0.frame.x, $0.frame.y, $0.frame.width, $0.alpha] }
            })
            if prefetching {
                #expect(segueTransitionPrefetch(transition, .nan) == SEGUE_E_INVALID_ARGUMENT)
                #expect(String(cString: segueErrorMessage()!).contains("t is NaN"))
                _ = segueTransitionFinish(transition, true, nil)
                #expect(segueTransitionPrefetch(transition, 0.4) == SEGUE_E_ENDED)
            }
        }
        #expect(seen[0].count == 24 && seen[1] == seen[0], "without \(seen[0]), prefetched \(seen[1])")
        #expect(segueTransitionPrefetch(nil, 0.1) == SEGUE_E_INVALID_ARGUMENT)
    }

    /// With a bound of 1 ms and of 4 ms, a sample of a plugin that hangs
    /// waits the whole bound before it holds the frame: poll's whole
    /// milliseconds once made 0.8 ms left none, and 4 ms about 3.3.
    @Test(arguments: [1000, 4000] as [UInt32])
    func aSampleWaitsItsWholeBoundForALatePlugin(_ microseconds: UInt32) throws {
        let plugin = try CPlugin.fixture("bound-\(microseconds)", "FAULT_HANG_EVALUATE")
        let player = try Self.player(plugin.folder, boundMicroseconds: microseconds)
        defer { seguePlayerFree(player) }
        let transition = try Self.begin(player, "TestFade")
        defer { segueTransitionFree(transition) }
        #expect(Self.plan(transition).animator == "TestFade")
        // The first question, past a quarter of the way: the plugin spins and never answers it.
        // (An earlier sample the plugin could answer might itself be late on a busy machine.)
        let started = MonotonicTime.now
        let status = Self.sample(transition, at: 0.3)
        let waited = MonotonicTime.now - started
        #expect(status == SEGUE_LATE)
        #expect(waited >= Double(microseconds) / 1e6, "waited \(waited * 1e6) µs of a \(microseconds) µs bound")
    }

    /// A plugin that answers NaN costs that transition (the default takes
    /// over, said once by the status), not its place: the next transition
    /// runs it again, and the reason gives t as a person reads it.
    @Test func aNonFiniteAnswerCostsItsTransitionAndTheNextRunsThePluginAgain() throws {
        let plugin = try CPlugin.fixture("nan", "FAULT_NAN")
        let player = try Self.player(plugin.folder)
        defer { seguePlayerFree(player) }
        let transition = try Self.begin(player, "TestFade")
        #expect(Self.answered(transition, at: 0.1) == SEGUE_OK)
        #expect(Self.answered(transition, at: 0.2508981789999008) == SEGUE_DEFAULT_TOOK_OVER)
        let after = Self.plan(transition)
        #expect(after.animator == "default" && after.fellBack)
        #expect(after.reason.contains("TestFade produced a non-finite alpha for layer 0 at t = 0.251 s"), "\(after.reason)")
        #expect(Self.sample(transition, at: 0.3) == SEGUE_OK, "the takeover is said once")
        #expect(Self.sample(transition, at: 5) == SEGUE_CLAMPED, "and past the end, as for any animator")
        #expect(segueTransitionFinish(transition, true, nil) == SEGUE_OK)
        segueTransitionFree(transition)

        let next = try Self.begin(player, "TestFade")
        defer { segueTransitionFree(next) }
        let plan = Self.plan(next)
        #expect(plan.animator == "TestFade" && !plan.fellBack, "not quarantined: \(plan.reason)")
        #expect(Self.answered(next, at: 0.1) == SEGUE_OK)
    }

    /// The built-in default's curve parameter lists the ABI's curve range,
    /// and below it its own "spring", its default.
    @Test func theDefaultsCurveParameterListsTheCurveRange() throws {
        let player = try Self.player(makeTemporaryFolder("no-plugins"))
        defer { seguePlayerFree(player) }
        let count = seguePlayerAnimatorCount(player)
        var info = segue_animator_info_t()
        info.struct_size = UInt32(MemoryLayout<segue_animator_info_t>.size)
        #expect(seguePlayerAnimatorInfo(player, count - 1, &info) == SEGUE_OK)
        #expect(String(cString: info.name) == "default")
        let curve = try #require((0..<info.param_count).lazy.map { i -> segue_param_t in
            var param = segue_param_t()
            param.struct_size = UInt32(MemoryLayout<segue_param_t>.size)
            _ = seguePlayerAnimatorParam(player, count - 1, i, &param)
            return param
        }.first { String(cString: $0.name) == "curve" })
        #expect(curve.type == SEGUE_PARAM_CURVE.rawValue)
        // "spring", the header's SEGUE_CURVE_SPRING, is its default and the range's start.
        let spring = Double(SEGUE_CURVE_SPRING.rawValue)
        #expect(spring == -1 && curve.default_value == spring && curve.min_value == spring && curve.max_value == Double(SEGUE_CURVE_DEFAULT.rawValue),
                "default \(curve.default_value), min \(curve.min_value), max \(curve.max_value)")
    }
}
