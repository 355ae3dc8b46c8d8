/*
 * MeshLook: a test animator whose arriving page is a mesh (as CurlUp's page
 * is) with the animator ABI 1.4's look on it: a rounded-rectangle clip with
 * a different radius at each corner, a corner radius of its own and a shadow.
 * The page waves sideways more and more as it shrinks towards the middle and
 * grows back over the page it covers, its corners rounding further; its
 * vertices stay in the screen's plane (z 0), so that what a host draws of it
 * is its look, not the shadow a lifted page casts.
 *
 *   cc -std=c11 -shared -fPIC -I Sources/AnimatorABI/include \
 *      -o libMeshLook.so Tests/Fixtures/gtk/mesh_look.c -lm
 */
#include "segue_animator.h"

#include <math.h>

enum { COLUMNS = 8, ROWS = 12 };
static const double pi = 3.14159265358979323846;

static segue_setup_result_t setup(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan) {
    (void)self;
    (void)ctx;
    plan->duration = 1;
    plan->layer_count = 2;
    plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
    plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
    plan->layers[1].mesh_columns = COLUMNS;
    plan->layers[1].mesh_rows = ROWS;
    return SEGUE_SETUP_ANIMATE;
}

static void evaluate(const segue_animator_t *self, const segue_context_t *ctx, const segue_plan_t *plan, double t,
                     segue_layer_state_t *const *states, uint32_t layer_count) {
    (void)self;
    (void)layer_count;
    double f = t / plan->duration;
    segue_layer_state_t *page = states[1];
    segue_rect_t r = ctx->to_final_frame;
    page->frame = r;
    if (page->mesh && page->mesh_vertex_count == (COLUMNS + 1) * (ROWS + 1)) {
        /* Shrunk about the middle to 70% and back to whole, waving sideways. */
        double s = 1 - 0.3 * sin(pi * f);
        for (uint32_t j = 0; j <= ROWS; j++)
            for (uint32_t i = 0; i <= COLUMNS; i++) {
                double u = (double)i / COLUMNS, v = (double)j / ROWS;
                segue_vec3_t *p = &page->mesh[j * (COLUMNS + 1) + i];
                p->x = r.x + r.width * (0.5 + (u - 0.5) * s) + 30 * f * sin(2 * pi * v);
                p->y = r.y + r.height * (0.5 + (v - 0.5) * s);
                p->z = 0;
            }
    }
    if (!SEGUE_STATE_HAS(page, shadow)) return;
    page->corner_radius = 24 + 48 * f;
    page->clip.shape = SEGUE_CLIP_ROUNDED_RECT;
    page->clip.rect = (segue_rect_t){ 30, 40, r.width - 60, r.height - 80 };
    page->clip.radii = (segue_corner_radii_t){ 90, 10, 60, 0 };
    page->shadow = (segue_shadow_t){ .radius = 20, .offset_x = 0, .offset_y = 12, .opacity = 0.6 };
}

static const segue_animator_t mesh_look = {
    .abi_version = SEGUE_ABI_VERSION_INIT,
    .struct_size = sizeof(segue_animator_t),
    .id = "org.segue.test.mesh-look/1",
    .name = "MeshLook",
    .version = "1.0.0",
    .description = "A waving mesh page with a clip, rounded corners and a shadow (a test animator).",
    .setup = setup,
    .evaluate = evaluate,
};

static const segue_animator_t *const animators[] = { &mesh_look };

static const segue_plugin_t plugin = {
    .abi_version = SEGUE_ABI_VERSION_INIT,
    .struct_size = sizeof(segue_plugin_t),
    .animators = animators,
    .animator_count = 1,
};

SEGUE_EXPORT const segue_plugin_t *segue_animator_entry(const segue_host_t *h) {
    if (!segue_version_is_compatible(h->abi_version)) return NULL;
    return &plugin;
}
