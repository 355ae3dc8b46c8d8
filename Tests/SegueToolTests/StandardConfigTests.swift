import Foundation
import TestSupport
import Testing

/// Without --config, the commands a desktop user runs (check, explain, list)
/// answer about the standard config the KWin effect and the GTK widget read,
/// and say so; with none, the built-in scene, said too. The demos keep
/// playing the built-in scene.
struct StandardConfigTests {
    /// Where the commands run: outside the build folder, so plugin files are named by their whole path.
    let elsewhere = makeTemporaryFolder()

    /// An XDG_CONFIG_HOME holding `json` as segue/segue.json (nil: no config), and that file.
    func home(_ json: String?) throws -> (environment: [String: String], file: String) {
        let home = makeTemporaryFolder("config-home")
        let file = home + "/segue/segue.json"
        if let json {
            try FileManager.default.createDirectory(atPath: home + "/segue", withIntermediateDirectories: true)
            try json.write(toFile: file, atomically: false, encoding: .utf8)
        }
        return (["XDG_CONFIG_HOME": home], file)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func explainNamesTheStandardConfigsRuleForAWindow() throws {
        let (environment, file) = try home(#"{"rules": [{"disappear": "org.kde.kcalc", "animator": "CurlUp"}, {"from": "page1", "to": "page2", "animator": "SpringSlide"}]}"#)
        let text = try run(Paths.segue, ["explain", "--kind", "disappear", "org.kde.kcalc"], in: elsewhere, environment: environment)
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.hasPrefix("org.kde.kcalc disappearing: CurlUp (plugin \(Paths.plugin("CurlUp")))\n"
                                   + "  config:     \(file) (the standard config, which KWin, GNOME Shell and the GTK and Qt widgets read)\n"
                                   + "  rule:       rules[0] (disappear \"org.kde.kcalc\")\n"), "\(text.out)")
        let object = try json(try run(Paths.segue, ["explain", "--kind", "disappear", "org.kde.kcalc", "--json"], in: elsewhere, environment: environment).out)
        #expect(object["config"] as? String == file)
        #expect(object["rule"] as? String == #"rules[0] (disappear "org.kde.kcalc")"#)
        // Its switches are between a program's views (a GTK stack's pages), not the built-in scene's children.
        let pages = try run(Paths.segue, ["explain", "page1", "page2"], in: elsewhere, environment: environment)
        #expect(pages.status == 0 && pages.out.hasPrefix("page1 -> page2: SpringSlide "), "\(pages.out)\(pages.err)")
        // --config still wins.
        let other = makeTemporaryFolder() + "/other.json"
        try "{}".write(toFile: other, atomically: false, encoding: .utf8)
        let given = try run(Paths.segue, ["explain", "--kind", "disappear", "org.kde.kcalc", "--config", other], in: elsewhere, environment: environment)
        #expect(given.out.contains("  config:     \(other)\n  rule:       none matches\n"), "\(given.out)\(given.err)")
    }

    @Test func checkReportsABrokenStandardConfigsError() throws {
        let (environment, file) = try home(#"{"rules": [{"disappear": "org.kde.kcalc", "animator": "CurlUp"}, {"appear": "", "animator": "Pop"}]}"#)
        let result = try run(Paths.segue, ["check"], in: elsewhere, environment: environment)
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "config: \(file) (the standard config, which KWin, GNOME Shell and the GTK and Qt widgets read)", "\(result.out)")
        #expect(lines.contains { $0.hasPrefix("\(file):1:") && $0.contains("error: $.rules[1].appear: expected a view's name") }, "\(result.out)")
        #expect(lines.last == "\(file): 1 error, 0 warnings", "\(result.out)")
        let object = try json(try run(Paths.segue, ["check", "--json"], in: elsewhere, environment: environment).out)
        #expect(object["config"] as? String == file && object["errors"] as? Int == 1)
    }

    /// Read as libsegue reads it: rules naming a program's views are no error, a misspelt animator is.
    @Test func checkReadsTheStandardConfigAsTheDesktopsHostsDo() throws {
        let (environment, file) = try home(#"{"rules": [{"from": "page1", "to": "page2", "animator": "CurlUP"}]}"#)
        let result = try run(Paths.segue, ["check"], in: elsewhere, environment: environment)
        #expect(result.status == 1)
        #expect(!result.out.contains("the name of a child"), "\(result.out)")
        #expect(result.out.contains("\(file):1:"), "\(result.out)")
        #expect(result.out.contains("no animator named 'CurlUP' (did you mean 'CurlUp'?)"), "\(result.out)")
    }

    @Test func withoutAStandardConfigTheBuiltinSceneIsUsedAndSaid() throws {
        let (environment, file) = try home(nil)
        let check = try run(Paths.segue, ["check"], in: elsewhere, environment: environment)
        #expect(check.status == 0)
        #expect(check.out == "config: <built-in scene> (no --config, and no standard config at \(file))\n<built-in scene>: no problems\n")
        let explain = try run(Paths.segue, ["explain", "photo", "video"], in: elsewhere, environment: environment)
        #expect(explain.out.hasPrefix("photo -> video: SpringSlide (plugin \(Paths.plugin("SpringSlide")))\n"
                                      + "  config:     <built-in scene> (no --config, and no standard config at \(file))\n"), "\(explain.out)")
        let window = try json(try run(Paths.segue, ["explain", "--kind", "disappear", "org.kde.kcalc", "--json"], in: elsewhere, environment: environment).out)
        #expect(window["config"] as? String == "<built-in scene>" && window["rule"] == nil)
        let list = try run(Paths.segue, ["list"], in: elsewhere, environment: environment)
        #expect(list.out.contains("\nConfig: <built-in scene> (no --config, and no standard config at \(file))\n"), "\(list.out)")
    }

