import AnimatorABI
import HostContainer
import PluginRuntime

// Where the host's own types meet the plain data plugins and workers see: a
// transition's payload made from its context, and a plugin's plan (as the
// boundary read it) in host types.

extension TransitionPayload {
    /// The payload of `ctx` with `parameters` and their `curves`.
    init(_ ctx: TransitionContext, parameters: [Double], curves: [[Double]]) {
        func box(_ r: Rect) -> Box { [r.x, r.y, r.width, r.height] }
        func side(_ side: TransitionSide) -> Side {
            let vc = ctx.viewController(forKey: side == .from ? .from : .to)
            return Side(name: vc.name, frame: box(vc.view.convert(vc.view.bounds, to: ctx.containerView)),
                        elements: ctx.elements(of: side).map { Element(name: $0.name, frame: box($0.frame)) })
        }
        self.init(kind: ctx.kind, bounds: box(ctx.containerView.bounds), from: side(.from), to: side(.to),
                  fromInitial: box(ctx.initialFrame(for: ctx.fromViewController)),
                  fromFinal: box(ctx.finalFrame(for: ctx.fromViewController)),
                  toInitial: box(ctx.initialFrame(for: ctx.toViewController)),
                  toFinal: box(ctx.finalFrame(for: ctx.toViewController)),
                  goingRight: ctx.goingRight, isAnimated: ctx.isAnimated, isInteractive: ctx.isInteractive,
                  parameters: parameters, curves: curves)
        anchorRect = ctx.anchor.rect.map(box) ?? []
        anchorPoint = ctx.anchor.point.map { [$0.x, $0.y] } ?? []
        windowType = ctx.windowType.rawValue
        modal = ctx.isModal
        anchorPoisoned = ctx.anchor.poisonsUnknownParts
    }
}

extension AnimatorSetup {
    /// What a plugin's setup answered (``PluginBoundary/plan(result:copyingFrom:)``), in the container's terms.
    init(_ plan: PluginBoundary.Plan) {
        func reference(_ e: PluginBoundary.Element) -> ElementReference {
            ElementReference(side: e.isTo ? .to : .from, index: e.index)
        }
        switch plan {
        case .decline(let reason): self = .decline(reason: reason)
        case .invalid(let why): self = .invalid(why)
        case .animate(let duration, let layers, let hidden):
            let requests = layers.map { layer in
                let kind: LayerRequest.Kind
                switch layer.kind {
                case .fromView: kind = .view(.from)
                case .toView: kind = .view(.to)
                case .snapshot(let element): kind = .snapshot(reference(element))
                }
                return LayerRequest(kind, meshColumns: layer.meshColumns, meshRows: layer.meshRows)
            }
            self = .animate(TransitionPlan(duration: duration, layers: requests, hiddenElements: hidden.map(reference)))
        }
    }
}
