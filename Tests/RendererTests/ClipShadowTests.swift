import Foundation
import Testing

@testable import HostContainer
@testable import Renderer

/// ABI 1.4's look in the renderer: a layer cut to a clip, its corners
/// rounded, casting a shadow.
struct ClipShadowTests {
    static let red = Color(red: 0.9, green: 0.1, blue: 0.1)
    static let blue = Color(red: 0.1, green: 0.2, blue: 0.9)

    /// A 200 x 160 red window at (60, 40) on white, rounded by 24, cut to
    /// `clip`, with a blue child over its top half and a black shadow.
    static func scene(clip: Clip?, shadow: Bool = true) -> View {
        let root = View(frame: Rect(x: 0, y: 0, width: 320, height: 260))
        root.backgroundColor = .white
        let window = View(frame: Rect(x: 60, y: 40, width: 200, height: 160))
        window.backgroundColor = red
        window.cornerRadius = 24
        window.masksToBounds = true
        window.clip = clip
        if shadow { window.shadow = Shadow(radius: 16, offsetX: 0, offsetY: 10, color: Color(red: 0, green: 0, blue: 0, alpha: 0.6)) }
        let child = View(frame: Rect(x: 0, y: 0, width: 200, height: 80))
        child.backgroundColor = blue
        window.addSubview(child)
        root.addSubview(window)
        return root
    }

    func close(_ a: Color, _ b: Color, _ tolerance: Double = 0.03) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance && abs(a.blue - b.blue) <= tolerance
    }

    @Test func aRoundedShadowedLayerIsCutToItsCornersAndCastsABlurredShadowBeneath() throws {
        let canvas = ViewRenderer(scale: 1).render(Self.scene(clip: nil))
        if let folder = ProcessInfo.processInfo.environment["SEGUE_PICTURES"] {
            try Data(PNG.encode(canvas)).write(to: URL(fileURLWithPath: folder + "/rounded-shadowed.png"))
        }
        // Inside: the child (blue) at the top, the window (red) below; the child is cut by the window's corner.
        #expect(close(canvas.color(x: 160, y: 60), Self.blue))
        #expect(close(canvas.color(x: 160, y: 150), Self.red))
        // The very corner pixel of the window lies outside its rounding: no blue there, shadow-grey over white.
        let corner = canvas.color(x: 61, y: 41)
        #expect(abs(corner.red - corner.blue) < 0.05, "\(corner)")
        // Beneath the window's bottom edge the shadow darkens the white, fading with distance; above its top, less (offset down).
        let below = canvas.color(x: 160, y: 205), further = canvas.color(x: 160, y: 225), above = canvas.color(x: 160, y: 36)
        #expect(below.red < 0.8 && further.red > below.red && above.red > below.red, "\(below) \(further) \(above)")
        // Far from it: white.
        #expect(close(canvas.color(x: 5, y: 5), .white))
        // Without the shadow, the same pixel below is white.
        #expect(close(ViewRenderer(scale: 1).render(Self.scene(clip: nil, shadow: false)).color(x: 160, y: 205), .white))
    }

    @Test func anEllipticClipCutsTheLayerAndItsSubviewsAndShapesItsShadow() throws {
        let clip = Clip.ellipse(Rect(x: 50, y: 30, width: 100, height: 100))  // a circle of radius 50 centred at (100, 80)
        let canvas = ViewRenderer(scale: 1).render(Self.scene(clip: clip))
        if let folder = ProcessInfo.processInfo.environment["SEGUE_PICTURES"] {
            try Data(PNG.encode(canvas)).write(to: URL(fileURLWithPath: folder + "/iris.png"))
        }
        // The circle's centre in the canvas is (160, 120): blue above its middle, red below.
        #expect(close(canvas.color(x: 160, y: 90), Self.blue))
        #expect(close(canvas.color(x: 160, y: 150), Self.red))
        // Within the window but outside the circle: not drawn (white or shadow grey, never red or blue).
        for (x, y) in [(70, 50), (250, 190), (100, 120)] {
            let c = canvas.color(x: x, y: y)
            #expect(abs(c.red - c.blue) < 0.05, "(\(x), \(y)): \(c)")
        }
        // The edge is anti-aliased: a pixel on the circle is a blend.
        let edge = canvas.color(x: 210, y: 120)
        #expect(edge.green < 0.85 && edge.green > 0.15, "\(edge)")
        // A rounded clip with per-corner radii: square top-left, round bottom-right.
        let rounded = ViewRenderer(scale: 1).render(Self.scene(
            clip: .roundedRect(Rect(x: 20, y: 20, width: 160, height: 120), CornerRadii(topLeft: 0, topRight: 0, bottomRight: 50, bottomLeft: 0)),
            shadow: false))
        #expect(close(rounded.color(x: 80, y: 60), Self.blue))
        #expect(close(rounded.color(x: 238, y: 178), .white))
        #expect(close(rounded.color(x: 210, y: 150), Self.red))
        #expect(close(rounded.color(x: 81, y: 61), Self.blue))  // the square corner, at its very pixel
    }
}
