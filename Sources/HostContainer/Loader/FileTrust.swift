import Glibc

/// Trust on disk, in the manner of sudo and OpenSSH's StrictModes: a plugin
/// file, or a folder on its path, that someone else could change is refused.
/// That is: writable by group or others (except a sticky folder owned by root,
/// like `/tmp`, where others cannot replace what is not theirs), or owned by
/// neither root nor the user running Segue.
package struct FileTrust {
    /// Folders already judged, by path.
    private var folders: [String: String?] = [:]

    package init() {}

    /// Why `path` (a resolved, absolute path) must not be loaded, or nil when it may.
    package mutating func problem(with path: String) -> String? {
        if let own = Self.judge(path, isFolder: false) { return own }
        var folder = path
        while let slash = folder.lastIndex(of: "/"), folder != "/" {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            if let known = folders[folder] {
                if let problem = known { return problem }
                continue
            }
            let verdict = Self.judge(folder, isFolder: true)
            folders[folder] = verdict
            if let verdict { return verdict }
        }
        return nil
    }

    private static func judge(_ path: String, isFolder: Bool) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }  // missing files are reported elsewhere
        let what = isFolder ? "the folder \(path)" : "the file \(path)"
        let mode = info.st_mode
        let me = geteuid()
        if info.st_uid != 0 && info.st_uid != me {
            return "refused: \(what) is owned by user \(info.st_uid), neither root nor you (user \(me)), so its owner could change the plugin; fix: chown \(me) \(path), or set SEGUE_ALLOW_INSECURE_PLUGINS=1 if you know why"
        }
        let sticky = isFolder && mode & S_ISVTX != 0 && info.st_uid == 0
        let writers = [(S_IWOTH, "others"), (S_IWGRP, "its group")].filter { mode & $0.0 != 0 }.map(\.1)
        if let who = writers.first, !sticky {
            let octal = String(mode & 0o7777, radix: 8)
            let fix = who == "others" ? "o-w" : "g-w"
            return "refused: \(what) is writable by \(who) (mode \(octal)), so anyone in it could replace the plugin; fix: chmod \(writers.count > 1 ? "go-w" : fix) \(path), or set SEGUE_ALLOW_INSECURE_PLUGINS=1 if you know why"
        }
        return nil
    }
}
