// ImageZoom: an image-zoom transition from a grid to a detail view (iOS 7's
// DSLTransitionFromFirstToSecond sample) as a Segue plugin. The
// selected grid cell's image travels to the detail view's image while the
// detail view fades in, in 0.3 s. The way back is its mirror image: the image
// travels back to the cell while the detail view fades out over the grid.
//
// The travelling image is a snapshot of the from view's element; both real
// elements are hidden while it travels, and shown again at the end. The views
// must share an element by name (the first of the to view's elements that the
// from view also has); when they share none, the animator declines.
//
// Written for windows too (ABI 1.3): a window opens by zooming out of its
// launcher (the element of the view beneath named as the window is: a dock
// icon, a grid cell) and closes by zooming back into it; without one it
// declines.
//
// Built as a third party would build it: only the C ABI, one @c export.

import AnimatorABI
import AnimatorKit
import Glibc

private enum Param: Int {
    case duration, curve
}

private let plugin = Plugin([Animator(
    id: "org.segue.image-zoom/1", name: "ImageZoom", version: "1.1.0",
    description: "A shared image travels from the grid cell to the detail view as the detail fades in, and back. Needs an element of the same name in both views; without one it declines and the default runs. A window zooms out of the element beneath named as it is, and back into it.",
    parameters: [
        .number("duration", "Length of the transition, in seconds.", default: 0.3, min: 0.05, max: 10),
        .curve("curve", "Timing curve of the image's travel and the fade: a named curve or one of the config's \"curves\".", default: SEGUE_CURVE_EASE_IN_OUT),
    ],
    setup: setup, evaluate: evaluate,
    kinds: [SEGUE_TRANSITION_SWITCH, SEGUE_TRANSITION_APPEAR, SEGUE_TRANSITION_DISAPPEAR])])

/// The one exported symbol. [main-thread]
@c(segue_animator_entry)
public func segueAnimatorEntry(_ host: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? {
    plugin.attach(host)
}

// MARK: - Animation

// Scratch layout: [0] 1 when zooming in (the to image is the larger), else 0;
// [1...4] the from element's frame; [5...8] the to element's frame. For a
// window: [0] 2 opening, 3 closing; [1...4] its launcher's frame; [5...8] its own.

private func sameName(_ a: segue_view_t, _ i: Int, _ b: segue_view_t, _ j: Int) -> Bool {
    guard let x = a.elements[i]?.pointee.name, let y = b.elements[j]?.pointee.name else { return false }
    return strcmp(x, y) == 0
}

private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                   _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
    guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }
    let c = ctx.pointee
    if c.kind == SEGUE_TRANSITION_APPEAR.rawValue || c.kind == SEGUE_TRANSITION_DISAPPEAR.rawValue {
        return setupWindow(c, plan, opening: c.kind == SEGUE_TRANSITION_APPEAR.rawValue)
    }
    var shared: (from: Int, to: Int)?
    search: for j in 0..<Int(c.to.element_count) {
        for i in 0..<Int(c.from.element_count) where sameName(c.from, i, c.to, j) {
            shared = (i, j)
            break search
        }
    }
    guard let (fromIndex, toIndex) = shared else {
        return plan.decline(
            "the from view '\(String(cString: c.from.name!))' and the to view '\(String(cString: c.to.name!))' share no named element")
    }
    let fromFrame = c.from.elements[fromIndex]!.pointee.frame
    let toFrame = c.to.elements[toIndex]!.pointee.frame
    let zoomIn = toFrame.width * toFrame.height >= fromFrame.width * fromFrame.height
    let s = plan.scratch
    s[0] = zoomIn ? 1 : 0
    (s[1], s[2], s[3], s[4]) = (fromFrame.x, fromFrame.y, fromFrame.width, fromFrame.height)
    (s[5], s[6], s[7], s[8]) = (toFrame.x, toFrame.y, toFrame.width, toFrame.height)
    // Zooming in, the detail view fades in over the grid; zooming out, it fades
    // out over the grid. Either way the travelling image is on top.
    plan.plan(duration: c.params[Param.duration.rawValue], layers: [
        .init(zoomIn ? SEGUE_LAYER_FROM_VIEW : SEGUE_LAYER_TO_VIEW),
        .init(zoomIn ? SEGUE_LAYER_TO_VIEW : SEGUE_LAYER_FROM_VIEW),
        .init(SEGUE_LAYER_FROM_ELEMENT_SNAPSHOT, element: UInt32(fromIndex)),
    ])
    plan.hide([.init(SEGUE_SIDE_FROM, fromIndex), .init(SEGUE_SIDE_TO, toIndex)])
    return SEGUE_SETUP_ANIMATE
}

