import Foundation
import TestSupport
import Testing

/// The README's install, into a temporary prefix, used from outside the checkout.
struct InstallTests {
    static let install = Paths.packageRoot + "/Scripts/install.sh"

    /// The issue's acceptance check: install, then a bundled animator and a
    /// plugin in the user folder are found and run, by the installed segue
    /// and its installed worker, from another folder; uninstall leaves nothing.
    @Test func theInstalledSegueFindsTheBundledAnimatorsAndTheUsersOwn() throws {
        let prefix = makeTemporaryFolder("segue-prefix")
        let installed = try run("/bin/sh", [Self.install, "--prefix", prefix, "--from", Paths.binFolder], in: makeTemporaryFolder())
        #expect(installed.status == 0, "\(installed.out)\(installed.err)")
        for file in ["bin/segue", "libexec/segue/segue-worker", "lib/segue/plugins/libSpringSlide.so",
                     "lib/segue/plugins/libCurlUp.so", "lib/segue/plugins/libImageZoom.so", "include/segue_animator.h",
                     "include/segue/animator.h", "lib/pkgconfig/segue-animator.pc", "share/segue/segue-plugin.mk", "share/segue/templates/c/Makefile",
                     "share/man/man1/segue.1",
                     "share/bash-completion/completions/segue", "share/zsh/site-functions/_segue",
                     "share/fish/vendor_completions.d/segue.fish", "share/segue/install-manifest"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) is installed")
        }
        let pluginDir = try run("/usr/bin/env", ["pkg-config", "--variable=plugindir", "segue-animator"],
                                environment: ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"])
        #expect(pluginDir.out == prefix + "/lib/segue/plugins\n", "\(pluginDir.err)")

        // A C animator built with the guide's line, copied into the user's folder.
        let data = makeTemporaryFolder("segue-data")
        let user = data + "/segue/plugins"
        try FileManager.default.createDirectory(atPath: user, withIntermediateDirectories: true)
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "fade", into: user)
        let elsewhere = makeTemporaryFolder()
        let segue = prefix + "/bin/segue"
        let environment = ["XDG_DATA_HOME": data, "SEGUE_WORKER": ""]  // the installed worker, found from bin/
        let list = try run(segue, ["list", "--json"], in: elsewhere, environment: environment)
        #expect(list.status == 0, "\(list.err)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
        let animators = try #require(doc["animators"] as? [[String: Any]])
        #expect(animators.map { $0["name"] as? String } == ["TestFade", "CurlUp", "ImageZoom", "Pop", "SpringSlide"])
        #expect(animators.dropFirst().allSatisfy { ($0["file"] as? String)?.hasPrefix(prefix + "/lib/segue/plugins/") == true })
        #expect((doc["folders"] as? [[String: Any]])?.map { $0["origin"] as? String } == ["user", "system"],
                "an installed segue has no bundled folder of its own")

        try #"{"children": ["a", "b", "c"], "script": ["b", "c"], "rules": [{"to": "b", "animator": "TestFade"}, {"to": "c", "animator": "SpringSlide"}]}"#
            .write(toFile: elsewhere + "/segue.json", atomically: false, encoding: .utf8)
        let played = try run(segue, ["run", "--json", "--config", "segue.json"], in: elsewhere, environment: environment)
        #expect(played.status == 0, "\(played.err)")
        #expect(played.out.contains(#""animator":"TestFade""#) && played.out.contains(#""animator":"SpringSlide""#),
                "selectable with no flag, run in the installed worker: \(played.out)\(played.err)")

        let removed = try run("/bin/sh", [Self.install, "--uninstall", "--prefix", prefix], in: elsewhere)
        #expect(removed.status == 0, "\(removed.err)")
        let left = FileManager.default.enumerator(atPath: prefix)?.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        #expect(left == [], "uninstall removes every file it installed")
    }

    /// The README's install has no `--from`: the script builds its products
    /// in release, then copies them. A `swift` on the PATH that "builds" a
    /// product by copying the test build's file shows that every file the
    /// script copies is one it asked to build (Pop once was not, so the
    /// install failed on every fresh clone), and that it asked for release.
    @Test func withoutFromTheInstallBuildsEveryFileItCopies() throws {
        let tools = makeTemporaryFolder("fake-swift"), bin = makeTemporaryFolder("fake-release")
        try """
        #!/bin/sh
        # build -c release --product NAME, or build -c release --show-bin-path
        [ "$1 $2 $3" = "build -c release" ] || { echo "fake swift: not a release build: $*" >&2; exit 1; }
        case "$4" in
            --show-bin-path) echo "\(bin)" ;;
            --product) case "$5" in segue|segue-worker) file=$5 ;; *) file=lib$5.so ;; esac
                       echo "$5" >> "\(tools)/built"; cp "\(Paths.binFolder)/$file" "\(bin)/$file" ;;
            *) echo "fake swift: unexpected $*" >&2; exit 1 ;;
        esac
        """.write(toFile: tools + "/swift", atomically: false, encoding: .utf8)
        chmod(tools + "/swift", 0o755)
        let prefix = makeTemporaryFolder("segue-prefix")
        let installed = try run("/bin/sh", [Self.install, "--prefix", prefix], in: makeTemporaryFolder(),
                                environment: ["PATH": tools + ":/usr/bin:/bin"])
        #expect(installed.status == 0, "\(installed.out)\(installed.err)")
        let built = (try? String(contentsOfFile: tools + "/built", encoding: .utf8)) ?? ""
        #expect(Set(built.split(separator: "\n")) == ["segue", "segue-worker", "SpringSlide", "CurlUp", "ImageZoom", "Pop", "SegueEmbedding"],
                "\(built)")
        for file in ["bin/segue", "libexec/segue/segue-worker", "lib/segue/plugins/libPop.so", "lib/libsegue.so.1"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) is installed")
        }
    }

    /// `segue new`, run by an installed segue outside the checkout, copies the
    /// installed starter, whose Makefile builds and installs by the installed
    /// SDK's segue-plugin.mk (the one pkg-config names).
    @Test(.enabled(if: Toolchain.hasMake, "skipped: the starter's Makefile needs make"))
    func anInstalledSegueNewBuildsWithTheInstalledSDK() throws {
        let prefix = makeTemporaryFolder("segue-prefix")
        let installed = try run("/bin/sh", [Self.install, "--prefix", prefix, "--from", Paths.binFolder], in: makeTemporaryFolder())
        try #require(installed.status == 0, "\(installed.out)\(installed.err)")
        let fragment = try run("/usr/bin/env", ["pkg-config", "--variable=makefile", "segue-animator"],
                               environment: ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"])
        #expect(fragment.out == prefix + "/share/segue/segue-plugin.mk\n", "\(fragment.err)")

        let elsewhere = makeTemporaryFolder("new-installed")
        let made = try run(prefix + "/bin/segue", ["new", "Starter"], in: elsewhere)
        #expect(made.status == 0, "\(made.err)")
        let makefile = try String(contentsOfFile: elsewhere + "/Starter/Makefile", encoding: .utf8)
        #expect(makefile.contains("include $(SEGUE_MK)") && makefile.contains("SEGUE_MK ?= \(prefix)/share/segue/segue-plugin.mk"),
                "\(makefile)")
        let data = makeTemporaryFolder("segue-data")
        let built = try run("/usr/bin/make", ["-C", elsewhere + "/Starter", "install"], in: elsewhere, environment: ["XDG_DATA_HOME": data])
        #expect(built.status == 0 && built.out.contains("-I\(prefix)/include"), "the installed header: \(built.out)\(built.err)")
        let listed = try run(prefix + "/bin/segue", ["list", "--names"], in: elsewhere, environment: ["XDG_DATA_HOME": data])
        #expect(listed.out.split(separator: "\n").contains("Starter"), "\(listed.out)\(listed.err)")

        let removed = try run("/bin/sh", [Self.install, "--uninstall", "--prefix", prefix], in: elsewhere)
        #expect(removed.status == 0, "\(removed.err)")
        #expect(!FileManager.default.fileExists(atPath: prefix + "/share/segue"), "uninstall removes the starters and the fragment")
    }

    @Test func theBashCompletionsOfferCommandsOptionsAndAnimators() throws {
        let script = try run(Paths.segue, ["completions", "bash"])
        #expect(script.status == 0)
        let file = makeTemporaryFolder() + "/segue.bash"
        try script.out.write(toFile: file, atomically: false, encoding: .utf8)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try run("/bin/bash", ["-c", "source '\(file)'; COMP_WORDS=('\(Paths.segue)' \(quoted)); COMP_CWORD=\(words.count); _segue; printf '%s\\n' \"${COMPREPLY[@]}\""])
            #expect(result.status == 0, "\(result.err)")
            return result.out.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["pre"]) == ["preview"])
        #expect(try complete(["preview", "S"]) == ["SpringSlide"], "animator names come from segue list --names")
        #expect(try complete(["run", "--wa"]) == ["--watch"])
        #expect(try complete(["list", "--isolation", ""]) == ["process", "none"])
        #expect(try complete(["completions", "f"]) == ["fish"])
        #expect(!(try complete(["validate", "x.so", "--"]).contains("--worker")), "internal options are not offered")
    }

    /// Where zsh and fish are installed, their completions parse.
    @Test(arguments: ["zsh", "fish"])
    func theOtherShellsCompletionsParse(shell: String) throws {
        let script = try run(Paths.segue, ["completions", shell])
        #expect(script.status == 0)
        #expect(script.out.contains("--allow-insecure-plugins") || script.out.contains("-l allow-insecure-plugins"))
        guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return  // not installed here: only the text is checked
        }
        let file = makeTemporaryFolder() + "/completion"
        try script.out.write(toFile: file, atomically: false, encoding: .utf8)
        let parsed = try run(path, ["-n", file])
        #expect(parsed.status == 0, "\(parsed.err)")
    }

    /// docs/segue.1 is generated from the command table and each command's
    /// help (`segue --man-page`); the checked-in page must be what it generates.
    @Test func theCheckedInManPageIsCurrent() throws {
        let page = try String(contentsOfFile: Paths.packageRoot + "/docs/segue.1", encoding: .utf8)
        let generated = try run(Paths.segue, ["--man-page"])
        #expect(generated.status == 0)
        #expect(page == generated.out, "docs/segue.1 is stale: run .build/debug/segue --man-page > docs/segue.1")
    }

    @Test func theManPageCoversEveryCommandAndOption() throws {
        let page = try String(contentsOfFile: Paths.packageRoot + "/docs/segue.1", encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for command in try ToolTests.commands() {
            #expect(page.contains(".B segue \(command)") && page.contains(".SS segue \(command)"), "the man page has \(command)")
            let commandHelp = try run(Paths.segue, ["help", command]).out
            // The options the help lists, one per line: "  --name ..." (and "--from, --to").
            let listed = commandHelp.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("--") }
            let options = Set(listed.flatMap { line in
                line.split(separator: " ").prefix { $0.hasPrefix("--") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            })
            #expect(!options.isEmpty)
            for option in options where option != "--help" {
                #expect(page.contains(option), "the man page mentions \(command) \(option)")
            }
        }
    }
}
