import HostConfig

/// Which config a command reads: the file `--config` names; else, for the
/// commands that answer about the desktop (check, explain, list, inspect),
/// the standard config the desktop's hosts read (KWin, GNOME Shell, the GTK
/// and Qt widgets: ``PluginHosting/standardConfigPath(environment:)``) when it
/// exists; else the built-in scene. The demos (run, show, preview) play the
/// built-in scene without `--config`.
enum ConfigSource: Equatable, CustomStringConvertible {
    case given(String)
    case standard(String)
    /// The standard config at this path cannot be read: the commands that go
    /// on without it (list, inspect), as the desktop's hosts do, read the
    /// built-in scene's nothing in its place.
    case unreadable(String)
    /// The built-in scene; `standard` is where the standard config was looked for.
    case builtin(standard: String?)

    /// The source for a command given `--config path` (or not), following
    /// the standard config when `followingStandard`.
    init(given path: String?, followingStandard: Bool) {
        if let path {
            self = .given(path)
        } else if followingStandard, let standard = PluginHosting.standardConfigPath() {
            // As libsegue decides: a file that is not there is no config; any other failure is the config's error.
            self = SegueConfig.isAbsent(path: standard) ? .builtin(standard: standard) : .standard(standard)
        } else {
            self = .builtin(standard: nil)
        }
    }

    /// The file to read; nil for the built-in scene.
    var path: String? {
        switch self {
        case .given(let path), .standard(let path): path
        case .builtin, .unreadable: nil
        }
    }

    /// Whether its rules name a program's views, as libsegue reads the standard
    /// config: names are not checked against children.
    var isForViewsOfAProgram: Bool { if case .standard = self { true } else { false } }

    /// What a command says it read: the file, and why when `--config` did not name it.
    var description: String {
        switch self {
        case .given(let path): path
        case .standard(let path): "\(path) (the standard config, which KWin, GNOME Shell and the GTK and Qt widgets read)"
        case .unreadable(let path): "\(path) (the standard config, which cannot be read: segue check says why; gone on without it)"
        case .builtin(let standard?): "\(SegueConfig.builtinSceneLabel) (no --config, and no standard config at \(standard))"
        case .builtin(nil): SegueConfig.builtinSceneLabel
        }
    }

    /// The file as JSON output names it: the path, or the built-in scene's label.
    var file: String {
        if case .unreadable(let path) = self { return path }
        return path ?? SegueConfig.builtinSceneLabel
    }
}
