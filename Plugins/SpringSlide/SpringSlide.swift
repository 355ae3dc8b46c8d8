// SpringSlide: a container switch on a spring (an iOS 7 tutorial's
// FTMthTransitionAnimator) as a Segue plugin. The same
// algorithm as the container's default animator, bouncier: the to view slides
// in and fades in while the from view slides out and fades out, on a spring
// with damping 0.5 and initial velocity 0.5, over 1 s, 16 pt apart. Written
// for windows too (ABI 1.3): an opening window slides in from the
// container's right edge onto its frame, a closing one slides out past it,
// and what is beneath stays still.
//
// Built as a third party would build it: it knows nothing but the C ABI
// (with AnimatorKit's conveniences) and exports one symbol with @c.

import AnimatorABI
import AnimatorKit

private enum Param: Int {
    case damping, velocity, duration, padding
}

private let plugin = Plugin([Animator(
    id: "org.segue.spring-slide/1", name: "SpringSlide", version: "1.2.0",
    description: "Slides and fades the children past each other on a bouncy spring; a window slides in from the right edge and out past it.",
    parameters: [
        .number("damping", "Damping ratio of the spring: lower bounces more, 1 does not overshoot.",
                default: 0.5, min: 0.05, max: 1),
        .number("velocity", "Initial spring velocity, in container widths per second.", default: 0.5, min: -20, max: 20),
        .number("duration", "Length of the transition, in seconds.", default: 1.0, min: 0.05, max: 10),
        .number("padding", "Gap between the two children while they slide, in points.", default: 16, min: 0, max: 1000),
    ],
    setup: setup, evaluate: evaluate,
    kinds: [SEGUE_TRANSITION_SWITCH, SEGUE_TRANSITION_APPEAR, SEGUE_TRANSITION_DISAPPEAR])])

/// The one exported symbol. [main-thread]
@c(segue_animator_entry)
public func segueAnimatorEntry(_ host: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? {
    plugin.attach(host)
}

// Scratch layout: [0] the from view's x travel at the end (a switch), or the
// window's x offset when out of sight (an appearance or a disappearance);
// [1...4] the solved spring.

private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                   _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
    guard let ctx, let plan, let host = ctx.pointee.host else { return SEGUE_SETUP_DECLINE }
    let c = ctx.pointee
    let value = { (p: Param) in c.params[p.rawValue] }
    var spring = segue_spring_t()
    guard host.pointee.spring_init(&spring, value(.duration), value(.damping), value(.velocity)) else {
        return plan.decline("the spring's parameters are outside its domain")
    }
    let s = plan.scratch
    (s[1], s[2], s[3], s[4]) = (spring.duration, spring.damping_ratio, spring.initial_velocity, spring.omega0)
    switch c.kind {
    case SEGUE_TRANSITION_APPEAR.rawValue, SEGUE_TRANSITION_DISAPPEAR.rawValue:
        // The window alone moves: from its frame to just past the container's right edge.
        let opening = c.kind == SEGUE_TRANSITION_APPEAR.rawValue
        let window = opening ? c.to_final_frame : c.from_initial_frame
        s[0] = c.container_bounds.width - window.x + value(.padding)
        plan.plan(duration: value(.duration), layers: [.init(opening ? SEGUE_LAYER_TO_VIEW : SEGUE_LAYER_FROM_VIEW)])
    default:
        // As the original: the direction comes from the frames, the distance from the container.
        let goingRight = c.to_initial_frame.x < c.to_final_frame.x
        let travelDistance = c.container_bounds.width + value(.padding)
        s[0] = goingRight ? travelDistance : -travelDistance
        plan.plan(duration: value(.duration), layers: [.init(SEGUE_LAYER_FROM_VIEW), .init(SEGUE_LAYER_TO_VIEW)])
    }
    return SEGUE_SETUP_ANIMATE
}

private func evaluate(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                      _ plan: UnsafePointer<segue_plan_t>?, _ t: Double,
                      _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, _ count: UInt32) {
    guard let ctx, let plan, let states, let host = ctx.pointee.host else { return }
    let s = plan.scratch
    var spring = segue_spring_t(duration: s[1], damping_ratio: s[2], initial_velocity: s[3], omega0: s[4])
    let p = host.pointee.spring_value(&spring, t)
    let travel = s[0]
    if count == 1, let window = states[0] {
        // Out of sight at 0 when opening, at 1 when closing.
        let away = ctx.pointee.kind == SEGUE_TRANSITION_APPEAR.rawValue ? 1 - p : p
        window.pointee.transform.m.12 = travel * away
        return
    }
    guard count == 2, let from = states[0], let to = states[1] else { return }
    from.pointee.transform.m.12 = travel * p  // m41: x translation
    // The slide overshoots with the spring; opacity cannot, so it stops at 0 and 1 (as Core Animation's does).
    let opacity = min(max(p, 0), 1)
    from.pointee.alpha = 1 - opacity
    to.pointee.transform.m.12 = -travel * (1 - p)
    to.pointee.alpha = opacity
}
