import Foundation
import HostContainer

/// Where the tool looks for plugins, in order:
/// 1. every `--plugins DIR`, in the order given;
/// 2. the config's `plugins` folders, relative to the config file;
/// 3. only when neither gives any: `./plugins` (when it exists), then the
///    folder the `segue` executable is in (where SwiftPM puts the built
///    plugin `.so` files).
enum PluginFolders {
    static func resolve(commandLine: [String], config: SegueConfig?) -> [String] {
        let given = commandLine.map(absolute) + (config?.plugins ?? [])
        if !given.isEmpty { return given }
        let local = absolute("plugins")
        return (FileManager.default.fileExists(atPath: local) ? [local] : []) + [executableFolder()]
    }

    /// `path` relative to the current folder when it lies inside it, for people.
    static func display(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(cwd) ? String(path.dropFirst(cwd.count)) : path
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/"))
            .standardizedFileURL.path
    }

    static func executableFolder() -> String {
        (executablePath() as NSString).deletingLastPathComponent
    }

    /// The running `segue` executable.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? absolute(CommandLine.arguments[0])
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// One line of JSON, keys sorted, for scripts.
func jsonLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
}

/// Where an animator came from, as reports and `--json` say it.
extension AnimatorSource {
    var kind: String {
        switch self {
        case .builtin: "builtin"
        case .plugin: "plugin"
        case .application: "application"
        }
    }

    var file: String? {
        if case .plugin(let path) = self { return path }
        return nil
    }
}
