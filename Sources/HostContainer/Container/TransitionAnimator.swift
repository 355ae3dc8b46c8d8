import AnimatorABI
import Timing

/// An animator in the evaluation model: it describes a transition, the host
/// animates it. The Swift face of the C ABI's `segue_animator_t`; plugin
/// animators and the built-in default both conform.
///
/// The container calls ``setup(_:)`` once, then ``evaluate(at:layers:)`` for
/// times it chooses, then ``animationEnded(_:)`` once. Like UIKit's
/// `UIViewControllerAnimatedTransitioning`, an animator concerns itself only with
/// the context it is given, so it works in any container.
public protocol TransitionAnimator: AnyObject {
    /// The short name shown in reports, e.g. "SpringSlide".
    var name: String { get }
    /// Where the animator comes from, for reports.
    var source: AnimatorSource { get }
    /// The kinds of transition it was written for; switches only by default.
    /// Containers play the others with it too (see ``KindPlayback``).
    var kinds: TransitionKinds { get }
    /// Plans the transition (its duration and layers) or declines it.
    func setup(_ context: TransitionContext) -> AnimatorSetup
    /// Writes the state of every layer at time `t` in [0, duration]; `layers`
    /// holds one pre-filled state per planned layer, in plan order. Pure: the
    /// same inputs give the same states. Must not allocate.
    func evaluate(at t: Double, layers: LayerStates)
    /// Called once after the transition ended; `completed` is false when it was
    /// cancelled or abandoned.
    func animationEnded(_ completed: Bool)
    /// Set when the animator can no longer run (its worker process crashed,
    /// hung or exited): what happened, in which call, at which t. The
    /// container then lets the built-in default finish the transition. Nil by
    /// default.
    var failure: String? { get }
}

extension TransitionAnimator {
    /// Animators that run in the host's own process never fail this way.
    public var failure: String? { nil }
    /// Switches only, as every animator before ABI 1.3.
    public var kinds: TransitionKinds { .switches }
}

/// Where an animator comes from.
public enum AnimatorSource: Equatable, Sendable {
    /// Segue's private default animator.
    case builtin
    /// A plugin, loaded from the shared library at this path.
    case plugin(path: String)
    /// An animator object the embedding application supplied itself.
    case application

    /// How reports for people name it: "built-in", "plugin", "application".
    public var label: String {
        switch self {
        case .builtin: "built-in"
        case .plugin: "plugin"
        case .application: "application"
        }
    }

    /// How `--json` output names it: "builtin", "plugin", "application".
    public var key: String {
        switch self {
        case .builtin: "builtin"
        case .plugin: "plugin"
        case .application: "application"
        }
    }

    /// The plugin file, for a plugin's animator.
    public var file: String? {
        if case .plugin(let path) = self { return path }
        return nil
    }
}

/// What ``TransitionAnimator/setup(_:)`` answers.
public enum AnimatorSetup {
    case animate(TransitionPlan)
    /// Not this transition; the reason is shown to people.
    case decline(reason: String)
    /// The animator broke the ABI's rules while planning; the text says how.
    case invalid(String)
    /// The animator could not plan at all (its process crashed, hung or exited,
    /// or it is quarantined); the text says what happened.
    case failed(String)
}

/// The layers a transition needs and its duration.
public struct TransitionPlan: Equatable {
    /// Seconds; the container accepts values in (0, 60] (`SEGUE_MAX_DURATION`).
    public var duration: Double
    /// Bottom first.
    public var layers: [LayerRequest]
    /// Elements hidden while the transition runs, shown again at its end.
    public var hiddenElements: [ElementReference]

    /// A plan of `duration` seconds over `layers` (bottom first), hiding `hiddenElements` meanwhile.
    public init(duration: Double, layers: [LayerRequest], hiddenElements: [ElementReference] = []) {
        self.duration = duration
        self.layers = layers
        self.hiddenElements = hiddenElements
    }
}

/// Which view an element belongs to.
public enum TransitionSide: Equatable, Sendable {
    case from, to
}

/// An element of the from or to view, by its index in ``TransitionContext/elements(of:)``.
public struct ElementReference: Equatable, Sendable {
    /// The view the element belongs to.
    public var side: TransitionSide
    /// Its index among that view's elements.
    public var index: Int

