import Foundation
@testable import HostConfig
@testable import PluginHost
import TestSupport
import Testing

@testable import HostContainer

/// Pictures in configs: `"picture"` on a child or an element, relative to the
/// config, with `"fit"`; what is not a picture file named with its key path
/// and place; the reloader watching the pictures and holding back a config
/// whose pictures a host that draws cannot decode.
struct PictureConfigTests {
    /// A folder with a 2 x 2 PNG, a config naming it as `json` says, and the config's path.
    static func folder(_ json: String) throws -> (folder: String, config: String) {
        let folder = makeTemporaryFolder("picture-config")
        try Data(try rgbaPNG([UInt8](repeating: 200, count: 16), width: 2, height: 2)).write(to: URL(fileURLWithPath: folder + "/home.png"))
        try json.write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
        return (folder, folder + "/segue.json")
    }

    @Test func aChildAndAnElementShowPictureFilesRelativeToTheConfig() throws {
        let (folder, path) = try Self.folder("""
        {"children": [{"name": "home", "picture": "home.png"},
                      {"name": "detail", "elements": [{"name": "hero", "frame": [0, 0, 100, 50], "picture": "home.png", "fit": "contain"}]}]}
        """)
        let config = try SegueConfig.load(path: path)
        #expect(config.children[0].content == .picture(path: folder + "/home.png", fit: .cover), "cover unless told")
        #expect(config.children[1].elements[0].content == .picture(path: folder + "/home.png", fit: .contain))
        #expect(config.pictures.map(\.keyPath) == ["$.children[0].picture", "$.children[1].elements[0].picture"])
        #expect(config.pictures.map(\.line) == [1, 2] && config.pictures.allSatisfy { $0.column != nil })
        let views = Scene.viewControllers(for: config.children)
        #expect(views[0].view.content == config.children[0].content, "the child's own view shows it")
    }

    @Test(arguments: [
        (#"{"name": "a", "picture": "missing.png"}"#, "$.children[0].picture", "a PNG or JPEG file", "missing.png: nothing (no such file)"),
        (#"{"name": "a", "picture": "."}"#, "$.children[0].picture", "a PNG or JPEG file", ": a folder"),
        (#"{"name": "a", "picture": "/dev/zero"}"#, "$.children[0].picture", "a PNG or JPEG file", "/dev/zero: a device or other special file"),
        (#"{"name": "a", "picture": "segue.json"}"#, "$.children[0].picture", "a PNG or JPEG file", "segue.json: a file that starts as neither a PNG nor a JPEG does"),
        (#"{"name": "a", "picture": ""}"#, "$.children[0].picture", "a non-empty string", #"the string """#),
        (#"{"name": "a", "picture": "home.png", "fit": "stretch"}"#, "$.children[0].fit", "one of 'cover', 'contain', 'fill'", #""stretch""#),
        (#"{"name": "a", "fit": "cover"}"#, "$.children[0].fit", "'fit' only beside 'picture'", #""cover""#),
        (#"{"name": "a", "elements": [{"name": "e", "frame": [0, 0, 1, 1], "label": "x", "picture": "home.png"}]}"#,
         "$.children[0].elements[0].label", "one of 'image', 'picture' and 'label', not more", "'picture' and 'label'"),
    ])
    func whatIsNotAPictureFileIsNamedWithItsKeyPathAndPlace(_ c: (child: String, keyPath: String, expected: String, found: String)) throws {
        let (_, path) = try Self.folder(#"{"children": [\#(c.child), "b"]}"#)
        do {
            _ = try SegueConfig.load(path: path)
            Issue.record("loaded: \(c.child)")
        } catch {
            #expect(error.keyPath == c.keyPath && error.expected == c.expected, "\(error)")
            #expect(error.found.contains(c.found), "\(error.found)")
            #expect(error.line == 1 && error.column != nil, "placed in the file: \(error)")
        }
    }

    /// A picture saved anew under a config in force: a broken one is said and
    /// the config stays (with the last good picture to draw); a good one again is said to have changed.
    @Test func theReloaderWatchesThePicturesAndHoldsBackOnesThatCannotBeShown() throws {
        let (folder, path) = try Self.folder(#"{"children": [{"name": "home", "picture": "home.png"}, "b"]}"#)
        let picture = folder + "/home.png"
        let config = try SegueConfig.load(path: path)
        let registry = AnimatorRegistry(folders: [], isolation: .none)
        var checked: [String] = []
        let broken = ConfigError(file: path, keyPath: "$.children[0].picture", expected: "a picture", found: "a broken one")
        var good = true
        let reloader = ConfigReloader(config: config, configPath: path, registry: registry,
                                      contentCheck: { c in checked.append(c.file); return good ? [] : [broken] }) { _ in [] }
        #expect(reloader.watched.files == [path, picture], "the config and the picture it names")
        good = false
        let bad = reloader.reload(changed: [picture])
        #expect(bad.configErrors == 1 && bad.configProblems == [broken.description] && reloader.configIsBroken)
        #expect(bad.config == config && !bad.configChanged)
        good = true
        let fixed = reloader.reload(changed: [picture])
        #expect(fixed.configRecovered && fixed.picturesChanged == [picture] && fixed.changes(naming: "segue.json") == ["picture \(picture) changed"])
        // The config file saved with a picture that cannot be shown is not applied.
        good = false
        try #"{"children": [{"name": "home", "picture": "home.png"}, "c"]}"#.write(toFile: path, atomically: false, encoding: .utf8)
        let held = reloader.reload(changed: [path])
        #expect(held.configErrors == 1 && held.config.children.map(\.name) == ["home", "b"])
        #expect(checked.count == 3)
    }
}
