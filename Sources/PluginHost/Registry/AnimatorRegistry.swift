import Foundation
import HostContainer
import PluginRuntime
import SystemCalls

/// How a registry finds, examines and runs plugins.
public struct RegistryOptions: Sendable {
    /// How worker and scanner processes are found, their deadlines, and the
    /// sandbox that confines plugin code in them (strict unless set otherwise:
    /// `options.worker.sandbox.mode = .off` for plugins you trust).
    public var worker = WorkerSettings()
    /// Where what scans learned is kept between runs; nil for no cache.
    public var cache: RegistryCache?
    /// Refuse plugin files and folders others could write (see docs/isolation.md's trust rules).
    public var checksPermissions = true
    /// Start one worker process, not yet serving any plugin, as the registry
    /// begins (``PluginIsolation/process`` only), so that the first plugin
    /// animator made does not wait for a process to start: it then starts
    /// while the folders are read. For programs about to play a plugin
    /// animator; `segue run` sets it when its config names one. The worker
    /// ends with this process if no animator takes it.
    public var prestartsWorker = false

    /// No cache, permissions checked, the standard worker settings.
    public init() {}

    /// Whether plugin files others could change are refused: unless the
    /// program allows them or `SEGUE_ALLOW_INSECURE_PLUGINS=1`.
    public static func checksPermissions(allowingInsecure allowed: Bool,
                                         environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        !allowed && environment["SEGUE_ALLOW_INSECURE_PLUGINS"] != "1"
    }
}

/// A folder of a registry's search path, and what searching it found.
public struct SearchedFolder: Sendable, Equatable {
    /// What searching a folder found.
    public enum State: Sendable, Equatable {
        /// The folder was read; it holds this many `.so` files.
        case searched(files: Int)
        /// There is no such folder (normal for the standard ones).
        case missing
        /// The path is not a folder.
        case notAFolder
        /// The folder cannot be read.
        case unreadable
    }

    /// The folder.
    public var folder: PluginFolder
    /// What was found there.
    public var state: State
}

/// The animators available to a host: every plugin found in a list of
/// folders, each file either described or rejected with a reason.
///
/// Files are examined without running their code in this process (unless the
/// isolation is ``PluginIsolation/none``): a scanner process loads them, and
/// what it learned is cached (``RegistryOptions/cache``), so a warm start
/// scans nothing and loads nothing. Animators are loaded when they are first
/// made (``AnimatorDescriptor/makeAnimator(parameters:)``).
///
/// Precedence is deterministic: folders in the order given, and within a folder
/// files by name. When two animators share an id or a short name, the first
/// found wins and the later one is rejected, naming the file that won.
/// A file reached twice (the same folder given twice, or a link) is read once.
public final class AnimatorRegistry: @unchecked Sendable {
    /// The folders searched, in order, with where each came from.
    public let searchPath: [PluginFolder]
    /// The folders searched, in order.
    public var folders: [String] { searchPath.map(\.path) }
    /// What each folder of ``searchPath`` held, in the same order.
    public private(set) var searched: [SearchedFolder] = []
    /// Where plugin code runs.
    public var isolation: PluginIsolation { factory.isolation }
    /// What examines plugin files and runs their animators; reloads keep it.
    let factory: any AnimatorFactory
    /// The animators found, in precedence order.
    public private(set) var animators: [AnimatorDescriptor] = []
    /// The files, or animators within files, that were not accepted, with why.
    public private(set) var rejections: [PluginRejection] = []
    /// Problems with the folders themselves (a named folder missing, any
    /// folder unreadable) and the cache.
    public private(set) var warnings: [String] = []
    /// How many files were examined by loading them (the others came from the cache).
    public private(set) var scannedCount = 0

    /// Why animators removed by a reload are gone, by name.
    var departures: [String: String] = [:]
    private var byName: [String: AnimatorDescriptor] = [:]
    private var byID: [String: AnimatorDescriptor] = [:]

    /// The options it was made with.
    public let options: RegistryOptions

    /// What confines its plugin code.
    public var confinement: PluginConfinement {
        PluginConfinement(isolation: isolation, policy: options.worker.sandbox, support: .current)
    }

