import LiveView
import PluginRuntime

/// Every command of the tool with its operand, flags and options: what the
/// parser accepts (``Arguments/init(_:command:)``), where `segue` dispatches
/// it, each command's `--help` and the top-level help, the shell completions
/// (``CompletionsCommand``) and the man page (``ManPage``). One table, so they
/// never disagree: what a command says in prose about itself is its `about`;
/// what each option does is written here, once.
struct CommandSpec: Sendable {
    /// What an operand or an option's value is, for completion.
    enum Value: Equatable, Sendable {
        case file(String)  // an extension, like "json" or "so"; "" for any file
        case folder
        case animator
        case choice([String])
        case shell
        case text
        /// A number in a range, with the value used when the option is not given (nil: none).
        case number(ClosedRange<Double>, default: Double?)
        /// A whole number in a range, with its default (nil: none).
        case integer(ClosedRange<Int>, default: Int?)
    }

    /// An option taking a value, or a flag (`value` nil).
    struct Option: Sendable {
        let name: String
        let value: Value?
        /// What its value is called in help, like FILE or process|none.
        let placeholder: String
        /// One line, for completions.
        let summary: String
        /// What it does, for `--help` and the man page (wrapped when printed).
        let detail: String
        /// It may be given more than once (each value counts).
        var repeatable = false
        /// Internal (between segue and its own child): accepted, never offered.
        var hidden = false

        init(_ name: String, _ value: Value? = nil, placeholder: String? = nil, summary: String, detail: String? = nil,
             repeatable: Bool = false, hidden: Bool = false) {
            self.name = name
            self.value = value
            self.placeholder = placeholder ?? value.map(Self.placeholder(for:)) ?? ""
            self.summary = summary
            self.detail = detail ?? summary + "."
            self.repeatable = repeatable
            self.hidden = hidden
        }

        /// The same option, said differently for one command (`--json` says what it prints).
        func detailed(_ detail: String) -> Option {
            Option(name, value, placeholder: placeholder, summary: summary, detail: detail, repeatable: repeatable, hidden: hidden)
        }

        /// `--name VALUE`, as help shows it.
        var label: String { value == nil ? name : name + " " + placeholder }

        private static func placeholder(for value: Value) -> String {
            switch value {
            case .file: "FILE"
            case .folder: "DIR"
            case .animator: "ANIMATOR"
            case .choice(let choices): choices.joined(separator: "|")
            case .shell: "SHELL"
            case .text: "VALUE"
            case .number: "N"
            case .integer: "N"
            }
        }

        /// What its value must be, as errors say it: "a whole number from 1 to 10".
        var expected: String? {
            func say(_ v: Double) -> String { v.formatted(.number.grouping(.never)) }
            switch value {
            case .number(let range, _)?: return "a number from \(say(range.lowerBound)) to \(say(range.upperBound))"
            case .integer(let range, _)? where range.upperBound == Int.max: return "a whole number, \(range.lowerBound) or more"
            case .integer(let range, _)?: return "a whole number from \(range.lowerBound) to \(range.upperBound)"
            case .choice(let choices)?: return choices.count == 2 ? choices.joined(separator: " or ") : "one of " + choices.joined(separator: ", ")
            default: return nil
            }
        }

        /// What help says of its value beyond `detail`: its range and default.
        var facts: String? {
            let fallback: String? = switch value {
            case .number(_, let d?)?: d.formatted(.number.grouping(.never))
            case .integer(_, let d?)?: String(d)
            default: nil
            }
            switch value {
            case .number?, .integer?:
                let phrase = expected!
                return phrase.prefix(1).uppercased() + phrase.dropFirst() + (fallback.map { "; default \($0)" } ?? "") + "."
            default:
                return nil
            }
        }

        /// `detail` and ``facts``: what help and the man page print.
        var description: String { facts.map { detail + " " + $0 } ?? detail }

