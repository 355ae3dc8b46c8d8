/// Every command of the tool with its operand, flags and options: what the
/// parser accepts (``Arguments/init(_:command:)``), where `segue` dispatches
/// it, the top-level help, the shell completions (``CompletionsCommand``) and
/// the man page (``ManPage``). One table, so they never disagree.
struct CommandSpec: Sendable {
    /// What an operand or an option's value is, for completion.
    enum Value: Equatable, Sendable {
        case file(String)  // an extension, like "json" or "so"; "" for any file
        case folder
        case animator
        case choice([String])
        case shell
        case text
    }

    /// An option taking a value, or a flag (`value` nil).
    struct Option: Sendable {
        let name: String
        let value: Value?
        let summary: String
        /// Internal (between segue and its own child): accepted, never offered.
        var hidden = false
    }

    let name: String
    let summary: String
    /// What its operands are (nil: it takes none), and
    let operand: Value?
    let options: [Option]
    /// how many it takes.
    var arity = 1
    /// Its `--help`, also its section of the man page.
    let help: @Sendable () -> String
    /// Runs it with the arguments after its name.
    let main: @Sendable ([String]) throws(UsageError) -> ExitCode

    var flags: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }
    var valued: Set<String> { Set(options.filter { $0.value != nil }.map(\.name)) }
    /// What completions offer.
    var visible: [Option] { options.filter { !$0.hidden } }
}

enum Commands {
    static let help = CommandSpec.Option(name: "--help", value: nil, summary: "Show the command's help")
    static let json = CommandSpec.Option(name: "--json", value: nil, summary: "Print JSON for scripts")
    static let config = CommandSpec.Option(name: "--config", value: .file("json"), summary: "The config file (- for standard input)")
    static let plugins: [CommandSpec.Option] = [
        .init(name: "--plugins", value: .folder, summary: "A plugin folder, searched first (repeatable)"),
        .init(name: "--isolation", value: .choice(["process", "none"]), summary: "Where plugin code runs"),
        .init(name: "--sandbox", value: .choice(["strict", "off"]), summary: "Whether workers confine plugin code"),
        .init(name: "--plugin-memory", value: .text, summary: "The memory a worker may use (like 512MiB)"),
        .init(name: "--allow-insecure-plugins", value: nil, summary: "Load plugins others can write"),
    ]

    static let run = CommandSpec(
        name: "run", summary: "Play a config's script (or the built-in scene) and report each transition", operand: nil,
        options: [config] + plugins + [
            json,
            .init(name: "--watch", value: nil, summary: "Reload and play again on every plugin or config change"),
            .init(name: "--strict", value: nil, summary: "Run segue check first and refuse to play on an error"),
            .init(name: "--preview", value: .folder, summary: "Also write a GIF of every transition into this folder"),
            .init(name: "--scale", value: .text, summary: "Pixels per point of the previews"),
            .init(name: "--print-config", value: nil, summary: "Print the built-in scene's config"),
            help,
        ],
        help: { RunCommand.help }, main: RunCommand.main)

    static let check = CommandSpec(
        name: "check", summary: "Report every problem a run of a config could meet", operand: nil,
        options: [config] + plugins + [json, help],
        help: { CheckCommand.help }, main: CheckCommand.main)

    static let inspect = CommandSpec(
        name: "inspect", summary: "Show everything about one animator", operand: .animator,
        options: [config] + plugins + [
            json,
            .init(name: "--exists", value: nil, summary: "Print nothing; exit 0 if the animator exists, 1 if not"),
            help,
        ],
        help: { InspectCommand.help }, main: InspectCommand.main)

    static let explain = CommandSpec(
        name: "explain", summary: "Say which animator a switch FROM TO would run, and why", operand: .text,
        options: [config] + plugins + [json, help], arity: 2,
        help: { ExplainCommand.help }, main: ExplainCommand.main)

    static let list = CommandSpec(
        name: "list", summary: "List the animators in the plugin folders, and the files rejected", operand: nil,
        options: [config] + plugins + [
            json,
            .init(name: "--names", value: nil, summary: "Print only the animators' names, one per line"),
            help,
        ],
        help: { ListCommand.help }, main: ListCommand.main)

    static let preview = CommandSpec(
        name: "preview", summary: "Render one transition by one animator to a GIF or a PNG filmstrip", operand: .animator,
        options: [config] + plugins + [
            .init(name: "--from", value: .text, summary: "The child to switch from"),
            .init(name: "--to", value: .text, summary: "The child to switch to"),
            .init(name: "--size", value: .text, summary: "The container's size in points, WxH"),
            .init(name: "--fps", value: .text, summary: "Frames per second of a GIF"),
            .init(name: "--dither", value: nil, summary: "Dither colours a GIF frame's palette misses"),
            .init(name: "--scale", value: .text, summary: "Pixels per point"),
            .init(name: "--frames", value: .text, summary: "Stills in a PNG filmstrip"),
            .init(name: "--param", value: .text, summary: "A parameter, NAME=VALUE (repeatable)"),
            .init(name: "--out", value: .file(""), summary: "The file to write, .gif or .png"),
            json,
            .init(name: "--watch", value: nil, summary: "Render again whenever a plugin changes"),
            help,
        ],
        help: { PreviewCommand.help }, main: PreviewCommand.main)

    static let validate = CommandSpec(
        name: "validate", summary: "Check a plugin file in a child process", operand: .file("so"),
        options: [
            .init(name: "--strictness", value: .choice((1...10).map(String.init)), summary: "How thorough, 1 to 10"),
            .init(name: "--seed", value: .text, summary: "Seeds the fuzzed parameters"),
            .init(name: "--timeout", value: .text, summary: "Seconds one check may take"),
            .init(name: "--context", value: .text, summary: "Only this context of the matrix"),
            .init(name: "--in-process", value: nil, summary: "Run the checks in this process, for a debugger"),
            .init(name: "--worker", value: .text, summary: "Internal: run as segue validate's child", hidden: true),
            json,
            help,
        ],
        help: { ValidateCommand.help }, main: ValidateCommand.main)

    static let schema = CommandSpec(
        name: "schema", summary: "Print the JSON Schema of config files, for editors", operand: nil, options: [help],
        help: { SchemaCommand.help }, main: SchemaCommand.main)

    static let completions = CommandSpec(
        name: "completions", summary: "Print the shell completions for bash, zsh or fish", operand: .shell,
        options: [help],
        help: { CompletionsCommand.help }, main: CompletionsCommand.main)

    static let all = [run, check, explain, list, inspect, preview, validate, schema, completions]

    /// `segue --help`: every command of the table with its summary.
    static var topLevelHelp: String {
        let width = max(all.map(\.name.count).max()!, "help COMMAND".count) + 2
        let commands = all.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary + "." }
        return """
        USAGE: segue <command> [options]

        Segue hosts view-transition animators: plugins (.so files) chosen by name in
        a config file, with a built-in default when none matches.

        COMMANDS:
        \(commands.joined(separator: "\n"))
          \("help COMMAND".padding(toLength: width, withPad: " ", startingAt: 0))Show a command's help (like 'segue COMMAND --help').

        Run 'segue <command> --help' for a command's options. 'segue --version' prints
        the version and the animator ABI version.
        """
    }
}
