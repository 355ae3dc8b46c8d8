// @NAME@: a Segue animator in C++17. The from view fades out while the to view fades in.
#include "segue_animator.h"

namespace {

const segue_host_t *host = nullptr;

segue_param_t durationParam() {
    segue_param_t p{};
    p.struct_size = sizeof(segue_param_t);
    p.name = "duration";
    p.explanation = "Length of the transition, in seconds.";
    p.type = SEGUE_PARAM_NUMBER;
    p.default_value = 0.3;
    p.min_value = 0.05;
    p.max_value = 10;
    return p;
}
const segue_param_t duration = durationParam();
const segue_param_t *const params[] = {&duration};

struct Animator {
    static segue_setup_result_t setup(const segue_animator_t *, const segue_context_t *ctx, segue_plan_t *plan) noexcept {
        plan->duration = ctx->params[0];
        plan->layer_count = 2;
        plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
        plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
        return SEGUE_SETUP_ANIMATE;
    }

    static void evaluate(const segue_animator_t *, const segue_context_t *ctx, const segue_plan_t *plan, double t,
                         segue_layer_state_t *const *states, uint32_t) noexcept {
        const double f = host->curve_value(SEGUE_CURVE_EASE_IN_OUT, t / plan->duration);
        states[0]->frame = ctx->from_initial_frame;
        states[0]->alpha = 1 - f;
        states[1]->frame = ctx->to_final_frame;
        states[1]->alpha = f;
    }
};

segue_animator_t makeAnimator() {
    segue_animator_t a{};
    a.abi_version = SEGUE_ABI_VERSION_INIT;
    a.struct_size = sizeof(segue_animator_t);
    a.id = "@ID@";
    a.name = "@NAME@";
    a.version = "0.1.0";
    a.description = "Fades the from view out while the to view fades in.";
    a.params = params;
    a.param_count = 1;
    a.setup = Animator::setup;
    a.evaluate = Animator::evaluate;
    return a;
}
const segue_animator_t animator = makeAnimator();
const segue_animator_t *const animators[] = {&animator};

segue_plugin_t makePlugin() {
    segue_plugin_t p{};
    p.abi_version = SEGUE_ABI_VERSION_INIT;
    p.struct_size = sizeof(segue_plugin_t);
    p.animators = animators;
    p.animator_count = 1;
    return p;
}
const segue_plugin_t plugin = makePlugin();

}  // namespace

extern "C" SEGUE_EXPORT const segue_plugin_t *segue_animator_entry(const segue_host_t *h) {
    if (!segue_version_is_compatible(h->abi_version)) return nullptr;
    host = h;
    return &plugin;
}
