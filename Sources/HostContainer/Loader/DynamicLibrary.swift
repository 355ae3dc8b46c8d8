import AnimatorABI
import Glibc

/// A shared library opened with `dlopen`. Never closed: a library may hold
/// Swift code whose runtime metadata stays registered, and the animators it
/// exports are used for the life of the process (see DESIGN: "never dlclose").
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
            let message = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            return .failure(LoadFailure(message))
        }
        return .success(DynamicLibrary(handle: handle))
    }

    /// The address of `symbol`, or nil when the library does not export it.
    /// The corresponding C function is `dlsym`.
    func lookup(symbol: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, symbol)
    }
}

/// Why a plugin file could not be loaded; the text is shown to people.
struct LoadFailure: Error, CustomStringConvertible {
    let description: String
    /// True when the library loaded and answered, but what it described is malformed.
    var inDescriptor = false
    init(_ description: String) { self.description = description }
}
