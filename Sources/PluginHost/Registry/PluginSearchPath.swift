import AnimatorABI
import Foundation

/// A folder plugins are looked for in, and why it is searched.
public struct PluginFolder: Sendable, Equatable {
    /// Where a folder in the search path came from.
    public enum Origin: String, Sendable {
        /// Named by the program: `--plugins DIR`, or an embedder's own list.
        case given
        /// One of `SEGUE_PLUGIN_PATH`'s folders.
        case environment = "SEGUE_PLUGIN_PATH"
        /// The config file's `plugins`.
        case config
        /// The user's folder, `$XDG_DATA_HOME/segue/plugins`.
        case user
        /// The installation's folder, `PREFIX/lib/segue/plugins`, or one of
        /// `SEGUE_PLUGIN_SYSTEM_PATH`'s folders.
        case system
        /// The plugins built beside the executable (a build folder).
        case bundled
    }

    /// The folder's absolute path.
    public var path: String
    /// Why it is searched.
    public var origin: Origin

    /// A folder to search.
    public init(_ path: String, origin: Origin) {
        (self.path, self.origin) = (path, origin)
    }

    /// Whether someone named this folder, so that its absence deserves a
    /// warning; the standard folders are often absent, and that is normal.
    public var isNamed: Bool { origin == .given || origin == .environment || origin == .config }
}

/// The standard plugin search path, in the conventions of GStreamer
/// (`GST_PLUGIN_PATH`, `GST_PLUGIN_SYSTEM_PATH`) and CLAP (`CLAP_PATH`).
///
/// In order, earlier folders winning a name clash:
/// 1. the folders the program names (`--plugins DIR`, in the order given);
/// 2. `SEGUE_PLUGIN_PATH`, colon-separated like `PATH`;
/// 3. the config's `plugins`;
/// 4. the user's folder, `$XDG_DATA_HOME/segue/plugins`
///    (`~/.local/share/segue/plugins`);
/// 5. the installation's folder, `PREFIX/lib/segue/plugins`, where `PREFIX` is
///    the folder above the one holding the executable;
/// 6. the bundled plugins in the executable's own folder (a build folder;
///    skipped when that folder is called `bin`, an installed layout, whose
///    bundled plugins are in the installation's folder).
///
/// Adding a folder never hides a later one. `SEGUE_PLUGIN_SYSTEM_PATH`, when
/// set, replaces folders 5 and 6 with its own (none when it is empty), for
/// people who want only their own plugins. A folder listed twice is searched
/// once, where it first appears.
public enum PluginSearchPath {
    /// The standard search path.
    /// - Parameters:
    ///   - given: folders the program names, searched first.
    ///   - config: the config's `plugins` folders (already expanded; see ``SegueConfig``).
    ///   - executable: the running program (or libsegue's library); its folder
    ///     locates the installation and the bundled plugins.
    ///   - installedIn: the names of the folder `executable` has when installed
    ///     (`bin` for a program, `lib` for a library): PREFIX is its parent, and
    ///     the folder itself is no bundled plugin folder. Any other folder is a
    ///     build folder, whose plugins lie beside the executable.
    ///   - environment: where `SEGUE_PLUGIN_PATH`, `SEGUE_PLUGIN_SYSTEM_PATH`,
    ///     `XDG_DATA_HOME` and `HOME` are read.
    public static func standard(
        given: [String] = [], config: [String] = [], executable: String = currentExecutable(),
        installedIn: Set<String> = ["bin"], environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [PluginFolder] {
        var folders = given.map { PluginFolder($0, origin: .given) }
        folders += list(environment["SEGUE_PLUGIN_PATH"], environment).map { PluginFolder($0, origin: .environment) }
        folders += config.map { PluginFolder($0, origin: .config) }
        if let user = userFolder(environment) { folders.append(PluginFolder(user, origin: .user)) }
        if let system = environment["SEGUE_PLUGIN_SYSTEM_PATH"] {
            folders += list(system, environment).map { PluginFolder($0, origin: .system) }
        } else {
            let bin = (executable as NSString).deletingLastPathComponent
            let prefix = (bin as NSString).deletingLastPathComponent
            folders.append(PluginFolder(prefix + "/lib/segue/plugins", origin: .system))
            if !installedIn.contains((bin as NSString).lastPathComponent) { folders.append(PluginFolder(bin, origin: .bundled)) }
        }
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.path).inserted }
    }

    /// libsegue's file as SwiftPM builds it, beside the bundled plugins: the
    /// host itself, never examined as a plugin. (Installed, it is
    /// PREFIX/lib/libsegue.so.1, outside every plugin folder.)
    public static let hostLibrary = "libSegueEmbedding.so"

    /// `$XDG_DATA_HOME/segue/plugins`, or `$HOME/.local/share/segue/plugins`
    /// when `XDG_DATA_HOME` is unset, empty or relative (as the XDG base
    /// directory specification says); nil without either.
    public static func userFolder(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/segue/plugins" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/share/segue/plugins"
    }

    /// The running program's path (`/proc/self/exe`).
    public static func currentExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// `path` with a leading `~`, `$HOME` or `${HOME}` replaced by the home
    /// folder (`HOME`); other text is left as it is.
    public static func expandingHome(_ path: String,
                                     environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let home = environment["HOME"], !home.isEmpty else { return path }
        for prefix in ["~", "$HOME", "${HOME}"] where path == prefix || path.hasPrefix(prefix + "/") {
            return home + path.dropFirst(prefix.count)
        }
        return path
    }

    /// A colon-separated list's folders, `~` expanded and relative ones made
    /// absolute from the current folder; empty entries are skipped.
    private static func list(_ value: String?, _ environment: [String: String]) -> [String] {
        (value ?? "").split(separator: ":").map { entry in
            let path = expandingHome(String(entry), environment: environment)
            return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
    }
}
