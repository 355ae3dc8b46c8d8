// AnimatorKit: conveniences for writing Segue animators in Swift on top of the
// C ABI, so that a plugin is its animation and not its bookkeeping. It only
// builds ABI structs; a plugin that uses it is still a C-ABI shared library
// whose one export is `segue_animator_entry` (see the bundled plugins).
//
// Everything made here is allocated once and never freed: the ABI requires
// descriptors and their strings to live as long as the process.

import AnimatorABI

/// The ABI version these headers describe, for the structs a plugin fills.
public let animatorABIVersion = segue_version_t(
    major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))

/// A C string with static lifetime: string literals live in the binary.
@inline(__always)
func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Allocates `values` for the life of the process.
func permanent<T>(_ values: [T]) -> UnsafePointer<T>? {
    guard !values.isEmpty else { return nil }
    let p = UnsafeMutablePointer<T>.allocate(capacity: values.count)
    p.initialize(from: values, count: values.count)
    return UnsafePointer(p)
}

/// A parameter an animator declares; see `segue_param_t`.
public struct Parameter {
    let raw: segue_param_t

    /// A number in [min, max].
    public static func number(_ name: StaticString, _ explanation: StaticString,
                              default value: Double, min: Double, max: Double) -> Parameter {
        Parameter(name, explanation, SEGUE_PARAM_NUMBER, value, min, max)
    }

    /// A whole number in [min, max].
    public static func integer(_ name: StaticString, _ explanation: StaticString,
                               default value: Int, min: Int, max: Int) -> Parameter {
        Parameter(name, explanation, SEGUE_PARAM_INTEGER, Double(value), Double(min), Double(max))
    }

    /// One of `choices`, by name in config and by index in the context.
    public static func choice(_ name: StaticString, _ explanation: StaticString,
                              _ choices: [StaticString], default index: Int) -> Parameter {
        Parameter(name, explanation, SEGUE_PARAM_CHOICE, Double(index), 0, Double(choices.count - 1),
                  choices: choices.map { Optional(cString($0)) })
    }

    /// A timing curve (ABI 1.1), named in config: one of the five named curves
    /// or one of the config's `curves`. Evaluate it with ``curveProgress(_:_:_:)``.
    public static func curve(_ name: StaticString, _ explanation: StaticString, default curve: segue_curve_t) -> Parameter {
        Parameter(name, explanation, SEGUE_PARAM_CURVE, Double(curve.rawValue), 0, Double(SEGUE_CURVE_DEFAULT.rawValue))
    }

    private init(_ name: StaticString, _ explanation: StaticString, _ type: segue_param_type_t,
                 _ value: Double, _ min: Double, _ max: Double, choices: [UnsafePointer<CChar>?] = []) {
        raw = segue_param_t(
            struct_size: UInt32(MemoryLayout<segue_param_t>.size), name: cString(name), explanation: cString(explanation),
            type: UInt32(type.rawValue), default_value: value, min_value: min, max_value: max,
            choices: permanent(choices), choice_count: UInt32(choices.count))
    }
}

/// The C signatures of an animator's callbacks; see `segue_animator_t`.
public typealias SetupFunction = @convention(c) (
    UnsafePointer<segue_animator_t>?, UnsafePointer<segue_context_t>?, UnsafeMutablePointer<segue_plan_t>?
) -> segue_setup_result_t
/// `segue_animator_t.evaluate`: writes every layer's state at time t. [any-thread]
public typealias EvaluateFunction = @convention(c) (
    UnsafePointer<segue_animator_t>?, UnsafePointer<segue_context_t>?, UnsafePointer<segue_plan_t>?,
    Double, UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, UInt32
) -> Void
/// `segue_animator_t.end`: the transition ended, completed or not. [main-thread]
public typealias EndFunction = @convention(c) (
    UnsafePointer<segue_animator_t>?, UnsafePointer<segue_context_t>?, UnsafeMutablePointer<segue_plan_t>?, Bool
) -> Void

/// A plugin's descriptor with one or more animators, allocated for the life
/// of the process. Its entry point is one line:
///
/// ```swift
/// @c(segue_animator_entry)
/// public func entry(_ host: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? { plugin.attach(host) }
/// ```
/// Animators reach the host's functions through `ctx->host` in every call.
/// It is Sendable because what it points to is never written after `init`.
public struct Plugin: @unchecked Sendable {
    /// The plugin descriptor, valid for the life of the process.
    public let descriptor: UnsafePointer<segue_plugin_t>

    /// Answers the descriptor, or NULL (refusing to load) when the host speaks
    /// another ABI major. [main-thread, once]
    public func attach(_ host: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? {
        guard let host, segue_version_is_compatible(host.pointee.abi_version) else { return nil }
        return descriptor
    }

    /// Builds the descriptor for `animators`, in order.
    public init(_ animators: [Animator]) {
        let list = animators.map { a -> UnsafePointer<segue_animator_t>? in
            var raw = segue_animator_t()
            raw.abi_version = animatorABIVersion
            raw.struct_size = UInt32(MemoryLayout<segue_animator_t>.size)
            raw.id = cString(a.id)
            raw.name = cString(a.name)
            raw.version = cString(a.version)
            raw.description = cString(a.description)
            raw.params = permanent(a.parameters.map { permanent([$0.raw]) })
            raw.param_count = UInt32(a.parameters.count)
            raw.setup = a.setup
            raw.evaluate = a.evaluate
            raw.end = a.end
            raw.kinds = a.kinds.reduce(0) { $0 | (1 << $1.rawValue) }
            return permanent([raw])
        }
        descriptor = permanent([segue_plugin_t(
            abi_version: animatorABIVersion, struct_size: UInt32(MemoryLayout<segue_plugin_t>.size),
            animators: permanent(list), animator_count: UInt32(list.count))])!
    }
}

/// One animator of a ``Plugin``; see `segue_animator_t` for each member's rules.
public struct Animator {
    let id, name, version, description: StaticString
    let parameters: [Parameter]
    let setup: SetupFunction
    let evaluate: EvaluateFunction
    let end: EndFunction?
    let kinds: [segue_transition_kind_t]

