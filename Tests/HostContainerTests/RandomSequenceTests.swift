import Testing

@testable import HostContainer

/// Random selections and clock steps, with every bundled animator, the
/// default, a declining animator and one that produces NaN: whenever the
/// container is idle it is consistent, and every transition was reported once.
struct RandomSequenceTests {
    /// Picks an animator for each switch from the sequence's generator.
    final class RandomDelegate: ContainerViewControllerDelegate {
        var rng: ConfigRobustnessTests.Generator
        let choices: [AnimatorDescriptor?]
        let nan: AnimatorDescriptor
        init(seed: UInt64, nan: AnimatorDescriptor) {
            rng = .init(state: seed)
            choices = [nil] + ["SpringSlide", "CurlUp", "ImageZoom"].map { bundledRegistry.animator(named: $0) }
            self.nan = nan
        }
        func containerViewController(_ c: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                     to: ViewController) -> AnimatorResolution {
            let pick = rng.below(choices.count + 1)
            let d = pick < choices.count ? choices[pick] : nan
            guard let d else { return .useDefault(reason: "random") }
            return .use(d.makeAnimator(parameters: d.parameters.map(\.defaultValue)), reason: "random")
        }
    }

    @Test func randomSelectionsAndClockStepsKeepTheContainerConsistent() throws {
        let folder = makeTemporaryFolder("random")
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "nan", defines: ["FAULT_NAN"], into: folder)
        let nan = try #require(AnimatorRegistry(folders: [folder]).animator(named: "TestFade"))
        let image = Rect(x: 10, y: 10, width: 50, height: 50), big = Rect(x: 0, y: 40, width: 320, height: 320)
        var animators: Set<String> = [], reasons: [String] = []
        for seed in UInt64(1)...300 {
            // Children a and c share an element with b, so ImageZoom animates some switches and declines others.
            let h = Harness(["a", "b", "c", "d"], elements: ["a": [("image", image)], "b": [("image", big)], "c": [("image", image)]])
            let delegate = RandomDelegate(seed: seed, nan: nan)
            h.delegate = delegate
            var rng = ConfigRobustnessTests.Generator(state: seed &* 7919)
            var requested = 0
            for _ in 0..<25 {
                if rng.below(3) == 0 {
                    h.container.select(index: rng.below(4))
                    requested += 1
                } else {
                    h.clock.advance(by: Double(rng.below(40)) / 60)
                    h.container.tick()
                }
                if !h.container.isTransitioning {
                    h.expectConsistent()
                }
                #expect(h.container.children.count <= 2, "seed \(seed)")
            }
            h.container.runUntilIdle(advancing: h.clock)
            h.expectConsistent()
            animators.formUnion(h.reports.map(\.animator))
            reasons += h.reports.map(\.reason)
            #expect(h.reports.count <= requested, "seed \(seed)")
            let ended = h.events.filter { if case .animationEnded = $0 { true } else { false } }.count
            let selected = h.events.filter { if case .didSelect = $0 { true } else { false } }.count
            #expect(ended == h.reports.count && selected == h.reports.count, "seed \(seed): completion once per transition")
            for child in h.children {
                let will = child.calls.filter { $0.hasPrefix("willMove") }.count
                let did = child.calls.filter { $0.hasPrefix("didMove") }.count
                #expect(will == did, "seed \(seed): \(child.name) \(child.calls)")
            }
        }
        // The sequences did reach every path they are meant to cover.
        #expect(animators == ["default", "SpringSlide", "CurlUp", "ImageZoom"])
        #expect(reasons.contains { $0.contains("produced a non-finite alpha") })
        #expect(reasons.contains { $0.hasPrefix("ImageZoom declined") })
    }
}
