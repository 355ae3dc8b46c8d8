import AnimatorABI
import Foundation

/// Why a file in a plugins folder was not loaded, or why one of its animators was
/// left out, in words a person can act on.
public struct PluginRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// Why, naming what was expected and what was found.
    public var reason: String
    /// True when the library loaded, its entry point answered with a plugin of
    /// this ABI major, and what it described was malformed; false when loading
    /// stopped before (the file, the dynamic loader, the entry point, the ABI
    /// version) or for a reason outside the file (a duplicate).
    public var inDescriptor = false

    /// `FILE: REASON`.
    public var description: String { "\(file): \(reason)" }
}

/// Loads animator plugins: checks the file is a shared library for this
/// machine, opens it with `RTLD_NOW | RTLD_LOCAL`, calls its entry point once,
/// and validates every descriptor it returns. Libraries are never unloaded,
/// and a file is loaded at most once per process (by its resolved path).
/// Thread-safe.
public enum PluginLoader {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: Result<[AnimatorDescriptor], PluginRejection>] = [:]

    /// Replaces where messages that plugins log go (standard error by default).
    public static func setLogHandler(_ handler: @escaping @Sendable (PluginLogMessage) -> Void) {
        HostFunctionTable.setLogHandler(handler)
    }

    /// Loads the plugin at `path`.
    /// - Returns: its animators, each validated, or why the file was rejected.
    ///   Animators with a malformed descriptor reject the whole file: a plugin
    ///   is built as one piece, and half of it is a surprise.
    public static func load(path: String) -> Result<[AnimatorDescriptor], PluginRejection> {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return lock.withLock {
            if let known = loaded[resolved] { return known }
            let result = loadOnce(path: resolved).mapError {
                PluginRejection(file: resolved, reason: $0.description, inDescriptor: $0.inDescriptor)
            }
            loaded[resolved] = result
            return result
        }
    }

    private static func loadOnce(path: String) -> Result<[AnimatorDescriptor], LoadFailure> {
        switch ELFHeader.read(path: path) {
        case .failure(let why): return .failure(why)
        case .success(let header): if let why = header.problem { return .failure(LoadFailure(why)) }
        }
        let library: DynamicLibrary
        switch DynamicLibrary.open(path) {
        case .failure(let message): return .failure(LoadFailure("the dynamic loader refused it: \(message.description)"))
        case .success(let lib): library = lib
        }
        guard let symbol = library.lookup(symbol: SEGUE_ENTRY_SYMBOL) else {
            return .failure(LoadFailure("no entry point: the library does not export '\(SEGUE_ENTRY_SYMBOL)' (is it a Segue animator plugin? with Swift, export it with @c(segue_animator_entry))"))
        }
        let entry = unsafeBitCast(symbol, to: segue_entry_fn.self)
        let host = HostFunctionTable.make(for: path)
        guard let pluginPointer = entry(host) else {
            return .failure(LoadFailure("'\(SEGUE_ENTRY_SYMBOL)' returned NULL: the plugin refused to load (see its log messages)"))
        }
        return DescriptorReader(file: path, host: host).readPlugin(UnsafeRawPointer(pluginPointer))
    }
}

/// Reads and validates the structs a plugin returns, by the ABI's rules: the
/// major version must match, a struct is read up to the smaller of its declared
/// size and the host's, and what the plugin did not provide reads as zero.
struct DescriptorReader {
    let file: String
    let host: UnsafePointer<segue_host_t>

    func readPlugin(_ pointer: UnsafeRawPointer) -> Result<[AnimatorDescriptor], LoadFailure> {
        let plugin: segue_plugin_t
        switch read(pointer, as: segue_plugin_t.self, name: "segue_plugin_t",
                    minimumSize: MemoryLayout<segue_plugin_t>.size) {
        case .failure(let why): return .failure(why)
        case .success(let p): plugin = p
        }
        return readAnimators(of: plugin).mapError { failure in
            var marked = failure
            marked.inDescriptor = true
            return marked
        }
    }

    private func readAnimators(of plugin: segue_plugin_t) -> Result<[AnimatorDescriptor], LoadFailure> {
        guard plugin.animator_count > 0 else {
            return .failure(LoadFailure("malformed descriptor: segue_plugin_t.animator_count is 0; a plugin exports at least one animator"))
        }
        guard plugin.animator_count <= SEGUE_MAX_ANIMATORS else {
            return .failure(LoadFailure("malformed descriptor: segue_plugin_t.animator_count is \(plugin.animator_count), at most \(SEGUE_MAX_ANIMATORS) are allowed"))
        }
        guard let list = plugin.animators else {
            return .failure(LoadFailure("malformed descriptor: segue_plugin_t.animators is NULL but animator_count is \(plugin.animator_count)"))
        }
        var result: [AnimatorDescriptor] = []
        for i in 0..<Int(plugin.animator_count) {
            guard let a = list[i] else {
                return .failure(LoadFailure("malformed descriptor: segue_plugin_t.animators[\(i)] is NULL"))
            }
            switch readAnimator(a, at: "animators[\(i)]") {
            case .failure(let why): return .failure(why)
            case .success(let d): result.append(d)
            }
        }
        var seen: [String: Int] = [:]
        for (i, d) in result.enumerated() {
            for key in [d.id, d.name] {
                if let earlier = seen[key] {
                    return .failure(LoadFailure("malformed descriptor: animators[\(i)] repeats '\(key)' of animators[\(earlier)]"))
                }
                seen[key] = i
            }
        }
        return .success(result)
    }

