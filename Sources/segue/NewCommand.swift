import AnimatorABI
import Foundation
import PluginHost
import PluginRuntime

/// `segue new NAME`: a ready-to-build animator folder, like `cargo new`: the
/// animator (a cross-fade to start from), a build file whose default target
/// builds `libNAME.so` and whose `install` target puts it in the user's plugin
/// folder (by the SDK's `segue-plugin.mk`), and a README of three commands.
/// The starters are files, one folder per language under `SDK/templates`;
/// the tests build, validate and install each.
enum NewCommand {
    static let about = """
    Writes a folder (DIR, default ./NAME) holding an animator named NAME that
    builds as it is: its source, a Makefile (make builds libNAME.so, make
    install copies it into your plugin folder) and a README of the three
    commands that build, preview and validate it. NAME is the animator's short
    name, as configs select it: a letter, then letters, digits, '-' or '_'.
    It refuses a folder that exists and is not empty.
    """

    /// The languages there are templates for.
    static let languages = ["c", "cpp", "rust", "swift", "zig"]

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.new) else { return .success }
        let name = args.operand
        guard PluginBoundary.isValidName(name), name.utf8.count <= Int(SEGUE_MAX_NAME) else {
            throw args.usage("new: '\(PluginText.escaped(name))' is not an animator name: expected a letter, then letters, digits, '-' or '_' (at most \(SEGUE_MAX_NAME) bytes)")
        }
        let language = args.single("--lang") ?? "c"  // the parser checked it is one of `languages`
        let folder = PluginFolders.absolute(args.single("--dir") ?? name)
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: folder), !existing.isEmpty {
            printError("segue: \(folder) exists and is not empty: segue new writes only into a new or empty folder")
            return .failure
        }
        guard let sdk = SDK.beside() else {
            printError("segue: cannot find the Segue SDK beside this segue (segue_animator.h in PREFIX/include, or the source tree): install it (Scripts/install-sdk.sh)")
            return .failure
        }
        let files: [(String, String)]
        do {
            files = try sdk.starter(language, name: name)
        } catch {
            printError("segue: \(error.message)")
            return .failure
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (file, text) in files {
                try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: folder + "/" + file).deletingLastPathComponent().path,
                                                        withIntermediateDirectories: true)
                try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
            }
        } catch {
            printError("segue: cannot write \(folder): \(error.localizedDescription)")
            return .failure
        }
        print("wrote \(folder): \(files.map(\.0).sorted().joined(separator: ", "))")
        print("next: cd \(folder) && make && segue validate lib\(name).so")
        return .success
    }

    /// What `segue new` copies from: the SDK Scripts/install-sdk.sh installs
    /// (PREFIX/include, PREFIX/share/segue), or the source tree this segue
    /// was built in (Sources/AnimatorABI/include, SDK/, Examples/).
    struct SDK {
        /// The folder holding `segue_animator.h` and `segue/*.h`.
        let include: String
        /// `templates/LANGUAGE/`: each language's starter, with @NAME@, @IDENT@, @ID@, @CRATE@ and @SEGUE_MK@ to fill in.
        let templates: String
        /// `segue-plugin.mk`, which every starter's Makefile includes.
        let makefile: String
        /// bindgen's translation of the header, which the Rust starter carries.
        let rustBindings: String

        /// The SDK of the installation this segue is in (segue in PREFIX/bin), else of its source tree.
        static func beside() -> SDK? {
            let bin = URL(fileURLWithPath: PluginSearchPath.currentExecutable()).resolvingSymlinksInPath().deletingLastPathComponent()
            let prefix = bin.deletingLastPathComponent().path
            // .build/TRIPLE/CONFIGURATION/segue, in the package's root
            let root = bin.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
            let layouts = [
                SDK(include: prefix + "/include", templates: prefix + "/share/segue/templates",
                    makefile: prefix + "/share/segue/segue-plugin.mk", rustBindings: prefix + "/share/segue/rust/bindings.rs"),
                SDK(include: root + "/Sources/AnimatorABI/include", templates: root + "/SDK/templates",
                    makefile: root + "/SDK/segue-plugin.mk", rustBindings: root + "/Examples/rust-animator/src/bindings.rs"),
            ]
            return layouts.first { FileManager.default.fileExists(atPath: $0.include + "/segue_animator.h") }
        }

        struct Missing: Error { let message: String }

        /// The files of a new animator `name` in `language`, by path in its folder.
        func starter(_ language: String, name: String) throws(Missing) -> [(String, String)] {
            let folder = templates + "/" + language
            guard let paths = FileManager.default.subpaths(atPath: folder), !paths.isEmpty else {
                throw Missing(message: "cannot find the \(language) template (\(folder)): install the SDK (Scripts/install-sdk.sh)")
            }
            let crate = NewCommand.identifier(name).lowercased()
            let fill = [("@NAME@", name), ("@IDENT@", NewCommand.identifier(name)), ("@CRATE@", crate),
                        ("@ID@", "org.example.\(NewCommand.idPart(name))/1"), ("@SEGUE_MK@", makefile)]
            func filled(_ text: String) -> String {
                fill.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
            }
            var files: [(String, String)] = []
            for path in paths.sorted() {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                files.append((filled(path), filled(try read(folder + "/" + path))))
            }
            switch language {
            case "swift":
                // The header goes into the package as a C target, so the package needs no Segue checkout.
                let headers = ["segue_animator.h"] + ((try? FileManager.default.contentsOfDirectory(atPath: include + "/segue")) ?? [])
                    .filter { $0.hasSuffix(".h") && $0 != "embed.h" }.sorted().map { "segue/" + $0 }
                for header in headers {
                    files.append(("Sources/AnimatorABI/include/" + header, try read(include + "/" + header)))
                }
            case "rust":
                files.append(("src/bindings.rs", try read(rustBindings)))
            default:
                break
            }
            return files
        }

        private func read(_ path: String) throws(Missing) -> String {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw Missing(message: "cannot read \(path): install the SDK (Scripts/install-sdk.sh)")
            }
            return text
        }
    }

    /// NAME as a C identifier and as the id's last part.
    static func identifier(_ name: String) -> String { name.replacingOccurrences(of: "-", with: "_") }
    static func idPart(_ name: String) -> String { name.lowercased().replacingOccurrences(of: "_", with: "-") }
}
