import Foundation
import Glibc
import TestSupport
import Testing

/// KWin 5.27 run headless (`--virtual`, OpenGL on llvmpipe) in a private D-Bus
/// session and runtime folder, with the Segue effect built from
/// Integrations/kwin and switched on; Wayland clients opened in it; KWin
/// photographed through its own screenshot interface. Every process it starts
/// carries a tag, so a test can check that none is left.
final class KWinSession {
    /// The size of KWin's one virtual output, its screen.
    static let size = (width: 1024, height: 768)
    /// Why KWin cannot be tried here, or nil.
    static let problem: String? = {
        let needed = ["/usr/bin/kwin_wayland": "kwin-wayland", "/usr/bin/dbus-run-session": "dbus", "/usr/bin/weston-image": "weston",
                      "/usr/bin/cmake": "cmake", "/usr/share/ECM/cmake/ECMConfig.cmake": "extra-cmake-modules",
                      "/usr/lib/x86_64-linux-gnu/cmake/KWinEffects/KWinEffectsConfig.cmake": "kwin-dev"]
        let missing = needed.filter { !FileManager.default.fileExists(atPath: $0.key) }.map(\.value).sorted()
        if !missing.isEmpty { return "skipped: KWin needs \(missing.joined(separator: ", ")) (apt-get install them; .ci/run does)" }
        guard (try? run("/usr/bin/python3", ["-c", "import dbus"]).status) == 0 else {
            return "skipped: photographing KWin needs python3-dbus (apt-get install python3-dbus; .ci/run does)"
        }
        return nil
    }()

    /// Why X11 clients (`openX11`: Xwayland, ImageMagick's display, xprop, xdotool) cannot be tried here, or nil.
    static let x11Problem: String? = {
        let needed = ["/usr/bin/Xwayland": "xwayland", "/usr/bin/xprop": "x11-utils", "/usr/bin/xdotool": "xdotool", "/usr/bin/display": "imagemagick"]
        let missing = needed.filter { !FileManager.default.fileExists(atPath: $0.key) }.map(\.value).sorted()
        return missing.isEmpty ? nil : "skipped: KWin's X11 windows need \(missing.joined(separator: ", ")) (apt-get install them; .ci/run does)"
    }()

    /// The effect, built once against the installed libsegue as a Plasma user builds it.
    static let effect: Result<String, InstalledLibsegue.SetupFailure> = {
        do {
            let prefix = try InstalledLibsegue.prefix.get()
            let build = makeTemporaryFolder("kwin-effect")
            // As a user's shell runs it: the system's tools and the installed pkg-config file, nothing of the
            // test's; its output into files (through pipes, cmake's build stalled in the test process).
            let cmake = ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(build)", "PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig", "/usr/bin/cmake"]
            let configured = try run("/bin/sh", ["-c", "\"$@\" > \(build)/configure.log 2>&1", "sh"] + cmake
                                     + ["-S", Paths.packageRoot + "/Integrations/kwin", "-B", build, "-DCMAKE_BUILD_TYPE=Release"], timeout: 60)
            guard configured.status == 0 else {
                return .failure(.init(message: "cmake: \((try? String(contentsOfFile: build + "/configure.log", encoding: .utf8)) ?? "")"))
            }
            let built = try run("/bin/sh", ["-c", "\"$@\" > \(build)/build.log 2>&1", "sh"] + cmake + ["--build", build, "-j2"], timeout: 600)
            guard built.status == 0 else {
                return .failure(.init(message: "cmake --build: \((try? String(contentsOfFile: build + "/build.log", encoding: .utf8)) ?? "")"))
            }
            return .success(build + "/segue.so")
        } catch {
            return .failure(.init(message: "\(error)"))
        }
    }()

    let folder: String
    let tag = "kwin-" + UUID().uuidString
    let config: String
    private let kwin: LiveProcess
    /// The output's scale: its pixels to a unit.
    private let scale: Int
    private let socket: String
    /// Scripts run so far, for their names.
    private var scripts = 0

