import Foundation

/// The system's zlib (libz.so.1), loaded at run time when first needed: every
/// Debian-like system has it (dpkg itself pre-depends on it), while its
/// development files, which linking at build time would need, are optional.
/// When it cannot be loaded, ``compress(_:)`` returns nil and callers use
/// ``Deflate``.
package enum SystemZlib {
    private typealias Compress2 = @convention(c) (
        UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt, Int32) -> Int32
    private typealias CompressBound = @convention(c) (UInt) -> UInt

    private static let functions: (compress2: Compress2, bound: CompressBound)? = {
        guard let handle = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL),
              let compress2 = dlsym(handle, "compress2"), let bound = dlsym(handle, "compressBound") else { return nil }
        return (unsafeBitCast(compress2, to: Compress2.self), unsafeBitCast(bound, to: CompressBound.self))
    }()

    /// A zlib stream of `data` at compression `level` (zlib's default, 6, unless
    /// told); nil when the library is missing or fails.
    package static func compress(_ data: [UInt8], level: Int32 = 6) -> [UInt8]? {
        guard let f = functions else { return nil }
        var length = f.bound(UInt(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { f.compress2(o.baseAddress, &length, $0.baseAddress, UInt($0.count), level) }
        }
        guard status == 0 else { return nil }  // Z_OK
        out.removeSubrange(Int(length)...)
        return out
    }
}
