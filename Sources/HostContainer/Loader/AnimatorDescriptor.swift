import AnimatorABI

/// A validated animator exported by a plugin: what `segue list` shows and
/// what config rules select by ``name``.
public final class AnimatorDescriptor: @unchecked Sendable {
    /// Stable id with revision, e.g. "org.segue.spring-slide/1".
    public let id: String
    /// Short name used in config, e.g. "SpringSlide".
    public let name: String
    /// The animator's own version, e.g. "1.0.0".
    public let version: String
    /// Its description, for people.
    public let summary: String
    /// Its parameters, in the order values are passed.
    public let parameters: [ParameterDescriptor]
    /// The plugin file it came from.
    public let file: String

    /// Plugin-owned, static, valid for the life of the process (libraries are never unloaded).
    let raw: UnsafePointer<segue_animator_t>
    let host: UnsafePointer<segue_host_t>

    init(id: String, name: String, version: String, summary: String, parameters: [ParameterDescriptor],
         file: String, raw: UnsafePointer<segue_animator_t>, host: UnsafePointer<segue_host_t>) {
        self.id = id
        self.name = name
        self.version = version
        self.summary = summary
        self.parameters = parameters
        self.file = file
        self.raw = raw
        self.host = host
    }

    /// A new animator for one transition, with validated parameter values in
    /// ``parameters`` order (see ``resolveParameters(_:)``).
    public func makeAnimator(parameters values: [Double]) -> any TransitionAnimator {
        PluginAnimator(descriptor: self, parameters: values)
    }

    /// Checks configured values against the parameters and fills in defaults.
    /// - Parameter values: values by parameter name: `Double`, `Int`, `Bool` or,
    ///   for a choice, the choice's name (`String`) or index.
    /// - Returns: one value per parameter, in order, or a message naming the
    ///   parameter, what was expected and what was found.
    public func resolveParameters(_ values: [String: ParameterValue]) -> Result<[Double], ParameterError> {
        for key in values.keys.sorted() where !parameters.contains(where: { $0.name == key }) {
            let known = parameters.isEmpty ? "it has none" : "it has " + parameters.map { "'\($0.name)'" }.joined(separator: ", ")
            return .failure(ParameterError(message: "\(name) has no parameter '\(key)'; \(known)"))
        }
        var resolved: [Double] = []
        for p in parameters {
            guard let given = values[p.name] else {
                resolved.append(p.defaultValue)
                continue
            }
            switch p.validate(given) {
            case .success(let v): resolved.append(v)
            case .failure(let error):
                return .failure(ParameterError(message: "\(name) parameter '\(p.name)': \(error.message)"))
            }
        }
        return .success(resolved)
    }
}

/// A parameter value as written in config or on a command line.
public enum ParameterValue: Equatable, Sendable, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    case string(String)

    /// The value as config would write it.
    public var description: String {
        switch self {
        case .number(let v): v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        case .bool(let b): String(b)
        case .string(let s): "\"\(s)\""
        }
    }
}

/// A parameter value that does not fit its parameter.
public struct ParameterError: Error, Equatable, CustomStringConvertible {
    /// Names the animator, the parameter, what was expected and what was found.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// One typed parameter of an animator.
public struct ParameterDescriptor: Equatable, Sendable {
    /// A parameter's type.
    public enum Kind: Equatable, Sendable {
        case number
        case integer
        case boolean
        case choice([String])

        var label: String {
            switch self {
            case .number: "number"
            case .integer: "integer"
            case .boolean: "boolean"
            case .choice: "choice"
            }
        }

        /// The label with its article, for messages: "a number", "an integer".
        var withArticle: String { (self == .integer ? "an " : "a ") + label }
    }

    /// The name config uses.
    public let name: String
    /// What it changes, for people.
    public let explanation: String
    /// Its type.
    public let kind: Kind
    /// The value when config does not set it.
    public let defaultValue: Double
    /// The smallest value config may set.
    public let minimum: Double
    /// The largest value config may set.
    public let maximum: Double

    /// The value's ABI form (a double), or what was expected and found.
    func validate(_ value: ParameterValue) -> Result<Double, ParameterError> {
        let range = "[\(ParameterValue.number(minimum)), \(ParameterValue.number(maximum))]"
        switch (kind, value) {
        case (.boolean, .bool(let b)):
            return .success(b ? 1 : 0)
        case (.choice(let choices), .string(let s)):
            guard let index = choices.firstIndex(of: s) else {
                return .failure(ParameterError(message: "expected one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), found \(value)"))
            }
            return .success(Double(index))
        case (.number, .number(let v)), (.integer, .number(let v)), (.choice, .number(let v)):
            guard v.isFinite, v >= minimum, v <= maximum else {
                return .failure(ParameterError(message: "expected \(kind.withArticle) in \(range), found \(value)"))
            }
            if kind != .number && v != v.rounded() {
                return .failure(ParameterError(message: "expected a whole number in \(range), found \(value)"))
            }
            return .success(v)
        default:
            let expected = switch kind {
            case .number, .integer: "\(kind.withArticle) in \(range)"
            case .boolean: "true or false"
            case .choice(let choices): "one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))"
            }
            return .failure(ParameterError(message: "expected \(expected), found \(value)"))
        }
    }
}
