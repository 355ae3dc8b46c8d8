// CurlUp: UIKit's UIViewAnimationOptions.transitionCurlUp as a Segue plugin.
// The from view lifts from its bottom edge and curls upward like a page of a
// notepad, revealing the to view beneath, in 0.4 s on an ease-in-ease-out curve.
//
// The page is a mesh wrapped around a cylinder of radius r that lies on the
// page along the curl line. The line is tilted by `angle` (positive: the
// bottom-right corner leads, as in UIKit's curl; negative: the bottom-left).
// With n the unit normal of the line pointing down the page, and d the
// distance of a point of the flat page past the line along n:
//   d <= 0            the point lies flat;
//   0 < d <= pi*r     it wraps around the cylinder: moved back along n by
//                     d - r*sin(d/r), lifted to z = r*(1 - cos(d/r));
//   d > pi*r          past half a turn it lies flat again at z = 2r, facing
//                     away (the page's back), running back up the page.
// The line starts on the leading corner and travels up the page until the
// last corner has gone round the half turn, so the page ends off the top.
// Shading, the pale back and the shadow on the view beneath are the
// renderer's: a host draws a mesh as it sees fit.
//
// Built as a third party would build it: only the C ABI, one @c export.

import AnimatorABI
import AnimatorKit
import Glibc

private enum Param: Int {
    case duration, curve, radius, angle, rows
}

private let plugin = Plugin([Animator(
    id: "org.segue.curl-up/1", name: "CurlUp", version: "1.1.0",
    description: "The from view curls up from its bottom edge like a page, revealing the to view.",
    parameters: [
        .number("duration", "Length of the transition, in seconds.", default: 0.4, min: 0.05, max: 10),
        .curve("curve", "Timing curve of the curl line's travel: a named curve or one of the config's \"curves\".", default: SEGUE_CURVE_EASE_IN_OUT),
        .number("radius", "Radius of the curl, in points.", default: 48, min: 4, max: 400),
        .number("angle", "Tilt of the curl line, in degrees: positive lifts the bottom-right corner first, negative the bottom-left, 0 the whole edge at once.",
                default: 20, min: -60, max: 60),
        .integer("rows", "Mesh rows down the page (columns follow the page's shape): more is smoother and costs more.", default: 32, min: 2, max: 64),
    ],
    setup: setup, evaluate: evaluate)])

/// The one exported symbol. [main-thread]
@c(segue_animator_entry)
public func segueAnimatorEntry(_ host: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? {
    plugin.attach(host)
}

// MARK: - Animation

private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                   _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
    guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }
    let params = ctx.pointee.params!
    let rows = UInt32(params[Param.rows.rawValue])
    // Cells about square: as many columns as the page's width takes at the rows' spacing.
    let page = ctx.pointee.from_initial_frame
    let aspect = page.height > 0 ? page.width / page.height : 1
    let columns = UInt32(min(max((Double(rows) * aspect).rounded(.up), 2), 64))
    plan.plan(duration: params[Param.duration.rawValue], layers: [
        .init(SEGUE_LAYER_TO_VIEW),
        .init(SEGUE_LAYER_FROM_VIEW, meshColumns: columns, meshRows: rows),
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
    let tilt = params[Param.angle.rawValue] * Double.pi / 180
    let frame = state.pointee.frame
    let rows = Int(plan.pointee.layers.1.mesh_rows), columns = Int(plan.pointee.layers.1.mesh_columns)
    guard Int(state.pointee.mesh_vertex_count) >= (rows + 1) * (columns + 1) else { return }
    // n: the line's normal, pointing down the page and towards the leading corner.
    let nx = sin(tilt), ny = cos(tilt)
    // The page's extent along n, from the trailing top corner to the leading bottom one.
    let top = min(0, frame.width * nx), bottom = frame.height * ny + max(0, frame.width * nx)
    let halfTurn = Double.pi * r
    // The line's position along n: from the leading corner to half a turn past the trailing one.
    let line = bottom - progress * (bottom - top + halfTurn)
    for j in 0...rows {
        let v = frame.height * Double(j) / Double(rows)
        for i in 0...columns {
            let u = frame.width * Double(i) / Double(columns)
            let d = u * nx + v * ny - line  // past the line, along n
            var back = 0.0, z = 0.0  // how far the point moves back along n, and its lift
            if d > 0 {
                if d <= halfTurn {
                    let phi = d / r
                    back = d - r * sin(phi)
                    z = r * (1 - cos(phi))
                } else {
                    back = 2 * d - halfTurn
                    z = 2 * r
                }
            }
            mesh[j * (columns + 1) + i] = segue_vec3_t(x: frame.x + u - back * nx, y: frame.y + v - back * ny, z: z)
        }
    }
    state.pointee.hidden = progress >= 1
}
