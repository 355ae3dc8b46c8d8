// CurlUp: seed-004's UIViewAnimationOptions.transitionCurlUp as a Segue plugin.
// The from view curls up from its bottom edge like a page of a notepad,
// revealing the to view beneath, in 0.4 s on an ease-in-ease-out curve.
//
// The page is a mesh: points above the curl line lie flat; points below it
// wrap around a horizontal cylinder of radius r lying on the page at the curl
// line, and past half a turn they run back up, facing away (the page's back).
// The curl line rises from the bottom edge to beyond the top (by the half
// turn's arc, pi * r), so at the end the whole page has rolled off the top.
//
// Built as a third party would build it: only the C ABI, one @c export.

import AnimatorABI
import Glibc

private func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

private enum Param: Int {
    case duration, curve, radius, rows
}

nonisolated(unsafe) private let curveNames: UnsafeMutablePointer<UnsafePointer<CChar>?> = {
    let names: [UnsafePointer<CChar>?] = [cString("linear"), cString("easeIn"), cString("easeOut"), cString("easeInOut")]
    let p = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: names.count)
    p.initialize(from: names, count: names.count)
    return p
}()

private func parameter(_ name: StaticString, _ explanation: StaticString, _ type: segue_param_type_t,
                       _ value: Double, _ min: Double, _ max: Double, choices: Int = 0) -> UnsafePointer<segue_param_t>? {
    let p = UnsafeMutablePointer<segue_param_t>.allocate(capacity: 1)
    p.initialize(to: segue_param_t(
        struct_size: UInt32(MemoryLayout<segue_param_t>.size), name: cString(name), explanation: cString(explanation),
        type: UInt32(type.rawValue), default_value: value, min_value: min, max_value: max,
        choices: choices > 0 ? UnsafePointer(curveNames) : nil, choice_count: UInt32(choices)))
    return UnsafePointer(p)
}

nonisolated(unsafe) private let parameters: UnsafeMutablePointer<UnsafePointer<segue_param_t>?> = {
    let list: [UnsafePointer<segue_param_t>?] = [
        parameter("duration", "Length of the transition, in seconds.", SEGUE_PARAM_NUMBER, 0.4, 0.05, 10),
        parameter("curve", "Timing curve of the curl line's rise.", SEGUE_PARAM_CHOICE, 3, 0, 3, choices: 4),
        parameter("radius", "Radius of the curl, in points.", SEGUE_PARAM_NUMBER, 48, 4, 400),
        parameter("rows", "Mesh rows down the page: more is smoother and costs more.", SEGUE_PARAM_INTEGER, 32, 2, 64),
    ]
    let p = UnsafeMutablePointer<UnsafePointer<segue_param_t>?>.allocate(capacity: list.count)
    p.initialize(from: list, count: list.count)
    return p
}()

nonisolated(unsafe) private let animator: UnsafeMutablePointer<segue_animator_t> = {
    var a = segue_animator_t()
    a.abi_version = segue_version_t(major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))
    a.struct_size = UInt32(MemoryLayout<segue_animator_t>.size)
    a.id = cString("org.segue.curl-up/1")
    a.name = cString("CurlUp")
    a.version = cString("1.0.0")
    a.description = cString("The from view curls up from its bottom edge like a page, revealing the to view (seed-004).")
    a.params = UnsafePointer(parameters)
    a.param_count = 4
    a.setup = setup
    a.evaluate = evaluate
    let p = UnsafeMutablePointer<segue_animator_t>.allocate(capacity: 1)
    p.initialize(to: a)
    return p
}()

nonisolated(unsafe) private let animatorList: UnsafeMutablePointer<UnsafePointer<segue_animator_t>?> = {
    let p = UnsafeMutablePointer<UnsafePointer<segue_animator_t>?>.allocate(capacity: 1)
    p.initialize(to: UnsafePointer(animator))
    return p
}()

nonisolated(unsafe) private let plugin: UnsafeMutablePointer<segue_plugin_t> = {
    let p = UnsafeMutablePointer<segue_plugin_t>.allocate(capacity: 1)
    p.initialize(to: segue_plugin_t(
        abi_version: segue_version_t(major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR)),
        struct_size: UInt32(MemoryLayout<segue_plugin_t>.size),
        animators: UnsafePointer(animatorList), animator_count: 1))
    return p
}()

nonisolated(unsafe) private var host: UnsafePointer<segue_host_t>?

/// The one exported symbol. [main-thread]
@c(segue_animator_entry)
public func segueAnimatorEntry(_ h: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? {
    guard let h, segue_version_is_compatible(h.pointee.abi_version) else { return nil }
    host = h
    return UnsafePointer(plugin)
}

// MARK: - Animation

/// Mesh columns: the curl line is horizontal, so x needs no subdivision for
/// the geometry; a few columns keep a renderer's perspective smooth.
private let meshColumns: UInt32 = 4

private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                   _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
    guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }
    let c = ctx.pointee
    plan.pointee.duration = c.params[Param.duration.rawValue]
    plan.pointee.layer_count = 2
    plan.pointee.layers.0 = segue_layer_request_t(kind: UInt32(SEGUE_LAYER_TO_VIEW.rawValue), element: 0, mesh_columns: 0, mesh_rows: 0)
    plan.pointee.layers.1 = segue_layer_request_t(
        kind: UInt32(SEGUE_LAYER_FROM_VIEW.rawValue), element: 0,
        mesh_columns: meshColumns, mesh_rows: UInt32(c.params[Param.rows.rawValue]))
    return SEGUE_SETUP_ANIMATE
}

private func evaluate(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                      _ plan: UnsafePointer<segue_plan_t>?, _ t: Double,
                      _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, _ count: UInt32) {
    // Layer 0, the to view, rests beneath: nothing to change. Layer 1 is the page.
    guard let ctx, let plan, let states, count == 2, let state = states[1], let host,
          let mesh = state.pointee.mesh else { return }
    // Read through the pointers: copying the context or the plan would cost more than the math.
    let params = ctx.pointee.params!
    let duration = plan.pointee.duration
    let progress = host.pointee.curve_value(
        segue_curve_t(rawValue: UInt32(params[Param.curve.rawValue])), duration > 0 ? t / duration : 1)
    let r = params[Param.radius.rawValue]
    let frame = state.pointee.frame
    let rows = Int(plan.pointee.layers.1.mesh_rows), columns = Int(meshColumns)
    guard Int(state.pointee.mesh_vertex_count) >= (rows + 1) * (columns + 1) else { return }
    // The curl line, in the page's own y (0 at its top edge).
    let line = frame.height - progress * (frame.height + Double.pi * r)
    for j in 0...rows {
        let y = frame.height * Double(j) / Double(rows)
        var py = y, pz = 0.0
        let d = y - line  // arc length past the curl line
        if d > 0 {
            let angle = d / r
            if angle <= Double.pi {
                py = line + r * sin(angle)
                pz = r * (1 - cos(angle))
            } else {
                py = line - (d - Double.pi * r)
                pz = 2 * r
            }
        }
        for i in 0...columns {
            mesh[j * (columns + 1) + i] = segue_vec3_t(
                x: frame.x + frame.width * Double(i) / Double(columns), y: frame.y + py, z: pz)
        }
    }
    state.pointee.hidden = progress >= 1
}
