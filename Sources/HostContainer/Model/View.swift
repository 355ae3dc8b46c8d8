/// An RGBA colour, components in [0, 1].
public struct Color: Equatable, Hashable, Sendable {
    /// The components, each in [0, 1].
    public var red, green, blue, alpha: Double

    /// A colour from its components.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Fully transparent.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)

    /// Parses `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
    public init?(hex: String) {
        // Hex digits only: UInt32(_:radix:) alone would take a sign ("#+FFFFF").
        guard hex.hasPrefix("#"), hex.count == 7 || hex.count == 9, hex.dropFirst().allSatisfy(\.isHexDigit),
              let v = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        let hasAlpha = hex.count == 9
        let rgba = hasAlpha ? v : (v << 8) | 0xFF
        self.init(
            red: Double((rgba >> 24) & 0xFF) / 255, green: Double((rgba >> 16) & 0xFF) / 255,
            blue: Double((rgba >> 8) & 0xFF) / 255, alpha: Double(rgba & 0xFF) / 255)
    }
}

/// What a view shows besides its background.
public enum ViewContent: Equatable, Hashable, Sendable {
    case none
    /// A procedural picture, drawn from its seed (the same seed, the same picture).
    case image(seed: Int)
    /// A line of text.
    case label(String)
    /// A picture file (PNG or JPEG, an absolute path), scaled to the view's
    /// bounds as `fit` says. A renderer decodes it; the model only names it.
    case picture(path: String, fit: PictureFit)
}

/// How a picture fills a view whose shape differs from its own, as CSS's
/// `object-fit` says it.
public enum PictureFit: String, CaseIterable, Hashable, Sendable {
    /// Scaled to cover the whole view, keeping its shape; what overflows is cut off (the default).
    case cover
    /// Scaled to fit inside the view, keeping its shape; the background shows beside it.
    case contain
    /// Stretched to the view's shape.
    case fill
}

extension ViewContent {
    /// The largest picture a renderer decodes: 40 megapixels (160 MiB as 8-bit
    /// RGBA), more than a 5K screen's screenshot; larger ones are refused from
    /// their headers, before a pixel is decoded.
    public static let maximumPicturePixels = 40_000_000

    /// A picture file's format from its first bytes ("PNG" or "JPEG", by their
    /// signatures), or nil: how the config and the renderer alike tell a picture.
    public static func pictureFormat(of bytes: some Collection<UInt8>) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "PNG" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "JPEG" }
        return nil
    }
}

/// A view is data: geometry, appearance and subviews. No pixels are needed to run
/// a transition; a renderer turns views into pixels.
///
/// Views form a tree through ``addSubview(_:)`` and ``removeFromSuperview()``.
/// Subviews with a ``name`` are the view's *elements*, which animators see.
/// Not thread-safe: use a view tree from one thread.
public final class View {
    /// The name of this view as an element of its child; nil for anonymous views.
    public var name: String?
    /// Position and size in the superview's coordinates.
    public var frame: Rect
    /// Applied about the frame's centre, like `CALayer.transform`.
    public var transform: Transform3D = .identity
    /// Opacity in [0, 1].
    public var alpha: Double = 1
    /// Whether the view (and its subviews) is drawn at all.
    public var isHidden = false
    /// Drawing order among siblings: higher draws on top; ties keep insertion order.
    public var zPosition: Double = 0
    /// Fills the view's bounds.
    public var backgroundColor: Color = .clear
    /// Drawn over the background.
    public var content: ViewContent = .none
    /// A label's type size (its em) in points; nil: half the view's height.
    /// Text that would not fit 4 points inside the view's sides is set smaller.
    public var fontSize: Double? = nil
    /// Rounded-corner radius in points.
    public var cornerRadius: Double = 0
    /// Whether the subviews are cut to the view's bounds rounded by
    /// ``cornerRadius`` (as `CALayer.masksToBounds`); the view's own
    /// background is rounded either way.
    public var masksToBounds = false
    /// When set, only what lies in this shape (in the view's bounds'
    /// coordinates) is drawn, subviews included.
    public var clip: Clip? = nil
    /// When set, the view casts this shadow on what lies beneath it.
    public var shadow: Shadow? = nil
    /// When set, the view is drawn as this mesh (container coordinates) instead of
    /// with frame and transform. Transitions set it for layers that asked for one.
    public var mesh: Mesh? = nil

    /// The subviews, bottom first (before z-order).
    public private(set) var subviews: [View] = []
    /// The view this one is a subview of.
    public private(set) weak var superview: View?

    /// A view at `frame`, named when it is an element.
    public init(name: String? = nil, frame: Rect) {
        self.name = name
        self.frame = frame
    }

    /// The view's own coordinate space: origin (0, 0) and its frame's size.
    public var bounds: Rect { frame.bounds }

    /// Where the corners of the view's bounds are seen in its superview:
    /// top-left, top-right, bottom-right, bottom-left, through its frame and
    /// its transform about its centre, perspective divided, as a renderer
    /// draws them. Nil when a corner lies behind the eye.
    public var projectedCorners: [(Double, Double)]? { Self.projectedCorners(of: frame, transform: transform) }

    /// The corners of a view with `frame` and `transform`, as ``projectedCorners``.
    public static func projectedCorners(of frame: Rect, transform: Transform3D) -> [(Double, Double)]? {
        let projection = FlatProjection(frame: frame, transform: transform)
        var corners: [(Double, Double)] = []
        for (u, v) in [(0.0, 0.0), (frame.width, 0), (frame.width, frame.height), (0, frame.height)] {
            guard let point = projection.point(u, v) else { return nil }
            corners.append(point)
        }
        return corners
    }

