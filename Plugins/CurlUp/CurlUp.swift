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
import AnimatorKit
import Glibc

private enum Param: Int {
    case duration, curve, radius, rows
}

private let plugin = Plugin([Animator(
    id: "org.segue.curl-up/1", name: "CurlUp", version: "1.0.0",
    description: "The from view curls up from its bottom edge like a page, revealing the to view (seed-004).",
    parameters: [
        .number("duration", "Length of the transition, in seconds.", default: 0.4, min: 0.05, max: 10),
        .curve("curve", "Timing curve of the curl line's rise: a named curve or one of the config's \"curves\".", default: SEGUE_CURVE_EASE_IN_OUT),
        .number("radius", "Radius of the curl, in points.", default: 48, min: 4, max: 400),
        .integer("rows", "Mesh rows down the page: more is smoother and costs more.", default: 32, min: 2, max: 64),
    ],
    setup: setup, evaluate: evaluate)])

/// The one exported symbol. [main-thread]
@c(segue_animator_entry)
public func segueAnimatorEntry(_ host: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? {
    plugin.attach(host)
}

// MARK: - Animation

/// Mesh columns: the curl line is horizontal, so x needs no subdivision for
/// the geometry; a few columns keep a renderer's perspective smooth.
private let meshColumns: UInt32 = 4

private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                   _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
    guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }
    let params = ctx.pointee.params!
    plan.plan(duration: params[Param.duration.rawValue], layers: [
        .init(SEGUE_LAYER_TO_VIEW),
        .init(SEGUE_LAYER_FROM_VIEW, meshColumns: meshColumns, meshRows: UInt32(params[Param.rows.rawValue])),
    ])
    return SEGUE_SETUP_ANIMATE
}

private func evaluate(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                      _ plan: UnsafePointer<segue_plan_t>?, _ t: Double,
                      _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, _ count: UInt32) {
    // Layer 0, the to view, rests beneath: nothing to change. Layer 1 is the page.
    guard let ctx, let plan, let states, count == 2, let state = states[1], let mesh = state.pointee.mesh else { return }
    // Read through the pointers: copying the context or the plan would cost more than the math.
    let params = ctx.pointee.params!
    let duration = plan.pointee.duration
    let progress = curveProgress(ctx, Param.curve.rawValue, duration > 0 ? t / duration : 1)
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
