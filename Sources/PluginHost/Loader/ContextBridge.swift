import AnimatorABI
import HostContainer
import PluginRuntime

// Where the host's own types meet the plain data plugins and workers see: a
// transition's payload made from its context, and a plugin's plan read back
// into host types.

extension TransitionPayload {
    /// The payload of `ctx` with `parameters` and their `curves`.
    init(_ ctx: TransitionContext, parameters: [Double], curves: [[Double]]) {
        func box(_ r: Rect) -> Box { [r.x, r.y, r.width, r.height] }
        func side(_ side: TransitionSide) -> Side {
            let vc = ctx.viewController(forKey: side == .from ? .from : .to)
            return Side(name: vc.name, frame: box(vc.view.convert(vc.view.bounds, to: ctx.containerView)),
                        elements: ctx.elements(of: side).map { Element(name: $0.name, frame: box($0.frame)) })
        }
        self.init(bounds: box(ctx.containerView.bounds), from: side(.from), to: side(.to),
                  fromInitial: box(ctx.initialFrame(for: ctx.fromViewController)),
                  fromFinal: box(ctx.finalFrame(for: ctx.fromViewController)),
                  toInitial: box(ctx.initialFrame(for: ctx.toViewController)),
                  toFinal: box(ctx.finalFrame(for: ctx.toViewController)),
                  goingRight: ctx.goingRight, isAnimated: ctx.isAnimated, isInteractive: ctx.isInteractive,
                  parameters: parameters, curves: curves)
    }
}

extension ABI {
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
