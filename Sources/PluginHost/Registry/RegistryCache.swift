import AnimatorABI
import Foundation
import PluginRuntime
import SystemCalls

/// Which version of a file a cache entry describes: a changed, replaced or
/// touched file has another identity and is scanned again.
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64

    /// The identity of the file at `path` now, or why it cannot be examined.
    package static func of(_ path: String) -> Result<FileIdentity, LoadFailure> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(LoadFailure("cannot be opened: \(Errno.current)")) }
        return .success(FileIdentity(info))
    }

    /// The identity a `stat` found.
    init(_ info: stat) {
        func nanos(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
        (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
        (modified, changed) = (nanos(info.st_mtim), nanos(info.st_ctim))
    }

    package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    public var description: String { "\(device):\(inode):\(size):\(modified):\(changed)" }
}

/// What scans learned, kept on disk so that startup does no scanning and
/// loads nothing (GStreamer's `registry-ARCH.bin` is the model): one binary
/// file, keyed by path and file identity, rejections included, written
/// atomically, and ignored with a warning when it is damaged or from another
/// version. Each file's animator ids and names are read at startup; the rest
/// of its description is decoded when first asked for.
public struct RegistryCache: Sendable {
    /// The cache file.
    public let path: String

    /// A cache in the file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The standard cache: `$SEGUE_REGISTRY_CACHE` when set (`off` turns the
    /// cache off), else `$XDG_CACHE_HOME/segue/registry-ARCH.bin`, else
    /// `~/.cache/segue/registry-ARCH.bin`.
    public static func standard(environment env: [String: String] = ProcessInfo.processInfo.environment) -> RegistryCache? {
        if let given = env["SEGUE_REGISTRY_CACHE"], !given.isEmpty { return given == "off" ? nil : RegistryCache(path: given) }
        let base = env["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? env["HOME"].map { $0 + "/.cache" }
        return base.map { RegistryCache(path: "\($0)/segue/registry-\(architecture).bin") }
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

    /// One file's entry: a rejection, or its animators' ids and names with the
    /// rest of the description still encoded.
    struct Entry {
        var path: ArraySlice<UInt8>
        var identity: FileIdentity
        var outcome: Outcome
        enum Outcome {
            case rejected(PluginRejection)
            case plugin(PluginDetails)
        }
    }

    /// A cache file as read: where each entry is, in the order they were
    /// written (the order a registry found its files, so a warm start meets
    /// them one after the other), each decoded only when a file matches it.
    /// Paths stay bytes: no string is made for the thousands a warm start only compares.
    struct Contents {
        let bytes: [UInt8]
        /// Each entry's path (a range of `bytes`), identity, and where its outcome starts.
        let located: [(path: Range<Int>, identity: FileIdentity, outcome: Int)]

        static let empty = Contents(bytes: [], located: [])

        func path(_ i: Int) -> ArraySlice<UInt8> { bytes[located[i].path] }

        /// Whether entry `i` is for the file at `path`.
        func hasPath(_ i: Int, _ path: String) -> Bool {
            var path = path
            let range = located[i].path
            return path.withUTF8 { wanted in
                wanted.count == range.count && (range.isEmpty
                    || bytes.withUnsafeBytes { memcmp($0.baseAddress! + range.lowerBound, wanted.baseAddress!, range.count) } == 0)
            }
        }

        /// Entry `i`'s outcome (its structure was checked when the file was read).
        func outcome(_ i: Int) -> Entry.Outcome? {
            var r = ByteReader(bytes, from: located[i].outcome)
            return try? RegistryCache.outcome(&r, path: path(i))
        }

        func entry(_ i: Int) -> Entry? {
            outcome(i).map { Entry(path: path(i), identity: located[i].identity, outcome: $0) }
        }

        /// Entry indices by file identity, for files not met in order.
        func index() -> [FileIdentity: Int] {
            Dictionary(located.indices.map { (located[$0].identity, $0) }, uniquingKeysWith: { a, _ in a })
        }
    }

    static let magic = Array("SEGUEREG".utf8)
    static let formatVersion: UInt32 = 3

    /// The entries, or none and a warning when the file is damaged or from another version.
    func load() -> (contents: Contents, warning: String?) {
        guard let bytes = Self.contents(of: path) else { return (.empty, nil) }
        var r = ByteReader(bytes, from: Self.magic.count)
        guard bytes.starts(with: Self.magic), let version = try? r.u32() else {
            return (.empty, "the registry cache \(path) is damaged; it is ignored and will be rewritten")
        }
        guard version == Self.formatVersion, let host = try? r.string(), let abi = try? r.string(),
              host == SegueVersion.string, abi == AnimatorABIVersion.string else {
            return (.empty, "the registry cache \(path) was written by another version of segue; it is ignored and will be rewritten")
        }
        do throws(ByteReader.Truncated) {
            let count = try r.count(minimumSize: 45)
            var located: [(path: Range<Int>, identity: FileIdentity, outcome: Int)] = []
            located.reserveCapacity(count)
            for _ in 0..<count {
                let file = try r.span()
                let identity = FileIdentity(device: try r.u64(), inode: try r.u64(), size: Int64(bitPattern: try r.u64()),
                                            modified: Int64(bitPattern: try r.u64()), changed: Int64(bitPattern: try r.u64()))
                located.append((file, identity, r.offset))
                // Skipped over, its structure checked: decoded when a file matches it.
                switch try r.u8() {
                case 0:
                    for _ in 0..<(try r.count(minimumSize: 8)) { _ = (try r.span(), try r.span()) }
                    _ = try r.span()
                default:
                    _ = (try r.u8(), try r.span())
                }
            }
            return (Contents(bytes: bytes, located: located), nil)
        } catch {
            return (.empty, "the registry cache \(path) is damaged; it is ignored and will be rewritten")
        }
    }

    /// An entry's outcome, read from its kind byte on.
    private static func outcome(_ r: inout ByteReader, path: ArraySlice<UInt8>) throws(ByteReader.Truncated) -> Entry.Outcome {
        switch try r.u8() {
        case 0:
            var names: [(id: String, name: String)] = []
            for _ in 0..<(try r.count(minimumSize: 8)) { names.append((try r.string(), try r.string())) }
            return .plugin(PluginDetails(names: names, encoded: try r.blob()))
        default:
            let inDescriptor = try r.u8() != 0
            let reason = try r.string()
            return .rejected(PluginRejection(file: String(decoding: path, as: UTF8.self), reason: reason, inDescriptor: inDescriptor))
        }
    }

    /// The whole file, read straight into an array; nil when it cannot be read.
    static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var whole = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size, let n = try? SystemCall.read(fd, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...]))), n > 0 {
                count += n
            }
            whole = count == size
        }
        return whole ? bytes : nil
    }

    /// Writes `entries`, in their order, atomically (a temporary file renamed over the cache).
    /// - Returns: nil, or a warning saying why it could not.
    func save(_ entries: [Entry]) -> String? {
        var w = ByteWriter()
        for b in Self.magic { w.u8(b) }
        w.u32(Self.formatVersion)
        w.string(SegueVersion.string)
        w.string(AnimatorABIVersion.string)
        w.u32(UInt32(entries.count))
        for entry in entries {
            w.blob(entry.path)
            let id = entry.identity
            for v in [id.device, id.inode, UInt64(bitPattern: id.size), UInt64(bitPattern: id.modified), UInt64(bitPattern: id.changed)] { w.u64(v) }
            switch entry.outcome {
            case .plugin(let details):
                w.u8(0)
                w.u32(UInt32(details.names.count))
                for n in details.names {
                    w.string(n.id)
                    w.string(n.name)
                }
                w.blob(details.encoded)
            case .rejected(let rejection):
                w.u8(1)
                w.u8(rejection.inDescriptor ? 1 : 0)
                w.string(rejection.reason)
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = "\(path).\(getpid()).tmp"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(w.bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return nil
        } catch {
            unlink(temporary)
            return "the registry cache \(path) could not be written: \(error.localizedDescription)"
        }
    }
}

/// A plugin file's description as the registry keeps it: the animators' ids
/// and names at once, the rest decoded (and validated again) on first use.
/// Thread-safe.
package final class PluginDetails: @unchecked Sendable {  // `decoded` is guarded by `lock`
    package let names: [(id: String, name: String)]
    let encoded: ArraySlice<UInt8>
    /// One lock for every plugin's details: decoding is rare, and a warm start makes thousands of these.
    private static let lock = Lock()
    private var decoded: PluginDescription?

    init(names: [(id: String, name: String)], encoded: ArraySlice<UInt8>) {
        (self.names, self.encoded) = (names, encoded)
    }

    /// Details already at hand (a fresh scan).
    package convenience init(_ description: PluginDescription) {
        self.init(names: description.animators.map { ($0.id, $0.name) }, encoded: description.encoded()[...])
        decoded = description
    }

    /// Animator `index`'s description; a damaged cache entry reads as an
    /// animator with no parameters whose summary says so.
    package func animator(_ index: Int) -> AnimatorDescription {
        let description = Self.lock.withLock {
            if decoded == nil {
                var r = ByteReader(Array(encoded))
                decoded = (try? PluginDescription(decoding: &r)).flatMap { try? PluginBoundary.validated($0).get() }
            }
            return decoded
        }
        let (id, name) = names[index]
        guard let a = description?.animators.indices.contains(index) == true ? description?.animators[index] : nil,
              a.id == id, a.name == name else {
            return AnimatorDescription(id: id, name: name, version: "?", summary: "(its registry cache entry is damaged: delete the cache to scan it again)", parameters: [])
        }
        return a
    }
}
