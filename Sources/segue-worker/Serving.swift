import AnimatorABI
import Glibc
import PluginRuntime
import SystemCalls

/// `segue-worker serve`: waits for the host to name a plugin file (it may be
/// started before the host knows which), loads it and runs its animators'
/// setup, evaluate and end as the host asks, several transitions at once if
/// need be (each is a slot). The plugin writes its layer states and meshes
/// straight into shared memory; the host copies them out and checks them.
/// The sandbox is entered between learning the file and loading it; the
/// first reply says it was (and carries the sandbox's listener, see
/// ``SandboxSupervisor``), the second what loading the file gave.
struct Serving {
    let channel: WorkerChannel
    let memory: SharedMemory
    let policy: SandboxPolicy

    /// One transition under way.
    final class Running {
        let animator: LoadedAnimator
        let context: CContext
        let plan = UnsafeMutablePointer<segue_plan_t>.allocate(capacity: 1)
        init(animator: LoadedAnimator, context: CContext) {
            (self.animator, self.context) = (animator, context)
            plan.initialize(to: ABI.emptyPlan())
        }
        deinit { plan.deallocate() }
    }

    func run() {
        guard case .success(let load) = channel.receive(WorkerRequest.self, within: nil) else { exit(0) }
        guard WorkerOp(rawValue: load.op) == .load else { exit(2) }
        // From the folder the host started it in: inside its file view, the root is another.
        let file = WorkerConfinement.absolute(String(decoding: memory.copy(at: WorkerLayout.text, count: Int(load.length),
                                                                          capacity: WorkerLayout.textCapacity), as: UTF8.self))
        // The host may give this worker less memory than its command line says: what is left of the budget all its workers share.
        var policy = policy
        if load.argument > 0 { policy.memoryLimit = min(policy.memoryLimit, UInt64(load.argument) << 20) }
        switch Confinement.enter(policy, readable: WorkerConfinement.readable(forPlugin: file), memory: memory) {
        case .failure(let why):
            reply(WorkerReply.failed, text: why.description)
            exit(0)
        case .success(let listener):
            // The host supervises the sandbox: it must hold the listener before this process starts a thread.
            channel.send(WorkerReply(status: WorkerReply.ok, value: listener >= 0 ? 1 : 0), passing: listener)
            if listener >= 0 { close(listener) }
        }
        // What the plugin prints and logs goes straight to standard output and error: the pipe the host relays.
        HostLifeline.exitWhenClosed(channel.descriptor)
        let animators: [String: LoadedAnimator]
        switch PluginLoader.load(path: file) {
        case .failure(let rejection):
            reply(WorkerReply.failed, text: rejection.reason)
            exit(0)
        case .success(let loaded):
            animators = Dictionary(loaded.map { ($0.description.id, $0) }, uniquingKeysWith: { a, _ in a })
            reply(WorkerReply.ok, value: UInt32(loaded.count), text: loaded.map(\.description.id).joined(separator: "\n"))
        }
        var running: [UInt32: Running] = [:]
        let states = UnsafeMutablePointer<UnsafeMutablePointer<segue_layer_state_t>?>.allocate(capacity: Int(SEGUE_MAX_LAYERS))
        while case .success(let request) = channel.receive(WorkerRequest.self, within: nil) {
            switch WorkerOp(rawValue: request.op) {
            case .setup?:
                let text = memory.copy(at: WorkerLayout.text, count: Int(request.length), capacity: WorkerLayout.textCapacity)
                guard let setup = try? SetupRequest(decoding: text) else { exit(2) }
                guard let animator = animators[setup.animator] else {
                    reply(WorkerReply.failed, text: "\(file) has no animator '\(setup.animator)'")
                    continue
                }
                guard setup.payload.parameters.count == animator.description.parameters.count else {
                    reply(WorkerReply.failed, text: "\(animator.description.name) takes \(animator.description.parameters.count) parameters, not \(setup.payload.parameters.count)")
                    continue
                }
                let transition = Running(animator: animator, context: CContext(setup.payload, host: animator.host))
                let result = animator.setup(animator.raw, transition.context.pointer, transition.plan)
                (memory.base + WorkerLayout.plan).storeBytes(of: transition.plan.pointee, as: segue_plan_t.self)
                if result == SEGUE_SETUP_ANIMATE { running[request.slot] = transition }
                reply(WorkerReply.ok, value: result.rawValue)
            case .evaluate?:
                guard let transition = running[request.slot] else { exit(2) }
                let plan = transition.plan.pointee
                let count = min(Int(request.argument), Int(SEGUE_MAX_LAYERS), Int(plan.layer_count))
                withUnsafeBytes(of: plan.layers) { raw in
                    let layers = raw.bindMemory(to: segue_layer_request_t.self)
                    for i in 0..<count {
                        let state = (memory.base + WorkerLayout.state(i)).assumingMemoryBound(to: segue_layer_state_t.self)
                        let vertices = Int(layers[i].mesh_columns + 1) * Int(layers[i].mesh_rows + 1)
                        let meshed = layers[i].mesh_columns > 0 && vertices <= WorkerLayout.meshCapacity
                        state.pointee.mesh = meshed ? (memory.base + WorkerLayout.mesh(i)).assumingMemoryBound(to: segue_vec3_t.self) : nil
                        state.pointee.mesh_vertex_count = meshed ? UInt32(vertices) : 0
                        states[i] = state
                    }
                }
                transition.animator.evaluate(transition.animator.raw, transition.context.pointer, transition.plan, request.t,
                                             states, UInt32(count))
                reply(WorkerReply.ok)
            case .evaluateAhead?:
                guard let transition = running[request.slot] else { exit(2) }
                reply(WorkerReply.ok, value: UInt32(evaluateAhead(transition, request, states)))
            case .end?:
                guard let transition = running.removeValue(forKey: request.slot) else { exit(2) }
                transition.animator.end?(transition.animator.raw, transition.context.pointer, transition.plan, request.argument != 0)
                reply(WorkerReply.ok)
            default:
                exit(2)
            }
        }
        exit(0)
    }

