import Foundation
import HostContainer

/// Picture files, each decoded once and kept while the file is unchanged
/// (same device, inode, size and modification time); a file changed on disk
/// is decoded again when next asked for. When the new file cannot be decoded
/// the last picture that could stays on screen (``picture(at:)``) while
/// ``load(_:)`` reports the problem. Thread-safe.
public final class PictureCache: @unchecked Sendable {
    /// The process's cache: every renderer draws from it.
    public static let shared = PictureCache()

    private struct Identity: Equatable { let device: UInt64, inode: UInt64, size: Int64, modified: Int64 }
    private struct Entry {
        var identity: Identity?
        var result: Result<Picture, PictureProblem>
        var lastGood: Picture?
    }
    private var entries: [String: Entry] = [:]
    private let lock = NSLock()
    /// The library to decode with instead of the standard one (tests).
    let library: String?

    init(library: String? = nil) { self.library = library }

    /// The file at `path` as it is now: its picture, or why there is none.
    public func load(_ path: String) -> Result<Picture, PictureProblem> {
        lock.lock()
        defer { lock.unlock() }
        return refreshed(path).result
    }

    /// What to draw for `path`: its picture, or the last one it had that
    /// could be decoded; nil when it never had one.
    public func picture(at path: String) -> Picture? {
        lock.lock()
        defer { lock.unlock() }
        return refreshed(path).lastGood
    }

    /// The largest size, in pixels, any picture is drawn at (nil: any, the
    /// default): a tool drawing into a frame of known size (`segue preview`)
    /// says so, and pictures at least twice as large are decoded reduced
    /// (``PictureDecoder/decode(_:maximumPixels:fitting:library:)``). A view
    /// drawn larger than this (an animator zooming past the frame) shows the
    /// reduced picture scaled up. Set it before the first picture is loaded:
    /// setting it forgets the pictures decoded so far.
    public var drawnAtMost: (width: Int, height: Int)? {
        get { lock.withLock { fitting } }
        set {
            lock.withLock {
                fitting = newValue
                entries.removeAll()
            }
        }
    }
    private var fitting: (width: Int, height: Int)?

    /// Forgets every picture (their memory goes when no frame holds them).
    public func removeAll() {
        lock.lock()
        entries.removeAll()
        lock.unlock()
    }

    private func refreshed(_ path: String) -> Entry {
        var info = stat()
        let exists = stat(path, &info) == 0
        let identity = exists ? Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                          modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)) : nil
        if let entry = entries[path], entry.identity == identity, identity != nil { return entry }
        var entry = entries[path] ?? Entry(identity: nil, result: .failure(PictureProblem(description: "", libraryMissing: false)))
        entry.identity = identity
        entry.result = Self.read(path, info: exists ? info : nil).flatMap { PictureDecoder.decode($0, fitting: fitting, library: library) }
        if case .success(let picture) = entry.result { entry.lastGood = picture }
        entries[path] = entry
        return entry
    }

    /// The bytes of the regular file at `path` (`info` its stat, nil when there is none), or what it is instead.
    private static func read(_ path: String, info: stat?) -> Result<[UInt8], PictureProblem> {
        guard let info else { return .failure(PictureProblem(description: "nothing (no such file)", libraryMissing: false)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(PictureProblem(description: "a folder", libraryMissing: false))
        default: return .failure(PictureProblem(description: "a device or other special file, not a regular file", libraryMissing: false))
        }
        guard info.st_size <= PictureDecoder.maximumFileBytes else {
            return .failure(PictureProblem(description: "a file of \(info.st_size) bytes, more than the \(PictureDecoder.maximumFileBytes >> 20) MiB read",
                                           libraryMissing: false))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(PictureProblem(description: "a file that cannot be read (\(String(cString: strerror(errno))))", libraryMissing: false))
        }
        return .success([UInt8](data))
    }
}
