import AnimatorABI
import EmbedABI
import HostContainer

// The sampler of the C API (segue/embed.h, "Helpers for hosts"): what every
// host did again for itself — own the states and meshes, read the plan again
// when the default takes over, order the layers back to front, and work out
// the map a flat layer is drawn through — done once, here.

/// A transition's layers, sampled into storage of its own and ready to draw.
/// One thread at a time uses it (the C layer's rule; nothing here locks).
final class Sampler {
    private let transition: PlayedTransition
    /// The part the storage is laid out for; laid out again when the default takes over.
    private var part: PlayedTransition.Part?
    /// One state per plan layer.
    private let states = UnsafeMutablePointer<segue_layer_state_t>.allocate(capacity: Int(SEGUE_MAX_LAYERS))
    private let pointers = UnsafeMutablePointer<UnsafeMutablePointer<segue_layer_state_t>?>.allocate(capacity: Int(SEGUE_MAX_LAYERS))
    /// Each layer's mesh storage, as large as its plans have needed (kept through a takeover).
    private var meshes = [UnsafeMutableBufferPointer<segue_vec3_t>](repeating: .init(start: nil, count: 0), count: Int(SEGUE_MAX_LAYERS))
    /// The last sample's layers, back to front.
    private(set) var drawn: [segue_drawn_layer_t] = []

    init(_ transition: PlayedTransition) {
        self.transition = transition
        drawn.reserveCapacity(Int(SEGUE_MAX_LAYERS))
        for i in 0..<Int(SEGUE_MAX_LAYERS) { (pointers + i).initialize(to: states + i) }
    }

    deinit {
        states.deallocate()
        pointers.deallocate()
        for mesh in meshes { mesh.deallocate() }
    }

    /// Lays the states out for `part`'s plan, growing a layer's mesh storage where it needs more.
    private func layOut(_ part: PlayedTransition.Part) {
        self.part = part
        for (i, vertices) in part.meshVertices.enumerated() {
            var state = segue_layer_state_t()
            state.struct_size = UInt32(MemoryLayout<segue_layer_state_t>.size)
            if vertices > 0 {
                if meshes[i].count < vertices {
                    meshes[i].deallocate()
                    meshes[i] = .allocate(capacity: vertices)
                }
                state.mesh = meshes[i].baseAddress
                state.mesh_vertex_count = UInt32(meshes[i].count)
            }
            states[i] = state
        }
    }

    /// Samples at `t`, following a takeover; the layers wait in ``drawn``.
    /// `planChanged`: the first sample, or the plan is not the last sample's.
    func sample(at t: Double, planChanged: inout Bool) -> segue_status_t {
        let handle = OpaquePointer(Unmanaged.passUnretained(transition).toOpaque())
        var status = SEGUE_E_ENDED
        planChanged = false
        for _ in 0..<2 {
            let current = transition.current
            if part !== current {
                layOut(current)
                planChanged = true
            }
            status = segueTransitionSample(handle, t, pointers, UInt32(current.meshVertices.count))
            guard status == SEGUE_DEFAULT_TOOK_OVER else { break }
        }
        drawn.removeAll(keepingCapacity: true)
        guard status.rawValue >= 0, let part else { return status }
        for i in part.layers.indices {
            var layer = segue_drawn_layer_t()
            layer.struct_size = UInt32(MemoryLayout<segue_drawn_layer_t>.size)
            layer.plan_index = UInt32(i)
            layer.request = part.layers[i].abi
            let rest = part.layout.resting[i]
            layer.resting_frame = segue_rect_t(x: rest.x, y: rest.y, width: rest.width, height: rest.height)
            layer.state = states[i]
            layer.has_mesh = part.meshVertices[i] > 0
            var map = Self.identity
            // A mesh's layer gets its flat map too: a host that cannot draw meshes draws it flat.
            let flatSeen = Self.flatMap(of: states[i], resting: rest, into: &map)
            layer.map = map
            layer.visible = !states[i].hidden && states[i].alpha > 0 && !part.concealed[i] && (layer.has_mesh || flatSeen)
            drawn.append(layer)
        }
        // Back to front: by z, then plan order (a stable sort of few items).
        drawn.sort { a, b in
            a.state.z_position != b.state.z_position ? a.state.z_position < b.state.z_position : a.plan_index < b.plan_index
        }
        return status
    }

