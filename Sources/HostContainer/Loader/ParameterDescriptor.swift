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
    /// Checks configured values against `parameters` (the animator called
    /// `animator`'s) and fills in defaults.
    /// - Returns: one value per parameter, in order, or a message naming the
    ///   parameter, what was expected and what was found.
    public static func resolve(_ values: [String: ParameterValue], against parameters: [ParameterDescriptor],
                               of animator: String) -> Result<[Double], ParameterError> {
        for key in values.keys.sorted() where !parameters.contains(where: { $0.name == key }) {
            let known = parameters.isEmpty ? "it has none" : "it has " + parameters.map { "'\($0.name)'" }.joined(separator: ", ")
            return .failure(ParameterError(message: "\(animator) has no parameter '\(key)'; \(known)"))
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
                return .failure(ParameterError(message: "\(animator) parameter '\(p.name)': \(error.message)"))
            }
        }
        return .success(resolved)
    }

    /// A value as passed to the plugin, written as a config would write it.
    public func configValue(_ raw: Double) -> ParameterValue {
        switch kind {
        case .boolean: .bool(raw != 0)
        case .choice(let choices): Int(exactly: raw).flatMap { choices.indices.contains($0) ? .string(choices[$0]) : nil } ?? .number(raw)
        case .number, .integer: .number(raw)
        }
    }

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
