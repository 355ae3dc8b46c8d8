import AnimatorABI
import EmbedABI
import Glibc
import HostConfig
import HostContainer
import PluginRuntime
import Timing

// The transitions' half of the C API (segue/embed.h): begin, plan, sample,
// finish, free.

/// The most named elements one side of a transition may have.
let maximumElements = 1024

private func transition(_ handle: OpaquePointer?) -> PlayedTransition? {
    handle.map { Unmanaged<PlayedTransition>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
}

/// The transition behind a handle, on its player's main thread; else nil, with the refusal in `status`.
private func mainThreadTransition(_ handle: OpaquePointer?, _ function: String, _ status: inout segue_status_t) -> PlayedTransition? {
    guard let played = transition(handle) else {
        status = refuse(SEGUE_E_INVALID_ARGUMENT, "\(function): transition is NULL")
        return nil
    }
    guard pthread_equal(pthread_self(), played.mainThread) != 0 else {
        status = refuse(SEGUE_E_WRONG_THREAD, "\(function): called from a thread that is not the player's main thread (the one that called segue_player_new); nothing was done")
        return nil
    }
    return played
}

@c(segue_transition_begin)
public func segueTransitionBegin(_ handle: OpaquePointer?, _ desc: UnsafePointer<segue_transition_desc_t>?,
                                 _ out: UnsafeMutablePointer<OpaquePointer?>?) -> segue_status_t {
    var status = SEGUE_OK
    guard let player = player(handle, "segue_transition_begin", &status) else { return status }
    guard let out else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_begin: out is NULL") }
    out.pointee = nil
    let request: PlayedTransition.Request
    do throws(CStruct.Refusal) {
        request = try PlayedTransition.Request(CStruct.read(desc, "desc", minimum: CStruct.transitionDesc10).get())
    } catch {
        return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_begin: \(error.message)")
    }
    let played = PlayedTransition(request, player: player)
    player.transitions[ObjectIdentifier(played)] = played
    out.pointee = OpaquePointer(Unmanaged.passRetained(played).toOpaque())
    return SEGUE_OK
}

extension PlayedTransition.Request {
    /// The request a program's description makes, every member checked.
    init(_ desc: segue_transition_desc_t) throws(CStruct.Refusal) {
        let b = desc.bounds
        guard [b.x, b.y, b.width, b.height].allSatisfy(\.isFinite), b.width > 0, b.height > 0 else {
            throw .init("desc.bounds is \(b.x), \(b.y), \(b.width) x \(b.height): expected a finite width and height above 0")
        }
        guard b.x == 0, b.y == 0 else { throw .init("desc.bounds starts at (\(b.x), \(b.y)): expected the origin (0, 0)") }
        let parameters = try desc.parameters_json.map { json throws(CStruct.Refusal) in
            let text = try CStruct.text(json, "desc.parameters_json", limit: 1 << 16)
            do {
                return try SegueConfig.parameters(json: Array(text.utf8), label: "desc.parameters_json")
            } catch {
                throw .init("\(error)")
            }
        }
        guard let kind = TransitionKind.allCases.first(where: { $0.abiValue == desc.kind }) else {
            throw .init("desc.kind is \(desc.kind): expected SEGUE_TRANSITION_SWITCH (0), SEGUE_TRANSITION_APPEAR (1) or SEGUE_TRANSITION_DISAPPEAR (2)")
        }
        self.init(kind: kind, bounds: Rect(x: 0, y: 0, width: b.width, height: b.height),
                  from: try Self.side(desc.from, "desc.from", optional: kind == .appear),
                  to: try Self.side(desc.to, "desc.to", optional: kind == .disappear),
                  goingRight: desc.going_right, interactive: desc.interactive,
                  animator: try desc.animator.map { a throws(CStruct.Refusal) in try CStruct.text(a, "desc.animator", limit: 256) },
                  parameters: parameters ?? [:])
        let a = desc.anchor
        if a.has_rect { anchor.rect = try Self.rect(a.rect, "desc.anchor.rect") }
        if a.has_point {
            guard a.point_x.isFinite, a.point_y.isFinite else {
                throw .init("desc.anchor.point is (\(a.point_x), \(a.point_y)): expected finite numbers")
            }
            anchor.point = (a.point_x, a.point_y)
        }
        windowType = WindowType(abiValue: desc.window_type)
        isModal = desc.modal
    }

    private static func rect(_ r: segue_rect_t, _ name: String) throws(CStruct.Refusal) -> Rect {
        guard [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite), r.width >= 0, r.height >= 0 else {
            throw .init("\(name) is \(r.x), \(r.y), \(r.width) x \(r.height): expected finite numbers and a size of 0 or more")
        }
        return Rect(x: r.x, y: r.y, width: r.width, height: r.height)
    }

    /// One side; an `optional` one (the view beneath an appearance or a
    /// disappearance) may have a NULL name, and is then a stand-in.
    private static func side(_ view: segue_view_t, _ name: String, optional: Bool) throws(CStruct.Refusal) -> PlayedTransition.ViewRequest {
        if optional && view.name == nil && view.element_count == 0 {
            return PlayedTransition.ViewRequest(name: "", frame: try rect(view.frame, "\(name).frame"), elements: [])
        }
        let count = Int(view.element_count)
        guard count <= maximumElements else { throw .init("\(name).element_count is \(count): expected at most \(maximumElements)") }
        guard count == 0 || view.elements != nil else { throw .init("\(name).elements is NULL but element_count is \(count)") }
        var elements: [(name: String, frame: Rect)] = []
        for i in 0..<count {
            guard let element = view.elements![i] else { throw .init("\(name).elements[\(i)] is NULL") }
            let size = Int(element.pointee.struct_size)
            guard size >= MemoryLayout<segue_element_t>.size else {
                throw .init("\(name).elements[\(i)].struct_size is \(size): expected sizeof(segue_element_t) (\(MemoryLayout<segue_element_t>.size))")
            }
            let elementName = try CStruct.text(element.pointee.name, "\(name).elements[\(i)].name", limit: 256)
            guard !elementName.isEmpty else { throw .init("\(name).elements[\(i)].name is empty: expected a name") }
            elements.append((elementName, try rect(element.pointee.frame, "\(name).elements[\(i)].frame")))
        }
        return PlayedTransition.ViewRequest(name: try CStruct.text(view.name, "\(name).name", limit: 256),
                                            frame: try rect(view.frame, "\(name).frame"), elements: elements)
    }
}

@c(segue_transition_plan)
public func segueTransitionPlan(_ handle: OpaquePointer?, _ plan: UnsafeMutablePointer<segue_plan_info_t>?) -> segue_status_t {
    guard let played = transition(handle) else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_plan: transition is NULL") }
    guard let plan else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_plan: plan is NULL") }
    let size: Int
    switch CStruct.size(of: plan, "plan", minimum: CStruct.planInfo10) {
    case .failure(let why): return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_plan: \(why.message)")
    case .success(let s): size = s
    }
    let part = played.current
    let (fellBack, reason, _) = played.explanation
    var info = segue_plan_info_t()
    info.duration = played.duration
    info.layer_count = UInt32(part.plan.layers.count)
    withUnsafeMutableBytes(of: &info.layers) { raw in
        let layers = raw.bindMemory(to: segue_layer_request_t.self)
        for (i, layer) in part.layers.enumerated() { layers[i] = layer.abi }
    }
    info.hidden_count = UInt32(part.hiddenElements.count)
    withUnsafeMutableBytes(of: &info.hidden) { raw in
        let hidden = raw.bindMemory(to: segue_element_ref_t.self)
        for (i, ref) in part.hiddenElements.enumerated() {
            hidden[i] = segue_element_ref_t(side: (ref.side == .from ? SEGUE_SIDE_FROM : SEGUE_SIDE_TO).rawValue, element: UInt32(ref.index))
        }
    }
    info.animator = part.name.pointer
    info.file = part.file?.pointer
    info.fell_back = fellBack
    info.reason = reason
    CStruct.write(info, to: plan, size: size)
    return SEGUE_OK
}

extension LayerRequest {
    /// The ABI's form of the request.
    var abi: segue_layer_request_t {
        var kind = SEGUE_LAYER_FROM_VIEW, element = 0
        switch self.kind {
        case .view(.from): kind = SEGUE_LAYER_FROM_VIEW
        case .view(.to): kind = SEGUE_LAYER_TO_VIEW
        case .snapshot(let ref):
            kind = ref.side == .from ? SEGUE_LAYER_FROM_ELEMENT_SNAPSHOT : SEGUE_LAYER_TO_ELEMENT_SNAPSHOT
            element = ref.index
        }
        return segue_layer_request_t(kind: kind.rawValue, element: UInt32(element),
                                     mesh_columns: UInt32(meshColumns), mesh_rows: UInt32(meshRows))
    }
}

@c(segue_layer_mesh_vertex_count)
public func segueLayerMeshVertexCount(_ layer: UnsafePointer<segue_layer_request_t>?) -> UInt32 {
    guard let layer, layer.pointee.mesh_columns > 0, layer.pointee.mesh_rows > 0,
          layer.pointee.mesh_columns <= UInt32(SEGUE_MAX_MESH_DIVISIONS), layer.pointee.mesh_rows <= UInt32(SEGUE_MAX_MESH_DIVISIONS)
    else { return 0 }
    return (layer.pointee.mesh_columns + 1) * (layer.pointee.mesh_rows + 1)
}

@c(segue_transition_prefetch)
public func segueTransitionPrefetch(_ handle: OpaquePointer?, _ t: Double) -> segue_status_t {
    guard let played = transition(handle) else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_prefetch: transition is NULL") }
    guard !t.isNaN else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_prefetch: t is NaN: expected seconds since the transition began") }
    guard !played.state.ended else { return refuse(SEGUE_E_ENDED, "segue_transition_prefetch: the transition has been finished") }
    played.prefetch(at: min(max(t, 0), played.duration))
    return SEGUE_OK
}

@c(segue_transition_sample)
public func segueTransitionSample(_ handle: OpaquePointer?, _ t: Double,
                                  _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?,
                                  _ count: UInt32) -> segue_status_t {
    guard let played = transition(handle) else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_sample: transition is NULL") }
    guard !t.isNaN else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_sample: t is NaN: expected seconds since the transition began") }
    guard let states else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_sample: states is NULL") }
    let state = played.state, part = state.part
    guard !state.ended else { return refuse(SEGUE_E_ENDED, "segue_transition_sample: the transition has been finished") }
    if let (status, problem) = problem(states, count, for: part) { return refuse(status, "segue_transition_sample: \(problem)") }
    let clamped = min(max(t, 0), played.duration)
    var tooSmall = false
    let sampled = played.sample(at: clamped, of: part) { index, state in
        guard index < Int(count), let out = states[index] else {
            tooSmall = true
            return
        }
        out.pointee.frame = state.raw.frame
        out.pointee.transform = state.raw.transform
        out.pointee.alpha = min(max(state.raw.alpha, 0), 1)
        out.pointee.z_position = state.raw.z_position
        out.pointee.hidden = state.raw.hidden
        if Int(out.pointee.struct_size) >= MemoryLayout<segue_layer_state_t>.size {
            out.pointee.clip = state.raw.clip
            out.pointee.corner_radius = state.raw.corner_radius
            out.pointee.shadow = state.raw.shadow
        }
        let vertices = Int(state.raw.mesh_vertex_count)
        if vertices > 0, let source = state.raw.mesh {
            guard let target = out.pointee.mesh, Int(out.pointee.mesh_vertex_count) >= vertices else {
                tooSmall = true
                return
            }
            target.update(from: source, count: vertices)
        }
    }
    if tooSmall, let (status, problem) = problem(states, count, for: played.current) {
        return refuse(status, "segue_transition_sample: the built-in default took over, and \(problem)")
    }
    switch sampled {
    case .tookOver:
        LastError.set("segue_transition_sample: the animator failed and the built-in default took over from the same point; re-read the plan (its reason says why)")
        return SEGUE_DEFAULT_TOOK_OVER
    case .held:
        LastError.set("segue_transition_sample: the plugin did not answer within the sample bound; these are the newest states it gave")
        return SEGUE_LATE
    case .fresh where clamped != t:
        LastError.set("segue_transition_sample: t was outside [0, duration]; these are the states at the nearest end")
        return SEGUE_CLAMPED
    case .fresh:
        return SEGUE_OK
    }
}

/// What is wrong with a program's states for `part`'s plan, with the status
/// that says it (a malformed state is an invalid argument; too few states or
/// too small a mesh, a buffer too small), or nil.
private func problem(_ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>, _ count: UInt32,
                     for part: PlayedTransition.Part) -> (segue_status_t, String)? {
    let meshes = part.meshVertices
    guard Int(count) >= meshes.count else {
        return (SEGUE_E_BUFFER_TOO_SMALL, "state_count is \(count): the plan has \(meshes.count) layers (segue_plan_info_t.layer_count)")
    }
    for i in meshes.indices {
        guard let state = states[i] else { return (SEGUE_E_INVALID_ARGUMENT, "states[\(i)] is NULL") }
        let size = Int(state.pointee.struct_size)
        guard size >= CStruct.layerState13 else {
            return (SEGUE_E_INVALID_ARGUMENT,
                    "states[\(i)].struct_size is \(size): expected sizeof(segue_layer_state_t) (\(MemoryLayout<segue_layer_state_t>.size), \(CStruct.layerState13) at the least)")
        }
        let needed = meshes[i]
        if needed > 0, state.pointee.mesh == nil || Int(state.pointee.mesh_vertex_count) < needed {
            let layer = part.plan.layers[i]
            return (SEGUE_E_BUFFER_TOO_SMALL,
                    "states[\(i)] has room for \(state.pointee.mesh == nil ? 0 : state.pointee.mesh_vertex_count) mesh vertices: layer \(i) has a \(layer.meshColumns)x\(layer.meshRows) mesh of \(needed) vertices")
        }
    }
    return nil
}

@c(segue_transition_finish)
public func segueTransitionFinish(_ handle: OpaquePointer?, _ completed: Bool,
                                  _ report: UnsafeMutablePointer<segue_transition_report_t>?) -> segue_status_t {
    var status = SEGUE_OK
    guard let played = mainThreadTransition(handle, "segue_transition_finish", &status) else { return status }
    var size = 0
    if let report {
        switch CStruct.size(of: report, "report", minimum: CStruct.report10) {
        case .failure(let why): return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_transition_finish: \(why.message)")
        case .success(let s): size = s
        }
    }
    guard played.finish(completed: completed) else {
        return refuse(SEGUE_E_ENDED, "segue_transition_finish: the transition was finished already: a transition ends exactly once")
    }
    if let report {
        let (fellBack, reason, _) = played.explanation
        var value = segue_transition_report_t()
        value.animator = played.current.name.pointer
        value.fell_back = fellBack
        value.reason = reason
        value.completed = completed
        CStruct.write(value, to: report, size: size)
    }
    return SEGUE_OK
}

@c(segue_transition_free)
public func segueTransitionFree(_ handle: OpaquePointer?) {
    var status = SEGUE_OK
    guard handle != nil, let played = mainThreadTransition(handle, "segue_transition_free", &status) else { return }
    played.finish(completed: false)
    played.forget()
    Unmanaged<PlayedTransition>.fromOpaque(UnsafeRawPointer(handle!)).release()
}
