/* @NAME@: a Segue animator. The from view fades out while the to view fades in. */
#include "segue_animator.h"

static const segue_host_t *host;

static const segue_param_t duration = {
    .struct_size = sizeof(segue_param_t),
    .name = "duration",
    .explanation = "Length of the transition, in seconds.",
    .type = SEGUE_PARAM_NUMBER,
    .default_value = 0.3, .min_value = 0.05, .max_value = 10,
};
static const segue_param_t *const params[] = { &duration };

static segue_setup_result_t setup(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan) {
    (void)self;
    plan->duration = ctx->params[0];
    plan->layer_count = 2;
    plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
    plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
    return SEGUE_SETUP_ANIMATE;
}

static void evaluate(const segue_animator_t *self, const segue_context_t *ctx, const segue_plan_t *plan,
                     double t, segue_layer_state_t *const *states, uint32_t layer_count) {
    (void)self;
    (void)layer_count;
    double f = host->curve_value(SEGUE_CURVE_EASE_IN_OUT, t / plan->duration);
    states[0]->frame = ctx->from_initial_frame;
    states[0]->alpha = 1 - f;
    states[1]->frame = ctx->to_final_frame;
    states[1]->alpha = f;
}

static const segue_animator_t animator = {
    .abi_version = SEGUE_ABI_VERSION_INIT,
    .struct_size = sizeof(segue_animator_t),
    .id = "@ID@",
    .name = "@NAME@",
    .version = "0.1.0",
    .description = "Fades the from view out while the to view fades in.",
    .params = params,
    .param_count = 1,
    .setup = setup,
    .evaluate = evaluate,
};
static const segue_animator_t *const animators[] = { &animator };
static const segue_plugin_t plugin = {
    .abi_version = SEGUE_ABI_VERSION_INIT,
    .struct_size = sizeof(segue_plugin_t),
    .animators = animators,
    .animator_count = 1,
};

SEGUE_EXPORT const segue_plugin_t *segue_animator_entry(const segue_host_t *h) {
    if (!segue_version_is_compatible(h->abi_version)) return NULL;
    host = h;
    return &plugin;
}
