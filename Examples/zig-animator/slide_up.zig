//! SlideUp: the to view slides up from the bottom edge over the from view,
//! which fades beneath it: a Segue animator in Zig.
//!
//! The header's types come through @cImport of the header as it is; the
//! callbacks use the C calling convention; the descriptors are compile-time
//! constants, so they live as long as the library.
const c = @cImport(@cInclude("segue_animator.h"));

var host: ?*const c.segue_host_t = null;

const duration_param = c.segue_param_t{
    .struct_size = @sizeOf(c.segue_param_t),
    .name = "duration",
    .explanation = "Length of the transition, in seconds.",
    .type = c.SEGUE_PARAM_NUMBER,
    .default_value = 0.45,
    .min_value = 0.05,
    .max_value = 10,
    .choices = null,
    .choice_count = 0,
};

const fade_param = c.segue_param_t{
    .struct_size = @sizeOf(c.segue_param_t),
    .name = "fade",
    .explanation = "How far the from view fades beneath the rising one, from 0 (not at all) to 1 (entirely).",
    .type = c.SEGUE_PARAM_NUMBER,
    .default_value = 0.5,
    .min_value = 0,
    .max_value = 1,
    .choices = null,
    .choice_count = 0,
};

const params = [_][*c]const c.segue_param_t{ &duration_param, &fade_param };

fn setup(_: [*c]const c.segue_animator_t, ctx: [*c]const c.segue_context_t, plan: [*c]c.segue_plan_t) callconv(.c) c.segue_setup_result_t {
    plan.*.duration = ctx.*.params[0];
    plan.*.layer_count = 2;
    plan.*.layers[0].kind = c.SEGUE_LAYER_FROM_VIEW;
    plan.*.layers[1].kind = c.SEGUE_LAYER_TO_VIEW;
    return c.SEGUE_SETUP_ANIMATE;
}

fn evaluate(_: [*c]const c.segue_animator_t, ctx: [*c]const c.segue_context_t, plan: [*c]const c.segue_plan_t, t: f64, states: [*c]const [*c]c.segue_layer_state_t, _: u32) callconv(.c) void {
    const curve = host.?.curve_value.?;
    const f = curve(c.SEGUE_CURVE_EASE_OUT, t / plan.*.duration);
    const from = states[0];
    const to = states[1];
    const bounds = ctx.*.container_bounds;
    from.*.frame = ctx.*.from_initial_frame;
    from.*.alpha = 1 - ctx.*.params[1] * f;
    to.*.frame = ctx.*.to_final_frame;
    to.*.frame.y = ctx.*.to_final_frame.y + (1 - f) * bounds.height;
}

const animator = c.segue_animator_t{
    .abi_version = .{ .major = c.SEGUE_ABI_VERSION_MAJOR, .minor = c.SEGUE_ABI_VERSION_MINOR },
    .struct_size = @sizeOf(c.segue_animator_t),
    .id = "org.segue.example.slide-up/1",
    .name = "SlideUp",
    .version = "1.0.0",
    .description = "Slides the to view up from the bottom edge over the from view, which fades beneath it.",
    .params = &params,
    .param_count = params.len,
    .setup = setup,
    .evaluate = evaluate,
    .end = null,
    .kinds = 0,
};

const animators = [_][*c]const c.segue_animator_t{&animator};

const plugin = c.segue_plugin_t{
    .abi_version = .{ .major = c.SEGUE_ABI_VERSION_MAJOR, .minor = c.SEGUE_ABI_VERSION_MINOR },
    .struct_size = @sizeOf(c.segue_plugin_t),
    .animators = &animators,
    .animator_count = animators.len,
};

/// The plugin's one export.
export fn segue_animator_entry(h: [*c]const c.segue_host_t) [*c]const c.segue_plugin_t {
    if (h == null or h.*.abi_version.major != c.SEGUE_ABI_VERSION_MAJOR) return null;
    host = h;
    return &plugin;
}