/// A window zooming out of its launcher, the element of the view beneath named as it is, or back into it.
private func setupWindow(_ c: segue_context_t, _ plan: UnsafeMutablePointer<segue_plan_t>, opening: Bool) -> segue_setup_result_t {
    let (window, beneath) = opening ? (c.to, c.from) : (c.from, c.to)
    let name = window.name.map { String(cString: $0) } ?? ""
    guard let launcher = (0..<Int(beneath.element_count)).first(where: { i in
        beneath.elements[i]?.pointee.name.map { String(cString: $0) == name } ?? false
    }) else {
        return plan.decline("the view beneath has no element named '\(name)' for the window to zoom \(opening ? "out of" : "into")")
    }
    let from = beneath.elements[launcher]!.pointee.frame, to = opening ? c.to_final_frame : c.from_initial_frame
    let s = plan.scratch
    s[0] = opening ? 2 : 3
    (s[1], s[2], s[3], s[4]) = (from.x, from.y, from.width, from.height)
    (s[5], s[6], s[7], s[8]) = (to.x, to.y, to.width, to.height)
    plan.plan(duration: c.params[Param.duration.rawValue], layers: [.init(opening ? SEGUE_LAYER_TO_VIEW : SEGUE_LAYER_FROM_VIEW)])
    return SEGUE_SETUP_ANIMATE
}

private func evaluate(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                      _ plan: UnsafePointer<segue_plan_t>?, _ t: Double,
                      _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, _ count: UInt32) {
    // Read through the pointers: copying the context or the plan would cost more than the math.
    guard let ctx, let plan, let states else { return }
    let duration = plan.pointee.duration
    let progress = curveProgress(ctx, Param.curve.rawValue, duration > 0 ? t / duration : 1)
    let s = plan.scratch
    if count == 1, let window = states[0] {
        // How far out of its launcher the window is: 0 at the launcher, 1 at its own frame. Its
        // frame stays its own and a transform scales it, so that what it shows scales with it.
        let f = s[0] == 2 ? progress : 1 - progress
        let (x, y) = (s[1] + (s[5] - s[1]) * f, s[2] + (s[6] - s[2]) * f)
        let (w, h) = (s[3] + (s[7] - s[3]) * f, s[4] + (s[8] - s[4]) * f)
        window.pointee.transform.m.0 = s[7] > 0 ? w / s[7] : 1  // m11
        window.pointee.transform.m.5 = s[8] > 0 ? h / s[8] : 1  // m22
        window.pointee.transform.m.12 = (x + w / 2) - (s[5] + s[7] / 2)  // m41: centre to centre
        window.pointee.transform.m.13 = (y + h / 2) - (s[6] + s[8] / 2)  // m42
        window.pointee.alpha = f
        return
    }
    guard count == 3, let upper = states[1], let image = states[2] else { return }
    // Layer 0, the view beneath, rests. Layer 1 is the detail view: placed at
    // finalFrame(to) and fading in when zooming in; fading out when zooming out.
    if s[0] == 1 {
        upper.pointee.frame = ctx.pointee.to_final_frame
        upper.pointee.alpha = progress
    } else {
        upper.pointee.alpha = 1 - progress
    }
    // Layer 2, the snapshot, travels from the cell's image frame (s[1...4]) to the detail image's (s[5...8]).
    image.pointee.frame = segue_rect_t(
        x: s[1] + (s[5] - s[1]) * progress, y: s[2] + (s[6] - s[2]) * progress,
        width: s[3] + (s[7] - s[3]) * progress, height: s[4] + (s[8] - s[4]) * progress)
}
