/// The radii of a rectangle's four corners, in points (ABI 1.4's
/// `segue_corner_radii_t`). 0 is a square corner.
public struct CornerRadii: Equatable, Hashable, Sendable {
    public var topLeft, topRight, bottomRight, bottomLeft: Double

    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        (self.topLeft, self.topRight, self.bottomRight, self.bottomLeft) = (topLeft, topRight, bottomRight, bottomLeft)
    }

    /// All four corners alike.
    public init(_ all: Double) { self.init(topLeft: all, topRight: all, bottomRight: all, bottomLeft: all) }

    var all: [Double] { [topLeft, topRight, bottomRight, bottomLeft] }
}

/// A shape a view is cut to, in the view's own coordinates (its bounds: (0, 0)
/// at its top-left, before its transform): ABI 1.4's `segue_clip_t`.
public enum Clip: Equatable, Hashable, Sendable {
    /// `rect` with its corners rounded by `radii`.
    case roundedRect(Rect, CornerRadii)
    /// The ellipse inscribed in `rect`.
    case ellipse(Rect)

    /// The rectangle it lies in.
    public var rect: Rect {
        switch self {
        case .roundedRect(let r, _), .ellipse(let r): r
        }
    }
}

/// The shadow a view casts beneath it: its silhouette (bounds with their
/// corner radius, cut to its clip), blurred by `radius` points (a Gaussian of
/// half that deviation), moved by the offset in its superview's points, in
/// `color` (whose alpha is the shadow's opacity). ABI 1.4's `segue_shadow_t`.
public struct Shadow: Equatable, Hashable, Sendable {
    public var radius: Double
    public var offsetX: Double, offsetY: Double
    public var color: Color

    public init(radius: Double, offsetX: Double, offsetY: Double, color: Color) {
        (self.radius, self.offsetX, self.offsetY, self.color) = (radius, offsetX, offsetY, color)
    }
}

/// Where a transition comes from or goes to, as far as the host knows it, in
/// the container's coordinates (ABI 1.4's `segue_anchor_t`): a rectangle (a
/// launcher, a task-bar entry, an element) and a point (the pointer).
public struct TransitionAnchor: Equatable, Sendable {
    /// The rectangle, when known.
    public var rect: Rect?
    /// The point, when known.
    public var point: (x: Double, y: Double)?

    public init(rect: Rect? = nil, point: (x: Double, y: Double)? = nil) {
        (self.rect, self.point) = (rect, point)
    }

    /// Nothing known.
    public static let none = TransitionAnchor()

    /// For `segue validate`: the parts not known reach a plugin as NaN rather
    /// than zeros, so an animator that reads one without its flag shows it.
    package var poisonsUnknownParts = false

    public static func == (a: Self, b: Self) -> Bool {
        a.rect == b.rect && a.point?.x == b.point?.x && a.point?.y == b.point?.y && (a.point == nil) == (b.point == nil)
    }
}

/// What kind of window appears or disappears (ABI 1.4's `segue_window_type_t`).
public enum WindowType: UInt32, Sendable, CaseIterable {
    case normal = 0, dialog, utility, notification, menu, tooltip, splash, dock

    /// The ABI value's type; an unknown value is normal.
    public init(abiValue: UInt32) { self = WindowType(rawValue: abiValue) ?? .normal }
}
