import Foundation
import Glibc
import TestSupport
import Testing

/// GNOME Shell 43 run headless (`--headless --wayland --no-x11
/// --virtual-monitor 1280x720`, llvmpipe; Xwayland when asked for) in a private D-Bus session, a
/// private system bus (without one the shell aborts where systemd's seat
/// folder exists), a private runtime folder and a scratch home; the Segue
/// extension installed and enabled as a user does before logging in
/// (`gnome-extensions pack`, `install`, `enable`: on Wayland a newly
/// installed extension needs a new login), and a test-only extension
/// (Tests/Fixtures/gnome-shell/segue-test@segue.dev) that turns unsafe mode on
/// (org.gnome.Shell.Eval and the screenshot interface answer the tests) and
/// closes the Overview the shell opens at start. Every process it starts
/// carries a tag, so a test can check that none is left.
final class GnomeShellSession {
    static let size = (width: 1280, height: 720)

    /// Why GNOME Shell cannot be tried here, or nil.
    static let problem: String? = {
        let needed = ["/usr/bin/gnome-shell": "gnome-shell", "/usr/bin/gnome-extensions": "gnome-shell", "/usr/bin/dbus-run-session": "dbus",
                      "/usr/bin/dbus-daemon": "dbus", "/usr/bin/weston-image": "weston", "/usr/bin/gnome-calculator": "gnome-calculator",
                      "/usr/bin/gsettings": "libglib2.0-bin", "/usr/bin/Xwayland": "xwayland", "/usr/bin/xterm": "xterm"]
        let missing = Set(needed.filter { !FileManager.default.fileExists(atPath: $0.key) }.map(\.value)).sorted()
        if !missing.isEmpty { return "skipped: GNOME Shell needs \(missing.joined(separator: ", ")) (apt-get install them; .ci/run does)" }
        if let glib = GLibBuild.problem { return glib }
        guard (try? run("/usr/bin/python3", ["-c", "import dbus"]).status) == 0 else {
            return "skipped: talking to GNOME Shell needs python3-dbus (apt-get install python3-dbus; .ci/run does)"
        }
        return nil
    }()

    static let extensionSource = Paths.packageRoot + "/Integrations/gnome-shell/segue@segue.dev"
    static let uuid = "segue@segue.dev"
    static let testExtension = "segue-test@segue.dev"

    /// The extension packed once as its users receive it (`gnome-extensions pack`).
    static let pack: Result<String, InstalledLibsegue.SetupFailure> = {
        let out = makeTemporaryFolder("gnome-shell-pack")
        guard let packed = try? run("/usr/bin/gnome-extensions", ["pack", extensionSource, "--out-dir", out]), packed.status == 0 else {
            return .failure(.init(message: "gnome-extensions pack \(extensionSource) failed"))
        }
        return .success(out + "/\(uuid).shell-extension.zip")
    }()

    let folder: String
    let home: String
    let tag = "gnome-shell-" + UUID().uuidString
    /// The user's segue.json, as the extension's player follows it.
    let config: String
    private let shell: LiveProcess
    /// How much smaller than the monitor's pixels the screen's units are, in photographs.
    private let shrink: Int
    private let environment: [String: String]

