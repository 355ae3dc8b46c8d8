import AnimatorABI

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
        /// Since ABI 1.1: a timing curve, named in config (see ``CurveBook``).
        case curve

        /// Which kind, without a choice's names.
        public var tag: Tag {
            switch self {
            case .number: .number
            case .integer: .integer
            case .boolean: .boolean
            case .choice: .choice
            case .curve: .curve
            }
        }

        /// The kind `tag` names; a choice takes `choices`.
        package init(_ tag: Tag, choices: [String] = []) {
            switch tag {
            case .number: self = .number
            case .integer: self = .integer
            case .boolean: self = .boolean
            case .choice: self = .choice(choices)
            case .curve: self = .curve
            }
        }

        /// "number", "choice".
        public var label: String { tag.label }

        /// The label with its article, for messages: "a number", "an integer".
        package var withArticle: String { (tag == .integer ? "an " : "a ") + label }

        /// Everything about one kind of parameter, in one place: a kind is
        /// added here (and in the ABI header), and the compiler points at
        /// every switch that must learn it. Its raw value is its tag in a
        /// scanner's answer (``PluginDescription``'s binary form).
        public enum Tag: UInt8, CaseIterable, Sendable {
            case number = 0, integer = 1, boolean = 2, choice = 3, curve = 4

            /// Its `segue_param_type_t`.
            package var abiValue: segue_param_type_t {
                switch self {
                case .number: SEGUE_PARAM_NUMBER
                case .integer: SEGUE_PARAM_INTEGER
                case .boolean: SEGUE_PARAM_BOOLEAN
                case .choice: SEGUE_PARAM_CHOICE
                case .curve: SEGUE_PARAM_CURVE
                }
            }

            /// The ABI minor version that introduced it (1.`since`).
            package var since: Int {
                switch self {
                case .number, .integer, .boolean, .choice: 0
                case .curve: 1
                }
            }

            /// The kind whose `segue_param_type_t` is `value`; nil for one this host does not know.
            package init?(abiValue value: UInt32) {
                guard let tag = Self.allCases.first(where: { $0.abiValue.rawValue == value }) else { return nil }
                self = tag
            }

            /// Its name in lists, messages and the docs.
            public var label: String {
                switch self {
                case .number: "number"
                case .integer: "integer"
                case .boolean: "boolean"
                case .choice: "choice"
                case .curve: "curve"
                }
            }

            /// How a config writes a value of it: a JSON type.
            package var configType: String {
                switch self {
                case .number, .integer: "number"
                case .boolean: "boolean"
                case .choice, .curve: "string"
                }
            }

            /// How a config writes a value of it, in words.
            package var configForm: String {
                switch self {
                case .number: "a number"
                case .integer: "a whole number"
                case .boolean: "true or false"
                case .choice: "a choice's name (or its index)"
                case .curve: "a curve's name"
                }
            }

            /// Every kind this host knows, for a message: "0 (number), 1 (integer), ..., and 4 (curve, since 1.1)".
            package static var known: String {
                let each = allCases.map { "\($0.abiValue.rawValue) (\($0.label)\($0.since > 0 ? ", since 1.\($0.since)" : ""))" }
                return each.dropLast().joined(separator: ", ") + " and " + each.last!
            }
        }
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

    package init(name: String, explanation: String, kind: Kind, defaultValue: Double, minimum: Double, maximum: Double) {
        (self.name, self.explanation, self.kind) = (name, explanation, kind)
        (self.defaultValue, self.minimum, self.maximum) = (defaultValue, minimum, maximum)
    }

    /// Checks configured values against `parameters` (the animator called
    /// `animator`'s) and fills in defaults.
    /// - Returns: one value per parameter, in order, or a message naming the
    ///   parameter, what was expected and what was found.
    public static func resolve(_ values: [String: ParameterValue], against parameters: [ParameterDescriptor],
                               of animator: String, curves: CurveBook = .standard) -> Result<[Double], ParameterError> {
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
            switch p.validate(given, curves: curves) {
            case .success(let v): resolved.append(v)
            case .failure(let error):
                return .failure(ParameterError(message: "\(animator) parameter '\(p.name)': \(error.message)"))
            }
        }
        return .success(resolved)
    }

    /// A value as passed to the plugin, written as a config would write it.
    public func configValue(_ raw: Double, curves: CurveBook = .standard) -> ParameterValue {
        switch kind {
        case .curve: raw == Self.springCurve ? .string("spring") : Int(exactly: raw).flatMap { curves.names.indices.contains($0) ? .string(curves.names[$0]) : nil } ?? .number(raw)
        case .boolean: .bool(raw != 0)
        case .choice(let choices): Int(exactly: raw).flatMap { choices.indices.contains($0) ? .string(choices[$0]) : nil } ?? .number(raw)
        case .number, .integer: .number(raw)
        }
    }

    /// The value of the built-in default's `curve` when it follows its spring
    /// (the header's SEGUE_CURVE_SPRING).
    package static let springCurve = Double(SEGUE_CURVE_SPRING.rawValue)

    /// The value's ABI form (a double), or what was expected and found.
    package func validate(_ value: ParameterValue, curves: CurveBook = .standard) -> Result<Double, ParameterError> {
        let range = "[\(ParameterValue.number(minimum)), \(ParameterValue.number(maximum))]"
        switch (kind, value) {
        case (.curve, .string(let name)):
            if name == "spring" && defaultValue == Self.springCurve { return .success(Self.springCurve) }
            guard let index = curves.index(of: name) else {
                let spring = defaultValue == Self.springCurve ? "\"spring\", " : ""
                return .failure(ParameterError(message: "expected a curve: \(spring)\(curves.names.map { "\"\($0)\"" }.joined(separator: ", ")) (a config's \"curves\" names more), found \(value)"))
            }
            // A physical spring drives the built-in default (its own spring's place); a plugin's curve takes a cubic Bezier.
            if curves.spring(at: Double(index)) != nil && defaultValue != Self.springCurve {
                return .failure(ParameterError(message: "expected a cubic Bezier curve (\"\(name)\" is a physical spring, which only the built-in default's curve follows), found \(value)"))
            }
            return .success(Double(index))
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
            case .curve: "a curve's name: \(curves.names.map { "\"\($0)\"" }.joined(separator: ", "))"
            }
            return .failure(ParameterError(message: "expected \(expected), found \(value)"))
        }
    }
}
