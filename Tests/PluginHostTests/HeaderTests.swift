import AnimatorABI
import Foundation
import TestSupport
import Testing

/// The public header is a C header first: it compiles cleanly as every C
/// standard since C99 and as C++11 and later, with every warning an error,
/// and C, C++ and Swift (which imports it) lay out every struct alike, so an
/// animator in any of them, or in anything that reads the header (bindgen,
/// Zig's @cImport), sees the memory the host sees.
struct HeaderTests {
    static let header = Paths.header + "/segue_animator.h"

    static let c = (language: "C", compiler: "cc", standards: ["c99", "c11", "c17"], suffix: "c")
    static let cPlusPlus = (language: "C++", compiler: "c++", standards: ["c++11", "c++14", "c++17", "c++20"], suffix: "cpp")

    /// Compiles a program that uses the header with `compiler` as each of `standards`, every warning an error.
    static func compileEveryStandard(compiler: String, standards: [String], suffix: String) throws {
        let folder = makeTemporaryFolder("header")
        let source = folder + "/use.\(suffix)"
        try """
        #include "segue_animator.h"
        int main(void) {
        #ifdef __cplusplus
            segue_plugin_t plugin = {};
        #else
            segue_plugin_t plugin = {0};
        #endif
            segue_transform3d_t identity = SEGUE_TRANSFORM3D_IDENTITY;
            segue_version_t abi = SEGUE_ABI_VERSION_INIT;
            return (int)(plugin.struct_size + identity.m[0] + abi.major) - 2;
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        for standard in standards {
            let result = try run("/usr/bin/env", [compiler, "-std=\(standard)", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                                                  "-I", Paths.header, "-o", folder + "/use", source])
            #expect(result.status == 0, "\(compiler) -std=\(standard): \(result.err)")
        }
    }

    @Test func theHeaderCompilesAsC99C11AndC17WithoutAWarning() throws {
        try Self.compileEveryStandard(compiler: Self.c.compiler, standards: Self.c.standards, suffix: Self.c.suffix)
    }

    @Test(.enabled(if: Toolchain.hasCPlusPlus, "skipped: no c++ compiler (apt-get install g++; .ci/run does)"))
    func theHeaderCompilesAsCPlusPlus11ToCPlusPlus20WithoutAWarning() throws {
        try Self.compileEveryStandard(compiler: Self.cPlusPlus.compiler, standards: Self.cPlusPlus.standards, suffix: Self.cPlusPlus.suffix)
    }

    /// Every struct the header defines, with its members, read from the header itself.
    static func structs() throws -> [(name: String, fields: [String])] {
        var all: [(String, [String])] = []
        let folder = Paths.header + "/segue"
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".h") {
            var text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            // Comments out: /* ... */ and // to the end of the line.
            while let open = text.range(of: "/*"), let close = text.range(of: "*/", range: open.upperBound..<text.endIndex) {
                text.removeSubrange(open.lowerBound..<close.upperBound)
            }
            text = text.split(separator: "\n").map { $0.components(separatedBy: "//")[0] }.joined(separator: "\n")
            var rest = text[...]
            while let start = rest.range(of: #"struct segue_\w+ \{"#, options: .regularExpression) {
                let tag = rest[start].dropFirst("struct ".count).dropLast(2)
                guard let end = rest.range(of: "}", range: start.upperBound..<rest.endIndex) else { break }
                let body = rest[start.upperBound..<end.lowerBound]
                var fields: [String] = []
                for declaration in body.split(separator: ";") {
                    let d = declaration.trimmingCharacters(in: .whitespacesAndNewlines)
                    guard !d.isEmpty else { continue }
                    if let pointer = d.range(of: #"\(\*\s*\w+\)"#, options: .regularExpression) {
                        fields.append(String(d[pointer].dropFirst(2).dropLast()).trimmingCharacters(in: .whitespaces))
                        continue
                    }
                    // `double x, y;` and `double m[16];`: the identifier before each comma or bracket.
                    let declarators = d.split(separator: ",").map { $0.components(separatedBy: "[")[0].trimmingCharacters(in: .whitespaces) }
                    fields += declarators.compactMap { $0.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).last.map(String.init) }
                }
                all.append(("struct \(tag)", fields))
                rest = rest[end.upperBound...]
            }
        }
        return all
    }

    /// A program printing the size and alignment of every struct and the offset of every member.
    static func layoutProgram(_ structs: [(name: String, fields: [String])], cPlusPlus: Bool) -> String {
        var lines = ["#include <stdio.h>", "#include <stddef.h>", "#include \"segue_animator.h\"", "int main(void) {"]
        let alignment = cPlusPlus ? "alignof" : "_Alignof"
        for (name, fields) in structs {
            lines.append("    printf(\"%s %zu %zu\\n\", \"\(name)\", sizeof(\(name)), (size_t)\(alignment)(\(name)));")
            for field in fields {
                lines.append("    printf(\"%s.%s %zu\\n\", \"\(name)\", \"\(field)\", offsetof(\(name), \(field)));")
            }
        }
        lines += ["    return 0;", "}"]
        return lines.joined(separator: "\n")
    }

    /// What the layout program prints when built by `compiler` as `standard`.
    static func layouts(compiler: String, standard: String, suffix: String) throws -> String {
        let folder = makeTemporaryFolder("layout")
        let source = folder + "/layout.\(suffix)"
        try layoutProgram(try structs(), cPlusPlus: suffix == "cpp").write(toFile: source, atomically: true, encoding: .utf8)
        let built = try run("/usr/bin/env", [compiler, "-std=\(standard)", "-I", Paths.header, "-o", folder + "/layout", source])
        try #require(built.status == 0, "\(compiler): \(built.err)")
        return try run(folder + "/layout", []).out
    }

    @Test(.enabled(if: Toolchain.hasCPlusPlus, "skipped: no c++ compiler (apt-get install g++; .ci/run does)"))
    func cAndCPlusPlusLayEveryStructAndMemberOutAlike() throws {
        let c = try Self.layouts(compiler: "cc", standard: "c17", suffix: "c")
        #expect(c.split(separator: "\n").count > 100, "every struct and member: \(c)")
        #expect(c == (try Self.layouts(compiler: "c++", standard: "c++17", suffix: "cpp")))
    }

    @Test func swiftLaysEveryStructOutAsC() throws {
        let structs = try Self.structs()
        #expect(structs.count >= 15, "\(structs.map(\.name))")
        #expect(structs.first { $0.name == "struct segue_vec3" }?.fields == ["x", "y", "z"])
        #expect(structs.first { $0.name == "struct segue_host" }?.fields.contains("spring_value") == true)
        let output = try Self.layouts(compiler: "cc", standard: "c17", suffix: "c")
        // Swift imports the same header: its sizes and alignments must be the C compiler's.
        let c = Dictionary(uniqueKeysWithValues: output.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: " ")
            return parts.count == 4 ? ("\(parts[0]) \(parts[1])", "\(parts[2]) \(parts[3])") : nil
        })
        func swift<T>(_ name: String, _ type: T.Type) -> (String, String) {
            ("struct \(name)", "\(MemoryLayout<T>.size) \(MemoryLayout<T>.alignment)")
        }
        let swiftLayouts = [
            swift("segue_rect", segue_rect_t.self), swift("segue_vec3", segue_vec3_t.self),
            swift("segue_transform3d", segue_transform3d_t.self), swift("segue_version", segue_version_t.self),
            swift("segue_spring", segue_spring_t.self), swift("segue_host", segue_host_t.self),
            swift("segue_element", segue_element_t.self), swift("segue_view", segue_view_t.self),
            swift("segue_cubic_bezier", segue_cubic_bezier_t.self), swift("segue_context", segue_context_t.self),
            swift("segue_param", segue_param_t.self), swift("segue_layer_request", segue_layer_request_t.self),
            swift("segue_element_ref", segue_element_ref_t.self), swift("segue_plan", segue_plan_t.self),
            swift("segue_layer_state", segue_layer_state_t.self), swift("segue_animator", segue_animator_t.self),
            swift("segue_plugin", segue_plugin_t.self),
            swift("segue_anchor", segue_anchor_t.self), swift("segue_corner_radii", segue_corner_radii_t.self),
            swift("segue_clip", segue_clip_t.self), swift("segue_shadow", segue_shadow_t.self),
        ]
        #expect(Set(swiftLayouts.map(\.0)) == Set(structs.map(\.name)), "every struct of the header is checked from Swift")
        for (name, layout) in swiftLayouts {
            #expect(c[name] == layout, "\(name): C says \(c[name] ?? "nothing"), Swift \(layout)")
        }
    }
}
