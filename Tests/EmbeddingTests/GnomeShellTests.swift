import Foundation
import Glibc
import Testing
import TestSupport

/// The Segue extension in a real GNOME Shell 43, headless: gnome-calculator
/// (application id org.gnome.Calculator) and weston's clients open and close
/// through the animator the config's rules name by application id, held at a
/// fraction and photographed through the shell's screenshot interface; a
/// plugin that crashes mid-close costs only its animation; nothing is left
/// running after the shell ends.
@Suite(.serialized, .enabled(if: GnomeShellSession.problem == nil, "\(GnomeShellSession.problem ?? "")"))
struct GnomeShellTests {
    static let calculator = "org.gnome.Calculator"

    static func rules(_ appear: String, _ disappear: String = "default") -> String {
        #"{"rules": [{"appear": "\#(calculator)", "animator": "\#(appear)"}, {"disappear": "\#(calculator)", "animator": "\#(disappear)"}]}"#
    }

    /// The extension is installed and enabled as a user does before logging
    /// in, and plays: the shell's log says so; gnome-calculator's window
    /// opens and closes through it, named by its application id.
    @Test func theExtensionInstalledAsUsersDoPlaysTheCalculatorsWindow() throws {
        let session = try GnomeShellSession(config: Self.rules("Pop", "Pop"), plugins: [])
        let state = try session.eval("JSON.stringify([Main.extensionManager.lookup('\(GnomeShellSession.uuid)').state, global.context.unsafe_mode])")
        #expect(state.contains("[1,true]"), "the extension is enabled (state 1, ENABLED): \(state)\n\(session.log)")
        #expect(session.log.contains("segue: playing window animators"), "\(session.log)")
        let calculator = try session.open("/usr/bin/gnome-calculator")
        var log = session.wait(for: "\(Self.calculator) opened: ")
        #expect(log.contains("segue: \(Self.calculator) opens at "), "\(log)")
        #expect(log.contains("segue: window '\(Self.calculator)' (its application, as the shell matched it to a .desktop file; rules match this name) opens with Pop"),
                "\(log)")
        #expect(log.contains("\(Self.calculator) opened: completed"), "\(log)")
        _ = calculator.stop(with: SIGTERM)
        log = session.wait(for: "\(Self.calculator) closed: ")
        #expect(log.contains("\(Self.calculator) closes at ") && log.contains("\(Self.calculator) closed: completed"), "\(log)")
        #expect(try session.eval("global.get_window_actors().length") == "0", "the window is gone")
        #expect(session.stop() != nil, "the shell ended on SIGTERM")
        #expect(processesTagged(session.tag).isEmpty, "no shell, bus, worker or client left")
    }
}
