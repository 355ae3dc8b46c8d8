import Foundation
import HostConfig
import HostContainer
import PluginHost
import PluginRuntime

/// `segue inspect ANIMATOR`: everything about one animator, like
/// `gst-inspect-1.0 ELEMENT`.
enum InspectCommand {
    static let about = """
    Shows everything about one animator (a plugin's short name, or 'default'
    for the built-in one): its file, id, version and description, and each
    parameter with its type, default, range or choices, and explanation.
    Exits 1 when there is no such animator (with "did you mean").
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.inspect) else { return .success }
        try args.refuse("--exists", with: ["--json"])
        let name = args.operand
        // Found where `segue list` finds animators: in the standard config's "plugins" too.
        guard let (_, config) = try args.desktopConfig() else { return .failure }
        let registry = try PluginFolders.registry(args, config: config)
        guard let animator = registry.animator(named: name) else {
            if !args.has("--exists") {
                let hint = NameSuggestion.hint(for: name, in: registry.names)
                printError("segue: no animator named '\(PluginText.escaped(name))'\(hint)\(registry.refusedNote); 'segue list' shows them all")
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
            (file, source) = (a.source.file, a.source.key)
            parameters = a.parameters.map(ListCommand.Listing.Parameter.init)
        }

        var text: String {
            var lines = ["\(name) \(version)", "  id:          \(id)", "  source:      \(file == nil ? AnimatorSource.builtin.label : source)"]
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
