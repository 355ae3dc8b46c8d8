import AnimatorABI

extension PluginBoundary {
    /// Runs `evaluate`, in which a plugin in this process writes `count` layer
    /// states in place, then undoes what it may not change: each state's mesh
    /// pointer and vertex count are the host's again, and `hidden` (a byte the
    /// plugin may have set to any value) is 0 or 1. Allocates nothing.
    package static func evaluateInPlace(_ states: UnsafeMutablePointer<segue_layer_state_t>, count: Int, _ evaluate: () -> Void) {
        withUnsafeTemporaryAllocation(of: (UnsafeMutablePointer<segue_vec3_t>?, UInt32).self, capacity: max(count, 1)) { meshes in
            for i in 0..<count { meshes[i] = (states[i].mesh, states[i].mesh_vertex_count) }
            evaluate()
            for i in 0..<count {
                (states[i].mesh, states[i].mesh_vertex_count) = meshes[i]
                normaliseHidden(UnsafeMutableRawPointer(states + i))
            }
        }
    }

    /// Copies the `count` layer states a worker answered in `memory` into the
    /// host's `states`, member by member: the frame, transform, alpha and z
    /// position, `hidden` as 0 or 1, and as many mesh vertices as the host's
    /// own mesh has (its pointer and count are never read from the worker).
    package static func takeLayerStates(from memory: SharedMemory, into states: UnsafeMutablePointer<segue_layer_state_t>, count: Int) {
        take(from: memory, into: states, count: count, state: WorkerLayout.state, mesh: { (WorkerLayout.mesh($0), WorkerLayout.meshCapacity) })
    }

    /// Copies frame `frame` of an ``WorkerOp/evaluateAhead`` answer (laid
    /// out as `frames` says) into `states`, as ``takeLayerStates(from:into:count:)`` does.
    package static func takeLayerStates(from memory: SharedMemory, frame: Int, of frames: WorkerLayout.AheadFrames,
                                        into states: UnsafeMutablePointer<segue_layer_state_t>, count: Int) {
        guard frame >= 0, frame < frames.capacity else { return }
        take(from: memory, into: states, count: min(count, frames.vertices.count), state: { frames.state(frame, $0) },
             mesh: { (frames.mesh(frame, $0), frames.vertices[$0]) })
    }

    /// The copy: layer `i`'s state at offset `state(i)`, its mesh at `mesh(i)` (with room for that many vertices).
    private static func take(from memory: SharedMemory, into states: UnsafeMutablePointer<segue_layer_state_t>, count: Int,
                             state: (Int) -> Int, mesh room: (Int) -> (offset: Int, vertices: Int)) {
        for i in 0..<min(count, Int(SEGUE_MAX_LAYERS)) {
            let from = UnsafeRawPointer(memory.base + state(i))
            let to = UnsafeMutableRawPointer(states + i)
            for (offset, size) in copiedMembers { (to + offset).copyMemory(from: from + offset, byteCount: size) }
            to.storeBytes(of: from.load(fromByteOffset: hiddenOffset, as: UInt8.self) != 0, toByteOffset: hiddenOffset, as: Bool.self)
            if let mesh = states[i].mesh {
                let (offset, capacity) = room(i)
                let vertices = min(Int(states[i].mesh_vertex_count), capacity)
                UnsafeMutableRawPointer(mesh).copyMemory(from: memory.base + offset, byteCount: vertices * WorkerLayout.vertexStride)
            }
        }
    }

    /// Works out, once a process, what ``takeLayerStates(from:into:count:)``
    /// needs (member offsets from key paths, their list): done on a render
    /// thread's first sample, that allocated. Call it before sampling.
    package static func prepareToTakeLayerStates() {
        _ = (copiedMembers.count, hiddenOffset)
    }

    /// Where `hidden` lies, to read it as a byte.
    private static let hiddenOffset = MemoryLayout<segue_layer_state_t>.offset(of: \segue_layer_state_t.hidden)!

    private static func normaliseHidden(_ state: UnsafeMutableRawPointer) {
        state.storeBytes(of: state.load(fromByteOffset: hiddenOffset, as: UInt8.self) != 0, toByteOffset: hiddenOffset, as: Bool.self)
    }

    /// The members of a layer state a worker's answer sets: everything but
    /// the mesh pointer and count, and `hidden` (read as a byte). The clip's
    /// shape is copied as the worker wrote it: an unknown one draws
    /// unclipped (``LayerState/clip``), and every value is checked before use.
    private static let copiedMembers: [(offset: Int, size: Int)] = {
        let L = MemoryLayout<segue_layer_state_t>.self
        return [(L.offset(of: \.frame)!, MemoryLayout<segue_rect_t>.size),
                (L.offset(of: \.transform)!, MemoryLayout<segue_transform3d_t>.size),
                (L.offset(of: \.alpha)!, 8), (L.offset(of: \.z_position)!, 8),
                // ABI 1.4: a plugin built before it never writes them, so they come back as the host sent them (resting).
                (L.offset(of: \.clip)!, MemoryLayout<segue_clip_t>.size), (L.offset(of: \.corner_radius)!, 8),
                (L.offset(of: \.shadow)!, MemoryLayout<segue_shadow_t>.size)]
    }()
}
