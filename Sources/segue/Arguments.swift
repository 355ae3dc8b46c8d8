/// A small command-line parser: `--flag`, `--option VALUE` (repeatable), and
/// nothing else. A mistake is a ``UsageError``, which exits with code 2.
struct Arguments {
    private(set) var flags: Set<String> = []
    private(set) var options: [String: [String]] = [:]

    /// Parses `arguments` against the flags and options a command accepts.
    init(_ arguments: [String], flags allowedFlags: Set<String>, options allowedOptions: Set<String>) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if allowedFlags.contains(argument) {
                flags.insert(argument)
            } else if allowedOptions.contains(argument) {
                guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError("\(argument) needs a value")
                }
                options[argument, default: []].append(value)
            } else if argument.hasPrefix("-") {
                throw UsageError("unknown option '\(argument)'")
            } else {
                throw UsageError("unexpected argument '\(argument)'")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func values(_ option: String) -> [String] { options[option] ?? [] }

    func single(_ option: String) throws(UsageError) -> String? {
        let all = values(option)
        guard all.count <= 1 else { throw UsageError("\(option) may be given once") }
        return all.first
    }
}

/// A mistake in how the tool was called.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// What a command ends with.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
}
