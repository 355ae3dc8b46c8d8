/*
 * CurveSlide: a plain slide on a chosen timing curve, as a Segue animator in plain C.
 *
 * The to view starts one container width off-screen and slides to its final
 * frame while the from view leaves on the other side; the direction comes from
 * the frames the host computed. The timing curve is a parameter.
 *
 * Build it with nothing but the header:
 *   cc -std=c11 -shared -fPIC -I Sources/AnimatorABI/include \
 *      -o libCurveSlide.so Examples/c-animator/curve_slide.c
 */
#include "segue_animator.h"

#include <stddef.h>

static const segue_host_t *host;

enum { PARAM_DURATION, PARAM_CURVE, PARAM_COUNT };

static const char *const curve_names[] = { "linear", "easeIn", "easeOut", "easeInOut" };

static const segue_param_t duration_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "duration",
    .explanation = "Length of the transition, in seconds.",
    .type = SEGUE_PARAM_NUMBER,
    .default_value = 0.4, .min_value = 0.05, .max_value = 10,
};

static const segue_param_t curve_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "curve",
    .explanation = "Timing curve of the slide.",
    .type = SEGUE_PARAM_CHOICE,
    .default_value = 3, .min_value = 0, .max_value = 3,
    .choices = curve_names, .choice_count = 4,
};

static const segue_param_t *const params[PARAM_COUNT] = { &duration_param, &curve_param };

static segue_rect_t lerp(segue_rect_t a, segue_rect_t b, double f) {
    segue_rect_t r = { a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f,
                       a.width + (b.width - a.width) * f, a.height + (b.height - a.height) * f };
    return r;
}

static segue_setup_result_t setup(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan) {
    (void)self;
    plan->duration = ctx->params[PARAM_DURATION];
    plan->layer_count = 2;
    plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
    plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
    return SEGUE_SETUP_ANIMATE;
}

static void evaluate(const segue_animator_t *self, const segue_context_t *ctx, const segue_plan_t *plan,
                     double t, segue_layer_state_t *const *states, uint32_t layer_count) {
    (void)self;
    (void)layer_count; /* always plan->layer_count: 2 */
    double f = host->curve_value((segue_curve_t)ctx->params[PARAM_CURVE], t / plan->duration);
    states[0]->frame = lerp(ctx->from_initial_frame, ctx->from_final_frame, f);
    states[1]->frame = lerp(ctx->to_initial_frame, ctx->to_final_frame, f);
}

static const segue_animator_t curve_slide = {
    .abi_version = SEGUE_ABI_VERSION_INIT,
    .struct_size = sizeof(segue_animator_t),
    .id = "org.segue.example.curve-slide/1",
    .name = "CurveSlide",
    .version = "1.0.0",
    .description = "Slides the children past each other on a chosen timing curve.",
    .params = params,
    .param_count = PARAM_COUNT,
    .setup = setup,
    .evaluate = evaluate,
    .end = NULL,
};

static const segue_animator_t *const animators[] = { &curve_slide };

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
