import Foundation
import Glibc
import TestSupport
import Testing
@testable import Embedding
import EmbedABI
import AnimatorABI

/// The README's C example, as a reader would build it: it compiles against
/// the installed libsegue, runs, and prints what the README shows.
@Suite("libsegue in the README")
struct LibsegueReadmeTests {
    @Test func theReadmesCExampleBuildsAndPrintsWhatItShows() throws {
        let readme = try String(contentsOfFile: Paths.packageRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Playing animators: C, GTK, GObject or Python").dropFirst().first)
        let source = try #require(section.components(separatedBy: "```c\n").dropFirst().first?.components(separatedBy: "```").first)
        let shown = try #require(section.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```").first)
        let expected = try #require(shown.split(separator: "\n").last.map(String.init))
        let folder = makeTemporaryFolder("readme-c")
        try source.write(toFile: folder + "/curl.c", atomically: true, encoding: .utf8)
        let prefix = try InstalledLibsegue.prefix.get()
        let built = try run("/bin/sh", ["-c", "cc -std=c99 -Wall -Werror curl.c $(pkg-config --cflags --libs segue) -o curl"],
                            in: folder, environment: InstalledLibsegue.environment(prefix))
        #expect(built.status == 0, "\(built.err)")
        let ran = try run(folder + "/curl", [])
        #expect(ran.status == 0, "\(ran.err)")
        #expect(ran.out == expected + "\n", "the README shows what it prints")
    }

    /// The sketch at the top of segue/embed.h, as it stands, compiles
    /// (-Wall -Werror, as the README's example) against the installed libsegue and plays
    /// CurlUp (its mesh included) to the end.
    @Test func theHeadersSketchCompilesAndPlays() throws {
        let header = try String(contentsOfFile: Paths.packageRoot + "/Sources/EmbedABI/include/segue/embed.h", encoding: .utf8)
        let sketch = try #require(header.components(separatedBy: "with draw()\n * and fail() of its own):\n *\n").dropFirst().first?
            .components(separatedBy: "\n *\n * Link with").first)
        let body = sketch.split(separator: "\n").map { $0.hasPrefix(" *   ") ? "    " + $0.dropFirst(5) : String($0) }
        #expect(body.count > 20 && body.allSatisfy { !$0.hasPrefix(" *") }, "the sketch is the comment's indented block: \(body)")
        let program = ["#include <segue/embed.h>", "#include <stdio.h>", "#include <string.h>",
                       "static int frames, tookOver;",
                       "static void draw(const segue_plan_info_t *plan, segue_layer_state_t *const *states) {",
                       "    if (frames++ == 0) printf(\"first|%s|%u\\n\", plan->animator, states[1]->mesh_vertex_count);",
                       "    if (plan->fell_back) tookOver = 1;",
                       "}",
                       "static int fail(const char *why) { fprintf(stderr, \"%s\\n\", why); return 1; }",
                       "int main(void) {"] + body + ["    printf(\"frames|%d|%d\\n\", frames, tookOver);", "    return 0;", "}"]
        let folder = makeTemporaryFolder("header-sketch")
        try program.joined(separator: "\n").write(toFile: folder + "/sketch.c", atomically: true, encoding: .utf8)
        let prefix = try InstalledLibsegue.prefix.get()
        let built = try run("/bin/sh", ["-c", "cc -std=c99 -Wall -Werror sketch.c $(pkg-config --cflags --libs segue) -o sketch"],
                            in: folder, environment: InstalledLibsegue.environment(prefix))
        #expect(built.status == 0, "\(built.err)\n\(program.joined(separator: "\n"))")
        let tag = "SEGUE_TEST_TAG=header-sketch-\(getpid())"
        let ran = try run(folder + "/sketch", [], environment: tagged(tag).merging(["SEGUE_PLUGIN_PATH": Paths.binFolder]) { $1 })
        #expect(ran.status == 0, "\(ran.err)")
        let lines = InstalledLibsegue.fields(ran.out)
        #expect(lines["first"]?.first == "CurlUp", "\(ran.out)")
        #expect(lines["frames"].flatMap { Int($0[0]) }.map { $0 > 20 } == true && lines["frames"]?[1] == "0", "\(ran.out)")
        #expect(processesTagged(tag).isEmpty)
    }
}

