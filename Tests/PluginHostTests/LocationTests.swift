import Foundation
@testable import HostConfig
@testable import PluginHost
import TestSupport
import Testing

@testable import HostContainer

/// Where plugins are looked for: each source of folders, their order, `~`.
struct LocationTests {
    let exe = "/opt/build/debug/segue"

    func paths(_ folders: [PluginFolder]) -> [String] { folders.map { "\($0.origin.rawValue) \($0.path)" } }

    @Test func everySourceOfFoldersInItsPlace() {
        let folders = PluginSearchPath.standard(
            given: ["/a", "/b"], config: ["/c"], executable: exe,
            environment: ["SEGUE_PLUGIN_PATH": "/e1::/e2", "XDG_DATA_HOME": "/data", "HOME": "/home/u"])
        #expect(paths(folders) == [
            "given /a", "given /b", "SEGUE_PLUGIN_PATH /e1", "SEGUE_PLUGIN_PATH /e2", "config /c",
            "user /data/segue/plugins", "system /opt/build/lib/segue/plugins", "bundled /opt/build/debug",
        ])
    }

    @Test func theUserFolderFollowsXDGAndFallsBackToHome() {
        let home = PluginSearchPath.standard(executable: exe, environment: ["HOME": "/home/u", "XDG_DATA_HOME": "relative"])
        #expect(home.first == PluginFolder("/home/u/.local/share/segue/plugins", origin: .user),
                "a relative XDG_DATA_HOME is ignored, as the XDG spec says")
        let neither = PluginSearchPath.standard(executable: exe, environment: [:])
        #expect(!neither.contains { $0.origin == .user })
    }

    @Test func anInstalledExecutableHasNoBundledFolderOfItsOwn() {
        let folders = PluginSearchPath.standard(executable: "/usr/local/bin/segue", environment: [:])
        #expect(paths(folders) == ["system /usr/local/lib/segue/plugins"], "bin/ holds programs; its plugins are in lib/segue/plugins")
    }

    /// libsegue stands for the program: installed in PREFIX/lib it searches PREFIX/lib/segue/plugins, never
    /// PREFIX/lib itself; built, the plugins beside it.
    @Test func aLibraryLocatesTheInstallationAsAProgramDoes() {
        let installed = PluginSearchPath.standard(executable: "/opt/seg/lib/libsegue.so.1", installedIn: ["lib", "lib64"], environment: [:])
        #expect(installed.map(\.path) == ["/opt/seg/lib/segue/plugins"] && installed.map(\.origin) == [.system])
        let built = PluginSearchPath.standard(executable: "/src/.build/debug/libSegueEmbedding.so", installedIn: ["lib", "lib64"], environment: [:])
        #expect(built.map(\.path) == ["/src/.build/lib/segue/plugins", "/src/.build/debug"] && built.last?.origin == .bundled)
    }

    @Test func theSystemPathVariableReplacesTheSystemAndBundledFolders() {
        let replaced = PluginSearchPath.standard(
            executable: exe, environment: ["SEGUE_PLUGIN_SYSTEM_PATH": "/sys1:/sys2", "HOME": "/h"])
        #expect(paths(replaced) == ["user /h/.local/share/segue/plugins", "system /sys1", "system /sys2"])
        let none = PluginSearchPath.standard(given: ["/mine"], executable: exe, environment: ["SEGUE_PLUGIN_SYSTEM_PATH": ""])
        #expect(paths(none) == ["given /mine"])
    }

    @Test func aFolderListedTwiceIsSearchedWhereItFirstAppears() {
        let folders = PluginSearchPath.standard(given: ["/opt/build/debug"], config: ["/x", "/x"], executable: exe,
                                                environment: ["SEGUE_PLUGIN_PATH": "/x"])
        #expect(paths(folders) == ["given /opt/build/debug", "SEGUE_PLUGIN_PATH /x", "system /opt/build/lib/segue/plugins"])
    }

    @Test func homeExpandsInPaths() {
        let env = ["HOME": "/home/u"]
        #expect(PluginSearchPath.expandingHome("~", environment: env) == "/home/u")
        #expect(PluginSearchPath.expandingHome("~/p", environment: env) == "/home/u/p")
        #expect(PluginSearchPath.expandingHome("$HOME/p", environment: env) == "/home/u/p")
        #expect(PluginSearchPath.expandingHome("${HOME}/p", environment: env) == "/home/u/p")
        #expect(PluginSearchPath.expandingHome("~other/p", environment: env) == "~other/p", "another user's ~ is not guessed")
        #expect(PluginSearchPath.expandingHome("a/~/p", environment: env) == "a/~/p")
        #expect(PluginSearchPath.expandingHome("~/p", environment: [:]) == "~/p")
    }

    @Test func aConfigsTildeIsTheHomeFolder() throws {
        let home = try #require(ProcessInfo.processInfo.environment["HOME"])
        let config = try SegueConfig.parse(Data(#"{"plugins": ["~/segue-plugins", "$HOME/more", "rel"]}"#.utf8), file: "/cfg/c.json", baseDirectory: "/cfg")
        #expect(config.plugins == [home + "/segue-plugins", home + "/more", "/cfg/rel"])
    }

    /// `segue list` from outside the checkout: a user folder's plugin, the
    /// bundled ones beside it, and every folder shown in order.
    @Test func theToolSearchesEveryFolderInOrderAndShowsThem() throws {
        let data = makeTemporaryFolder("segue-data")
        let user = data + "/segue/plugins"
        try FileManager.default.createDirectory(atPath: user, withIntermediateDirectories: true)
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "fade", into: user)
        let fromEnvironment = makeTemporaryFolder()
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "other",
                              defines: [#"FIXTURE_NAME="Other""#, #"FIXTURE_ID="org.test.other/1""#], into: fromEnvironment)
        let missing = makeTemporaryFolder() + "/not-there"
        let result = try run(Paths.segue, ["list", "--json", "--plugins", missing], in: makeTemporaryFolder(),
                             environment: ["XDG_DATA_HOME": data, "SEGUE_PLUGIN_PATH": fromEnvironment])
        #expect(result.status == 0, "\(result.err)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let folders = try #require(doc["folders"] as? [[String: Any]])
        #expect(folders.map { "\($0["origin"]!) \($0["state"]!)" }
                == ["--plugins missing", "SEGUE_PLUGIN_PATH searched", "user searched", "system missing", "bundled searched"])
        #expect(folders.map { $0["path"] as? String } == [missing, fromEnvironment, user,
                                                          (Paths.binFolder as NSString).deletingLastPathComponent + "/lib/segue/plugins",
                                                          Paths.binFolder])
        let names = (doc["animators"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names == ["Other", "TestFade", "CurlUp", "ImageZoom", "Pop", "SpringSlide"], "adding a folder hides no later one")
        #expect(doc["warnings"] as? [String] == ["plugin folder \(missing) does not exist"],
                "a folder someone named is warned about; the standard ones may be absent")

        let onlyMine = try run(Paths.segue, ["list", "--json"], in: makeTemporaryFolder(),
                               environment: ["XDG_DATA_HOME": data, "SEGUE_PLUGIN_SYSTEM_PATH": ""])
        let mine = try #require(try JSONSerialization.jsonObject(with: Data(onlyMine.out.utf8)) as? [String: Any])
        #expect((mine["animators"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } == ["TestFade"])

        let human = try run(Paths.segue, ["list"], in: makeTemporaryFolder(), environment: ["XDG_DATA_HOME": data])
        #expect(human.out.hasPrefix("Searched, in order:\n  \(user) (user): 1 .so file\n"), "\(human.out)")
    }

    /// A segue that finds no plugin at all says so, instead of falling back quietly.
    @Test func aRunWithNoPluginsSaysWhereItLooked() throws {
        let data = makeTemporaryFolder("segue-data")
        let result = try run(Paths.segue, ["run", "--json"], in: makeTemporaryFolder(),
                             environment: ["XDG_DATA_HOME": data, "SEGUE_PLUGIN_SYSTEM_PATH": ""])
        #expect(result.status == 0)
        #expect(result.err.contains("segue: warning: no plugin animators found (searched \(data)/segue/plugins; 'segue list' says more)"),
                "\(result.err)")
    }
}