        /// Why `text` is not a value of this option, or nil: the one check every command's parsing makes.
        func problem(with text: String) -> String? {
            let fits: Bool = switch value {
            case .choice(let choices)?: choices.contains(text)
            case .number(let range, _)?: Double(text).map { $0.isFinite && range.contains($0) } ?? false
            case .integer(let range, _)?: Int(text).map(range.contains) ?? false
            default: true
            }
            return fits ? nil : "\(name) \(PluginText.escaped(text)): expected \(expected!)"
        }
    }

    let name: String
    let summary: String
    /// What its operands are (nil: it takes none), what help calls them, and
    let operand: Value?
    var operandName = ""
    /// how many it takes.
    var arity: ClosedRange<Int> = 1...1
    let options: [Option]
    /// What the command does, in prose: its help between USAGE and OPTIONS.
    let about: String
    /// Runs it with the arguments after its name.
    let main: @Sendable ([String]) throws(UsageError) -> ExitCode

    var flags: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }
    var valued: Set<String> { Set(options.filter { $0.value != nil }.map(\.name)) }
    /// What completions offer.
    var visible: [Option] { options.filter { !$0.hidden } }

    /// Its operands and options as a synopsis: `ANIMATOR [--from NAME] [--plugins DIR]...`.
    var synopsis: [String] {
        let options = visible.filter { $0.name != "--help" }.map { "[\($0.label)]" + ($0.repeatable ? "..." : "") }
        return [operandName].filter { !$0.isEmpty } + options
    }

    /// Its `--help`.
    var help: String {
        let prefix = "USAGE: segue \(name) "
        let usage = Text.wrap(words: synopsis, width: 80 - prefix.count)
        let lines = [prefix + usage[0]] + usage.dropFirst().map { String(repeating: " ", count: prefix.count) + $0 }
        return lines.joined(separator: "\n") + "\n\n" + body
    }

    /// Its help after the USAGE line(s): also its section of the man page.
    var body: String {
        let column = 19
        var lines = ["OPTIONS:"]
        for option in visible {
            let text = Text.wrap(option.description, width: 80 - column)
            let label = "  " + option.label
            if label.count <= column - 2 {
                lines.append(label.padding(toLength: column, withPad: " ", startingAt: 0) + text[0])
            } else {
                lines += [label, String(repeating: " ", count: column) + text[0]]
            }
            lines += text.dropFirst().map { String(repeating: " ", count: column) + $0 }
        }
        let searches = options.contains { $0.name == "--plugins" }
        return about + "\n\n" + lines.joined(separator: "\n") + (searches ? "\n\n" + PluginFolders.searchOrderHelp : "")
    }
}

/// Plain-text layout for help.
enum Text {
    /// `text` in lines of at most `width` characters, broken between words
    /// (a word longer than the width gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        wrap(words: text.split(separator: " ").map(String.init), width: width)
    }

    /// `words` in lines of at most `width` characters, one space between them.
    static func wrap(words: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}

