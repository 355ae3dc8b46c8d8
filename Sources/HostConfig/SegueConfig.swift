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
    /// from only); among equally specific rules, the first in the file.
    public struct Rule: Equatable, Sendable {
        /// The child being left, or nil for any.
        public var from: String?
        /// The child being shown, or nil for any.
        public var to: String?
        /// An animator's short name, or "default" for the built-in one.
        public var animator: String
        /// Parameter values by name, validated when the rule is used.
        public var parameters: [String: ParameterValue]
        /// Where it is in the file, for reports: `rules[2]`.
        public var label: String

        /// A rule; at least one of `from` and `to` should be set.
        public init(from: String? = nil, to: String? = nil, animator: String,
                    parameters: [String: ParameterValue] = [:], label: String) {
            self.from = from
            self.to = to
            self.animator = animator
            self.parameters = parameters
            self.label = label
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
    /// The rules, in file order.
    public var rules: [Rule] = []
    /// The children, in order; the first is shown first.
    public var children: [Child] = []
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

    static func loadForCheck(path: String) throws(ConfigError) -> Checked {
        let (bytes, file, base) = try read(path: path)
        let (config, problems) = try parse(bytes, file: file, baseDirectory: base, collecting: true)
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

/// Walks a config document, naming the key path of every problem.
private struct ConfigReader {
    let file: String
    let baseDirectory: String
    /// Collect child names that do not exist instead of throwing at the first (for `segue check`).
    let collecting: Bool
    /// Check the names rules and the script use against the children (not for a player's config).
    var checksNames = true
    /// Frames are in points; a phone is a few hundred, a wall a few thousand.
    static let coordinateLimit = 100_000.0
    /// A flick is a few container widths per second.
    static let velocityLimit = 1_000.0

    func fail(_ path: String, expected: String, found: JSONValue) -> ConfigError {
        ConfigError(file: file, keyPath: path, expected: expected, found: found.found)
    }

    func object(_ value: JSONValue, _ path: String, keys allowed: [String]) throws(ConfigError) -> [String: JSONValue] {
        guard case .object(let members) = value else { throw fail(path, expected: "an object", found: value) }
        for key in members.keys.sorted() where !allowed.contains(key) {
            throw ConfigError(file: file, keyPath: "\(path).\(key)",
                              expected: "one of the keys \(allowed.map { "'\($0)'" }.joined(separator: ", "))",
                              found: "the unknown key '\(key)'")
        }
        return members
    }

    func string(_ value: JSONValue, _ path: String) throws(ConfigError) -> String {
        guard case .string(let s) = value, !s.isEmpty else { throw fail(path, expected: "a non-empty string", found: value) }
        return s
    }

    func array(_ value: JSONValue, _ path: String) throws(ConfigError) -> [JSONValue] {
        guard case .array(let items) = value else { throw fail(path, expected: "an array", found: value) }
        return items
    }

    /// A worker's memory limit: a size as people write it ("512MiB", "1G") or a number of bytes, at least the minimum.
    /// A rule's `parameters`: an object of numbers, booleans and strings, by name.
    func parameters(_ value: JSONValue, _ path: String) throws(ConfigError) -> [String: ParameterValue] {
        guard case .object(let members) = value else { throw fail(path, expected: "an object", found: value) }
        var parameters: [String: ParameterValue] = [:]
        for (key, value) in members {
            switch value {
            case .number(let n): parameters[key] = .number(n)
            case .bool(let b): parameters[key] = .bool(b)
            case .string(let s): parameters[key] = .string(s)
            default: throw fail("\(path).\(key)", expected: "a number, a boolean or a string", found: value)
            }
        }
        return parameters
    }

    func memorySize(_ value: JSONValue, _ path: String) throws(ConfigError) -> UInt64 {
        let bytes: UInt64?
        switch value {
        case .string(let text): bytes = SandboxPolicy.memory(text)
        case .number(let number): bytes = number >= 0 && number < 0x1p63 && number == number.rounded() ? UInt64(number) : nil
        default: bytes = nil
        }
        guard let bytes, bytes >= SandboxPolicy.minimumMemoryLimit else {
            throw fail(path, expected: "a size of at least \(SandboxPolicy.formatted(SandboxPolicy.minimumMemoryLimit)), like \"512MiB\" or \"2GiB\" (or a number of bytes)", found: value)
        }
        return bytes
    }

    func config(_ document: JSONValue) throws(ConfigError) -> (SegueConfig, [ConfigError]) {
        var deferred: [ConfigError] = []
        let top = try object(document, "$", keys: ["plugins", "defaultAnimator", "isolation", "sandbox", "limits", "curves", "font", "rules", "children", "script"])
        var config = SegueConfig(file: file)
        if let plugins = top["plugins"] {
            for (i, item) in try array(plugins, "$.plugins").enumerated() {
                let folder = PluginSearchPath.expandingHome(try string(item, "$.plugins[\(i)]"))
                config.plugins.append(folder.hasPrefix("/") ? folder : (baseDirectory as NSString).appendingPathComponent(folder))
            }
        }
        if let value = top["curves"] {
            guard case .object(let members) = value else { throw fail("$.curves", expected: "an object of named curves", found: value) }
            var custom: [String: TimingCurve] = [:], springs: [String: Spring] = [:]
            for name in members.keys.sorted() {
                let path = "$.curves.\(name)"
                guard !name.isEmpty, CurveBook.standard.index(of: name) == nil, name != "spring" else {
                    throw ConfigError(file: file, keyPath: path, expected: "a name of your own (not one of the named curves or \"spring\")",
                                      found: "'\(name)'")
                }
                if case .object = members[name]! {
                    // A physical spring, as libadwaita, niri and Hyprland state one.
                    let s = try object(members[name]!, path, keys: ["stiffness", "damping", "mass"])
                    var numbers: [Double] = []
                    for key in ["stiffness", "damping", "mass"] {
                        guard let v = s[key], case .number(let n) = v, n.isFinite, n > 0, n <= 1e6 else {
                            throw fail("\(path).\(key)", expected: "a positive number up to 1000000", found: s[key] ?? .null)
                        }
                        numbers.append(n)
                    }
                    guard let spring = Spring(stiffness: numbers[0], damping: numbers[1], mass: numbers[2]),
                          spring.duration <= ActiveTransition.maximumDuration else {
                        throw fail(path, expected: "a spring that settles within \(Int(ActiveTransition.maximumDuration)) s (more damping or stiffness, less mass)",
                                   found: members[name]!)
                    }
                    springs[name] = spring
                    continue
                }
                guard case .array(let items) = members[name]!, items.count == 4,
                      case .number(let x1) = items[0], case .number(let y1) = items[1],
                      case .number(let x2) = items[2], case .number(let y2) = items[3],
                      (0...1).contains(x1), (0...1).contains(x2), abs(y1) <= 10, abs(y2) <= 10 else {
                    throw fail(path, expected: "[x1, y1, x2, y2]: a cubic Bezier's control points, x1 and x2 in [0, 1], y1 and y2 within ±10",
                               found: members[name]!)
                }
                custom[name] = TimingCurve(x1: x1, y1: y1, x2: x2, y2: y2)
            }
            config.curves = CurveBook(custom: custom, springs: springs)
        }
        if let name = top["defaultAnimator"] { config.defaultAnimator = try string(name, "$.defaultAnimator") }
        if let value = top["font"] {
            // A font file is relative to the config; anything else is a family name.
            let name = PluginSearchPath.expandingHome(try string(value, "$.font"))
            let font = SegueConfig.namesFontFile(name) && !name.hasPrefix("/") ? (baseDirectory as NSString).appendingPathComponent(name) : name
            config.font = SegueConfig.DrawingUse(path: font, keyPath: "$.font")
        }
        if let value = top["isolation"] {
            guard case .string(let text) = value, let isolation = PluginIsolation(rawValue: text) else {
                throw fail("$.isolation", expected: "\"process\" or \"none\"", found: value)
            }
            config.isolation = isolation
        }
        if let value = top["sandbox"] {
            guard case .string(let text) = value, let mode = SandboxPolicy.Mode(rawValue: text) else {
                throw fail("$.sandbox", expected: "\"strict\" or \"off\"", found: value)
            }
            config.sandbox = mode
        }
        if let value = top["limits"] {
            let limits = try object(value, "$.limits", keys: ["memory", "threads"])
            if let memory = limits["memory"] { config.memoryLimit = try memorySize(memory, "$.limits.memory") }
            if let threads = limits["threads"] {
                let range = SandboxPolicy.threadLimits
                guard case .number(let n) = threads, n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
                    throw fail("$.limits.threads", expected: "a whole number from \(range.lowerBound) to \(range.upperBound)", found: threads)
                }
                config.threadLimit = Int(n)
            }
        }
        var names: Set<String> = []  // linear: a config may have 100,000 children
        if let children = top["children"] {
            for (i, item) in try array(children, "$.children").enumerated() {
                let child = try self.child(item, "$.children[\(i)]")
                guard names.insert(child.name).inserted else {
                    throw fail("$.children[\(i)]", expected: "a child name not used before", found: .string(child.name))
                }
                config.children.append(child)
            }
        }
        // Without children, the config plays the built-in scene's: names are checked against those.
        let children = names.isEmpty && file != SegueConfig.builtinSceneLabel ? SegueConfig.builtinScene.children : config.children
        if names.isEmpty { names = Set(children.map(\.name)) }
        func checkChild(_ value: JSONValue, _ path: String) throws(ConfigError) -> String {
            let name = try string(value, path)
            if checksNames && !names.isEmpty && !names.contains(name) {
                let all = children.map(\.name)
                let listed = all.count > 8 ? all.prefix(8).joined(separator: ", ") + ", ... (\(all.count) in all)" : all.joined(separator: ", ")
                let hint = NameSuggestion.hint(for: name, in: all)
                let error = ConfigError(file: file, keyPath: path, expected: "the name of a child (\(listed))",
                                        found: value.found + hint)
                guard collecting else { throw error }
                deferred.append(error)
            }
            return name
        }
        if let rules = top["rules"] {
            for (i, item) in try array(rules, "$.rules").enumerated() {
                let path = "$.rules[\(i)]"
                let r = try object(item, path, keys: ["from", "to", "animator", "parameters"])
                let from = try r["from"].map { v throws(ConfigError) in try checkChild(v, "\(path).from") }
                let to = try r["to"].map { v throws(ConfigError) in try checkChild(v, "\(path).to") }
                if from == nil && to == nil {
                    throw fail(path, expected: "'from', 'to' or both (a rule for every transition is 'defaultAnimator')", found: item)
                }
                guard let animatorValue = r["animator"] else {
                    throw ConfigError(file: file, keyPath: "\(path).animator", expected: "an animator name", found: "nothing (the key is missing)")
                }
                let animator = try string(animatorValue, "\(path).animator")
                let parameters = try r["parameters"].map { p throws(ConfigError) in try self.parameters(p, "\(path).parameters") } ?? [:]
                config.rules.append(SegueConfig.Rule(
                    from: from, to: to, animator: animator, parameters: parameters, label: "rules[\(i)]"))
            }
        }
        if let script = top["script"] {
            for (i, item) in try array(script, "$.script").enumerated() {
                config.script.append(try step(item, "$.script[\(i)]", checkChild: checkChild))
            }
        }
        return (config, deferred)
    }

    func step(_ value: JSONValue, _ path: String,
              checkChild: (JSONValue, String) throws(ConfigError) -> String) throws(ConfigError) -> ScriptStep {
        if case .string = value { return ScriptStep(child: try checkChild(value, path)) }
        guard case .object = value else { throw fail(path, expected: "a child name or an object with 'select'", found: value) }
        let s = try object(value, path, keys: ["select", "interactive", "release", "velocity"])
        guard let select = s["select"] else {
            throw ConfigError(file: file, keyPath: "\(path).select", expected: "the name of the child to select",
                              found: "nothing (the key is missing)")
        }
        var step = ScriptStep(child: try checkChild(select, "\(path).select"))
        if let list = s["interactive"] {
            guard case .array(let items) = list, !items.isEmpty else {
                throw fail("\(path).interactive", expected: "a non-empty array of fractions from 0 to 1", found: list)
            }
            step.interactive = []
            for (i, item) in items.enumerated() {
                guard case .number(let f) = item, (0...1).contains(f) else {
                    throw fail("\(path).interactive[\(i)]", expected: "a fraction from 0 to 1", found: item)
                }
                step.interactive!.append(f)
            }
        }
        for key in ["release", "velocity"] where s[key] != nil && step.interactive == nil {
            throw ConfigError(file: file, keyPath: "\(path).\(key)", expected: "'\(key)' only with 'interactive'",
                              found: "a step that is not interactive")
        }
        if let release = s["release"] {
            guard case .string(let r) = release, let value = ScriptStep.Release(rawValue: r) else {
                let names = ScriptStep.Release.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                throw fail("\(path).release", expected: "one of \(names)", found: release)
            }
            step.release = value
        }
        if let velocity = s["velocity"] {
            guard case .number(let v) = velocity, abs(v) <= Self.velocityLimit else {
                throw fail("\(path).velocity", expected: "a number of container widths per second within ±\(Int(Self.velocityLimit))",
                           found: velocity)
            }
            step.velocity = v
        }
        return step
    }

    func child(_ value: JSONValue, _ path: String) throws(ConfigError) -> SegueConfig.Child {
        if case .string = value { return SegueConfig.Child(name: try string(value, path), color: nil, elements: []) }
        guard case .object = value else { throw fail(path, expected: "a child name or an object with 'name'", found: value) }
        let c = try object(value, path, keys: ["name", "color", "picture", "fit", "elements"])
        guard let nameValue = c["name"] else {
            throw ConfigError(file: file, keyPath: "\(path).name", expected: "the child's name", found: "nothing (the key is missing)")
        }
        var child = SegueConfig.Child(name: try string(nameValue, "\(path).name"), color: nil, elements: [])
        if let color = c["color"] { child.color = try self.color(color, "\(path).color") }
        if let picture = try picture(c, path) { child.content = picture }
        if let elements = c["elements"] {
            var elementNames: Set<String> = []
            for (i, item) in try array(elements, "\(path).elements").enumerated() {
                let ep = "\(path).elements[\(i)]"
                let e = try object(item, ep, keys: ["name", "frame", "image", "picture", "fit", "label", "color"])
                guard let n = e["name"], let f = e["frame"] else {
                    throw ConfigError(file: file, keyPath: ep, expected: "an element with 'name' and 'frame'",
                                      found: "an object with \(e.keys.sorted().joined(separator: ", "))")
                }
                let name = try string(n, "\(ep).name")
                guard elementNames.insert(name).inserted else {
                    throw fail("\(ep).name", expected: "an element name not used before in this child", found: n)
                }
                guard case .array(let members) = f, members.count == 4 else {
                    throw fail("\(ep).frame", expected: "[x, y, width, height] with a width and height of 0 or more", found: f)
                }
                var numbers: [Double] = []
                for (i, member) in members.enumerated() {
                    guard case .number(let v) = member else { throw fail("\(ep).frame[\(i)]", expected: "a number", found: member) }
                    numbers.append(v)
                }
                let (x, y, w, h) = (numbers[0], numbers[1], numbers[2], numbers[3])
                guard w >= 0, h >= 0 else {
                    throw fail("\(ep).frame", expected: "[x, y, width, height] with a width and height of 0 or more", found: f)
                }
                // Every number that feeds arithmetic is bounded: a frame beyond this is a typo, not a layout.
                for (i, v) in [x, y, w, h].enumerated() where abs(v) > Self.coordinateLimit {
                    throw fail("\(ep).frame[\(i)]", expected: "a coordinate within ±\(Int(Self.coordinateLimit)) points", found: .number(v))
                }
                var content = ViewContent.none
                let shown = ["image", "picture", "label"].filter { e[$0] != nil }
                if shown.count > 1 {
                    throw ConfigError(file: file, keyPath: "\(ep).\(shown[1])", expected: "one of 'image', 'picture' and 'label', not more",
                                      found: shown.map { "'\($0)'" }.joined(separator: " and "))
                }
                if let picture = try picture(e, ep) {
                    content = picture
                } else if let image = e["image"] {
                    guard case .number(let seed) = image, seed == seed.rounded(), abs(seed) < 1e9 else {
                        throw fail("\(ep).image", expected: "a whole number (the picture's seed)", found: image)
                    }
                    content = .image(seed: Int(seed))
                } else if let label = e["label"] {
                    content = .label(try string(label, "\(ep).label"))
                }
                child.elements.append(SegueConfig.Element(
                    name: name, frame: Rect(x: x, y: y, width: w, height: h), content: content,
                    color: try e["color"].map { v throws(ConfigError) in try color(v, "\(ep).color") }))
            }
        }
        return child
    }

    /// The picture file `object` names (`"picture"`, with `"fit"`), checked to
    /// be a regular file that starts as a PNG or JPEG does; nil when it names none.
    func picture(_ object: [String: JSONValue], _ path: String) throws(ConfigError) -> ViewContent? {
        guard let value = object["picture"] else {
            if let fit = object["fit"] {
                throw fail("\(path).fit", expected: "'fit' only beside 'picture'", found: fit)
            }
            return nil
        }
        let name = PluginSearchPath.expandingHome(try string(value, "\(path).picture"))
        let file = name.hasPrefix("/") ? name : (baseDirectory as NSString).appendingPathComponent(name)
        var fit = PictureFit.cover
        if let f = object["fit"] {
            guard case .string(let text) = f, let chosen = PictureFit(rawValue: text) else {
                throw fail("\(path).fit", expected: "one of " + PictureFit.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "), found: f)
            }
            fit = chosen
        }
        if let problem = Self.pictureFileProblem(file) {
            throw ConfigError(file: self.file, keyPath: "\(path).picture", expected: "a PNG or JPEG file", found: "\(file): \(problem)")
        }
        return .picture(path: file, fit: fit)
    }

    /// Why `path` is not a picture file, judged from what it is and its first
    /// bytes (decoding is the renderer's); nil when it may be one.
    static func pictureFileProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "nothing (no such file)" }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "a folder"
        default: return "a device or other special file"
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "a file that cannot be read" }
        defer { try? handle.close() }
        let start = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
        guard ViewContent.pictureFormat(of: start) != nil else {
            return start.isEmpty ? "an empty file" : "a file that starts as neither a PNG nor a JPEG does"
        }
        return nil
    }

    func color(_ value: JSONValue, _ path: String) throws(ConfigError) -> Color {
        guard case .string(let s) = value, let c = Color(hex: s) else {
            throw fail(path, expected: "a colour as \"#RRGGBB\" or \"#RRGGBBAA\"", found: value)
        }
        return c
    }
}
