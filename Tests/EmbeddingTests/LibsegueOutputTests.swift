import Foundation
import Glibc
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI

/// What plugins print reaches the program of the player that runs them, and
/// no other: two players in one process, each with a plugin of its own that
/// prints while it evaluates, each hear only their own plugin's lines.
@Suite struct LibsegueOutputTests {
    /// The log lines one player's program received.
    final class Heard: @unchecked Sendable {
        var lines: [String] = []
    }

    /// A player over `folder` whose log events land in `heard`.
    static func player(_ folder: String, _ heard: Heard, isolation: segue_isolation_t? = nil) throws -> OpaquePointer {
        try LibseguePromiseTests.player(folder) { options in
            if let isolation { options.isolation = isolation.rawValue }
            options.user_data = Unmanaged.passUnretained(heard).toOpaque()
            options.on_event = { user, event in
                guard let user, let event, event.pointee.kind == SEGUE_EVENT_LOG.rawValue else { return }
                Unmanaged<Heard>.fromOpaque(user).takeUnretainedValue().lines.append(String(cString: event.pointee.message))
            }
        }
    }

    /// Dispatches `player`'s events until one of `heard`'s lines holds `text` (10 s at most).
    static func dispatch(_ player: OpaquePointer, _ heard: Heard, until text: String) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !heard.lines.contains(where: { $0.contains(text) }) && Date() < deadline {
            var poller = pollfd(fd: seguePlayerFD(player), events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 { _ = seguePlayerDispatch(player) }
        }
        return heard.lines.contains { $0.contains(text) }
    }

    @Test func twoPlayersEachHearOnlyTheirOwnPlugins() throws {
        let a = try CPlugin.fixture("prints-a", "FAULT_PRINT_EVALUATE"), b = try CPlugin.fixture("prints-b", "FAULT_PRINT_EVALUATE")
        let heardA = Heard(), heardB = Heard()
        let playerA = try Self.player(a.folder, heardA), playerB = try Self.player(b.folder, heardB)
        defer {
            seguePlayerFree(playerA)
            seguePlayerFree(playerB)
        }
        for player in [playerA, playerB] {
            let transition = try LibseguePromiseTests.begin(player, "TestFade")
            #expect(LibseguePromiseTests.answered(transition, at: 0.1) == SEGUE_OK)
            #expect(segueTransitionFinish(transition, true, nil) == SEGUE_OK)
            segueTransitionFree(transition)
        }
        #expect(Self.dispatch(playerA, heardA, until: "plugin \(a.file) wrote"), "A heard its plugin: \(heardA.lines)")
        #expect(Self.dispatch(playerB, heardB, until: "plugin \(b.file) wrote"), "B heard its plugin: \(heardB.lines)")
        #expect(!heardA.lines.contains { $0.contains(b.file) }, "A heard B's plugin: \(heardA.lines)")
        #expect(!heardB.lines.contains { $0.contains(a.file) }, "B heard A's plugin: \(heardB.lines)")
    }

    /// Plugins loaded into the program's own process (isolation none) log
    /// through the host table, which a library shares however many players
    /// load it: each message still reaches only the players that use its plugin.
    @Test func twoPlayersEachHearOnlyTheirOwnInProcessPlugins() throws {
        let a = try CPlugin.fixture("logs-a", "FAULT_LOG_SETUP"), b = try CPlugin.fixture("logs-b", "FAULT_LOG_SETUP")
        let heardA = Heard(), heardB = Heard()
        let playerA = try Self.player(a.folder, heardA, isolation: SEGUE_ISOLATION_NONE)
        let playerB = try Self.player(b.folder, heardB, isolation: SEGUE_ISOLATION_NONE)
        defer {
            seguePlayerFree(playerA)
            seguePlayerFree(playerB)
        }
        for player in [playerA, playerB] {
            let transition = try LibseguePromiseTests.begin(player, "TestFade")
            #expect(segueTransitionFinish(transition, true, nil) == SEGUE_OK)
            segueTransitionFree(transition)
        }
        #expect(Self.dispatch(playerA, heardA, until: "\(a.file): a line logged in setup"), "A heard its plugin: \(heardA.lines)")
        #expect(Self.dispatch(playerB, heardB, until: "\(b.file): a line logged in setup"), "B heard its plugin: \(heardB.lines)")
        #expect(!heardA.lines.contains { $0.contains(b.file) }, "A heard B's plugin: \(heardA.lines)")
        #expect(!heardB.lines.contains { $0.contains(a.file) }, "B heard A's plugin: \(heardB.lines)")
    }
}
