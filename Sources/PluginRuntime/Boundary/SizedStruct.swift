import AnimatorABI

/// The ABI's growth rule, kept in one place for every struct whose writer
/// says its own size (`struct_size`): a plugin's descriptor, parameters and
/// answers, and a program's structs passed to libsegue. Structs only grow at
/// their end, so a reader takes the bytes the writer's size covers, treats
/// what it does not cover as zero (a member added later reads as absent:
/// NULL, 0), and ignores what lies past its own size (Linux's
/// `copy_struct_from_user`). A size below the smallest the reader accepts is
/// refused, naming the struct and both sizes.
package enum SizedStruct {
    /// The smallest `struct_size` accepted for each plugin struct: the end of
    /// the last member a host requires, in the version that introduced it.
    /// Pinned by static asserts in AnimatorABI's abi_layout.c.
    package enum Minimum {
        /// segue_plugin_t (1.0): through `animator_count`.
        package static let plugin = 28
        /// segue_animator_t (1.0): through `evaluate`; `end` is optional and reads as NULL when left off.
        package static let animator = 80
        /// segue_param_t (1.0): through `max_value`; `choices` is needed only by a choice.
        package static let parameter = 56
    }

    /// A copy of the `T` at `pointer`, whose writer declared `declared` bytes
    /// of it: those bytes up to `T`'s size here, zero past them. Call it
    /// only once `declared` is known to be at least the struct's minimum.
    package static func copy<T>(_ pointer: UnsafeRawPointer, declared: Int, as: T.Type) -> T {
        let size = MemoryLayout<T>.size
        let storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<T>.alignment)
        defer { storage.deallocate() }
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        storage.copyMemory(from: pointer, byteCount: min(max(declared, 0), size))
        return storage.load(as: T.self)
    }
}
