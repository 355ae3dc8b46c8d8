import AnimatorABI
import EmbedABI
import Foundation
import HostConfig
import HostContainer
import PluginHost
import PluginRuntime
import ProcessShims
import SystemCalls
import Timing

/// What a program asks of a player, read and checked from its C options.
struct PlayerSettings {
    var folders: [String] = []
    var onlyGivenFolders = false
    var configPath: String?
    /// With no configPath: follow the standard config (SEGUE_PLAYER_STANDARD_CONFIG).
    var followsStandardConfig = false
    /// Nil: as the config says.
    var isolation: PluginIsolation?
    /// Nil: as the config (or SEGUE_SANDBOX) says.
    var sandbox: SandboxPolicy.Mode?
    var workerPath: String?
    var watches = false
    var allowsInsecurePlugins = false
    /// Whether a sample spins a little for a worker's answer before it sleeps.
    var spinsForWorkers = true
    /// Seconds a sample may wait for a plugin.
    var sampleBound = 0.004
    /// The memory all workers share; nil: as the config says (else 4 GiB).
    var workersMemory: UInt64?
}

/// The host behind libsegue: the animators (a registry), the config, the
/// watch, and the events waiting for the program's dispatch call. Its
/// main-thread members are called from the thread that made it only (the C
/// layer checks); ``events`` and the transitions' sampling are any-thread.
final class Player {
    let mainThread = pthread_self()
    let settings: PlayerSettings
    let events: EventQueue
    /// Plugin code waited for away from the program's thread (a late setup, a transition's end).
    let pluginWaits = PluginWaits()
    private let reloader: ConfigReloader
    private var watch: ReloadWatch?
    /// The animators as the C API lists them, rebuilt on reloads.
    private(set) var catalog: Catalog
    /// Transitions begun and not freed, to finish when the player is freed.
    var transitions: [ObjectIdentifier: PlayedTransition] = [:]
    /// Where events go, with the program's pointer; set once, before any dispatch.
    var onEvent: segue_event_fn?
    var userData: UnsafeMutableRawPointer?
    /// True while dispatch delivers events (dispatch may not be called again then).
    var isDispatching = false