    /// Answers an ``WorkerOp/evaluateAhead``: each frame starts from the
    /// pre-filled states and meshes the host left in the state and mesh
    /// areas, in its own place in the ahead area. How many frames it answered.
    private func evaluateAhead(_ transition: Running, _ request: WorkerRequest,
                               _ states: UnsafeMutablePointer<UnsafeMutablePointer<segue_layer_state_t>?>) -> Int {
        let began = MonotonicTime.now
        let plan = transition.plan.pointee
        let layerCount = min(Int(plan.layer_count), Int(SEGUE_MAX_LAYERS))
        let vertices: [Int] = withUnsafeBytes(of: plan.layers) { raw in
            let layers = raw.bindMemory(to: segue_layer_request_t.self)
            return (0..<layerCount).map { i -> Int in
                layers[i].mesh_columns > 0 ? Int(layers[i].mesh_columns + 1) * Int(layers[i].mesh_rows + 1) : 0
            }
        }
        let frames = WorkerLayout.AheadFrames(vertices: vertices)
        let count = min(Int(request.argument), frames.vertices.count)
        let wanted = min(Int(request.length), frames.capacity)
        var done = 0
        while done < wanted, done == 0 || MonotonicTime.now - began < WorkerLayout.aheadBudget {
            let t = (memory.base + WorkerLayout.aheadTimes + done * 8).loadUnaligned(as: Double.self)
            memory.storeRelease(UInt32(done), at: WorkerLayout.aheadProgress)
            for i in 0..<count {
                let state = (memory.base + frames.state(done, i)).assumingMemoryBound(to: segue_layer_state_t.self)
                state.pointee = (memory.base + WorkerLayout.state(i)).load(as: segue_layer_state_t.self)
                let meshed = frames.vertices[i] > 0
                if meshed {
                    (memory.base + frames.mesh(done, i)).copyMemory(from: memory.base + WorkerLayout.mesh(i),
                                                                     byteCount: frames.vertices[i] * WorkerLayout.vertexStride)
                }
                state.pointee.mesh = meshed ? (memory.base + frames.mesh(done, i)).assumingMemoryBound(to: segue_vec3_t.self) : nil
                state.pointee.mesh_vertex_count = meshed ? UInt32(frames.vertices[i]) : 0
                states[i] = state
            }
            transition.animator.evaluate(transition.animator.raw, transition.context.pointer, transition.plan, t, states, UInt32(count))
            done += 1
        }
        return done
    }

    /// Sends a reply, then counts it in shared memory for a host that spins.
    private func reply(_ status: UInt32, value: UInt32 = 0, text: String = "") {
        if !text.isEmpty {
            _ = memory.write([UInt8](text.utf8.prefix(1 << 20)), at: WorkerLayout.text, capacity: WorkerLayout.textCapacity)
        }
        channel.send(WorkerReply(status: status, value: value, length: UInt32(text.utf8.prefix(1 << 20).count)))
        memory.storeRelease(memory.loadAcquire(at: WorkerLayout.replies) &+ 1, at: WorkerLayout.replies)
    }
}
