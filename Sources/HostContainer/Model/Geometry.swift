/// A rectangle in points: origin and size. Layout-compatible with `segue_rect_t`.
public struct Rect: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width, 0 or more.
    public var width: Double
    /// The height, 0 or more.
    public var height: Double

    /// A rectangle at (`x`, `y`) of `width` by `height`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The same rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The rectangle with origin (0, 0) and this size.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Whether every member is finite.
    public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// Linear interpolation: `self` at 0, `other` at 1.
    public func interpolated(to other: Rect, _ f: Double) -> Rect {
        Rect(
            x: x + (other.x - x) * f, y: y + (other.y - y) * f,
            width: width + (other.width - width) * f, height: height + (other.height - height) * f)
    }

    /// `(x, y, width, height)`.
    /// "(x, y, width, height)", each to four decimals at most, as reports
    /// print it ("(3.6, 9.6, 16.8, 24.0)", not "3.5999999999999996").
    public var description: String {
        func r(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
        return "(\(r(x)), \(r(y)), \(r(width)), \(r(height)))"
    }
}

extension Rect {
    /// A phone in portrait, in points (390 x 844): the container size Segue uses when none is given.
    public static let phonePortrait = Rect(x: 0, y: 0, width: 390, height: 844)
}

/// A point in 3D, z towards the viewer. Layout-compatible with `segue_vec3_t`.
public struct Vec3: Equatable, Hashable, Sendable {
    /// Rightwards.
    public var x: Double
    /// Downwards.
    public var y: Double
    /// Towards the viewer.
    public var z: Double

    /// The point (`x`, `y`, `z`).
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Whether every coordinate is finite.
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

/// A 3D transform with Core Animation's `CATransform3D` layout and meaning:
/// row vectors (a point maps to p × M), translation in m41, m42, m43, perspective
/// in m34. Layout-compatible with `segue_transform3d_t`.
public struct Transform3D: Equatable, Hashable, Sendable {
    /// m11, m12, ... m44, row by row.
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double,
                   Double, Double, Double, Double, Double, Double, Double, Double)

    /// A transform from its values as a tuple, m11 first.
    public init(m: (Double, Double, Double, Double, Double, Double, Double, Double,
                    Double, Double, Double, Double, Double, Double, Double, Double)) {
        self.m = m
    }

    /// A transform from its 16 values, m11 first, row by row.
    public init(_ values: [Double]) {
        precondition(values.count == 16, "a 4x4 transform takes 16 values")
        m = (values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7],
             values[8], values[9], values[10], values[11], values[12], values[13], values[14], values[15])
    }

    /// The transform that changes nothing.
    public static let identity = Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// A translation by `tx`, `ty`, `tz`.
    public static func translation(_ tx: Double, _ ty: Double, _ tz: Double = 0) -> Transform3D {
        Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, tx, ty, tz, 1])
    }

    /// A scale by `sx` and `sy` (about the layer's centre, where a layer's transform applies).
    public static func scale(_ sx: Double, _ sy: Double) -> Transform3D {
        Transform3D([sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    }

    /// The values row by row, m11 first.
    public var values: [Double] {
        withUnsafeBytes(of: m) { Array($0.bindMemory(to: Double.self)) }
    }

    /// Translation part (m41, m42, m43).
    public var translation: Vec3 { Vec3(x: m.12, y: m.13, z: m.14) }

    /// Whether it changes nothing.
    public var isIdentity: Bool { self == .identity }

    /// Whether every member is finite. Allocation-free: the driver checks every frame.
    public var isFinite: Bool {
        withUnsafeBytes(of: m) { $0.assumingMemoryBound(to: Double.self).allSatisfy(\.isFinite) }
    }

    /// `self` then `other`: with row vectors, the product self × other.
    public func concatenating(_ other: Transform3D) -> Transform3D {
        let a = values, b = other.values
        var r = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += a[i * 4 + k] * b[k * 4 + j] }
                r[i * 4 + j] = s
            }
        }
        return Transform3D(r)
    }

    /// Equal when all 16 values are.
    public static func == (lhs: Transform3D, rhs: Transform3D) -> Bool {
        withUnsafeBytes(of: lhs.m) { a in withUnsafeBytes(of: rhs.m) { b in
            a.assumingMemoryBound(to: Double.self).elementsEqual(b.assumingMemoryBound(to: Double.self))
        } }
    }
    /// Hashes the 16 values.
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

extension Transform3D: CustomStringConvertible {
    /// `identity`, `translate(x, y, z)`, or the 16 values.
    public var description: String {
        if isIdentity { return "identity" }
        let t = translation
        let rest = Transform3D.translation(-t.x, -t.y, -t.z).concatenating(self)
        return rest.isIdentity ? "translate(\(t.x), \(t.y), \(t.z))" : "\(values)"
    }
}
