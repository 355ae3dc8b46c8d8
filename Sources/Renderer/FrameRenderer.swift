import HostContainer

/// Draws a view tree frame after frame into one canvas, redrawing only what
/// changed: each frame's draw items are compared with the last frame's, and
/// only the pixels of items that moved, appeared, vanished or changed are
/// drawn again (the rest of the canvas is kept). What a live view presents
/// and what an encoder compares is the canvas and the damaged rectangle.
///
/// It also keeps what frames share: the flat textures of meshes whose
/// content did not change, and the memory meshes draw in.
/// Not thread-safe: one thread draws with a frame renderer at a time.
public final class FrameRenderer {
    /// The settings frames are drawn with.
    public let renderer: ViewRenderer
    /// The last frame drawn.
    public private(set) var canvas = Canvas(width: 0, height: 0)
    private var items: [DrawItem] = []
    private var textures = TextureCache()
    private let scratch = DrawingScratch()

    /// A frame renderer drawing with `renderer`'s scale and background.
    public init(renderer: ViewRenderer) {
        self.renderer = renderer
    }

    /// Draws `root` and returns the rectangle of pixels that changed
    /// (``PixelRect/empty`` when none did). The first frame, and a frame of
    /// another size, is drawn whole.
    /// - Parameter everything: draw the whole frame, changed or not.
    @discardableResult
    public func render(_ root: View, everything: Bool = false) -> PixelRect {
        let size = renderer.pixels(for: root.bounds)
        let previous = items
        let resized = size.width != canvas.width || size.height != canvas.height
        if resized { canvas = Canvas(width: size.width, height: size.height, color: renderer.background) }
        items = renderer.items(root, canvas: canvas.bounds)
        let damage = resized || everything ? canvas.bounds : Self.damage(from: previous, to: items)
        guard !damage.isEmpty else { return .empty }
        // The damage is cleared to the background where no opaque item covers it, then drawn.
        renderer.draw(items, into: &canvas, within: damage, background: renderer.background, textures: &textures, scratch: scratch)
        return damage
    }

    /// The pixels that differ between two frames' items: those of every item
    /// that is not the same in both, at the same place in the painting order.
    static func damage(from old: [DrawItem], to new: [DrawItem]) -> PixelRect {
        var damage = PixelRect.empty
        for k in 0..<max(old.count, new.count) {
            let before = k < old.count ? old[k] : nil, after = k < new.count ? new[k] : nil
            guard before != after else { continue }
            damage = damage.union(before?.bounds ?? .empty).union(after?.bounds ?? .empty)
        }
        return damage
    }
}
