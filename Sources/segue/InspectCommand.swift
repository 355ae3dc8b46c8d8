import Foundation
import HostConfig
import HostContainer
import PluginHost
import PluginRuntime

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

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.inspect, help: help) else { return .success }
        try args.refuse("--exists", with: ["--json"])
        let name = args.operand
        guard let config = try args.config() else { return .failure }
        let registry = try PluginFolders.registry(args, config: config)
        guard let animator = registry.animator(named: name) else {
            if !args.has("--exists") {
                let hint = NameSuggestion.hint(for: name, in: registry.names)
                printError("segue: no animator named '\(PluginText.escaped(name))'\(hint); 'segue list' shows them all")
            }
            return .failure
        }
        let described = Described(animator)
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

        init(_ a: AnimatorDescriptor) {
            (name, id, version, description) = (a.name, a.id, a.version, a.summary)
            (file, source) = a.source == .builtin ? (nil, "builtin") : (a.file, "plugin")
            parameters = a.parameters.map(ListCommand.Listing.Parameter.init)
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
