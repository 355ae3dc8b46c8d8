import Foundation
import Glibc
@testable import HostConfig
@testable import PluginHost
import HostTestSupport
import TestSupport
import Testing

@testable import HostContainer
@testable import Renderer

/// The software renderer: the bundled animators drawn from the built-in
/// scene, perspective, anti-aliasing, drawing only the damage (text: TextDrawingTests).
struct DrawingTests {
    /// The built-in scene driven directly: the container at the given times of one transition.
    func render(_ animator: String, from: String, to: String, at times: [Double], scale: Double = 0.25)
        -> (frames: [Canvas], container: ContainerViewController, states: [[Rect]]) {
        let clock = VirtualClock()
        let size = Rect.phonePortrait
        let children = SegueConfig.builtinScene.children
        let container = ContainerViewController(viewControllers: Scene.viewControllers(for: children, size: size), size: size, clock: clock)
        try? container.select(named: from)
        container.runUntilIdle(advancing: clock)
        var config = SegueConfig(file: "test")
        config.rules = [SegueConfig.Rule(from: from, to: to, animator: animator, label: "test")]
        let delegate = ConfigDrivenDelegate(config: config, registry: bundledRegistry)
        container.delegate = delegate
        try? container.select(named: to)
        let origin = clock.now
        let renderer = ViewRenderer(scale: scale)
        var frames: [Canvas] = [], states: [[Rect]] = []
        for t in times {
            clock.advance(to: origin + t)
            container.tick()
            frames.append(renderer.render(container.view))
            states.append(container.view.subviews.map(\.frame))
        }
        withExtendedLifetime(delegate) {}
        return (frames, container, states)
    }

