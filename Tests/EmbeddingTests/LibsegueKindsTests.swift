import Foundation
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI

/// Windows that open and close through libsegue (ABI 1.3's kinds): a plugin
/// built against the 1.0 or the 1.2 header plays them unchanged, sandboxed,
/// as a switch to a hidden stand-in (an appearance run backwards), and one
/// written for them reads the kind and its window's own frame.
@Suite struct LibsegueKindsTests {
    static let output = LibsegueFramesTests.output
    static let window = LibsegueFramesTests.window

    /// An appearance of `window` over nothing given, or its disappearance, by `animator` (nil: the rules).
    static func begin(_ player: OpaquePointer, _ kind: segue_transition_kind_t, animator: String?) throws -> OpaquePointer {
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = output
        desc.kind = kind.rawValue
        var made: OpaquePointer?
        let status = "org.kde.kcalc".withCString { name in
            let view = segue_view_t(name: name, frame: window, elements: nil, element_count: 0)
            let beneath = segue_view_t(name: nil, frame: segue_rect_t(), elements: nil, element_count: 0)
            (desc.from, desc.to) = kind == SEGUE_TRANSITION_APPEAR ? (beneath, view) : (view, beneath)
            guard let animator else { return LibseguePromiseTests.beginInTime(player, &desc, &made) }
            return animator.withCString { a in
                desc.animator = a
                return LibseguePromiseTests.beginInTime(player, &desc, &made)
            }
        }
        return try #require(made, "segue_transition_begin: \(status.rawValue) \(String(cString: segueErrorMessage()!))")
    }

    /// The plan's layers' kinds.
    static func layers(_ transition: OpaquePointer) -> [UInt32] {
        var plan = segue_plan_info_t()
        plan.struct_size = UInt32(MemoryLayout<segue_plan_info_t>.size)
        _ = segueTransitionPlan(transition, &plan)
        return withUnsafeBytes(of: plan.layers) { raw in
            Array(raw.bindMemory(to: segue_layer_request_t.self).prefix(Int(plan.layer_count)).map(\.kind))
        }
    }

    /// The states of a transition's two layers at `t`, once the plugin has answered (10 s at most); none on failure.
    static func states(_ transition: OpaquePointer, at t: Double) -> [segue_layer_state_t] {
        var states = [segue_layer_state_t](repeating: segue_layer_state_t(), count: 2)
        for i in states.indices { states[i].struct_size = UInt32(MemoryLayout<segue_layer_state_t>.size) }
        let deadline = Date().addingTimeInterval(10)
        var status = SEGUE_LATE
        while status == SEGUE_LATE && Date() < deadline {
            status = states.withUnsafeMutableBufferPointer { buffer in
                var pointers: [UnsafeMutablePointer<segue_layer_state_t>?] = [buffer.baseAddress!, buffer.baseAddress! + 1]
                return segueTransitionSample(transition, t, &pointers, 2)
            }
            if status == SEGUE_LATE { usleep(1000) }
        }
        return status == SEGUE_OK ? states : []
    }

