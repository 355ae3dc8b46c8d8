import AnimatorABI
import Glibc
import Timing

/// An animator as loaded in this process: its description, copied out, and
/// the function pointers read once at load. Nothing is read from the plugin's
/// descriptor again after that (a plugin that rewrites it later cannot reach
/// the host through it).
package struct LoadedAnimator: @unchecked Sendable {
    package let description: AnimatorDescription
    /// The descriptor, passed back to the plugin as `self`; never dereferenced by the host after load.
    package let raw: UnsafePointer<segue_animator_t>
    package let host: UnsafePointer<segue_host_t>
    package let setup: @convention(c) (UnsafePointer<segue_animator_t>?, UnsafePointer<segue_context_t>?,
                                       UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t
    package let evaluate: @convention(c) (UnsafePointer<segue_animator_t>?, UnsafePointer<segue_context_t>?,
                                          UnsafePointer<segue_plan_t>?, Double,
                                          UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, UInt32) -> Void
    package let end: (@convention(c) (UnsafePointer<segue_animator_t>?, UnsafePointer<segue_context_t>?,
                                      UnsafeMutablePointer<segue_plan_t>?, Bool) -> Void)?
}

/// Reads the structs a plugin returns by the ABI's rules (the major version
/// must match, a struct is read up to the smaller of its declared size and
/// the host's, what the plugin did not provide reads as zero: ``SizedStruct``) and copies
/// everything into plain values, for ``PluginBoundary/descriptor(at:host:)``.
/// Checks only what the memory alone can tell (NULL pointers, struct sizes,
/// counts before it walks an array); strings are read up to one byte past
/// their limit, and ``PluginBoundary/validated(_:)`` checks the rest. Members'
/// names (`animators[0].params[1]`) are built only when a message needs one:
/// every scan reads a descriptor.
struct DescriptorReader {
    let host: UnsafePointer<segue_host_t>

    func readPlugin(_ pointer: UnsafeRawPointer) -> Result<[LoadedAnimator], LoadFailure> {
        let plugin: segue_plugin_t
        switch read(pointer, as: segue_plugin_t.self, minimum: SizedStruct.Minimum.plugin, name: "segue_plugin_t") {
        case .failure(let why): return .failure(why)
        case .success(let p): plugin = p
        }
        return readAnimators(of: plugin).mapError { failure in
            var marked = failure
            marked.inDescriptor = true
            return marked
        }
    }

    private func readAnimators(of plugin: segue_plugin_t) -> Result<[LoadedAnimator], LoadFailure> {
        if let problem = PluginBoundary.Limit.animatorCount(Int(plugin.animator_count)) { return PluginBoundary.malformed(problem) }
        guard let list = plugin.animators else {
            return PluginBoundary.malformed("segue_plugin_t.animators is NULL but animator_count is \(plugin.animator_count)")
        }
        var result: [LoadedAnimator] = []
        for i in 0..<Int(plugin.animator_count) {
            guard let a = list[i] else {
                return PluginBoundary.malformed("segue_plugin_t.animators[\(i)] is NULL")
            }
            switch readAnimator(a, at: "animators[\(i)]") {
            case .failure(let why): return .failure(why)
            case .success(let d): result.append(d)
            }
        }
        return .success(result)
    }

    private func readAnimator(_ pointer: UnsafePointer<segue_animator_t>, at path: @autoclosure () -> String) -> Result<LoadedAnimator, LoadFailure> {
        let a: segue_animator_t
        switch read(UnsafeRawPointer(pointer), as: segue_animator_t.self, minimum: SizedStruct.Minimum.animator,
                    name: "\(path()) (segue_animator_t)") {
        case .failure(let why): return .failure(why)
        case .success(let v): a = v
        }
        let id: String, name: String, version: String, summary: String
        switch (string(a.id, "\(path()).id", max: Int(SEGUE_MAX_ID)),
                string(a.name, "\(path()).name", max: Int(SEGUE_MAX_NAME)),
                string(a.version, "\(path()).version", max: Int(SEGUE_MAX_VERSION)),
                string(a.description, "\(path()).description", max: Int(SEGUE_MAX_DESCRIPTION))) {
        case (.success(let i), .success(let n), .success(let v), .success(let d)):
            (id, name, version, summary) = (i, n, v, d)
        case (.failure(let why), _, _, _), (_, .failure(let why), _, _), (_, _, .failure(let why), _), (_, _, _, .failure(let why)):
            return .failure(why)
        }
        func label() -> String { PluginText.escaped(name) }
        guard let setup = a.setup else { return PluginBoundary.malformed("\(path()).setup (\(label())) is NULL; it is required") }
        guard let evaluate = a.evaluate else { return PluginBoundary.malformed("\(path()).evaluate (\(label())) is NULL; it is required") }
        if let problem = PluginBoundary.Limit.parameterCount(Int(a.param_count), at: "\(path()).param_count (\(label()))") {
            return PluginBoundary.malformed(problem)
        }
        var params: [ParameterDescriptor] = []
        if a.param_count > 0 {
            guard let list = a.params else {
                return PluginBoundary.malformed("\(path()).params (\(label())) is NULL but param_count is \(a.param_count)")
            }
            for i in 0..<Int(a.param_count) {
                func at() -> String { "\(path()).params[\(i)] (\(label()))" }
                guard let p = list[i] else { return PluginBoundary.malformed("\(at()) is NULL") }
                switch readParameter(p, at: at()) {
                case .failure(let why): return .failure(why)
                case .success(let d): params.append(d)
                }
            }
        }
        return .success(LoadedAnimator(
            description: AnimatorDescription(id: id, name: name, version: version, summary: summary, parameters: params,
                                             kinds: TransitionKinds(declared: a.kinds)),
            raw: pointer, host: host, setup: setup, evaluate: evaluate, end: a.end))
    }

    private func readParameter(_ pointer: UnsafePointer<segue_param_t>, at path: @autoclosure () -> String) -> Result<ParameterDescriptor, LoadFailure> {
        let declared = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        guard declared >= SizedStruct.Minimum.parameter else {
            return PluginBoundary.malformed("\(path()).struct_size is \(declared), expected at least \(SizedStruct.Minimum.parameter) (segue_param_t as ABI 1.0 introduced it, through max_value)")
        }
        let p = SizedStruct.copy(pointer, declared: declared, as: segue_param_t.self)
        let name: String, explanation: String
        switch (string(p.name, "\(path()).name", max: Int(SEGUE_MAX_PARAM_NAME)),
                string(p.explanation, "\(path()).explanation", max: Int(SEGUE_MAX_DESCRIPTION))) {
        case (.success(let n), .success(let e)): (name, explanation) = (n, e)
        case (.failure(let why), _), (_, .failure(let why)): return .failure(why)
        }
        guard let tag = ParameterDescriptor.Kind.Tag(abiValue: p.type) else {
            return PluginBoundary.malformed("\(path()) '\(PluginText.escaped(name))' has unknown type \(p.type); this host (ABI \(SEGUE_ABI_VERSION_MAJOR).\(SEGUE_ABI_VERSION_MINOR)) knows \(ParameterDescriptor.Kind.Tag.known): a plugin built for a newer ABI minor needs a newer Segue")
        }
        var choices: [String] = []
        if tag == .choice {
            let count = p.choices == nil ? 0 : Int(p.choice_count)
            if let problem = PluginBoundary.Limit.choiceCount(count, at: "\(path()) '\(PluginText.escaped(name))'") {
                return PluginBoundary.malformed(problem)
            }
            let list = p.choices!
            for i in 0..<count {
                switch string(list[i], "\(path()).choices[\(i)]", max: Int(SEGUE_MAX_PARAM_NAME)) {
                case .failure(let why): return .failure(why)
                case .success(let c): choices.append(c)
                }
            }
        }
        let kind = ParameterDescriptor.Kind(tag, choices: choices)
        return .success(ParameterDescriptor(
            name: name, explanation: explanation, kind: kind, defaultValue: p.default_value, minimum: p.min_value,
            maximum: p.max_value))
    }

    /// Reads a versioned struct: checks its major version and that its size is
    /// at least `minimum`, and copies it by the growth rule (``SizedStruct``).
    private func read<T>(_ pointer: UnsafeRawPointer, as: T.Type, minimum: Int, name: @autoclosure () -> String) -> Result<T, LoadFailure> {
        let version = pointer.load(as: segue_version_t.self)
        guard segue_version_is_compatible(version) else {
            return .failure(LoadFailure("ABI major mismatch: \(name()) was built for ABI \(version.major).\(version.minor), but this host speaks ABI \(SEGUE_ABI_VERSION_MAJOR).x; rebuild the plugin against this host's segue_animator.h"))
        }
        let declared = Int(pointer.load(fromByteOffset: MemoryLayout<segue_version_t>.size, as: UInt32.self))
        guard declared >= minimum else {
            // Not marked as in the descriptor here: for the plugin's own struct, the library's answer was unreadable.
            return .failure(LoadFailure("malformed descriptor: \(name()).struct_size is \(declared), expected at least \(minimum) (the struct as ABI 1.0 introduced it, through its last required member)"))
        }
        return .success(SizedStruct.copy(pointer, declared: declared, as: T.self))
    }

    /// A NUL-terminated string, read without running past `max + 1` bytes:
    /// one that is longer comes back `max + 1` bytes long, for the rules to refuse.
    private func string(_ pointer: UnsafePointer<CChar>?, _ name: @autoclosure () -> String, max: Int) -> Result<String, LoadFailure> {
        guard let pointer else { return PluginBoundary.malformed("\(name()) is NULL") }
        let length = strnlen(pointer, max + 1)
        return .success(String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self))
    }
}
