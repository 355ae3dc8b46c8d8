import Dispatch
import Foundation
import HostConfig
import HostContainer
import LiveView
import PluginHost
import SystemCalls

/// `segue show`: the container live, in a window or a terminal, until closed.
enum ShowCommand {
    static let about = """
    Opens the config's container (or the built-in scene) live: one child at a
    time, a bar of the children's names along the bottom, a timeline of the
    last transition along the top and a status line: the child shown; during
    a transition FROM -> TO, the animator and its source, t / duration; the
    speed; frames per second and dropped frames. Animators are chosen by the
    config's rules as 'segue run' chooses them, and plugins run isolated as
    in run. Plugin folders and the config are watched as in 'run --watch': a
    rebuilt plugin is used from the next transition (r replays the last one
    with it); a config saved with a mistake keeps the last good one and says
    why in a banner.

    PICTURE files (PNG or JPEG) given as arguments are the children,
    one each, in order, named after their files: your own screens, with or
    without a config (whose rules then pick the animators by those names).
    Pictures are watched too: one saved anew is shown at once, and one that
    cannot be decoded keeps the last good picture up, with a banner.

    KEYS AND GESTURES
    \(keys)

    Without --window or --terminal: a window when there is a display and SDL2
    loads, else the terminal when standard input and output are one.
    """

    /// LiveControls' table as help prints it: the keys from column 3, what
    /// they do from column 37, wrapped as every help is.
    static var keys: String {
        let column = 36
        return LiveControls.all.map { control in
            let head = "  " + control.label
            let text = Text.wrap(control.meaning, width: 78 - column)
            let indent = String(repeating: " ", count: column)
            let first = head.count + 2 > column ? [head, indent + text[0]] : [head.padding(toLength: column, withPad: " ", startingAt: 0) + text[0]]
            return (first + text.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The most pictures `segue show` takes as children.
    static let maximumPictures = 64

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.show) else { return .success }
        try args.refuse("--window", with: ["--terminal"])
        try args.require("--terminal", for: "--graphics")
        let size = try args.single("--size").map { value throws(UsageError) in try PreviewCommand.parseSize(value, args) } ?? Rect.phonePortrait
        let quitAfter = args.number("--quit-after")
        let scale = args.single("--scale") == nil ? nil : args.number("--scale")
        let graphics = args.single("--graphics").flatMap(TerminalGraphics.init(rawValue:))  // the parser checked the choice
        let pictures = PictureFiles.Operands(args.operands.map { ($0, $0) }, replacing: true)
        guard let config = try args.config(drawing: true, adjusting: { pictures.applied(to: $0) }) else { return .failure }
        let registry = try PluginFolders.registry(args, config: config, playing: true)
        for warning in registry.warnings { printError("segue: warning: \(warning)") }
        // SIGINT and SIGTERM end the view cleanly: the loop sees them between frames.
        let signals = FileWatcher.signalPipe([SIGINT, SIGTERM, SIGHUP])
        let backend: any LiveBackend
        switch try open(args, size: size, scale: scale, graphics: graphics, signals: signals) {
        case .success(let opened): backend = opened
        case .failure(let problem):
            printError("segue: \(problem.message)")
            return .failure
        }
        let session = LiveSession(config: config, registry: registry, size: size)
        let loop = LiveLoop(session: session, backend: backend)
        loop.typeface = TypeChoice.typeface(args, config: config)
        loop.interrupt = signals
        if args.has("--play") {
            let autoplay = Autoplay(steps: ScriptPlayer(config: config, registry: registry).script)
            loop.script = { autoplay.inputs(for: $0, now: $1) }
        }
        let reloader = Reloader(args: args, session: session, adjusting: { pictures.applied(to: $0) })
        loop.onFrame = {
            let font = session.config.font
            reloader.apply()
            // A config saved with another font: labels in it from the next frame (a font that cannot be used is said).
            if session.config.font != font, args.single("--font") == nil {
                let (typeface, problems) = TypeChoice.typeface(commandLine: nil, config: session.config)
                loop.typeface = typeface
                if let problem = problems.first { session.say(problem, kind: .warning) }
            }
        }
        let start = MonotonicTime.now
        loop.run(until: { quitAfter.map { MonotonicTime.now - start >= $0 } ?? false })
        reloader.stop()
        if let terminal = backend as? TerminalBackend { terminal.restore() }
        if args.has("--stats") {
            let times = loop.frameTimes.sorted()
            let median = times.isEmpty ? 0 : times[times.count / 2]
            let p99 = times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * 0.99))]
            let bytes = (backend as? TerminalBackend).map { t in t.bytesPerFrame.isEmpty ? 0 : t.bytesPerFrame.reduce(0, +) / t.bytesPerFrame.count }
            printError(String(format: "segue show: %d frames, frame start to present median %.2f ms, 99th percentile %.2f ms, %d dropped", loop.frameCount, median * 1000, p99 * 1000, loop.droppedFrames)
                       + (bytes.map { ", \($0) bytes per frame on average" } ?? ""))
        }
        return .success
    }

    struct Problem: Error { let message: String }

    /// The window or terminal asked for, or the first that works.
    static func open(_ args: Arguments, size: Rect, scale: Double?, graphics: TerminalGraphics?, signals: Int32)
        throws(UsageError) -> Result<any LiveBackend, Problem> {
        let environment = ProcessInfo.processInfo.environment
        let display = environment["DISPLAY"].map { !$0.isEmpty } == true || environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } == true
            || environment["SDL_VIDEODRIVER"] != nil
        let terminal = isatty(0) == 1 && isatty(1) == 1
        func window() -> Result<any LiveBackend, Problem> {
            guard display else {
                return .failure(Problem(message: "cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set); use --terminal, or 'segue preview' to write transitions to files"))
            }
            do {
                return .success(try SDLWindowBackend(stage: size, zoom: scale ?? 1))
            } catch {
                return .failure(Problem(message: "cannot open a window: \(error)"))
            }
        }
        func inTerminal() -> Result<any LiveBackend, Problem> {
            do {
                return .success(try TerminalBackend(stage: size, graphics: graphics, interrupt: signals))
            } catch {
                return .failure(Problem(message: "cannot use the terminal: \(error)"))
            }
        }
        if args.has("--window") { return window() }
        if args.has("--terminal") { return inTerminal() }
        if display, case .success(let opened) = window() { return .success(opened) }
        if terminal { return inTerminal() }
        return .failure(Problem(message: """
            show needs a display or a terminal: \(display ? "SDL2 did not open a window (install libsdl2-2.0-0)" : "no DISPLAY or WAYLAND_DISPLAY is set"), \
            and standard input and output are not a terminal. Run it in a terminal, or use 'segue preview' to write the transitions to files.
            """))
    }
}

