import Foundation

/// Which version of a file a cache entry describes: a changed, replaced or
/// touched file has another identity and is scanned again.
public struct FileIdentity: Codable, Hashable, Sendable, CustomStringConvertible {
    var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64

    /// The identity of the file at `path` now, or why it cannot be examined.
    static func of(_ path: String) -> Result<FileIdentity, LoadFailure> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(LoadFailure("cannot be opened: \(String(cString: strerror(errno)))")) }
        func nanos(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
        return .success(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                     modified: nanos(info.st_mtim), changed: nanos(info.st_ctim)))
    }

    public var description: String { "\(device):\(inode):\(size):\(modified):\(changed)" }
}

/// What scans learned, kept on disk so that startup does no scanning and
/// loads nothing (GStreamer's `registry-ARCH.bin` is the model): one JSON file,
/// keyed by path and file identity, rejections included, written atomically,
/// and ignored with a warning when it is unreadable or from another version.
public struct RegistryCache: Sendable {
    /// The cache file.
    public let path: String

    /// A cache in the file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The standard cache: `$SEGUE_REGISTRY_CACHE` when set (`off` turns the
    /// cache off), else `$XDG_CACHE_HOME/segue/registry-ARCH.json`, else
    /// `~/.cache/segue/registry-ARCH.json`.
    public static func standard() -> RegistryCache? {
        let env = ProcessInfo.processInfo.environment
        if let given = env["SEGUE_REGISTRY_CACHE"], !given.isEmpty { return given == "off" ? nil : RegistryCache(path: given) }
        let base = env["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? env["HOME"].map { $0 + "/.cache" }
        return base.map { RegistryCache(path: "\($0)/segue/registry-\(architecture).json") }
    }

    static var architecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "aarch64"
        #else
        "other"
        #endif
    }

    /// One file's entry.
    struct Entry: Codable {
        var identity: FileIdentity
        var plugin: PluginDescription?
        var rejection: PluginRejection?
    }

    private struct Contents: Codable {
        var format = "segue-registry"
        var version = RegistryCache.formatVersion
        var host = SegueVersion.string
        var abi = AnimatorABIVersion.string
        var entries: [String: Entry]
    }

    static let formatVersion = 1

    /// The entries, or none and a warning when the file is unreadable or from another version.
    func load() -> (entries: [String: Entry], warning: String?) {
        guard let data = FileManager.default.contents(atPath: path) else { return ([:], nil) }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data), contents.format == "segue-registry" else {
            return ([:], "the registry cache \(path) is unreadable; it is ignored and will be rewritten")
        }
        guard contents.version == Self.formatVersion, contents.host == SegueVersion.string, contents.abi == AnimatorABIVersion.string else {
            return ([:], "the registry cache \(path) was written by segue \(contents.host) (ABI \(contents.abi), format \(contents.version)); it is ignored and will be rewritten")
        }
        return (contents.entries, nil)
    }

    /// Writes `entries` atomically (a temporary file renamed over the cache).
    /// - Returns: nil, or a warning saying why it could not.
    func save(_ entries: [String: Entry]) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = "\(path).\(getpid()).tmp"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try JSONEncoder().encode(Contents(entries: entries)).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return nil
        } catch {
            unlink(temporary)
            return "the registry cache \(path) could not be written: \(error.localizedDescription)"
        }
    }
}
