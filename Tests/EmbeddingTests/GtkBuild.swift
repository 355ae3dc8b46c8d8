import Foundation
import Glibc
import TestSupport
import HostTestSupport

/// Integrations/gtk built as a GTK developer builds it (Meson, against the
/// installed libsegue through pkg-config), once per test run, installed
/// beside that libsegue, and the environments its programs run in.
enum GtkBuild {
    /// What is missing to build and run the widget, or nil.
    static let problem: String? = {
        let needed = ["/usr/bin/meson": "meson", "/usr/bin/ninja": "ninja-build", "/usr/bin/g-ir-scanner": "gobject-introspection",
                      "/usr/include/gtk-4.0/gtk/gtk.h": "libgtk-4-dev", "/usr/share/gir-1.0/Gtk-4.0.gir": "libgtk-4-dev",
                      "/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-4.0.typelib": "gir1.2-gtk-4.0",
                      "/usr/lib/python3/dist-packages/gi/__init__.py": "python3-gi", "/usr/bin/gjs": "gjs"]
        let missing = Set(needed.filter { !FileManager.default.fileExists(atPath: $0.key) }.map(\.value)).sorted()
            + (VirtualDisplay.available ? [] : ["xvfb xdotool x11-apps"])
        return missing.isEmpty ? nil : "skipped: the GTK container needs \(missing.joined(separator: ", ")) (apt-get install them; .ci/run does)"
    }()

    /// The prefix the widget is built for and installed into, as docs/gtk.md says: libsegue installed
    /// there by Scripts/install.sh, the widget beside it by `meson install`. Only the installed-layout
    /// tests run programs from it, so that a process of theirs left behind is told by its path.
    static let prefix: Result<String, InstalledLibsegue.SetupFailure> = {
        let prefix = makeTemporaryFolder("gtk-prefix")
        do {
            let installed = try run("/bin/sh", [Paths.packageRoot + "/Scripts/install.sh", "--from", Paths.binFolder, "--prefix", prefix])
            guard installed.status == 0 else { return .failure(.init(message: "install.sh: " + installed.err)) }
        } catch {
            return .failure(.init(message: "install.sh: \(error)"))
        }
        return .success(prefix)
    }()

    /// Runs `command` in a developer's clean environment (the system's tools, the prefix's pkg-config
    /// files), its output into `log` (a tool's pipe filling up must not stall it); the log on failure.
    private static func developer(_ command: [String], log: String, timeout: Double) throws {
        let env = ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\((log as NSString).deletingLastPathComponent)",
                   "PKG_CONFIG_PATH=\(try prefix.get())/lib/pkgconfig"]
        let ran = try run("/bin/sh", ["-c", "\"$@\" > \(log) 2>&1", "sh"] + env + command, timeout: timeout)
        guard ran.status == 0 else {
            throw InstalledLibsegue.SetupFailure(message: "\(command.joined(separator: " ")): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }

    /// The build folder: libsegue-gtk4.so, SegueGtk-1.typelib, segue-gtk-demo; set up as docs/gtk.md says.
    static let built: Result<String, InstalledLibsegue.SetupFailure> = {
        do {
            let build = makeTemporaryFolder("gtk-build")
            try developer(["/usr/bin/meson", "setup", build + "/out", Paths.packageRoot + "/Integrations/gtk", "--prefix", try prefix.get(),
                           "-Dwerror=true"], log: build + "/setup.log", timeout: 120)
            try developer(["/usr/bin/ninja", "-C", build + "/out"], log: build + "/build.log", timeout: 600)
            return .success(build + "/out")
        } catch let failure as InstalledLibsegue.SetupFailure {
            return .failure(failure)
        } catch {
            return .failure(.init(message: "\(error)"))
        }
    }()

    /// The prefix once `meson install` has put the widget there.
    static let installed: Result<String, InstalledLibsegue.SetupFailure> = {
        do {
            let build = try built.get()
            try developer(["/usr/bin/meson", "install", "-C", build], log: build + "/../install.log", timeout: 120)
            return .success(try prefix.get())
        } catch let failure as InstalledLibsegue.SetupFailure {
            return .failure(failure)
        } catch {
            return .failure(.init(message: "\(error)"))
        }
    }()

    /// Builds `Tests/Fixtures/gtk/NAME.c` as the docs say a program is built against the installed
    /// widget (`cc app.c $(pkg-config --cflags --libs segue-gtk4)`, only PKG_CONFIG_PATH set); once a
    /// run, the tests that run it share it.
    static func program(_ name: String) throws -> String {
        try programs.value(name) {
            let prefix = try installed.get()
            let output = makeTemporaryFolder("gtk-c") + "/" + name
            let built = try run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig", "/bin/sh", "-c",
                                                 "cc -std=c11 -Wall -Wextra -Werror \"$0\" $(pkg-config --cflags --libs segue-gtk4) -o \"$1\"",
                                                 Paths.packageRoot + "/Tests/Fixtures/gtk/\(name).c", output])
            guard built.status == 0 else {
                throw InstalledLibsegue.SetupFailure(message: "cc \(name).c against \(prefix)/lib/pkgconfig/segue-gtk4.pc: \(built.err)")
            }
            return output
        }
    }
    private static let programs = OncePerRun<String>()

    /// `/usr/bin/env` and its arguments that run `program` with nothing of the test's environment:
    /// a user's session on `display` (no accessibility bus, an empty home) and `variables`.
    static func alone(_ program: String, _ arguments: [String], display: String, _ variables: [String: String] = [:]) -> [String] {
        let home = makeTemporaryFolder("gtk-home")
        return ["-i", "PATH=/usr/bin:/bin", "HOME=\(home)", "DISPLAY=\(display)", "GDK_BACKEND=x11",
                "GTK_A11Y=none", "NO_AT_BRIDGE=1"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [program] + arguments
    }

    /// A GTK program's environment on `display`: GTK's `renderer` (GSK_RENDERER), no user config
    /// (an empty XDG_CONFIG_HOME), the test's plugins and the built widget and typelib found first;
    /// libsegue and its worker from the installation the other tests share, not from `prefix`.
    static func environment(display: String, renderer: String = "gl", plugins extra: [String] = [], tag: String? = nil) throws -> [String: String] {
        let prefix = try InstalledLibsegue.prefix.get()
        let build = try built.get()
        var environment = [
            "DISPLAY": display, "GDK_BACKEND": "x11", "GSK_RENDERER": renderer, "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
            "XDG_CONFIG_HOME": makeTemporaryFolder("gtk-config"), "SEGUE_WORKER": prefix + "/libexec/segue/segue-worker",
            "SEGUE_PLUGIN_PATH": ([try GtkStackTests.plugins.get()] + extra).joined(separator: ":"),
            "LD_LIBRARY_PATH": build + ":" + prefix + "/lib", "GI_TYPELIB_PATH": build,
        ]
        if let tag { environment.merge(tagged(tag, worker: prefix + "/libexec/segue/segue-worker")) { $1 } }
        return environment
    }
}
