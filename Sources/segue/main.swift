import Foundation
import HostContainer
import PluginRuntime

// segue: the command-line face of the Segue plugin host.
// Exit codes: 0 ok, 1 failure, 2 usage.

func dispatch(_ arguments: [String]) throws(UsageError) -> ExitCode {
    guard let command = arguments.first else {
        print(Commands.topLevelHelp)
        return .usage
    }
    let rest = Array(arguments.dropFirst())
    if let spec = Commands.all.first(where: { $0.name == command }) { return try spec.main(rest) }
    switch command {
    case "help" where !rest.isEmpty:
        return try dispatch([rest[0], "--help"])
    case "--help", "-h", "help":
        print(Commands.topLevelHelp)
        return .success
    case "--man-page":
        // For docs/segue.1 (a test keeps it current): `segue --man-page > docs/segue.1`.
        print(ManPage.text, terminator: "")
        return .success
    case "--reference":
        // For docs/command-line.md (a test keeps it current): `segue --reference > docs/command-line.md`.
        print(CommandReference.text, terminator: "")
        return .success
    case "--version":
        print("segue \(SegueVersion.string) (animator ABI \(AnimatorABIVersion.string))")
        return .success
    default:
        throw UsageError("unknown command '\(command)'")
    }
}

let code: ExitCode
do {
    code = try dispatch(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("segue: \(error.message)\nRun '\(error.command.map { "segue \($0) --help" } ?? "segue --help")' for usage.")
    code = .usage
}
exit(code.rawValue)
