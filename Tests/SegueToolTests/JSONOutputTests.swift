import Foundation
import TestSupport
import Testing

/// Every `--json` output carries a version, and docs/tool.md's table lists
/// exactly the keys the tool prints.
struct JSONOutputTests {
    /// docs/tool.md's table: "what" (a command and a path into its output) to keys.
    static func documented() throws -> [String: Set<String>] {
        let readme = try String(contentsOfFile: Paths.packageRoot + "/docs/tool.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## JSON output\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```").first)
        var table: [String: Set<String>] = [:]
        for line in block.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            // "run --watch, each reload" is checked by the watch tests; the rest are "COMMAND [PATH] KEYS...".
            guard let command = parts.first, !line.contains("--watch") else { continue }
            // A path is an array's items ("animators[]") or an object a row above lists: the command's own
            // ("animator", "sandbox.limits") or an array's items' ("animators[].plays").
            let head = parts.count > 1 ? String(parts[1].prefix { $0 != "." }) : ""
            let nested = parts.count > 1 && (table[command]?.contains(head) == true || table["\(command) \(head)"] != nil)
            let path = parts.count > 1 && (parts[1].hasSuffix("[]") || nested) ? parts[1] : nil
            let keys = parts.dropFirst(path == nil ? 1 : 2)
            table[[command, path].compactMap { $0 }.joined(separator: " "), default: []].formUnion(keys)
        }
        return table
    }

    /// The keys of `value` at every level, as docs/tool.md's table names them.
    static func keys(_ value: Any, at path: String?, command: String, into table: inout [String: Set<String>]) {
        guard let object = value as? [String: Any] else { return }
        let name = [command, path].compactMap { $0 }.joined(separator: " ")
        table[name, default: []].formUnion(object.keys)
        for (key, child) in object {
            let inner = path.map { "\($0).\(key)" } ?? key
            if let items = child as? [Any] {
                for item in items { keys(item, at: inner + "[]", command: command, into: &table) }
            } else if child is [String: Any], key != "parameters" {
                keys(child, at: inner, command: command, into: &table)
            }
        }
    }

    @Test func theREADMEListsExactlyTheKeysPrinted() throws {
        let folder = makeTemporaryFolder()
        try #"{"children": ["a", "b"], "script": ["b", "a"], "rules": [{"to": "b", "animator": "CurlUp"}, {"to": "b", "animator": "Nope"}, {"from": "a", "animator": "SpringSlide"}]}"#
            .write(toFile: folder + "/c.json", atomically: false, encoding: .utf8)
        try "junk".write(toFile: folder + "/libjunk.so", atomically: false, encoding: .utf8)
        // CurveSlide has a choice parameter: its choices are printed too.
        _ = try CPlugin.build(Paths.packageRoot + "/Examples/c-animator/curve_slide.c", name: "CurveSlide", into: folder)
        let commands: [(String, [String])] = [
            ("run", ["run", "--json", "--config", "c.json", "--preview", "previews", "--scale", "0.05"]),
            ("check", ["check", "--json", "--config", "c.json", "--plugins", folder, "--plugins", folder + "/missing"]),
            ("list", ["list", "--json", "--plugins", folder]),
            ("inspect", ["inspect", "CurveSlide", "--json", "--plugins", folder]),
            ("explain", ["explain", "a", "b", "--json", "--config", "c.json"]),
            ("preview", ["preview", "CurlUp", "--json", "--scale", "0.05", "--out", "x.png"]),
            ("validate", ["validate", Paths.plugin("CurlUp"), "--json", "--strictness", "1"]),
        ]
        var printed: [String: Set<String>] = [:]
        for (command, arguments) in commands {
            let result = try run(Paths.segue, arguments, in: folder)
            #expect(!result.out.isEmpty, "\(arguments): \(result.err)")
            for line in result.out.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                #expect(object["version"] as? Int == 1, "\(command) carries the format's version")
                Self.keys(object, at: nil, command: command, into: &printed)
            }
        }
        let documented = try Self.documented()
        #expect(Set(printed.keys) == Set(documented.keys))
        for (what, keys) in printed {
            #expect(keys == documented[what], "\(what): printed \(keys.sorted()), documented \(documented[what]?.sorted() ?? [])")
        }
    }
}