    /// Element `index` of the `side` view.
    public init(side: TransitionSide, index: Int) {
        self.side = side
        self.index = index
    }
}

/// One layer the animator drives.
public struct LayerRequest: Equatable, Sendable {
    /// What a layer shows.
    public enum Kind: Equatable, Sendable {
        /// The child's root view.
        case view(TransitionSide)
        /// A copy of an element, made at setup and removed at the end.
        case snapshot(ElementReference)
    }

    /// What the layer shows.
    public var kind: Kind
    /// Mesh divisions (0 and 0 for none); the mesh has (columns + 1) × (rows + 1) vertices.
    public var meshColumns: Int
    /// Mesh divisions down; 0 for no mesh.
    public var meshRows: Int

    /// A layer showing `kind`, deformed by a mesh when the divisions are not 0.
    public init(_ kind: Kind, meshColumns: Int = 0, meshRows: Int = 0) {
        self.kind = kind
        self.meshColumns = meshColumns
        self.meshRows = meshRows
    }
}

/// The state of one layer at one time. The container fills it with the layer's
/// resting values (frame at setup, identity, alpha 1, z = layer index, shown)
/// before each ``TransitionAnimator/evaluate(at:layers:)``.
///
/// It is stored as the ABI's `segue_layer_state_t`, so that a plugin writes
/// into it directly: per-frame evaluation through the ABI copies nothing.
public struct LayerState {
    /// The ABI form; plugins receive a pointer to it.
    package var raw: segue_layer_state_t

    /// A resting state: `frame`, identity, alpha 1, `zPosition`, shown, with `mesh` (empty for none).
    public init(frame: Rect, zPosition: Double, mesh: UnsafeMutableBufferPointer<Vec3> = .init(start: nil, count: 0)) {
        raw = segue_layer_state_t(
            struct_size: UInt32(MemoryLayout<segue_layer_state_t>.size),
            frame: segue_rect_t(x: frame.x, y: frame.y, width: frame.width, height: frame.height),
            transform: segue_transform3d_t(m: Transform3D.identity.m),
            alpha: 1, z_position: zPosition, hidden: false,
            mesh: UnsafeMutableRawPointer(mesh.baseAddress)?.assumingMemoryBound(to: segue_vec3_t.self),
            mesh_vertex_count: UInt32(mesh.count),
            clip: segue_clip_t(), corner_radius: 0, shadow: segue_shadow_t())
    }

    /// Since ABI 1.4: the shape the layer is cut to, in its own coordinates,
    /// as the host draws it: nil for none (or a shape it does not know), a
    /// negative width or height taken as 0, each radius within 0 and half
    /// the rect's shorter side. Read it only once the state is finite.
    public var clip: Clip? {
        get {
            let c = raw.clip
            let rect = Rect(x: c.rect.x, y: c.rect.y, width: max(c.rect.width, 0), height: max(c.rect.height, 0))
            switch c.shape {
            case SEGUE_CLIP_ROUNDED_RECT.rawValue:
                let most = min(rect.width, rect.height) / 2
                func r(_ v: Double) -> Double { min(max(v, 0), most) }
                return .roundedRect(rect, CornerRadii(topLeft: r(c.radii.top_left), topRight: r(c.radii.top_right),
                                                      bottomRight: r(c.radii.bottom_right), bottomLeft: r(c.radii.bottom_left)))
            case SEGUE_CLIP_ELLIPSE.rawValue: return .ellipse(rect)
            default: return nil
            }
        }
        set {
            switch newValue {
            case nil: raw.clip = segue_clip_t()
            case .roundedRect(let r, let radii)?:
                raw.clip = segue_clip_t(shape: SEGUE_CLIP_ROUNDED_RECT.rawValue, rect: segue_rect_t(x: r.x, y: r.y, width: r.width, height: r.height),
                                        radii: segue_corner_radii_t(top_left: radii.topLeft, top_right: radii.topRight,
                                                                    bottom_right: radii.bottomRight, bottom_left: radii.bottomLeft))
            case .ellipse(let r)?:
                raw.clip = segue_clip_t(shape: SEGUE_CLIP_ELLIPSE.rawValue, rect: segue_rect_t(x: r.x, y: r.y, width: r.width, height: r.height),
                                        radii: segue_corner_radii_t())
            }
        }
    }

