import HostContainer

/// A mesh's texture as its cells sample it: straight (not premultiplied)
/// colours, and the same washed out for the back side, worked out once per
/// texture rather than once per sample.
final class MeshTexture: @unchecked Sendable {
    let width: Int, height: Int
    /// Straight 8-bit RGBA per texel (clear where the view drew nothing): what
    /// the frame would show of it anyway, in a quarter of the memory of floats.
    let front: [UInt8]
    /// The same seen from behind: ``backSide(_:_:_:)`` of each texel, alpha kept.
    let back: [UInt8]
    /// Whether every texel is opaque.
    let opaque: Bool

    init(_ canvas: Canvas) {
        (width, height) = (canvas.width, canvas.height)
        opaque = stride(from: 3, to: canvas.pixels.count, by: 4).allSatisfy { canvas.pixels[$0] >= 1 }
        var front = [UInt8](repeating: 0, count: canvas.pixels.count)
        front.withUnsafeMutableBufferPointer { out in
            for y in 0..<canvas.height { canvas.convertRow(y, into: out.baseAddress! + y * canvas.width * 4) }
        }
        self.front = front
        var back = front
        for k in stride(from: 0, to: back.count, by: 4) {
            let byte: Float = 1 / 255
            let (r, g, b) = Self.backSide(Float(front[k]) * byte, Float(front[k + 1]) * byte, Float(front[k + 2]) * byte)
            (back[k], back[k + 1], back[k + 2]) = (UInt8((r * 255).rounded()), UInt8((g * 255).rounded()), UInt8((b * 255).rounded()))
        }
        self.back = back
    }

    /// ``Content/backSide(of:)`` of a straight colour, in single precision.
    @inline(__always)
    static func backSide(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let grey: Float = 0.72 + 0.25 * (0.3 * r + 0.59 * g + 0.11 * b)
        return (0.35 * r + 0.65 * grey, 0.35 * g + 0.65 * grey, 0.35 * b + 0.65 * grey)
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
