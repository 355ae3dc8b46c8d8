import AnimatorABI
import Glibc
import SystemCalls

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

    package init(file: String, reason: String, inDescriptor: Bool = false) {
        (self.file, self.reason, self.inDescriptor) = (file, reason, inDescriptor)
    }

    /// `FILE: REASON`.
    public var description: String { "\(file): \(reason)" }
}

/// The steps of loading a plugin, in order: what a scanner reports when a
/// plugin crashes, hangs or exits while it is being examined.
package enum LoadPhase: UInt32, Sendable, CustomStringConvertible {
    /// `dlopen`: mapping the library and running its constructors.
    case loading = 1
    /// Calling `segue_animator_entry`.
    case entryPoint = 2
    /// Reading the descriptor the entry point returned.
    case descriptor = 3

    package var description: String {
        switch self {
        case .loading: "while loading (the dynamic loader and the library's constructors)"
        case .entryPoint: "in its entry point 'segue_animator_entry'"
        case .descriptor: "while its descriptor was read"
        }
    }
}

/// Loads animator plugins into this process: checks the file is a whole shared
/// library for this machine, opens it with `RTLD_NOW | RTLD_LOCAL`, calls its
/// entry point once, and validates every descriptor it returns. Libraries are
/// never unloaded, and a file is loaded at most once per process (by its
/// resolved path). Thread-safe.
///
/// This runs the plugin's code in this process: the host does so only in
/// `PluginIsolation.none`; otherwise a scanner or worker process calls it.
public enum PluginLoader {
    private static let lock = Lock()
    nonisolated(unsafe) private static var loaded: [String: Result<[LoadedAnimator], PluginRejection>] = [:]

    /// Replaces where messages that plugins log go (standard error by default).
    public static func setLogHandler(_ handler: @escaping @Sendable (PluginLogMessage) -> Void) {
        HostFunctionTable.setLogHandler(handler)
    }

    /// Sends the messages plugins log to standard error again, as by default.
    public static func resetLogHandler() {
        HostFunctionTable.setLogHandler(HostFunctionTable.standardError)
    }

    /// Loads the plugin at `path` into this process.
    /// - Parameter phase: called as each step of loading begins.
    /// - Returns: its animators, each validated, or why the file was rejected.
    ///   Animators with a malformed descriptor reject the whole file: a plugin
    ///   is built as one piece, and half of it is a surprise.
    /// - Parameter checked: true when `path` is already resolved and its ELF
    ///   header was already checked (a scanner, whose host did both): those
    ///   steps are skipped.
    package static func load(path: String, checked: Bool = false,
                             phase: (LoadPhase) -> Void = { _ in }) -> Result<[LoadedAnimator], PluginRejection> {
        let resolved = checked ? path : realpath(path, nil).map { p in
            defer { free(p) }
            return String(cString: p)
        } ?? path
        return lock.withLock {
            if let known = loaded[resolved] { return known }
            let result = loadOnce(path: resolved, checkHeader: !checked, phase: phase).mapError {
                PluginRejection(file: resolved, reason: $0.description, inDescriptor: $0.inDescriptor)
            }
            loaded[resolved] = result
            return result
        }
    }

    private static func loadOnce(path: String, checkHeader: Bool, phase: (LoadPhase) -> Void) -> Result<[LoadedAnimator], LoadFailure> {
        if checkHeader {
            switch ELFHeader.read(path: path) {
            case .failure(let why): return .failure(why)
            case .success(let header): if let why = header.problem { return .failure(LoadFailure(why)) }
            }
        }
        phase(.loading)
        let library: DynamicLibrary
        switch DynamicLibrary.open(path) {
        case .failure(let message): return .failure(LoadFailure("the dynamic loader refused it: \(message.description)"))
        case .success(let lib): library = lib
        }
        let symbol: UnsafeMutableRawPointer
        switch library.lookup(function: SEGUE_ENTRY_SYMBOL) {
        case .missing:
            return .failure(LoadFailure("no entry point: the library does not export '\(SEGUE_ENTRY_SYMBOL)' (is it a Segue animator plugin? with Swift, export it with @c(segue_animator_entry))"))
        case .data:
            return .failure(LoadFailure("no entry point: '\(SEGUE_ENTRY_SYMBOL)' is exported as data, not as a function; expected `const segue_plugin_t *segue_animator_entry(const segue_host_t *host)`"))
        case .function(let address): symbol = address
        }
        let entry = unsafeBitCast(symbol, to: segue_entry_fn.self)
        let host = HostFunctionTable.make(for: path)
        phase(.entryPoint)
        guard let pluginPointer = entry(host) else {
            return .failure(LoadFailure("'\(SEGUE_ENTRY_SYMBOL)' returned NULL: the plugin refused to load (see its log messages)"))
        }
        phase(.descriptor)
        return PluginBoundary.descriptor(at: UnsafeRawPointer(pluginPointer), host: host)
    }
}