    /// Starts KWin with the effect, `config` as the user's segue.json (nil: none, nor its folder), and
    /// plugins from `plugins` (then the installed ones); holds every
    /// transition at `holdAt` of its duration when given; `animationSpeed`
    /// as System Settings' slider writes it (kdeglobals' AnimationDurationFactor);
    /// scripted effects of the
    /// test's (`scriptedEffects`: id to JavaScript) installed as a user's
    /// packages, for `loadEffect` (KWin lists packages as it starts);
    /// with `xwayland`, Xwayland for X11 clients (`openX11`); its output at
    /// `scale` (a HiDPI monitor: laid out in ``size`` units, each `scale`
    /// pixels wide; ``photograph()`` gives it in those units).
    init(config json: String?, plugins: [String], holdAt: Double? = nil, animationSpeed: Double? = nil,
         scriptedEffects: [String: String] = [:], xwayland: Bool = false, scale: Int = 1) throws {
        self.scale = scale
        folder = makeTemporaryFolder("kwin")
        let effect = try Self.effect.get()
        let pluginFolder = folder + "/qt/kwin/effects/plugins"
        try FileManager.default.createDirectory(atPath: pluginFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: effect, toPath: pluginFolder + "/segue.so")
        // A copy drops the file capability root cannot use here; KWin checks that its name ends in kwin_wayland.
        try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: folder + "/kwin_wayland")
        // Without a config, not even its folder: as right after the install.
        for sub in [json == nil ? "/config" : "/config/segue", "/run"] {
            try FileManager.default.createDirectory(atPath: folder + sub, withIntermediateDirectories: true)
        }
        chmod(folder + "/run", 0o700)
        // KWin's own open, close and minimize animations off, as the install script leaves them.
        try "[Plugins]\nsegueEnabled=true\nkwin4_effect_scaleEnabled=false\nkwin4_effect_squashEnabled=false\n"
            .write(toFile: folder + "/config/kwinrc", atomically: true, encoding: .utf8)
        if let animationSpeed {
            try "[KDE]\nAnimationDurationFactor=\(animationSpeed)\n".write(toFile: folder + "/config/kdeglobals", atomically: true, encoding: .utf8)
        }
        for (id, javascript) in scriptedEffects {
            let package = folder + "/data/kwin/effects/" + id
            try FileManager.default.createDirectory(atPath: package + "/contents/code", withIntermediateDirectories: true)
            try #"{"KPackageStructure": "KWin/Effect", "KPlugin": {"Id": "\#(id)", "Name": "\#(id)", "EnabledByDefault": false}, "X-Plasma-API": "javascript", "X-Plasma-MainScript": "code/main.js"}"#
                .write(toFile: package + "/metadata.json", atomically: true, encoding: .utf8)
            try javascript.write(toFile: package + "/contents/code/main.js", atomically: true, encoding: .utf8)
        }
        config = folder + "/config/segue/segue.json"
        try json?.write(toFile: config, atomically: true, encoding: .utf8)
        socket = "segue-\(getpid())-\(UInt16.random(in: 1...60000))"
        let prefix = try InstalledLibsegue.prefix.get()
        var environment = [
            "SEGUE_TEST_TAG": tag, "XDG_RUNTIME_DIR": folder + "/run", "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data",
            "QT_PLUGIN_PATH": folder + "/qt", "KWIN_SCREENSHOT_NO_PERMISSION_CHECKS": "1", "QT_LOGGING_RULES": "segue.kwin.info=true",
            "SEGUE_PLUGIN_PATH": plugins.joined(separator: ":"), "SEGUE_WORKER": prefix + "/libexec/segue/segue-worker",
            // KWin's own animations run on llvmpipe only when forced, as on a desktop with a GPU.
            "KWIN_EFFECTS_FORCE_ANIMATIONS": "1",
        ]
        // The fraction transitions are held at, read from a file as each begins: `hold(at:)` changes it.
        environment["SEGUE_KWIN_HOLD_AT"] = "@" + folder + "/hold"
        try (holdAt.map { String($0) } ?? "").write(toFile: folder + "/hold", atomically: true, encoding: .utf8)
        // LiveProcess starts it with no signal blocked: KWin must hear SIGTERM as a session ending.
        kwin = try LiveProcess("/usr/bin/dbus-run-session", ["--", "/bin/sh", "-c", """
            echo "$DBUS_SESSION_BUS_ADDRESS" > bus; exec ./kwin_wayland --virtual --width \(Self.size.width) --height \(Self.size.height) \
            --scale \(scale) --socket \(socket) --no-lockscreen --no-global-shortcuts --no-kactivities \(xwayland ? "--xwayland" : "") > kwin.log 2>&1 \
            \(xwayland ? "\"/bin/sh -c 'echo \\$DISPLAY > display.new && mv display.new display'\"" : "")
            """], in: folder, environment: environment)
        wait(for: "segue: playing window animators")
    }

    /// Holds each transition that begins from now on at `fraction` of its duration (nil: they play); one held
    /// stays until its window closes (a window that skips close animations goes at once).
    func hold(at fraction: Double?) {
        try? (fraction.map { String($0) } ?? "").write(toFile: folder + "/hold", atomically: true, encoding: .utf8)
    }

    /// Xwayland's display, for X11 clients (a session started with `xwayland`), once KWin has started it (30 s at most).
    var display: String {
        get throws {
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: folder + "/display") && Date() < deadline { usleep(20_000) }
            let display = try String(contentsOfFile: folder + "/display", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(!display.isEmpty, "KWin started Xwayland: \(log)")
            return display
        }
    }

    /// An X11 client, `program` with `arguments`, on Xwayland (a session started with `xwayland`).
    func openX11(_ program: String, _ arguments: [String]) throws -> LiveProcess {
        try LiveProcess(program, arguments, in: folder, environment: ["DISPLAY": try display, "SEGUE_TEST_TAG": tag])
    }

    /// KWin's log so far: its standard error, written to a file (a pipe KWin fills could stall it).
    var log: String { (try? String(contentsOfFile: folder + "/kwin.log", encoding: .utf8)) ?? "" }

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

    /// Writes `json` as the effect's segue.json (renamed into place, as editors save) and waits for the
    /// effect to log that it read it again (60 s at most); the log.
    @discardableResult
    func configure(_ json: String) throws -> String {
        let reloads = log.components(separatedBy: "segue.json").count - 1
        try replaceByRename(config, with: json)
        return wait(for: "segue.json", count: reloads + 1)
    }

    /// A window showing `picture` (weston-image, application id org.freedesktop.weston.wayland-image).
    func open(_ picture: String) throws -> LiveProcess {
        try LiveProcess("/usr/bin/weston-image", [picture], in: folder,
                        environment: ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": folder + "/run", "SEGUE_TEST_TAG": tag])
    }

    /// The frame the effect logged for the `count`-th transition of `kind` ("opens", "closes", "minimizes", "unminimizes").
    func frame(_ kind: String, count: Int = 1) -> (x: Int, y: Int, width: Int, height: Int)? {
        let lines = log.split(separator: "\n").filter { $0.contains(" \(kind) at ") }
        guard lines.count >= count else { return nil }
        let place = lines[count - 1].components(separatedBy: " \(kind) at ")[1].split(separator: ":")[0]
        let parts = place.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "x" }).compactMap { Int(Double($0) ?? .nan) }
        return parts.count == 4 ? (parts[0], parts[1], parts[2], parts[3]) : nil
    }

    /// The whole output, as KWin draws it (in its units), once three photographs in a row agree (10 s at most): a client
    /// still drawing its picture on a busy machine can leave one unchanged for the tenth of a second a
    /// photograph takes.
    func photograph() throws -> DecodedPNG {
        var last: DecodedPNG?, agreeing = 0
        let deadline = Date().addingTimeInterval(10), available = Date().addingTimeInterval(30)
        while true {
            let out = folder + "/shot-\(UUID().uuidString).png"
            let bus = try String(contentsOfFile: folder + "/bus", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let shot = try run("/usr/bin/python3", [Paths.packageRoot + "/Tests/Fixtures/kwin/screenshot.py", out],
                               environment: ["DBUS_SESSION_BUS_ADDRESS": bus], timeout: 30)
            // KWin takes its screenshot interface away while it restarts compositing (as a reconfigure may
            // make it do): wait for it to be back (30 s at most).
            if shot.status != 0, shot.err.contains("UnknownObject"), Date() < available {
                usleep(100_000)
                continue
            }
            try #require(shot.status == 0, "screenshot: \(shot.err)")
            let decoded = try decodePNG(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
            let picture = scale > 1 ? decoded.shrunk(by: scale) : decoded
            agreeing = last?.rgba == picture.rgba ? agreeing + 1 : 0
            if agreeing == 2 || Date() > deadline { return picture }
            last = picture
            usleep(150_000)
        }
    }

    /// Runs `javascript` in KWin's scripting engine (its `workspace` API), as a
    /// KWin script would, and waits until it has run: KWin reads a script's file
    /// and runs it later, so the script says when it has, in KWin's log.
    func script(_ javascript: String) throws {
        scripts += 1
        let name = "segue-test-\(scripts)", done = "segue-test: script \(scripts) ran"
        let file = folder + "/\(name).js"
        try (javascript + "\nprint(\"\(done)\");\n").write(toFile: file, atomically: true, encoding: .utf8)
        let bus = try String(contentsOfFile: folder + "/bus", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let ran = try run("/usr/bin/python3", [Paths.packageRoot + "/Tests/Fixtures/kwin/script.py", file, name],
                          environment: ["DBUS_SESSION_BUS_ADDRESS": bus], timeout: 30)
        try #require(ran.status == 0, "KWin script: \(ran.err)")
        try #require(wait(for: done).contains(done), "KWin ran the script \(name)")
    }

    /// The session's D-Bus address.
    var bus: String {
        get throws { try String(contentsOfFile: folder + "/bus", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Loads the scripted effect `id` (given to init) as System Settings
    /// switches an effect on: its slots run after the Segue effect's, loaded before it.
    func loadEffect(_ id: String) throws {
        let loaded = try run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.kde.KWin", "/Effects",
                                                    "org.kde.kwin.Effects.loadEffect", "string:\(id)"],
                             environment: ["DBUS_SESSION_BUS_ADDRESS": try bus], timeout: 30)
        try #require(loaded.out.contains("boolean true"), "KWin loaded the effect \(id): \(loaded.out)\(loaded.err)")
    }

    /// Ends KWin as its session would (SIGTERM) and waits for it; its status, or nil when it had to be killed.
    func stop() -> Int32? {
        let kwinProcess = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.first { pid in
            guard Int(pid) != nil else { return false }
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            let program = String(decoding: command.prefix { $0 != 0 }, as: UTF8.self)
            return program.hasSuffix("kwin_wayland") && environ.range(of: Data(tag.utf8)) != nil
        }
        if let kwinProcess, let pid = Int32(kwinProcess) { kill(pid, SIGTERM) }
        // dbus-run-session ends once KWin has, taking its bus with it.
        let deadline = Date().addingTimeInterval(20)
        while kwin.process.isRunning && Date() < deadline { usleep(20_000) }
        return kwin.process.isRunning ? kwin.stop(with: SIGKILL) : kwin.process.terminationStatus
    }

    deinit {
        _ = stop()
        for pid in processesTagged(tag, within: 0) { kill(Int32(pid) ?? 0, SIGKILL) }
    }
}