    /// Adds `view` on top of the subviews, taking it from its old superview first.
    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    /// Adds `view` just below `sibling` (on top when `sibling` is not a subview),
    /// taking it from its old superview first.
    public func insertSubview(_ view: View, below sibling: View) {
        view.removeFromSuperview()
        let index = subviews.firstIndex { $0 === sibling } ?? subviews.count
        subviews.insert(view, at: index)
        view.superview = self
    }

    /// Removes the view from its superview; does nothing when it has none.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// The named descendants, depth first in subview order.
    public var elements: [View] {
        subviews.flatMap { sub in (sub.name == nil ? [] : [sub]) + sub.elements }
    }

    /// The named descendant called `name`, if any.
    public func element(named name: String) -> View? {
        elements.first { $0.name == name }
    }

    /// `rect`, given in this view's coordinates, in the coordinates of `ancestor`
    /// (or of the root of the tree when nil). Transforms are not applied: this is
    /// the layout geometry that transitions start from.
    public func convert(_ rect: Rect, to ancestor: View?) -> Rect {
        var r = rect
        var v: View? = self
        while let current = v, current !== ancestor {
            guard let parent = current.superview else { break }
            r = r.offsetBy(dx: current.frame.x, dy: current.frame.y)
            v = parent
        }
        return r
    }

    /// A copy of this view and its subtree, detached, for snapshots.
    public func snapshot() -> View {
        let copy = View(name: name, frame: frame)
        copy.transform = transform
        copy.alpha = alpha
        copy.isHidden = false
        copy.zPosition = zPosition
        copy.backgroundColor = backgroundColor
        copy.content = content
        copy.fontSize = fontSize
        copy.cornerRadius = cornerRadius
        for sub in subviews { copy.addSubview(sub.snapshot()) }
        return copy
    }

    /// Whether the view is at rest: identity transform, alpha 1, shown, no mesh,
    /// and the same for every element. What every view is between transitions.
    public var isAtRest: Bool {
        transform.isIdentity && alpha == 1 && !isHidden && mesh == nil
            && subviews.allSatisfy(\.isAtRest)
    }
}

/// Where the points of a flat layer are seen: its frame, and its transform
/// applied about the frame's centre, perspective divided. What
/// ``View/projectedCorners`` and libsegue's projection helper compute, with
/// nothing allocated.
public struct FlatProjection: Sendable {
    private let frame: Rect
    private let m: Transform3D

    /// The projection of a layer at `frame` with `transform`.
    public init(frame: Rect, transform: Transform3D) {
        (self.frame, self.m) = (frame, transform)
    }

    /// Where the layer's point (`u`, `v`), in points from its top-left, is
    /// seen in container coordinates; nil when it lies behind the eye.
    @inline(__always)
    public func point(_ u: Double, _ v: Double) -> (x: Double, y: Double)? {
        // The row vector [u v 0 1], moved to the centre, times the transform, moved back.
        let (x, y) = (u - frame.width / 2, v - frame.height / 2)
        let w = x * m.m.3 + y * m.m.7 + m.m.15
        guard w > 1e-9 else { return nil }
        return ((x * m.m.0 + y * m.m.4 + m.m.12) / w + frame.x + frame.width / 2,
                (x * m.m.1 + y * m.m.5 + m.m.13) / w + frame.y + frame.height / 2)
    }
}

/// A deformation grid of (columns + 1) × (rows + 1) vertices, row-major from the
/// top-left, in container coordinates. Its storage is allocated once, so a
/// transition can rewrite it every frame without allocating.
public final class Mesh {
    /// Divisions across.
    public let columns: Int
    /// Divisions down.
    public let rows: Int
    /// The vertices; owned by the mesh, valid for its lifetime.
    public let vertices: UnsafeMutableBufferPointer<Vec3>

    /// A flat grid covering `frame`.
    public init(columns: Int, rows: Int, covering frame: Rect) {
        self.columns = columns
        self.rows = rows
        vertices = .allocate(capacity: (columns + 1) * (rows + 1))
        for j in 0...rows {
            for i in 0...columns {
                vertices[j * (columns + 1) + i] = Vec3(
                    x: frame.x + frame.width * Double(i) / Double(columns),
                    y: frame.y + frame.height * Double(j) / Double(rows), z: 0)
            }
        }
    }

    deinit { vertices.deallocate() }

    /// How far the eye is from the container's plane, in points, when meshes
    /// are seen in perspective: every renderer of the geometry contract uses it.
    public static let perspectiveDistance = 1_000.0

    /// Where a mesh vertex `p` (container coordinates, z towards the viewer)
    /// is seen from ``perspectiveDistance`` over (`centreX`, `centreY`), the
    /// centre of the container: scaled about it by d / (d - z), with d - z
    /// held at 1 or more.
    @inline(__always)
    public static func projected(_ p: Vec3, centreX: Double, centreY: Double) -> (x: Double, y: Double) {
        let d = perspectiveDistance
        let k = d / max(d - p.z, 1)
        return (centreX + (p.x - centreX) * k, centreY + (p.y - centreY) * k)
    }

    /// Vertex (i, j): column i, row j.
    public subscript(i: Int, j: Int) -> Vec3 { vertices[j * (columns + 1) + i] }
}
