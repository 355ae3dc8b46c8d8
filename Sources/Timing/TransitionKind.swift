import AnimatorABI

/// What a transition does: the ABI's `segue_transition_kind_t` (since 1.3),
/// the one home of its values and names.
public enum TransitionKind: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One child leaves and another takes its place: the seeds' switch.
    case `switch`
    /// A view arrives over the one shown, which stays beneath it (a window opens).
    case appear
    /// A view leaves, revealing the one beneath it (a window closes).
    case disappear

    /// The value in `segue_context_t.kind`.
    public var abiValue: UInt32 {
        switch self {
        case .switch: SEGUE_TRANSITION_SWITCH.rawValue
        case .appear: SEGUE_TRANSITION_APPEAR.rawValue
        case .disappear: SEGUE_TRANSITION_DISAPPEAR.rawValue
        }
    }

    /// The kind `value` names; a value this host does not know reads as a
    /// switch, as the ABI says of unknown values.
    public init(abiValue value: UInt32) {
        self = Self.allCases.first { $0.abiValue == value } ?? .switch
    }

    /// How configs, `--kind` and JSON name it: "switch", "appear", "disappear".
    public var key: String {
        switch self {
        case .switch: "switch"
        case .appear: "appear"
        case .disappear: "disappear"
        }
    }

    /// The kind a config or command line names by its ``key``.
    public init?(key: String) {
        guard let kind = Self.allCases.first(where: { $0.key == key }) else { return nil }
        self = kind
    }

    /// The `from` and `to` of an appearance or a disappearance, as its
    /// context, its report and every host's output name them: an appearance
    /// goes from the view `beneath` to the `presented` one; a disappearance
    /// from the `presented` view to the one beneath, which it reveals. (A
    /// switch has no view presented: it reads as an appearance.)
    public func sides<Side>(presented: Side, beneath: Side) -> (from: Side, to: Side) {
        self == .disappear ? (presented, beneath) : (beneath, presented)
    }

    /// The presented view of an appearance or a disappearance going `from`
    /// one view `to` another: the reverse of ``sides(presented:beneath:)``.
    public func presented<Side>(from: Side, to: Side) -> Side { self == .disappear ? from : to }

    /// How reports say it: "switch", "appearance", "disappearance".
    public var description: String {
        switch self {
        case .switch: "switch"
        case .appear: "appearance"
        case .disappear: "disappearance"
        }
    }
}

/// The kinds an animator was written for: `segue_animator_t.kinds` (since
/// ABI 1.3), one bit per ``TransitionKind``.
public struct TransitionKinds: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32

    /// The kinds whose bits are set; bits of kinds this host does not know are dropped.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue & TransitionKind.allCases.reduce(0) { $0 | (1 << $1.abiValue) }
    }

    /// Just `kind`.
    public init(_ kind: TransitionKind) { self.init(rawValue: 1 << kind.abiValue) }

    public static let switches = TransitionKinds(.switch)
    public static let appearances = TransitionKinds(.appear)
    public static let disappearances = TransitionKinds(.disappear)
    public static let all: TransitionKinds = [.switches, .appearances, .disappearances]

    /// What a descriptor's `kinds` member declares: none (an animator built
    /// before 1.3, or one that says nothing) means switches only.
    public init(declared bits: UInt32) {
        let known = TransitionKinds(rawValue: bits)
        self = known.isEmpty ? .switches : known
    }

    /// Whether `kind` is among them.
    public func contains(_ kind: TransitionKind) -> Bool { contains(TransitionKinds(kind)) }

    /// The kinds, in ``TransitionKind`` order.
    public var kinds: [TransitionKind] { TransitionKind.allCases.filter(contains) }

    /// "switch, appear": the kinds by their keys.
    public var description: String { kinds.map(\.key).joined(separator: ", ") }
}
