/*
 * Iris: a window (or the view coming in) is revealed by a circle growing
 * from a point, as a camera's iris opens; closing, the circle shrinks back
 * to it. A Segue animator in plain C, using ABI 1.4's clip: the edge is the
 * host's anti-aliased mask, not a mesh pulled onto a rim.
 *
 * The circle grows from the pointer when the host knows where it was (the
 * context's anchor), else from the centre of the anchor's rectangle (the
 * launcher, the element clicked), else from the window's centre; it ends
 * where it covers the whole window. On a host older than 1.4 (no room for a
 * clip in its states) the window fades instead.
 *
 * Build it with nothing but the header:
 *   cc -std=c11 -shared -fPIC -Wl,-z,defs -I Sources/AnimatorABI/include \
 *      -o libIris.so Examples/iris-animator/iris.c -lm
 */
#include "segue_animator.h"

#include <math.h>
#include <stddef.h>

static const segue_host_t *host;

enum { PARAM_DURATION, PARAM_CURVE, PARAM_COUNT };

static const segue_param_t duration_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "duration",
    .explanation = "Length of the transition, in seconds.",
    .type = SEGUE_PARAM_NUMBER,
    .default_value = 0.45, .min_value = 0.05, .max_value = 10,
};

static const segue_param_t curve_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "curve",
    .explanation = "Timing curve of the circle's radius as it opens; a close runs it backwards.",
    .type = SEGUE_PARAM_CURVE,
    .default_value = SEGUE_CURVE_EASE_IN_OUT, .min_value = 0, .max_value = 4,
};

static const segue_param_t *const params[PARAM_COUNT] = { &duration_param, &curve_param };

/* The layer that is revealed: the arriving view, except in a disappearance, where the leaving one is hidden again. */
static bool closing(const segue_context_t *ctx) { return ctx->kind == SEGUE_TRANSITION_DISAPPEAR; }

static segue_setup_result_t setup(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan) {
    (void)self;
    plan->duration = ctx->params[PARAM_DURATION];
    if (ctx->kind == SEGUE_TRANSITION_SWITCH) {
        /* The from view stays put beneath; the to view, at its final frame, is revealed over it. */
        plan->layer_count = 2;
        plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
        plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
    } else {
        plan->layer_count = 1;
        plan->layers[0].kind = closing(ctx) ? SEGUE_LAYER_FROM_VIEW : SEGUE_LAYER_TO_VIEW;
    }
    return SEGUE_SETUP_ANIMATE;
}

static double farthest(double cx, double cy, double w, double h) {
    double dx = cx > w - cx ? cx : w - cx, dy = cy > h - cy ? cy : h - cy;
    return sqrt(dx * dx + dy * dy);
}

static void evaluate(const segue_animator_t *self, const segue_context_t *ctx, const segue_plan_t *plan,
                     double t, segue_layer_state_t *const *states, uint32_t layer_count) {
    (void)self;
    segue_layer_state_t *state = states[layer_count - 1];
    if (ctx->kind == SEGUE_TRANSITION_SWITCH) state->frame = ctx->to_final_frame;
    segue_cubic_bezier_t c = ctx->curves[PARAM_CURVE];
    double fraction = t / plan->duration;
    double open = host->cubic_bezier_value(c.x1, c.y1, c.x2, c.y2, closing(ctx) ? 1 - fraction : fraction);
    if (!SEGUE_STATE_HAS(state, clip)) {
        state->alpha = open < 0 ? 0 : open > 1 ? 1 : open;
        return;
    }
    /* The centre, in the layer's own coordinates (its frame's top-left is 0, 0): read each part of the anchor only when flagged. */
    const segue_rect_t f = state->frame;
    double cx = f.width / 2, cy = f.height / 2;
    if (SEGUE_CONTEXT_HAS(ctx, anchor) && ctx->anchor.has_point) {
        cx = ctx->anchor.point_x - f.x;
        cy = ctx->anchor.point_y - f.y;
    } else if (SEGUE_CONTEXT_HAS(ctx, anchor) && ctx->anchor.has_rect) {
        cx = ctx->anchor.rect.x + ctx->anchor.rect.width / 2 - f.x;
        cy = ctx->anchor.rect.y + ctx->anchor.rect.height / 2 - f.y;
    }
    double r = farthest(cx, cy, f.width, f.height) * (open < 0 ? 0 : open);
    state->clip.shape = SEGUE_CLIP_ELLIPSE;
    state->clip.rect = (segue_rect_t){ cx - r, cy - r, 2 * r, 2 * r };
}

static const segue_animator_t iris = {
    .abi_version = SEGUE_ABI_VERSION_INIT,
    .struct_size = sizeof(segue_animator_t),
    .id = "org.segue.example.iris/1",
    .name = "Iris",
    .version = "1.0.0",
    .description = "A circle growing from the pointer (or the window's centre) reveals the window; closing, it shrinks back.",
    .params = params,
    .param_count = PARAM_COUNT,
    .setup = setup,
    .evaluate = evaluate,
    .end = NULL,
    .kinds = SEGUE_KIND_BIT(SEGUE_TRANSITION_SWITCH) | SEGUE_KIND_BIT(SEGUE_TRANSITION_APPEAR)
           | SEGUE_KIND_BIT(SEGUE_TRANSITION_DISAPPEAR),
};

static const segue_animator_t *const animators[] = { &iris };

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
