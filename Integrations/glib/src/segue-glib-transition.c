/* SegueGLibTransition over libsegue's transition and sampler; its layers as snapshots; its report. */
#include "segue-glib-private.h"

#include <math.h>

/* ---- Layers ------------------------------------------------------------------------------------ */

struct _SegueGLibLayer {
    gint refs;
    guint plan_index;
    SegueGLibSide side;
    char *element;
    gboolean visible, has_mesh;
    double alpha;
    segue_rect_t resting;
    segue_rect_t bounds; /* the container's, for segue_layer_project */
    double map[9];
    segue_layer_request_t request;
    segue_layer_state_t state; /* state.mesh points to `mesh`, for segue_mesh_light */
    segue_vec3_t *mesh;
    float *vertices; /* the mesh as floats, made at the first get_mesh_vertices (atomically) */
};

G_DEFINE_BOXED_TYPE(SegueGLibLayer, segue_glib_layer, segue_glib_layer_ref, segue_glib_layer_unref)

SegueGLibLayer *segue_glib_layer_ref(SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, NULL);
    g_atomic_int_inc(&layer->refs);
    return layer;
}

void segue_glib_layer_unref(SegueGLibLayer *layer) {
    g_return_if_fail(layer != NULL);
    if (!g_atomic_int_dec_and_test(&layer->refs)) return;
    g_free(layer->element);
    g_free(layer->mesh);
    g_free(layer->vertices);
    g_free(layer);
}

static SegueGLibLayer *layer_new(const segue_drawn_layer_t *drawn, const char *element, segue_rect_t bounds) {
    SegueGLibLayer *layer = g_new0(SegueGLibLayer, 1);
    layer->refs = 1;
    layer->plan_index = drawn->plan_index;
    uint32_t kind = drawn->request.kind;
    layer->side = kind == SEGUE_LAYER_TO_VIEW || kind == SEGUE_LAYER_TO_ELEMENT_SNAPSHOT ? SEGUE_GLIB_SIDE_TO : SEGUE_GLIB_SIDE_FROM;
    layer->element = g_strdup(element);
    layer->visible = drawn->visible;
    layer->has_mesh = drawn->has_mesh;
    layer->alpha = drawn->state.alpha;
    layer->resting = drawn->resting_frame;
    layer->bounds = bounds;
    memcpy(layer->map, drawn->map, sizeof layer->map);
    layer->request = drawn->request;
    layer->state = drawn->state;
    layer->state.mesh = NULL;
    layer->state.mesh_vertex_count = 0;
    uint32_t count = segue_layer_mesh_vertex_count(&drawn->request);
    if (drawn->has_mesh && drawn->state.mesh && count > 0 && drawn->state.mesh_vertex_count >= count) {
        layer->mesh = g_memdup2(drawn->state.mesh, sizeof(segue_vec3_t) * count);
        layer->state.mesh = layer->mesh;
        layer->state.mesh_vertex_count = count;
    } else {
        layer->has_mesh = FALSE;
    }
    return layer;
}

guint segue_glib_layer_get_plan_index(const SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, 0);
    return layer->plan_index;
}

SegueGLibSide segue_glib_layer_get_side(const SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, SEGUE_GLIB_SIDE_FROM);
    return layer->side;
}

const char *segue_glib_layer_get_element(const SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, NULL);
    return layer->element;
}

gboolean segue_glib_layer_get_visible(const SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, FALSE);
    return layer->visible;
}

double segue_glib_layer_get_alpha(const SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, 0);
    return layer->alpha;
}

void segue_glib_layer_get_resting_frame(const SegueGLibLayer *layer, double *x, double *y, double *width, double *height) {
    g_return_if_fail(layer != NULL);
    if (x) *x = layer->resting.x;
    if (y) *y = layer->resting.y;
    if (width) *width = layer->resting.width;
    if (height) *height = layer->resting.height;
}

void segue_glib_layer_get_frame(const SegueGLibLayer *layer, double *x, double *y, double *width, double *height) {
    g_return_if_fail(layer != NULL);
    if (x) *x = layer->state.frame.x;
    if (y) *y = layer->state.frame.y;
    if (width) *width = layer->state.frame.width;
    if (height) *height = layer->state.frame.height;
}

double segue_glib_layer_get_corner_radius(const SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, 0);
    return layer->state.corner_radius; /* clamped by libsegue */
}

