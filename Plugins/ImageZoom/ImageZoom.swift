// ImageZoom: seed-002's DSLTransitionFromFirstToSecond as a Segue plugin. The
// selected grid cell's image travels to the detail view's image while the
// detail view fades in, in 0.3 s. The way back is its mirror image: the image
// travels back to the cell while the detail view fades out over the grid.
//
// The travelling image is a snapshot of the from view's element; both real
// elements are hidden while it travels, and shown again at the end. The views
// must share an element by name (the first of the to view's elements that the
// from view also has); when they share none, the animator declines.
//
// Built as a third party would build it: only the C ABI, one @c export.

import AnimatorABI
import Glibc

private func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

private enum Param: Int {
    case duration, curve
}

nonisolated(unsafe) private let curveNames: UnsafeMutablePointer<UnsafePointer<CChar>?> = {
    let names: [UnsafePointer<CChar>?] = [cString("linear"), cString("easeIn"), cString("easeOut"), cString("easeInOut")]
    let p = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: names.count)
    p.initialize(from: names, count: names.count)
    return p
}()

nonisolated(unsafe) private let parameters: UnsafeMutablePointer<UnsafePointer<segue_param_t>?> = {
    let duration = UnsafeMutablePointer<segue_param_t>.allocate(capacity: 1)
    duration.initialize(to: segue_param_t(
        struct_size: UInt32(MemoryLayout<segue_param_t>.size), name: cString("duration"),
        explanation: cString("Length of the transition, in seconds."),
        type: UInt32(SEGUE_PARAM_NUMBER.rawValue), default_value: 0.3, min_value: 0.05, max_value: 10,
        choices: nil, choice_count: 0))
    let curve = UnsafeMutablePointer<segue_param_t>.allocate(capacity: 1)
    curve.initialize(to: segue_param_t(
        struct_size: UInt32(MemoryLayout<segue_param_t>.size), name: cString("curve"),
        explanation: cString("Timing curve of the image's travel and the fade."),
        type: UInt32(SEGUE_PARAM_CHOICE.rawValue), default_value: 3, min_value: 0, max_value: 3,
        choices: UnsafePointer(curveNames), choice_count: 4))
    let p = UnsafeMutablePointer<UnsafePointer<segue_param_t>?>.allocate(capacity: 2)
    p.initialize(from: [UnsafePointer(duration), UnsafePointer(curve)], count: 2)
    return p
}()

nonisolated(unsafe) private let animator: UnsafeMutablePointer<segue_animator_t> = {
    var a = segue_animator_t()
    a.abi_version = segue_version_t(major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))
    a.struct_size = UInt32(MemoryLayout<segue_animator_t>.size)
    a.id = cString("org.segue.image-zoom/1")
    a.name = cString("ImageZoom")
    a.version = cString("1.0.0")
    a.description = cString("A shared image travels from the grid cell to the detail view as the detail fades in, and back (seed-002).")
    a.params = UnsafePointer(parameters)
    a.param_count = 2
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

// Scratch layout: [0] 1 when zooming in (the to image is the larger), else 0;
// [1...4] the from element's frame; [5...8] the to element's frame.

private func sameName(_ a: segue_view_t, _ i: Int, _ b: segue_view_t, _ j: Int) -> Bool {
    guard let x = a.elements[i]?.pointee.name, let y = b.elements[j]?.pointee.name else { return false }
    return strcmp(x, y) == 0
}

