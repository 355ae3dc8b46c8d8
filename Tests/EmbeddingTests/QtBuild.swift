import Foundation
import Glibc
import TestSupport
import HostTestSupport

/// Integrations/qt built as a Qt developer builds it (CMake against the installed libsegue through
/// pkg-config), once per Qt major per test run, and the environments its apps run in: Qt 6 offscreen,
/// Qt 5 on Xvfb (its offscreen platform has no OpenGL for Qt Quick, and its software grab is empty).
enum QtBuild {
    /// What is missing to build and run the integration for Qt `major`, or nil.
    static func problem(_ major: Int) -> String? {
        let needed: [String: String] = major == 6
            ? ["/usr/lib/x86_64-linux-gnu/cmake/Qt6Quick/Qt6QuickConfig.cmake": "qt6-declarative-dev",
               "/usr/lib/x86_64-linux-gnu/cmake/Qt6Widgets/Qt6WidgetsConfig.cmake": "qt6-base-dev",
               "/usr/lib/x86_64-linux-gnu/qt6/qml/QtQuick/Window/qmldir": "qml6-module-qtquick-window"]
            : ["/usr/lib/x86_64-linux-gnu/cmake/Qt5Quick/Qt5QuickConfig.cmake": "qtdeclarative5-dev",
               "/usr/lib/x86_64-linux-gnu/qt5/qml/QtQuick/Window.2/qmldir": "qml-module-qtquick-window2"]
        var missing = Set(needed.filter { !FileManager.default.fileExists(atPath: $0.key) }.map(\.value))
        if !FileManager.default.fileExists(atPath: "/usr/bin/cmake") { missing.insert("cmake") }
        if major == 5 && !VirtualDisplay.available { missing.insert("xvfb xdotool x11-apps") }
        return missing.isEmpty ? nil : "skipped: Segue's Qt \(major) integration needs \(missing.sorted().joined(separator: ", ")) (apt-get install them; .ci/run does)"
    }

    /// The build folders by Qt major: libsegue-qtNwidgets.so, qml/Segue, the two demos.
    nonisolated(unsafe) private static var builds: [Int: Result<String, InstalledLibsegue.SetupFailure>] = [:]
    private static let lock = NSLock()

    static func built(_ major: Int) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let done = builds[major] { return try done.get() }
        let result: Result<String, InstalledLibsegue.SetupFailure>
        do {
            let prefix = try InstalledLibsegue.prefix.get()
            let build = makeTemporaryFolder("qt\(major)-build")
            let env = ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(build)", "PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig"]
            for (step, command) in [("configure", ["/usr/bin/cmake", "-S", Paths.packageRoot + "/Integrations/qt", "-B", build + "/out",
                                                   "-DQT_MAJOR=\(major)", "-DCMAKE_INSTALL_PREFIX=\(prefix)",
                                                   // one translation unit per target: the build takes a third less time on
                                                   // two shared cores (the file-by-file build docs/qt.md shows is not run here)
                                                   "-DCMAKE_UNITY_BUILD=ON"]),
                                    ("build", ["/usr/bin/cmake", "--build", build + "/out", "-j", "2"])] {
                let ran = try run("/bin/sh", ["-c", "\"$@\" > \(build)/\(step).log 2>&1", "sh"] + env + command, timeout: 600)
                guard ran.status == 0 else {
                    throw InstalledLibsegue.SetupFailure(message: "Qt \(major) \(step): " + ((try? String(contentsOfFile: "\(build)/\(step).log", encoding: .utf8)) ?? ""))
                }
            }
            result = .success(build + "/out")
        } catch let failure as InstalledLibsegue.SetupFailure {
            result = .failure(failure)
        } catch {
            result = .failure(.init(message: "\(error)"))
        }
        builds[major] = result
        return try result.get()
    }

    /// An app's environment: Qt `major`'s platform (offscreen, or xcb on `display`: Qt 5, or Qt 6 with
    /// OpenGL through its RHI when `display` is given), no user config (an empty XDG_CONFIG_HOME unless
    /// `config` is given), the test's plugins, libsegue's worker, and `tag`.
    static func environment(_ major: Int, display: String?, plugins extra: [String] = [], config: String? = nil, tag: String? = nil) throws -> [String: String] {
        let prefix = try InstalledLibsegue.prefix.get()
        var environment = [
            "XDG_CONFIG_HOME": config ?? makeTemporaryFolder("qt-config"), "XDG_RUNTIME_DIR": makeTemporaryFolder("qt-runtime"),
            "SEGUE_WORKER": prefix + "/libexec/segue/segue-worker",
            "SEGUE_PLUGIN_PATH": ([try GtkStackTests.plugins.get()] + extra).joined(separator: ":"),
        ]
        if major == 6 && display == nil {
            environment["QT_QPA_PLATFORM"] = "offscreen"
        } else {
            environment.merge(["QT_QPA_PLATFORM": "xcb", "DISPLAY": display ?? "", "LIBGL_ALWAYS_SOFTWARE": "1", "QSG_RENDER_LOOP": "basic"]) { $1 }
            if major == 6 { environment["QSG_RHI_BACKEND"] = "opengl" }
        }
        if let tag { environment.merge(tagged(tag, worker: prefix + "/libexec/segue/segue-worker")) { $1 } }
        return environment
    }
}