guint segue_glib_layer_get_clip(const SegueGLibLayer *layer, double *x, double *y, double *width, double *height,
                                double *top_left, double *top_right, double *bottom_right, double *bottom_left) {
    g_return_val_if_fail(layer != NULL, SEGUE_CLIP_NONE);
    const segue_clip_t *clip = &layer->state.clip;
    gboolean shaped = clip->shape == SEGUE_CLIP_ROUNDED_RECT || clip->shape == SEGUE_CLIP_ELLIPSE;
    gboolean rounded = clip->shape == SEGUE_CLIP_ROUNDED_RECT;
    if (x) *x = shaped ? clip->rect.x : 0;
    if (y) *y = shaped ? clip->rect.y : 0;
    if (width) *width = shaped ? clip->rect.width : 0;
    if (height) *height = shaped ? clip->rect.height : 0;
    if (top_left) *top_left = rounded ? clip->radii.top_left : 0;
    if (top_right) *top_right = rounded ? clip->radii.top_right : 0;
    if (bottom_right) *bottom_right = rounded ? clip->radii.bottom_right : 0;
    if (bottom_left) *bottom_left = rounded ? clip->radii.bottom_left : 0;
    return shaped ? clip->shape : SEGUE_CLIP_NONE;
}

const double *segue_glib_layer_get_map(const SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, NULL);
    return layer->map;
}

/* A 3x3 map m (column vectors: [X Y W] = m [x y 1]) as a graphene matrix, whose points are row vectors
 * (p' = p M): the transpose of the 4x4 with m in its x, y, w rows and columns and z passing through. */
static void matrix_of_map(const double m[9], graphene_matrix_t *matrix) {
    const float values[16] = {
        (float)m[0], (float)m[3], 0, (float)m[6],
        (float)m[1], (float)m[4], 0, (float)m[7],
        0, 0, 1, 0,
        (float)m[2], (float)m[5], 0, (float)m[8],
    };
    graphene_matrix_init_from_float(matrix, values);
}

void segue_glib_layer_get_matrix(const SegueGLibLayer *layer, graphene_matrix_t *matrix) {
    g_return_if_fail(layer != NULL && matrix != NULL);
    matrix_of_map(layer->map, matrix);
}

/* The 3x3 map m in coordinates whose origin is the container's point (x, y): translate(-origin) . m .
 * translate(origin), into `local`. */
static void map_at(const double m[9], double x, double y, double local[9]) {
    for (int row = 0; row < 3; row++) {
        local[3 * row] = m[3 * row];
        local[3 * row + 1] = m[3 * row + 1];
        local[3 * row + 2] = m[3 * row] * x + m[3 * row + 1] * y + m[3 * row + 2];
    }
    for (int column = 0; column < 3; column++) {
        local[column] -= x * local[6 + column];
        local[3 + column] -= y * local[6 + column];
    }
}

void segue_glib_layer_get_local_matrix(const SegueGLibLayer *layer, graphene_matrix_t *matrix) {
    g_return_if_fail(layer != NULL && matrix != NULL);
    double local[9];
    map_at(layer->map, layer->resting.x, layer->resting.y, local);
    matrix_of_map(local, matrix);
}

double *segue_glib_layer_get_map_at(const SegueGLibLayer *layer, double x, double y) {
    g_return_val_if_fail(layer != NULL, NULL);
    double *local = g_new(double, 9);
    map_at(layer->map, x, y, local);
    return local;
}

void segue_glib_layer_get_matrix_at(const SegueGLibLayer *layer, double x, double y, graphene_matrix_t *matrix) {
    g_return_if_fail(layer != NULL && matrix != NULL);
    double local[9];
    map_at(layer->map, x, y, local);
    matrix_of_map(local, matrix);
}

gboolean segue_glib_layer_get_has_mesh(const SegueGLibLayer *layer) {
    g_return_val_if_fail(layer != NULL, FALSE);
    return layer->has_mesh;
}

void segue_glib_layer_get_mesh_size(const SegueGLibLayer *layer, guint *columns, guint *rows) {
    g_return_if_fail(layer != NULL);
    if (columns) *columns = layer->has_mesh ? layer->request.mesh_columns : 0;
    if (rows) *rows = layer->has_mesh ? layer->request.mesh_rows : 0;
}

