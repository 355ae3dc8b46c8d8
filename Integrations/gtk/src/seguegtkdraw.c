/* SegueGtkStack's drawing of a transition: each layer of the animator's plan, in z order, as the page's
 * or element's render node moved by GtkSnapshot (flat), or as a mesh drawn through GL. A flat layer's look
 * (the animator ABI 1.4's corner radius and clip) is a rounded clip, its shadow GTK's outset shadow; a mesh's
 * corner radius and clip cut its picture in the mesh's shader, and it casts only its lifted cells' shadow, not
 * its look's (as in Segue's renderer). */
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

/* The affine map (xx, yx, xy, yy, x0, y0) that takes three corners of @rest where the projective @map takes
 * them; FALSE when one lies behind the eye. */
static gboolean affine_of_corners(const double map[9], segue_rect_t rest, double a[6]) {
    const double corners[3][2] = { { rest.x, rest.y }, { rest.x + rest.width, rest.y }, { rest.x, rest.y + rest.height } };
    double at[3][2];
    for (int i = 0; i < 3; i++) {
        double x = corners[i][0], y = corners[i][1], w = map[6] * x + map[7] * y + map[8];
        if (!(w > 1e-9)) return FALSE;
        at[i][0] = (map[0] * x + map[1] * y + map[2]) / w;
        at[i][1] = (map[3] * x + map[4] * y + map[5]) / w;
    }
    a[0] = (at[1][0] - at[0][0]) / rest.width;
    a[1] = (at[1][1] - at[0][1]) / rest.width;
    a[2] = (at[2][0] - at[0][0]) / rest.height;
    a[3] = (at[2][1] - at[0][1]) / rest.height;
    a[4] = at[0][0] - a[0] * rest.x - a[2] * rest.y;
    a[5] = at[0][1] - a[1] * rest.x - a[3] * rest.y;
    return TRUE;
}

/* @r, a rectangle in the layer's own coordinates (its frame's top-left at 0, 0; the animator ABI 1.4's clip), in
 * the content's, where it rests: scaled by @sx, @sy from the frame to the resting frame @rest. */
static graphene_rect_t resting(segue_rect_t r, segue_rect_t rest, double sx, double sy) {
    return GRAPHENE_RECT_INIT((float)(rest.x + r.x * sx), (float)(rest.y + r.y * sy), (float)(r.width * sx), (float)(r.height * sy));
}

/* Whether @inner's outline lies within @outer (points along its straight sides and round its corners). */
static gboolean rounded_within(const GskRoundedRect *inner, const GskRoundedRect *outer) {
    const graphene_rect_t *b = &inner->bounds;
    /* The corners' centres and which way each looks: top-left, top-right, bottom-right, bottom-left (GSK's order). */
    const float cx[4] = { b->origin.x + inner->corner[0].width, b->origin.x + b->size.width - inner->corner[1].width,
                          b->origin.x + b->size.width - inner->corner[2].width, b->origin.x + inner->corner[3].width };
    const float cy[4] = { b->origin.y + inner->corner[0].height, b->origin.y + inner->corner[1].height,
                          b->origin.y + b->size.height - inner->corner[2].height, b->origin.y + b->size.height - inner->corner[3].height };
    const float dx[4] = { -1, 1, 1, -1 }, dy[4] = { -1, -1, 1, 1 };
    enum { STEPS = 8 };
    for (int c = 0; c < 4; c++) {
        for (int k = 0; k <= STEPS; k++) {
            float a = (float)(G_PI / 2 * k / STEPS);
            /* A hair inside the outline: a point on a shared side counts as within. */
            graphene_point_t p = GRAPHENE_POINT_INIT(cx[c] + dx[c] * (inner->corner[c].width * cosf(a) - 0.01f),
                                                     cy[c] + dy[c] * (inner->corner[c].height * sinf(a) - 0.01f));
            if (!gsk_rounded_rect_contains_point(outer, &p)) return FALSE;
        }
    }
    return TRUE;
}

/* Pushes the layer's look (ABI 1.4: its corner radius, then its clip) as rounded clips, and appends its shadow
 * beneath; how many clips it pushed. Radii come clamped from libsegue. */