    /// An animator: the strings and parameters are copied into static ABI structs by ``Plugin``.
    /// - Parameter kinds: the kinds of transition it was written for (ABI 1.3); empty for switches only.
    public init(id: StaticString, name: StaticString, version: StaticString, description: StaticString,
                parameters: [Parameter], setup: SetupFunction, evaluate: EvaluateFunction, end: EndFunction? = nil,
                kinds: [segue_transition_kind_t] = []) {
        self.kinds = kinds
        (self.id, self.name, self.version, self.description) = (id, name, version, description)
        self.parameters = parameters
        self.setup = setup
        self.evaluate = evaluate
        self.end = end
    }
}

extension segue_layer_request_t {
    /// A layer showing a root view or an element snapshot, optionally as a mesh.
    public init(_ kind: segue_layer_kind_t, element: UInt32 = 0, meshColumns: UInt32 = 0, meshRows: UInt32 = 0) {
        self.init(kind: UInt32(kind.rawValue), element: element, mesh_columns: meshColumns, mesh_rows: meshRows)
    }
}

extension segue_element_ref_t {
    /// Element `element` of the from or the to view.
    public init(_ side: segue_side_t, _ element: Int) {
        self.init(side: UInt32(side.rawValue), element: UInt32(element))
    }
}

extension UnsafeMutablePointer where Pointee == segue_plan_t {
    /// Hides `elements` while the transition runs; the host shows them again at its end.
    public func hide(_ elements: [segue_element_ref_t]) {
        pointee.hidden_count = UInt32(Swift.min(elements.count, Int(SEGUE_MAX_HIDDEN_ELEMENTS)))
        withUnsafeMutableBytes(of: &pointee.hidden) { buffer in
            for (i, ref) in elements.prefix(Int(SEGUE_MAX_HIDDEN_ELEMENTS)).enumerated() {
                buffer.storeBytes(of: ref, toByteOffset: i * MemoryLayout<segue_element_ref_t>.stride,
                                  as: segue_element_ref_t.self)
            }
        }
    }

    /// Plans `layers` (bottom first) over `duration` seconds.
    public func plan(duration: Double, layers: [segue_layer_request_t]) {
        pointee.duration = duration
        pointee.layer_count = UInt32(Swift.min(layers.count, Int(SEGUE_MAX_LAYERS)))
        withUnsafeMutableBytes(of: &pointee.layers) { buffer in
            for (i, layer) in layers.prefix(Int(SEGUE_MAX_LAYERS)).enumerated() {
                buffer.storeBytes(of: layer, toByteOffset: i * MemoryLayout<segue_layer_request_t>.stride,
                                  as: segue_layer_request_t.self)
            }
        }
    }

    /// Writes `reason` into the plan (truncated to fit) and answers SEGUE_SETUP_DECLINE.
    public func decline(_ reason: String) -> segue_setup_result_t {
        withUnsafeMutableBytes(of: &pointee.decline_reason) { buffer in
            let bytes = reason.utf8.prefix(buffer.count - 1)
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return SEGUE_SETUP_DECLINE
    }
}

extension UnsafePointer where Pointee == segue_plan_t {
    /// The plan's SEGUE_SCRATCH_COUNT scratch values, read in place (copying
    /// the plan would cost more than most math). Inlinable: it is on every frame's path.
    @inlinable
    public var scratch: UnsafePointer<Double> {
        UnsafeRawPointer(self).advanced(by: MemoryLayout<segue_plan_t>.offset(of: \.scratch)!)
            .assumingMemoryBound(to: Double.self)
    }
}

extension UnsafeMutablePointer where Pointee == segue_plan_t {
    /// The plan's SEGUE_SCRATCH_COUNT scratch values, for setup to write.
    @inlinable
    public var scratch: UnsafeMutablePointer<Double> {
        UnsafeMutableRawPointer(self).advanced(by: MemoryLayout<segue_plan_t>.offset(of: \.scratch)!)
            .assumingMemoryBound(to: Double.self)
    }
}

/// The progress at time fraction `fraction` of the curve parameter at
/// `index`: its control points are in the context (ABI 1.1). [any-thread]
@inline(__always)
public func curveProgress(_ ctx: UnsafePointer<segue_context_t>, _ index: Int, _ fraction: Double) -> Double {
    guard let host = ctx.pointee.host, let curves = ctx.pointee.curves else { return fraction }
    let c = curves[index]
    return host.pointee.cubic_bezier_value(c.x1, c.y1, c.x2, c.y2, fraction)
}
