import Foundation
import Glibc
import Testing
import TestSupport
import HostTestSupport

/// The GTK container keeping GTK's platform contract as GtkStack keeps it:
/// gtk-enable-animations, a "transition-finished" for every switch, pages
/// as objects in a selection model, a switcher over them, accessible roles.
/// One C fixture (`Tests/Fixtures/gtk/contract.c`), built against the
/// installed widget, run per behaviour under Xvfb.
@Suite(.serialized, .enabled(if: GtkBuild.problem == nil, "\(GtkBuild.problem ?? "")"))
struct GtkContractTests {
    /// The fixture's output lines for `mode` (with `variables` in its environment), as fields; its
    /// standard error must hold no GLib complaint.
    static func contract(_ mode: String, _ variables: [String: String] = [:]) throws -> [[String]] {
        let prefix = try GtkBuild.installed.get()
        let program = try GtkBuild.program("contract")
        let display = try VirtualDisplay()
        let ran = try run("/usr/bin/env", GtkBuild.alone(program, [mode], display: display.name, variables), timeout: 90)
        #expect(ran.status == 0, "\(mode): \(ran.out)\(ran.err)")
        #expect(GtkInstallTests.complaints(ran.err) == [], "\(mode): \(ran.err)")
        #expect(processesTagged(prefix).isEmpty, "no worker left")
        return ran.out.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    static func finished(_ lines: [[String]]) -> [[String]] { lines.filter { $0.first == "finished" } }

    @Test func animationsTurnedOffSwitchAtOnceAndSaySoAndTheStackFollowsTheSetting() throws {
        let lines = try Self.contract("animations")
        let finished = Self.finished(lines)
        #expect(finished.first == ["finished", "a", "b", "none", "1", "0", "animations are off (gtk-enable-animations)"], "\(lines)")
        // Turned on again: the next switch plays; turned off during the one after, that one ends then.
        #expect(finished.count == 3 && Array(finished[1][1...4]) == ["b", "c", "SpringSlide", "1"], "\(lines)")
        #expect(finished.count == 3 && Array(finished[2][1...4]) == ["c", "a", "SpringSlide", "1"], "\(lines)")
        #expect(lines.filter { $0.first == "running" }.map { $0[1] } == ["0", "1", "1", "0"], "\(lines)")
    }

    /// A frame drawn before the plugin answered says so (segue_gtk_stack_get_transition_late, as the
    /// Qt containers' `late`), and a later frame, sampled again, has the answer: TestFade built to take 50 ms an
    /// evaluation, held at 0.5 of an interactive switch (a time never asked for before).
    @Test func aFrameDrawnBeforeThePluginAnsweredSaysItWasLate() throws {
        let (folder, _) = try CPlugin.fixture("gtk-slow", "FAULT_SLOW_EVALUATE")
        let lines = try Self.contract("late", ["SEGUE_PLUGIN_PATH": folder])
        let late = lines.filter { $0.first == "late" }
        #expect(late == [["late", "before", "0"], ["late", "first", "1"], ["late", "answered", "0"], ["late", "after", "0"]], "\(lines)")
        #expect(Self.finished(lines).map { Array($0[1...5]) } == [["a", "b", "TestFade", "0", "0"]], "cancelled, the plugin's: \(lines)")
    }

    @Test func immediateAndRefusedSwitchesStillSayTheyFinished() throws {
        let lines = try Self.contract("refused")
        #expect(Self.finished(lines) == [
            ["finished", "a", "b", "none", "1", "0", "the stack is not shown (not mapped)"],
            ["finished", "b", "c", "none", "0", "0", #"the page "c" is not visible"#],
            ["finished", "b", "a", "none", "1", "0", "the visible page was hidden"],
        ], "\(lines)")
        #expect(lines.filter { $0.first == "visible" } == [["visible", "b"], ["visible", "a"]], "\(lines)")
    }

    @Test func thePagesModelListsTitledPagesAndItsSelectionIsTheVisiblePage() throws {
        let lines = try Self.contract("pages")
        #expect(lines.first == ["same", "1"], "one model while it is held: \(lines)")
        let items = lines.filter { $0.first == "item" }
        #expect(items.count == 9, "\(lines)")
        guard items.count == 9 else { return }
        #expect(Array(items[0..<3]) == [["item", "0", "a", "First", "1"], ["item", "1", "b", "Second", "0"], ["item", "2", "c", "Third", "0"]])
        #expect(Array(items[3..<6]).map { $0[4] } == ["0", "1", "0"], "the selection follows the switch: \(items)")
        #expect(Array(items[6..<9]) == [["item", "0", "b", "Second", "0"], ["item", "1", "c", "Third", "1"], ["item", "2", "d", "Fourth", "0"]])
        #expect(lines.contains(["select", "1"]) && lines.contains(["visible", "c"]), "selecting shows the page: \(lines)")
        #expect(lines.filter { $0.first == "selection-changed" }.count >= 2, "\(lines)")
        #expect(lines.filter { $0.first == "items-changed" } == [["items-changed", "3", "0", "1"], ["items-changed", "0", "1", "0"]], "\(lines)")
        #expect(Self.finished(lines).map { Array($0[1...4]) } == [["a", "b", "SpringSlide", "1"], ["b", "c", "SpringSlide", "1"]], "\(lines)")
    }

    @Test func theSwitcherShowsAButtonPerVisiblePageAndAClickSwitches() throws {
        let lines = try Self.contract("switcher")
        let buttons = lines.filter { $0.first == "button" }
        #expect(buttons.count == 7, "\(lines)")
        guard buttons.count == 7 else { return }
        // "b" hidden: no button; "c" needs attention; "a" visible, pressed.
        #expect(Array(buttons[0..<2]) == [["button", "First", "1", "0"], ["button", "Third", "0", "1"]], "\(buttons)")
        #expect(Self.finished(lines).map { Array($0[1...4]) } == [["a", "c", "SpringSlide", "1"]], "the click played a switch: \(lines)")
        #expect(lines.contains(["visible", "c"]), "\(lines)")
        #expect(Array(buttons[2..<4]) == [["button", "First", "0", "0"], ["button", "Third", "1", "1"]], "\(buttons)")
        // "b" shown again gets its button back; an icon's page has its title as the tooltip.
        #expect(Array(buttons[4..<7]) == [["button", "First", "0", "0"], ["button", "Second", "0", "0"], ["button", "Third", "1", "1"]],
                "\(buttons)")
    }

    @Test func theStackIsAGroupAndTheSwitcherATabList() throws {
        let lines = try Self.contract("roles")
        #expect(lines.filter { $0.first == "role" } == [["role", "stack", "group"], ["role", "switcher", "tab-list"], ["role", "button", "tab"]],
                "\(lines)")
    }
}