    private func readAnimator(_ pointer: UnsafePointer<segue_animator_t>, at path: String) -> Result<AnimatorDescriptor, LoadFailure> {
        let a: segue_animator_t
        switch read(UnsafeRawPointer(pointer), as: segue_animator_t.self, name: "\(path) (segue_animator_t)",
                    minimumSize: MemoryLayout<segue_animator_t>.size) {
        case .failure(let why): return .failure(why)
        case .success(let v): a = v
        }
        let id: String, name: String, version: String, summary: String
        switch (string(a.id, "\(path).id", max: Int(SEGUE_MAX_ID)),
                string(a.name, "\(path).name", max: Int(SEGUE_MAX_NAME)),
                string(a.version, "\(path).version", max: Int(SEGUE_MAX_VERSION)),
                string(a.description, "\(path).description", max: Int(SEGUE_MAX_DESCRIPTION))) {
        case (.success(let i), .success(let n), .success(let v), .success(let d)):
            (id, name, version, summary) = (i, n, v, d)
        case (.failure(let why), _, _, _), (_, .failure(let why), _, _), (_, _, .failure(let why), _), (_, _, _, .failure(let why)):
            return .failure(why)
        }
        if !Self.isValidID(id) {
            return .failure(LoadFailure("malformed descriptor: \(path).id is \"\(id)\"; expected a reverse-DNS name, a slash and a revision, like \"com.example.spring-slide/1\""))
        }
        if !Self.isValidName(name) {
            return .failure(LoadFailure("malformed descriptor: \(path).name is \"\(name)\"; expected a letter then letters, digits, '-' or '_', like \"SpringSlide\""))
        }
        if version.isEmpty { return .failure(LoadFailure("malformed descriptor: \(path).version is empty; expected a version like \"1.0.0\"")) }
        if a.setup == nil { return .failure(LoadFailure("malformed descriptor: \(path).setup (\(name)) is NULL; it is required")) }
        if a.evaluate == nil { return .failure(LoadFailure("malformed descriptor: \(path).evaluate (\(name)) is NULL; it is required")) }
        guard a.param_count <= SEGUE_MAX_PARAMS else {
            return .failure(LoadFailure("malformed descriptor: \(path).param_count (\(name)) is \(a.param_count); at most \(SEGUE_MAX_PARAMS) are allowed"))
        }
        var params: [ParameterDescriptor] = []
        if a.param_count > 0 {
            guard let list = a.params else {
                return .failure(LoadFailure("malformed descriptor: \(path).params (\(name)) is NULL but param_count is \(a.param_count)"))
            }
            for i in 0..<Int(a.param_count) {
                let where_ = "\(path).params[\(i)] (\(name))"
                guard let p = list[i] else { return .failure(LoadFailure("malformed descriptor: \(where_) is NULL")) }
                switch readParameter(p, at: where_) {
                case .failure(let why): return .failure(why)
                case .success(let d):
                    if params.contains(where: { $0.name == d.name }) {
                        return .failure(LoadFailure("malformed descriptor: \(where_) repeats the parameter name '\(d.name)'"))
                    }
                    params.append(d)
                }
            }
        }
        return .success(AnimatorDescriptor(
            id: id, name: name, version: version, summary: summary, parameters: params, file: file,
            raw: pointer, host: host))
    }

