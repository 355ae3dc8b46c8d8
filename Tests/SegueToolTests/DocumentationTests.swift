import Foundation
@testable import PluginHost
import TestSupport
import Testing

/// The documents say what the tool does: the command-line reference is made
/// from the command table and kept current, and every command and option a
/// document names in code (a span or a block) is one the tool has.
@Suite("Documentation")
struct DocumentationTests {
    @Test func theCheckedInCommandLineReferenceIsCurrent() throws {
        let page = try String(contentsOfFile: Paths.packageRoot + "/docs/command-line.md", encoding: .utf8)
        let generated = try run(Paths.segue, ["--reference"])
        #expect(generated.status == 0)
        #expect(page == generated.out, "docs/command-line.md is stale: run .build/debug/segue --reference > docs/command-line.md")
    }

    /// Each command's options, read from the reference (which the test above keeps true to the tool).
    static func options() throws -> [String: Set<String>] {
        let page = try String(contentsOfFile: Paths.packageRoot + "/docs/command-line.md", encoding: .utf8)
        var options: [String: Set<String>] = [:]
        for section in page.components(separatedBy: "\n## segue ").dropFirst() {
            let name = String(section.prefix { $0 != "\n" })
            let found = section.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }
            options[name] = Set(found)
        }
        return options
    }

    /// The code of a Markdown document: fenced blocks' lines and inline spans, each with its line number.
    static func code(_ text: String) -> [(line: Int, code: String)] {
        var found: [(Int, String)] = []
        var fenced = false
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if fenced {
                // A shell comment is prose.
                found.append((number + 1, line.components(separatedBy: " #")[0]))
            } else {
                let parts = line.split(separator: "`", omittingEmptySubsequences: false)
                for (i, part) in parts.enumerated() where i % 2 == 1 { found.append((number + 1, String(part))) }
            }
        }
        return found
    }

    @Test func everyCommandAndOptionTheDocumentsNameExists() throws {
        let options = try Self.options()
        #expect(options.count >= 11 && options["validate"]?.contains("--strictness") == true, "\(options.keys.sorted())")
        let global: Set<String> = ["--help", "-h", "--version", "--man-page", "--reference"]
        // The reference itself is made from the table; every other page is checked.
        let documents = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot + "/docs"))
            .filter { $0.hasSuffix(".md") && $0 != "command-line.md" }.map { "docs/" + $0 }
        var checked = 0
        for document in documents {
            let text = try String(contentsOfFile: Paths.packageRoot + "/" + document, encoding: .utf8)
            for (line, code) in Self.code(text) {
                // `segue NAME ...` up to the end of the command (a pipe, a comment, a separator).
                for match in code.matches(of: /(?:^|[\s\/$(])segue ([a-z-][a-z-]*)([^|;#&)]*)/) {
                    let (name, rest) = (String(match.output.1), String(match.output.2))
                    if global.contains(name) { continue }
                    if name == "help" { continue }
                    guard let known = options[name] else {
                        Issue.record("\(document):\(line): names a command 'segue \(name)' the tool does not have: \(code)")
                        continue
                    }
                    for option in rest.matches(of: /(?:^|\s)(--[a-z][a-z-]*)/).map({ String($0.output.1) }) where !known.contains(option) {
                        Issue.record("\(document):\(line): 'segue \(name)' has no option \(option): \(code)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 50, "the documents' commands were found: \(checked)")
    }
}

extension DocumentationTests {
    /// The anchors a Markdown page's headings make, as GitHub makes them.
    static func anchors(_ text: String) -> Set<String> {
        var found: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { continue }
            let title = line[line.index(after: space)...].lowercased()
            found.insert(String(title.filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                .map { $0 == " " ? "-" : $0 }))
        }
        return found
    }

    /// Every link between the README and docs/ leads somewhere: the file exists and so does the heading.
    @Test func everyLinkBetweenTheDocumentsResolves() throws {
        let root = Paths.packageRoot
        let documents = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: root + "/docs"))
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var checked = 0
        for document in documents {
            let text = try String(contentsOfFile: root + "/" + document, encoding: .utf8)
            let folder = (document as NSString).deletingLastPathComponent
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? document : ((folder.isEmpty ? parts[0] : folder + "/" + parts[0]) as NSString).standardizingPath
                guard FileManager.default.fileExists(atPath: root + "/" + file) else {
                    Issue.record("\(document): links to \(target), which does not exist")
                    continue
                }
                if parts.count == 2, file.hasSuffix(".md") {
                    let headings = Self.anchors(try String(contentsOfFile: root + "/" + file, encoding: .utf8))
                    if !headings.contains(parts[1]) { Issue.record("\(document): links to \(target): \(file) has no such heading") }
                }
                checked += 1
            }
        }
        #expect(checked > 30, "links were found: \(checked)")
    }
}

/// The worker deadlines have one home, ``WorkerDeadlines``; the README, the
/// author's guide and the public header quote it, and this test keeps the
/// quotes true.
struct DeadlineQuoteTests {
    static let deadlines = WorkerDeadlines()
    static func s(_ seconds: Double) -> String { seconds.formatted() }

    /// `text` with comment prefixes and line breaks folded to single spaces.
    static func folded(_ path: String) throws -> String {
        let text = try String(contentsOfFile: Paths.packageRoot + "/" + path, encoding: .utf8)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " *")) }.joined(separator: " ")
    }

    @Test func theReadmeTableQuotesEachDeadline() throws {
        let readme = try String(contentsOfFile: Paths.packageRoot + "/docs/isolation.md", encoding: .utf8)
        let d = Self.deadlines
        for row in ["| scanning one file (load, entry point, descriptor) | \(Self.s(d.scan)) |",
                    "| loading its plugin in a worker | \(Self.s(d.load)) |", "| `setup` | \(Self.s(d.setup)) |",
                    "| `evaluate` (one frame) | \(Self.s(d.evaluate)) |", "| `end` | \(Self.s(d.end)) |"] {
            #expect(readme.contains(row), "docs/isolation.md: expected the row \(row)")
        }
    }

    @Test func theGuideAndTheHeaderQuoteTheCallDeadlines() throws {
        let d = Self.deadlines
        let calls = "setup \(Self.s(d.setup)) s, evaluate \(Self.s(d.evaluate)) s, end \(Self.s(d.end)) s"
        #expect(try Self.folded("docs/writing-an-animator.md").contains("(\(calls))"))
        let header = try Self.folded("Sources/AnimatorABI/include/segue/entry.h")
        #expect(header.contains("(\(calls); loading \(Self.s(d.load)) s)"), "entry.h quotes the call deadlines")
        #expect(header.contains("a scan that takes more than \(Self.s(d.scan)) s rejects the file"), "entry.h quotes the scan deadline")
    }
}
