import Foundation
import HostConfig
import HostContainer
import PluginRuntime
import Timing

/// `segue explain FROM TO`: what would happen for one switch, and why.
enum ExplainCommand {
    static let about = """
    Says what a switch from the child FROM to the child TO would run, without
    running it: the rule that matches and the more general (or later) ones it
    beat, the animator and its file, each parameter value after defaults and
    whether the rule or the animator's default set it, and the fallbacks that
    would apply. With --kind appear or disappear, says the same of the window
    VIEW opening or closing: which 'appear' or 'disappear' pattern wins (an
    exact name over a pattern, more characters that are not wildcards over
    fewer, the first in the file among equals; names match in any case) and
    which it beat. Without --config it reads the standard config the
    desktop's hosts read (KWin, GNOME Shell, the GTK and Qt widgets) when
    there is one, else the built-in scene, and says which. Exits 1 when FROM
    or TO is not a child of the config (or of the built-in scene); in the
    standard config they may be any program's views.
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.explain) else { return .success }
        let kind = args.single("--kind").flatMap(TransitionKind.init(key:)) ?? .switch
        let subject: ConfigDrivenDelegate.Subject
        if kind != .switch {
            guard args.operands.count == 1 else { throw args.usage("--kind \(kind.key) takes one VIEW: the window opening or closing") }
            subject = .presenting(kind, view: args.operands[0])
        } else {
            guard args.operands.count == 2 else { throw args.usage("a switch takes FROM and TO (or --kind appear|disappear VIEW)") }
            subject = .switching(from: args.operands[0], to: args.operands[1])
        }
        let source = args.configSource(followingStandard: true)
        guard let config = try args.config(from: source) else { return .failure }
        if case .switching(let from, let to) = subject {
            // A window is any name a desktop gives; a switch is between the config's children (the standard
            // config's switches are between a program's views, which it cannot know).
            let children = config.sceneChildren.map(\.name)
            for child in [from, to] where !children.contains(child) && !source.isForViewsOfAProgram {
                let hint = NameSuggestion.hint(for: child, in: children)
                printError("segue: no child named '\(PluginText.escaped(child))'\(hint); the children are \(children.joined(separator: ", "))")
                return .failure
            }
            guard from != to else {
                printError("segue: \(from) -> \(to) is no switch: selecting the child shown does nothing")
                return .failure
            }
        }
        let registry = try PluginFolders.registry(args, config: config)
        let explanation = ConfigDrivenDelegate(config: config, registry: registry).explain(subject)
        printNow(args.has("--json") ? jsonLine(Document(explanation, config: source.file)) : text(explanation, config: source))
        return .success
    }

    static func text(_ e: TransitionExplanation, config: ConfigSource) -> String {
        let what = switch e.kind {
        case .switch: "\(e.from) -> \(e.to)"
        case .appear: "\(e.to) appearing"
        case .disappear: "\(e.from) disappearing"
        }
        var lines = ["\(what): \(e.animator) (\(e.file.map { "plugin \(PluginFolders.display($0))" } ?? AnimatorSource.builtin.label))"]
        lines.append("  config:     \(config)")
        lines.append("  rule:       " + (e.rule ?? "none matches"))
        for b in e.beaten { lines.append("  beat:       \(b.label) (\(b.matches)) -> \(b.animator): \(b.why)") }
        if e.reason != e.rule { lines.append("  why:        \(e.reason)") }
        if e.played != KindPlayback.Way.asWritten.description { lines.append("  played:     \(e.played)") }
        if !e.parameters.isEmpty {
            lines.append("  parameters: " + e.parameters.map { "\($0.name) = \($0.value) (\($0.fromRule ? "rule" : "default"))" }
                .joined(separator: ", "))
        }
        for f in e.fallbacks { lines.append("  fallback:   \(f)") }
        return lines.joined(separator: "\n")
    }

    struct Document: Encodable {
        struct Beaten: Encodable { let rule, matches, animator, why: String }
        struct Parameter: Encodable {
            let name, from: String
            let value: JSONParameter
        }
        var version = 1
        /// The config read: a file, or the built-in scene's label.
        let config: String
        let kind, from, to, animator, reason: String
        /// How the animator plays the kind: "as written", or as docs/abi.md's table says.
        let played: String
        let rule, file: String?
        let beaten: [Beaten]
        let parameters: [Parameter]
        let fallbacks: [String]

        init(_ e: TransitionExplanation, config: String) {
            self.config = config
            (kind, from, to, animator, reason, rule, file) = (e.kind.key, e.from, e.to, e.animator, e.reason, e.rule, e.file)
            played = e.played
            beaten = e.beaten.map { Beaten(rule: $0.label, matches: $0.matches, animator: $0.animator, why: $0.why) }
            parameters = e.parameters.map { Parameter(name: $0.name, from: $0.fromRule ? "rule" : "default", value: JSONParameter($0.value)) }
            fallbacks = e.fallbacks
        }
    }
}