/// Hands the live view each burst of changes to the plugin folders and the
/// config between frames, through the tool's one reload path
/// (``Reloading``): the folders and the config are watched on a thread of
/// their own, so a reload never holds up a frame while files settle.
final class Reloader: @unchecked Sendable {  // `changed` is guarded by `lock`; the rest is the frame thread's
    private let session: LiveSession
    private let reloader: ConfigReloader
    private let lock = Lock()
    private var changed: Set<String>?
    private var watch: ReloadWatch?

    init(args: Arguments, session: LiveSession, adjusting: @escaping (SegueConfig) -> SegueConfig) {
        self.session = session
        reloader = Reloading.reloader(args, config: session.config, registry: session.registry, drawing: true, adjusting: adjusting)
        let watched = reloader.watched
        watch = try? ReloadWatch(folders: watched.folders, files: watched.files) { [weak self] paths in
            guard let self else { return }
            lock.withLock { changed = (changed ?? []).union(paths) }
        }
    }

    /// Reloads when something changed since the last frame.
    func apply() {
        guard let paths = lock.withLock({ () -> Set<String>? in defer { changed = nil }; return changed }) else { return }
        let outcome = reloader.reload(changed: paths)
        session.apply(outcome)
        let watched = reloader.watched
        watch?.resume(folders: watched.folders, files: watched.files)
    }

    func stop() { watch?.stop() }
}
