import HostConfig
import HostContainer
import PluginRuntime

/// The command-line parser, in the GNU conventions people expect: `--flag`,
/// `--option VALUE` or `--option=VALUE` (repeatable where it makes sense),
/// `-h` for `--help`, operands before, between or after options, and `--`
/// ending the options. A mistake is a ``UsageError``, which exits with code 2
/// and points to the command's own help.
struct Arguments {
    let command: CommandSpec
    private(set) var flags: Set<String> = []
    private(set) var options: [String: [String]] = [:]
    /// The arguments that are not options, in order.
    private(set) var operands: [String] = []

    /// Parses `arguments` against what `command` accepts.
    init(_ arguments: [String], command: CommandSpec) throws(UsageError) {
        self.command = command
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                operands += rest
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                operands.append(argument)
                continue
            }
            let name = argument == "-h" ? "--help" : String(argument.prefix { $0 != "=" })
            let attached = argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) }
            if command.flags.contains(name) {
                guard attached == nil else { throw usage("\(name) takes no value") }
                flags.insert(name)
            } else if let option = command.options.first(where: { $0.name == name && $0.value != nil }) {
                if !option.repeatable && options[name] != nil { throw usage("\(name) may be given once") }
                guard let value = attached ?? rest.popFirst().flatMap({ $0.hasPrefix("--") ? nil : $0 }) else {
                    throw usage("\(name) needs a value")
                }
                if let problem = option.problem(with: value) { throw usage(problem) }
                options[name, default: []].append(value)
            } else {
                throw usage("unknown option '\(PluginText.escaped(name))'")
            }
        }
        if let operand = command.operand {
            if operands.count > command.arity.upperBound {
                throw usage("unexpected argument '\(PluginText.escaped(operands[command.arity.upperBound]))'")
            }
            if operands.count < command.arity.lowerBound && !has("--help") {
                throw usage("\(command.name) needs \(command.arity == 1...1 ? Self.describe(operand) : "\(command.arity.lowerBound) arguments")")
            }
        } else if let first = operands.first {
            throw usage("unexpected argument '\(PluginText.escaped(first))'")
        }
    }

    /// Parses `arguments` for `command`; nil after printing its help when they ask for it.
    static func unlessHelp(_ arguments: [String], command: CommandSpec) throws(UsageError) -> Arguments? {
        let args = try Arguments(arguments, command: command)
        guard !args.has("--help") else {
            print(command.help)
            return nil
        }
        return args
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func values(_ option: String) -> [String] { options[option] ?? [] }

    /// The command's one operand (commands that take one).
    var operand: String { operands.first ?? "" }

    /// A usage mistake of this command: its message ends with the command's help hint.
    func usage(_ message: String) -> UsageError { UsageError(message, command: command.name) }

    /// Refuses `option` (given) unless `required` is given too: an option
    /// that would do nothing in a combination is a mistake, not a no-op.
    func require(_ required: String, for option: String) throws(UsageError) {
        if (has(option) || !values(option).isEmpty) && !(has(required) || !values(required).isEmpty) {
            throw usage("\(option) only works with \(required)")
        }
    }

    /// Refuses `option` together with any of `others`.
    func refuse(_ option: String, with others: [String]) throws(UsageError) {
        guard has(option) || !values(option).isEmpty else { return }
        if let other = others.first(where: { has($0) || !values($0).isEmpty }) {
            throw usage("\(option) cannot be combined with \(other)")
        }
    }

    /// Which config the command reads (see ``ConfigSource``): the one
    /// `--config` names, else the standard config when `followingStandard`
    /// and it exists, else the built-in scene.
    func configSource(followingStandard: Bool = false) -> ConfigSource {
        ConfigSource(given: single("--config"), followingStandard: followingStandard)
    }

    /// The config a command answering about the desktop reads when it can go
    /// on without one (list, inspect): ``configSource(followingStandard:)``'s,
    /// but a standard config that cannot be read is warned of and gone on
    /// without (``ConfigSource/unreadable(_:)``), as the desktop's hosts go on
    /// without it; nil after printing why another config cannot be used.
    func desktopConfig() throws(UsageError) -> (source: ConfigSource, config: SegueConfig)? {
        let source = configSource(followingStandard: true)
        guard case .standard(let path) = source else { return try config(from: source).map { (source, $0) } }
        // Read once: good, it is the config; else the built-in scene's nothing in its place.
        guard let config = try? SegueConfig.load(path: path, forViewsOfAProgram: true) else {
            printError("segue: warning: \(path) cannot be read (segue check says why); going on without it")
            return (.unreadable(path), SegueConfig.builtinScene)
        }
        return (source, config)
    }

    /// The config `source` names (by default `--config`'s, or the built-in
    /// scene when none is given), with what the command line adds
    /// (`adjusting`); nil after printing why it cannot be used (the command
    /// then exits 1). A command that draws (`drawing`) decodes the pictures it
    /// names first.
    func config(from source: ConfigSource? = nil, drawing: Bool = false,
                adjusting: (SegueConfig) -> SegueConfig = { $0 }) throws(UsageError) -> SegueConfig? {
        let source = source ?? configSource()
        do {
            let config = adjusting(try source.path.map { path throws(ConfigError) in
                try SegueConfig.load(path: path, forViewsOfAProgram: source.isForViewsOfAProgram)
            } ?? SegueConfig.builtinScene)
            // A command that draws decodes the pictures first: a broken one is named with its key path, before anything is drawn.
            let problems = drawing ? PictureFiles.problems(in: config) : []
            for problem in problems { printError("segue: \(problem)") }
            return problems.isEmpty ? config : nil
        } catch {
            printError("segue: \(error)")
            return nil
        }
    }

    /// The value of an option that is not repeatable (the parser refuses a second).
    func single(_ option: String) -> String? { values(option).first }

    /// A number option's value (the parser checked it against its range), else its declared default.
    func number(_ option: String) -> Double? {
        if let text = single(option) { return Double(text) }
        if case .number(_, let fallback)? = command.options.first(where: { $0.name == option })?.value { return fallback }
        return nil
    }

    /// A whole-number option's value (checked against its range), else its declared default.
    func integer(_ option: String) -> Int? {
        if let text = single(option) { return Int(text) }
        if case .integer(_, let fallback)? = command.options.first(where: { $0.name == option })?.value { return fallback }
        return nil
    }

    private static func describe(_ operand: CommandSpec.Value) -> String {
        switch operand {
        case .animator: "an animator's name (or 'default')"
        case .file(let ext) where !ext.isEmpty: "a .\(ext) file"
        case .shell: "a shell: bash, zsh or fish"
        case .text: "an argument"
        default: "an argument"
        }
    }
}

/// A mistake in how the tool was called.
struct UsageError: Error {
    let message: String
    /// The command whose help explains the right way, if it is known.
    var command: String?
    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}

/// What a command ends with.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
}
