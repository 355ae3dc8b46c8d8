import Foundation
import HostContainer
import PluginHost
import PluginRuntime
import SystemCalls
import Timing

/// Walks a config document, naming the key path of every problem.
struct ConfigReader {
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
        let top = try object(document, "$", keys: ["plugins", "defaultAnimator", "isolation", "sandbox", "limits", "curves", "font", "rules", "children", "windows", "script"])
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
            let limits = try object(value, "$.limits", keys: ["memory", "threads", "totalMemory"])
            if let memory = limits["memory"] { config.memoryLimit = try memorySize(memory, "$.limits.memory") }
            if let total = limits["totalMemory"] { config.totalMemory = try memorySize(total, "$.limits.totalMemory") }
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
        if let windows = top["windows"] {
            var windowNames: Set<String> = []
            for (i, item) in try array(windows, "$.windows").enumerated() {
                let window = try self.child(item, "$.windows[\(i)]", isWindow: true)
                guard !names.contains(window.name), windowNames.insert(window.name).inserted else {
                    throw fail("$.windows[\(i)]", expected: "a window name not used before by a child or a window", found: .string(window.name))
                }
                config.windows.append(window)
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
                let r = try object(item, path, keys: ["from", "to", "appear", "disappear", "animator", "parameters"])
                let from = try r["from"].map { v throws(ConfigError) in try checkChild(v, "\(path).from") }
                let to = try r["to"].map { v throws(ConfigError) in try checkChild(v, "\(path).to") }
                let appear = try r["appear"].map { v throws(ConfigError) in try pattern(v, "\(path).appear") }
                let disappear = try r["disappear"].map { v throws(ConfigError) in try pattern(v, "\(path).disappear") }
                if from == nil && to == nil && appear == nil && disappear == nil {
                    throw fail(path, expected: "'from', 'to' or both, or 'appear', 'disappear' or both (a rule for every transition is 'defaultAnimator')", found: item)
                }
                if (from != nil || to != nil) && (appear != nil || disappear != nil) {
                    let key = appear != nil ? "appear" : "disappear"
                    throw ConfigError(file: file, keyPath: "\(path).\(key)",
                                      expected: "a rule for switches ('from', 'to') or for a view's appearance and disappearance ('appear', 'disappear'), not both",
                                      found: "both ('\(from != nil ? "from" : "to")' and '\(key)'); write two rules")
                }
                guard let animatorValue = r["animator"] else {
                    throw ConfigError(file: file, keyPath: "\(path).animator", expected: "an animator name", found: "nothing (the key is missing)")
                }
                let animator = try string(animatorValue, "\(path).animator")
                let parameters = try r["parameters"].map { p throws(ConfigError) in try self.parameters(p, "\(path).parameters") } ?? [:]
                config.rules.append(SegueConfig.Rule(
                    from: from, to: to, appear: appear, disappear: disappear, animator: animator, parameters: parameters,
                    label: "rules[\(i)]"))
            }
        }
        let windows = config.children.isEmpty && file != SegueConfig.builtinSceneLabel ? SegueConfig.builtinScene.windows : config.windows
        func checkWindow(_ value: JSONValue, _ path: String) throws(ConfigError) -> String {
            let name = try string(value, path)
            guard !checksNames || windows.contains(where: { $0.name == name }) else {
                let all = windows.map(\.name)
                throw ConfigError(file: file, keyPath: path,
                                  expected: all.isEmpty ? "a window of 'windows' (there are none)" : "the name of a window (\(all.joined(separator: ", ")))",
                                  found: value.found + NameSuggestion.hint(for: name, in: all))
            }
            return name
        }
        if let script = top["script"] {
            var presented: String?
            for (i, item) in try array(script, "$.script").enumerated() {
                let path = "$.script[\(i)]"
                let step = try step(item, path, checkChild: checkChild, checkWindow: checkWindow)
                switch step.action {
                case .select: break
                case .present:
                    if let shown = presented {
                        throw fail("\(path).present", expected: "a window presented when none is ('\(shown)' is: dismiss it first)", found: .string(step.child))
                    }
                    presented = step.child
                case .dismiss:
                    guard presented == step.child else {
                        throw fail("\(path).dismiss", expected: presented.map { "the window presented, '\($0)'" } ?? "a window presented before (none is)",
                                   found: .string(step.child))
                    }
                    presented = nil
                }
                config.script.append(step)
            }
        }
        return (config, deferred)
    }

    /// A view's name or a pattern of names (``SegueConfig/NamePattern``).
    func pattern(_ value: JSONValue, _ path: String) throws(ConfigError) -> String {
        let expected = "a view's name, or a pattern where * is any characters and ? one (\"org.gnome.*\")"
        guard case .string(let text) = value else { throw fail(path, expected: expected, found: value) }
        guard !text.isEmpty else { throw fail(path, expected: expected, found: value) }
        return text
    }

    func step(_ value: JSONValue, _ path: String, checkChild: (JSONValue, String) throws(ConfigError) -> String,
              checkWindow: (JSONValue, String) throws(ConfigError) -> String) throws(ConfigError) -> ScriptStep {
        if case .string = value { return ScriptStep(child: try checkChild(value, path)) }
        guard case .object(let members) = value else {
            throw fail(path, expected: "a child name or an object with 'select', 'present' or 'dismiss'", found: value)
        }
        for (key, action) in [("present", ScriptStep.Action.present), ("dismiss", .dismiss)] where members.contains(where: { $0.key == key }) {
            let s = try object(value, path, keys: [key])
            var step = ScriptStep(child: try checkWindow(s[key]!, "\(path).\(key)"))
            step.action = action
            return step
        }
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

    func child(_ value: JSONValue, _ path: String, isWindow: Bool = false) throws(ConfigError) -> SegueConfig.Child {
        if case .string = value { return SegueConfig.Child(name: try string(value, path), color: nil, elements: []) }
        guard case .object = value else { throw fail(path, expected: "a \(isWindow ? "window" : "child") name or an object with 'name'", found: value) }
        let c = try object(value, path, keys: ["name", "color", "picture", "fit", "elements"] + (isWindow ? ["frame"] : []))
        guard let nameValue = c["name"] else {
            throw ConfigError(file: file, keyPath: "\(path).name", expected: "the child's name", found: "nothing (the key is missing)")
        }
        var child = SegueConfig.Child(name: try string(nameValue, "\(path).name"), color: nil, elements: [])
        if let color = c["color"] { child.color = try self.color(color, "\(path).color") }
        if let frame = c["frame"] {
            let expected = "[x, y, width, height] with a width and height above 0, each within ±\(Int(Self.coordinateLimit)) points"
            guard case .array(let members) = frame, members.count == 4 else { throw fail("\(path).frame", expected: expected, found: frame) }
            var numbers: [Double] = []
            for member in members {
                guard case .number(let v) = member, abs(v) <= Self.coordinateLimit else { throw fail("\(path).frame", expected: expected, found: frame) }
                numbers.append(v)
            }
            guard numbers[2] > 0, numbers[3] > 0 else { throw fail("\(path).frame", expected: expected, found: frame) }
            child.frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
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
