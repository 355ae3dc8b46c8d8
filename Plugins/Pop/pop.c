/*
 * Pop: a window opening scales up from a little smaller and fades in; closing,
 * it scales down and fades out, as desktops animate windows (KWin's "scale",
 * GNOME Shell's window open). Written for appearances and disappearances only
 * (ABI 1.3's kinds): Segue's built-in default runs switches instead.
 *
 * On a 1.4 host (ABI 1.4's look and anchor) the window is rounded and casts a
 * shadow; it opens from the pointer when the host knows where it was (growing
 * about it rather than about its centre), opens out of the launcher's
 * rectangle when known, and a minimize (a disappearance with a known target
 * rectangle: the task-bar entry) shrinks into that rectangle.
 *
 * Plain C, with nothing but the animator header.
 */
#include "segue_animator.h"

#include <stddef.h>

static const segue_host_t *host;

enum { PARAM_DURATION, PARAM_SCALE, PARAM_CURVE, PARAM_CORNERS, PARAM_SHADOW, PARAM_COUNT };

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

static const segue_param_t corners_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "corner_radius",
    .explanation = "Radius of the window's rounded corners while it moves, in points (0: square).",
    .type = SEGUE_PARAM_NUMBER,
    .default_value = 12, .min_value = 0, .max_value = 64,
};

static const segue_param_t shadow_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "shadow",
    .explanation = "Blur radius of the shadow the window casts while it moves, in points (0: none).",
    .type = SEGUE_PARAM_NUMBER,
    .default_value = 24, .min_value = 0, .max_value = 200,
};

static const segue_param_t *const params[PARAM_COUNT] = { &duration_param, &scale_param, &curve_param, &corners_param, &shadow_param };

static bool opening(const segue_context_t *ctx) { return ctx->kind == SEGUE_TRANSITION_APPEAR; }

/* The anchor's rectangle, when the host gave one: a minimize's task-bar entry, or the launcher an opening came from. */
static const segue_rect_t *anchor_rect(const segue_context_t *ctx) {
    if (!SEGUE_CONTEXT_HAS(ctx, anchor) || !ctx->anchor.has_rect) return NULL;
    const segue_rect_t *r = &ctx->anchor.rect;
    return r->width > 0 && r->height > 0 ? r : NULL;
}

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
    segue_layer_state_t *state = states[0];
    const segue_rect_t f = state->frame;
    double sx = s, sy = s, dx = 0, dy = 0;
    double alpha = shown < 0 ? 0 : shown > 1 ? 1 : shown;
    const segue_rect_t *target = anchor_rect(ctx);
    if (target && f.width > 0 && f.height > 0) {
        /* Into (or out of) the rectangle: the frame's centre moves onto its centre and the window takes its size. */
        double away = 1 - shown;
        sx = 1 + (target->width / f.width - 1) * away;
        sy = 1 + (target->height / f.height - 1) * away;
        dx = (target->x + target->width / 2 - (f.x + f.width / 2)) * away;
        dy = (target->y + target->height / 2 - (f.y + f.height / 2)) * away;
        alpha = shown * 3 > 1 ? 1 : shown * 3; /* seen all the way in, fading only in its last third */
    } else if (opening(ctx) && SEGUE_CONTEXT_HAS(ctx, anchor) && ctx->anchor.has_point) {
        /* Growing about the pointer: the point under it stays where it is while the window scales. */
        dx = (ctx->anchor.point_x - (f.x + f.width / 2)) * (1 - s);
        dy = (ctx->anchor.point_y - (f.y + f.height / 2)) * (1 - s);
    }
    segue_transform3d_t m = SEGUE_TRANSFORM3D_IDENTITY;
    m.m[0] = sx;
    m.m[5] = sy;
    m.m[12] = dx;
    m.m[13] = dy;
    state->transform = m;
    state->alpha = alpha;
    if (SEGUE_STATE_HAS(state, shadow)) {
        /* Rounded, with a soft shadow below: in the window's own points, so corners keep their size as it scales. */
        double radius = ctx->params[PARAM_CORNERS];
        double smaller = sx < sy ? sx : sy;
        double half = (f.width < f.height ? f.width : f.height) / 2; /* no rounder than a pill */
        radius = smaller > 0.05 ? radius / smaller : radius;
        state->corner_radius = radius < half ? radius : half > 0 ? half : 0;
        double blur = ctx->params[PARAM_SHADOW];
        if (blur > 0) {
            state->shadow.radius = blur;
            state->shadow.offset_y = blur / 3;
            state->shadow.opacity = 0.4;
        }
    }
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
