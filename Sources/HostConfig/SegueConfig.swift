import Foundation
import HostContainer
import PluginHost
import PluginRuntime
import SystemCalls
import Timing

/// A Segue config file: where plugins are, which animator runs for which
/// transition, the children, and the script `segue run` plays.
///
/// ```json
/// {
///   "plugins": ["plugins"],
///   "defaultAnimator": "SpringSlide",
///   "rules": [{"from": "grid", "to": "detail", "animator": "ImageZoom"},
///             {"to": "file", "animator": "CurlUp", "parameters": {"curve": "easeIn"}}],
///   "children": ["photo", {"name": "file", "color": "#3478F6"}],
///   "script": ["file", "photo"]
/// }
/// ```
/// Unknown keys are errors, so that a typo never goes unnoticed.
public struct SegueConfig: Equatable, Sendable {
    /// A rule: the most specific match wins (from and to, then to only, then
    /// from only; for a view's appearance or disappearance, its exact name,
    /// then the pattern with the most characters that are not wildcards);
    /// among equally specific rules, the first in the file.
    public struct Rule: Equatable, Sendable {
        /// The child being left, or nil for any.
        public var from: String?
        /// The child being shown, or nil for any.
        public var to: String?
        /// The views whose appearance it matches: a name, or a pattern where
        /// `*` is any characters and `?` one (`org.gnome.*`); nil for none.
        public var appear: String?
        /// The views whose disappearance it matches, as ``appear``.
        public var disappear: String?
        /// An animator's short name, or "default" for the built-in one.
        public var animator: String
        /// Parameter values by name, validated when the rule is used.
        public var parameters: [String: ParameterValue]
        /// Where it is in the file, for reports: `rules[2]`.
        public var label: String

        /// A rule; at least one of `from` and `to`, or of `appear` and `disappear`, should be set.
        public init(from: String? = nil, to: String? = nil, appear: String? = nil, disappear: String? = nil,
                    animator: String, parameters: [String: ParameterValue] = [:], label: String) {
            self.from = from
            self.to = to
            self.appear = appear
            self.disappear = disappear
            self.animator = animator
            self.parameters = parameters
            self.label = label
        }
    }

    /// A rule's pattern for a view's name: `*` matches any characters, `?`
    /// one; every other character itself, in either case. Names are matched
    /// case-insensitively because a desktop's names for one program differ in
    /// case: KWin lower-cases an X11 window's class (xprop's `XTerm` is
    /// `xterm`), a Wayland app id keeps the desktop file's (`org.gnome.Calculator`).
    public struct NamePattern: Sendable {
        public let text: String

        public init(_ text: String) { self.text = text }

        /// The text as matched: two patterns with the same `folded` match the same names.
        public var folded: String { text.lowercased() }

        /// Whether it has a wildcard.
        public var isPattern: Bool { text.contains { $0 == "*" || $0 == "?" } }

        /// How specific it is: an exact name beats any pattern, a pattern with
        /// more characters that are not wildcards beats one with fewer.
        public var specificity: Int { isPattern ? 1 + text.filter { $0 != "*" && $0 != "?" }.count : Int(Int32.max) }

        /// Whether `name` matches, as a shell's glob matches a file name, ignoring case.
        public func matches(_ name: String) -> Bool {
            let p = Array(folded.unicodeScalars), s = Array(name.lowercased().unicodeScalars)
            var (i, j, star, mark) = (0, 0, -1, 0)
            while j < s.count {
                if i < p.count && (p[i] == "?" || p[i] == s[j]) {
                    (i, j) = (i + 1, j + 1)
                } else if i < p.count && p[i] == "*" {
                    (star, mark, i) = (i, j, i + 1)
                } else if star >= 0 {
                    (i, mark) = (star + 1, mark + 1)
                    j = mark
                } else {
                    return false
                }
            }
            while i < p.count && p[i] == "*" { i += 1 }
            return i == p.count
        }
    }

    /// A named element of a child's view.
    public struct Element: Equatable, Sendable {
        /// The element's name, unique within its child.
        public var name: String
        /// In the child's coordinates.
        public var frame: Rect
        /// What it shows: a procedural image, a picture file, a label, or nothing.
        public var content: ViewContent
        /// Its background colour; white when nil.
        public var color: Color?
    }

    /// A child of the container.
    public struct Child: Equatable, Sendable {
        /// The child's name, unique in the config.
        public var name: String
        /// Its background colour; one from a fixed palette when nil.
        public var color: Color?
        /// Its named elements, in order.
        public var elements: [Element]
        /// What its view shows over its colour: a picture file (`"picture"`), or nothing.
        public var content: ViewContent = .none
        /// A window's frame in the container; nil for a child (the container's bounds).
        public var frame: Rect?