    /// Where libsegue lies; its worker and bundled plugins are found from here.
    static let libraryPath: String? = {
        guard let name = process_shims_object_path(#dsohandle) else { return nil }
        return URL(fileURLWithPath: String(cString: name)).resolvingSymlinksInPath().path
    }()

    var config: SegueConfig { reloader.config }
    var registry: AnimatorRegistry { reloader.registry }

    /// Makes the player: reads the config, finds the animators, starts watching.
    /// - Throws: ``PlayerError`` for a config that cannot be used.
    init(_ settings: PlayerSettings) throws(PlayerError) {
        guard let events = EventQueue() else { throw .system("cannot make the event descriptor: \(Errno.current)") }
        self.settings = settings
        self.events = events
        Self.routePluginOutput(to: events)
        // The standard config is followed whatever state it is in: absent or
        // broken, no rules apply (the built-in default plays) until it is good.
        let standard = settings.configPath == nil && settings.followsStandardConfig ? PluginHosting.standardConfigPath() : nil
        let configPath = settings.configPath ?? standard
        var missing = false
        let config: SegueConfig
        do {
            if let standard, SegueConfig.isAbsent(path: standard) {
                missing = true
                config = SegueConfig(file: standard)
            } else {
                config = try configPath.map { p throws(ConfigError) in try SegueConfig.load(path: p, forViewsOfAProgram: true) }
                    ?? SegueConfig(file: "<no config>")
            }
        } catch {
            guard let standard else { throw .config("\(error)") }
            config = SegueConfig(file: standard)
            events.post(.init(kind: SEGUE_EVENT_CONFIG_ERROR.rawValue, level: SEGUE_LOG_ERROR.rawValue,
                              message: PluginText.escaped("\(error); no rules apply (the built-in default plays every transition not given an animator) until \(standard) is fixed")))
        }
        if missing, let standard {
            let followed = settings.watches ? "; it is read when it appears" : ""
            events.post(.init(kind: SEGUE_EVENT_LOG.rawValue, level: SEGUE_LOG_INFO.rawValue,
                              message: PluginText.escaped("segue: no config at \(standard): the built-in default plays every transition not given an animator\(followed)")))
        }
        var hosting = PluginHosting(folders: settings.folders)
        hosting.onlyGivenFolders = settings.onlyGivenFolders
        hosting.isolation = settings.isolation
        hosting.sandbox = settings.sandbox
        hosting.totalMemory = settings.workersMemory
        hosting.allowsInsecurePlugins = settings.allowsInsecurePlugins
        if !settings.spinsForWorkers { hosting.workerSpin = 0 }
        // libsegue stands for the program: its installation's plugin folder is PREFIX/lib/segue/plugins.
        hosting.executable = Self.libraryPath ?? "/usr/local/lib/libsegue.so.1"
        hosting.installedIn = ["lib", "lib64"]
        hosting.workerPath = settings.workerPath
        // What this player's plugins print in their workers reaches this player's program, and no other.
        hosting.output = PluginOutput { [events] line in
            events.post(.init(kind: SEGUE_EVENT_LOG.rawValue, level: SEGUE_LOG_INFO.rawValue,
                              message: line.hasSuffix("\n") ? String(line.dropLast()) : line))
        }
        let registry: AnimatorRegistry
        do {
            registry = try hosting.registry(for: config)
        } catch {
            throw .invalid(error.message)
        }
        reloader = hosting.reloader(config: config, configPath: configPath, registry: registry, forViewsOfAProgram: true,
                                    optional: standard != nil, missing: missing)
        catalog = Catalog(registry)
        Self.hear(registry, on: events)
        for warning in registry.warnings { log(SEGUE_LOG_WARNING, warning) }
        for rejection in registry.rejections { log(SEGUE_LOG_WARNING, "skipped \(rejection.file): \(rejection.reason)") }
        if settings.watches {
            let watched = reloader.watched
            do {
                watch = try ReloadWatch(folders: watched.folders, files: watched.files) { [events] changed in
                    events.post(.init(kind: SEGUE_EVENT_RELOADED.rawValue, level: 0, message: "", changed: changed))
                }
            } catch {
                log(SEGUE_LOG_WARNING, "not watching for changes: \(error)")
            }
        }
    }

    /// Ends the watch and every transition not yet freed, then the workers (with the registry).
    func close() {
        watch?.stop()
        watch = nil
        // Finished and freed: the handles the program held are dead.
        for transition in transitions.values {
            transition.finish(completed: false)
            Unmanaged.passUnretained(transition).release()
        }
        transitions.removeAll()
        // Plugin code still waited for (a late setup, then its end; a late evaluate, then end), within the
        // plugins' deadlines, before the workers go.
        let deadlines = WorkerDeadlines()
        pluginWaits.wait(secondsEach: deadlines.setup + deadlines.evaluate + deadlines.end + 0.5)
        Self.stopRouting(events)
    }

    /// Delivers what waits, applying reloads first. [main]
    func dispatch(_ deliver: (EventQueue.Event) -> Void) {
        let (waiting, dropped) = events.take()
        if dropped > 0 { deliver(.init(kind: SEGUE_EVENT_LOG.rawValue, level: SEGUE_LOG_WARNING.rawValue, message: "segue: \(dropped) events dropped: nobody dispatched them")) }
        for event in waiting {
            guard let changed = event.changed else {
                deliver(event)
                continue
            }
            let outcome = reloader.reload(changed: changed)
            let watched = reloader.watched
            watch?.resume(folders: watched.folders, files: watched.files)
            catalog = Catalog(outcome.registry)
            Self.hear(outcome.registry, on: events)
            let path = reloader.configPath ?? ""
            if let state = outcome.configState(naming: path) {
                if outcome.configErrors > 0 {
                    deliver(.init(kind: SEGUE_EVENT_CONFIG_ERROR.rawValue, level: SEGUE_LOG_ERROR.rawValue,
                                  message: PluginText.escaped(outcome.configProblems.joined(separator: "\n") + "; " + state)))
                } else {
                    deliver(.init(kind: SEGUE_EVENT_RELOADED.rawValue, level: SEGUE_LOG_INFO.rawValue, message: PluginText.escaped(state)))
                }
            }
            let changes = outcome.changes(naming: path)
            if !changes.isEmpty {
                deliver(.init(kind: SEGUE_EVENT_RELOADED.rawValue, level: SEGUE_LOG_INFO.rawValue,
                              message: PluginText.escaped(changes.joined(separator: "; "))))
            }
        }
    }

    /// Queues a line of the player's own for the log.
    func log(_ level: segue_log_level_t, _ text: String) {
        events.post(.init(kind: SEGUE_EVENT_LOG.rawValue, level: level.rawValue, message: PluginText.escaped("segue: \(text)")))
    }

    // MARK: - Plugin output

    /// The players whose programs receive what plugins in this process
    /// (isolation none) log, each with the plugin files of its registry: a
    /// message goes to the players that use the plugin that wrote it, and to
    /// no other (a library is loaded once per process, so two players with
    /// the same file both hear it). What plugins in workers print goes to
    /// their own player alone (``PluginOutput``).
    /// (`files` is nil while the player's registry is being made: it hears what any plugin logs as it loads.)
    nonisolated(unsafe) private static var listeners: [ObjectIdentifier: (events: EventQueue, files: Set<String>?)] = [:]  // guarded by `listenersLock`
    private static let listenersLock = Lock()

    private static func routePluginOutput(to events: EventQueue) {
        listenersLock.withLock { listeners[ObjectIdentifier(events)] = (events, nil) }
        // Plugins run in this process (isolation none) log here.
        PluginLoader.setLogHandler { message in
            let text = "segue: [\(message.level)] \(message.plugin): \(message.message)"
            let queues = listenersLock.withLock { listeners.values.filter { $0.files?.contains(message.plugin) ?? true }.map(\.events) }
            for queue in queues {
                queue.post(.init(kind: SEGUE_EVENT_LOG.rawValue, level: UInt32(message.level.rawValue), message: text))
            }
        }
    }

    /// The player listening on `events` hears the plugins of `registry` from now on.
    private static func hear(_ registry: AnimatorRegistry, on events: EventQueue) {
        // The file as found, and as the loader names it (resolved, for a link).
        let files = Set(registry.animators.flatMap { animator in
            [animator.file] + [realpath(animator.file, nil)].compactMap { $0 }.map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            }
        })
        listenersLock.withLock { listeners[ObjectIdentifier(events)]?.files = files }
    }