    /// Finds the plugins in `folders`, each named by the program (a missing one is warned about).
    /// - Complexity: linear in the number of files; files already in the cache
    ///   with the same identity are not examined again.
    public convenience init(folders: [String], isolation: PluginIsolation = .process,
                            options: RegistryOptions = RegistryOptions()) {
        self.init(searchPath: folders.map { PluginFolder($0, origin: .given) }, isolation: isolation, options: options)
    }

    /// Finds the plugins in the folders of `searchPath`, in order (see
    /// ``PluginSearchPath/standard(given:config:executable:environment:)``).
    /// - Complexity: linear in the number of files; files already in the cache
    ///   with the same identity are not examined again.
    public convenience init(searchPath: [PluginFolder], isolation: PluginIsolation = .process,
                            options: RegistryOptions = RegistryOptions()) {
        let factory: any AnimatorFactory = switch isolation {
        case .process: WorkerFactory(settings: options.worker)
        case .none: InProcessFactory()
        }
        self.init(searchPath: searchPath, factory: factory, options: options)
    }

    /// Finds the plugins in the folders of `searchPath` with `factory`
    /// examining files and making their animators (a reload passes its
    /// predecessor's, so workers and the quarantine carry over).
    package init(searchPath: [PluginFolder], factory: any AnimatorFactory, options: RegistryOptions) {
        self.searchPath = searchPath
        self.factory = factory
        self.options = options
        // The cache is read on another thread while the folders are listed.
        nonisolated(unsafe) var loaded: (contents: RegistryCache.Contents, warning: String?) = (.empty, nil)
        let loading = DispatchGroup()
        if let cache = options.cache {
            DispatchQueue.global().async(group: loading) { loaded = cache.load() }
        }
        if options.prestartsWorker { factory.prepare() }
        if let warning = confinement.warning { warnings.append(warning) }
        var trust = FileTrust()
        var files: [(path: String, identity: FileIdentity)] = []
        // A file can be reached twice only through a link (a folder read
        // before is not read again), so paths are remembered once one is met.
        var seenFiles: Set<String>?
        var listed: [String: Int] = [:]  // the folders read, resolved, with their .so count
        for folder in searchPath {
            let (state, libraries) = sharedLibraries(in: folder, listed: &listed)
            searched.append(SearchedFolder(folder: folder, state: state))
            for (file, real, facts) in libraries {
                if real != nil && seenFiles == nil { seenFiles = Set(files.map(\.path) + rejections.map(\.file)) }
                if seenFiles != nil { guard seenFiles!.insert(real ?? file).inserted else { continue } }
                guard facts.error == 0 else {
                    rejections.append(PluginRejection(file: file, reason: "cannot be opened: \(Errno(facts.error))"))
                    continue
                }
                if options.checksPermissions, let problem = trust.problem(with: real ?? file, mode: facts.mode, owner: facts.owner) {
                    rejections.append(PluginRejection(file: file, reason: problem))
                    continue
                }
                files.append((file, facts.identity))
            }
        }

        loading.wait()
        let (cached, cacheWarning) = loaded
        if let cacheWarning { warnings.append(cacheWarning) }
        // Files are met in the order the cache was written, as a rule: each is
        // compared with the entry after the last one matched, and looked up by
        // identity only when that one is not it.
        var matched = [Bool](repeating: false, count: cached.located.count)
        var next = 0
        var byIdentity: [FileIdentity: Int]?
        var outcomes: [RegistryCache.Entry.Outcome?] = files.map { file in
            let i: Int
            if next < matched.count, cached.located[next].identity == file.identity {
                i = next
            } else {
                if byIdentity == nil { byIdentity = cached.index() }
                guard let found = byIdentity?[file.identity] else { return nil }
                i = found
            }
            guard cached.hasPath(i, file.path), let outcome = cached.outcome(i) else { return nil }
            if case .plugin(let details) = outcome,
               !details.names.allSatisfy({ PluginBoundary.isValidID($0.id) && PluginBoundary.isValidName($0.name) }) {
                return nil
            }
            (matched[i], next) = (true, i + 1)
            return outcome
        }
        let pending = outcomes.indices.filter { outcomes[$0] == nil }
        scannedCount = pending.count
        for (index, outcome) in zip(pending, factory.examine(pending.map { files[$0].path })) {
            switch outcome {
            case .success(let plugin): outcomes[index] = .plugin(PluginDetails(plugin))
            case .failure(let rejection): outcomes[index] = .rejected(rejection)
            }
        }
        if let cache = options.cache {
            // Entries of files no longer in a folder read here are dropped (a
            // rebuilt plugin leaves its old identity behind); other folders'
            // entries are kept for the registries that read them.
            let unmatched = matched.indices.filter { !matched[$0] }
            let kept = unmatched.filter { i in
                let path = cached.path(i)
                guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return false }
                return listed[String(decoding: path[..<slash], as: UTF8.self)] == nil
            }
            if !pending.isEmpty || cacheWarning != nil || kept.count != unmatched.count {
                let entries = zip(files, outcomes).map { file, outcome in
                    RegistryCache.Entry(path: ArraySlice(file.path.utf8), identity: file.identity, outcome: outcome!)
                } + kept.compactMap(cached.entry).sorted { $0.path.lexicographicallyPrecedes($1.path) }
                if let warning = cache.save(entries) { warnings.append(warning) }
            }
        }