enum Commands {
    static let help = CommandSpec.Option("--help", summary: "Show the command's help", detail: "Show this help.")
    static let json = CommandSpec.Option("--json", summary: "Print JSON for scripts")
    static let config = CommandSpec.Option(
        "--config", .file("json"), summary: "The config file (- for standard input)",
        detail: "The config file (JSON; - for standard input): its children, rules and plugin folders. Default: the built-in scene, a demo, even when the desktop has a standard config (check, explain and list read that one).")
    /// The commands that answer about the desktop (check, explain, list, inspect) read what its hosts read.
    static let desktopConfig = config.detailed(
        "The config file (JSON; - for standard input): its children, rules and plugin folders. Default: the standard config the desktop's hosts read (KWin, GNOME Shell, the GTK and Qt widgets), $XDG_CONFIG_HOME/segue/segue.json, else ~/.config/segue/segue.json, when it exists; else the built-in scene. The output says which.")
    /// How a watching view (show, preview --watch) treats a config saved with an error `segue check` finds.
    static let strict = CommandSpec.Option(
        "--strict", summary: "Apply a reloaded config only when segue check finds no error",
        detail: "When the config is saved again, run the checks of 'segue check' on it and apply it only when they find no error; until then the last good config stays and the errors are shown, as for a config that cannot be read.")
    static let size = CommandSpec.Option(
        "--size", .text, placeholder: "WxH", summary: "The container's size in points, WxH",
        detail: "The container's size in points (default 390x844).")
    /// Commands that draw set labels in a typeface.
    static let font = CommandSpec.Option(
        "--font", .text, placeholder: "FONT", summary: "The typeface labels are drawn in",
        detail: "The typeface labels are drawn in: a family name fontconfig matches (\"DejaVu Serif\") or a font file; it overrides the config's \"font\". DejaVu Sans unless told; without FreeType, the built-in 5 x 7 font.")
    /// How a command finds plugins and runs their code: every command that reads plugin folders takes these.
    static let plugins: [CommandSpec.Option] = [
        .init("--plugins", .folder, summary: "A plugin folder, searched first (repeatable)",
              detail: "A plugin folder, searched first; repeat for more.", repeatable: true),
        .init("--isolation", .choice(["process", "none"]), summary: "Where plugin code runs",
              detail: "Where plugin code runs: in worker processes (the default; a plugin that crashes or hangs costs only its transition) or in this process (trusted plugins only). Overrides the config's \"isolation\"."),
        .init("--sandbox", .choice(["strict", "off"]), summary: "Whether workers confine plugin code",
              detail: "strict (the default): before any plugin code runs, its worker drops every right an animator does not need: no writes, no network, no programs or processes, no signals or tracing outside itself, reading only its own folder and the system's libraries. What a plugin tries and is refused is named in its report, and the plugin is quarantined. off: no sandbox, for plugins you trust (a warning says so). Overrides SEGUE_SANDBOX and the config's \"sandbox\"."),
        .init("--plugin-memory", .text, placeholder: "SIZE", summary: "The memory a worker may use (like 512MiB)",
              detail: "The address space a worker may use, like 512MiB or 2GiB (default 1GiB, at least 256MiB). Overrides the config's \"limits\": {\"memory\": ...}."),
        .init("--plugin-threads", .integer(SandboxPolicy.threadLimits, default: nil), summary: "The threads a worker may have",
              detail: "The threads a worker may have at once, its own included (\(SandboxPolicy().threadLimit) unless the config's \"limits\": {\"threads\": ...} says otherwise); the next one fails and the attempt is named."),
        .init("--allow-insecure-plugins", summary: "Load plugins others can write",
              detail: "Load plugin files and folders that others can write (refused by default; also SEGUE_ALLOW_INSECURE_PLUGINS=1)."),
    ]

    static let run = CommandSpec(
        name: "run", summary: "Play a config's script (or the built-in scene) and report each transition", operand: nil,
        options: [config] + plugins + [
            json.detailed("One JSON object per transition per line, keys: version, kind (\"switch\", \"appear\" or \"disappear\"), from, to, animator, source (\"plugin\" or \"builtin\"), file, reason, fellBack, duration, frames, completed, shown, interactive, parameters, preview (see \"JSON output\" in docs/tool.md)."),
            .init("--watch", summary: "Reload and play again on every plugin or config change",
                  detail: "After playing, stay up: watch the plugin folders and the config, and on every change reload and play the script again, saying what changed (see \"Hot reload\" in docs/tool.md). A config saved with a mistake keeps the last good one running. SIGINT or SIGTERM ends it (exit 0)."),
            .init("--strict", summary: "Run segue check first and refuse to play on an error",
                  detail: "Run the checks of 'segue check' first; on any error, print them all and play nothing (exit 1). With --watch, a config saved with an error is not applied either."),
            .init("--preview", .folder, summary: "Also write a GIF of every transition into this folder",
                  detail: "Also render every transition to an animated GIF in DIR, named NN-FROM-TO-ANIMATOR.gif (with --json, the key \"preview\" gives its path)."),
            .init("--scale", .number(0.05...4, default: 1), placeholder: "F", summary: "Pixels per point of the previews",
                  detail: "Pixels per point of the previews; only with --preview."),
            .init("--print-config", summary: "Print the built-in scene's config",
                  detail: "Print the built-in scene's config and exit (alone: it takes no other option)."),
            help,
        ],
        about: RunCommand.about, main: RunCommand.main)