    /// Starts GNOME Shell with the Segue extension installed and enabled
    /// (`segue`: false leaves it out), `config` as the user's segue.json (nil:
    /// none, nor its folder), plugins from `plugins` (then the installed
    /// ones), and `settings` (schema, key, value as gsettings takes them) set
    /// before the login; with `x11`, without `--no-x11`: X11 clients through
    /// the shell's Xwayland (``openX11(_:_:)``); a virtual monitor of `monitor`
    /// pixels, at `scale` (as a user picks it in Settings' Displays: GNOME 43
    /// lays a scaled monitor out in its pixels, and draws windows and its own
    /// interface `scale` times larger; with `scaledFramebuffers`, mutter's
    /// experimental feature for fractional scales, in units `scale` pixels
    /// wide, drawn at the monitor's pixels: then ``photograph(steadyOver:)``
    /// gives the screen in those units).
    init(config json: String?, plugins: [String], segue: Bool = true, settings: [(String, String, String)] = [], x11: Bool = false,
         monitor: (width: Int, height: Int) = GnomeShellSession.size, scale: Int = 1, scaledFramebuffers: Bool = false) throws {
        shrink = scaledFramebuffers ? scale : 1
        folder = makeTemporaryFolder("gnome-shell")
        home = folder + "/home"
        for sub in ["/run", "/home/.config", "/home/.local/share", "/home/.cache"] {
            try FileManager.default.createDirectory(atPath: folder + sub, withIntermediateDirectories: true)
        }
        chmod(folder + "/run", 0o700)
        config = home + "/.config/segue/segue.json"
        if let json {
            try FileManager.default.createDirectory(atPath: home + "/.config/segue", withIntermediateDirectories: true)
            try json.write(toFile: config, atomically: true, encoding: .utf8)
        }
        let prefix = try GLibBuild.installed.get()
        let worker = tagged(tag, worker: prefix + "/libexec/segue/segue-worker")
        environment = [
            "SEGUE_TEST_TAG": tag, "HOME": home, "XDG_RUNTIME_DIR": folder + "/run", "XDG_CONFIG_HOME": home + "/.config",
            "XDG_DATA_HOME": home + "/.local/share", "XDG_CACHE_HOME": home + "/.cache", "LIBGL_ALWAYS_SOFTWARE": "1",
            "SEGUE_PLUGIN_PATH": plugins.joined(separator: ":"), "SEGUE_WORKER": worker["SEGUE_WORKER"] ?? "",
            // libsegue (Scripts/install.sh) and the GObject library and its typelib (meson install) in a prefix of their own.
            "GI_TYPELIB_PATH": prefix + "/lib/girepository-1.0", "LD_LIBRARY_PATH": prefix + "/lib",
            "WAYLAND_DISPLAY": "wayland-0", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
        ]
        // Before the login, as a user does: the extension installed and enabled; quiet, steady pictures
        // (no notification banners, such as unsafe mode's, no blinking cursor).
        let extensions = home + "/.local/share/gnome-shell/extensions"
        try FileManager.default.createDirectory(atPath: extensions, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.packageRoot + "/Tests/Fixtures/gnome-shell/\(Self.testExtension)",
                                         toPath: extensions + "/" + Self.testExtension)
        var login = ["set -e"]
        if segue {
            let zip = try Self.pack.get()
            login += ["gnome-extensions install --force '\(zip)'", "gnome-extensions enable \(Self.uuid)"]
        }
        login.append("gsettings set org.gnome.shell enabled-extensions \"$(gsettings get org.gnome.shell enabled-extensions | sed \"s/@as //; s/]/, '\(Self.testExtension)']/; s/\\[, /[/\")\"")
        login += ["gsettings set org.gnome.desktop.notifications show-banners false",
                  "gsettings set org.gnome.desktop.interface cursor-blink false"]
        if scaledFramebuffers { login.append("gsettings set org.gnome.mutter experimental-features \"['scale-monitor-framebuffer']\"") }
        login += settings.map { "gsettings set \($0.0) \($0.1) \"\($0.2)\"" }
        let prepared = try run("/usr/bin/dbus-run-session", ["--", "/bin/sh", "-c", login.joined(separator: "\n")],
                               in: folder, environment: environment, timeout: 60)
        try #require(prepared.status == 0, "before the login: \(prepared.out)\(prepared.err)")
        // The system bus a daemon of its own, forked with its output in a file (holding the test's pipes, it
        // would keep the shell's wrapper from being seen to end). Started with no signal blocked (LiveProcess's way): the shell must hear SIGTERM.
        shell = try LiveProcess("/bin/sh", ["-c", """
            dbus-daemon --session --fork --print-address=3 --print-pid=4 3> system-bus 4> system-bus.pid < /dev/null > system-bus.log 2>&1
            export DBUS_SYSTEM_BUS_ADDRESS="$(cat system-bus)"
            exec dbus-run-session -- /bin/sh -c 'echo "$DBUS_SESSION_BUS_ADDRESS" > bus; exec gnome-shell --headless --wayland \(x11 ? "" : "--no-x11 ")\
            --virtual-monitor \(monitor.width)x\(monitor.height)' > shell.log 2>&1
            """], in: folder, environment: environment)
        let ready = wait(for: "segue-test: overview closed, unsafe mode on")
        try #require(ready.contains("segue-test: overview closed"), "GNOME Shell started: \(ready)")
        if scale != 1 {
            let scaled = try run("/usr/bin/python3", [Paths.packageRoot + "/Tests/Fixtures/gnome-shell/shell.py", "scale", String(scale)],
                                 environment: ["DBUS_SESSION_BUS_ADDRESS": try bus], timeout: 30)
            try #require(scaled.status == 0, "the monitor at scale \(scale): \(scaled.out)\(scaled.err)")
            let deadline = Date().addingTimeInterval(30)
            var now = try eval("global.display.get_monitor_scale(0)")
            while now != String(scale) && Date() < deadline {
                usleep(50_000)
                now = try eval("global.display.get_monitor_scale(0)")
            }
            try #require(now == String(scale), "the shell's monitor at scale \(scale): \(now)")
        }
    }

    /// Writes `json` as the user's segue.json (renamed into place, as editors save) and waits for the
    /// extension's player to say it reloaded it (60 s at most).
    func configure(_ json: String) throws {
        let reloads = log.components(separatedBy: "segue.json").count - 1
        try replaceByRename(config, with: json)
        wait(for: "segue.json", count: reloads + 1)
    }

    /// The shell's log so far: its standard error, written to a file (a pipe it fills could stall it).
    var log: String { (try? String(contentsOfFile: folder + "/shell.log", encoding: .utf8)) ?? "" }

