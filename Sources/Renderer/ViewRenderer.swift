import Dispatch
import Foundation
import HostContainer

/// Draws a view tree into a ``Canvas``: rounded rectangles, pictures and
/// labels, alpha compositing in z-order then subview order, full 3D transforms
/// with perspective, and mesh-deformed layers (shaded by their angle to the
/// light, a page's back side washed out, the curl's soft shadow on the view
/// beneath). Edges and text are anti-aliased.
///
/// A frame is drawn in two steps: the tree is flattened into draw items
/// (each view's quad, each mesh), then the items are scan-converted into the
/// canvas, plain views over runs of one colour changing the runs' colour
/// rather than pixels; a frame with much to work out is split into bands of
/// rows drawn on all cores.
/// ``FrameRenderer`` keeps the last frame's items to draw only what changed.
///
/// Kept apart from the container: the host runs without it. A renderer value
/// holds nothing but its settings; use one from any thread.
public struct ViewRenderer: Sendable {
    /// Pixels per point.
    public var scale: Double
    /// What shows where no view draws.
    public var background: Color
    /// Opaque quads hide what is beneath them from this many pixels up (smaller
    /// ones would cut the frame into more pieces than they save).
    static let smallestCover = 16_384
    /// The cores there are to draw bands on, asked once: asking the system
    /// (which reads the process's affinity) costs as much as a small frame.
    static let cores = ProcessInfo.processInfo.activeProcessorCount
    /// Frames (or damaged rectangles) with at least this many pixels to work
    /// out are drawn in bands of rows on all cores: the pixels of pictures,
    /// labels and turned views, a mesh's counting five times (and then eight
    /// bands a core, taken in turn); plain views, which are filled, count
    /// none. 400,000 by default (a HiDPI frame of pictures, or one with a
    /// page curling over a good part of it: a frame of plain views and labels
    /// is drawn on one core). A live view, which has a frame to present at
    /// every refresh, draws smaller ones in bands too.
    public var bandsFrom = 400_000
    /// What labels are drawn in: the standard typeface (DejaVu Sans, through
    /// FreeType) unless told; nil draws them in the built-in 5 x 7 font.
    public var typeface: Typeface?
    /// Draws ABI 1.4's look (rounded corners, clips, shadows) by its plain
    /// definition, each pixel's coverage and shadow worked out alone, rather
    /// than by the fast paths that draw the same: the reference the look's
    /// tests compare those with.
    var drawsLookPixelByPixel = false

    /// A renderer at `scale` pixels per point over `background`, labels in `typeface`.
    public init(scale: Double = 1, background: Color = .white, typeface: Typeface? = try? Typeface.standard.get()) {
        self.scale = scale
        self.background = background
        self.typeface = typeface
    }

    /// The size in pixels of the canvas a view of `size` points renders to.
    public func pixels(for size: Rect) -> (width: Int, height: Int) {
        (Int((size.width * scale).rounded()), Int((size.height * scale).rounded()))
    }

    /// Renders `root` (its bounds; its own frame origin is ignored) and its subtree.
    public func render(_ root: View) -> Canvas {
        let frames = FrameRenderer(renderer: self)
        frames.render(root)
        return frames.canvas
    }

    /// The draw items of `root` on a canvas of `canvas` pixels.
    func items(_ root: View, canvas: PixelRect) -> [DrawItem] {
        var builder = DisplayListBuilder(scale: scale, root: root, canvas: canvas, typeface: typeface)
        let centre = Transform3D.translation(root.bounds.width / 2, root.bounds.height / 2)
        let placed = Transform3D.translation(-root.bounds.width / 2, -root.bounds.height / 2)
            .concatenating(root.transform).concatenating(centre).concatenating(builder.scaling)
        builder.add(root, matrix: placed, alpha: 1)
        return builder.items
    }