const float *segue_glib_layer_get_mesh_vertices(const SegueGLibLayer *layer, gsize *n_values) {
    g_return_val_if_fail(layer != NULL, NULL);
    if (n_values) *n_values = 0;
    if (!layer->has_mesh) return NULL;
    /* Made at the first call, not with every layer: a compositor drawing through get_mesh_texels never asks,
     * and a layer is made every frame. Any thread may ask first: the first made is kept. */
    SegueGLibLayer *cache = (SegueGLibLayer *)layer; /* the floats only: what the layer shows stays as it is */
    gsize count = layer->state.mesh_vertex_count;
    float *vertices = g_atomic_pointer_get(&cache->vertices);
    if (!vertices) {
        float *made = g_new(float, 3 * count);
        for (gsize i = 0; i < count; i++) {
            made[3 * i] = (float)layer->mesh[i].x;
            made[3 * i + 1] = (float)layer->mesh[i].y;
            made[3 * i + 2] = (float)layer->mesh[i].z;
        }
        if (g_atomic_pointer_compare_and_exchange(&cache->vertices, NULL, made)) {
            vertices = made;
        } else {
            g_free(made);
            vertices = g_atomic_pointer_get(&cache->vertices);
        }
    }
    if (n_values) *n_values = 3 * count;
    return vertices;
}

float *segue_glib_layer_get_mesh_projected(const SegueGLibLayer *layer, gsize *n_values) {
    g_return_val_if_fail(layer != NULL, NULL);
    if (n_values) *n_values = 0;
    if (!layer->has_mesh) return NULL;
    uint32_t capacity = layer->state.mesh_vertex_count;
    float *xy = g_new(float, 2 * (gsize)capacity), *uv = g_new(float, 2 * (gsize)capacity);
    uint32_t written = segue_layer_project(&layer->state, &layer->request, &layer->bounds, 1, xy, uv, capacity, NULL, NULL);
    g_free(uv);
    if (written == 0) {
        g_free(xy);
        return NULL;
    }
    if (n_values) *n_values = 2 * (gsize)written;
    return xy;
}

float *segue_glib_layer_get_mesh_light(const SegueGLibLayer *layer, gboolean back, gsize *n_values) {
    g_return_val_if_fail(layer != NULL, NULL);
    if (n_values) *n_values = 0;
    if (!layer->has_mesh) return NULL;
    uint32_t capacity = layer->state.mesh_vertex_count;
    float *shades = g_new(float, capacity);
    uint32_t written = segue_mesh_light(&layer->state, &layer->request, back, shades, capacity);
    if (written == 0) {
        g_free(shades);
        return NULL;
    }
    if (n_values) *n_values = written;
    return shades;
}

GBytes *segue_glib_layer_get_mesh_texels(const SegueGLibLayer *layer, double origin_x, double origin_y, double scale_x,
                                         double scale_y, guint *width, guint *height) {
    g_return_val_if_fail(layer != NULL, NULL);
    if (width) *width = 0;
    if (height) *height = 0;
    if (!layer->has_mesh) return NULL;
    /* A compositor calls this every frame on its drawing thread: one scratch block for the points, their
     * (unused) texture coordinates and both lights, and no call into libm per value. */
    guint columns = layer->request.mesh_columns, rows = layer->request.mesh_rows;
    gsize count = (gsize)(columns + 1) * (rows + 1);
    /* (libsegue checks the mesh's size and vertices: a call that writes fewer than `count` values refuses it.) */
    g_autofree float *scratch = g_new(float, 6 * count);
    float *points = scratch, *uv = scratch + 2 * count, *front = scratch + 4 * count, *back = scratch + 5 * count;
    if (segue_layer_project(&layer->state, &layer->request, &layer->bounds, 1, points, uv, (uint32_t)count, NULL, NULL) != count ||
        segue_mesh_light(&layer->state, &layer->request, false, front, (uint32_t)count) != count ||
        segue_mesh_light(&layer->state, &layer->request, true, back, (uint32_t)count) != count)
        return NULL;
    guint8 *bytes = g_malloc0(8 * count);
    for (gsize k = 0; k < count; k++) {
        double at[2] = { (points[2 * k] - origin_x) * scale_x, (points[2 * k + 1] - origin_y) * scale_y };
        for (int c = 0; c < 2; c++) {
            /* Eighths from -4096, rounded to the nearest; out of range (or NaN) clamped, as the GLSL reads it. */
            double fixed = (at[c] + 4096) * 8 + 0.5;
            guint16 value = fixed >= 0 ? (fixed < 65535 ? (guint16)fixed : 65535) : 0;
            bytes[8 * k + 2 * c] = value >> 8;
            bytes[8 * k + 2 * c + 1] = value & 255;
        }
        float lights[2] = { front[k], back[k] };
        for (int side = 0; side < 2; side++) {
            float light = isfinite(lights[side]) ? CLAMP(lights[side], 0.0f, 1.0f) : 1.0f;
            bytes[8 * k + 4 + side] = (guint8)(255 * light + 0.5f);
        }
    }
    if (width) *width = 2 * (columns + 1);
    if (height) *height = rows + 1;
    return g_bytes_new_take(bytes, 8 * count);
}