    /// Since ABI 1.4: the radius of the layer's own corners as drawn: within 0
    /// and half its frame's shorter side.
    public var cornerRadius: Double {
        get { min(max(raw.corner_radius, 0), max(min(frame.width, frame.height), 0) / 2) }
        set { raw.corner_radius = newValue }
    }

    /// Since ABI 1.4: the shadow the layer casts as drawn, or nil for none
    /// (opacity 0): radius at least 0, colour and opacity within [0, 1].
    public var shadow: Shadow? {
        get {
            let s = raw.shadow
            func unit(_ v: Double) -> Double { min(max(v, 0), 1) }
            guard unit(s.opacity) > 0 else { return nil }
            return Shadow(radius: max(s.radius, 0), offsetX: s.offset_x, offsetY: s.offset_y,
                          color: Color(red: unit(s.red), green: unit(s.green), blue: unit(s.blue), alpha: unit(s.opacity)))
        }
        set {
            guard let v = newValue else { raw.shadow = segue_shadow_t(); return }
            raw.shadow = segue_shadow_t(radius: v.radius, offset_x: v.offsetX, offset_y: v.offsetY,
                                        red: v.color.red, green: v.color.green, blue: v.color.blue, opacity: v.color.alpha)
        }
    }

    /// Container coordinates.
    public var frame: Rect {
        get { Rect(x: raw.frame.x, y: raw.frame.y, width: raw.frame.width, height: raw.frame.height) }
        set { raw.frame = segue_rect_t(x: newValue.x, y: newValue.y, width: newValue.width, height: newValue.height) }
    }

    /// Applied about the frame's centre.
    public var transform: Transform3D {
        get { Transform3D(m: raw.transform.m) }
        set { raw.transform.m = newValue.m }
    }

    /// The container clamps it to [0, 1].
    public var alpha: Double {
        get { raw.alpha }
        set { raw.alpha = newValue }
    }

    /// Higher draws on top.
    public var zPosition: Double {
        get { raw.z_position }
        set { raw.z_position = newValue }
    }

    /// Whether the layer is drawn at all.
    public var isHidden: Bool {
        get { raw.hidden }
        set { raw.hidden = newValue }
    }

    /// The layer's deformation mesh in container coordinates, row-major from the
    /// top-left; empty when none was requested. Container-owned; not reset
    /// between calls, so write every vertex.
    public var mesh: UnsafeMutableBufferPointer<Vec3> {
        UnsafeMutableBufferPointer(
            start: UnsafeMutableRawPointer(raw.mesh)?.assumingMemoryBound(to: Vec3.self), count: Int(raw.mesh_vertex_count))
    }

    /// The first finite member outside its range, said as "alpha 1.25
    /// (expected 0 to 1)", or nil when all are in range. The host clamps alpha
    /// and draws nothing for a negative size; a validator reports them.
    public var firstOutOfRangeMember: String? {
        if !(0...1).contains(alpha) { return "alpha \(Self.rounded(alpha)) (expected 0 to 1; the host clamps it)" }
        if frame.width < 0 || frame.height < 0 {
            return "frame size \(Self.rounded(frame.width)) x \(Self.rounded(frame.height)) (expected a width and height of 0 or more)"
        }
        return firstOutOfRangeLook
    }

