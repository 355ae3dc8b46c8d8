import Foundation
import Glibc
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI

/// The ABI's growth rule through libsegue: a plugin whose structs declare
/// only the members a host requires (the fixture's CUT_BACK; the tool's side
/// is PluginHostTests' GrowthRuleTests) plays in a program's player.
@Suite struct LibsegueGrowthRuleTests {
    /// Through libsegue, in this process's player: the same plugin plays, and
    /// its transition ends without calling the `end` it left off.
    @Test func libseguePlaysAStructCutBack() throws {
        let (folder, _) = try CPlugin.fixture("cut-back-libsegue", "CUT_BACK")
        let player = try LibseguePromiseTests.player(folder)
        defer { seguePlayerFree(player) }
        let transition = try LibseguePromiseTests.begin(player, "TestFade")
        defer { segueTransitionFree(transition) }
        #expect(LibseguePromiseTests.plan(transition).animator == "TestFade")
        #expect(LibseguePromiseTests.answered(transition, at: 0.3) == SEGUE_OK)
        var report = segue_transition_report_t()
        report.struct_size = UInt32(MemoryLayout<segue_transition_report_t>.size)
        #expect(segueTransitionFinish(transition, true, &report) == SEGUE_OK)
        #expect(String(cString: report.animator) == "TestFade" && !report.fell_back, "\(String(cString: report.reason))")
    }

}
