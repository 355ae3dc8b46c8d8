import Foundation
@testable import HostConfig
import TestSupport
import Testing

@testable import HostContainer

/// The config's JSON Schema: what `segue schema` prints, what the repository
/// ships, what a real validator makes of the documented configs, and that it
/// names the same keys as the parser.
struct SchemaTests {
    static let file = Paths.packageRoot + "/docs/segue-config.schema.json"

    static func schema() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
    }

    /// Every config the documentation shows: the README's and every docs page's
    /// ```json blocks and the configs their shell blocks write, and the built-in scene.
    static func documentedConfigs() throws -> [(label: String, text: String)] {
        var configs: [(String, String)] = []
        let pages = try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        for doc in ["README.md"] + pages.map({ "docs/" + $0 }) {
            let text = try String(contentsOfFile: Paths.packageRoot + "/" + doc, encoding: .utf8)
            for (i, block) in text.components(separatedBy: "```json\n").dropFirst().enumerated() {
                configs.append(("\(doc) json block \(i + 1)", block.components(separatedBy: "```").first ?? ""))
            }
            for (i, heredoc) in text.components(separatedBy: "cat > segue.json <<'EOF'\n").dropFirst().enumerated() {
                configs.append(("\(doc) segue.json \(i + 1)", heredoc.components(separatedBy: "\nEOF").first ?? ""))
            }
        }
        configs.append(("the built-in scene", SegueConfig.builtinSceneJSON))
        return configs
    }

    @Test func segueSchemaPrintsTheShippedSchema() throws {
        let printed = try run(Paths.segue, ["schema"])
        #expect(printed.status == 0)
        #expect(printed.out == (try String(contentsOfFile: Self.file, encoding: .utf8)))
    }

    /// Python's jsonschema is part of this kind of machine (see the note where it is not).
    static let hasValidator: Bool = (try? run("/usr/bin/env", ["python3", "-c", "import jsonschema"]))?.status == 0

    /// A real JSON Schema validator (Python's jsonschema, on this kind of
    /// machine) accepts every documented config, and refuses what the parser refuses.
    @Test(.enabled(if: hasValidator, "Python's jsonschema is not installed"))
    func aRealValidatorAcceptsEveryDocumentedConfig() throws {
        let folder = makeTemporaryFolder()
        var paths: [String] = []
        for (i, config) in try Self.documentedConfigs().enumerated() {
            let path = folder + "/\(i).json"
            try config.text.write(toFile: path, atomically: false, encoding: .utf8)
            // The pictures a documented config names, as the files it expects beside it.
            for match in config.text.matches(of: /"picture": "([^"]+)"/) {
                let picture = folder + "/" + match.1
                try FileManager.default.createDirectory(atPath: (picture as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(try rgbaPNG([0, 0, 0, 255], width: 1, height: 1)).write(to: URL(fileURLWithPath: picture))
            }
            paths.append(path)
            #expect(throws: Never.self, "\(config.label) parses") { _ = try SegueConfig.load(path: path) }
        }
        #expect(paths.count >= 4, "the README's, the guide's and the built-in scene's configs were found")
        let bad = [
            #"{"rule": []}"#, #"{"rules": [{"animator": "X"}]}"#, #"{"isolation": "sandbox"}"#,
            #"{"children": [{"name": "a", "color": "red"}]}"#,
            #"{"children": [{"name": "a", "elements": [{"name": "e", "frame": [0, 0, 1, 1], "image": 1, "label": "x"}]}]}"#,
            #"{"children": ["a", "b"], "script": [{"select": "b", "velocity": 1}]}"#,
            #"{"children": [{"name": "a", "elements": [{"name": "e", "frame": [0, 1e300, 1, 1]}]}]}"#,
            #"{"curves": {"easeIn": [0, 0, 1, 1]}}"#, #"{"curves": {"wobbly": [2, 0, 1, 1]}}"#, #"{"curves": {"short": [0, 1]}}"#,
        ]
        var refused: [String] = []
        for (i, text) in bad.enumerated() {
            let path = folder + "/bad\(i).json"
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            refused.append(path)
            #expect(throws: ConfigError.self, "the parser refuses \(text)") { _ = try SegueConfig.load(path: path) }
        }
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        good, bad = sys.argv[2].split(":"), sys.argv[3].split(":")
        for path in good:
            for error in validator.iter_errors(json.load(open(path))):
                print("REFUSED", path, error.message)
        for path in bad:
            if validator.is_valid(json.load(open(path))):
                print("ACCEPTED", path)
        """
        let result = try run("/usr/bin/env", ["python3", "-c", script, Self.file, paths.joined(separator: ":"), refused.joined(separator: ":")])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.isEmpty, "the schema and the parser disagree: \(result.out)")
    }

    /// For every kind of object, the schema's properties are exactly the keys
    /// the parser accepts there (its unknown-key error lists them).
    @Test func theSchemaAndTheParserAgreeOnEveryKey() throws {
        let schema = try Self.schema()
        let defs = try #require(schema["$defs"] as? [String: [String: Any]])
        func properties(_ object: [String: Any]?) -> Set<String> { Set((object?["properties"] as? [String: Any])?.keys ?? [:].keys) }
        let places: [(kind: String, keys: Set<String>, config: String)] = [
            ("top", properties(schema), #"{"zzz": 1}"#),
            ("rule", properties(defs["rule"]), #"{"rules": [{"to": "video", "animator": "X", "zzz": 1}]}"#),
            ("child", properties(defs["child"]), #"{"children": [{"name": "a", "zzz": 1}]}"#),
            ("element", properties(defs["element"]), #"{"children": [{"name": "a", "elements": [{"name": "e", "frame": [0, 0, 1, 1], "zzz": 1}]}]}"#),
            ("step", properties(defs["step"]), #"{"children": ["a", "b"], "script": [{"select": "b", "zzz": 1}]}"#),
            ("window", properties(defs["window"]), #"{"windows": [{"name": "w", "zzz": 1}]}"#),
        ]
        for place in places {
            do {
                _ = try SegueConfig.parse(Data(place.config.utf8), file: "c.json", baseDirectory: "/")
                Issue.record("\(place.kind): an unknown key is refused")
            } catch {
                let listed = error.expected.components(separatedBy: "'").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
                #expect(Set(listed) == place.keys, "\(place.kind): parser \(listed.sorted()), schema \(place.keys.sorted())")
            }
        }
    }

    /// docs/configuration.md's key table: a row for exactly the schema's
    /// top-level keys, and the `script` row names every key of every kind of
    /// step (a selection, an interactive one, a window presented or dismissed).
    @Test func theConfigurationPagesKeyTableNamesEveryKeyAndStepOfTheSchema() throws {
        let page = try String(contentsOfFile: Paths.packageRoot + "/docs/configuration.md", encoding: .utf8)
        var rows: [String: String] = [:]
        for line in page.split(separator: "\n") {
            guard let match = line.wholeMatch(of: /\| `([A-Za-z]+)` \| (.*) \|/) else { continue }
            rows[String(match.output.1)] = String(match.output.2)
        }
        let schema = try Self.schema()
        let top = Set(try #require(schema["properties"] as? [String: Any]).keys)
        #expect(Set(rows.keys) == top, "the table's keys \(rows.keys.sorted()); the schema's \(top.sorted())")
        let defs = try #require(schema["$defs"] as? [String: [String: Any]])
        let stepKeys = try ["step", "presentation"].flatMap { try #require(defs[$0]?["properties"] as? [String: Any]).keys }
        #expect(stepKeys.contains("present") && stepKeys.contains("select"), "\(stepKeys)")
        let script = try #require(rows["script"])
        for key in stepKeys {
            #expect(script.contains("`\(key)`") || script.contains("\"\(key)\""), "the script row names the step key '\(key)': \(script)")
        }
    }
}
