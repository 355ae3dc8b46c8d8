//! @NAME@: a Segue animator in Zig (0.14). The from view fades out while the to view fades in.
const c = @cImport(@cInclude("segue_animator.h"));

var host: ?*const c.segue_host_t = null;

const duration = c.segue_param_t{
    .struct_size = @sizeOf(c.segue_param_t),
    .name = "duration",
    .explanation = "Length of the transition, in seconds.",
    .type = c.SEGUE_PARAM_NUMBER,
    .default_value = 0.3,
    .min_value = 0.05,
    .max_value = 10,
    .choices = null,
    .choice_count = 0,
};
const params = [_][*c]const c.segue_param_t{&duration};

fn setup(_: [*c]const c.segue_animator_t, ctx: [*c]const c.segue_context_t, plan: [*c]c.segue_plan_t) callconv(.c) c.segue_setup_result_t {
    plan.*.duration = ctx.*.params[0];
    plan.*.layer_count = 2;
    plan.*.layers[0].kind = c.SEGUE_LAYER_FROM_VIEW;
    plan.*.layers[1].kind = c.SEGUE_LAYER_TO_VIEW;
    return c.SEGUE_SETUP_ANIMATE;
}

fn evaluate(_: [*c]const c.segue_animator_t, ctx: [*c]const c.segue_context_t, plan: [*c]const c.segue_plan_t, t: f64, states: [*c]const [*c]c.segue_layer_state_t, _: u32) callconv(.c) void {
    const f = host.?.curve_value.?(c.SEGUE_CURVE_EASE_IN_OUT, t / plan.*.duration);
    states[0].*.frame = ctx.*.from_initial_frame;
    states[0].*.alpha = 1 - f;
    states[1].*.frame = ctx.*.to_final_frame;
    states[1].*.alpha = f;
}

const version = c.segue_version_t{ .major = c.SEGUE_ABI_VERSION_MAJOR, .minor = c.SEGUE_ABI_VERSION_MINOR };
const animator = c.segue_animator_t{
    .abi_version = version,
    .struct_size = @sizeOf(c.segue_animator_t),
    .id = "@ID@",
    .name = "@NAME@",
    .version = "0.1.0",
    .description = "Fades the from view out while the to view fades in.",
    .params = &params,
    .param_count = params.len,
    .setup = setup,
    .evaluate = evaluate,
    .end = null,
    .kinds = 0,
};
const animators = [_][*c]const c.segue_animator_t{&animator};
const plugin = c.segue_plugin_t{
    .abi_version = version,
    .struct_size = @sizeOf(c.segue_plugin_t),
    .animators = &animators,
    .animator_count = animators.len,
};

export fn segue_animator_entry(h: [*c]const c.segue_host_t) [*c]const c.segue_plugin_t {
    if (h == null or h.*.abi_version.major != c.SEGUE_ABI_VERSION_MAJOR) return null;
    host = h;
    return &plugin;
}
