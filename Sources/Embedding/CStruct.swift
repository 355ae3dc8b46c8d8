import EmbedABI
import Glibc
import PluginRuntime

/// How the C API reads and writes a program's structs and strings: the
/// `struct_size` rule (read what the program's size covers, the rest as zero;
/// write only what it covers), and strings checked for NULL, length and UTF-8.
enum CStruct {
    /// Sizes of the structs in API 1.0: smaller ones are refused.
    static let playerOptions10 = 72
    static let transitionDesc10 = 176
    static let planInfo10 = 248
    static let animatorInfo10 = 56
    static let report10 = 40
    /// Sizes of the structs API 1.4 added.
    static let drawnLayer14 = 344
    /// A layer state as the animator ABI 1.3 (libsegue API 1.4) had it: through `mesh_vertex_count`.
    static let layerState13 = 208

    /// Why an argument was refused, in words naming it.
    struct Refusal: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The program's `struct_size` of the struct at `pointer`, if it is at least `minimum`.
    static func size<T>(of pointer: UnsafePointer<T>, _ name: String, minimum: Int) -> Result<Int, Refusal> {
        let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        guard size >= minimum else {
            return .failure(Refusal("\(name).struct_size is \(size): expected sizeof(\(T.self)_t) (\(MemoryLayout<T>.size) for this libsegue, \(minimum) at the least)"))
        }
        return .success(size)
    }

    static func size<T>(of pointer: UnsafeMutablePointer<T>, _ name: String, minimum: Int) -> Result<Int, Refusal> {
        size(of: UnsafePointer(pointer), name, minimum: minimum)
    }

    /// A copy of the program's struct: the bytes its `struct_size` covers,
    /// zero past them, by the ABI's one reader (``SizedStruct``).
    static func read<T>(_ pointer: UnsafePointer<T>?, _ name: String, minimum: Int) -> Result<T, Refusal> {
        guard let pointer else { return .failure(Refusal("\(name) is NULL")) }
        return size(of: pointer, name, minimum: minimum).map { size in SizedStruct.copy(pointer, declared: size, as: T.self) }
    }

    /// Writes `value` into the program's struct, past its `struct_size` member
    /// and within the `size` it declared.
    static func write<T>(_ value: T, to pointer: UnsafeMutablePointer<T>, size: Int) {
        withUnsafeBytes(of: value) { bytes in
            let count = min(size, MemoryLayout<T>.size)
            guard count > 4 else { return }
            (UnsafeMutableRawPointer(pointer) + 4).copyMemory(from: bytes.baseAddress! + 4, byteCount: count - 4)
        }
    }

    /// A string the program passed: not NULL, at most `limit` bytes, UTF-8.
    static func text(_ pointer: UnsafePointer<CChar>?, _ name: String, limit: Int) throws(Refusal) -> String {
        guard let pointer else { throw Refusal("\(name) is NULL") }
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { throw Refusal("\(name) is longer than \(limit) bytes") }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Refusal("\(name) is not UTF-8 text") }
        return text
    }

    /// A path the program passed: not empty, at most PATH_MAX bytes, UTF-8.
    static func path(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(Refusal) -> String {
        let path = try text(pointer, name, limit: Int(PATH_MAX))
        guard !path.isEmpty else { throw Refusal("\(name) is empty: expected a path") }
        return path
    }
}