    /// Draws `items` over what `canvas` holds, changing only pixels in `area`.
    /// - Parameters:
    ///   - background: what `area` is cleared to first, where no opaque item covers it (nil: nothing is cleared).
    ///   - textures: the mesh textures kept from the frame before; on return, this frame's.
    ///   - scratch: memory for the meshes' shadows, reused from frame to frame.
    func draw(_ items: [DrawItem], into canvas: inout Canvas, within area: PixelRect, background: Color? = nil,
              textures: inout TextureCache, scratch: DrawingScratch) {
        let area = area.intersection(canvas.bounds)
        guard !area.isEmpty else { return }
        scratch.reset()
        // Meshes first, once each, whatever the bands: their triangles and shadows serve every band.
        var layers: [Int: MeshLayer] = [:]
        var kept = TextureCache()
        for (k, item) in items.enumerated() {
            guard case .mesh(let mesh) = item, !mesh.bounds.intersection(area).isEmpty else { continue }
            let texture = textures.texture(for: mesh.texture) ?? {
                var flat = Canvas(width: mesh.textureWidth, height: mesh.textureHeight)
                draw(mesh.texture, into: &flat, within: flat.bounds)
                return MeshTexture(flat, page: (mesh.pageWidth, mesh.pageHeight))
            }()
            kept.keep(texture, for: mesh.texture)
            layers[k] = MeshLayer(mesh, texture: texture, scratch: scratch)
        }
        textures = kept
        let meshes = layers
        // What opaque meshes and large opaque quads cover whole hides the items drawn before them there.
        let quadCovers = items.enumerated().compactMap { k, item -> (index: Int, rect: PixelRect)? in
            guard case .quad(let quad) = item, quad.cover.area >= Self.smallestCover else { return nil }
            return (k, quad.cover)
        }
        let covers = layers.map { (index: $0.key, rect: $0.value.cover) }.filter { !$0.rect.isEmpty } + quadCovers
        // The pixels to work out rather than fill: those of pictures, labels and turned views, and a mesh's five
        // times over (each read bilinearly from its texture and lit). Plain views are runs of one colour, and
        // filling is bound by memory more than by a core: a second band would add only its thread's waking.
        let meshPixels = layers.values.reduce(0) { $0 + $1.item.bounds.intersection(area).area }
        let work = items.reduce(5 * meshPixels) { total, item in
            guard case .quad(let quad) = item, quad.solid == nil else { return total }
            return total + quad.bounds.intersection(area).area
        }
        // Where a page curls its cost gathers in a few rows: many more bands than cores, taken in turn, share it out.
        let bands = work >= bandsFrom ? min(Self.cores * (meshPixels > 0 ? 8 : 1), 32) : 1
        let clearing = background.map(Pixel.premultiplied)
        canvas.withTarget(clip: area) { target in
            let draw = { @Sendable (band: Int) in
                let rows = (area.height + bands - 1) / bands
                let clip = PixelRect(x0: area.x0, y0: area.y0 + band * rows, x1: area.x1, y1: min(area.y0 + (band + 1) * rows, area.y1))
                // The background, where no opaque item will cover it, and plain quads over it: runs of one
                // colour, stored where something else is drawn over them, the rest at the end.
                var bare = clearing == nil ? [] : [clip]
                for cover in covers { bare = bare.flatMap { $0.subtracting(cover.rect) } }
                var runs = PendingRuns(bare, word: clearing, in: target)
                for (k, item) in items.enumerated() {
                    var visible = [clip]
                    for cover in covers where cover.index > k { visible = visible.flatMap { $0.subtracting(cover.rect) } }
                    for piece in visible {
                        let parts = if case .quad(let quad) = item, let solid = quad.solid { runs.draw(solid, within: piece) } else { [piece] }
                        for part in parts {
                            let part = part.intersection(item.bounds)
                            guard !part.isEmpty else { continue }
                            runs.store(within: part)
                            switch item {
                            case .quad(let quad): quad.draw(into: target.clipped(to: part), pixelByPixel: drawsLookPixelByPixel)
                            case .mesh: meshes[k]?.composite(into: target.clipped(to: part))
                            case .shadow(let shadow): shadow.draw(into: target.clipped(to: part), pixelByPixel: drawsLookPixelByPixel)
                            }
                        }
                    }
                }
                runs.storeAll()
            }
            if bands > 1 {
                DispatchQueue.concurrentPerform(iterations: bands, execute: draw)
            } else {
                draw(0)
            }
        }
    }

    func draw(_ items: [DrawItem], into canvas: inout Canvas, within area: PixelRect) {
        var textures = TextureCache()
        draw(items, into: &canvas, within: area, textures: &textures, scratch: DrawingScratch())
    }
}

/// Mesh textures kept from one frame to the next: a page whose content does
/// not change while it curls is drawn flat once.
struct TextureCache {
    private var entries: [(items: [DrawItem], texture: MeshTexture)] = []

    func texture(for items: [DrawItem]) -> MeshTexture? { entries.first { $0.items == items }?.texture }

    mutating func keep(_ texture: MeshTexture, for items: [DrawItem]) {
        if !entries.contains(where: { $0.items == items }) { entries.append((items, texture)) }
    }
}
