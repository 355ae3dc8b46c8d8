import AnimatorABI
import Glibc

/// A plugin animator for one transition: translates the Swift
/// ``TransitionAnimator`` calls into the C ABI. The C context and plan it hands
/// the plugin are allocated in ``setup(_:)`` and freed after `end`, so the
/// per-frame ``evaluate(at:layers:)`` allocates nothing.
final class PluginAnimator: TransitionAnimator {
    let descriptor: AnimatorDescriptor
    let parameters: [Double]
    var name: String { descriptor.name }
    var source: AnimatorSource { .plugin(path: descriptor.file) }

    /// Read once: going through `descriptor.raw.pointee` each frame would copy the whole descriptor.
    private let raw: UnsafePointer<segue_animator_t>
    private let evaluateFunction: @convention(c) (
        UnsafePointer<segue_animator_t>?, UnsafePointer<segue_context_t>?, UnsafePointer<segue_plan_t>?,
        Double, UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, UInt32) -> Void
    /// The `states` array handed to evaluate, filled each frame with pointers into the container's states.
    private let statePointers = UnsafeMutablePointer<UnsafeMutablePointer<segue_layer_state_t>?>.allocate(
        capacity: Int(SEGUE_MAX_LAYERS))
    private var pointedCount = 0
    private let context = UnsafeMutablePointer<segue_context_t>.allocate(capacity: 1)
    private let plan = UnsafeMutablePointer<segue_plan_t>.allocate(capacity: 1)
    /// Everything the C context points to, all from malloc, freed in one place.
    private var allocations: [UnsafeMutableRawPointer] = []
    private var isSetUp = false

    init(descriptor: AnimatorDescriptor, parameters: [Double]) {
        self.descriptor = descriptor
        self.parameters = parameters
        raw = descriptor.raw
        evaluateFunction = descriptor.raw.pointee.evaluate  // validated non-NULL at load
        context.initialize(to: segue_context_t())
        plan.initialize(to: segue_plan_t())
        statePointers.initialize(repeating: nil, count: Int(SEGUE_MAX_LAYERS))
    }

    deinit {
        if isSetUp { animationEnded(false) }
        releaseContext()
        context.deallocate()
        plan.deallocate()
        statePointers.deallocate()
    }

    func setup(_ ctx: TransitionContext) -> AnimatorSetup {
        releaseContext()
        fillContext(from: ctx)
        plan.pointee = segue_plan_t()
        plan.pointee.abi_version = Self.version
        plan.pointee.struct_size = UInt32(MemoryLayout<segue_plan_t>.size)
        let result = raw.pointee.setup(raw, context, plan)
        switch result {
        case SEGUE_SETUP_ANIMATE:
            isSetUp = true
            return translatePlan()
        case SEGUE_SETUP_DECLINE:
            let reason = withUnsafeBytes(of: plan.pointee.decline_reason) { raw in
                let bytes = raw.prefix { $0 != 0 }
                return String(decoding: bytes, as: UTF8.self)
            }
            return .decline(reason: reason.isEmpty ? "(no reason given)" : reason)
        default:
            return .decline(reason: "setup returned \(result.rawValue), which is neither SEGUE_SETUP_ANIMATE nor SEGUE_SETUP_DECLINE")
        }
    }

    func evaluate(at t: Double, layers: LayerStates) {
        // A LayerState is its segue_layer_state_t and nothing else, so the
        // plugin writes straight into the container's storage.
        let count = min(layers.count, Int(SEGUE_MAX_LAYERS))
        let base = UnsafeMutableRawPointer(layers.base).assumingMemoryBound(to: segue_layer_state_t.self)
        // The container reuses its storage every frame, so this fills the array once per transition.
        if statePointers[0] != base || pointedCount != count {
            for i in 0..<count { statePointers[i] = base + i }
            pointedCount = count
        }
        evaluateFunction(raw, context, plan, t, statePointers, UInt32(count))
    }

    func animationEnded(_ completed: Bool) {
        guard isSetUp else { return }
        isSetUp = false
        raw.pointee.end?(raw, context, plan, completed)
    }

