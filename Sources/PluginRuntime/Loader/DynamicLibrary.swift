import AnimatorABI
import Glibc
import ProcessShims

/// A shared library opened with `dlopen`. Never closed: a library may hold
/// Swift code whose runtime metadata stays registered, and the animators it
/// exports are used for the life of the process (the ABI promises plugins
/// that their descriptors stay valid: segue/entry.h).
final class DynamicLibrary {
    private let handle: UnsafeMutableRawPointer

    private init(handle: UnsafeMutableRawPointer) {
        self.handle = handle
    }

    /// Opens the library at `path` with `RTLD_NOW | RTLD_LOCAL`, so that an
    /// unresolved symbol fails here and not in the middle of a transition, and
    /// plugins cannot see each other's symbols.
    /// - Returns: the library, or the loader's own message on failure.
    /// The corresponding C function is `dlopen`.
    static func open(_ path: String) -> Result<DynamicLibrary, LoadFailure> {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let message = dlerror().map { PluginText.escaped(String(cString: $0)) } ?? "unknown dlopen error"
            return .failure(LoadFailure(message))
        }
        return .success(DynamicLibrary(handle: handle))
    }

    /// A symbol the library exports.
    enum Symbol {
        case function(UnsafeMutableRawPointer)
        /// Exported, but not a function: calling it would crash.
        case data
        case missing
    }

    /// What the library exports as `symbol`.
    /// The corresponding C functions are `dlsym` and `dladdr1`.
    func lookup(function symbol: String) -> Symbol {
        guard let address = dlsym(handle, symbol) else { return .missing }
        return process_shims_symbol_is_function(address) == 0 ? .data : .function(address)
    }
}

/// Why a plugin file could not be loaded; the text is shown to people.
package struct LoadFailure: Error, CustomStringConvertible {
    package let description: String
    /// True when the library loaded and answered, but what it described is malformed.
    package var inDescriptor = false
    package init(_ description: String) { self.description = description }
}