    /// The first member ABI 1.4 added that is out of range (the host clamps
    /// it as ``clip``, ``cornerRadius`` and ``shadow`` say), or nil.
    var firstOutOfRangeLook: String? {
        let c = raw.clip, r = Self.rounded
        if c.shape > SEGUE_CLIP_ELLIPSE.rawValue { return "clip.shape \(c.shape) (expected 0 to 2; the host draws the layer unclipped)" }
        if c.shape != SEGUE_CLIP_NONE.rawValue, c.rect.width < 0 || c.rect.height < 0 {
            return "clip.rect size \(r(c.rect.width)) x \(r(c.rect.height)) (expected a width and height of 0 or more; the host draws nothing)"
        }
        if c.shape == SEGUE_CLIP_ROUNDED_RECT.rawValue {
            let most = min(c.rect.width, c.rect.height) / 2
            for (name, v) in [("top_left", c.radii.top_left), ("top_right", c.radii.top_right),
                              ("bottom_right", c.radii.bottom_right), ("bottom_left", c.radii.bottom_left)] where v < 0 || v > most {
                return "clip.radii.\(name) \(r(v)) (expected 0 to \(r(most)), half the clip's shorter side; the host clamps it)"
            }
        }
        let most = max(min(frame.width, frame.height), 0) / 2
        if raw.corner_radius < 0 || raw.corner_radius > most {
            return "corner_radius \(r(raw.corner_radius)) (expected 0 to \(r(most)), half the frame's shorter side; the host clamps it)"
        }
        let s = raw.shadow
        if s.radius < 0 { return "shadow.radius \(r(s.radius)) (expected 0 or more; the host takes 0)" }
        for (name, v) in [("red", s.red), ("green", s.green), ("blue", s.blue), ("opacity", s.opacity)] where !(0...1).contains(v) {
            return "shadow.\(name) \(r(v)) (expected 0 to 1; the host clamps it)"
        }
        return nil
    }

    /// Why layer `index`'s state at `t` cannot be shown, as reports say it
    /// ("produced a non-finite alpha for layer 1 at t = 0.25 s"), or nil.
    package func nonFiniteProblem(layer index: Int, at t: Double) -> String? {
        firstNonFiniteMember.map { "produced a non-finite \($0) for layer \(index) at t = \(Self.seconds(t)) s" }
    }

    /// `t` as reports say it: to the millisecond ("0.251"), as a frame's time is worth reading.
    package static func seconds(_ t: Double) -> String { "\((t * 1000).rounded() / 1000)" }

    /// A value as reports say it: to four decimals ("1.0548"), enough to see
    /// how far it is off, without the noise of its last binary digits.
    package static func rounded(_ value: Double) -> String { "\((value * 10_000).rounded() / 10_000)" }

    /// The name of the first member that is not finite, or nil when all are.
    public var firstNonFiniteMember: String? {
        if !frame.isFinite { return "frame" }
        if !transform.isFinite { return "transform" }
        if !alpha.isFinite { return "alpha" }
        if !zPosition.isFinite { return "z_position" }
        for vertex in mesh where !vertex.isFinite { return "mesh" }
        let c = raw.clip
        if c.shape != SEGUE_CLIP_NONE.rawValue {
            if ![c.rect.x, c.rect.y, c.rect.width, c.rect.height].allSatisfy(\.isFinite) { return "clip.rect" }
            if c.shape == SEGUE_CLIP_ROUNDED_RECT.rawValue,
               ![c.radii.top_left, c.radii.top_right, c.radii.bottom_right, c.radii.bottom_left].allSatisfy(\.isFinite) { return "clip.radii" }
        }
        if !raw.corner_radius.isFinite { return "corner_radius" }
        let s = raw.shadow
        if ![s.radius, s.offset_x, s.offset_y, s.red, s.green, s.blue, s.opacity].allSatisfy(\.isFinite) { return "shadow" }
        return nil
    }
}

/// The states of a transition's layers for one frame, in plan order: a view of
/// container-owned storage, valid during ``TransitionAnimator/evaluate(at:layers:)``.
/// Write through the subscript: `layers[1].alpha = p`.
public struct LayerStates {
    package let base: UnsafeMutablePointer<LayerState>
    /// The number of layers.
    public let count: Int

    /// A view of `count` initialised states at `base`, which the caller owns
    /// and keeps alive while the view is used: for containers of one's own.
    public init(base: UnsafeMutablePointer<LayerState>, count: Int) {
        self.base = base
        self.count = count
    }

    /// The state of layer `index`, read and written in place.
    public subscript(index: Int) -> LayerState {
        unsafeAddress {
            precondition(index >= 0 && index < count, "layer \(index) of \(count)")
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            precondition(index >= 0 && index < count, "layer \(index) of \(count)")
            return base + index
        }
    }
}
