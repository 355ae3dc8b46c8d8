/// How far outside a triangle (in barycentric weight) a pixel centre may lie and still be drawn.
let triangleEpsilon = -1e-7

/// The rows of a triangle within `clip`: for each, the columns that may hold
/// pixel centres inside it (widened by a pixel: test each with its weights,
/// l0 = 1 - l1 - l2, l1 and l2 each at least ``triangleEpsilon``), the
/// columns certainly inside (a pixel in from the edges, untested), the
/// weights l1 and l2 at the first column, and how they change per column.
/// Shared edges are included from both sides' rules so neighbouring cells
/// leave no cracks.
@inline(__always)
func rasterizeSpans(_ p0: (Double, Double), _ p1: (Double, Double), _ p2: (Double, Double), clip: PixelRect,
                    _ span: (_ y: Int, _ first: Int, _ last: Int, _ inside: Range<Int>,
                             _ l1: Double, _ l2: Double, _ step1: Double, _ step2: Double) -> Void) {
    let p = (p0, p1, p2)
    let area = (p.1.0 - p.0.0) * (p.2.1 - p.0.1) - (p.1.1 - p.0.1) * (p.2.0 - p.0.0)
    guard abs(area) > 1e-9 else { return }
    let minX = max(pixel(min(p.0.0, p.1.0, p.2.0), .down), clip.x0)
    let maxX = min(pixel(max(p.0.0, p.1.0, p.2.0), .up), clip.x1 - 1)
    let minY = max(pixel(min(p.0.1, p.1.1, p.2.1), .down), clip.y0)
    let maxY = min(pixel(max(p.0.1, p.1.1, p.2.1), .up), clip.y1 - 1)
    guard minX <= maxX, minY <= maxY else { return }
    let epsilon = triangleEpsilon
    // l1 and l2 are linear in x along a row: l = slope · x + offset(y).
    let inverseArea = 1 / area
    let slope1 = (p.2.1 - p.0.1) * inverseArea, slope2 = -(p.1.1 - p.0.1) * inverseArea
    let slope0 = -slope1 - slope2
    let (inverse0, inverse1, inverse2) = (1 / slope0, 1 / slope1, 1 / slope2)
    for py in minY...maxY {
        let y = Double(py) + 0.5
        let l1At0 = ((0 - p.0.0) * (p.2.1 - p.0.1) - (y - p.0.1) * (p.2.0 - p.0.0)) * inverseArea
        let l2At0 = ((p.1.0 - p.0.0) * (y - p.0.1) - (p.1.1 - p.0.1) * (0 - p.0.0)) * inverseArea
        // The x range where each weight is at least epsilon.
        var low = Double(minX), high = Double(maxX) + 1
        @inline(__always) func bound(_ slope: Double, _ inverse: Double, _ offset: Double) {
            if slope > 0 {
                low = max(low, (epsilon - offset) * inverse)
            } else if slope < 0 {
                high = min(high, (epsilon - offset) * inverse)
            } else if offset < epsilon {
                high = -1
            }
        }
        bound(slope1, inverse1, l1At0)
        bound(slope2, inverse2, l2At0)
        bound(slope0, inverse0, 1 - l1At0 - l2At0)
        guard low.isFinite, high.isFinite, low <= high + 1 else { continue }
        // Widened by a pixel each side, then each pixel tested.
        let first = max(minX, floorInt(low - 0.5) - 1), last = min(maxX, ceilInt(high - 0.5) + 1)
        guard first <= last else { continue }
        // Centres at least a pixel in from where each weight reaches epsilon: each weight
        // there exceeds epsilon by its whole step per pixel, far beyond rounding.
        let inner = max(first, ceilInt(low - 0.5) + 1), outer = min(last + 1, floorInt(high - 0.5))
        let x = Double(first) + 0.5
        span(py, first, last, inner < outer ? inner..<outer : first..<first, l1At0 + slope1 * x, l2At0 + slope2 * x, slope1, slope2)
    }
}
