/* SegueGtkStack's drawing of a transition: each layer of the animator's plan, in z order, as the page's
 * or element's render node moved by GtkSnapshot (flat), or as a mesh drawn through GL. */
#define G_LOG_DOMAIN "SegueGtk"
#include "seguegtkstack-private.h"

#include <gsk/gl/gskglrenderer.h>
#include <math.h>

/* The content a layer shows, as it rests, drawn at its place in the container. */
static void snapshot_content(SegueGtkStack *self, const segue_layer_request_t *layer, GtkSnapshot *snapshot) {
    Playing *p = self->playing;
    switch (layer->kind) {
    case SEGUE_LAYER_FROM_VIEW:
    case SEGUE_LAYER_TO_VIEW:
        gtk_widget_snapshot_child(GTK_WIDGET(self), (layer->kind == SEGUE_LAYER_FROM_VIEW ? p->from : p->to)->widget, snapshot);
        return;
    default: {
        uint32_t side = layer->kind == SEGUE_LAYER_TO_ELEMENT_SNAPSHOT;
        if (layer->element >= p->element_count[side]) return;
        segue_rect_t f = p->described[side][layer->element].frame;
        gtk_snapshot_save(snapshot);
        gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)f.x, (float)f.y));
        gdk_paintable_snapshot(p->pictures[side][layer->element], snapshot, f.width, f.height);
        gtk_snapshot_restore(snapshot);
    }
    }
}

/* Moves @snapshot by the affine map @a (xx, yx, xy, yy, x0, y0) as a transform GSK knows to be 2D. A
 * matrix handed to GtkSnapshot is of unknown kind: the cairo renderer draws its pink box for it, and the
 * GL renderer draws the content offscreen first. A translation and a scale go in as such; any other
 * affine map as CSS's matrix(), which GSK parses as 2D. */
static void transform_2d(GtkSnapshot *snapshot, const double a[6]) {
    gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)a[4], (float)a[5]));
    if (a[1] == 0 && a[2] == 0) {
        if (a[0] != 1 || a[3] != 1) gtk_snapshot_scale(snapshot, (float)a[0], (float)a[3]);
        return;
    }
    char css[256], number[G_ASCII_DTOSTR_BUF_SIZE];
    g_strlcpy(css, "matrix(", sizeof css);
    for (int i = 0; i < 4; i++) {
        g_strlcat(css, g_ascii_formatd(number, sizeof number, "%.9g", a[i]), sizeof css);
        g_strlcat(css, ",", sizeof css);
    }
    g_strlcat(css, "0,0)", sizeof css);
    GskTransform *affine = NULL;
    if (gsk_transform_parse(css, &affine)) gtk_snapshot_transform(snapshot, affine);
    gsk_transform_unref(affine);
}

/* The affine map (xx, yx, xy, yy, x0, y0, about the frame's centre) that takes three corners of frame @f
 * where the state's transform, perspective divided, takes them; FALSE when one lies behind the eye. */
static gboolean affine_of_corners(const segue_layer_state_t *state, segue_rect_t f, double a[6]) {
    const double corners[3][2] = { { -f.width / 2, -f.height / 2 }, { f.width / 2, -f.height / 2 }, { -f.width / 2, f.height / 2 } };
    double at[3][2];
    const double *t = state->transform.m;
    for (int i = 0; i < 3; i++) {
        double x = corners[i][0], y = corners[i][1], w = x * t[3] + y * t[7] + t[15];
        if (!(w > 1e-9)) return FALSE;
        at[i][0] = (x * t[0] + y * t[4] + t[12]) / w;
        at[i][1] = (x * t[1] + y * t[5] + t[13]) / w;
    }
    a[0] = (at[1][0] - at[0][0]) / f.width;
    a[1] = (at[1][1] - at[0][1]) / f.width;
    a[2] = (at[2][0] - at[0][0]) / f.height;
    a[3] = (at[2][1] - at[0][1]) / f.height;
    a[4] = at[0][0] + f.width / 2 * a[0] + f.height / 2 * a[2];
    a[5] = at[0][1] + f.width / 2 * a[1] + f.height / 2 * a[3];
    return TRUE;
}

/* A flat layer: the content moved from where it rests onto the state's frame, then the transform about
 * the frame's centre. With @affine_only (the cairo renderer), a transform in perspective becomes the
 * affine map of three of its projected corners. */
