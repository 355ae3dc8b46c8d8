import Foundation
import ProcessShims
import SystemCalls

/// Watches plugin folders and single files (a config) with inotify, and
/// hands over changes in bursts: a build that writes several files, or an
/// editor's save, is one change.
///
/// In a watched folder only `.so` files count. A file being written is not
/// reported until it is closed (or renamed into place), so a reload never
/// scans a half-written plugin. A folder that does not exist yet is watched
/// for from its nearest existing parent, and is searched once it appears.
///
/// Blocks in `poll` while nothing changes: no timer, no polling loop.
/// Not thread-safe: use one watcher from one thread.
public final class FileWatcher {
    /// What ``next(settle:interruptedBy:)`` returns.
    public enum Event: Equatable, Sendable {
        /// These paths changed: `.so` files in the folders, the files, or a
        /// folder itself (appeared, went away, or too many changes to tell).
        case changed(Set<String>)
        /// The interrupting descriptor became readable; the byte it held (a
        /// signal number, with ``signalPipe(_:)``).
        case interrupted(Int32)
    }

    /// The folders watched for `.so` files.
    public private(set) var folders: [String] = []
    /// The single files watched.
    public private(set) var files: [String] = []

    private let inotify: Int32
    /// What matters in each watched directory.
    private var watches: [Int32: Watched] = [:]
    private var pendingWrites: Set<String> = []

    private struct Watched {
        var directory: String
        /// `.so` files here matter.
        var plugins = false
        /// These names matter: watched files, or the next component of a missing folder.
        var names: Set<String> = []
        /// Of those, the ones on the way to a missing folder: their appearance changes what is watched.
        var missingComponents: Set<String> = []
    }

