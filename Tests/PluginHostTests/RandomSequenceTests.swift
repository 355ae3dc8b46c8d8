import Foundation
@testable import PluginHost
@testable import PluginValidation
import HostTestSupport
import TestSupport
import Testing

@testable import HostContainer

/// Property-based tests on the virtual clock: random sequences of selections,
/// interactive updates, finishes, cancels, reversals, interruptions and clock
/// steps, with every bundled animator, the default, a declining animator and
/// one that produces NaN. After every step the container must be consistent.
///
/// A failing sequence names its seed; replay one with
/// `SEGUE_SEED=N swift test --filter RandomSequenceTests`.
struct RandomSequenceTests {
    /// Sequences per chunk; the chunks run in parallel.
    static let chunkSize = 1_000
    static let chunks = 0..<10
    static let stepsPerSequence = 30

    /// The NaN fixture, built once with the system C compiler.
    static let nanAnimator: AnimatorDescriptor? = {
        let folder = makeTemporaryFolder("random-nan")
        guard (try? CPlugin.build(CPlugin.fixtureSource, name: "nan", defines: ["FAULT_NAN"], into: folder)) != nil else { return nil }
        return AnimatorRegistry(folders: [folder], isolation: .none).animator(named: "TestFade")
    }()

    /// Picks an animator for each switch from the sequence's generator.
    final class RandomDelegate: ContainerViewControllerDelegate {
        var rng: SplitMix
        let choices: [AnimatorDescriptor?]
        init(seed: UInt64, plugins: [AnimatorDescriptor], registry: AnimatorRegistry = bundledRegistry) {
            rng = .init(state: seed)
            choices = [nil] + plugins + ["SpringSlide", "CurlUp", "ImageZoom"].map { registry.animator(named: $0) }
        }
        func containerViewController(_ c: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                     to: ViewController) -> AnimatorResolution {
            guard let d = choices[rng.below(choices.count)] else { return .useDefault(reason: "random") }
            return .use(d.makeAnimator(parameters: d.parameters.map(\.defaultValue)), reason: "random")
        }
    }

    /// What the sequences covered, summed over a chunk.
    struct Coverage {
        var animators: Set<String> = []
        var cancelled = 0, completed = 0, interactive = 0, fellBack = 0, declined = 0
        mutating func add(_ reports: [TransitionReport]) {
            animators.formUnion(reports.map(\.animator))
            cancelled += reports.filter { !$0.completed }.count
            completed += reports.filter(\.completed).count
            interactive += reports.filter(\.interactive).count
            fellBack += reports.filter { $0.fellBack && $0.reason.contains("produced a non-finite") }.count
            declined += reports.filter { $0.reason.hasPrefix("ImageZoom declined") }.count
        }
    }

    @Test(arguments: chunks)
    func randomSequencesKeepTheContainerConsistent(chunk: Int) throws {
        let nan = try #require(Self.nanAnimator)
        let seeds: [UInt64] = ProcessInfo.processInfo.environment["SEGUE_SEED"].flatMap(UInt64.init).map { [$0] }
            ?? (0..<Self.chunkSize).map { UInt64(chunk * Self.chunkSize + $0 + 1) }
        var coverage = Coverage()
        for seed in seeds {
            let reports = try play(seed: seed, delegate: RandomDelegate(seed: seed, plugins: [nan]))
            coverage.add(reports)
        }
        guard seeds.count == Self.chunkSize else { return }
        // The sequences reached every path they are meant to cover.
        // TestFade appears when a cancel comes before its NaN does.
        #expect(coverage.animators == ["default", "SpringSlide", "CurlUp", "ImageZoom", "TestFade"])
        #expect(coverage.cancelled > 100 && coverage.completed > 100 && coverage.interactive > 100)
        #expect(coverage.fellBack > 0 && coverage.declined > 0)
    }

    /// Fixtures whose worker crashes or hangs mid-transition, run out of process.
    static let faultyRegistry: AnimatorRegistry = {
        let folder = makeTemporaryFolder("random-faults")
        for (name, id, fault) in [("Crasher", "crash", "FAULT_CRASH_EVALUATE"), ("Hanger", "hang", "FAULT_HANG_EVALUATE"),
                                  ("Ender", "end", "FAULT_CRASH_END")] {
            _ = try? CPlugin.build(CPlugin.fixtureSource, name: id,
                                   defines: [fault, "FIXTURE_NAME=\"\(name)\"", "FIXTURE_ID=\"org.segue.test.\(id)/1\""], into: folder)
        }
        return AnimatorRegistry(folders: [folder, Paths.binFolder])
    }()

