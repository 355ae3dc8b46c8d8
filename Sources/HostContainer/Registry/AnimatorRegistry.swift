import Foundation

/// How a registry finds, examines and runs plugins.
public struct RegistryOptions: Sendable {
    /// How worker and scanner processes are found, and their deadlines.
    public var worker = WorkerSettings()
    /// Where what scans learned is kept between runs; nil for no cache.
    public var cache: RegistryCache?
    /// Refuse plugin files and folders others could write (see the README's trust rules).
    public var checksPermissions = true

    /// No cache, permissions checked, the standard worker settings.
    public init() {}
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
    /// The folders searched, in order.
    public let folders: [String]
    /// Where plugin code runs.
    public let isolation: PluginIsolation
    /// The animators found, in precedence order.
    public private(set) var animators: [AnimatorDescriptor] = []
    /// The files, or animators within files, that were not accepted, with why.
    public private(set) var rejections: [PluginRejection] = []
    /// Problems with the folders themselves (missing, unreadable) and the cache.
    public private(set) var warnings: [String] = []
    /// How many files were examined by loading them (the others came from the cache).
    public private(set) var scannedCount = 0

    private var byName: [String: AnimatorDescriptor] = [:]
    private var byID: [String: AnimatorDescriptor] = [:]
    private var byLowercasedName: [String: String] = [:]

    /// Finds the plugins in `folders`.
    /// - Complexity: linear in the number of files; files already in the cache
    ///   with the same identity are not examined again.
    public init(folders: [String], isolation: PluginIsolation = .process, options: RegistryOptions = RegistryOptions()) {
        self.folders = folders
        self.isolation = isolation
        var trust = FileTrust()
        var files: [(path: String, identity: FileIdentity)] = []
        var seenFiles: Set<String> = []
        for folder in folders {
            for file in sharedLibraries(in: folder) {
                let resolved = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
                guard seenFiles.insert(resolved).inserted else { continue }
                if options.checksPermissions, let problem = trust.problem(with: resolved) {
                    rejections.append(PluginRejection(file: resolved, reason: problem))
                    continue
                }
                switch FileIdentity.of(resolved) {
                case .failure(let why): rejections.append(PluginRejection(file: resolved, reason: why.description))
                case .success(let identity): files.append((resolved, identity))
                }
            }
        }

        let (cached, cacheWarning) = options.cache?.load() ?? ([:], nil)
        if let cacheWarning { warnings.append(cacheWarning) }
        var entries = cached
        var outcomes: [Result<PluginDescription, PluginRejection>?] = files.map { file in
            guard let entry = cached[file.path], entry.identity == file.identity else { return nil }
            if let plugin = entry.plugin { return .success(plugin) }
            return entry.rejection.map { .failure($0) }
        }
        let pending = outcomes.indices.filter { outcomes[$0] == nil }
        scannedCount = pending.count
        for (index, outcome) in zip(pending, examine(pending.map { files[$0].path }, options: options)) {
            outcomes[index] = outcome
            let file = files[index]
            switch outcome {
            case .success(let plugin): entries[file.path] = RegistryCache.Entry(identity: file.identity, plugin: plugin)
            case .failure(let rejection): entries[file.path] = RegistryCache.Entry(identity: file.identity, rejection: rejection)
            }
        }
        if let cache = options.cache, !pending.isEmpty || cacheWarning != nil, let warning = cache.save(entries) {
            warnings.append(warning)
        }

        for (file, outcome) in zip(files, outcomes) {
            switch outcome! {
            case .failure(let rejection): rejections.append(rejection)
            case .success(let plugin):
                for d in plugin.animators {
                    register(AnimatorDescriptor(d, file: file.path, identity: file.identity, isolation: isolation, worker: options.worker))
                }
            }
        }
    }

    /// Examines files not in the cache: the cheap checks here, the rest in a
    /// scanner process (or in this process when isolation is none).
    private func examine(_ paths: [String], options: RegistryOptions) -> [Result<PluginDescription, PluginRejection>] {
        var outcomes: [Result<PluginDescription, PluginRejection>?] = paths.map { path in
            switch ELFHeader.read(path: path) {
            case .failure(let why): return .failure(PluginRejection(file: path, reason: why.description))
            case .success(let header): return header.problem.map { .failure(PluginRejection(file: path, reason: $0)) }
            }
        }
        let loadable = outcomes.indices.filter { outcomes[$0] == nil }
        let found: [Result<PluginDescription, PluginRejection>]
        switch isolation {
        case .process: found = PluginScanner.scan(loadable.map { paths[$0] }, settings: options.worker)
        case .none: found = loadable.map { PluginLoader.load(path: paths[$0]).map { PluginDescription(animators: $0.map(\.description)) } }
        }
        for (index, outcome) in zip(loadable, found) { outcomes[index] = outcome }
        return outcomes.map { $0! }
    }

    /// The animator whose short name is `name`.
    public func animator(named name: String) -> AnimatorDescriptor? {
        byName[name]
    }

    /// A loaded animator whose name differs from `name` only in case, for "did you mean".
    public func suggestion(for name: String) -> String? {
        byLowercasedName[name.lowercased()]
    }

    /// How each plugin of this registry that failed in its worker failed: those
    /// plugins are quarantined (their animators fall back at once) until
    /// ``clearQuarantine()``.
    public var quarantined: [PluginFailure] {
        let files = Set(animators.map(\.file))
        return WorkerPool.quarantined.filter { files.contains($0.file) }
    }

    /// Lets this registry's quarantined plugins run again, each in a fresh worker.
    public func clearQuarantine() {
        WorkerPool.clearQuarantine(files: Set(animators.map(\.file)))
    }

    private func register(_ animator: AnimatorDescriptor) {
        if let winner = byID[animator.id] {
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
            if byLowercasedName[animator.name.lowercased()] == nil { byLowercasedName[animator.name.lowercased()] = animator.name }
        }
    }

    private func sharedLibraries(in folder: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            warnings.append("plugin folder \(folder) does not exist")
            return []
        }
        guard isDirectory.boolValue else {
            warnings.append("plugin folder \(folder) is not a folder")
            return []
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            warnings.append("plugin folder \(folder) cannot be read")
            return []
        }
        return names.filter { $0.hasSuffix(".so") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }
}