    /// The desktop's hosts search the standard config's "plugins": so does `segue list`.
    @Test func listSearchesTheStandardConfigsPluginFolders() throws {
        let plugins = makeTemporaryFolder("desktop-plugins")
        let (environment, file) = try home(#"{"plugins": ["\#(plugins)"]}"#)
        let listed = try json(try run(Paths.segue, ["list", "--json"], in: elsewhere, environment: environment).out)
        #expect(listed["config"] as? String == file)
        let folders = try #require(listed["folders"] as? [[String: Any]])
        #expect(folders.contains { $0["path"] as? String == plugins && $0["origin"] as? String == "config" }, "\(folders)")
        let other = makeTemporaryFolder() + "/other.json"
        try "{}".write(toFile: other, atomically: false, encoding: .utf8)
        let given = try json(try run(Paths.segue, ["list", "--json", "--config", other], in: elsewhere, environment: environment).out)
        #expect(!(given["folders"] as? [[String: Any]] ?? []).contains { $0["path"] as? String == plugins }, "--config wins")
    }

    /// run is a demo: the built-in scene's rules play, not the desktop's.
    /// A broken standard config stops no host, so it stops neither the
    /// listing (nor the shell completions that read `list --names`) nor
    /// inspect; they say which file they could not read.
    @Test func listGoesOnWithoutABrokenStandardConfigAndSaysSo() throws {
        let (environment, file) = try home(#"{"rules": ["#)
        let names = try run(Paths.segue, ["list", "--names"], in: elsewhere, environment: environment)
        #expect(names.status == 0 && names.out.split(separator: "\n").contains("CurlUp"), "\(names.out)\(names.err)")
        #expect(names.err.contains("segue: warning: \(file) cannot be read (segue check says why); going on without it"), "\(names.err)")
        let text = try run(Paths.segue, ["list"], in: elsewhere, environment: environment)
        #expect(text.out.contains("Config: \(file) (the standard config, which cannot be read: segue check says why; gone on without it)"),
                "names the file it could not read: \(text.out)")
        let object = try json(try run(Paths.segue, ["list", "--json"], in: elsewhere, environment: environment).out)
        #expect(object["config"] as? String == file)
        // inspect goes on too: a bundled animator is there whatever the desktop's config says.
        let inspected = try run(Paths.segue, ["inspect", "Pop", "--exists"], in: elsewhere, environment: environment)
        #expect(inspected.status == 0 && inspected.out.isEmpty, "\(inspected.out)\(inspected.err)")
    }

    @Test func runStillPlaysTheBuiltinScene() throws {
        let (environment, _) = try home(#"{"rules": [{"to": "video", "animator": "Pop"}]}"#)
        let played = try run(Paths.segue, ["run", "--json"], in: elsewhere, environment: environment)
        let first = try json(String(try #require(played.out.split(separator: "\n").first)))
        #expect(first["to"] as? String == "video" && first["animator"] as? String == "SpringSlide", "\(played.out)")
    }
}
