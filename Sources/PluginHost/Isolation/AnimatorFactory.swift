import HostContainer
import PluginRuntime

/// Where a registry's plugin code runs: it examines plugin files and makes
/// their animators. A registry receives one and never asks which kind it is;
/// reloads of a registry keep their predecessor's, so workers and the
/// quarantine carry over. Nothing here is process-wide: two registries made
/// apart have factories of their own, each with its own settings.
package protocol AnimatorFactory: AnyObject, Sendable {
    /// Which kind this is, for people (`segue list`, reports).
    var isolation: PluginIsolation { get }
    /// Describes each of `paths` (plugin files not in the cache), or says why it was rejected, in order.
    func examine(_ paths: [String]) -> [Result<PluginDescription, PluginRejection>]
    /// A new animator of `descriptor` (a plugin's) for one transition.
    /// - Parameters:
    ///   - values: validated parameter values, in the descriptor's order.
    ///   - curves: the control points of each curve parameter ([0, 0, 0, 0] for the others).
    func makeAnimator(_ descriptor: AnimatorDescriptor, values: [Double], curves: [[Double]]) -> any TransitionAnimator
    /// Starts what the first animator will need, ahead of it (a worker process).
    func prepare()
    /// How each plugin whose code failed here failed, oldest first: those are quarantined.
    var quarantined: [PluginFailure] { get }
    /// Lets the quarantined plugins among `files` run again.
    func clearQuarantine(files: Set<String>)
    /// Forgets what runs `file` as it was (`identity`): it changed or went away.
    func retire(file: String, identity: FileIdentity)
}

/// Plugins in worker processes (``PluginIsolation/process``): a scanner
/// process examines files; a worker per plugin file runs its animators; a
/// plugin that failed is quarantined in this factory until cleared.
package final class WorkerFactory: AnimatorFactory {
    package var isolation: PluginIsolation { .process }
    let pool: WorkerPool

    package init(settings: WorkerSettings) {
        pool = WorkerPool(settings: settings)
    }

    package func examine(_ paths: [String]) -> [Result<PluginDescription, PluginRejection>] {
        // The cheap checks here; what needs the plugin's code, in a scanner.
        PluginScanner.scan(paths, settings: pool.settings) { path in
            switch ELFHeader.read(path: path) {
            case .failure(let why): PluginRejection(file: path, reason: why.description)
            case .success(let header): header.problem.map { PluginRejection(file: path, reason: $0) }
            }
        }
    }

    package func makeAnimator(_ descriptor: AnimatorDescriptor, values: [Double], curves: [[Double]]) -> any TransitionAnimator {
        IsolatedAnimator(worker: pool.worker(file: descriptor.file, identity: descriptor.identity),
                         id: descriptor.id, name: descriptor.name, kinds: descriptor.kinds, parameters: values, curves: curves)
    }

    package func prepare() { pool.prestart() }
    package var quarantined: [PluginFailure] { pool.quarantined }
    package func clearQuarantine(files: Set<String>) { pool.clearQuarantine(files: files) }
    package func retire(file: String, identity: FileIdentity) { pool.retire(file: file, identity: identity) }
}

/// Plugins loaded into this process (``PluginIsolation/none``): no process,
/// no sandbox, no quarantine. A library is loaded once per process, whichever
/// factory loads it, because the dynamic loader's table is process-wide and
/// the ABI promises one call of the entry point (see ``PluginLoader``).
package final class InProcessFactory: AnimatorFactory {
    package var isolation: PluginIsolation { .none }

    package init() {}

    package func examine(_ paths: [String]) -> [Result<PluginDescription, PluginRejection>] {
        paths.map { PluginLoader.load(path: $0).map { PluginDescription(animators: $0.map(\.description)) } }
    }

    package func makeAnimator(_ descriptor: AnimatorDescriptor, values: [Double], curves: [[Double]]) -> any TransitionAnimator {
        let file = descriptor.file
        switch PluginLoader.load(path: file) {
        case .failure(let rejection):
            return UnavailableAnimator(name: descriptor.name, file: file, why: "could not be loaded: \(rejection.reason)")
        case .success(let loaded):
            guard let animator = loaded.first(where: { $0.description.id == descriptor.id }) else {
                return UnavailableAnimator(name: descriptor.name, file: file,
                                           why: "is no longer provided by \(file) (was the file replaced since it was scanned?)")
            }
            return PluginAnimator(animator: animator, file: file, parameters: values, curves: curves)
        }
    }

    package func prepare() {}
    package var quarantined: [PluginFailure] { [] }
    package func clearQuarantine(files: Set<String>) {}
    package func retire(file: String, identity: FileIdentity) {}
}

/// An animator whose plugin cannot run: its setup fails with the reason, so
/// the container falls back to the built-in default and says why.
private final class UnavailableAnimator: TransitionAnimator {
    let name: String
    let source: AnimatorSource
    let why: String
    init(name: String, file: String, why: String) {
        (self.name, self.source, self.why) = (name, .plugin(path: file), why)
    }
    func setup(_ context: TransitionContext) -> AnimatorSetup { .failed(why) }
    func evaluate(at t: Double, layers: LayerStates) {}
    func animationEnded(_ completed: Bool) {}
}
