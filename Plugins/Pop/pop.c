/*
 * Pop: a window opening scales up from a little smaller and fades in; closing,
 * it scales down and fades out, as desktops animate windows (KWin's "scale",
 * GNOME Shell's window open). Written for appearances and disappearances only
 * (ABI 1.3's kinds): Segue's built-in default runs switches instead.
 *
 * Plain C, with nothing but the animator header.
 */
#include "segue_animator.h"

#include <stddef.h>

static const segue_host_t *host;

enum { PARAM_DURATION, PARAM_SCALE, PARAM_CURVE, PARAM_COUNT };

static const segue_param_t duration_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "duration",
    .explanation = "Length of the animation, in seconds.",
    .type = SEGUE_PARAM_NUMBER,
    .default_value = 0.25, .min_value = 0.05, .max_value = 5,
};

static const segue_param_t scale_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "scale",
    .explanation = "How large the window is when it is invisible: it opens from this and closes to it (1 fades only).",
    .type = SEGUE_PARAM_NUMBER,
    .default_value = 0.8, .min_value = 0.1, .max_value = 1.5,
};

static const segue_param_t curve_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "curve",
    .explanation = "Timing curve of the opening; a close is the opening run backwards.",
    .type = SEGUE_PARAM_CURVE,
    .default_value = SEGUE_CURVE_EASE_OUT, .min_value = 0, .max_value = 4,
};

static const segue_param_t *const params[PARAM_COUNT] = { &duration_param, &scale_param, &curve_param };

static bool opening(const segue_context_t *ctx) { return ctx->kind == SEGUE_TRANSITION_APPEAR; }

static segue_setup_result_t setup(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan) {
    (void)self;
    plan->duration = ctx->params[PARAM_DURATION];
    plan->layer_count = 1;
    plan->layers[0].kind = opening(ctx) ? SEGUE_LAYER_TO_VIEW : SEGUE_LAYER_FROM_VIEW;
    return SEGUE_SETUP_ANIMATE;
}

static void evaluate(const segue_animator_t *self, const segue_context_t *ctx, const segue_plan_t *plan,
                     double t, segue_layer_state_t *const *states, uint32_t layer_count) {
    (void)self;
    (void)layer_count; /* always 1 */
    segue_cubic_bezier_t c = ctx->curves[PARAM_CURVE];
    double fraction = t / plan->duration;
    /* How visible the window is: 0 invisible, 1 at rest. A close is the open run backwards in time. */
    double shown = host->cubic_bezier_value(c.x1, c.y1, c.x2, c.y2, opening(ctx) ? fraction : 1 - fraction);
    double s = ctx->params[PARAM_SCALE] + (1 - ctx->params[PARAM_SCALE]) * shown;
    segue_transform3d_t m = SEGUE_TRANSFORM3D_IDENTITY;
    m.m[0] = s;
    m.m[5] = s;
    states[0]->transform = m;
    states[0]->alpha = shown < 0 ? 0 : shown > 1 ? 1 : shown;
}

static const segue_animator_t pop = {
    .abi_version = SEGUE_ABI_VERSION_INIT,
    .struct_size = sizeof(segue_animator_t),
    .id = "org.segue.pop/1",
    .name = "Pop",
    .version = "1.0.0",
    .description = "A window opening grows from a little smaller and fades in; closing, it shrinks and fades out.",
    .params = params,
    .param_count = PARAM_COUNT,
    .setup = setup,
    .evaluate = evaluate,
    .end = NULL,
    .kinds = SEGUE_KIND_BIT(SEGUE_TRANSITION_APPEAR) | SEGUE_KIND_BIT(SEGUE_TRANSITION_DISAPPEAR),
};

static const segue_animator_t *const animators[] = { &pop };

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