    @Test(arguments: ["1.0", "1.2", "1.3"])
    func anOlderPluginClosesAndOpensAWindowOverWhatIsBeneath(_ version: String) throws {
        let player = try LibseguePromiseTests.player(try CPlugin.curveSlide(builtAgainst: version))
        defer { seguePlayerFree(player) }
        let width = Self.output.width

        let close = try Self.begin(player, SEGUE_TRANSITION_DISAPPEAR, animator: "CurveSlide")
        defer { segueTransitionFree(close) }
        let plan = LibseguePromiseTests.plan(close)
        #expect(plan.animator == "CurveSlide" && !plan.fellBack, "\(plan.reason)")
        #expect(plan.reason.hasSuffix("played as a switch to a transparent stand-in"), "\(plan.reason)")
        #expect(Self.layers(close) == [SEGUE_LAYER_FROM_VIEW.rawValue, SEGUE_LAYER_TO_VIEW.rawValue],
                "the window, then the stand-in of what it reveals")
        let start = Self.states(close, at: 0), end = Self.states(close, at: 0.4)
        #expect(start.count == 2 && LibsegueFramesTests.same(start[0].frame, Self.window), "from its own frame")
        #expect(end.count == 2 && end[0].frame.x == Self.window.x + width,
                "away by the output's width, as a switch's from view goes when not going right: \(end.map(\.frame))")
        #expect(start.count == 2 && start[1].hidden && end[1].hidden, "the stand-in is never drawn")

        let open = try Self.begin(player, SEGUE_TRANSITION_APPEAR, animator: "CurveSlide")
        defer { segueTransitionFree(open) }
        #expect(LibseguePromiseTests.plan(open).reason.hasSuffix("played as a switch to a transparent stand-in run backwards"))
        #expect(Self.layers(open) == [SEGUE_LAYER_TO_VIEW.rawValue, SEGUE_LAYER_FROM_VIEW.rawValue],
                "the plan names the description's sides: the arriving window is its to view")
        let first = Self.states(open, at: 0), last = Self.states(open, at: 0.4)
        #expect(first.count == 2 && first[0].frame.x == Self.window.x - width,
                "it comes in from the side a switch's to view would, from the left: \(first.map(\.frame))")
        #expect(last.count == 2 && LibsegueFramesTests.same(last[0].frame, Self.window), "and rests at its own frame")
        #expect(first.count == 2 && first[1].hidden && last[1].hidden)
        for transition in [close, open] { _ = segueTransitionFinish(transition, true, nil) }
    }

    /// API 1.5: the description's anchor reaches the animator (Pop minimizes
    /// into the task-bar entry it names) and the sampled states carry its look
    /// (ABI 1.4), written only into states whose struct_size covers it.
    @Test func theAnchorReachesPopAndTheLookComesBack() throws {
        let player = try LibseguePromiseTests.player(try LibsegueSamplerTests.bundled("Pop"))
        defer { seguePlayerFree(player) }
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = Self.output
        desc.kind = SEGUE_TRANSITION_DISAPPEAR.rawValue
        let entry = segue_rect_t(x: 10, y: Self.output.height - 40, width: 48, height: 32)
        desc.anchor = segue_anchor_t(has_rect: true, has_point: false, rect: entry, point_x: 0, point_y: 0)
        desc.window_type = SEGUE_WINDOW_DIALOG.rawValue
        var made: OpaquePointer?
        let status = "org.kde.kcalc".withCString { name in
            desc.from = segue_view_t(name: name, frame: Self.window, elements: nil, element_count: 0)
            desc.to = segue_view_t(name: nil, frame: segue_rect_t(), elements: nil, element_count: 0)
            return "Pop".withCString { a in
                desc.animator = a
                return LibseguePromiseTests.beginInTime(player, &desc, &made)
            }
        }
        let transition = try #require(made, "\(status.rawValue) \(String(cString: segueErrorMessage()!))")
        defer { segueTransitionFree(transition) }
        let plan = LibseguePromiseTests.plan(transition)
        #expect(plan.animator == "Pop" && !plan.fellBack, "\(plan.reason)")
        var info = segue_plan_info_t()
        info.struct_size = UInt32(MemoryLayout<segue_plan_info_t>.size)
        #expect(segueTransitionPlan(transition, &info) == SEGUE_OK)
        let duration = info.duration
        let late = Self.states(transition, at: duration * 0.9)
        let window = try #require(late.first)
        // Its centre, moved by the transform's translation, is near the entry's; its scale near the entry's size.
        let centre = (Self.window.x + Self.window.width / 2 + window.transform.m.12, Self.window.y + Self.window.height / 2 + window.transform.m.13)
        let target = (entry.x + entry.width / 2, entry.y + entry.height / 2)
        let start = (Self.window.x + Self.window.width / 2, Self.window.y + Self.window.height / 2)
        #expect(abs(centre.0 - target.0) < abs(start.0 - target.0) / 4 && abs(centre.1 - target.1) < abs(start.1 - target.1) / 4,
                "into the entry: \(centre) towards \(target)")
        #expect(window.corner_radius > 0 && window.shadow.opacity > 0, "rounded and shadowed: \(window.corner_radius), \(window.shadow)")
        // A program built against API 1.4 (a 1.3-sized state) is answered, and nothing past its 208 bytes is written.
        var old = segue_layer_state_t()
        old.struct_size = 208
        old.corner_radius = -7
        var stateOK = SEGUE_LATE
        let deadline = Date().addingTimeInterval(10)
        while stateOK == SEGUE_LATE && Date() < deadline {
            stateOK = withUnsafeMutablePointer(to: &old) { p in
                var pointers: [UnsafeMutablePointer<segue_layer_state_t>?] = [p]
                return segueTransitionSample(transition, duration * 0.5, &pointers, 1)
            }
        }
        #expect(stateOK == SEGUE_OK && old.corner_radius == -7 && old.alpha > 0 && old.alpha <= 1)
        _ = segueTransitionFinish(transition, true, nil)
    }

    @Test func anAnimatorWrittenForTheKindsReadsThemAndItsWindowsFrame() throws {
        let (folder, _) = try CPlugin.fixture("kinds", "FIXTURE_KINDS", "FIXTURE_FRAMES_FROM_CONTEXT")
        let player = try LibseguePromiseTests.player(folder)
        defer { seguePlayerFree(player) }
        for (kind, expected) in [(SEGUE_TRANSITION_APPEAR, 101.0), (SEGUE_TRANSITION_DISAPPEAR, 102.0)] {
            let transition = try Self.begin(player, kind, animator: "TestFade")
            defer { segueTransitionFree(transition) }
            let plan = LibseguePromiseTests.plan(transition)
            #expect(plan.animator == "TestFade" && !plan.reason.contains("played"), "as asked: \(plan.reason)")
            let states = Self.states(transition, at: 0.25)
            #expect(states.map(\.z_position) == [expected, expected], "the kind it read")
            let window = kind == SEGUE_TRANSITION_APPEAR ? states.last : states.first
            #expect(window.map { LibsegueFramesTests.same($0.frame, Self.window) } == true, "\(states.map(\.frame))")
            let beneath = kind == SEGUE_TRANSITION_APPEAR ? states.first : states.last
            #expect(beneath.map { LibsegueFramesTests.same($0.frame, Self.output) } == true, "a stand-in of the bounds")
        }
    }

    /// A plugin whose first answer comes late (50 ms an evaluation, past
    /// the sample bound): the samples before it hold the kind's start, the
    /// opening window hidden, not the window at rest; a closing window is
    /// shown as it was.
    @Test func beforeALatePluginsFirstAnswerAWindowIsAtItsStart() throws {
        let (folder, _) = try CPlugin.fixture("late", "FIXTURE_KINDS", "FAULT_SLOW_EVALUATE")
        for (kind, window) in [(SEGUE_TRANSITION_APPEAR, 1), (SEGUE_TRANSITION_DISAPPEAR, 0)] {
            // A player each: the first transition's plugin is still busy ending (its late frames) as the
            // second would begin, and a setup the worker cannot take within the begin bound plays the default.
            let player = try LibseguePromiseTests.player(folder)
            defer { seguePlayerFree(player) }
            let transition = try Self.begin(player, kind, animator: "TestFade")
            defer { segueTransitionFree(transition) }
            var states = [segue_layer_state_t](repeating: segue_layer_state_t(), count: 2)
            for i in states.indices { states[i].struct_size = UInt32(MemoryLayout<segue_layer_state_t>.size) }
            let status = states.withUnsafeMutableBufferPointer { buffer in
                var pointers: [UnsafeMutablePointer<segue_layer_state_t>?] = [buffer.baseAddress!, buffer.baseAddress! + 1]
                return segueTransitionSample(transition, 0.1, &pointers, 2)
            }
            #expect(status == SEGUE_LATE, "the first answer takes 50 ms, past the bound")
            let expected = kind == SEGUE_TRANSITION_APPEAR ? 0.0 : 1.0
            #expect(states[window].alpha == expected, "\(kind): the window's alpha before any answer: \(states[window].alpha)")
            _ = segueTransitionFinish(transition, true, nil)
        }
    }

    @Test func aKindThisLibraryDoesNotKnowIsRefused() throws {
        let player = try LibseguePromiseTests.player(makeTemporaryFolder("no-plugins"))
        defer { seguePlayerFree(player) }
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = Self.output
        desc.kind = 7
        var made: OpaquePointer?
        let status = "a".withCString { name in
            desc.from = segue_view_t(name: name, frame: Self.window, elements: nil, element_count: 0)
            desc.to = desc.from
            return segueTransitionBegin(player, &desc, &made)
        }
        #expect(status == SEGUE_E_INVALID_ARGUMENT && made == nil)
        #expect(String(cString: segueErrorMessage()!).contains("desc.kind is 7: expected SEGUE_TRANSITION_SWITCH (0)"))
    }
}