    func close(_ a: Color, _ b: Color, _ tolerance: Double = 0.02) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance && abs(a.blue - b.blue) <= tolerance
    }

    func background(_ child: String) -> Color {
        Scene.viewControllers(for: SegueConfig.builtinScene.children, size: Rect.phonePortrait)
            .first { $0.name == child }!.view.backgroundColor
    }

    static let cases = [("default", "photo", "video", 1.0), ("SpringSlide", "photo", "video", 1.0),
                        ("CurlUp", "video", "file", 0.4), ("ImageZoom", "grid", "detail", 0.3)]

    @Test(arguments: cases)
    func theFromViewFillsTheContainerAtTheStartAndTheToViewAtTheEnd(_ c: (String, String, String, Double)) {
        let (animator, from, to, duration) = c
        let (frames, container, _) = render(animator, from: from, to: to, at: [0, duration])
        #expect(!container.isTransitioning)
        // Probe points clear of the grid's and the detail's elements: x 4...388, y 600...832 points.
        for (frame, child) in [(frames[0], from), (frames[1], to)] {
            for x in stride(from: 1, to: 97, by: 8) {
                for y in [150, 180, 208] {
                    let probe = frame.color(x: x, y: y)
                    #expect(close(probe, background(child)), "\(animator) at (\(x), \(y)): \(probe) should be \(child)'s \(background(child))")
                }
            }
        }
    }

    /// Which surface a pixel of a CurlUp frame shows, and how lit: the colour
    /// as a multiple k of the page's front, its pale back, or the view beneath
    /// (shading and shadow only scale a colour); nil when none fits (labels, edges).
    func surface(_ c: Color, page: Color, back: Color, beneath: Color) -> (kind: String, k: Double)? {
        var best: (kind: String, k: Double, residual: Double)?
        for (kind, base) in [("front", page), ("back", back), ("beneath", beneath)] {
            let bb = base.red * base.red + base.green * base.green + base.blue * base.blue
            let k = (c.red * base.red + c.green * base.green + c.blue * base.blue) / bb
            let residual = max(abs(c.red - k * base.red), abs(c.green - k * base.green), abs(c.blue - k * base.blue))
            if residual < 0.025, residual < best?.residual ?? .infinity { best = (kind, k, residual) }
        }
        return best.map { ($0.kind, $0.k) }
    }

    @Test func midwayThroughCurlUpThePageCurlsAtASlantShadedWithAPaleBackOverAShadow() throws {
        let (frames, _, _) = render("CurlUp", from: "video", to: "file", at: [0, 0.16], scale: 0.5)
        let page = background("video"), beneath = background("file"), back = Content.backSide(of: page)
        let f = frames[1]
        var kinds: [String: [Double]] = [:]
        func lowestPageRow(x: Int) -> Int {
            (0..<f.height).last { y in
                guard let s = surface(f.color(x: x, y: y), page: page, back: back, beneath: beneath) else { return false }
                return s.kind != "beneath"
            } ?? -1
        }
        for y in 0..<f.height { for x in 0..<f.width {
            if let s = surface(f.color(x: x, y: y), page: page, back: back, beneath: beneath) { kinds[s.kind, default: []].append(s.k) }
        } }
        // At the start the page lies flat: every probe is the front, fully lit.
        let start = (0..<frames[0].width).map { frames[0].color(x: $0, y: frames[0].height - 2) }
        #expect(start.allSatisfy { surface($0, page: page, back: back, beneath: beneath).map { $0.kind == "front" && abs($0.k - 1) < 0.02 } ?? false })

        // The curl line is slanted: the bottom-right corner leads, so the page ends higher on the right.
        let left = lowestPageRow(x: f.width / 10), right = lowestPageRow(x: f.width * 9 / 10)
        #expect(left > right + 20, "lowest page row: \(left) on the left, \(right) on the right")
        // All three surfaces show, and the back is paler than the front.
        let front = try #require(kinds["front"]), backs = try #require(kinds["back"]), under = try #require(kinds["beneath"])
        let total = f.width * f.height
        #expect(front.count > total / 20 && backs.count > total / 50 && under.count > total / 20, "\(front.count) \(backs.count) \(under.count) of \(total)")
        func luminance(_ c: Color) -> Double { 0.3 * c.red + 0.59 * c.green + 0.11 * c.blue }
        #expect(luminance(back) > luminance(page) + 0.1)
        // The curl is shaded: part of the page is darker than the flat page's full light.
        #expect(front.filter { $0 < 0.75 }.count + backs.filter { $0 < 0.75 }.count > 50, "shaded pixels of the curl")
        // The shadow: the view beneath is darker near the curl than in the open.
        #expect(under.filter { $0 < 0.85 }.count > 100, "shadowed pixels of the view beneath")
        let open = try #require(surface(f.color(x: 4, y: f.height - 3), page: page, back: back, beneath: beneath))
        #expect(open.kind == "beneath" && abs(open.k - 1) < 0.02, "far from the curl, the view beneath is unshadowed: \(open)")
    }

    @Test func midwayThroughImageZoomTheSnapshotLiesBetweenTheCellAndTheDetailImage() throws {
        let cell = Rect(x: 16, y: 120, width: 171, height: 171), detail = Rect(x: 0, y: 100, width: 390, height: 390)
        let scale = 0.5
        let (frames, container, _) = render("ImageZoom", from: "grid", to: "detail", at: [0.15], scale: scale)
        let snapshot = try #require(container.view.subviews.first { if case .image = $0.content { true } else { false } })
        let f = snapshot.frame
        #expect(f.x < cell.x && f.x > detail.x && f.width > cell.width && f.width < detail.width)
        #expect(f.y < cell.y && f.y > detail.y)
        // Where the snapshot lies, the picture is drawn, scaled to its frame: even outside the cell's frame.
        for (u, v) in [(0.5, 0.5), (0.95, 0.2), (0.9, 0.9), (0.1, 0.8)] {
            let x = f.x + u * f.width, y = f.y + v * f.height
            let expected = Content.imageColor(seed: 1, u: u, v: v)
            let probe = frames[0].color(x: Int(x * scale), y: Int(y * scale))
            #expect(close(probe, expected, 0.06), "at (\(u), \(v)): \(probe) vs \(expected)")
        }
    }

    @Test func aTransformWithPerspectiveDrawsATrapezoid() {
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let card = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        card.backgroundColor = Color(red: 1, green: 0, blue: 0)
        let (s, c, d) = (sin(0.6), cos(0.6), 300.0)
        card.transform = Transform3D([c, 0, -s, s / d, 0, 1, 0, 0, s, 0, c, -c / d, 0, 0, 0, 1])
        root.addSubview(card)
        let canvas = ViewRenderer().render(root)
        func redHeight(_ x: Int) -> Int { (0..<200).filter { close(canvas.color(x: x, y: $0), card.backgroundColor, 0.1) }.count }
        let columns = (0..<200).filter { redHeight($0) > 0 }
        let left = try! #require(columns.first), right = try! #require(columns.last)
        let (hl, hr) = (redHeight(left + 2), redHeight(right - 2))
        #expect(hl > hr + 15, "the near edge is taller: \(hl) vs \(hr)")
        #expect(Double(right - left) < 100 * c + 10, "foreshortened: \(right - left) px wide")
        // The top edge slopes: each side's first red row differs.
        let top = { (x: Int) in (0..<200).first { close(canvas.color(x: x, y: $0), card.backgroundColor, 0.1) } ?? 0 }
        #expect(top(left + 2) < top(right - 2))
    }

    @Test func edgesAreAntiAliased() {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        let square = View(frame: Rect(x: 10.5, y: 10, width: 20, height: 20))
        square.backgroundColor = Color(red: 0, green: 0, blue: 0)
        root.addSubview(square)
        let canvas = ViewRenderer().render(root)
        // The left edge at x = 10.5 covers half of pixel 10.
        #expect(abs(canvas.color(x: 10, y: 20).red - 0.5) < 0.02)
        #expect(canvas.color(x: 11, y: 20).red < 0.01 && canvas.color(x: 9, y: 20).red > 0.99)
    }

    /// A frame renderer draws only what changed; what it keeps and what it
    /// draws again make the very frame a full redraw makes, at every step of
    /// every bundled animator's transition and of the default's.
    @Test(arguments: [("SpringSlide", "photo", "video"), ("CurlUp", "video", "file"), ("ImageZoom", "grid", "detail"), ("default", "photo", "video")])
    func drawingOnlyTheDamageGivesTheSameFrameAsDrawingEverything(_ c: (String, String, String)) throws {
        let children = SegueConfig.builtinScene.children
        var config = SegueConfig(file: "test")
        config.rules = [SegueConfig.Rule(from: c.1, to: c.2, animator: c.0, label: "test")]
        let delegate = ConfigDrivenDelegate(config: config, registry: bundledRegistry)
        let renderer = ViewRenderer(scale: 0.5)
        let preview = TransitionPreview(children: { Scene.viewControllers(for: children) }, size: Rect.phonePortrait,
                                        from: c.1, to: c.2, renderer: renderer)
        let damaged = FrameRenderer(renderer: renderer)
        var mismatched: [Int] = []
        let steps = try preview.play(fps: 30, delegate: delegate) { index, _, view, _ in
            damaged.render(view)
            if damaged.canvas.pixels != renderer.render(view).pixels { mismatched.append(index) }
        }.frames
        #expect(steps > 5)
        #expect(mismatched.isEmpty, "\(c.0): frames \(mismatched) differ from a full redraw")
    }

    /// The damage is what moved: a frame that changed nothing draws nothing,
    /// and a badge that moves redraws where it was and where it is, no more.
    @Test func theDamageIsWhereSomethingMovedFromAndTo() {
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4)
        let badge = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        badge.backgroundColor = .white
        badge.cornerRadius = 4
        let label = View(frame: Rect(x: 100, y: 50, width: 90, height: 30))
        label.content = .label("Still")
        root.addSubview(badge)
        root.addSubview(label)
        let frames = FrameRenderer(renderer: ViewRenderer(scale: 1))
        #expect(frames.render(root) == PixelRect(x0: 0, y0: 0, x1: 200, y1: 100), "the first frame is drawn whole")
        #expect(frames.render(root).isEmpty, "nothing changed")
        badge.frame.x = 50
        let damage = frames.render(root)
        #expect(damage == PixelRect(x0: 9, y0: 9, x1: 72, y1: 32), "\(damage)")
        #expect(frames.canvas.pixels == ViewRenderer(scale: 1).render(root).pixels)
    }

    /// A picture hides what lies beneath it where it is opaque whole: a
    /// procedural one, or a file of opaque pixels that fills its view (shown
    /// whole inside it, only over an opaque background); not a file with
    /// translucent pixels, nor one at partial opacity.
    @Test func anOpaquePictureHidesWhatLiesBeneathIt() throws {
        let folder = makeTemporaryFolder("covers")
        func file(_ name: String, alpha: UInt8) throws -> String {
            let path = folder + "/" + name
            let pixels = (0..<(40 * 30)).flatMap { k -> [UInt8] in [UInt8(k % 200), 90, 160, alpha] }
            try Data(try rgbaPNG(pixels, width: 40, height: 30)).write(to: URL(fileURLWithPath: path))
            return path
        }
        let opaque = try file("opaque.png", alpha: 255), translucent = try file("translucent.png", alpha: 200)
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        root.backgroundColor = .white
        let beneath = View(frame: root.bounds)
        beneath.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        let picture = View(frame: Rect(x: 20, y: 20, width: 200, height: 200))
        root.addSubview(beneath)
        root.addSubview(picture)
        let renderer = ViewRenderer(scale: 1)
        func cover() -> PixelRect? {
            guard case .quad(let quad)? = renderer.items(root, canvas: PixelRect(x0: 0, y0: 0, x1: 300, y1: 300)).last else { return nil }
            return quad.cover
        }
        let cases: [(ViewContent, Color, Double, Bool)] = [
            (.image(seed: 3), .clear, 1, true), (.picture(path: opaque, fit: .cover), .clear, 1, true),
            (.picture(path: opaque, fit: .fill), .clear, 1, true), (.picture(path: opaque, fit: .contain), .clear, 1, false),
            (.picture(path: opaque, fit: .contain), .white, 1, true), (.picture(path: translucent, fit: .cover), .clear, 1, false),
            (.picture(path: opaque, fit: .cover), .clear, 0.9, false),
        ]
        for (content, background, alpha, hides) in cases {
            (picture.content, picture.backgroundColor, picture.alpha) = (content, background, alpha)
            let covered = try #require(cover())
            #expect(covered.isEmpty != hides, "\(content) over \(background) at \(alpha): \(covered)")
            // Its sides on pixel boundaries: every pixel it lies on is wholly covered.
            if hides { #expect(covered == PixelRect(x0: 20, y0: 20, x1: 220, y1: 220), "\(covered)") }
            guard hides else { continue }
            // With what it hides left out, the picture's pixels are its own, as drawn with nothing beneath.
            let drawn = renderer.render(root)
            beneath.isHidden = true
            let alone = renderer.render(root)
            beneath.isHidden = false
            for (x, y) in [(20, 20), (21, 21), (120, 120), (219, 219), (150, 40)] { #expect(drawn.color(x: x, y: y) == alone.color(x: x, y: y), "(\(x), \(y))") }
        }
    }

    /// Rectangles minus a rectangle: what is left, in at most four pieces, no pixel twice.
    @Test func aRectangleLessAnotherLeavesEveryOtherPixelOnce() {
        let whole = PixelRect(x0: 0, y0: 0, x1: 10, y1: 8)
        for cut in [PixelRect(x0: 2, y0: 3, x1: 5, y1: 6), PixelRect(x0: -1, y0: 2, x1: 11, y1: 4), PixelRect(x0: 20, y0: 0, x1: 30, y1: 8), whole] {
            let pieces = whole.subtracting(cut)
            var count = [Int](repeating: 0, count: whole.area)
            for piece in pieces {
                for y in piece.y0..<piece.y1 { for x in piece.x0..<piece.x1 { count[y * 10 + x] += 1 } }
            }
            for y in 0..<8 {
                for x in 0..<10 {
                    let hidden = x >= cut.x0 && x < cut.x1 && y >= cut.y0 && y < cut.y1
                    #expect(count[y * 10 + x] == (hidden ? 0 : 1), "\(cut): pixel (\(x), \(y))")
                }
            }
        }
    }

    /// A frame drawn in bands of rows (on every core, a page curling making
    /// more bands than cores) is the frame drawn in one: every pixel alike,
    /// the curl, its shadow and its back side included.
    @Test func aFrameDrawnInBandsIsTheFrameDrawnWhole() {
        let root = View(frame: Rect(x: 0, y: 0, width: 120, height: 200))
        root.backgroundColor = Color(red: 0.9, green: 0.9, blue: 0.95)
        let page = View(frame: Rect(x: 10, y: 10, width: 100, height: 180))
        page.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.8)
        let label = View(frame: Rect(x: 10, y: 70, width: 80, height: 30))
        label.content = .label("Page")
        page.addSubview(label)
        // The lower part lifted and folded back up over the page, as a curl does.
        let mesh = Mesh(columns: 4, rows: 12, covering: page.frame)
        for j in 0...12 {
            for i in 0...4 {
                let k = j * 5 + i, fold = max(Double(j) - 6, 0) / 6
                let v = mesh.vertices[k]
                mesh.vertices[k] = Vec3(x: v.x + 8 * fold, y: v.y - 140 * fold * fold, z: 60 * sin(fold * .pi))
            }
        }
        page.mesh = mesh
        root.addSubview(page)
        var whole = ViewRenderer(scale: 2)
        whole.bandsFrom = .max
        var banded = whole
        banded.bandsFrom = 0
        let one = whole.render(root), many = banded.render(root)
        #expect(one.pixels == many.pixels)
        #expect(Set(stride(from: 0, to: one.pixels.count, by: 4).map { one.pixels[$0] }).count > 8, "the frame shows a curled page")
    }

    /// A page at rest but for one vertex moved in its plane: every cell is
    /// drawn, the half of a cell whose corners are all at rest included
    /// (only whole cells at rest are copied as they are).
    @Test func aCellHalfAtRestIsStillDrawn() {
        let root = View(frame: Rect(x: 0, y: 0, width: 80, height: 60))
        root.backgroundColor = Color(red: 1, green: 1, blue: 1)
        let page = View(frame: Rect(x: 10, y: 10, width: 60, height: 40))
        page.backgroundColor = Color(red: 1, green: 0, blue: 0)
        // Cells of 20 x 20 points, three across and two down; vertex (1, 1) moved 3 points right.
        let mesh = Mesh(columns: 3, rows: 2, covering: page.frame)
        mesh.vertices[5] = Vec3(x: mesh.vertices[5].x + 3, y: mesh.vertices[5].y, z: 0)
        page.mesh = mesh
        root.addSubview(page)
        let canvas = ViewRenderer(scale: 1).render(root)
        // Inside both halves of every cell; the upper half of cell (1, 0) has its corners (1, 0), (2, 0) and (2, 1) at rest.
        for (i, j) in [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)] {
            for (dx, dy) in [(14, 6), (6, 14)] {
                let (x, y) = (10 + i * 20 + dx, 10 + j * 20 + dy)
                let c = canvas.color(x: x, y: y)
                #expect(c.red > 0.99 && c.green < 0.01 && c.blue < 0.01, "cell (\(i), \(j)), pixel (\(x), \(y)): \(c)")
            }
        }
    }

    /// A large shadow is worked out on several cores at once, its rows and
    /// columns shared out: it is the shadow worked out on one.
    @Test func aShadowSharedOutOverCoresIsTheShadowWorkedOutOnOne() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 400))
        let page = View(frame: Rect(x: 20, y: 20, width: 260, height: 360))
        page.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.8)
        // The lower half lifted in a bump, higher towards the right.
        let mesh = Mesh(columns: 8, rows: 12, covering: page.frame)
        for j in 0...12 {
            for i in 0...8 {
                let k = j * 9 + i, v = mesh.vertices[k]
                mesh.vertices[k] = Vec3(x: v.x, y: v.y, z: 50 * sin(max(Double(j) - 6, 0) / 6 * .pi) * Double(i + 2) / 10)
            }
        }
        page.mesh = mesh
        root.addSubview(page)
        let renderer = ViewRenderer(scale: 2)
        let items = renderer.items(root, canvas: PixelRect(x0: 0, y0: 0, x1: 600, y1: 800))
        guard case .mesh(let item)? = items.last else { Issue.record("no mesh item: \(items)"); return }
        // A mask is its scratch memory's: both kept for the test.
        let scratch = (DrawingScratch(), DrawingScratch())
        defer { withExtendedLifetime(scratch) {} }
        let one = try #require(ShadowMask(item, scratch: scratch.0, parts: 1))
        var dark = 0
        for parts in [2, 3, 8] {
            scratch.1.reset()
            let shared = try #require(ShadowMask(item, scratch: scratch.1, parts: parts))
            for y in 0..<800 {
                #expect(one.row(y)?.columns == shared.row(y)?.columns, "row \(y)")
                guard let a = one.row(y), let b = shared.row(y) else { continue }
                for x in a.columns where a.darkness(x) != b.darkness(x) {
                    Issue.record("\(parts) parts: (\(x), \(y)) \(b.darkness(x)) against \(a.darkness(x))")
                    return
                }
                dark += a.columns.filter { a.darkness($0) > 0.1 }.count
            }
        }
        #expect(dark > 10_000, "the shadow is dark over a wide area: \(dark) pixels")
    }

    /// A page lying flat over another view covers it: the rows it hides are
    /// not drawn beneath it (the layer says so), and the frame is the page's
    /// own where it lies, the other view's where it does not.
    @Test func aFlatOpaquePageHidesWhatLiesBeneathIt() {
        let root = View(frame: Rect(x: 0, y: 0, width: 60, height: 80))
        root.backgroundColor = Color(red: 1, green: 0, blue: 0)
        let page = View(frame: Rect(x: 0, y: 20, width: 60, height: 40))
        page.backgroundColor = Color(red: 0, green: 0.5, blue: 1)
        page.mesh = Mesh(columns: 4, rows: 4, covering: page.frame)
        root.addSubview(page)
        let renderer = ViewRenderer(scale: 1)
        let items = renderer.items(root, canvas: PixelRect(x0: 0, y0: 0, x1: 60, y1: 80))
        guard case .mesh(let mesh)? = items.last else { Issue.record("no mesh item: \(items)"); return }
        var flat = Canvas(width: mesh.textureWidth, height: mesh.textureHeight)
        renderer.draw(mesh.texture, into: &flat, within: flat.bounds)
        let layer = MeshLayer(mesh, texture: MeshTexture(flat, page: (mesh.pageWidth, mesh.pageHeight)), scratch: DrawingScratch())
        #expect(layer.cover == PixelRect(x0: 0, y0: 20, x1: 60, y1: 60), "\(layer.cover)")
        let canvas = renderer.render(root)
        for (x, y, expected) in [(30, 10, Color(red: 1, green: 0, blue: 0)), (30, 40, Color(red: 0, green: 0.5, blue: 1)),
                                 (0, 20, Color(red: 0, green: 0.5, blue: 1)), (59, 59, Color(red: 0, green: 0.5, blue: 1)),
                                 (30, 70, Color(red: 1, green: 0, blue: 0))] {
            let found = canvas.color(x: x, y: y)
            #expect(abs(found.red - expected.red) < 0.01 && abs(found.green - expected.green) < 0.01
                        && abs(found.blue - expected.blue) < 0.01, "(\(x), \(y)): \(found)")
        }
    }

    /// At a scale where the page's sides are not whole pixels (a terminal's
    /// 2.84), a page lying at rest is still its texels as they are: inside its
    /// outline the mesh draws exactly what the view draws without one (its
    /// stripes' anti-aliased edges too, which any resampling would move), and
    /// the pixels it covers whole hide what lies beneath.
    @Test func aPageAtRestAtAFractionalScaleIsDrawnAsTheViewItself() {
        let scale = 2.84
        func scene(meshed: Bool) -> (View, View) {
            let root = View(frame: Rect(x: 0, y: 0, width: 60, height: 80))
            root.backgroundColor = Color(red: 0, green: 1, blue: 0)
            // At 25 points from the top the page starts on a whole pixel (71); it is 170.4 x 113.6 pixels.
            let page = View(frame: Rect(x: 0, y: 25, width: 60, height: 40))
            page.backgroundColor = Color(red: 1, green: 0, blue: 0)
            for k in stride(from: 0, to: 60, by: 2) {
                let stripe = View(frame: Rect(x: Double(k) + 0.3, y: 0, width: 1, height: 40))
                stripe.backgroundColor = Color(red: 0, green: 0, blue: 1)
                page.addSubview(stripe)
            }
            if meshed { page.mesh = Mesh(columns: 6, rows: 4, covering: page.frame) }
            root.addSubview(page)
            return (root, page)
        }
        let renderer = ViewRenderer(scale: scale)
        let (meshed, _) = scene(meshed: true)
        let drawn = renderer.render(meshed), expected = renderer.render(scene(meshed: false).0)
        var worst = (difference: 0, x: 0, y: 0)
        // Inside the outline (x = 170.4, y = 71 and 184.6): the pixels it does not cross.
        for y in 71..<184 {
            for x in 0..<170 {
                let (a, b) = (drawn.color(x: x, y: y), expected.color(x: x, y: y))
                let difference = Int((max(abs(a.red - b.red), abs(a.green - b.green), abs(a.blue - b.blue)) * 255).rounded())
                if difference > worst.difference { worst = (difference, x, y) }
            }
        }
        #expect(worst.difference <= 1, "pixel (\(worst.x), \(worst.y)) differs by \(worst.difference)/255")
        let items = renderer.items(meshed, canvas: PixelRect(x0: 0, y0: 0, x1: drawn.width, y1: drawn.height))
        guard case .mesh(let mesh)? = items.last else { Issue.record("no mesh item: \(items)"); return }
        var flat = Canvas(width: mesh.textureWidth, height: mesh.textureHeight)
        renderer.draw(mesh.texture, into: &flat, within: flat.bounds)
        let layer = MeshLayer(mesh, texture: MeshTexture(flat, page: (mesh.pageWidth, mesh.pageHeight)), scratch: DrawingScratch())
        #expect(layer.cover == PixelRect(x0: 0, y0: 71, x1: 170, y1: 184), "\(layer.cover)")
    }

    /// A page moved by half a pixel: each pixel inside is one sample of its
    /// texture read bilinearly (where red meets blue, the pixel between is
    /// half of each), and the pixels its outline crosses are anti-aliased
    /// (half covered, over what lies beneath). Its texels do not land on
    /// whole pixels, so nothing of it is copied as lying at rest.
    @Test func aMeshMovedByHalfAPixelIsSampledBilinearlyAndItsOutlineAntiAliased() {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 20))
        root.backgroundColor = Color(red: 1, green: 1, blue: 1)
        let page = View(frame: Rect(x: 10.5, y: 5, width: 20, height: 10))
        page.backgroundColor = Color(red: 1, green: 0, blue: 0)
        let right = View(frame: Rect(x: 10, y: 0, width: 10, height: 10))
        right.backgroundColor = Color(red: 0, green: 0, blue: 1)
        page.addSubview(right)
        page.mesh = Mesh(columns: 3, rows: 2, covering: page.frame)
        root.addSubview(page)
        let canvas = ViewRenderer(scale: 1).render(root)
        func expect(_ x: Int, _ red: Double, _ green: Double, _ blue: Double, _ what: String) {
            let c = canvas.color(x: x, y: 10)
            #expect(abs(c.red - red) < 0.01 && abs(c.green - green) < 0.01 && abs(c.blue - blue) < 0.01, "\(what), pixel \(x): \(c)")
        }
        expect(15, 1, 0, 0, "red inside")
        expect(25, 0, 0, 1, "blue inside")
        // Pixel 20's centre lies on the line between the last red texel's centre and the first blue one's.
        expect(20, 0.5, 0, 0.5, "half red, half blue")
        // The outline at x = 10.5 and 30.5 covers half of pixels 10 and 30: half the page's colour over white.
        expect(10, 1, 0.5, 0.5, "half red over white")
        expect(30, 0.5, 0.5, 1, "half blue over white")
        expect(9, 1, 1, 1, "white outside")
    }
}