/* ---- Reports ----------------------------------------------------------------------------------- */

struct _SegueGLibReport {
    GObject parent_instance;
    char *animator, *reason;
    gboolean completed, fell_back;
};

G_DEFINE_FINAL_TYPE(SegueGLibReport, segue_glib_report, G_TYPE_OBJECT)

enum { REPORT_PROP_0, REPORT_PROP_ANIMATOR, REPORT_PROP_COMPLETED, REPORT_PROP_FELL_BACK, REPORT_PROP_REASON, REPORT_N_PROPS };

static void report_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    SegueGLibReport *self = SEGUE_GLIB_REPORT(object);
    switch (id) {
    case REPORT_PROP_ANIMATOR: g_value_set_string(value, self->animator); break;
    case REPORT_PROP_COMPLETED: g_value_set_boolean(value, self->completed); break;
    case REPORT_PROP_FELL_BACK: g_value_set_boolean(value, self->fell_back); break;
    case REPORT_PROP_REASON: g_value_set_string(value, self->reason); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void report_finalize(GObject *object) {
    SegueGLibReport *self = SEGUE_GLIB_REPORT(object);
    g_free(self->animator);
    g_free(self->reason);
    G_OBJECT_CLASS(segue_glib_report_parent_class)->finalize(object);
}

static void segue_glib_report_class_init(SegueGLibReportClass *class) {
    GObjectClass *object_class = G_OBJECT_CLASS(class);
    object_class->get_property = report_get_property;
    object_class->finalize = report_finalize;
    const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
    GParamSpec *props[REPORT_N_PROPS] = { NULL };
    props[REPORT_PROP_ANIMATOR] = g_param_spec_string("animator", NULL, NULL, NULL, flags);
    props[REPORT_PROP_COMPLETED] = g_param_spec_boolean("completed", NULL, NULL, FALSE, flags);
    props[REPORT_PROP_FELL_BACK] = g_param_spec_boolean("fell-back", NULL, NULL, FALSE, flags);
    props[REPORT_PROP_REASON] = g_param_spec_string("reason", NULL, NULL, NULL, flags);
    g_object_class_install_properties(object_class, REPORT_N_PROPS, props);
}

static void segue_glib_report_init(SegueGLibReport *self) {
    (void)self;
}

const char *segue_glib_report_get_animator(SegueGLibReport *report) {
    g_return_val_if_fail(SEGUE_GLIB_IS_REPORT(report), NULL);
    return report->animator;
}

gboolean segue_glib_report_get_completed(SegueGLibReport *report) {
    g_return_val_if_fail(SEGUE_GLIB_IS_REPORT(report), FALSE);
    return report->completed;
}

gboolean segue_glib_report_get_fell_back(SegueGLibReport *report) {
    g_return_val_if_fail(SEGUE_GLIB_IS_REPORT(report), FALSE);
    return report->fell_back;
}

const char *segue_glib_report_get_reason(SegueGLibReport *report) {
    g_return_val_if_fail(SEGUE_GLIB_IS_REPORT(report), NULL);
    return report->reason;
}

/* ---- Transitions ------------------------------------------------------------------------------- */

struct _SegueGLibTransition {
    GObject parent_instance;
    SegueGLibPlayer *player; /* referenced: libsegue's transition lives no longer than its player */
    segue_transition_t *transition;
    segue_sampler_t *sampler;
    gboolean finished;
    gboolean late; /* the last sample's status was SEGUE_LATE */
    segue_rect_t bounds;
    char **elements[2]; /* the request's element names, by side and index */
};

G_DEFINE_FINAL_TYPE(SegueGLibTransition, segue_glib_transition, G_TYPE_OBJECT)

enum { PROP_0, PROP_ANIMATOR, PROP_DURATION, PROP_REASON, PROP_PLUGIN_PATH, PROP_FELL_BACK, N_PROPS };
static GParamSpec *props[N_PROPS];

/* The plan as libsegue has it now (the default's after a takeover); its strings live as long as the transition. */
static segue_plan_info_t plan(SegueGLibTransition *self) {
    segue_plan_info_t info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (segue_transition_plan(self->transition, &info) != SEGUE_OK) {
        memset(&info, 0, sizeof info);
        info.animator = "default";
        info.reason = "";
    }
    return info;
}

static void get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    SegueGLibTransition *self = SEGUE_GLIB_TRANSITION(object);
    segue_plan_info_t info = plan(self);
    switch (id) {
    case PROP_ANIMATOR: g_value_set_string(value, info.animator); break;
    case PROP_DURATION: g_value_set_double(value, info.duration); break;
    case PROP_REASON: g_value_set_string(value, info.reason); break;
    case PROP_PLUGIN_PATH: g_value_set_string(value, info.file); break;
    case PROP_FELL_BACK: g_value_set_boolean(value, info.fell_back); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void dispose(GObject *object) {
    SegueGLibTransition *self = SEGUE_GLIB_TRANSITION(object);
    if (self->transition) {
        /* The sampler first (it keeps the transition's state), then the transition, finished as not
         * completed if the program did not finish it. */
        segue_sampler_free(self->sampler);
        self->sampler = NULL;
        if (!self->finished) segue_transition_finish(self->transition, false, NULL);
        /* Events libsegue delivers after the free name no transition ("fell-back" with NULL). */
        segue_glib_player_untrack(self->player, self->transition);
        segue_transition_free(self->transition);
        self->transition = NULL;
    }
    g_clear_object(&self->player);
    G_OBJECT_CLASS(segue_glib_transition_parent_class)->dispose(object);
}

static void finalize(GObject *object) {
    SegueGLibTransition *self = SEGUE_GLIB_TRANSITION(object);
    g_strfreev(self->elements[0]);
    g_strfreev(self->elements[1]);
    G_OBJECT_CLASS(segue_glib_transition_parent_class)->finalize(object);
}

static void segue_glib_transition_class_init(SegueGLibTransitionClass *class) {
    GObjectClass *object_class = G_OBJECT_CLASS(class);
    object_class->get_property = get_property;
    object_class->dispose = dispose;
    object_class->finalize = finalize;
    const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
    props[PROP_ANIMATOR] = g_param_spec_string("animator", NULL, NULL, NULL, flags);
    props[PROP_DURATION] = g_param_spec_double("duration", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
    props[PROP_REASON] = g_param_spec_string("reason", NULL, NULL, NULL, flags);
    props[PROP_PLUGIN_PATH] = g_param_spec_string("plugin-path", NULL, NULL, NULL, flags);
    props[PROP_FELL_BACK] = g_param_spec_boolean("fell-back", NULL, NULL, FALSE, flags);
    g_object_class_install_properties(object_class, N_PROPS, props);
}

static void segue_glib_transition_init(SegueGLibTransition *self) {
    (void)self;
}

static char **element_names(SegueGLibRequest *request, SegueGLibSide side) {
    GPtrArray *names = g_ptr_array_new();
    for (guint i = 0;; i++) {
        const char *name = segue_glib_request_element_name(request, side, i);
        if (!name) break;
        g_ptr_array_add(names, g_strdup(name));
    }
    g_ptr_array_add(names, NULL);
    return (char **)g_ptr_array_free(names, FALSE);
}

SegueGLibTransition *segue_glib_transition_new(SegueGLibPlayer *player, segue_transition_t *raw, SegueGLibRequest *request,
                                               GError **error) {
    segue_sampler_t *sampler = NULL;
    segue_status_t status = segue_sampler_new(raw, &sampler);
    if (status != SEGUE_OK) {
        segue_glib_fail(error, status, "the transition's sampler could not be made");
        segue_transition_free(raw);
        return NULL;
    }
    SegueGLibTransition *self = g_object_new(SEGUE_GLIB_TYPE_TRANSITION, NULL);
    self->player = g_object_ref(player);
    self->transition = raw;
    self->sampler = sampler;
    segue_transition_desc_t desc;
    segue_glib_request_fill(request, &desc);
    self->bounds = desc.bounds;
    self->elements[0] = element_names(request, SEGUE_GLIB_SIDE_FROM);
    self->elements[1] = element_names(request, SEGUE_GLIB_SIDE_TO);
    segue_glib_player_track(player, raw, self);
    return self;
}

void segue_glib_transition_plan_changed(SegueGLibTransition *transition) {
    g_object_freeze_notify(G_OBJECT(transition));
    for (guint id = PROP_ANIMATOR; id < N_PROPS; id++) g_object_notify_by_pspec(G_OBJECT(transition), props[id]);
    g_object_thaw_notify(G_OBJECT(transition));
}

const char *segue_glib_transition_get_animator(SegueGLibTransition *transition) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), NULL);
    return plan(transition).animator;
}