    private static let version = segue_version_t(
        major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))

    private func translatePlan() -> AnimatorSetup {
        let p = plan.pointee
        guard p.layer_count <= SEGUE_MAX_LAYERS else {
            return .invalid("layer_count is \(p.layer_count), at most \(SEGUE_MAX_LAYERS) are allowed")
        }
        guard p.hidden_count <= SEGUE_MAX_HIDDEN_ELEMENTS else {
            return .invalid("hidden_count is \(p.hidden_count), at most \(SEGUE_MAX_HIDDEN_ELEMENTS) are allowed")
        }
        var layers: [LayerRequest] = []
        let requests = withUnsafeBytes(of: p.layers) { Array($0.bindMemory(to: segue_layer_request_t.self)) }
        for (i, r) in requests.prefix(Int(p.layer_count)).enumerated() {
            let element = Int(r.element)
            let kind: LayerRequest.Kind
            switch r.kind {
            case UInt32(SEGUE_LAYER_FROM_VIEW.rawValue): kind = .view(.from)
            case UInt32(SEGUE_LAYER_TO_VIEW.rawValue): kind = .view(.to)
            case UInt32(SEGUE_LAYER_FROM_ELEMENT_SNAPSHOT.rawValue): kind = .snapshot(ElementReference(side: .from, index: element))
            case UInt32(SEGUE_LAYER_TO_ELEMENT_SNAPSHOT.rawValue): kind = .snapshot(ElementReference(side: .to, index: element))
            default: return .invalid("layers[\(i)].kind is \(r.kind), not a segue_layer_kind_t value")
            }
            layers.append(LayerRequest(kind, meshColumns: Int(r.mesh_columns), meshRows: Int(r.mesh_rows)))
        }
        var hidden: [ElementReference] = []
        let refs = withUnsafeBytes(of: p.hidden) { Array($0.bindMemory(to: segue_element_ref_t.self)) }
        for (i, r) in refs.prefix(Int(p.hidden_count)).enumerated() {
            guard r.side <= 1 else { return .invalid("hidden[\(i)].side is \(r.side), not a segue_side_t value") }
            hidden.append(ElementReference(side: r.side == 0 ? .from : .to, index: Int(r.element)))
        }
        return .animate(TransitionPlan(duration: p.duration, layers: layers, hiddenElements: hidden))
    }

    private func fillContext(from ctx: TransitionContext) {
        func allocate<T>(_: T.Type, count: Int) -> UnsafeMutablePointer<T> {
            let raw = malloc(MemoryLayout<T>.stride * max(count, 1))!
            allocations.append(raw)
            return raw.bindMemory(to: T.self, capacity: max(count, 1))
        }
        func cString(_ s: String) -> UnsafePointer<CChar> {
            let p = strdup(s)!
            allocations.append(UnsafeMutableRawPointer(p))
            return UnsafePointer(p)
        }
        func rect(_ r: Rect) -> segue_rect_t { segue_rect_t(x: r.x, y: r.y, width: r.width, height: r.height) }
        func view(_ side: TransitionSide) -> segue_view_t {
            let vc = ctx.viewController(forKey: side == .from ? .from : .to)
            let elements = ctx.elements(of: side)
            var list: UnsafeMutablePointer<UnsafePointer<segue_element_t>?>?
            if !elements.isEmpty {
                let l = allocate(UnsafePointer<segue_element_t>?.self, count: elements.count)
                for (i, e) in elements.enumerated() {
                    let item = allocate(segue_element_t.self, count: 1)
                    item.initialize(to: segue_element_t(
                        struct_size: UInt32(MemoryLayout<segue_element_t>.size), name: cString(e.name), frame: rect(e.frame)))
                    l[i] = UnsafePointer(item)
                }
                list = l
            }
            return segue_view_t(
                name: cString(vc.name), frame: rect(vc.view.convert(vc.view.bounds, to: ctx.containerView)),
                elements: UnsafePointer(list), element_count: UInt32(elements.count))
        }
        let params = allocate(Double.self, count: parameters.count)
        params.initialize(from: parameters, count: parameters.count)

        var c = segue_context_t()
        c.abi_version = Self.version
        c.struct_size = UInt32(MemoryLayout<segue_context_t>.size)
        c.host = descriptor.host
        c.container_bounds = rect(ctx.containerView.bounds)
        c.from = view(.from)
        c.to = view(.to)
        c.from_initial_frame = rect(ctx.initialFrame(for: ctx.fromViewController))
        c.from_final_frame = rect(ctx.finalFrame(for: ctx.fromViewController))
        c.to_initial_frame = rect(ctx.initialFrame(for: ctx.toViewController))
        c.to_final_frame = rect(ctx.finalFrame(for: ctx.toViewController))
        c.going_right = ctx.goingRight
        c.is_animated = ctx.isAnimated
        c.is_interactive = ctx.isInteractive
        c.params = UnsafePointer(params)
        c.param_count = UInt32(parameters.count)
        context.pointee = c
    }

    private func releaseContext() {
        for p in allocations { free(p) }
        allocations.removeAll()
    }
}