    /// The same invariants with plugins in worker processes, some of which
    /// crash, hang or crash in end: each costs only its own transition.
    @Test func randomSequencesKeepTheContainerConsistentWhenWorkersCrashAndHang() throws {
        let registry = Self.faultyRegistry
        let faulty = try ["Crasher", "Hanger", "Ender"].map { try #require(registry.animator(named: $0)) }
        var failed = 0
        for seed in UInt64(50_001)...50_150 {
            let reports = try play(seed: seed, delegate: RandomDelegate(seed: seed, plugins: faulty, registry: registry))
            failed += reports.filter { $0.reason.contains("quarantined") }.count
        }
        #expect(failed > 10, "the faulty plugins failed and were quarantined")
        #expect(Set(registry.quarantined.map(\.call)) == ["evaluate", "end"])
    }

    /// Plays one sequence, checking after every step; returns its reports.
    func play(seed: UInt64, delegate: RandomDelegate) throws -> [TransitionReport] {
        let image = Rect(x: 10, y: 10, width: 50, height: 50), big = Rect(x: 0, y: 40, width: 320, height: 320)
        // Children a and c share an element with b, so ImageZoom animates some switches and declines others.
        let h = Harness(["a", "b", "c", "d"], elements: ["a": [("image", image)], "b": [("image", big)], "c": [("image", image)]])
        h.delegate = delegate
        var rng = SplitMix(state: seed &* 7919)
        var interaction: PercentDrivenInteraction?
        var log: [String] = []
        for _ in 0..<Self.stepsPerSequence {
            switch rng.below(9) {
            case 0, 1:
                let i = rng.below(4)
                log.append("select(\(i))")
                h.container.select(index: i)
            case 2:
                let i = rng.below(4)
                log.append("selectInteractively(\(i))")
                if let started = h.container.selectInteractively(index: i) { interaction = started }
            case 3, 4:
                let f = Double(rng.below(101)) / 100
                log.append("update(\(f))")
                interaction?.update(f)
            case 5:
                let v = Double(rng.below(5))
                log.append("finish(\(v))")
                interaction?.finish(velocity: v)
            case 6:
                log.append("cancel")
                interaction?.cancel()
            case 7:
                log.append("reverse")
                h.container.isReversed.toggle()
            default:
                let frames = rng.below(40)
                log.append("advance(\(frames))")
                h.clock.advance(by: Double(frames) / 60)
                h.container.tick()
            }
            if let problem = problem(in: h) {
                Issue.record("seed \(seed): \(problem) after \(log.joined(separator: ", "))")
                return h.reports
            }
        }
        interaction?.finish()
        h.container.runUntilIdle(advancing: h.clock)
        if let problem = problem(in: h) ?? (h.container.isTransitioning ? "still transitioning at the end" : nil) {
            Issue.record("seed \(seed): \(problem) after \(log.joined(separator: ", ")), then finish and run")
        }
        return h.reports
    }

    /// The invariants, as a sentence naming the first one broken.
    func problem(in h: Harness) -> String? {
        let c = h.container
        if c.children.count > 2 { return "\(c.children.count) children during a transition" }
        // Lifecycle calls: each child alternates willMove / didMove, in UIKit's order.
        for child in h.children {
            for (i, call) in child.calls.enumerated() where call.hasPrefix("willMove") != (i % 2 == 0) {
                return "\(child.name)'s containment calls do not alternate: \(child.calls)"
            }
        }
        if let problem = eventProblem(h.events, running: c.isTransitioning) { return problem }
        if c.isTransitioning { return nil }
        // Idle: exactly one child shown, and it is the last one whose transition completed.
        let expected = h.reports.last(where: \.completed)?.to ?? "a"
        if h.shownNames != [expected] || c.view.subviews.count != 1 {
            return "shown \(h.shownNames) with \(c.view.subviews.count) subviews, expected [\(expected)]"
        }
        if c.selectedViewController?.name != expected || c.children.map(\.name) != [expected] {
            return "selected \(c.selectedViewController?.name ?? "none"), children \(c.children.map(\.name))"
        }
        if c.selectedViewController?.view.frame != c.view.bounds { return "the shown child is not at the container's bounds" }
        if let moved = h.children.first(where: { !$0.view.isAtRest }) { return "\(moved.name)'s view is not at rest" }
        if let open = h.children.first(where: { $0.calls.count % 2 != 0 }) { return "\(open.name) awaits a didMove: \(open.calls)" }
        return nil
    }

    /// Checks the event stream is a run of whole switches in UIKit's order,
    /// completed or cancelled, with one `animationEnded` each; only the last may
    /// still be running, and only while the container is transitioning.
    func eventProblem(_ events: [ContainerEvent], running: Bool) -> String? {
        // The animator that ends may be the default that took over, so ends are compared without names.
        let normalized = events.map { event -> ContainerEvent in
            if case .animationEnded(_, let completed) = event { return .animationEnded(animator: "", completed: completed) }
            return event
        }
        var rest = normalized[...]
        while !rest.isEmpty {
            let start = Array(rest.prefix(3))
            guard start.count == 3, case .willMoveToParent(let from, nil) = start[0], case .addChild(let to) = start[1],
                  start[2] == .transitionStarted(from: from, to: to, animator: events[events.count - rest.count + 2].startedAnimator)
            else { return "a switch starts with \(start)" }
            rest = rest.dropFirst(3)
            if rest.isEmpty { return running ? nil : "\(from)->\(to) never ended" }
            let completed: [ContainerEvent] = [
                .removeFromSuperview(from), .removeFromParent(from), .didMoveToParent(child: to, parent: "container"),
                .animationEnded(animator: "", completed: true), .didSelect(to)]
            let cancelled: [ContainerEvent] = [
                .removeFromSuperview(to), .removeFromParent(to), .didMoveToParent(child: from, parent: "container"),
                .animationEnded(animator: "", completed: false)]
            if rest.starts(with: completed) {
                rest = rest.dropFirst(completed.count)
            } else if rest.starts(with: cancelled) {
                rest = rest.dropFirst(cancelled.count)
            } else {
                return "\(from)->\(to) ended with \(Array(rest.prefix(5)))"
            }
        }
        return running ? "transitioning, but every switch has ended" : nil
    }
}

extension ContainerEvent {
    /// The animator named by a `transitionStarted` event; empty for any other.
    var startedAnimator: String {
        if case .transitionStarted(_, _, let animator) = self { return animator }
        return ""
    }
}