static int push_look(const segue_drawn_layer_t *layer, const double linear[4], GtkSnapshot *snapshot) {
    const segue_layer_state_t *state = &layer->state;
    segue_rect_t rest = layer->resting_frame, frame = state->frame;
    double sx = frame.width > 0 ? rest.width / frame.width : 1, sy = frame.height > 0 ? rest.height / frame.height : 1;
    GskRoundedRect outline;
    float r = (float)state->corner_radius;
    gsk_rounded_rect_init(&outline, &GRAPHENE_RECT_INIT((float)rest.x, (float)rest.y, (float)rest.width, (float)rest.height),
                          &GRAPHENE_SIZE_INIT(r * (float)sx, r * (float)sy), &GRAPHENE_SIZE_INIT(r * (float)sx, r * (float)sy),
                          &GRAPHENE_SIZE_INIT(r * (float)sx, r * (float)sy), &GRAPHENE_SIZE_INIT(r * (float)sx, r * (float)sy));
    const segue_clip_t *clip = &state->clip;
    gboolean clipped = clip->shape == SEGUE_CLIP_ROUNDED_RECT || clip->shape == SEGUE_CLIP_ELLIPSE;
    GskRoundedRect shape;
    if (clipped) {
        graphene_rect_t box = resting(clip->rect, rest, sx, sy);
        const segue_corner_radii_t *c = &clip->radii;
        if (clip->shape == SEGUE_CLIP_ELLIPSE) {
            graphene_size_t half = GRAPHENE_SIZE_INIT(box.size.width / 2, box.size.height / 2);
            gsk_rounded_rect_init(&shape, &box, &half, &half, &half, &half);
        } else {
            gsk_rounded_rect_init(&shape, &box, &GRAPHENE_SIZE_INIT((float)(c->top_left * sx), (float)(c->top_left * sy)),
                                  &GRAPHENE_SIZE_INIT((float)(c->top_right * sx), (float)(c->top_right * sy)),
                                  &GRAPHENE_SIZE_INIT((float)(c->bottom_right * sx), (float)(c->bottom_right * sy)),
                                  &GRAPHENE_SIZE_INIT((float)(c->bottom_left * sx), (float)(c->bottom_left * sy)));
        }
    }
    if (state->shadow.opacity > 0) {
        /* Its offset is in the container's points, after the map: taken back through the map's linear part. */
        double det = linear[0] * linear[3] - linear[1] * linear[2], dx = state->shadow.offset_x, dy = state->shadow.offset_y;
        double ox = det != 0 ? (linear[3] * dx - linear[2] * dy) / det : dx, oy = det != 0 ? (-linear[1] * dx + linear[0] * dy) / det : dy;
        double scale = sqrt(fabs(det)) > 1e-6 ? sqrt(fabs(det)) : 1;
        GdkRGBA color = { (float)state->shadow.red, (float)state->shadow.green, (float)state->shadow.blue, (float)state->shadow.opacity };
        /* The layer's silhouette is its rounded frame cut to its clip: the clip, when that lies within the frame. */
        const GskRoundedRect *silhouette = clipped && rounded_within(&shape, &outline) ? &shape : &outline;
        gtk_snapshot_append_outset_shadow(snapshot, silhouette, &color, (float)ox, (float)oy, 0, (float)(state->shadow.radius / scale));
    }
    int pushed = 0;
    if (r > 0) {
        gtk_snapshot_push_rounded_clip(snapshot, &outline);
        pushed++;
    }
    if (clipped) {
        gtk_snapshot_push_rounded_clip(snapshot, &shape);
        pushed++;
    }
    return pushed;
}

/* A flat layer: its content, where it rests, moved by libsegue's map. With @affine_only (the cairo renderer),
 * a map in perspective becomes the affine map of three of its projected corners. */
static void snapshot_flat(const segue_drawn_layer_t *layer, gboolean affine_only, GtkSnapshot *snapshot, GskRenderNode *content) {
    const double *m = layer->map;
    segue_rect_t rest = layer->resting_frame;
    if (rest.width <= 0 || rest.height <= 0) return;
    double a[6];
    gtk_snapshot_save(snapshot);
    if (m[6] == 0 && m[7] == 0 && m[8] == 1) {
        const double affine[6] = { m[0], m[3], m[1], m[4], m[2], m[5] };
        transform_2d(snapshot, affine);
    } else if (!affine_only) {
        /* The 3x3 in the x, y and w rows and columns, as graphene's row vectors take it. */
        graphene_matrix_t matrix;
        graphene_matrix_init_from_float(&matrix, (float[16]){ (float)m[0], (float)m[3], 0, (float)m[6], (float)m[1], (float)m[4], 0, (float)m[7],
                                                              0, 0, 1, 0, (float)m[2], (float)m[5], 0, (float)m[8] });
        gtk_snapshot_transform_matrix(snapshot, &matrix);
    } else if (affine_of_corners(m, rest, a)) {
        transform_2d(snapshot, a);
    } else {
        gtk_snapshot_restore(snapshot);
        return;
    }
    gtk_snapshot_push_opacity(snapshot, fmin(fmax(layer->state.alpha, 0), 1));
    const double linear[4] = { m[0], m[3], m[1], m[4] };
    int look = push_look(layer, linear, snapshot);
    gtk_snapshot_push_clip(snapshot, &GRAPHENE_RECT_INIT((float)rest.x, (float)rest.y, (float)rest.width, (float)rest.height));
    gtk_snapshot_append_node(snapshot, content);
    gtk_snapshot_pop(snapshot);
    for (int i = 0; i < look; i++) gtk_snapshot_pop(snapshot);
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

