import AnimatorABI
import Foundation
import PluginRuntime

/// Where plugin code runs.
public enum PluginIsolation: String, Sendable, CaseIterable {
    /// The default. A scanner process examines plugin files and a worker
    /// process per plugin file runs its animators: a plugin that crashes,
    /// hangs, exits or prints costs at most its own transition, which the
    /// built-in default finishes. Needs the `segue-worker` executable (see
    /// ``WorkerSettings/locateWorker()``).
    case process
    /// Plugins are loaded into this process: zero overhead, and no protection:
    /// no sandbox either (a plugin can do whatever this process can). For
    /// trusted plugins only; an explicit choice.
    case none
}

/// How long a worker may take for each call before the host kills it and
/// treats the plugin as hung. Documented in docs/isolation.md.
public struct WorkerDeadlines: Sendable, Equatable {
    /// Examining one file while scanning (loading, entry point, descriptor).
    public var scan: Double = 5
    /// Loading a plugin in its worker (counted from the request, so a worker
    /// started ahead does not use it up).
    public var load: Double = 5
    /// One `setup`.
    public var setup: Double = 1
    /// One `evaluate` (a frame).
    public var evaluate: Double = 0.5
    /// One `end`.
    public var end: Double = 1

    /// The standard deadlines.
    public init() {}
}

/// How plugin files are scanned and run out of process.
public struct WorkerSettings: Sendable, Equatable {
    /// The deadlines for every call.
    public var deadlines = WorkerDeadlines()
    /// What confines plugin code in workers and scanners (strict by default).
    public var sandbox = SandboxPolicy()
    /// The `segue-worker` executable; found by ``locateWorker()`` when nil.
    public var executable: String?
    /// Where what plugins print in workers and scanners goes.
    public var output = PluginOutput.standardError
    /// Seconds a caller spins for a worker's answer before it sleeps: a sleep
    /// and a wake-up cost about 10 µs, more than most frames take to evaluate.
    /// 0 sleeps at once, for a caller whose CPU time counts more than its latency.
    public var spin = 0.000_2

    /// The standard settings.
    public init() {}

    /// Where the worker executable is, in this order: `$SEGUE_WORKER`; beside
    /// `code`, this process's executable unless given (where SwiftPM builds
    /// it, and where an app that embeds Segue ships it; libsegue gives its own
    /// library); `../libexec/segue/segue-worker` from there (an installed layout).
    /// - Returns: the path, or nil when there is none.
    public static func locateWorker(beside code: String = PluginSearchPath.currentExecutable()) -> String? {
        if let given = ProcessInfo.processInfo.environment["SEGUE_WORKER"], !given.isEmpty { return given }
        let folder = (code as NSString).deletingLastPathComponent
        return [folder + "/segue-worker", folder + "/../libexec/segue/segue-worker"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The worker to start, or why there is none.
    func worker() -> Result<String, LoadFailure> {
        guard let path = executable ?? Self.locateWorker() else {
            return .failure(LoadFailure("the plugin worker 'segue-worker' was not found beside this program (set SEGUE_WORKER to its path, or choose isolation \"none\" for trusted plugins)"))
        }
        return .success(path)
    }
}