double segue_glib_transition_get_duration(SegueGLibTransition *transition) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), 0);
    return plan(transition).duration;
}

const char *segue_glib_transition_get_reason(SegueGLibTransition *transition) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), NULL);
    return plan(transition).reason;
}

const char *segue_glib_transition_get_plugin_path(SegueGLibTransition *transition) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), NULL);
    return plan(transition).file;
}

gboolean segue_glib_transition_get_fell_back(SegueGLibTransition *transition) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), FALSE);
    return plan(transition).fell_back;
}

guint segue_glib_transition_sample(SegueGLibTransition *transition, double t, gboolean *plan_changed, GError **error) {
    if (plan_changed) *plan_changed = FALSE;
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), 0);
    g_return_val_if_fail(error == NULL || *error == NULL, 0);
    if (transition->finished || !transition->sampler) {
        g_set_error(error, SEGUE_GLIB_ERROR, SEGUE_GLIB_ERROR_ENDED, "the transition has already been finished");
        return 0;
    }
    uint32_t count = 0;
    bool changed = false;
    segue_status_t status = segue_sampler_sample(transition->sampler, t, &count, &changed);
    if (status < 0) {
        segue_glib_fail(error, status, "the transition could not be sampled");
        return 0;
    }
    transition->late = status == SEGUE_LATE;
    if (plan_changed) *plan_changed = changed;
    return count;
}