/// libsegue's header is a C header first, as the animator's is: it compiles
/// as every C standard since C99 and as C++11 and later with every warning an
/// error, and C, C++ and Swift lay its structs out alike.
@Suite("segue/embed.h")
struct EmbedHeaderTests {
    static let include = ["-I", Paths.packageRoot + "/Sources/EmbedABI/include", "-I", Paths.header]
    static let structs = ["segue_player_options_t", "segue_event_t", "segue_animator_info_t", "segue_transition_desc_t",
                          "segue_plan_info_t", "segue_transition_report_t"]

    /// A program that prints each struct's size and alignment, and uses every function's declaration.
    static func program(cPlusPlus: Bool) -> String {
        var lines = ["#include <segue/embed.h>", "#include <stdio.h>", "#include <stddef.h>"]
        lines += ["int main(void) {",
                  "    segue_player_options_t options\(cPlusPlus ? " = {}" : " = {0}");",
                  "    options.struct_size = sizeof options;",
                  "    if (SEGUE_API_VERSION != SEGUE_MAKE_VERSION(1, 5) || !SEGUE_CHECK_VERSION(1, 0) || SEGUE_CHECK_VERSION(1, 6)) return 1;"]
        for name in structs {
            let alignment = cPlusPlus ? "alignof(\(name))" : "offsetof(struct { char c; \(name) t; }, t)"
            lines.append("    printf(\"\(name) %zu %zu\\n\", sizeof(\(name)), (size_t)\(alignment));")
        }
        lines += ["    return options.struct_size == sizeof options ? 0 : 1;", "}"]
        return lines.joined(separator: "\n")
    }

    static func layouts(_ compiler: String, _ standard: String, cPlusPlus: Bool) throws -> String {
        let folder = makeTemporaryFolder("embed-header")
        let source = folder + (cPlusPlus ? "/use.cpp" : "/use.c")
        try program(cPlusPlus: cPlusPlus).write(toFile: source, atomically: true, encoding: .utf8)
        let built = try run("/usr/bin/env", [compiler, "-std=\(standard)", "-Wall", "-Wextra", "-Wpedantic", "-Werror"] + include
                            + ["-o", folder + "/use", source])
        try #require(built.status == 0, "\(compiler) -std=\(standard): \(built.err)")
        let ran = try run(folder + "/use", [])
        try #require(ran.status == 0)
        return ran.out
    }

    @Test(.enabled(if: Toolchain.hasCPlusPlus, "skipped: no c++ compiler (apt-get install g++; .ci/run does)"))
    func itCompilesAsCAndCPlusPlusAndLaysEveryStructOutAlike() throws {
        let c = try Self.layouts("cc", "c11", cPlusPlus: false)
        for standard in ["c99", "c17"] { #expect(try Self.layouts("cc", standard, cPlusPlus: false) == c, "\(standard)") }
        for standard in ["c++11", "c++14", "c++17", "c++20"] {
            #expect(try Self.layouts("c++", standard, cPlusPlus: true) == c, "\(standard)")
        }
        func swift<T>(_ name: String, _ type: T.Type) -> String { "\(name) \(MemoryLayout<T>.size) \(MemoryLayout<T>.alignment)" }
        let swiftLayouts = [
            swift("segue_player_options_t", segue_player_options_t.self), swift("segue_event_t", segue_event_t.self),
            swift("segue_animator_info_t", segue_animator_info_t.self), swift("segue_transition_desc_t", segue_transition_desc_t.self),
            swift("segue_plan_info_t", segue_plan_info_t.self), swift("segue_transition_report_t", segue_transition_report_t.self),
        ]
        #expect(c == swiftLayouts.joined(separator: "\n") + "\n", "Swift lays libsegue's structs out as C does")
    }
}
