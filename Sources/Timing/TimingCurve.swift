/// A timing curve: a cubic Bezier from (0, 0) to (1, 1), as UIKit's
/// `UICubicTimingParameters`. Evaluated by solving x(s) = t, then y(s).
public struct TimingCurve: Equatable, Hashable, Sendable {
    /// The control points P1 = (x1, y1) and P2 = (x2, y2).
    public let x1: Double, y1: Double, x2: Double, y2: Double

    /// A custom curve; x1 and x2 are clamped to [0, 1] so that x(s) is monotonic.
    /// A NaN control point is kept as it is: such a curve's value is NaN (see ``value(at:)``).
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1.isNaN ? x1 : min(max(x1, 0), 1)
        self.y1 = y1
        self.x2 = x2.isNaN ? x2 : min(max(x2, 0), 1)
        self.y2 = y2
    }

    /// UIKit's `.linear`.
    public static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)
    /// UIKit's `.easeIn`.
    public static let easeIn = TimingCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)
    /// UIKit's `.easeOut`.
    public static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    /// UIKit's `.easeInOut`.
    public static let easeInEaseOut = TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    /// UIKit's default curve (`CAMediaTimingFunction(name: .default)`).
    public static let `default` = TimingCurve(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)

    /// The curve's names in the ABI's `segue_curve_t` order.
    public static let named: [(name: String, curve: TimingCurve)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
        ("easeInOut", .easeInEaseOut), ("default", .default),
    ]

    /// The curve's progress at time fraction `t`, clamped to [0, 1] (so -inf
    /// gives 0 and +inf gives 1). NaN when `t` or any control point is NaN, so
    /// that the mistake reaches the host's check on layer states instead of
    /// passing for 0.
    /// - Complexity: O(1): at most 8 Newton steps, then at most 40 bisection steps.
    public func value(at t: Double) -> Double {
        guard !(t.isNaN || x1.isNaN || y1.isNaN || x2.isNaN || y2.isNaN) else { return .nan }
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        return sampleY(solveX(t))
    }

    // Coefficients of the polynomial form a*s^3 + b*s^2 + c*s.
    private var cx: Double { 3 * x1 }
    private var bx: Double { 3 * (x2 - x1) - cx }
    private var ax: Double { 1 - cx - bx }
    private var cy: Double { 3 * y1 }
    private var by: Double { 3 * (y2 - y1) - cy }
    private var ay: Double { 1 - cy - by }

    private func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    private func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    private func slopeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    private func solveX(_ x: Double) -> Double {
        let epsilon = 1e-12
        var s = x
        for _ in 0..<8 {
            let error = sampleX(s) - x
            if abs(error) < epsilon { return s }
            let d = slopeX(s)
            if abs(d) < 1e-9 { break }
            s -= error / d
        }
        // Newton stalled (flat slope): bisection always converges on [0, 1].
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<40 {
            let v = sampleX(s)
            if abs(v - x) < epsilon { return s }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}

/// The curves a config can name: the five named curves, in `segue_curve_t`
/// order, then the config's own top-level `curves`, by name: cubic Beziers
/// and physical springs. A curve parameter's value is an index into this book.
public struct CurveBook: Equatable, Sendable {
    /// Every name, in index order.
    public private(set) var names: [String]
    /// The curves, by the same index (linear where the name is a spring's).
    public private(set) var curves: [TimingCurve]
    /// The physical springs among them, by index.
    public private(set) var springs: [Int: Spring] = [:]

    /// The five named curves alone.
    public static let standard = CurveBook(names: TimingCurve.named.map(\.name), curves: TimingCurve.named.map(\.curve))

    /// The five named curves, then `custom` and `springs` together in name order.
    /// - Precondition: no custom name is one of the five, nor both a curve and a spring (the config reader checks it).
    public init(custom: [String: TimingCurve], springs: [String: Spring] = [:]) {
        self = .standard
        for name in Set(custom.keys).union(springs.keys).sorted() {
            if let spring = springs[name] { self.springs[names.count] = spring }
            names.append(name)
            curves.append(custom[name] ?? .linear)
        }
    }

    /// The physical spring at `index` (a curve parameter's value), if it is one.
    public func spring(at index: Double) -> Spring? { Int(exactly: index).flatMap { springs[$0] } }

    private init(names: [String], curves: [TimingCurve]) {
        (self.names, self.curves) = (names, curves)
    }

    /// The index of the curve called `name`.
    public func index(of name: String) -> Int? { names.firstIndex(of: name) }

    /// The cubic Bezier at `index` (a curve parameter's value), if there is one (nil for a spring).
    public func curve(at index: Double) -> TimingCurve? {
        Int(exactly: index).flatMap { curves.indices.contains($0) && springs[$0] == nil ? curves[$0] : nil }
    }
}
