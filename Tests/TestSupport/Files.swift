import Foundation
import Glibc
import Testing

/// Where things are when the tests run.
public enum Paths {
    /// The package's root folder.
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/TestSupport/Files.swift
        return url.path
    }()

    /// The build folder holding the test runner, the plugin .so files and `segue`.
    public static let binFolder: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (exe as NSString).deletingLastPathComponent
    }()

    public static let header = packageRoot + "/Sources/AnimatorABI/include"

    public static func plugin(_ name: String) -> String { binFolder + "/lib\(name).so" }

    public static let segue = binFolder + "/segue"

    /// The registry cache the tests' `segue` runs share, away from the user's own.
    public static let testCache = makeTemporaryFolder("segue-cache") + "/registry.bin"

    /// An `XDG_DATA_HOME` with no plugins in it.
    public static let emptyDataHome = makeTemporaryFolder("segue-data")

    /// An `XDG_CONFIG_HOME` with no standard config (segue/segue.json) in it.
    public static let emptyConfigHome = makeTemporaryFolder("segue-config")
}

/// A system shared library that is not a plugin (resolved, so that copying it copies the file).
public func systemLibrary() throws -> String {
    let candidates = ["x86_64-linux-gnu", "aarch64-linux-gnu", "riscv64-linux-gnu"].flatMap { triple in
        ["/lib/\(triple)/libz.so.1", "/usr/lib/\(triple)/libz.so.1", "/lib/\(triple)/libm.so.6"]
    }
    let found = try #require(candidates.first { FileManager.default.fileExists(atPath: $0) }, "a system library to copy")
    return URL(fileURLWithPath: found).resolvingSymlinksInPath().path
}

/// One folder for everything a test process makes, removed when the process
/// exits (not sooner: the loader keeps libraries in it mapped). It is also
/// the process's TMPDIR, so what Foundation and the programs the tests start
/// put in temporary folders goes with it.
public enum Scratch {
    public static let root: String = {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path
        var template = Array((base + "/segue-tests-XXXXXX").utf8CString)
        let path = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
        setenv("TMPDIR", path, 1)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.root) }
        return path
    }()
}

/// Writes `text` beside `path`, then renames it over `path`, as editors and
/// build tools replace files (Foundation's atomic write does the same but
/// leaves a folder behind in /tmp on Linux).
public func replaceByRename(_ path: String, with text: String) throws {
    let temporary = path + ".new"
    try text.write(toFile: temporary, atomically: false, encoding: .utf8)
    guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
}

/// A fresh folder inside ``Scratch/root``.
public func makeTemporaryFolder(_ label: String = "segue-test") -> String {
    var template = Array((Scratch.root + "/\(label)-XXXXXX").utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: path!)
}

/// Of `paths` (relative to the package root, as if made there), those the checkout's ignore
/// files do not ignore: what a build in the checkout would leave for `git status` to show.
public func notIgnoredByGit(_ paths: [String]) throws -> [String] {
    guard !paths.isEmpty else { return [] }
    let checked = try run("/usr/bin/git", ["-C", Paths.packageRoot, "check-ignore", "--verbose", "--non-matching", "--"] + paths)
    // Each path: "SOURCE:LINE:PATTERN<tab>PATH", or "::<tab>PATH" when nothing matched; a "!" pattern keeps it.
    let lines = checked.out.split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 1).map(String.init) }
    guard checked.status <= 1, lines.count == paths.count, lines.allSatisfy({ $0.count == 2 }) else {
        throw GitFailure(description: "git check-ignore: status \(checked.status): \(checked.out)\(checked.err)")
    }
    return lines.filter { $0[0].hasSuffix("::") || $0[0].split(separator: ":", maxSplits: 2).last?.hasPrefix("!") == true }.map { $0[1] }
}

/// A git command that did not answer as expected, and what it printed.
public struct GitFailure: Error, CustomStringConvertible {
    public let description: String
}

/// Every file under `folder`, relative to it.
public func filesUnder(_ folder: String) -> [String] {
    (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isFolder) && !isFolder.boolValue
    }.sorted()
}
