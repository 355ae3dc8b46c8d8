import AnimatorABI
import Glibc

/// Everything an animator's context says about one transition, as plain data:
/// what the host sends a worker process at setup, and what both the worker and
/// the in-process bridge turn into a `segue_context_t` (``CContext``).
package struct TransitionPayload: Codable, Sendable {
    /// A rectangle as x, y, width, height.
    package typealias Box = [Double]

    package struct Element: Codable, Sendable {
        package var name: String
        package var frame: Box
    }

    package struct Side: Codable, Sendable {
        package var name: String
        package var frame: Box
        package var elements: [Element]
    }

    package var bounds: Box
    package var from: Side
    package var to: Side
    package var fromInitial: Box, fromFinal: Box, toInitial: Box, toFinal: Box
    package var goingRight: Bool
    package var isAnimated: Bool
    package var isInteractive: Bool
    /// Validated values, in the animator's parameter order.
    package var parameters: [Double]
    /// For each parameter, its curve's control points (x1, y1, x2, y2) when it
    /// is a curve, else zeros (ABI 1.1's `segue_context_t.curves`).
    package var curves: [[Double]]

    /// The payload of `ctx` with `parameters` and their `curves`.
    init(_ ctx: TransitionContext, parameters: [Double], curves: [[Double]]) {
        func box(_ r: Rect) -> Box { [r.x, r.y, r.width, r.height] }
        func side(_ side: TransitionSide) -> Side {
            let vc = ctx.viewController(forKey: side == .from ? .from : .to)
            return Side(name: vc.name, frame: box(vc.view.convert(vc.view.bounds, to: ctx.containerView)),
                        elements: ctx.elements(of: side).map { Element(name: $0.name, frame: box($0.frame)) })
        }
        bounds = box(ctx.containerView.bounds)
        from = side(.from)
        to = side(.to)
        fromInitial = box(ctx.initialFrame(for: ctx.fromViewController))
        fromFinal = box(ctx.finalFrame(for: ctx.fromViewController))
        toInitial = box(ctx.initialFrame(for: ctx.toViewController))
        toFinal = box(ctx.finalFrame(for: ctx.toViewController))
        goingRight = ctx.goingRight
        isAnimated = ctx.isAnimated
        isInteractive = ctx.isInteractive
        self.parameters = parameters
        self.curves = curves
    }
}

/// A `segue_context_t` and everything it points to, built from a payload and
/// owned by this object: valid until it is released, as the ABI promises
/// ("from the start of setup until end returns").
package final class CContext {
    /// The context handed to the plugin.
    package let pointer: UnsafeMutablePointer<segue_context_t>
    private var allocations: [UnsafeMutableRawPointer] = []

    package init(_ payload: TransitionPayload, host: UnsafePointer<segue_host_t>) {
        pointer = .allocate(capacity: 1)
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
        func rect(_ b: TransitionPayload.Box) -> segue_rect_t {
            b.count == 4 ? segue_rect_t(x: b[0], y: b[1], width: b[2], height: b[3]) : segue_rect_t()
        }
        func view(_ side: TransitionPayload.Side) -> segue_view_t {
            var list: UnsafeMutablePointer<UnsafePointer<segue_element_t>?>?
            if !side.elements.isEmpty {
                let l = allocate(UnsafePointer<segue_element_t>?.self, count: side.elements.count)
                for (i, e) in side.elements.enumerated() {
                    let item = allocate(segue_element_t.self, count: 1)
                    item.initialize(to: segue_element_t(
                        struct_size: UInt32(MemoryLayout<segue_element_t>.size), name: cString(e.name), frame: rect(e.frame)))
                    l[i] = UnsafePointer(item)
                }
                list = l
            }
            return segue_view_t(name: cString(side.name), frame: rect(side.frame), elements: UnsafePointer(list),
                                element_count: UInt32(side.elements.count))
        }
        let params = allocate(Double.self, count: payload.parameters.count)
        params.initialize(from: payload.parameters, count: payload.parameters.count)

        var c = segue_context_t()
        c.abi_version = ABI.version
        c.struct_size = UInt32(MemoryLayout<segue_context_t>.size)
        c.host = host
        c.container_bounds = rect(payload.bounds)
        c.from = view(payload.from)
        c.to = view(payload.to)
        c.from_initial_frame = rect(payload.fromInitial)
        c.from_final_frame = rect(payload.fromFinal)
        c.to_initial_frame = rect(payload.toInitial)
        c.to_final_frame = rect(payload.toFinal)
        c.going_right = payload.goingRight
        c.is_animated = payload.isAnimated
        c.is_interactive = payload.isInteractive
        c.params = UnsafePointer(params)
        c.param_count = UInt32(payload.parameters.count)
        let curves = allocate(segue_cubic_bezier_t.self, count: payload.parameters.count)
        for i in payload.parameters.indices {
            let p = i < payload.curves.count && payload.curves[i].count == 4 ? payload.curves[i] : [0, 0, 0, 0]
            (curves + i).initialize(to: segue_cubic_bezier_t(x1: p[0], y1: p[1], x2: p[2], y2: p[3]))
        }
        c.curves = UnsafePointer(curves)
        pointer.initialize(to: c)
    }

    deinit {
        for p in allocations { free(p) }
        pointer.deallocate()
    }
}

/// This host's ABI version, as the structs it fills carry it.
package enum ABI {
    package static let version = segue_version_t(
        major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))

    /// A zeroed plan carrying the host's version and size, as setup receives it.
    package static func emptyPlan() -> segue_plan_t {
        var plan = segue_plan_t()
        plan.abi_version = version
        plan.struct_size = UInt32(MemoryLayout<segue_plan_t>.size)
        return plan
    }

    /// What a plugin's setup answered, read from the host's own copy of the plan.
    static func setup(result: UInt32, plan p: segue_plan_t) -> AnimatorSetup {
        switch result {
        case UInt32(SEGUE_SETUP_ANIMATE.rawValue): return translate(p)
        case UInt32(SEGUE_SETUP_DECLINE.rawValue):
            let reason = withUnsafeBytes(of: p.decline_reason) { raw in PluginText.escaped(raw.prefix { $0 != 0 }) }
            return .decline(reason: reason.isEmpty ? "(no reason given)" : reason)
        default:
            return .decline(reason: "setup returned \(result), which is neither SEGUE_SETUP_ANIMATE nor SEGUE_SETUP_DECLINE")
        }
    }

    private static func translate(_ p: segue_plan_t) -> AnimatorSetup {
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
}