static void snapshot_flat(const segue_drawn_layer_t *layer, gboolean affine_only, GtkSnapshot *snapshot, GskRenderNode *content) {
    const segue_layer_state_t *state = &layer->state;
    segue_rect_t rest = layer->resting_frame, f = state->frame;
    if (rest.width <= 0 || rest.height <= 0 || f.width <= 0 || f.height <= 0) return;
    float m[16];
    for (int i = 0; i < 16; i++) m[i] = (float)state->transform.m[i];
    graphene_matrix_t matrix;
    graphene_matrix_init_from_float(&matrix, m);
    gtk_snapshot_save(snapshot);
    gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)(f.x + f.width / 2), (float)(f.y + f.height / 2)));
    double a[6];
    if (graphene_matrix_is_2d(&matrix)) {
        graphene_matrix_to_2d(&matrix, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]);
        transform_2d(snapshot, a);
    } else if (!affine_only) {
        gtk_snapshot_transform_matrix(snapshot, &matrix);
    } else if (affine_of_corners(state, f, a)) {
        transform_2d(snapshot, a);
    } else {
        gtk_snapshot_restore(snapshot);
        return;
    }
    gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)(-f.width / 2), (float)(-f.height / 2)));
    gtk_snapshot_scale(snapshot, (float)(f.width / rest.width), (float)(f.height / rest.height));
    gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)-rest.x, (float)-rest.y));
    gtk_snapshot_push_clip(snapshot, &GRAPHENE_RECT_INIT((float)rest.x, (float)rest.y, (float)rest.width, (float)rest.height));
    gtk_snapshot_push_opacity(snapshot, fmin(fmax(state->alpha, 0), 1));
    gtk_snapshot_append_node(snapshot, content);
    gtk_snapshot_pop(snapshot);
    gtk_snapshot_pop(snapshot);
    gtk_snapshot_restore(snapshot);
}

/* A layer with a mesh through GL: its content, at rest, as a picture once per transition, drawn as the mesh's triangles. */
static gboolean snapshot_mesh(SegueGtkStack *self, const segue_drawn_layer_t *layer, GskRenderer *renderer, GtkSnapshot *snapshot,
                              GskRenderNode *content) {
    Playing *p = self->playing;
    guint index = layer->plan_index; /* the mesh's picture slot: one per plan layer */
    if (!self->mesh && !self->mesh_failed) {
        GError *error = NULL;
        self->mesh = segue_gtk_mesh_new(gtk_widget_get_display(GTK_WIDGET(self)), &error);
        if (!self->mesh) {
            g_warning("meshes are drawn flat: %s", error ? error->message : "no GL");
            g_clear_error(&error);
            self->mesh_failed = TRUE;
        }
    }
    if (!self->mesh) return FALSE;
    int scale = gtk_widget_get_scale_factor(GTK_WIDGET(self));
    if (!segue_gtk_mesh_has_picture(self->mesh, index)) {
        GskTransform *zoom = gsk_transform_scale(NULL, (float)scale, (float)scale);
        GskRenderNode *scaled = zoom ? gsk_transform_node_new(content, zoom) : gsk_render_node_ref(content);
        gsk_transform_unref(zoom);
        GdkTexture *picture = gsk_renderer_render_texture(renderer, scaled,
                                                          &GRAPHENE_RECT_INIT(0, 0, (float)(p->width * scale), (float)(p->height * scale)));
        segue_gtk_mesh_set_picture(self->mesh, index, picture);
        g_object_unref(picture);
        gsk_render_node_unref(scaled);
    }
    GdkTexture *drawn = segue_gtk_mesh_draw(self->mesh, index, &layer->state, layer->request.mesh_columns, layer->request.mesh_rows,
                                            (int)p->width, (int)p->height, scale);
    if (drawn) {
        gtk_snapshot_append_texture(snapshot, drawn, &GRAPHENE_RECT_INIT(0, 0, (float)p->width, (float)p->height));
        g_object_unref(drawn);
    }
    return TRUE;
}

void segue_gtk_stack_snapshot_transition(SegueGtkStack *self, GtkSnapshot *snapshot) {
    Playing *p = self->playing;
    GskRenderer *renderer = gtk_native_get_renderer(gtk_widget_get_native(GTK_WIDGET(self)));
    gboolean gl = GSK_IS_GL_RENDERER(renderer), affine_only = renderer == NULL || GSK_IS_CAIRO_RENDERER(renderer);
    gtk_snapshot_push_clip(snapshot, &GRAPHENE_RECT_INIT(0, 0, (float)p->width, (float)p->height));
    /* Back to front, as libsegue's sampler hands them. */
    for (uint32_t k = 0; p->sampler && k < p->layer_count; k++) {
        segue_drawn_layer_t layer = { .struct_size = sizeof layer };
        if (segue_sampler_layer(p->sampler, k, &layer) != SEGUE_OK || !layer.visible) continue;
        GtkSnapshot *inner = gtk_snapshot_new();
        snapshot_content(self, &layer.request, inner);
        GskRenderNode *content = gtk_snapshot_free_to_node(inner);
        if (!content) continue;
        gboolean drawn = layer.has_mesh && gl && snapshot_mesh(self, &layer, renderer, snapshot, content);
        if (!drawn) snapshot_flat(&layer, affine_only, snapshot, content);
        gsk_render_node_unref(content);
    }
    gtk_snapshot_pop(snapshot);
}