        byID.reserveCapacity(files.count)
        byName.reserveCapacity(files.count)
        for (file, outcome) in zip(files, outcomes) {
            switch outcome! {
            case .rejected(let rejection): rejections.append(rejection)
            case .plugin(let details):
                for index in details.names.indices {
                    register(AnimatorDescriptor(details, index: index, file: file.path, identity: file.identity, factory: factory))
                }
            }
        }
    }

    /// The animator whose short name is `name`: a plugin's, or the built-in
    /// default for ``DefaultAnimator/name`` ("default"), which no plugin can take.
    public func animator(named name: String) -> AnimatorDescriptor? {
        name == DefaultAnimator.name ? .builtinDefault : byName[name]
    }

    /// Every name ``animator(named:)`` answers: the plugins' in precedence order, then "default".
    public var names: [String] { animators.map(\.name) + [DefaultAnimator.name] }

    /// `"; refused: /p/libx.so: why; /p/liby.so: why"`: every file this
    /// registry refused and why, as `segue list` names them, for a message
    /// that no animator has some name (the one meant may be in one of them);
    /// empty when it refused none.
    /// - Complexity: O(n): it serves error messages only.
    public var refusedNote: String {
        rejections.isEmpty ? "" : "; refused: " + rejections.map { "\($0.file): \($0.reason)" }.joined(separator: "; ")
    }

    /// The name `name` was probably meant to be, for "did you mean" (see ``NameSuggestion``).
    /// - Complexity: O(n): it serves error messages only.
    public func suggestion(for name: String) -> String? {
        NameSuggestion.closest(to: name, in: names)
    }

    /// How each plugin of this registry that failed in its worker failed: those
    /// plugins are quarantined (their animators fall back at once) until
    /// ``clearQuarantine()``.
    public var quarantined: [PluginFailure] {
        let files = Set(animators.map(\.file))
        return factory.quarantined.filter { files.contains($0.file) }
    }

    /// Lets this registry's quarantined plugins run again, each in a fresh worker.
    public func clearQuarantine() {
        factory.clearQuarantine(files: Set(animators.map(\.file)))
    }

    private func register(_ animator: AnimatorDescriptor) {
        if animator.name == DefaultAnimator.name {
            rejections.append(PluginRejection(
                file: animator.file,
                reason: "reserved short name: '\(animator.name)' (\(animator.id)) is the built-in default's name; expected another name"))
        } else if let winner = byID[animator.id] {
            rejections.append(PluginRejection(
                file: animator.file,
                reason: "duplicate id: animator '\(animator.id)' (\(animator.name)) is also provided by \(winner.file), which was found first and is used"))
        } else if let winner = byName[animator.name] {
            rejections.append(PluginRejection(
                file: animator.file,
                reason: "duplicate short name: '\(animator.name)' (\(animator.id)) is also the name of \(winner.id) in \(winner.file), which was found first and is used"))
        } else {
            animators.append(animator)
            byID[animator.id] = animator
            byName[animator.name] = animator
        }
    }

    /// What a `stat` of a file found, or its errno: only what the registry uses.
    private struct FileFacts {
        var error: Int32 = 0
        var identity = FileIdentity(device: 0, inode: 0, size: 0, modified: 0, changed: 0)
        var mode: mode_t = 0
        var owner: uid_t = 0
    }

    /// The `.so` files in `folder`, in byte order of their names, with what
    /// their `stat` found (taken relative to the open folder, sparing a path
    /// walk per file): each path is the folder's, resolved once, and the
    /// file's name; a link's real path comes beside it (the link stays the
    /// plugin's path, so that its worker reads beside the link, never beside
    /// where the link leads). A folder read before (given twice, or reached
    /// through a link) yields no files again.
    private func sharedLibraries(in searched: PluginFolder, listed: inout [String: Int]) -> (SearchedFolder.State, [(path: String, real: String?, FileFacts)]) {
        let folder = searched.path
        var info = stat()
        guard stat(folder, &info) == 0 else {
            if searched.isNamed { warnings.append("plugin folder \(folder) does not exist") }
            return (.missing, [])
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            warnings.append("plugin folder \(folder) is not a folder")
            return (.notAFolder, [])
        }
        guard let resolved = Self.realPath(folder), let directory = opendir(folder) else {
            warnings.append("plugin folder \(folder) cannot be read")
            return (.unreadable, [])
        }
        defer { closedir(directory) }
        if let count = listed[resolved] { return (.searched(files: count), []) }  // its files were found already
        // Every name in one buffer, each NUL-terminated, for sorting and fstatat alike.
        var names: [CChar] = []
        var found: [(start: Int, count: Int, isLink: Bool)] = []
        while let entry = readdir(directory) {
            let type = entry.pointee.d_type
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.prefix { $0 != 0 }
                guard bytes.count > 3, bytes.suffix(3).elementsEqual(".so".utf8),
                      !bytes.elementsEqual(PluginSearchPath.hostLibrary.utf8) else { return }
                found.append((names.count, bytes.count, type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN)))
                UnsafeRawBufferPointer(rebasing: bytes).withMemoryRebound(to: CChar.self) { names.append(contentsOf: $0) }
                names.append(0)
            }
        }
        names.withUnsafeBufferPointer { base in
            found.sort { a, b in strcmp(base.baseAddress! + a.start, base.baseAddress! + b.start) < 0 }
        }
        listed[resolved] = found.count
        // The stats are most of the time here: two threads share them when there are many.
        let descriptor = dirfd(directory)
        let stats = UnsafeMutableBufferPointer<FileFacts>.allocate(capacity: found.count)
        defer { stats.deallocate() }
        nonisolated(unsafe) let into = stats
        let starts = found.map(\.start)
        let parts = found.count >= 256 ? 2 : 1
        names.withUnsafeBufferPointer { base in
            nonisolated(unsafe) let base = base.baseAddress!
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for i in (starts.count * part / parts)..<(starts.count * (part + 1) / parts) {
                    var info = stat()
                    into[i] = fstatat(descriptor, base + starts[i], &info, 0) == 0
                        ? FileFacts(identity: FileIdentity(info), mode: info.st_mode, owner: info.st_uid) : FileFacts(error: errno)
                }
            }
        }
        let prefix = resolved == "/" ? "" : resolved
        return (.searched(files: found.count), names.withUnsafeBytes { raw in
            found.indices.map { i in
                let name = raw[found[i].start..<(found[i].start + found[i].count)]
                let path = String(unsafeUninitializedCapacity: prefix.utf8.count + 1 + name.count) { out in
                    var at = out.initialize(fromContentsOf: prefix.utf8)
                    out[at] = UInt8(ascii: "/")
                    at += 1
                    return at + UnsafeMutableBufferPointer(rebasing: out[at...]).initialize(fromContentsOf: name)
                }
                return (path, found[i].isLink ? Self.realPath(path) ?? path : nil, stats[i])
            }
        })
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
