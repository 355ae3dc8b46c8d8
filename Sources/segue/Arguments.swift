import HostContainer

/// A small command-line parser: `--flag`, `--option VALUE` (repeatable), and
/// nothing else. A mistake is a ``UsageError``, which exits with code 2.
struct Arguments {
    private(set) var flags: Set<String> = []
    private(set) var options: [String: [String]] = [:]

    /// Parses `arguments` against the flags and options `command` accepts.
    init(_ arguments: [String], command: CommandSpec) throws(UsageError) {
        try self.init(arguments, flags: command.flags, options: command.valued)
    }

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

    /// Splits a command's leading operand off its arguments (`segue preview NAME ...`).
    /// - Returns: the operand and the rest, or nil when the arguments ask for `--help` instead.
    /// - Throws: ``UsageError`` saying `missing` when there is no operand.
    static func operand(_ arguments: [String], missing: String) throws(UsageError) -> (String, [String])? {
        guard let first = arguments.first, !first.hasPrefix("-") else {
            if arguments.contains("--help") { return nil }
            throw UsageError(missing)
        }
        return (first, Array(arguments.dropFirst()))
    }

    /// The config `--config` names, or the built-in scene when none is given;
    /// nil after printing why the file cannot be used (the command then exits 1).
    func config() throws(UsageError) -> SegueConfig? {
        do {
            return try single("--config").map { path throws(ConfigError) in try SegueConfig.load(path: path) }
                ?? SegueConfig.builtinScene
        } catch {
            printError("segue: \(error)")
            return nil
        }
    }

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