        /// A child named `name`.
        public init(name: String, color: Color? = nil, elements: [Element] = [], content: ViewContent = .none) {
            (self.name, self.color, self.elements, self.content) = (name, color, elements, content)
        }
    }

    /// Where the config names what only a host that draws reads (a picture
    /// file, a font): what a renderer reports one it cannot use at. The config
    /// itself only checks that a picture is a file that starts as a PNG or JPEG does.
    public struct DrawingUse: Equatable, Sendable {
        /// The picture file, absolute; the font's family name, or its file, absolute.
        public var path: String
        /// The key that names it, like `$.children[1].picture`, and where that is in the file.
        public var keyPath: String
        public var line: Int?, column: Int?
        /// Where it was named when not in the config file (`"the command line"`); nil: the file.
        public var origin: String?

        /// A picture `keyPath` names, in the config file unless `origin` says where else.
        public init(path: String, keyPath: String, line: Int? = nil, column: Int? = nil, origin: String? = nil) {
            (self.path, self.keyPath, self.line, self.column, self.origin) = (path, keyPath, line, column, origin)
        }
    }

    /// The config file's path ("<built-in scene>" for the built-in one).
    public var file: String
    /// Plugin folders, absolute: a leading `~`, `$HOME` or `${HOME}` is the
    /// home folder, and other relative entries are relative to the config's folder.
    public var plugins: [String] = []
    /// The curves parameters can name: the five named ones and the config's own `curves`.
    public var curves: CurveBook = .standard
    /// The animator for transitions no rule matches; the built-in default when nil.
    public var defaultAnimator: String?
    /// Where plugin code runs (`"isolation"`: `"process"` or `"none"`); nil when the config does not say.
    public var isolation: PluginIsolation?
    /// Whether workers confine plugin code (`"sandbox"`: `"strict"` or `"off"`); nil when the config does not say.
    public var sandbox: SandboxPolicy.Mode?
    /// The address space a worker may use, in bytes (`"limits": {"memory": "512MiB"}`); nil when the config does not say.
    public var memoryLimit: UInt64?
    /// The threads a worker may have at once (`"limits": {"threads": 64}`); nil when the config does not say.
    public var threadLimit: Int?
    /// The address space all of a player's workers may use together (`"limits": {"totalMemory": "2GiB"}`); nil when the config does not say.
    public var totalMemory: UInt64?
    /// The rules, in file order.
    public var rules: [Rule] = []
    /// The children, in order; the first is shown first.
    public var children: [Child] = []
    /// Windows the script presents over the shown child and dismisses
    /// (`{"present": "name"}`), each with its frame.
    public var windows: [Child] = []
    /// The steps to play in order, starting from the first child shown.
    public var script: [ScriptStep] = []
    /// Every picture file the children and elements show, in file order.
    public var pictures: [DrawingUse] = []
    /// The typeface labels are drawn in (`"font"`: a family name fontconfig
    /// matches, or a font file relative to the config); nil: the standard one.
    public var font: DrawingUse?

    /// Whether a font's name (`"font"`, `--font`) is a file's rather than a
    /// family's: it has a '/' or ends as a font file does.
    public static func namesFontFile(_ name: String) -> Bool {
        name.contains("/") || [".ttf", ".otf", ".ttc", ".pfb", ".pfa"].contains { name.lowercased().hasSuffix($0) }
    }

    /// An empty config labelled `file`: no folders, rules, children or script.
    public init(file: String) { self.file = file }

    /// Whether there is no file at `path` (`ENOENT`): an optional config that
    /// is absent is no config, while one that cannot be read for another
    /// reason is an error. The one test of it, for libsegue's player, its
    /// reloader and the tool.
    public static func isAbsent(path: String) -> Bool { access(path, F_OK) != 0 && errno == ENOENT }

    /// Reads the config at `path`: a file, or any readable stream (a pipe,
    /// `/dev/stdin`); `-` is standard input.
    /// - Throws: ``ConfigError`` naming the file, the line and column, the key
    ///   path, what was expected and what was found.
    /// - Parameter forViewsOfAProgram: the config is a player's (libsegue):
    ///   its rules name the program's views, which it cannot know, so they
    ///   are not checked against its children or the built-in scene's.
    public static func load(path: String, forViewsOfAProgram: Bool = false) throws(ConfigError) -> SegueConfig {
        let (bytes, file, base) = try read(path: path)
        return try parse(bytes, file: file, baseDirectory: base, collecting: false, checksNames: !forViewsOfAProgram).config
    }

    /// Parses config JSON (strict RFC 8259: see docs/configuration.md); relative plugin
    /// folders are resolved against `baseDirectory`.
    /// - Throws: ``ConfigError``, with the line and column of the problem.
    public static func parse(_ data: Data, file: String, baseDirectory: String) throws(ConfigError) -> SegueConfig {
        try parse([UInt8](data), file: file, baseDirectory: baseDirectory, collecting: false).config
    }

