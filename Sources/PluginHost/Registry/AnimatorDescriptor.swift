import HostContainer
import PluginRuntime
import Timing

/// An animator in a registry's catalog, as the registry learned it: what
/// `segue list` shows and what config rules select by ``name``. Either an
/// animator a plugin file provides, or the built-in default
/// (``AnimatorRegistry/animator(named:)`` with "default"), described alike.
/// Plain data: no plugin is loaded until ``makeAnimator(parameters:curves:)``
/// is called, and a cached description is decoded only when its details are
/// first read.
public final class AnimatorDescriptor: @unchecked Sendable {
    /// Stable id with revision, e.g. "org.segue.spring-slide/1"; "builtin" for the default.
    public let id: String
    /// Short name used in config, e.g. "SpringSlide".
    public let name: String
    /// The animator's own version, e.g. "1.0.0".
    public var version: String { plugin.map { $0.details.animator($0.index).version } ?? DefaultAnimator.version }
    /// Its description, for people.
    public var summary: String { plugin.map { $0.details.animator($0.index).summary } ?? DefaultAnimator.summary }
    /// Its parameters, in the order values are passed.
    public var parameters: [ParameterDescriptor] { plugin.map { $0.details.animator($0.index).parameters } ?? DefaultAnimator.parameters }
    /// The kinds of transition it was written for (ABI 1.3); it plays the others as ``KindPlayback`` says.
    public var kinds: TransitionKinds { plugin.map { $0.details.animator($0.index).kinds } ?? DefaultAnimator.kinds }
    /// Where it comes from: ``AnimatorSource/plugin(path:)`` or ``AnimatorSource/builtin``.
    public let source: AnimatorSource
    /// The plugin file it came from; "" for the built-in default.
    public var file: String { plugin?.file ?? "" }
    /// Where its code runs.
    public var isolation: PluginIsolation { plugin?.factory.isolation ?? .none }

    /// What a plugin's animator has that the built-in default has not.
    struct Plugin {
        let details: PluginDetails
        /// Its position in the plugin.
        let index: Int
        let file: String
        let identity: FileIdentity
        let factory: any AnimatorFactory
    }
    /// Nil for the built-in default.
    let plugin: Plugin?
    var identity: FileIdentity { plugin?.identity ?? FileIdentity(device: 0, inode: 0, size: 0, modified: 0, changed: 0) }

    package init(_ details: PluginDetails, index: Int, file: String, identity: FileIdentity, factory: any AnimatorFactory) {
        (id, name, source) = (details.names[index].id, details.names[index].name, .plugin(path: file))
        plugin = Plugin(details: details, index: index, file: file, identity: identity, factory: factory)
    }

    private init() {
        (id, name, source, plugin) = (DefaultAnimator.id, DefaultAnimator.name, .builtin, nil)
    }

    /// The built-in default, as the catalog lists it.
    public static let builtinDefault = AnimatorDescriptor()

    /// A new animator for one transition, with validated parameter values in
    /// ``parameters`` order (see ``resolveParameters(_:curves:)``). A plugin's
    /// runs where its registry runs plugin code: in the plugin's worker
    /// process (started on first use), or loaded into this process now.
    /// - Parameter curves: where a curve parameter's value (an index) finds its
    ///   control points: the config's curves.
    public func makeAnimator(parameters values: [Double], curves: CurveBook = .standard) -> any TransitionAnimator {
        guard let plugin else { return DefaultAnimator.make(values: values, curves: curves) }
        let points: [[Double]] = zip(parameters, values).map { parameter, value in
            guard parameter.kind == .curve, let c = curves.curve(at: value) else { return [0, 0, 0, 0] }
            return [c.x1, c.y1, c.x2, c.y2]
        }
        return plugin.factory.makeAnimator(self, values: values, curves: points)
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
