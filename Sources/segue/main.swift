import Foundation
import HostContainer
import PluginRuntime

// segue: the command-line face of the Segue plugin host.
// Exit codes: 0 ok, 1 failure, 2 usage.

let help = """
USAGE: segue <command> [options]

Segue hosts view-transition animators: plugins (.so files) chosen by name in
a config file, with a built-in default when none matches.

COMMANDS:
  run     Play a config's script (or the built-in scene) and report each transition.
  check   Report every problem a run of a config could meet (exit 1 on an error).
  explain Say which animator a switch FROM TO would run, with which parameters, and why.
  list    List the animators found in the plugin folders, and the files rejected.
  inspect Show everything about one animator: its file, id, version and parameters.
  preview Render one transition by one animator to an animated GIF or a PNG filmstrip.
  validate Check a plugin file in a child process: a crash or a hang is reported, not suffered.
  schema  Print the JSON Schema of config files, for editors.
  completions
          Print the shell completions for bash, zsh or fish.
  help COMMAND
          Show a command's help (like 'segue COMMAND --help').

Run 'segue <command> --help' for a command's options. 'segue --version' prints
the version and the animator ABI version.
"""

func dispatch(_ arguments: [String]) throws(UsageError) -> ExitCode {
    guard let command = arguments.first else {
        print(help)
        return .usage
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "run": return try RunCommand.main(rest)
    case "list": return try ListCommand.main(rest)
    case "check": return try CheckCommand.main(rest)
    case "inspect": return try InspectCommand.main(rest)
    case "explain": return try ExplainCommand.main(rest)
    case "preview": return try PreviewCommand.main(rest)
    case "validate": return try ValidateCommand.main(rest)
    case "completions": return try CompletionsCommand.main(rest)
    case "schema": return try SchemaCommand.main(rest)
    case "help" where !rest.isEmpty:
        return try dispatch([rest[0], "--help"])
    case "--help", "-h", "help":
        print(help)
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