    static let check = CommandSpec(
        name: "check", summary: "Report every problem a run of a config could meet", operand: nil,
        options: [desktopConfig] + plugins + [
            json.detailed(#"One JSON object: {"version": 1, "config" (the file read, or "<built-in scene>"), "errors", "warnings", "problems": [{"severity", "file", "line", "column", "keyPath", "message"}]}."#),
            help,
        ],
        about: CheckCommand.about, main: CheckCommand.main)

    static let inspect = CommandSpec(
        name: "inspect", summary: "Show everything about one animator", operand: .animator, operandName: "ANIMATOR",
        options: [desktopConfig] + plugins + [
            json.detailed(#"One JSON object: {"version": 1, "animator": {"name", "id", "version", "description", "file", "source", "parameters": [{"name", "type", "default", "min", "max", "choices", "explanation"}]}}."#),
            .init("--exists", summary: "Print nothing; exit 0 if the animator exists, 1 if not",
                  detail: "Print nothing; exit 0 when the animator exists, 1 when not (for scripts)."),
            help,
        ],
        about: InspectCommand.about, main: InspectCommand.main)

    static let explain = CommandSpec(
        name: "explain", summary: "Say which animator a switch FROM TO would run, and why", operand: .text, operandName: "FROM TO | VIEW", arity: 1...2,
        options: [
            .init("--kind", .choice(["switch", "appear", "disappear"]), summary: "A switch FROM TO, or VIEW opening or closing",
                  detail: "switch (the default): a switch between the children FROM and TO; appear or disappear: the window VIEW (any name, as a desktop names windows by application id) opening or closing, matched against the rules' 'appear' and 'disappear' patterns."),
            desktopConfig,
        ] + plugins + [
            json.detailed(#"One JSON object: {"version": 1, "config" (the file read, or "<built-in scene>"), "kind", "from", "to", "rule", "beaten": [{"rule", "matches", "animator", "why"}], "animator", "file", "reason", "parameters": [{"name", "value", "from"}], "fallbacks": [...]}."#),
            help,
        ],
        about: ExplainCommand.about, main: ExplainCommand.main)

    static let list = CommandSpec(
        name: "list", summary: "List the animators in the plugin folders, and the files rejected", operand: nil,
        options: [desktopConfig] + plugins + [
            json.detailed(#"One JSON document: {"config" (the config whose "plugins" were searched, or "<built-in scene>"), "animators": [...], "rejected": [{"file", "reason"}], "folders": [{"path", "origin", "state", "files"}], "warnings": [...], "scanned": N (files examined, not taken from the cache), "sandbox": {"isolation", "mode", "landlock", "seccomp", "limits": {"memory", "descriptors", "core"}}}."#),
            .init("--names", summary: "Print only the animators' names, one per line",
                  detail: "Print only the animators' names, one per line (for scripts and shell completions)."),
            help,
        ],
        about: ListCommand.about, main: ListCommand.main)

    static let preview = CommandSpec(
        name: "preview", summary: "Render one transition by one animator to a GIF or a PNG filmstrip", operand: .animator, operandName: "ANIMATOR",
        options: [
            .init("--from", .text, placeholder: "NAME", summary: "The child (or picture file) to switch from",
                  detail: "The child to switch from, or a PNG or JPEG file shown as a child of its own (see --to)."),
            .init("--to", .text, placeholder: "NAME", summary: "The child (or picture file) to switch to",
                  detail: "The child to switch to, or a PNG or JPEG file (a name ending in .png, .jpg or .jpeg) shown whole-frame as a child of its own. Without --from and --to, the first rule naming ANIMATOR in the config (or the built-in scene) decides; else the first two children. The rule that names ANIMATOR for that pair lends its parameters (--param overrides them); the output says which."),
            .init("--kind", .choice(["switch", "appear", "disappear"]), summary: "A switch, or a window opening or closing",
                  detail: "switch (the default): --from to --to; appear: the config's first window (the built-in scene's calculator) opening over --from; disappear: it closing, revealing --from. ANIMATOR plays it as segue run would, even when it was not written for that kind; but a switch by an animator that declares no switches (Pop) is played by the built-in default, and a warning says why. The rule that names ANIMATOR for that kind of the window's name lends its parameters (--param overrides them); the output says which."),
            .init("--pointer", .text, placeholder: "X,Y", summary: "Where the pointer is, for a window's animator",
                  detail: "With --kind appear or disappear: the pointer at X,Y (container points), handed to the animator as the context's anchor point (ABI 1.4): Pop grows an opening window about it, the iris example opens its circle there."),
            .init("--target", .text, placeholder: "X,Y,W,H", summary: "The rectangle a window comes from or goes to",
                  detail: "With --kind appear or disappear: a launcher or task-bar entry at X,Y of W x H (container points), handed to the animator as the context's anchor rectangle (ABI 1.4): Pop minimizes a closing window into it and opens one out of it."),
            config,
        ] + plugins + [
            size,
            .init("--fps", .number(1...120, default: 60), summary: "Frames per second of a GIF",
                  detail: "Frames per second of a GIF (.gif only)."),
            .init("--dither", summary: "Dither colours a GIF frame's palette misses",
                  detail: "Dither the colours a GIF frame's palette misses (Floyd-Steinberg): smoother gradients, larger files."),
            .init("--scale", .number(0.05...4, default: 1), placeholder: "F", summary: "Pixels per point", detail: "Pixels per point."),
            .init("--frames", .integer(2...30, default: 6), summary: "Stills in a PNG filmstrip",
                  detail: "Stills in a PNG filmstrip (.png only)."),
            .init("--param", .text, placeholder: "NAME=VALUE", summary: "A parameter, NAME=VALUE (repeatable)",
                  detail: "A parameter of the animator, checked like a config's; repeat for more.", repeatable: true),
            .init("--out", .file(""), summary: "The file to write: .gif, .png, .mp4 or .webm",
                  detail: ".gif: an animated GIF, looping, one frame per time step with a short hold on the first and last; .png: a filmstrip of stills at evenly spaced times, each labelled with its time (with --animated, an animated PNG); .mp4 (H.264) or .webm (VP9): a video at --fps with the same holds, encoded by ffmpeg (Debian: ffmpeg), which must be on the PATH. Default: ANIMATOR.gif."),
            .init("--animated", summary: "Write the .png as an animated PNG",
                  detail: "Write the .png as an animated PNG (APNG, which browsers play): every frame at --fps in full colour, each storing only what changed, looping, with a GIF's holds on the first and last frame."),
            json.detailed("Print what was written as one JSON object; no progress."),
            font,
            .init("--watch", summary: "Render again whenever a plugin or the config changes",
                  detail: "After writing, watch the plugin folders and the config, and write the preview again whenever a plugin or the config changes (an author's loop: rebuild, look), saying what was written or why the new build was rejected. A config saved with a mistake keeps the last good one. SIGINT or SIGTERM ends it."),
            strict,
            help,
        ],
        about: PreviewCommand.about, main: PreviewCommand.main)

    static let show = CommandSpec(
        name: "show", summary: "Watch and drive the container live, in a window or a terminal", operand: .file(""),
        operandName: "[PICTURE...]", arity: 0...ShowCommand.maximumPictures,
        options: [config] + plugins + [
            .init("--window", summary: "Show it in a window (SDL2, loaded at run time)",
                  detail: "Show it in a window, through SDL2 loaded at run time (Debian: libsdl2-2.0-0); X11 and Wayland alike, sharp on HiDPI."),
            .init("--terminal", summary: "Show it in this terminal",
                  detail: "Show it in this terminal: kitty graphics or sixel where the terminal answers that it has them, else half-blocks in 24-bit colour; the status line is the last line."),
            .init("--graphics", .choice(TerminalGraphics.allCases.map(\.rawValue)), summary: "How the terminal gets frames",
                  detail: "How the terminal gets frames, instead of asking it (only with --terminal)."),
            size,
            font,
            .init("--scale", .number(0.25...4, default: 1), placeholder: "F", summary: "Zoom the window by F",
                  detail: "Make the window F times the container's size; frames are drawn at the display's pixel density."),
            .init("--play", summary: "Play the config's script, as segue run does, until stopped",
                  detail: "Play the config's script (or the built-in scene's) in a loop, a step whenever the one before has ended; keys and gestures still work."),
            .init("--quit-after", .number(0.1...86_400, default: nil), placeholder: "SECONDS", summary: "Quit after SECONDS",
                  detail: "Quit after SECONDS (for recordings and scripts)."),
            strict,
            .init("--stats", summary: "Print frame times and dropped frames on quitting",
                  detail: "On quitting, print to standard error the frames shown, the median and 99th percentile time from a frame's start to its present, the dropped frames and, in a terminal, the bytes written per frame."),
            help,
        ],
        about: ShowCommand.about, main: ShowCommand.main)

    static let validate = CommandSpec(
        name: "validate", summary: "Check a plugin file in a child process", operand: .file("so"), operandName: "PLUGIN.so",
        options: [
            .init("--strictness", .integer(1...10, default: 5), summary: "How thorough, 1 to 10",
                  detail: "How thorough: how many contexts, samples and evaluations."),
            .init("--seed", .integer(0...Int(UInt32.max), default: 1), summary: "Seeds the fuzzed parameters",
                  detail: "Seeds the fuzzed parameters."),
            .init("--timeout", .number(0.1...3600, default: 10), placeholder: "SECONDS", summary: "Seconds one plugin call may take",
                  detail: "Seconds one call to the plugin (setup, evaluate, end), or its loading, may take before it counts as a hang; a slow plugin is timed, not killed."),
            .init("--context", .integer(0...Int.max, default: nil), summary: "Only this context of the matrix",
                  detail: "Only context N of the matrix (as a failure names it)."),
            .init("--in-process", summary: "Run the checks in this process, for a debugger",
                  detail: "Run the checks in this process: a crash stops segue, which is what a debugger wants (gdb --args segue ...); nothing can time out there, so not with --timeout."),
            plugins.first { $0.name == "--allow-insecure-plugins" }!,
            .init("--worker", .text, summary: "Internal: run as segue validate's child", hidden: true),
            json.detailed("One JSON object: plugin, strictness, seed, passed, checks [{name, status, message}]."),
            help,
        ],
        about: ValidateCommand.about, main: ValidateCommand.main)

    static let new = CommandSpec(
        name: "new", summary: "Write a ready-to-build animator folder to start from", operand: .text, operandName: "NAME",
        options: [
            .init("--lang", .choice(NewCommand.languages), summary: "The language of the animator",
                  detail: "The language: " + NewCommand.languages.joined(separator: ", ") + " (default c)."),
            .init("--dir", .folder, summary: "The folder to write (default ./NAME)",
                  detail: "The folder to write: new, or empty (default ./NAME)."),
            help,
        ],
        about: NewCommand.about, main: NewCommand.main)

    static let schema = CommandSpec(
        name: "schema", summary: "Print the JSON Schema of config files, for editors", operand: nil, options: [help],
        about: SchemaCommand.about, main: SchemaCommand.main)

    static let completions = CommandSpec(
        name: "completions", summary: "Print the shell completions for bash, zsh or fish", operand: .shell, operandName: "bash|zsh|fish",
        options: [help],
        about: CompletionsCommand.about, main: CompletionsCommand.main)

    static let all = [run, show, check, explain, list, inspect, preview, validate, new, schema, completions]

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
