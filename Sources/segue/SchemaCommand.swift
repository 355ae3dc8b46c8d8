import HostConfig
import HostContainer

/// `segue schema`: the config's JSON Schema, for editors.
enum SchemaCommand {
    static let about = """
    Prints the JSON Schema (draft 2020-12) of Segue config files, so that
    editors complete and check configs: save it, and point your editor's JSON
    schema setting at it, or add "$schema" to a config. It is also in the
    repository as docs/segue-config.schema.json. The schema knows the format;
    'segue check' also knows the plugins.
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let args = try Arguments(arguments, command: Commands.schema)
        print(args.has("--help") ? Commands.schema.help : SegueConfig.jsonSchema)
        return .success
    }
}
