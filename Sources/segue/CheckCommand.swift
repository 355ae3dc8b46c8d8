import Foundation
import HostConfig
import HostContainer
import PluginHost

/// `segue check`: everything a run of a config could meet, reported before
/// anything plays, for people and for CI.
enum CheckCommand {
    static let about = """
    Reads the config and the plugins it would use, and reports every problem a
    run could meet, each with its file, line, column and key path. Without
    --config it checks the standard config the desktop's hosts read (KWin,
    GNOME Shell, the GTK and Qt widgets) when there is one, as they read it,
    else the built-in scene, and says which first:
      errors    the config cannot be read (with where), a child name that does
                not exist, an unknown animator (with "did you mean"), a
                parameter that is unknown (with "did you mean"), of the wrong
                type or out of range (for a choice, with the names);
      warnings  a rule that can never win, a script step that does nothing, a
                plugin file rejected, a plugin folder named but missing.
    Exits 1 on any error, 0 with warnings only. 'segue run --strict' runs the
    same checks first and refuses to play on an error.
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.check) else { return .success }
        let source = args.configSource(followingStandard: true)
        let result = try check(args, source: source)
        let errors = result.problems.filter { $0.severity == .error }.count
        let warnings = result.problems.count - errors
        let file = result.config?.file ?? source.file
        if args.has("--json") {
            printNow(jsonLine(Report(config: file, errors: errors, warnings: warnings, problems: result.problems.map(Problem.init))))
        } else {
            // Named up front when --config did not name it: the desktop's file, or why the built-in scene.
            if args.single("--config") == nil { printNow("config: \(source)") }
            for problem in result.problems {
                let severity = problem.severity.rawValue
                let styled = problem.severity == .error ? Style.fail(severity) : Style.warn(severity)
                printNow(problem.description.replacingOccurrences(of: ": \(severity): ", with: ": \(styled): ", options: [], range: nil))
            }
            printNow(errors + warnings == 0 ? "\(file): no problems"
                     : "\(file): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
        return errors > 0 ? .failure : .success
    }

    /// The checks for the config `source` names (by default `--config`'s) and
    /// a command's plugin options, and the registry they built.
    static func check(_ args: Arguments, source: ConfigSource? = nil)
        throws(UsageError) -> (config: SegueConfig?, problems: [ConfigProblem], registry: AnimatorRegistry?) {
        let source = source ?? args.configSource()
        var registry: AnimatorRegistry?
        var usage: UsageError?
        let (config, problems) = ConfigCheck.check(path: source.path, forViewsOfAProgram: source.isForViewsOfAProgram) { config in
            do throws(UsageError) {
                registry = try PluginFolders.registry(args, config: config)
            } catch {
                usage = error
            }
            return registry ?? AnimatorRegistry(folders: [])
        }
        if let usage { throw usage }
        // The pictures it names, decoded as a command that draws decodes them.
        return (config, problems + (config.map(PictureFiles.problems(in:)) ?? []).map(ConfigProblem.init), registry)
    }

    /// What `--json` prints.
    struct Report: Encodable {
        var version = 1
        let config: String
        let errors, warnings: Int
        let problems: [Problem]
    }

    struct Problem: Encodable {
        let severity, file, message: String
        let line, column: Int?
        let keyPath: String?

        init(_ p: ConfigProblem) {
            (severity, file, message, line, column, keyPath) = (p.severity.rawValue, p.file, p.message, p.line, p.column, p.keyPath)
        }
    }
}
