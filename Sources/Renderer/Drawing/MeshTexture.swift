import Foundation
import HostContainer

/// A mesh's texture as its cells sample it: straight (not premultiplied)
/// colours, and the same washed out for the back side, worked out once per
/// texture rather than once per sample.
final class MeshTexture: @unchecked Sendable {
    let width: Int, height: Int
    /// Straight 8-bit RGBA per texel (clear where the view drew nothing): what
    /// the frame would show of it anyway, in a quarter of the memory of floats.
    let front: [UInt8]
    /// The same seen from behind: ``PageShading/back(_:_:_:)`` of each texel, alpha
    /// kept; made by ``prepareBack()`` the first time a frame shows the back.
    private(set) var back: [UInt8] = []
    /// Whether every texel is opaque.
    let opaque: Bool

    /// The texture of what `canvas` holds: its pixels taken over and made
    /// straight in place (an opaque texel is the same either way), not copied.
    /// Where the page (`page`, in texels) covers the last column or row only
    /// in part, those texels are copies of the ones inside them (clamped to
    /// the edge, as GL samples one): an opaque page makes an opaque texture,
    /// whose texels are final once drawn, and the page's outline is the
    /// mesh's to draw, anti-aliased, wherever it falls.
    init(_ canvas: consuming Canvas, page: (width: Double, height: Double)) {
        let (width, height) = (canvas.width, canvas.height)
        (self.width, self.height) = (width, height)
        var front = canvas.pixels
        canvas.pixels = []  // the texture's is then the only reference: changed in place
        front.withUnsafeMutableBytes { bytes in
            let texels = bytes.bindMemory(to: UInt32.self)
            if width > 1, page.width < Double(width) {
                for y in 0..<height { texels[y * width + width - 1] = texels[y * width + width - 2] }
            }
            if height > 1, page.height < Double(height) {
                for x in 0..<width { texels[(height - 1) * width + x] = texels[(height - 2) * width + x] }
            }
        }
        opaque = front.withUnsafeMutableBufferPointer { texels in texels.baseAddress.map { Pixel.makeStraight($0, count: texels.count / 4) } ?? true }
        self.front = front
    }

    /// Makes ``back`` if it is not made yet. Not thread-safe: call it while
    /// the frame's meshes are set up, before bands are drawn.
    func prepareBack() {
        guard back.isEmpty, !front.isEmpty else { return }
        var back = front
        back.withUnsafeMutableBufferPointer { out in
            front.withUnsafeBufferPointer { texels in
                // Bands of texels on every core; a page is mostly runs of one colour, worked out once a run.
                nonisolated(unsafe) let (out, texels) = (out, texels)
                let count = texels.count / 4, bands = count >= 65_536 ? ProcessInfo.processInfo.activeProcessorCount : 1
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let byte: Float = 1 / 255
                    var last: (UInt8, UInt8, UInt8)?, washed: (UInt8, UInt8, UInt8) = (0, 0, 0)
                    for k in stride(from: count * band / bands * 4, to: count * (band + 1) / bands * 4, by: 4) {
                        let texel = (texels[k], texels[k + 1], texels[k + 2])
                        if last.map({ $0 != texel }) ?? true {
                            let (r, g, b) = PageShading.back(Float(texel.0) * byte, Float(texel.1) * byte, Float(texel.2) * byte)
                            (last, washed) = (texel, (UInt8(r * 255 + 0.5), UInt8(g * 255 + 0.5), UInt8(b * 255 + 0.5)))
                        }
                        (out[k], out[k + 1], out[k + 2]) = washed
                    }
                }
            }
        }
        self.back = back
    }
}

/// Memory a frame's meshes work in (their shadows), kept from frame to frame
/// so that drawing one does not ask the system for (and fault in) megabytes each time.
/// Buffers are handed out in turn and all taken back by ``reset()``.
final class DrawingScratch: @unchecked Sendable {
    private var buffers: [UnsafeMutableBufferPointer<Float>] = []
    private var used = 0

    /// The next buffer, at least `count` floats, its first `count` zero.
    func zeroed(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
        if used == buffers.count { buffers.append(.allocate(capacity: 0)) }
        if buffers[used].count < count {
            buffers[used].deallocate()
            buffers[used] = .allocate(capacity: count)
        }
        let buffer = buffers[used]
        used += 1
        buffer.baseAddress!.update(repeating: 0, count: count)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<max(count, 0)])
    }

    /// Takes every buffer back.
    func reset() { used = 0 }

    deinit { buffers.forEach { $0.deallocate() } }
}
