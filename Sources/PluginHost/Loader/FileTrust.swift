import AnimatorABI
import Glibc

/// Trust on disk, in the manner of sudo and OpenSSH's StrictModes: a plugin
/// file, or a folder on its path, that someone else could change is refused.
/// That is: writable by group or others (except a sticky folder owned by root,
/// like `/tmp`, where others cannot replace what is not theirs), or owned by
/// neither root nor the user running Segue.
package struct FileTrust {
    /// Folders already judged, by path.
    private var folders: [String: String?] = [:]
    /// The folder of the last file judged, and its verdict: the files of one
    /// folder come together, and comparing bytes is cheaper than a lookup.
    private var lastFolder: (path: String, verdict: String?)?
    private let me = geteuid()

    package init() {}

    /// Why `path` (a resolved, absolute path, whose `stat` found `mode` and
    /// `owner`) must not be loaded, or nil when it may.
    package mutating func problem(with path: String, mode: mode_t, owner: uid_t) -> String? {
        if let own = Self.judge(path, mode: mode, owner: owner, isFolder: false, me: me) { return own }
        if let last = lastFolder, Self.isInside(path, last.path) { return last.verdict }
        let verdict = folderProblem(path)
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex {
            lastFolder = (String(path[..<slash]), verdict)
        }
        return verdict
    }

    /// Whether `path`'s folder is exactly `folder` (on bytes: called per file).
    private static func isInside(_ path: String, _ folder: String) -> Bool {
        var (path, folder) = (path, folder)
        return path.withUTF8 { p in
            folder.withUTF8 { f in
                p.count > f.count && p[f.count] == UInt8(ascii: "/") && !p[(f.count + 1)...].contains(UInt8(ascii: "/"))
                    && (f.isEmpty || memcmp(p.baseAddress!, f.baseAddress!, f.count) == 0)
            }
        }
    }

    /// The first problem with a folder on `path`'s way up to the root, or nil.
    private mutating func folderProblem(_ path: String) -> String? {
        var folder = path
        while let slash = folder.utf8.lastIndex(of: UInt8(ascii: "/")), folder != "/" {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            if let known = folders[folder] {
                if let problem = known { return problem }
                continue
            }
            var folderInfo = stat()
            let verdict = stat(folder, &folderInfo) == 0
                ? Self.judge(folder, mode: folderInfo.st_mode, owner: folderInfo.st_uid, isFolder: true, me: me) : nil
            folders[folder] = verdict
            if let verdict { return verdict }
        }
        return nil
    }

    private static func judge(_ path: String, mode: mode_t, owner: uid_t, isFolder: Bool, me: uid_t) -> String? {
        let sticky = isFolder && mode & S_ISVTX != 0 && owner == 0
        let writable = mode & (S_IWOTH | S_IWGRP) != 0 && !sticky
        guard owner != 0 && owner != me || writable else { return nil }
        // Only a refusal pays for its words.
        let what = isFolder ? "the folder \(path)" : "the file \(path)"
        if owner != 0 && owner != me {
            return "refused: \(what) is owned by user \(owner), neither root nor you (user \(me)), so its owner could change the plugin; fix: chown \(me) \(path), or set SEGUE_ALLOW_INSECURE_PLUGINS=1 if you know why"
        }
        let writers = [(S_IWOTH, "others"), (S_IWGRP, "its group")].filter { mode & $0.0 != 0 }.map(\.1)
        let fix = writers.count > 1 ? "go-w" : writers[0] == "others" ? "o-w" : "g-w"
        return "refused: \(what) is writable by \(writers[0]) (mode \(String(mode & 0o7777, radix: 8))), so anyone in it could replace the plugin; fix: chmod \(fix) \(path), or set SEGUE_ALLOW_INSECURE_PLUGINS=1 if you know why"
    }
}
