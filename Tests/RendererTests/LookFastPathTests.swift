import Foundation
import Testing

@testable import HostConfig
@testable import HostContainer
@testable import Renderer

/// ABI 1.4's look (rounded corners, clips, shadows) drawn by the renderer's
/// fast paths, where each row's spans are worked out from the shapes and a
/// shadow is left out beneath an opaque caster, is the look by its plain
/// definition, every pixel worked out alone (`drawsLookPixelByPixel`): no
/// channel of any pixel more than 2/255 apart.
struct LookFastPathTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let look: String
        let scale: Double
        var testDescription: String { "\(look) at scale \(scale)" }
    }

    static let looks = ["corners", "corners + shadow", "circle clip + shadow", "turned ellipse clip + shadow", "corner clip + shadow",
                        "translucent + shadow", "perspective + shadow", "upright + shadow", "picture in a circle + shadow"]
    static let cases = looks.flatMap { look in [1.0, 2.0].map { Case(look: look, scale: $0) } }

    static let shadow = Shadow(radius: 30, offsetX: 0, offsetY: 12, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))

    /// The benchmark's frame (`SegueBenchmark --look-only`): the built-in
    /// scene's photo view, scaled to 80% and turned a little, over its grid,
    /// with `look`; and others like it, turned further, in perspective, upright.
    static func scene(_ look: String) -> View {
        let controllers = Scene.viewControllers(for: SegueConfig.builtinScene.children, size: Rect.phonePortrait)
        let root = View(frame: Rect.phonePortrait)
        root.backgroundColor = .white
        let beneath = controllers.first { $0.name == "grid" }!.view, window = controllers.first { $0.name == "photo" }!.view
        root.addSubview(beneath)
        root.addSubview(window)
        func turned(_ angle: Double, by scale: Double = 0.8) -> Transform3D {
            let (c, s) = (scale * cos(angle), scale * sin(angle))
            return Transform3D([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        }
        window.transform = turned(0.05)
        window.cornerRadius = 24
        window.masksToBounds = true
        switch look {
        case "corners": break
        case "corners + shadow": window.shadow = shadow
        case "circle clip + shadow":
            window.clip = .ellipse(Rect(x: 45, y: 260, width: 300, height: 300))
            window.shadow = shadow
        case "turned ellipse clip + shadow":
            window.clip = .ellipse(Rect(x: 20, y: 200, width: 350, height: 200))
            window.transform = turned(0.6, by: 0.7)
            window.shadow = shadow
        case "corner clip + shadow":
            // A clip across the window's right side, square but for one round corner: the shadow's distance is the larger of two.
            window.clip = .roundedRect(Rect(x: 60, y: 150, width: 400, height: 500), CornerRadii(topLeft: 0, topRight: 0, bottomRight: 0, bottomLeft: 120))
            window.transform = turned(-0.3, by: 0.6)
            window.shadow = Shadow(radius: 8, offsetX: -6, offsetY: 20, color: Color(red: 0.2, green: 0.1, blue: 0.6, alpha: 0.7))
        case "translucent + shadow":
            window.alpha = 0.7
            window.shadow = shadow
        case "perspective + shadow":
            // Turned about its vertical axis, seen from 800 points.
            var m = Transform3D.identity.values
            (m[0], m[2], m[8], m[10], m[3]) = (cos(0.5), -sin(0.5), sin(0.5), cos(0.5), sin(0.5) / 800)
            window.transform = Transform3D(m).concatenating(turned(0, by: 0.8))
            window.shadow = shadow
        case "picture in a circle + shadow":
            // A picture cut to a circle: its inside sampled along each row, as an unclipped picture's is.
            window.content = .image(seed: 3)
            window.clip = .ellipse(Rect(x: 45, y: 260, width: 300, height: 300))
            window.transform = turned(0.2)
            window.shadow = shadow
        case "upright + shadow":
            window.transform = turned(0)
            window.shadow = shadow
        default: Issue.record("no look \(look)")
        }
        return root
    }

    @Test(arguments: cases)
    func theFastPathsDrawWhatThePlainDefinitionDraws(_ c: Case) throws {
        let root = Self.scene(c.look)
        var plain = ViewRenderer(scale: c.scale)
        plain.drawsLookPixelByPixel = true
        let fast = ViewRenderer(scale: c.scale).render(root), reference = plain.render(root)
        if let folder = ProcessInfo.processInfo.environment["SEGUE_PICTURES"] {
            try Data(PNG.encode(fast)).write(to: URL(fileURLWithPath: "\(folder)/look-\(c.look)-x\(Int(c.scale)).png"))
        }
        var (worst, at, differing) = (0, 0, 0)
        for i in fast.pixels.indices {
            let d = abs(Int(fast.pixels[i]) - Int(reference.pixels[i]))
            if d > 0 { differing += 1 }
            if d > worst { (worst, at) = (d, i / 4) }
        }
        #expect(worst <= 2, "\(worst)/255 apart at (\(at % fast.width), \(at / fast.width)); \(differing) channels differ")
        // The look is drawn at all: the window's corner (and its shadow, where it has one) changes the frame.
        root.subviews[1].cornerRadius = 0
        root.subviews[1].masksToBounds = false
        root.subviews[1].clip = nil
        root.subviews[1].shadow = nil
        #expect(ViewRenderer(scale: c.scale).render(root).pixels != fast.pixels)
    }

    /// Where a row of a shape's plane is within `level` of its outline, as
    /// ``Clip/span(u:v:du:dv:level:)`` works it out, against the distance
    /// at points along the row: exact for rounded rectangles (every point in
    /// the span at most `level`, every point outside it at least), and on the
    /// safe side for ellipses (inside a span below 0, outside one above).
    @Test func aRowsSpanIsWhereTheShapesDistanceIsWithinTheLevel() {
        let shapes: [Clip] = [
            .roundedRect(Rect(x: 10, y: 20, width: 200, height: 120), CornerRadii(30)),
            .roundedRect(Rect(x: 0, y: 0, width: 100, height: 100), CornerRadii(topLeft: 0, topRight: 50, bottomRight: 10, bottomLeft: 40)),
            .roundedRect(Rect(x: -50, y: 5, width: 80, height: 300), CornerRadii(0)),
            .ellipse(Rect(x: 40, y: 30, width: 120, height: 120)),
            .ellipse(Rect(x: 40, y: 30, width: 240, height: 60)),
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ low: Double, _ high: Double) -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return low + (high - low) * Double(seed >> 11) / Double(1 << 53)
        }
        var (checked, inside, wrong) = (0, 0, [String]())
        for shape in shapes {
            for _ in 0..<200 {
                let (u, v) = (random(-100, 300), random(-100, 300))
                let angle = random(0, 2 * Double.pi), length = random(0.3, 2)
                let (du, dv) = (cos(angle) * length, sin(angle) * length)
                let level = [-40.0, -3, -0.5, 0, 0.5, 3, 40][Int(random(0, 7))]
                guard let span = shape.span(u: u, v: v, du: du, dv: dv, level: level) else {
                    Issue.record("\(shape): no span")
                    continue
                }
                let exact = if case .roundedRect = shape { true } else { false }
                for k in -400...400 {
                    let t = Double(k) / 2
                    let d = shape.distance(u + t * du, v + t * dv)
                    let within = t >= span.from && t <= span.to
                    checked += 1
                    if within { inside += 1 }
                    let bad = within ? (exact || level < 0) && d > level + 1e-9 : (exact || level > 0) && d < level - 1e-9
                    if bad {
                        wrong.append("\(shape) level \(level): \(d) at t \(t), \(within ? "in" : "outside") \(span)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) points: \(wrong.prefix(5))")
        #expect(inside > checked / 20 && inside < checked / 2, "lines cross the shapes: \(inside) of \(checked) points within")
        // A radius beyond half the rectangle's side is not told.
        #expect(Clip.roundedRect(Rect(x: 0, y: 0, width: 10, height: 10), CornerRadii(6)).span(u: 0, v: 5, du: 1, dv: 0, level: 0) == nil)
    }
}
