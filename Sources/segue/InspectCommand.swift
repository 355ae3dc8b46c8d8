import Foundation
import HostContainer

/// `segue inspect ANIMATOR`: everything about one animator, like
/// `gst-inspect-1.0 ELEMENT`.
enum InspectCommand {
    static let help = """
    USAGE: segue inspect ANIMATOR [--config FILE] [--plugins DIR]... [--json | --exists]

    Shows everything about one animator (a plugin's short name, or 'default'
    for the built-in one): its file, id, version and description, and each
    parameter with its type, default, range or choices, and explanation.
    Exits 1 when there is no such animator (with "did you mean").

    OPTIONS:
      --config FILE    Also search the folders of this config's "plugins".
      --plugins DIR    A plugin folder; repeat for more. Searched first.
      --isolation process|none
                       Where plugin code runs while plugins are examined.
      --sandbox strict|off
                       Whether worker processes confine plugin code
                       (see segue run --help).
      --plugin-memory SIZE
                       The memory a worker may use (default 1GiB).
      --allow-insecure-plugins
                       Examine plugin files and folders that others can write.
      --json           One JSON object: {"version": 1, "animator": {"name",
                       "id", "version", "description", "file", "source",
                       "parameters": [{"name", "type", "default", "min",
                       "max", "choices", "explanation"}]}}.
      --exists         Print nothing; exit 0 when the animator exists, 1 when
                       not (for scripts).
      --help           Show this help.

    \(PluginFolders.searchOrderHelp)
    """

    /// The built-in default, described like a plugin's animator.
    static let builtin = Described(
        name: SegueConfig.builtinAnimatorName, id: "builtin", version: SegueVersion.string,
        description: "The container's private default animator: the to view slides in from one side and fades in while the from view slides out the other side and fades out, on a spring. Its parameters default to the seed's values; a rule naming \"default\" may set them.",
        file: nil, source: "builtin",
        parameters: ContainerViewController.defaultAnimatorParameters.map(ListCommand.Listing.Parameter.init))

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.inspect, help: help) else { return .success }
        try args.refuse("--exists", with: ["--json"])
        let name = args.operand
        guard let config = try args.config() else { return .failure }
        let described: Described
        if name == SegueConfig.builtinAnimatorName {
            described = builtin
        } else {
            let registry = try PluginFolders.registry(args, config: config)
            guard let animator = registry.animator(named: name) else {
                if !args.has("--exists") {
                    let hint = ConfigCheck.closest(to: name, in: registry.animators.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
                    printError("segue: no animator named '\(PluginText.escaped(name))'\(hint); 'segue list' shows them all")
                }
                return .failure
            }
            described = Described(animator)
        }
        if args.has("--exists") { return .success }
        if args.has("--json") {
            printNow(jsonLine(Document(animator: described)))
        } else {
            printNow(described.text)
        }
        return .success
    }

    struct Document: Encodable {
        var version = 1
        let animator: Described
    }

    struct Described: Encodable {
        let name, id, version, description: String
        let file: String?
        let source: String
        let parameters: [ListCommand.Listing.Parameter]

        init(name: String, id: String, version: String, description: String, file: String?, source: String,
             parameters: [ListCommand.Listing.Parameter]) {
            (self.name, self.id, self.version, self.description) = (name, id, version, description)
            (self.file, self.source, self.parameters) = (file, source, parameters)
        }

        init(_ a: AnimatorDescriptor) {
            self.init(name: a.name, id: a.id, version: a.version, description: a.summary, file: a.file, source: "plugin",
                      parameters: a.parameters.map(ListCommand.Listing.Parameter.init))
        }

        var text: String {
            var lines = ["\(name) \(version)", "  id:          \(id)", "  source:      \(source)"]
            if let file { lines.append("  file:        \(file)") }
            lines.append("  description: \(description)")
            lines.append(parameters.isEmpty ? "Parameters: none" : "Parameters (\(parameters.count)):")
            let width = parameters.map(\.name.count).max() ?? 0
            for p in parameters {
                lines.append("  \(p.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(p.type), default \(p.defaultText)")
                lines.append("  \(String(repeating: " ", count: width))  \(p.explanation)")
            }
            return lines.joined(separator: "\n")
        }
    }
}
