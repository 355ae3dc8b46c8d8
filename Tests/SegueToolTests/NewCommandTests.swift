import Foundation
@testable import PluginHost
import TestSupport
import Testing

/// `segue new`: for every language it has a template for, the folder it
/// writes builds with its own Makefile into an animator proven as the
/// examples are (listed, played in the sandbox, validated at strictness 10
/// with no warning, previewed) that installs where segue looks; it refuses
/// a name that is not an animator's, a language it has no template for, and
/// a folder that is not empty, saying why.
struct NewCommandTests {
    @Test(.enabled(if: Toolchain.hasMake, "skipped: segue new --lang c needs make"))
    func aNewCAnimatorBuildsValidatesAndInstalls() throws { try Self.prove("c") }

    @Test(.enabled(if: Toolchain.canBuildCPlusPlus, "skipped: segue new --lang cpp needs c++ and make (.ci/run installs g++)"))
    func aNewCPlusPlusAnimatorBuildsValidatesAndInstalls() throws { try Self.prove("cpp") }

    @Test(.enabled(if: Toolchain.canBuildRust, "skipped: segue new --lang rust needs cargo and make"))
    func aNewRustAnimatorBuildsValidatesAndInstalls() throws { try Self.prove("rust") }

    @Test(.enabled(if: Toolchain.hasMake && Toolchain.found("swift"), "skipped: segue new --lang swift needs swift and make"))
    func aNewSwiftAnimatorBuildsValidatesAndInstalls() throws { try Self.prove("swift") }

    @Test(.enabled(if: Toolchain.canBuildZig, "skipped: segue new --lang zig needs Zig 0.14 and make (.ci/run installs ziglang)"))
    func aNewZigAnimatorBuildsValidatesAndInstalls() throws { try Self.prove("zig") }

    /// Writes, builds, validates and installs a new animator in `language`.
    static func prove(_ language: String) throws {
        let parent = makeTemporaryFolder("new-\(language)")
        let name = "Fade-\(language)"
        let made = try run(Paths.segue, ["new", name, "--lang", language], in: parent)
        #expect(made.status == 0, "\(made.err)")
        let folder = parent + "/" + name
        let readme = try String(contentsOfFile: folder + "/README.md", encoding: .utf8)
        #expect(readme.contains("make") && readme.contains("segue preview \(name)") && readme.contains("segue validate lib\(name).so"))

        let built = try run("/usr/bin/make", ["-C", folder], in: folder, environment: ["CARGO_TARGET_DIR": folder + "/target"], timeout: 600)
        try #require(built.status == 0, "\(built.out)\(built.err)")
        // Listed, played in the sandbox, validated at strictness 10 with no warning, previewed: as the examples are.
        try ExampleAnimatorTests.prove(name, in: folder, parameters: ["duration"], setting: #""duration": 0.5"#)
        let described = AnimatorRegistry(folders: [folder], isolation: .none).animator(named: name)
        #expect(described?.id == "org.example.fade-\(language)/1", "NAME is in the id: \(String(describing: described?.id))")
        if language == "rust" {
            let tests = try run("/usr/bin/make", ["-C", folder, "test"], in: folder, environment: ["CARGO_TARGET_DIR": folder + "/target"], timeout: 600)
            #expect(tests.status == 0 && tests.out.contains("test result: ok."), "bindgen's layout tests: \(tests.out)")
        }
        try ExampleAnimatorTests.proveInstall(["-C", folder], in: folder, name: name)
    }

    @Test(arguments: [
        (["new", "2Fast"], 2, "'2Fast' is not an animator name: expected a letter, then letters, digits, '-' or '_'"),
        (["new", "Has Space"], 2, "'Has Space' is not an animator name"),
        (["new", "Fine", "--lang", "cobol"], 2, "--lang cobol: expected one of c, cpp, rust, swift, zig"),
    ])
    func aBadNameOrLanguageIsAUsageError(_ c: (arguments: [String], status: Int32, message: String)) throws {
        let parent = makeTemporaryFolder("new-bad")
        let result = try run(Paths.segue, c.arguments, in: parent)
        #expect(result.status == c.status && result.err.contains(c.message), "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty, "nothing written")
    }

    /// `--lang` offers exactly the starters there are: one folder per language in SDK/templates.
    @Test func everyLanguageOfferedHasAStarterAndNoOther() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot + "/SDK/templates").sorted()
        let help = try run(Paths.segue, ["new", "--help"])
        let offered = try #require(help.out.firstMatch(of: /The language: ([a-z, ]+) \(default c\)/)).1
        #expect(offered.split(separator: ", ").map(String.init).sorted() == folders, "\(help.out)")
    }

    @Test func aFolderThatIsNotEmptyIsLeftAlone() throws {
        let parent = makeTemporaryFolder("new-taken")
        try FileManager.default.createDirectory(atPath: parent + "/Taken", withIntermediateDirectories: true)
        try "mine".write(toFile: parent + "/Taken/notes.txt", atomically: true, encoding: .utf8)
        let result = try run(Paths.segue, ["new", "Taken"], in: parent)
        #expect(result.status == 1 && result.err.contains("exists and is not empty"), "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent + "/Taken") == ["notes.txt"])
        // An empty folder, named with --dir, is fine.
        try FileManager.default.createDirectory(atPath: parent + "/empty", withIntermediateDirectories: true)
        #expect(try run(Paths.segue, ["new", "Taken", "--dir", "empty"], in: parent).status == 0)
        #expect(FileManager.default.fileExists(atPath: parent + "/empty/Makefile"))
    }
}