gboolean segue_glib_transition_get_late(SegueGLibTransition *transition) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), FALSE);
    return transition->late;
}

gboolean segue_glib_transition_prefetch(SegueGLibTransition *transition, double t, GError **error) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), FALSE);
    g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
    if (transition->finished || !transition->transition) {
        g_set_error(error, SEGUE_GLIB_ERROR, SEGUE_GLIB_ERROR_ENDED, "the transition has already been finished");
        return FALSE;
    }
    segue_status_t status = segue_transition_prefetch(transition->transition, t);
    return status >= 0 || segue_glib_fail(error, status, "the transition could not prefetch");
}

SegueGLibLayer *segue_glib_transition_get_layer(SegueGLibTransition *transition, guint index) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), NULL);
    if (!transition->sampler) return NULL;
    segue_drawn_layer_t drawn;
    memset(&drawn, 0, sizeof drawn);
    drawn.struct_size = sizeof drawn;
    drawn.state.struct_size = sizeof drawn.state;
    if (segue_sampler_layer(transition->sampler, index, &drawn) != SEGUE_OK) return NULL;
    const char *element = NULL;
    if (drawn.request.kind == SEGUE_LAYER_FROM_ELEMENT_SNAPSHOT || drawn.request.kind == SEGUE_LAYER_TO_ELEMENT_SNAPSHOT) {
        char **names = transition->elements[drawn.request.kind == SEGUE_LAYER_TO_ELEMENT_SNAPSHOT];
        if (drawn.request.element < g_strv_length(names)) element = names[drawn.request.element];
    }
    return layer_new(&drawn, element, transition->bounds);
}

SegueGLibReport *segue_glib_transition_finish(SegueGLibTransition *transition, gboolean completed, GError **error) {
    g_return_val_if_fail(SEGUE_GLIB_IS_TRANSITION(transition), NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    if (transition->finished || !transition->transition) {
        g_set_error(error, SEGUE_GLIB_ERROR, SEGUE_GLIB_ERROR_ENDED, "the transition has already been finished");
        return NULL;
    }
    segue_transition_report_t report;
    memset(&report, 0, sizeof report);
    report.struct_size = sizeof report;
    segue_status_t status = segue_transition_finish(transition->transition, completed, &report);
    if (status != SEGUE_OK) {
        if (status == SEGUE_E_ENDED) transition->finished = TRUE;
        segue_glib_fail(error, status, "the transition could not be finished");
        return NULL;
    }
    transition->finished = TRUE;
    SegueGLibReport *result = g_object_new(SEGUE_GLIB_TYPE_REPORT, NULL);
    result->animator = g_strdup(report.animator ? report.animator : "default");
    result->reason = g_strdup(report.reason ? report.reason : "");
    result->completed = report.completed;
    result->fell_back = report.fell_back;
    return result;
}
