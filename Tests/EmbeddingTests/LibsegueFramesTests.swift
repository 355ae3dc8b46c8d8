import Foundation
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI

/// A program's views have frames of their own: a 700 x 475 window at
/// (100, 80) on a 1280 x 720 output is animated from and to that frame, in
/// the context an animator reads and in the layers it writes; a view given
/// without a frame takes the container rule (the bounds).
@Suite struct LibsegueFramesTests {
    static let output = segue_rect_t(x: 0, y: 0, width: 1280, height: 720)
    static let window = segue_rect_t(x: 100, y: 80, width: 700, height: 475)

    /// A switch on `output` between two views at `frame`, played by `animator`.
    static func begin(_ player: OpaquePointer, _ animator: String, frame: segue_rect_t) throws -> OpaquePointer {
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = output
        var made: OpaquePointer?
        let status = "closing".withCString { a in
            "desktop".withCString { b in
                animator.withCString { name in
                    desc.from = segue_view_t(name: a, frame: frame, elements: nil, element_count: 0)
                    desc.to = segue_view_t(name: b, frame: frame, elements: nil, element_count: 0)
                    desc.animator = name
                    return LibseguePromiseTests.beginInTime(player, &desc, &made)
                }
            }
        }
        return try #require(made, "segue_transition_begin: \(status.rawValue) \(String(cString: segueErrorMessage()!))")
    }

    /// The two layers' frames at `t`, once the plugin has answered (10 s at most).
    static func frames(_ transition: OpaquePointer, at t: Double) -> [segue_rect_t] {
        LibsegueKindsTests.states(transition, at: t).map(\.frame)
    }

    static func same(_ a: segue_rect_t, _ b: segue_rect_t) -> Bool {
        a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height
    }

    @Test func aWindowIsAnimatedFromAndToItsOwnFrame() throws {
        let (folder, _) = try CPlugin.fixture("frames", "FIXTURE_FRAMES_FROM_CONTEXT")
        let player = try LibseguePromiseTests.player(folder)
        defer { seguePlayerFree(player) }
        let transition = try Self.begin(player, "TestFade", frame: Self.window)
        defer { segueTransitionFree(transition) }
        #expect(LibseguePromiseTests.plan(transition).animator == "TestFade")
        let frames = Self.frames(transition, at: 0.25)
        #expect(frames.count == 2 && frames.allSatisfy { Self.same($0, Self.window) }, "the context's frames are the window's: \(frames)")
        // The built-in default slides the window by the output's width, from its own frame.
        let slide = try Self.begin(player, "default", frame: Self.window)
        defer { segueTransitionFree(slide) }
        let start = Self.frames(slide, at: 0)
        #expect(start.count == 2 && Self.same(start[0], Self.window), "\(start)")
    }

    /// In the context an animator reads, and in the layers' resting frames
    /// of an animator that leaves frames alone.
    @Test(arguments: [["FIXTURE_FRAMES_FROM_CONTEXT"], []])
    func aViewWithoutAFrameTakesTheBounds(_ defines: [String]) throws {
        let (folder, _) = try CPlugin.fixture("frames-none", defines.first ?? "FIXTURE_NAME=\"TestFade\"")
        let player = try LibseguePromiseTests.player(folder)
        defer { seguePlayerFree(player) }
        let transition = try Self.begin(player, "TestFade", frame: segue_rect_t())
        defer { segueTransitionFree(transition) }
        let frames = Self.frames(transition, at: 0.25)
        #expect(frames.count == 2 && frames.allSatisfy { Self.same($0, Self.output) }, "the container rule: \(frames)")
    }
}
