import Foundation
import Glibc
import TestSupport
import HostTestSupport

/// Integrations/gtk built as a GTK developer builds it (Meson, against the
/// installed libsegue through pkg-config), once per test run, and the
/// environment its programs run in.
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

    /// The build folder: libsegue-gtk4.so, SegueGtk-1.typelib, segue-gtk-demo.
    static let built: Result<String, InstalledLibsegue.SetupFailure> = {
        do {
            let prefix = try InstalledLibsegue.prefix.get()
            let build = makeTemporaryFolder("gtk-build")
            // A clean environment, as a developer's shell has, and the output into files (a tool's pipe
            // filling up must not stall the build).
            let env = ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(build)", "PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig"]
            let setup = try run("/bin/sh", ["-c", "\"$@\" > \(build)/setup.log 2>&1", "sh"] + env
                                + ["/usr/bin/meson", "setup", build + "/out", Paths.packageRoot + "/Integrations/gtk", "--prefix", prefix,
                                   "-Dwerror=true"], timeout: 120)
            guard setup.status == 0 else {
                return .failure(.init(message: "meson setup: \((try? String(contentsOfFile: build + "/setup.log", encoding: .utf8)) ?? "")"))
            }
            let compiled = try run("/bin/sh", ["-c", "\"$@\" > \(build)/build.log 2>&1", "sh"] + env
                                   + ["/usr/bin/ninja", "-C", build + "/out"], timeout: 600)
            guard compiled.status == 0 else {
                return .failure(.init(message: "ninja: \((try? String(contentsOfFile: build + "/build.log", encoding: .utf8)) ?? "")"))
            }
            return .success(build + "/out")
        } catch let failure as InstalledLibsegue.SetupFailure {
            return .failure(failure)
        } catch {
            return .failure(.init(message: "\(error)"))
        }
    }()

    /// A GTK program's environment on `display`: GTK's `renderer` (GSK_RENDERER), no user config
    /// (an empty XDG_CONFIG_HOME), the test's plugins and the built widget and typelib found first.
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
