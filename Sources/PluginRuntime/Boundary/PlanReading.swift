import AnimatorABI

extension PluginBoundary {
    /// What a plugin's setup answered, as plain data: the host's own copy.
    package enum Plan: Equatable, Sendable {
        /// Animate: the duration (checked by the container), the layers and the hidden elements.
        case animate(duration: Double, layers: [Layer], hidden: [Element])
        /// The plugin declined, saying why (escaped; "(no reason given)" when it said nothing).
        case decline(reason: String)
        /// The plan breaks the ABI's rules: what is wrong, naming the member.
        case invalid(String)

        /// Whether setup returned `SEGUE_SETUP_ANIMATE`: the plugin is then
        /// owed its `end` call, whatever the host makes of the plan.
        package var owesEnd: Bool {
            switch self {
            case .animate, .invalid: true
            case .decline: false
            }
        }
    }

    /// One layer a plan asks for.
    package struct Layer: Equatable, Sendable {
        package enum Kind: Equatable, Sendable {
            case fromView, toView
            case snapshot(Element)
        }
        package var kind: Kind
        package var meshColumns: Int, meshRows: Int
    }

    /// An element of one side's view (its index is checked by the container, which knows how many there are).
    package struct Element: Equatable, Sendable {
        package var isTo: Bool
        package var index: Int
    }

    /// What setup answered: its `result` and the plan at `pointer`, copied
    /// first (the plugin, or its worker, may write to the plan at any time) and
    /// read from the copy.
    package static func plan(result: UInt32, copyingFrom pointer: UnsafeRawPointer) -> Plan {
        var p = segue_plan_t()
        withUnsafeMutableBytes(of: &p) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: $0.count)) }
        switch result {
        case UInt32(SEGUE_SETUP_ANIMATE.rawValue): return layers(of: p)
        case UInt32(SEGUE_SETUP_DECLINE.rawValue):
            let reason = withUnsafeBytes(of: p.decline_reason) { raw in PluginText.escaped(raw.prefix { $0 != 0 }) }
            return .decline(reason: reason.isEmpty ? "(no reason given)" : reason)
        default:
            return .decline(reason: "setup returned \(result), which is neither SEGUE_SETUP_ANIMATE nor SEGUE_SETUP_DECLINE")
        }
    }

    private static func layers(of p: segue_plan_t) -> Plan {
        guard p.layer_count <= SEGUE_MAX_LAYERS else {
            return .invalid("layer_count is \(p.layer_count), at most \(SEGUE_MAX_LAYERS) are allowed")
        }
        guard p.hidden_count <= SEGUE_MAX_HIDDEN_ELEMENTS else {
            return .invalid("hidden_count is \(p.hidden_count), at most \(SEGUE_MAX_HIDDEN_ELEMENTS) are allowed")
        }
        var layers: [Layer] = []
        let requests = withUnsafeBytes(of: p.layers) { Array($0.bindMemory(to: segue_layer_request_t.self)) }
        for (i, r) in requests.prefix(Int(p.layer_count)).enumerated() {
            let element = Int(r.element)
            let kind: Layer.Kind
            switch r.kind {
            case UInt32(SEGUE_LAYER_FROM_VIEW.rawValue): kind = .fromView
            case UInt32(SEGUE_LAYER_TO_VIEW.rawValue): kind = .toView
            case UInt32(SEGUE_LAYER_FROM_ELEMENT_SNAPSHOT.rawValue): kind = .snapshot(Element(isTo: false, index: element))
            case UInt32(SEGUE_LAYER_TO_ELEMENT_SNAPSHOT.rawValue): kind = .snapshot(Element(isTo: true, index: element))
            default: return .invalid("layers[\(i)].kind is \(r.kind), not a segue_layer_kind_t value")
            }
            layers.append(Layer(kind: kind, meshColumns: Int(r.mesh_columns), meshRows: Int(r.mesh_rows)))
        }
        var hidden: [Element] = []
        let refs = withUnsafeBytes(of: p.hidden) { Array($0.bindMemory(to: segue_element_ref_t.self)) }
        for (i, r) in refs.prefix(Int(p.hidden_count)).enumerated() {
            guard r.side <= 1 else { return .invalid("hidden[\(i)].side is \(r.side), not a segue_side_t value") }
            hidden.append(Element(isTo: r.side == 1, index: Int(r.element)))
        }
        return .animate(duration: p.duration, layers: layers, hidden: hidden)
    }
}