private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                   _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
    guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }
    let c = ctx.pointee
    var shared: (from: Int, to: Int)?
    search: for j in 0..<Int(c.to.element_count) {
        for i in 0..<Int(c.from.element_count) where sameName(c.from, i, c.to, j) {
            shared = (i, j)
            break search
        }
    }
    guard let (fromIndex, toIndex) = shared else {
        let reason = "the from view '\(String(cString: c.from.name!))' and the to view '\(String(cString: c.to.name!))' share no named element"
        withUnsafeMutableBytes(of: &plan.pointee.decline_reason) { buffer in
            let bytes = reason.utf8.prefix(buffer.count - 1)
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return SEGUE_SETUP_DECLINE
    }
    let fromFrame = c.from.elements[fromIndex]!.pointee.frame
    let toFrame = c.to.elements[toIndex]!.pointee.frame
    let zoomIn = toFrame.width * toFrame.height >= fromFrame.width * fromFrame.height
    plan.pointee.scratch.0 = zoomIn ? 1 : 0
    (plan.pointee.scratch.1, plan.pointee.scratch.2, plan.pointee.scratch.3, plan.pointee.scratch.4) =
        (fromFrame.x, fromFrame.y, fromFrame.width, fromFrame.height)
    (plan.pointee.scratch.5, plan.pointee.scratch.6, plan.pointee.scratch.7, plan.pointee.scratch.8) =
        (toFrame.x, toFrame.y, toFrame.width, toFrame.height)
    plan.pointee.duration = c.params[Param.duration.rawValue]
    // Zooming in, the detail view fades in over the grid; zooming out, it fades
    // out over the grid. Either way the travelling image is on top.
    let view = { (kind: segue_layer_kind_t) in
        segue_layer_request_t(kind: UInt32(kind.rawValue), element: 0, mesh_columns: 0, mesh_rows: 0)
    }
    plan.pointee.layer_count = 3
    plan.pointee.layers.0 = view(zoomIn ? SEGUE_LAYER_FROM_VIEW : SEGUE_LAYER_TO_VIEW)
    plan.pointee.layers.1 = view(zoomIn ? SEGUE_LAYER_TO_VIEW : SEGUE_LAYER_FROM_VIEW)
    plan.pointee.layers.2 = segue_layer_request_t(
        kind: UInt32(SEGUE_LAYER_FROM_ELEMENT_SNAPSHOT.rawValue), element: UInt32(fromIndex), mesh_columns: 0, mesh_rows: 0)
    plan.pointee.hidden_count = 2
    plan.pointee.hidden.0 = segue_element_ref_t(side: UInt32(SEGUE_SIDE_FROM.rawValue), element: UInt32(fromIndex))
    plan.pointee.hidden.1 = segue_element_ref_t(side: UInt32(SEGUE_SIDE_TO.rawValue), element: UInt32(toIndex))
    return SEGUE_SETUP_ANIMATE
}

private func evaluate(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                      _ plan: UnsafePointer<segue_plan_t>?, _ t: Double,
                      _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, _ count: UInt32) {
    // Read through the pointers: copying the context or the plan would cost more than the math.
    guard let ctx, let plan, let states, count == 3, let upper = states[1], let image = states[2], let host else { return }
    let duration = plan.pointee.duration
    let progress = host.pointee.curve_value(
        segue_curve_t(rawValue: UInt32(ctx.pointee.params[Param.curve.rawValue])), duration > 0 ? t / duration : 1)
    // Layer 0, the view beneath, rests. Layer 1 is the detail view: placed at
    // finalFrame(to) and fading in when zooming in; fading out when zooming out.
    if plan.pointee.scratch.0 == 1 {
        upper.pointee.frame = ctx.pointee.to_final_frame
        upper.pointee.alpha = progress
    } else {
        upper.pointee.alpha = 1 - progress
    }
    // Layer 2, the snapshot, travels from the cell's image frame (s[1...4]) to the detail image's (s[5...8]).
    let s = UnsafeRawPointer(plan).advanced(by: MemoryLayout<segue_plan_t>.offset(of: \.scratch)!)
        .assumingMemoryBound(to: Double.self)
    image.pointee.frame = segue_rect_t(
        x: s[1] + (s[5] - s[1]) * progress, y: s[2] + (s[6] - s[2]) * progress,
        width: s[3] + (s[7] - s[3]) * progress, height: s[4] + (s[8] - s[4]) * progress)
}
