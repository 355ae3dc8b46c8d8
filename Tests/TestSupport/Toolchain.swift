import Foundation

/// The programs some tests need, as this machine has them. A test that needs
/// one is enabled only where it is, and says in its skip note what to install
/// (`.ci/run` installs them all, so CI skips nothing).
public enum Toolchain {
    /// Whether `program` is on the PATH.
    public static func found(_ program: String) -> Bool {
        (try? run("/usr/bin/env", ["sh", "-c", "command -v \(program)"]).status) == 0
    }
    public static let hasCPlusPlus = found("c++")
    public static let hasMake = FileManager.default.isExecutableFile(atPath: "/usr/bin/make")
    public static let canBuildCPlusPlus = hasCPlusPlus && hasMake
    public static let canBuildRust = found("cargo") && hasMake
    /// ImageMagick's convert, as Debian installs it (not a stand-in earlier on the PATH), able to write raw pixels.
    public static let imageMagick = "/usr/bin/convert"
    public static let hasImageMagick = (try? run(imageMagick, ["-version"]).out.contains("ImageMagick")) ?? false
    /// The development headers of libpng, libjpeg and FreeType, which the layout check compiles against.
    public static let graphicsHeaders: [String]? = {
        guard let flags = try? run("/usr/bin/env", ["pkg-config", "--cflags", "libpng16", "freetype2"]), flags.status == 0,
              FileManager.default.fileExists(atPath: "/usr/include/jpeglib.h") else { return nil }
        return flags.out.split(whereSeparator: \.isWhitespace).map(String.init)
    }()
    /// Zig 0.14 (the last with @cImport), as `zig` or as PyPI's `python3 -m ziglang`.
    public static let canBuildZig = hasMake && ((try? run("/usr/bin/env", ["sh", "-c", "zig version 2>/dev/null || python3 -m ziglang version"]).out
        .hasPrefix("0.14")) ?? false)
}
