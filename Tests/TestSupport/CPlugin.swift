import Foundation
import Glibc

/// Builds C plugins with the system C compiler against the public header alone:
/// the proof that the ABI is a C ABI.
public enum CPlugin {
    /// Compiles `source` (a path) with `defines` into `folder/lib<name>.so`,
    /// against the animator headers in `headers` (today's unless given).
    public static func build(_ source: String, name: String, defines: [String] = [], into folder: String,
                             headers: String = Paths.header) throws -> String {
        let output = folder + "/lib\(name).so"
        let result = try run("/usr/bin/env", ["cc", "-std=c11", "-Wall", "-Werror", "-shared", "-fPIC",
                                               "-I", headers] + defines.map { "-D\($0)" } + ["-o", output, source, "-lm"])
        guard result.status == 0 else { throw CompileError(message: result.err) }
        return output
    }

    public struct CompileError: Error { public let message: String }

    public static let fixtureSource = Paths.packageRoot + "/Tests/Fixtures/fixture_plugin.c"

    /// The C example animator, CurveSlide, built against the animator headers
    /// of ABI `version` as released ("1.0", "1.2": Tests/ABI), in a folder of its own.
    public static func curveSlide(builtAgainst version: String) throws -> String {
        let folder = makeTemporaryFolder("abi-\(version)")
        _ = try build(Paths.packageRoot + "/Examples/c-animator/curve_slide.c", name: "CurveSlide", into: folder,
                      headers: Paths.packageRoot + "/Tests/ABI/animator-\(version)/include")
        return folder
    }

    /// The fixture plugin built with the given faults, each in a folder of its own.
    public static func fixture(_ name: String, _ defines: String...) throws -> (folder: String, file: String) {
        let folder = makeTemporaryFolder("fixture-\(name)")
        return (folder, try build(fixtureSource, name: name, defines: defines, into: folder))
    }

    /// An exported `int` of a loaded plugin, for the fixture's call counters.
    public static func counter(_ symbol: String, in file: String) -> Int32 {
        let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)!
        return dlsym(handle, symbol)!.assumingMemoryBound(to: Int32.self).pointee
    }
}
