import HostContainer

/// The layer states of one plan, with a mesh's vertices where a layer has
/// one, allocated once: what an animator writes into, and what a sample
/// copies out of, without allocating.
final class LayerBuffer {
    /// What the states are for: each layer's resting frame (container
    /// coordinates) and its mesh divisions (0 and 0 for none).
    struct Layout {
        var resting: [Rect]
        var meshes: [(columns: Int, rows: Int)]

        /// The layout of `plan` over `context`'s views, as the container lays its layers out.
        init(plan: TransitionPlan, context: TransitionContext) {
            let container = context.containerView
            func frame(_ view: View) -> Rect { view.convert(view.bounds, to: container) }
            resting = plan.layers.map { request in
                switch request.kind {
                case .view(let side): frame(context.viewController(forKey: side == .from ? .from : .to).view)
                case .snapshot(let ref): frame(context.viewController(forKey: ref.side == .from ? .from : .to).view.elements[ref.index])
                }
            }
            meshes = plan.layers.map { ($0.meshColumns, $0.meshRows) }
        }
    }

    let count: Int
    private let base: UnsafeMutablePointer<LayerState>
    private let resting: [Rect]
    /// Kept between calls, as the container keeps a layer's mesh: an animator writes every vertex.
    private let meshes: [Mesh?]

    init(_ layout: Layout) {
        count = layout.resting.count
        resting = layout.resting
        meshes = zip(layout.resting, layout.meshes).map { frame, divisions in
            divisions.columns > 0 ? Mesh(columns: divisions.columns, rows: divisions.rows, covering: frame) : nil
        }
        base = .allocate(capacity: max(count, 1))
        rest()
    }

    deinit { base.deallocate() }

    /// The states, for an animator to write.
    var states: LayerStates { LayerStates(base: base, count: count) }

    /// Layer `index`'s state.
    subscript(index: Int) -> LayerState { base[index] }

    /// Every state back at rest (frame at setup, identity, alpha 1, z the
    /// layer's index, shown), meshes as they were.
    func rest() {
        for i in 0..<count {
            (base + i).initialize(to: LayerState(frame: resting[i], zPosition: Double(i),
                                                 mesh: meshes[i]?.vertices ?? .init(start: nil, count: 0)))
        }
    }

    /// The layers at `indices` hidden (alpha 0), the others as they are.
    func conceal(_ indices: [Int]) {
        for i in indices where i < count { base[i].alpha = 0 }
    }

    /// Takes `other`'s states (of the same layout), mesh vertices included.
    func copy(from other: LayerBuffer) {
        for i in 0..<count {
            var state = other.base[i]
            state.raw.mesh = base[i].raw.mesh
            base[i] = state
            if let mine = meshes[i], let theirs = other.meshes[i] {
                _ = mine.vertices.update(fromContentsOf: theirs.vertices)
            }
        }
    }

    /// Why the states at `t` cannot be shown (a non-finite value), or nil.
    func nonFinite(at t: Double) -> String? {
        for i in 0..<count {
            if let problem = base[i].nonFiniteProblem(layer: i, at: t) { return problem }
        }
        return nil
    }
}
