// @NAME@: a Segue animator in Swift. The from view fades out while the to view fades in.
import AnimatorABI

/// A C string that lives as long as the program: what the ABI needs.
private func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Places `value` in memory that is never freed: descriptors live as long as the process.
private func permanent<T>(_ value: T) -> UnsafePointer<T> {
    let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
    p.initialize(to: value)
    return UnsafePointer(p)
}

nonisolated(unsafe) private var host: UnsafePointer<segue_host_t>?

private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                   _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
    guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }
    plan.pointee.duration = ctx.pointee.params[0]
    plan.pointee.layer_count = 2
    plan.pointee.layers.0.kind = UInt32(SEGUE_LAYER_FROM_VIEW.rawValue)
    plan.pointee.layers.1.kind = UInt32(SEGUE_LAYER_TO_VIEW.rawValue)
    return SEGUE_SETUP_ANIMATE
}

private func evaluate(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                      _ plan: UnsafePointer<segue_plan_t>?, _ t: Double,
                      _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, _ count: UInt32) {
    guard let ctx, let plan, let states, count == 2, let from = states[0], let to = states[1],
          let curve = host?.pointee.curve_value else { return }
    let f = curve(SEGUE_CURVE_EASE_IN_OUT, t / plan.pointee.duration)
    from.pointee.frame = ctx.pointee.from_initial_frame
    from.pointee.alpha = 1 - f
    to.pointee.frame = ctx.pointee.to_final_frame
    to.pointee.alpha = f
}

nonisolated(unsafe) private let plugin: UnsafePointer<segue_plugin_t> = {
    var animator = segue_animator_t()
    animator.abi_version = segue_version_t(major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))
    animator.struct_size = UInt32(MemoryLayout<segue_animator_t>.size)
    animator.id = cString("@ID@")
    animator.name = cString("@NAME@")
    animator.version = cString("0.1.0")
    animator.description = cString("Fades the from view out while the to view fades in.")
    let duration = permanent(segue_param_t(
        struct_size: UInt32(MemoryLayout<segue_param_t>.size), name: cString("duration"),
        explanation: cString("Length of the transition, in seconds."), type: UInt32(SEGUE_PARAM_NUMBER.rawValue),
        default_value: 0.3, min_value: 0.05, max_value: 10, choices: nil, choice_count: 0))
    animator.params = permanent(Optional(duration))
    animator.param_count = 1
    animator.setup = setup
    animator.evaluate = evaluate
    return permanent(segue_plugin_t(
        abi_version: animator.abi_version, struct_size: UInt32(MemoryLayout<segue_plugin_t>.size),
        animators: permanent(Optional(permanent(animator))), animator_count: 1))
}()

/// The one export: the host calls it once, on its main thread.
@c(segue_animator_entry)
public func segueAnimatorEntry(_ h: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? {
    guard let h, segue_version_is_compatible(h.pointee.abi_version) else { return nil }
    host = h
    return plugin
}