    /// A watcher of `folders` (for `.so` files) and `files`.
    /// - Throws: ``WatchError`` when inotify is unavailable (limits reached).
    public init(folders: [String], files: [String] = []) throws(WatchError) {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw WatchError(message: "cannot watch files: inotify_init1: \(Errno.current)") }
        try watch(folders: folders, files: files)
    }

    deinit { close(inotify) }

    /// Changes what is watched (after a reload found new folders). Nothing
    /// that happens meanwhile in a folder watched before and after is missed.
    public func watch(folders: [String], files: [String]) throws(WatchError) {
        guard folders != self.folders || files != self.files else { return }
        (self.folders, self.files) = (folders, files)
        try rebuild()
    }

    /// The one watch loop of every host: waits for each burst of changes
    /// (``next(settle:interruptedBy:)``) and hands it to `apply`, which
    /// applies it (reloads, plays, hands it over) and says what to watch from
    /// then on (a reload may find other folders), or nil to stop.
    /// - Parameter failed: told when what `apply` asked for cannot be watched
    ///   (the last set is kept).
    /// - Returns: the byte the interrupting descriptor held (a signal
    ///   number), or nil when `apply` stopped the loop.
    @discardableResult
    public func follow(settle: Double = 0.1, interruptedBy interrupt: Int32? = nil, failed: (WatchError) -> Void = { _ in },
                       _ apply: (Set<String>) -> (folders: [String], files: [String])?) -> Int32? {
        while true {
            switch next(settle: settle, interruptedBy: interrupt) {
            case .interrupted(let byte): return byte
            case .changed(let paths):
                guard let watched = apply(paths) else { return nil }
                do {
                    try watch(folders: watched.folders, files: watched.files)
                } catch {
                    failed(error)
                }
            }
        }
    }

    /// Waits for the next burst of changes: returns once something changed
    /// and then nothing more for `settle` seconds, with every file that was
    /// being written closed again (a writer that keeps a file open longer
    /// than 10 s is not waited for).
    /// - Parameter interrupt: a descriptor (such as ``signalPipe(_:)``) that
    ///   ends the wait as soon as it is readable.
    public func next(settle: Double = 0.1, interruptedBy interrupt: Int32? = nil) -> Event {
        var changed: Set<String> = []
        var lastEvent = Date.distantPast
        let patience = 10.0
        while true {
            var timeout: Double?
            if !changed.isEmpty {
                let quiet = Date().timeIntervalSince(lastEvent)
                let wait = pendingWrites.isEmpty ? settle - quiet : patience - quiet
                if wait <= 0 {
                    pendingWrites.removeAll()
                    return .changed(changed)
                }
                timeout = wait
            }
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
            if let interrupt { fds.append(pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)) }
            // Interrupted, it waits again; failing, it says everything may have changed.
            guard (try? SystemCall.poll(&fds, until: timeout.map { MonotonicTime.now + $0 })) != nil else {
                return .changed(changed.union(folders))
            }
            if fds.count > 1, fds[1].revents != 0 {
                var byte: UInt8 = 0
                let got = try? withUnsafeMutableBytes(of: &byte) { bytes throws(Errno) in try SystemCall.read(fds[1].fd, into: bytes) }
                return .interrupted(got == 1 ? Int32(byte) : 0)
            }
            if fds[0].revents != 0, drain(into: &changed) { lastEvent = Date() }
        }
    }

    /// Reads every queued event; returns whether any mattered.
    private func drain(into changed: inout Set<String>) -> Bool {
        var mattered = false
        var needsRebuild = false
        /// Folders that appeared on the way to a watched path.
        var appeared: [String] = []
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            // Non-blocking: EAGAIN once the queue is empty.
            guard let count = try? SystemCall.read(inotify, into: UnsafeMutableRawBufferPointer(start: buffer, count: size)), count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = UnsafeRawBufferPointer(start: buffer + nameStart, count: Int(event.len)).prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset = nameStart + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed.formUnion(folders + files)
                    (mattered, needsRebuild) = (true, true)
                    continue
                }
                guard let watched = watches[event.wd] else { continue }
                if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    changed.insert(watched.directory)
                    (mattered, needsRebuild) = (true, true)
                    continue
                }
                guard !name.isEmpty, (watched.plugins && name.hasSuffix(".so")) || watched.names.contains(name) else { continue }
                let path = watched.directory == "/" ? "/" + name : watched.directory + "/" + name
                if watched.missingComponents.contains(name) {
                    needsRebuild = true
                    appeared.append(path)
                }
                if event.mask & UInt32(IN_MODIFY) != 0 {
                    pendingWrites.insert(path)
                } else if event.mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 {
                    pendingWrites.remove(path)
                }
                changed.insert(path)
                mattered = true
            }
        }
        if needsRebuild { try? rebuild() }
        // What lies below a folder that just appeared may have come with it,
        // before its watch: a config written right after `mkdir -p`.
        for folder in appeared {
            changed.formUnion((files + folders).filter { $0.hasPrefix(folder + "/") })
        }
        return mattered
    }

    /// Watches what ``folders`` and ``files`` need now. A directory watched
    /// before keeps its watch (adding it again returns the same one), so no
    /// event is lost; watches no longer needed are removed afterwards.
    private func rebuild() throws(WatchError) {
        var wanted: [String: Watched] = [:]
        for folder in folders {
            let (existing, missing) = Self.nearestExisting(folder)
            if let next = missing.first {
                wanted[existing, default: Watched(directory: existing)].names.insert(next)
                wanted[existing]!.missingComponents.insert(next)
            } else {
                wanted[existing, default: Watched(directory: existing)].plugins = true
            }
        }
        for file in files {
            let directory = (file as NSString).deletingLastPathComponent
            let (existing, missing) = Self.nearestExisting(directory)
            let next = missing.first ?? (file as NSString).lastPathComponent
            wanted[existing, default: Watched(directory: existing)].names.insert(next)
            if !missing.isEmpty { wanted[existing]!.missingComponents.insert(next) }
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
                          | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        var current: [Int32: Watched] = [:]
        for (directory, watched) in wanted {
            let wd = inotify_add_watch(inotify, directory, mask)
            guard wd >= 0 else {
                let error = Errno.current
                throw WatchError(message: "cannot watch \(directory): \(error)"
                                 + (error == .noSpace ? " (raise fs.inotify.max_user_watches)" : ""))
            }
            current[wd] = watched
        }
        for wd in watches.keys where current[wd] == nil { inotify_rm_watch(inotify, wd) }
        watches = current
    }

    /// The deepest existing folder on `path`'s way, and the components below it that do not exist.
    private static func nearestExisting(_ path: String) -> (String, [String]) {
        var existing = path.isEmpty ? "/" : path
        var missing: [String] = []
        var info = stat()
        while existing != "/" && !(stat(existing, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) {
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
            if existing.isEmpty { existing = "/" }
        }
        return (existing, missing)
    }

    /// A descriptor that becomes readable when one of `signals` arrives
    /// (holding its number), for ``next(settle:interruptedBy:)``: the
    /// signals no longer end the process, so that it can end cleanly. Call once.
    public static func signalPipe(_ signals: [Int32]) -> Int32 {
        signals.withUnsafeBufferPointer { process_shims_signal_pipe($0.baseAddress, Int32($0.count)) }
    }
}

/// Why files cannot be watched.
public struct WatchError: Error, CustomStringConvertible {
    /// What went wrong, for people.
    public var message: String
    public var description: String { message }

    package init(message: String) { self.message = message }
}
