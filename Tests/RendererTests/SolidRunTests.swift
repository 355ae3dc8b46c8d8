import Testing

@testable import HostContainer
@testable import Renderer

/// Plain quads drawn over runs of one colour change the runs' colour rather
/// than their pixels: the frame is the same, to the byte, as drawing each
/// quad over the pixels beneath it.
struct SolidRunTests {
    /// A run of the background with a translucent run drawn over its middle
    /// and an opaque one over a corner: the quads are left only what lies
    /// outside the runs, and the pixels stored are each blend's.
    @Test func aPlainQuadOverARunChangesTheRunsColour() {
        var canvas = Canvas(width: 10, height: 8)
        let background: UInt32 = 0xFF_F0_E0_D0, tint: UInt32 = 0x80_40_20_10, ink: UInt32 = 0xFF_00_00_FF
        let bounds = canvas.bounds
        let stored = canvas.withTarget(clip: bounds) { target in
            var runs = PendingRuns([PixelRect(x0: 0, y0: 0, x1: 10, y1: 6)], word: background, in: target)
            // The tint reaches two rows below the run: those it must draw itself.
            let left = runs.draw(SolidRun(rect: PixelRect(x0: 2, y0: 2, x1: 6, y1: 8), word: tint), within: bounds)
            #expect(left.reduce(0) { $0 + $1.area } == 80 - 16, "the quad is left all but the 4 x 4 over the run: \(left)")
            _ = runs.draw(SolidRun(rect: PixelRect(x0: 5, y0: 0, x1: 10, y1: 3), word: ink), within: bounds)
            #expect(target.row(4)[4] == 0, "nothing stored before the runs are")
            runs.storeAll()
            return (0..<8).map { y in (0..<10).map { target.row(y)[$0] } }
        }
        for y in 0..<8 {
            for x in 0..<10 {
                let expected: UInt32 = x >= 5 && y < 3 ? ink : x >= 2 && x < 6 && y >= 2 && y < 6 ? Pixel.over(tint, background) : y < 6 ? background : 0
                #expect(stored[y][x] == expected, "pixel (\(x), \(y))")
            }
        }
    }

    /// Scenes of plain views, translucent and opaque, at fractional places
    /// and sizes with rounded corners, over each other and beside labels and
    /// a rotated view (drawn pixel by pixel between them): the frame is the
    /// one drawn by blending each view over the pixels beneath, in order.
    @Test func plainViewsFadedOverEachOtherAreDrawnAsEachOverThePixelsBeneath() {
        var random = RandomWords(seed: 0x501_1D)
        func unit() -> Double { Double(random.next() % 1_000) / 1_000 }
        var folded = 0
        for scene in 0..<60 {
            let root = View(frame: Rect(x: 0, y: 0, width: 64, height: 48))
            root.backgroundColor = Color(red: unit(), green: unit(), blue: unit(), alpha: scene % 3 == 0 ? unit() : 1)
            for k in 0..<(2 + scene % 5) {
                let whole = random.next() % 3 == 0
                let view = View(frame: whole ? Rect(x: 0, y: 0, width: 64, height: 48)
                                : Rect(x: unit() * 50 - 5, y: unit() * 40 - 5, width: 4 + unit() * 40, height: 4 + unit() * 30))
                view.backgroundColor = Color(red: unit(), green: unit(), blue: unit(), alpha: random.next() % 2 == 0 ? 1 : unit())
                view.alpha = random.next() % 3 == 0 ? 1 : unit()
                view.cornerRadius = random.next() % 2 == 0 ? 0 : unit() * 8
                if k == 2 { view.content = .label("Ab") }
                // Turned by about 16 degrees.
                if k == 3 { view.transform = Transform3D([0.96, 0.28, 0, 0, -0.28, 0.96, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) }
                root.addSubview(view)
            }
            let renderer = ViewRenderer(scale: [1, 2, 1.5][scene % 3])
            let drawn = renderer.render(root)
            var expected = Canvas(width: drawn.width, height: drawn.height, color: renderer.background)
            let items = renderer.items(root, canvas: expected.bounds)
            var seen: [PixelRect] = []
            for item in items {
                guard case .quad(let quad) = item else { continue }
                if let solid = quad.solid, solid.word >> 24 < 255, seen.contains(where: { !$0.intersection(solid.rect).isEmpty }) { folded += 1 }
                seen.append(quad.bounds)
                expected.withTarget(clip: expected.bounds) { quad.draw(into: $0) }
            }
            let differing = stride(from: 0, to: drawn.pixels.count, by: 4).filter { drawn.pixels[$0..<$0 + 4] != expected.pixels[$0..<$0 + 4] }
            #expect(differing.count == 0, "scene \(scene): \(differing.count) pixels differ, the first at \(differing.first.map { ($0 / 4 % drawn.width, $0 / 4 / drawn.width) } as Any)")
        }
        #expect(folded > 30, "translucent plain views lay over others in many scenes: \(folded)")
    }
}