    /// The last player gone, plugin output goes to standard error again.
    private static func stopRouting(_ events: EventQueue) {
        let none = listenersLock.withLock {
            listeners[ObjectIdentifier(events)] = nil
            return listeners.isEmpty
        }
        guard none else { return }
        PluginLoader.resetLogHandler()
    }
}

/// Why a player could not be made or asked.
enum PlayerError: Error {
    case config(String)
    case invalid(String)
    case system(String)
}

/// The animators of a registry as C strings, owned here, for
/// `segue_player_animator_info`: valid until the next reload.
final class Catalog {
    struct Entry {
        let descriptor: AnimatorDescriptor
        let name, id, version, summary: CString
        let file: CString?
        let parameters: [Parameter]
    }

    /// One parameter in the ABI's own form, with the strings it points to.
    struct Parameter {
        let name, explanation: CString
        let choices: [CString]
        let choicePointers: UnsafeMutablePointer<UnsafePointer<CChar>?>?
        let descriptor: ParameterDescriptor
    }

    let entries: [Entry]
    private let names: [String: Int]

    init(_ registry: AnimatorRegistry) {
        let all = registry.animators + [AnimatorDescriptor.builtinDefault]
        entries = all.map { a in
            Entry(descriptor: a, name: CString(a.name), id: CString(a.id), version: CString(a.version), summary: CString(a.summary),
                  file: a.source == .builtin ? nil : CString(a.file),
                  parameters: a.parameters.map { p in
                      let choices = p.choiceNames.map(CString.init)
                      var pointers: UnsafeMutablePointer<UnsafePointer<CChar>?>?
                      if !choices.isEmpty {
                          pointers = .allocate(capacity: choices.count)
                          for (i, c) in choices.enumerated() { pointers![i] = c.pointer }
                      }
                      return Parameter(name: CString(p.name), explanation: CString(p.explanation), choices: choices,
                                       choicePointers: pointers, descriptor: p)
                  })
        }
        names = Dictionary(entries.enumerated().map { ($1.descriptor.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    deinit {
        for entry in entries { for p in entry.parameters { p.choicePointers?.deallocate() } }
    }

    /// The index of the animator called `name`.
    func index(of name: String) -> Int? { names[name] }
}

/// A NUL-terminated copy of a string, owned by whoever holds it.
final class CString {
    let pointer: UnsafePointer<CChar>

    init(_ text: String) { pointer = UnsafePointer(strdup(text)!) }

    deinit { free(UnsafeMutablePointer(mutating: pointer)) }
}

extension ParameterDescriptor {
    /// The choices' names, for a choice parameter; else none.
    var choiceNames: [String] {
        if case .choice(let names) = kind { return names }
        return []
    }

    /// The ABI's `segue_param_type_t` of its kind.
    var abiType: segue_param_type_t { kind.tag.abiValue }
}
