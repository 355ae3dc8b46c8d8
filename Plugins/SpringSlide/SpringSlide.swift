// SpringSlide: seed-000's FTMthTransitionAnimator as a Segue plugin. The same
// algorithm as the container's default animator, bouncier: the to view slides
// in and fades in while the from view slides out and fades out, on a spring
// with damping 0.5 and initial velocity 0.5, over 1 s, 16 pt apart.
//
// Built as a third party would build it: it knows nothing but the C ABI
// (AnimatorABI) and exports one symbol, segue_animator_entry, with @c.

import AnimatorABI

// MARK: - Descriptor (static, valid for the process lifetime, as the ABI requires)

private func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

private enum Param: Int {
    case damping, velocity, duration, padding
}

private func parameter(_ name: StaticString, _ explanation: StaticString,
                       _ value: Double, _ min: Double, _ max: Double) -> UnsafePointer<segue_param_t>? {
    let p = UnsafeMutablePointer<segue_param_t>.allocate(capacity: 1)
    p.initialize(to: segue_param_t(
        struct_size: UInt32(MemoryLayout<segue_param_t>.size), name: cString(name), explanation: cString(explanation),
        type: UInt32(SEGUE_PARAM_NUMBER.rawValue), default_value: value, min_value: min, max_value: max,
        choices: nil, choice_count: 0))
    return UnsafePointer(p)
}

nonisolated(unsafe) private let parameters: UnsafeMutablePointer<UnsafePointer<segue_param_t>?> = {
    let list: [UnsafePointer<segue_param_t>?] = [
        parameter("damping", "Damping ratio of the spring: lower bounces more, 1 does not overshoot.", 0.5, 0.05, 1),
        parameter("velocity", "Initial spring velocity, in container widths per second.", 0.5, -20, 20),
        parameter("duration", "Length of the transition, in seconds.", 1.0, 0.05, 10),
        parameter("padding", "Gap between the two children while they slide, in points.", 16, 0, 1000),
    ]
    let p = UnsafeMutablePointer<UnsafePointer<segue_param_t>?>.allocate(capacity: list.count)
    p.initialize(from: list, count: list.count)
    return p
}()

nonisolated(unsafe) private let animator: UnsafeMutablePointer<segue_animator_t> = {
    var a = segue_animator_t()
    a.abi_version = segue_version_t(major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))
    a.struct_size = UInt32(MemoryLayout<segue_animator_t>.size)
    a.id = cString("org.segue.spring-slide/1")
    a.name = cString("SpringSlide")
    a.version = cString("1.0.0")
    a.description = cString("Slides and fades the children past each other on a bouncy spring (seed-000).")
    a.params = UnsafePointer(parameters)
    a.param_count = 4
    a.setup = setup
    a.evaluate = evaluate
    a.end = nil
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

// Scratch layout: [0] the from view's x travel at the end; [1...4] the solved spring.

private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                   _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
    guard let ctx, let plan, let host else { return SEGUE_SETUP_DECLINE }
    let c = ctx.pointee
    let value = { (p: Param) in c.params[p.rawValue] }
    var spring = segue_spring_t()
    guard host.pointee.spring_init(&spring, value(.duration), value(.damping), value(.velocity)) else {
        return SEGUE_SETUP_DECLINE
    }
    // As the seed: the direction comes from the frames, the distance from the container.
    let goingRight = c.to_initial_frame.x < c.to_final_frame.x
    let travelDistance = c.container_bounds.width + value(.padding)
    plan.pointee.scratch.0 = goingRight ? travelDistance : -travelDistance
    (plan.pointee.scratch.1, plan.pointee.scratch.2, plan.pointee.scratch.3, plan.pointee.scratch.4) =
        (spring.duration, spring.damping_ratio, spring.initial_velocity, spring.omega0)
    plan.pointee.duration = value(.duration)
    plan.pointee.layer_count = 2
    plan.pointee.layers.0 = segue_layer_request_t(kind: UInt32(SEGUE_LAYER_FROM_VIEW.rawValue), element: 0, mesh_columns: 0, mesh_rows: 0)
    plan.pointee.layers.1 = segue_layer_request_t(kind: UInt32(SEGUE_LAYER_TO_VIEW.rawValue), element: 0, mesh_columns: 0, mesh_rows: 0)
    return SEGUE_SETUP_ANIMATE
}

private func evaluate(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                      _ plan: UnsafePointer<segue_plan_t>?, _ t: Double,
                      _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, _ count: UInt32) {
    guard let plan, let states, count == 2, let from = states[0], let to = states[1], let host else { return }
    // Read through the pointer: copying the plan would cost more than the math.
    var spring = segue_spring_t(
        duration: plan.pointee.scratch.1, damping_ratio: plan.pointee.scratch.2,
        initial_velocity: plan.pointee.scratch.3, omega0: plan.pointee.scratch.4)
    let p = host.pointee.spring_value(&spring, t)
    let travel = plan.pointee.scratch.0
    from.pointee.transform.m.12 = travel * p  // m41: x translation
    from.pointee.alpha = 1 - p
    to.pointee.transform.m.12 = -travel * (1 - p)
    to.pointee.alpha = p
}