    /// A config read for `segue check`: child names that do not exist are
    /// collected rather than thrown, so that every problem can be reported.
    struct Checked {
        var config: SegueConfig
        var text: [UInt8]
        var childProblems: [ConfigError]
    }

    /// Parameter values written as a rule's `parameters` object
    /// (`{"duration": 0.6, "curve": "easeOut"}`), read as a config reads them.
    /// - Parameter label: what the text is, for errors (its key path is `$`).
    /// - Throws: ``ConfigError`` naming the line, column and key when the text
    ///   is not such an object.
    public static func parameters(json bytes: [UInt8], label: String) throws(ConfigError) -> [String: ParameterValue] {
        try ConfigReader(file: label, baseDirectory: "/", collecting: false).parameters(try document(bytes, file: label), "$")
    }

    /// `bytes` as a JSON document; a syntax error names `file`, the line and the column.
    private static func document(_ bytes: [UInt8], file: String) throws(ConfigError) -> JSONValue {
        do {
            return try JSONReader.parse(bytes)
        } catch {
            let (line, column) = JSONReader.lineAndColumn(of: error.offset, in: bytes)
            throw ConfigError(file: file, line: line, column: column, keyPath: error.keyPath,
                              expected: error.expected, found: error.found)
        }
    }

    static func loadForCheck(path: String, checksNames: Bool = true) throws(ConfigError) -> Checked {
        let (bytes, file, base) = try read(path: path)
        let (config, problems) = try parse(bytes, file: file, baseDirectory: base, collecting: true, checksNames: checksNames)
        return Checked(config: config, text: bytes, childProblems: problems)
    }

    /// The largest config read: far beyond any real one (100,000 children take a few MB).
    static let maximumSize = 64 << 20

    /// The bytes at `path` (`-`: standard input), the name to give in
    /// messages, and the folder relative plugin folders start from.
    private static func read(path: String) throws(ConfigError) -> ([UInt8], String, String) {
        let fd = path == "-" ? dup(0) : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = Errno.current
            throw ConfigError(file: path, keyPath: "$", expected: "a readable JSON file",
                              found: error == .noSuchFile ? "no such file" : "a file that cannot be read (\(error))")
        }
        defer { close(fd) }
        // Read in pieces up to the limit and one byte past it, so that an endless
        // file (/dev/zero) is refused instead of filling memory; a FIFO nobody
        // writes to waits, as cat would.
        let bytes: [UInt8]
        do {
            bytes = try SystemCall.read(fd, upTo: maximumSize + 1)
        } catch {
            throw ConfigError(file: path, keyPath: "$", expected: "a readable JSON file", found: "a file that cannot be read (\(error))")
        }
        guard bytes.count <= maximumSize else {
            throw ConfigError(file: path, keyPath: "$", expected: "a config of at most \(maximumSize >> 20) MiB",
                              found: "a larger one (the config is larger than \(maximumSize >> 20) MiB)")
        }
        let base = path == "-" ? FileManager.default.currentDirectoryPath : URL(fileURLWithPath: path).deletingLastPathComponent().path
        return (bytes, path == "-" ? "<stdin>" : path, base)
    }

    private static func parse(_ bytes: [UInt8], file: String, baseDirectory: String, collecting: Bool,
                              checksNames: Bool = true) throws(ConfigError) -> (config: SegueConfig, problems: [ConfigError]) {
        func located(_ error: ConfigError) -> ConfigError {
            var error = error
            if error.line == nil, let offset = JSONReader.offset(of: error.keyPath, in: bytes) {
                (error.line, error.column) = JSONReader.lineAndColumn(of: offset, in: bytes)
            }
            return error
        }
        let document = try document(bytes, file: file)
        do {
            let reader = ConfigReader(file: file, baseDirectory: baseDirectory, collecting: collecting, checksNames: checksNames)
            var (config, problems) = try reader.config(document)
            // Where each picture and the font are named, for what a renderer finds wrong with them later.
            if var font = config.font {
                let place = located(ConfigError(file: file, keyPath: font.keyPath, expected: "", found: ""))
                (font.line, font.column) = (place.line, place.column)
                config.font = font
            }
            for (i, child) in config.children.enumerated() {
                let shown = [("$.children[\(i)].picture", child.content)]
                    + child.elements.enumerated().map { ("$.children[\(i)].elements[\($0.offset)].picture", $0.element.content) }
                for case let (keyPath, .picture(path, _)) in shown {
                    let place = located(ConfigError(file: file, keyPath: keyPath, expected: "", found: ""))
                    config.pictures.append(SegueConfig.DrawingUse(path: path, keyPath: keyPath, line: place.line, column: place.column))
                }
            }
            return (config, problems.map(located))
        } catch {
            throw located(error)
        }
    }
}