    /// Waits until the log holds `text` `count` times; the log.
    @discardableResult
    func wait(for text: String, count: Int = 1, timeout: Double = 60) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = log
        while seen.components(separatedBy: text).count <= count && Date() < deadline {
            usleep(20_000)
            seen = log
        }
        return seen
    }

    /// The session's D-Bus address.
    var bus: String {
        get throws { try String(contentsOfFile: folder + "/bus", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Runs `javascript` in the shell (org.gnome.Shell.Eval); its result as JSON text.
    @discardableResult
    func eval(_ javascript: String) throws -> String {
        let result = try run("/usr/bin/python3", [Paths.packageRoot + "/Tests/Fixtures/gnome-shell/shell.py", "eval", javascript],
                             environment: ["DBUS_SESSION_BUS_ADDRESS": try bus], timeout: 30)
        try #require(result.status == 0, "Eval \(javascript): \(result.out)\(result.err)")
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The extension's state object (what its init() returned), in Eval's JavaScript.
    static let segue = "Main.extensionManager.lookup('\(uuid)').stateObj"

    /// Holds every transition that starts or runs at `fraction` of its duration (nil: lets them run).
    func hold(at fraction: Double?) throws {
        try eval("\(Self.segue).holdAt = \(fraction.map { String($0) } ?? "null")")
    }

    /// A real client: `program` with `arguments`, on the shell's display and session bus.
    func open(_ program: String, _ arguments: [String] = []) throws -> LiveProcess {
        var env = environment
        env["DBUS_SESSION_BUS_ADDRESS"] = try bus
        env["GDK_BACKEND"] = "wayland"
        return try LiveProcess(program, arguments, in: folder, environment: env)
    }

    /// A real X11 client, `program` with `arguments`, through the shell's Xwayland (a session made with
    /// `x11`): the shell's display and the authority file mutter made for it, read from the shell.
    func openX11(_ program: String, _ arguments: [String] = []) throws -> LiveProcess {
        var env = environment
        env["DBUS_SESSION_BUS_ADDRESS"] = try bus
        env["WAYLAND_DISPLAY"] = nil
        for name in ["DISPLAY", "XAUTHORITY"] {
            let value = try eval("imports.gi.GLib.getenv('\(name)')").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            try #require(!value.isEmpty && value != "null", "the shell's \(name): \(value)")
            env[name] = value
        }
        return try LiveProcess(program, arguments, in: folder, environment: env)
    }

    /// The frame (x, y, width, height) the log gave the `count`-th (from 1) transition of `kind` ("opens", "closes", ...).
    func frame(_ kind: String, count: Int = 1) -> (x: Int, y: Int, width: Int, height: Int)? {
        let lines = log.split(separator: "\n").filter { $0.contains(" \(kind) at ") }
        guard lines.count >= count else { return nil }
        let place = lines[count - 1].components(separatedBy: " \(kind) at ")[1].split(separator: ":")[0]
        let parts = place.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "x" }).compactMap { Int(Double($0) ?? .nan) }
        return parts.count == 4 ? (parts[0], parts[1], parts[2], parts[3]) : nil
    }

    /// The screen as the shell draws it (its screenshot interface), once two
    /// photographs in a row agree over `area` (the whole screen when nil; 10 s at most).
    func photograph(steadyOver area: (x: Int, y: Int, width: Int, height: Int)? = nil) throws -> DecodedPNG {
        var last: [UInt8]?
        let deadline = Date().addingTimeInterval(10)
        while true {
            let out = folder + "/shot-\(UUID().uuidString).png"
            let shot = try run("/usr/bin/python3", [Paths.packageRoot + "/Tests/Fixtures/gnome-shell/shell.py", "screenshot", out],
                               environment: ["DBUS_SESSION_BUS_ADDRESS": try bus], timeout: 30)
            try #require(shot.status == 0, "screenshot: \(shot.out)\(shot.err)")
            let decoded = try decodePNG(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
            let picture = shrink > 1 ? decoded.shrunk(by: shrink) : decoded
            let region = RendererComparison.pixels(picture, area ?? (0, 0, picture.width, picture.height))
            if let last, last == region || Date() > deadline { return picture }
            last = region
            usleep(100_000)
        }
    }

    /// Ends the shell as its session would (SIGTERM) and waits for it, then
    /// its private system bus; the shell's status, or nil when it had to be killed.
    func stop() -> Int32? {
        let shellProcess = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.first { pid in
            guard Int(pid) != nil else { return false }
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            let program = String(decoding: command.prefix { $0 != 0 }, as: UTF8.self)
            return program == "gnome-shell" && environ.range(of: Data(tag.utf8)) != nil
        }
        let deadline = Date().addingTimeInterval(20)
        if let shellProcess, let pid = Int32(shellProcess) {
            kill(pid, SIGTERM)
            _ = processesRunning([pid], within: deadline.timeIntervalSinceNow)
        }
        // Then its private system bus; dbus-run-session ends once the shell has, taking the session's bus with it.
        if let text = try? String(contentsOfFile: folder + "/system-bus.pid", encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
        }
        while shell.process.isRunning && Date() < deadline { usleep(20_000) }
        let status = shell.process.isRunning ? shell.stop(with: SIGKILL) : shell.process.terminationStatus
        return status
    }

    deinit {
        _ = stop()
        for pid in processesTagged(tag, within: 0) { kill(Int32(pid) ?? 0, SIGKILL) }
    }
}
