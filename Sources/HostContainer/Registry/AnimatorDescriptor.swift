/// An animator a plugin file provides, as the registry learned it: what
/// `segue list` shows and what config rules select by ``name``. Plain data: no
/// plugin is loaded until ``makeAnimator(parameters:)`` is called, and a
/// cached description is decoded only when its details are first read.
public final class AnimatorDescriptor: @unchecked Sendable {
    /// Stable id with revision, e.g. "org.segue.spring-slide/1".
    public let id: String
    /// Short name used in config, e.g. "SpringSlide".
    public let name: String
    /// The animator's own version, e.g. "1.0.0".
    public var version: String { details.animator(index).version }
    /// Its description, for people.
    public var summary: String { details.animator(index).summary }
    /// Its parameters, in the order values are passed.
    public var parameters: [ParameterDescriptor] { details.animator(index).parameters }
    /// The plugin file it came from.
    public let file: String
    /// Where its code runs.
    public let isolation: PluginIsolation

    let details: PluginDetails
    /// Its position in the plugin.
    let index: Int
    let identity: FileIdentity
    let worker: WorkerSettings

    init(_ details: PluginDetails, index: Int, file: String, identity: FileIdentity, isolation: PluginIsolation,
         worker: WorkerSettings) {
        (self.details, self.index, id, name) = (details, index, details.names[index].id, details.names[index].name)
        (self.file, self.identity, self.isolation, self.worker) = (file, identity, isolation, worker)
    }

    /// A new animator for one transition, with validated parameter values in
    /// ``parameters`` order (see ``resolveParameters(_:)``). With
    /// ``PluginIsolation/process`` it runs in the plugin's worker process
    /// (started on first use); with ``PluginIsolation/none`` the plugin is
    /// loaded into this process now, if it was not already.
    /// - Parameter curves: where a curve parameter's value (an index) finds its
    ///   control points: the config's ``SegueConfig/curves``.
    public func makeAnimator(parameters values: [Double], curves: CurveBook = .standard) -> any TransitionAnimator {
        let points: [[Double]] = zip(parameters, values).map { parameter, value in
            guard parameter.kind == .curve, let c = curves.curve(at: value) else { return [0, 0, 0, 0] }
            return [c.x1, c.y1, c.x2, c.y2]
        }
        switch isolation {
        case .process:
            return IsolatedAnimator(worker: WorkerPool.worker(file: file, identity: identity, settings: worker),
                                    id: id, name: name, parameters: values, curves: points)
        case .none:
            switch PluginLoader.load(path: file) {
            case .failure(let rejection):
                return UnavailableAnimator(name: name, file: file, why: "could not be loaded: \(rejection.reason)")
            case .success(let loaded):
                guard let animator = loaded.first(where: { $0.description.id == id }) else {
                    return UnavailableAnimator(name: name, file: file, why: "is no longer provided by \(file) (was the file replaced since it was scanned?)")
                }
                return PluginAnimator(animator: animator, file: file, parameters: values, curves: points)
            }
        }
    }

    /// Checks configured values against the parameters and fills in defaults.
    /// - Parameter values: values by parameter name: `Double`, `Int`, `Bool` or,
    ///   for a choice, the choice's name (`String`) or index.
    /// - Returns: one value per parameter, in order, or a message naming the
    ///   parameter, what was expected and what was found.
    public func resolveParameters(_ values: [String: ParameterValue], curves: CurveBook = .standard) -> Result<[Double], ParameterError> {
        ParameterDescriptor.resolve(values, against: parameters, of: name, curves: curves)
    }
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