    private func readParameter(_ pointer: UnsafePointer<segue_param_t>, at path: String) -> Result<ParameterDescriptor, LoadFailure> {
        let declared = Int(pointer.pointee.struct_size)
        guard declared >= MemoryLayout<segue_param_t>.size else {
            return .failure(LoadFailure("malformed descriptor: \(path).struct_size is \(declared), expected at least \(MemoryLayout<segue_param_t>.size)"))
        }
        let p = pointer.pointee
        let name: String, explanation: String
        switch (string(p.name, "\(path).name", max: Int(SEGUE_MAX_PARAM_NAME)),
                string(p.explanation, "\(path).explanation", max: Int(SEGUE_MAX_DESCRIPTION))) {
        case (.success(let n), .success(let e)): (name, explanation) = (n, e)
        case (.failure(let why), _), (_, .failure(let why)): return .failure(why)
        }
        let at = "\(path) '\(name)'"
        guard Self.isValidParameterName(name) else {
            return .failure(LoadFailure("malformed descriptor: \(path).name is \"\(name)\"; expected an identifier: a letter or '_', then letters, digits or '_'"))
        }
        let (lo, hi, def) = (p.min_value, p.max_value, p.default_value)
        guard lo.isFinite, hi.isFinite, def.isFinite else {
            return .failure(LoadFailure("malformed descriptor: \(at) has a non-finite default, min or max (\(def), \(lo), \(hi))"))
        }
        guard lo <= hi else { return .failure(LoadFailure("malformed descriptor: \(at) has min \(lo) greater than max \(hi)")) }
        guard def >= lo, def <= hi else {
            return .failure(LoadFailure("malformed descriptor: \(at) has default \(def) outside [min, max] = [\(lo), \(hi)]"))
        }
        let kind: ParameterDescriptor.Kind
        switch p.type {
        case UInt32(SEGUE_PARAM_NUMBER.rawValue): kind = .number
        case UInt32(SEGUE_PARAM_INTEGER.rawValue): kind = .integer
        case UInt32(SEGUE_PARAM_BOOLEAN.rawValue): kind = .boolean
        case UInt32(SEGUE_PARAM_CHOICE.rawValue):
            guard p.choice_count > 0, let list = p.choices else {
                return .failure(LoadFailure("malformed descriptor: \(at) is a choice with no choices (choices NULL or choice_count 0)"))
            }
            var choices: [String] = []
            for i in 0..<Int(p.choice_count) {
                switch string(list[i], "\(path).choices[\(i)]", max: Int(SEGUE_MAX_PARAM_NAME)) {
                case .failure(let why): return .failure(why)
                case .success(let c): choices.append(c)
                }
            }
            guard lo == 0, hi == Double(choices.count - 1) else {
                return .failure(LoadFailure("malformed descriptor: \(at) is a choice of \(choices.count), so min must be 0 and max \(choices.count - 1); found \(lo) and \(hi)"))
            }
            kind = .choice(choices)
        default:
            return .failure(LoadFailure("malformed descriptor: \(at) has unknown type \(p.type); expected 0 (number), 1 (integer), 2 (boolean) or 3 (choice)"))
        }
        if kind == .boolean && (lo != 0 || hi != 1) {
            return .failure(LoadFailure("malformed descriptor: \(at) is a boolean, so min must be 0 and max 1; found \(lo) and \(hi)"))
        }
        if kind != .number && def != def.rounded() {
            return .failure(LoadFailure("malformed descriptor: \(at) is \(kind.withArticle) with the fractional default \(def)"))
        }
        return .success(ParameterDescriptor(
            name: name, explanation: explanation, kind: kind, defaultValue: def, minimum: lo, maximum: hi))
    }

    /// Reads a versioned struct: checks its major version and size, copies what
    /// both sides know, and zero-fills the rest.
    private func read<T>(_ pointer: UnsafeRawPointer, as: T.Type, name: String, minimumSize: Int) -> Result<T, LoadFailure> {
        let version = pointer.load(as: segue_version_t.self)
        guard segue_version_is_compatible(version) else {
            return .failure(LoadFailure("ABI major mismatch: \(name) was built for ABI \(version.major).\(version.minor), but this host speaks ABI \(SEGUE_ABI_VERSION_MAJOR).x; rebuild the plugin against this host's segue_animator.h"))
        }
        let declared = Int(pointer.load(fromByteOffset: MemoryLayout<segue_version_t>.size, as: UInt32.self))
        guard declared >= minimumSize else {
            return .failure(LoadFailure("malformed descriptor: \(name).struct_size is \(declared), expected at least \(minimumSize) for ABI \(version.major).\(version.minor)"))
        }
        let size = MemoryLayout<T>.size
        let storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<T>.alignment)
        defer { storage.deallocate() }
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        storage.copyMemory(from: pointer, byteCount: min(declared, size))
        return .success(storage.load(as: T.self))
    }

    /// A NUL-terminated string of at most `max` bytes, read without running past `max + 1` bytes.
    private func string(_ pointer: UnsafePointer<CChar>?, _ name: String, max: Int) -> Result<String, LoadFailure> {
        guard let pointer else { return .failure(LoadFailure("malformed descriptor: \(name) is NULL")) }
        let length = strnlen(pointer, max + 1)
        guard length <= max else {
            return .failure(LoadFailure("malformed descriptor: \(name) is longer than \(max) bytes (the most this ABI allows)"))
        }
        return .success(String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self))
    }

    static func isValidID(_ id: String) -> Bool {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let domain = parts.first, let revision = parts.last,
              !revision.isEmpty, revision.allSatisfy(\.isASCII), revision.allSatisfy(\.isNumber),
              domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".") else { return false }
        return domain.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "-") }
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    static func isValidParameterName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