    typealias Map = (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    static let identity: Map = (1, 0, 0, 0, 1, 0, 0, 0, 1)

    /// The projective map that takes a flat layer's content at rest (`resting`,
    /// container coordinates) to where its `state` shows it, as
    /// segue_layer_project and Segue's renderer see it: scaled onto the
    /// state's frame, then the transform about the frame's centre,
    /// perspective divided. False when some of it lies behind the eye or a
    /// value is not finite.
    static func flatMap(of state: segue_layer_state_t, resting: Rect, into map: inout Map) -> Bool {
        let f = state.frame, m = state.transform.m
        guard resting.width > 0, resting.height > 0 else { return false }
        let sx = f.width / resting.width, sy = f.height / resting.height
        let tx = -resting.x * sx - f.width / 2, ty = -resting.y * sy - f.height / 2
        let cx = f.x + f.width / 2, cy = f.y + f.height / 2
        // (X, Y, W) from the point (u, v, 1) of the frame, about its centre, the centre added back: rows
        // (a, b, c); then (u, v) = (sx x + tx, sy y + ty) from the point (x, y) of the content at rest.
        // No arrays: the render thread samples without allocating.
        func row(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double, Double) { (a * sx, b * sy, a * tx + b * ty + c) }
        let x = row(m.0 + cx * m.3, m.4 + cx * m.7, m.12 + cx * m.15)
        let y = row(m.1 + cy * m.3, m.5 + cy * m.7, m.13 + cy * m.15)
        let w = row(m.3, m.7, m.15)
        let finite = x.0.isFinite && x.1.isFinite && x.2.isFinite && y.0.isFinite && y.1.isFinite && y.2.isFinite
            && w.0.isFinite && w.1.isFinite && w.2.isFinite
        // In front of the eye at each corner of the content at rest (W is affine: then all over it).
        func ahead(_ cornerX: Double, _ cornerY: Double) -> Bool { w.0 * cornerX + w.1 * cornerY + w.2 > 1e-9 }
        let (left, right, top, bottom) = (resting.x, resting.x + resting.width, resting.y, resting.y + resting.height)
        guard finite, ahead(left, top), ahead(right, top), ahead(left, bottom), ahead(right, bottom) else { return false }
        map = (x.0, x.1, x.2, y.0, y.1, y.2, w.0, w.1, w.2)
        return true
    }
}

@c(segue_sampler_new)
public func segueSamplerNew(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> segue_status_t {
    guard let out else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_sampler_new: out is NULL") }
    out.pointee = nil
    guard let handle else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_sampler_new: transition is NULL") }
    let played = Unmanaged<PlayedTransition>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    out.pointee = OpaquePointer(Unmanaged.passRetained(Sampler(played)).toOpaque())
    return SEGUE_OK
}

private func sampler(_ handle: OpaquePointer?) -> Sampler? {
    handle.map { Unmanaged<Sampler>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
}

@c(segue_sampler_sample)
public func segueSamplerSample(_ handle: OpaquePointer?, _ t: Double, _ count: UnsafeMutablePointer<UInt32>?,
                               _ planChanged: UnsafeMutablePointer<Bool>?) -> segue_status_t {
    count?.pointee = 0
    planChanged?.pointee = false
    guard let sampler = sampler(handle) else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_sampler_sample: sampler is NULL") }
    guard let count else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_sampler_sample: layer_count is NULL") }
    var changed = false
    let status = sampler.sample(at: t, planChanged: &changed)
    count.pointee = UInt32(sampler.drawn.count)
    planChanged?.pointee = changed
    return status
}

@c(segue_sampler_layer)
public func segueSamplerLayer(_ handle: OpaquePointer?, _ index: UInt32, _ layer: UnsafeMutablePointer<segue_drawn_layer_t>?) -> segue_status_t {
    guard let sampler = sampler(handle) else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_sampler_layer: sampler is NULL") }
    guard let layer else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_sampler_layer: layer is NULL") }
    let size: Int
    switch CStruct.size(of: layer, "layer", minimum: CStruct.drawnLayer14) {
    case .failure(let why): return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_sampler_layer: \(why.message)")
    case .success(let s): size = s
    }
    guard Int(index) < sampler.drawn.count else {
        return refuse(SEGUE_E_NOT_FOUND, "segue_sampler_layer: index \(index) is past the last sample's \(sampler.drawn.count) layers")
    }
    let drawn = sampler.drawn[Int(index)]
    if size < MemoryLayout<segue_drawn_layer_t>.size {
        writeDrawnLayer14(drawn, to: layer, size: size)
    } else {
        CStruct.write(drawn, to: layer, size: size)
    }
    return SEGUE_OK
}

@c(segue_sampler_free)
public func segueSamplerFree(_ handle: OpaquePointer?) {
    guard let handle else { return }
    Unmanaged<Sampler>.fromOpaque(UnsafeRawPointer(handle)).release()
}

/// Writes `drawn` as API 1.4's segue_drawn_layer_t laid it out, for a program
/// built against it: its `state` ended with the ABI 1.3 layer state (208
/// bytes, without 1.5's clip, corner radius and shadow), so `visible`,
/// `has_mesh` and `map` came right after it. Within the program's `size`.
private func writeDrawnLayer14(_ drawn: segue_drawn_layer_t, to layer: UnsafeMutablePointer<segue_drawn_layer_t>, size: Int) {
    let D = MemoryLayout<segue_drawn_layer_t>.self
    var old = drawn
    old.state.struct_size = UInt32(CStruct.layerState13)
    let state = D.offset(of: \.state)!, stateEnd = state + CStruct.layerState13
    let visible = D.offset(of: \.visible)!, map = D.offset(of: \.map)!
    withUnsafeBytes(of: old) { bytes in
        let to = UnsafeMutableRawPointer(layer)
        func put(_ from: Int, _ at: Int, _ count: Int) {
            let count = min(count, size - at)
            if count > 0 { (to + at).copyMemory(from: bytes.baseAddress! + from, byteCount: count) }
        }
        put(4, 4, stateEnd - 4)
        put(visible, stateEnd, 2)  // visible, has_mesh
        put(map, (stateEnd + 2 + 7) / 8 * 8, 9 * 8)
    }
}
