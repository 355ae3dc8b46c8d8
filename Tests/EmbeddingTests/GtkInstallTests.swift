import Foundation
import Glibc
import Testing
import TestSupport
import HostTestSupport

/// The GTK container as installed, not as built: `meson install` beside
/// libsegue in a prefix the loader does not search, then a C program built
/// against the installed `segue-gtk4.pc`, the installed `segue-gtk-demo`,
/// and Python and GJS with only the variables docs/gtk.md gives; a
/// GtkBuilder file's pages in a C program; and the
/// build folder the docs make in the checkout is one git ignores.
@Suite(.serialized, .enabled(if: GtkBuild.problem == nil, "\(GtkBuild.problem ?? "")"))
struct GtkInstallTests {
    /// The variables docs/gtk.md exports for Python and GJS (`export NAME=$HOME/.local/...`), for `prefix`.
    static func documentedVariables(_ prefix: String) throws -> [String: String] {
        let guide = try String(contentsOfFile: Paths.packageRoot + "/docs/gtk.md", encoding: .utf8)
        var variables = [String: String]()
        for line in guide.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1).map(String.init)
            guard assignment.count == 2 else { continue }
            variables[assignment[0]] = assignment[1].replacingOccurrences(of: "$HOME/.local", with: prefix)
        }
        return variables
    }

    @Test func aCProgramBuiltAgainstTheInstalledPkgConfigFileRunsWithNoLibraryPath() throws {
        let prefix = try GtkBuild.installed.get()
        let program = try GtkBuild.program("stack")
        let display = try VirtualDisplay()
        let ran = try run("/usr/bin/env", GtkBuild.alone(program, [], display: display.name), timeout: 90)
        #expect(ran.status == 0, "\(ran.err)")
        let lines = GtkAppTests.finishedLines(ran.out)
        #expect(lines.first.map { Array($0[1...5]) } == ["a", "b", "SpringSlide", "1", "0"], "\(ran.out)\(ran.err)")
        #expect(processesTagged(prefix).isEmpty, "no worker left")
    }

    @Test func theInstalledDemoRunsWithNoVariablesOfOurs() throws {
        let prefix = try GtkBuild.installed.get()
        let display = try VirtualDisplay()
        let frames = makeTemporaryFolder("gtk-installed-frames")
        let ran = try run("/usr/bin/env", GtkBuild.alone(prefix + "/bin/segue-gtk-demo",
                                                         ["--frames", frames, "--animator", "SpringSlide", "--fractions", "0.5"],
                                                         display: display.name), timeout: 90)
        #expect(ran.status == 0, "\(ran.err)")
        #expect(ran.out.contains("finished|list|form|SpringSlide|1|0|"), "a transition played: \(ran.out)\(ran.err)")
        #expect(FileManager.default.fileExists(atPath: frames + "/frame-0.5.png"), "it drew the switch held at 0.5")
        #expect(processesTagged(prefix).isEmpty, "no worker left")
    }

    @Test func pythonAndJavaScriptUseTheInstalledTypelibWithTheDocumentedVariables() throws {
        let prefix = try GtkBuild.installed.get()
        let variables = try Self.documentedVariables(prefix)
        #expect(variables.keys.contains("GI_TYPELIB_PATH"), "docs/gtk.md says where the typelib is: \(variables)")
        let display = try VirtualDisplay()
        let config = makeTemporaryFolder("gtk-installed-python") + "/segue.json"
        try #"{"rules": [{"to": "c", "animator": "CurlUp"}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let python = try run("/usr/bin/env", GtkBuild.alone("/usr/bin/python3", [GtkAppTests.fixtures + "/stack.py", config],
                                                            display: display.name, variables), timeout: 90)
        #expect(python.status == 0, "\(python.err)")
        #expect(GtkAppTests.finishedLines(python.out).map { Array($0[1...3]) } == [["a", "b", "SpringSlide"], ["b", "c", "CurlUp"]],
                "Python: \(python.out)\(python.err)")
        let gjs = try run("/usr/bin/env", GtkBuild.alone("/usr/bin/gjs", [GtkAppTests.fixtures + "/stack.js"], display: display.name, variables),
                          timeout: 90)
        #expect(gjs.status == 0, "\(gjs.err)")
        #expect(GtkAppTests.finishedLines(gjs.out).first.map { Array($0[1...3]) } == ["a", "b", "CurlUp"], "GJS: \(gjs.out)\(gjs.err)")
        #expect(processesTagged(prefix).isEmpty, "no worker left")
    }

    /// Standard error's GLib messages worse than a debug one (GTK's, GLib's, the widget's), but for
    /// libsegue's word that a plugin's first frames came after begin's 100 ms (a busy machine's, or a
    /// slow plugin's; the widget forwards libsegue's warnings as GLib's).
    static func complaints(_ err: String) -> [String] {
        err.split(separator: "\n").map(String.init).filter { $0.contains("-CRITICAL **") || $0.contains("-WARNING **") || $0.contains("-ERROR **") }
            .filter { !$0.contains("did not give its first frames within") }
    }

    @Test func aGtkBuilderFilesChildrenBecomeNamedPagesThatSwitchAndGoCleanly() throws {
        let prefix = try GtkBuild.installed.get()
        let program = try GtkBuild.program("builder")
        let display = try VirtualDisplay()
        let ran = try run("/usr/bin/env", GtkBuild.alone(program, [GtkAppTests.fixtures + "/pages.ui"], display: display.name), timeout: 90)
        #expect(ran.status == 0, "\(ran.err)")
        let lines = ran.out.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        // Both of GtkStack's forms: a page object with its name, a widget named by its id.
        #expect(lines.filter { $0.first == "page" } == [["page", "inbox", "GtkLabel"], ["page", "message", "GtkLabel"],
                                                        ["page", "settings", "GtkLabel"]], "\(ran.out)")
        // Their titles and attention, as the file gives them.
        #expect(lines.filter { $0.first == "title" } == [["title", "inbox", "Inbox", "0"], ["title", "message", "A message", "1"],
                                                         ["title", "settings", "-", "0"]], "\(ran.out)")
        // visible-child-name, given after the children in the file, applies to them.
        #expect(lines.contains(["visible", "message", "GtkLabel"]), "\(ran.out)")
        let finished = GtkAppTests.finishedLines(ran.out)
        #expect(finished.map { Array($0[1...5]) } == [["message", "settings", "SpringSlide", "1", "0"]], "the switch played: \(ran.out)")
        #expect(lines.contains(["removed", "message", "2"]), "the page left is removed: \(ran.out)")
        // No CRITICAL from the removal, no "still has children left" when the stack is finalized.
        #expect(Self.complaints(ran.err) == [], "\(ran.err)")
        #expect(processesTagged(prefix).isEmpty, "no worker left")
    }

    @Test func theBuildFolderTheDocsMakeInTheCheckoutIsIgnoredByGit() throws {
        let guide = try String(contentsOfFile: Paths.packageRoot + "/docs/gtk.md", encoding: .utf8)
        let setup = try #require(guide.split(separator: "\n").first { $0.contains("meson setup ") }, "docs/gtk.md says how to set up")
        let words = setup.split(separator: " ")
        let folder = try #require(words.firstIndex(of: "setup").flatMap { $0 + 1 < words.count ? String(words[$0 + 1]) : nil }, "\(setup)")
        let made = filesUnder(try GtkBuild.built.get())
        #expect(made.contains("build.ninja"), "the build: \(made)")
        #expect(try notIgnoredByGit(made.map { "Integrations/gtk/\(folder)/" + $0 }) == [], "git status would show them")
    }
}
