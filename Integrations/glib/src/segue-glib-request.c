/* SegueGLibRequest: a transition to begin, as properties, turned into libsegue's description. */
#include "segue-glib-private.h"

typedef struct {
    char *name;
    segue_element_t element;
} Element;

struct _SegueGLibRequest {
    GObject parent_instance;
    SegueGLibTransitionKind kind;
    char *names[2];
    segue_rect_t frames[2];
    double bounds_width, bounds_height;
    char *animator, *parameters_json;
    gboolean going_right, interactive;
    segue_anchor_t anchor;
    SegueGLibWindowType window_type;
    gboolean modal;
    GArray *elements[2];                /* of Element */
    GPtrArray *element_pointers[2];     /* what the description borrows: pointers into elements */
};

G_DEFINE_FINAL_TYPE(SegueGLibRequest, segue_glib_request, G_TYPE_OBJECT)

enum {
    PROP_0, PROP_KIND, PROP_FROM_NAME, PROP_TO_NAME,
    PROP_FROM_X, PROP_FROM_Y, PROP_FROM_WIDTH, PROP_FROM_HEIGHT,
    PROP_TO_X, PROP_TO_Y, PROP_TO_WIDTH, PROP_TO_HEIGHT,
    PROP_BOUNDS_WIDTH, PROP_BOUNDS_HEIGHT, PROP_ANIMATOR, PROP_PARAMETERS_JSON, PROP_GOING_RIGHT, PROP_INTERACTIVE,
    PROP_ANCHOR_HAS_RECT, PROP_ANCHOR_HAS_POINT, PROP_ANCHOR_X, PROP_ANCHOR_Y, PROP_ANCHOR_WIDTH, PROP_ANCHOR_HEIGHT,
    PROP_ANCHOR_POINT_X, PROP_ANCHOR_POINT_Y, PROP_WINDOW_TYPE, PROP_MODAL,
    N_PROPS
};

static double *frame_value(SegueGLibRequest *self, guint id) {
    switch (id) {
    case PROP_FROM_X: return &self->frames[0].x;
    case PROP_FROM_Y: return &self->frames[0].y;
    case PROP_FROM_WIDTH: return &self->frames[0].width;
    case PROP_FROM_HEIGHT: return &self->frames[0].height;
    case PROP_TO_X: return &self->frames[1].x;
    case PROP_TO_Y: return &self->frames[1].y;
    case PROP_TO_WIDTH: return &self->frames[1].width;
    case PROP_TO_HEIGHT: return &self->frames[1].height;
    case PROP_BOUNDS_WIDTH: return &self->bounds_width;
    case PROP_BOUNDS_HEIGHT: return &self->bounds_height;
    case PROP_ANCHOR_X: return &self->anchor.rect.x;
    case PROP_ANCHOR_Y: return &self->anchor.rect.y;
    case PROP_ANCHOR_WIDTH: return &self->anchor.rect.width;
    case PROP_ANCHOR_HEIGHT: return &self->anchor.rect.height;
    case PROP_ANCHOR_POINT_X: return &self->anchor.point_x;
    case PROP_ANCHOR_POINT_Y: return &self->anchor.point_y;
    default: return NULL;
    }
}

static void set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    SegueGLibRequest *self = SEGUE_GLIB_REQUEST(object);
    double *number = frame_value(self, id);
    if (number) {
        *number = g_value_get_double(value);
        return;
    }
    switch (id) {
    case PROP_KIND: self->kind = g_value_get_enum(value); break;
    case PROP_FROM_NAME: g_free(self->names[0]); self->names[0] = g_value_dup_string(value); break;
    case PROP_TO_NAME: g_free(self->names[1]); self->names[1] = g_value_dup_string(value); break;
    case PROP_ANIMATOR: g_free(self->animator); self->animator = g_value_dup_string(value); break;
    case PROP_PARAMETERS_JSON: g_free(self->parameters_json); self->parameters_json = g_value_dup_string(value); break;
    case PROP_GOING_RIGHT: self->going_right = g_value_get_boolean(value); break;
    case PROP_INTERACTIVE: self->interactive = g_value_get_boolean(value); break;
    case PROP_ANCHOR_HAS_RECT: self->anchor.has_rect = g_value_get_boolean(value); break;
    case PROP_ANCHOR_HAS_POINT: self->anchor.has_point = g_value_get_boolean(value); break;
    case PROP_WINDOW_TYPE: self->window_type = g_value_get_enum(value); break;
    case PROP_MODAL: self->modal = g_value_get_boolean(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    SegueGLibRequest *self = SEGUE_GLIB_REQUEST(object);
    double *number = frame_value(self, id);
    if (number) {
        g_value_set_double(value, *number);
        return;
    }
    switch (id) {
    case PROP_KIND: g_value_set_enum(value, self->kind); break;
    case PROP_FROM_NAME: g_value_set_string(value, self->names[0]); break;
    case PROP_TO_NAME: g_value_set_string(value, self->names[1]); break;
    case PROP_ANIMATOR: g_value_set_string(value, self->animator); break;
    case PROP_PARAMETERS_JSON: g_value_set_string(value, self->parameters_json); break;
    case PROP_GOING_RIGHT: g_value_set_boolean(value, self->going_right); break;
    case PROP_INTERACTIVE: g_value_set_boolean(value, self->interactive); break;
    case PROP_ANCHOR_HAS_RECT: g_value_set_boolean(value, self->anchor.has_rect); break;
    case PROP_ANCHOR_HAS_POINT: g_value_set_boolean(value, self->anchor.has_point); break;
    case PROP_WINDOW_TYPE: g_value_set_enum(value, self->window_type); break;
    case PROP_MODAL: g_value_set_boolean(value, self->modal); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void clear_element(gpointer data) {
    g_free(((Element *)data)->name);
}

static void finalize(GObject *object) {
    SegueGLibRequest *self = SEGUE_GLIB_REQUEST(object);
    for (int side = 0; side < 2; side++) {
        g_free(self->names[side]);
        g_array_unref(self->elements[side]);
        g_ptr_array_unref(self->element_pointers[side]);
    }
    g_free(self->animator);
    g_free(self->parameters_json);
    G_OBJECT_CLASS(segue_glib_request_parent_class)->finalize(object);
}

static void segue_glib_request_class_init(SegueGLibRequestClass *class) {
    GObjectClass *object_class = G_OBJECT_CLASS(class);
    object_class->set_property = set_property;
    object_class->get_property = get_property;
    object_class->finalize = finalize;
    const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
    GParamSpec *props[N_PROPS] = { NULL };
    props[PROP_KIND] = g_param_spec_enum("kind", NULL, NULL, SEGUE_GLIB_TYPE_TRANSITION_KIND, SEGUE_GLIB_TRANSITION_KIND_SWITCH, flags);
    props[PROP_FROM_NAME] = g_param_spec_string("from-name", NULL, NULL, NULL, flags);
    props[PROP_TO_NAME] = g_param_spec_string("to-name", NULL, NULL, NULL, flags);
    static const char *const numbers[] = { [PROP_FROM_X] = "from-x", [PROP_FROM_Y] = "from-y", [PROP_FROM_WIDTH] = "from-width",
        [PROP_FROM_HEIGHT] = "from-height", [PROP_TO_X] = "to-x", [PROP_TO_Y] = "to-y", [PROP_TO_WIDTH] = "to-width",
        [PROP_TO_HEIGHT] = "to-height", [PROP_BOUNDS_WIDTH] = "bounds-width", [PROP_BOUNDS_HEIGHT] = "bounds-height" };
    for (guint id = PROP_FROM_X; id <= PROP_BOUNDS_HEIGHT; id++)
        props[id] = g_param_spec_double(numbers[id], NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
    props[PROP_ANIMATOR] = g_param_spec_string("animator", NULL, NULL, NULL, flags);
    props[PROP_PARAMETERS_JSON] = g_param_spec_string("parameters-json", NULL, NULL, NULL, flags);
    props[PROP_GOING_RIGHT] = g_param_spec_boolean("going-right", NULL, NULL, FALSE, flags);
    props[PROP_INTERACTIVE] = g_param_spec_boolean("interactive", NULL, NULL, FALSE, flags);
    /**
     * SegueGLibRequest:anchor-has-rect:
     *
     * Whether "anchor-x", "anchor-y", "anchor-width" and "anchor-height" are
     * known: the rectangle the window comes out of or goes into, in container
     * coordinates (a minimized window's task-bar entry, its icon geometry; the
     * launcher an opening came from). libsegue's segue_anchor_t.has_rect: an
     * animator reads the rectangle only when this is %TRUE (Pop minimizes a
     * closing window into it and opens one out of it).
     *
     * Since: 1.1
     */
    props[PROP_ANCHOR_HAS_RECT] = g_param_spec_boolean("anchor-has-rect", NULL, NULL, FALSE, flags);
    /**
     * SegueGLibRequest:anchor-has-point:
     *
     * Whether "anchor-point-x" and "anchor-point-y" are known: a point the
     * transition comes from, in container coordinates (the pointer when it
     * began). libsegue's segue_anchor_t.has_point (Pop grows an opening
     * window about it).
     *
     * Since: 1.1
     */
    props[PROP_ANCHOR_HAS_POINT] = g_param_spec_boolean("anchor-has-point", NULL, NULL, FALSE, flags);
    /**
     * SegueGLibRequest:anchor-x:
     *
     * The anchor rectangle's left edge, container coordinates (read when
     * "anchor-has-rect" is %TRUE). Likewise "anchor-y" (its top edge),
     * "anchor-width" and "anchor-height" (its size; an animator ignores a
     * rectangle of no area).
     *
     * Since: 1.1
     */
    /**
     * SegueGLibRequest:anchor-y:
     *
     * The anchor rectangle's top edge (see "anchor-x").
     *
     * Since: 1.1
     */
    /**
     * SegueGLibRequest:anchor-width:
     *
     * The anchor rectangle's width (see "anchor-x").
     *
     * Since: 1.1
     */
    /**
     * SegueGLibRequest:anchor-height:
     *
     * The anchor rectangle's height (see "anchor-x").
     *
     * Since: 1.1
     */
    /**
     * SegueGLibRequest:anchor-point-x:
     *
     * The anchor point's x, container coordinates (read when
     * "anchor-has-point" is %TRUE).
     *
     * Since: 1.1
     */
    /**
     * SegueGLibRequest:anchor-point-y:
     *
     * The anchor point's y (see "anchor-point-x").
     *
     * Since: 1.1
     */
    static const char *const anchors[] = { [PROP_ANCHOR_X] = "anchor-x", [PROP_ANCHOR_Y] = "anchor-y",
        [PROP_ANCHOR_WIDTH] = "anchor-width", [PROP_ANCHOR_HEIGHT] = "anchor-height",
        [PROP_ANCHOR_POINT_X] = "anchor-point-x", [PROP_ANCHOR_POINT_Y] = "anchor-point-y" };
    for (guint id = PROP_ANCHOR_X; id <= PROP_ANCHOR_POINT_Y; id++)
        props[id] = g_param_spec_double(anchors[id], NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
    /**
     * SegueGLibRequest:window-type:
     *
     * What kind of window appears or disappears ("to" in an appearance,
     * "from" in a disappearance; ignored in a switch): libsegue's
     * segue_transition_desc_t.window_type.
     *
     * Since: 1.1
     */
    props[PROP_WINDOW_TYPE] = g_param_spec_enum("window-type", NULL, NULL, SEGUE_GLIB_TYPE_WINDOW_TYPE, SEGUE_GLIB_WINDOW_TYPE_NORMAL, flags);
    /**
     * SegueGLibRequest:modal:
     *
     * Whether that window is modal (it blocks the window beneath it):
     * libsegue's segue_transition_desc_t.modal.
     *
     * Since: 1.1
     */
    props[PROP_MODAL] = g_param_spec_boolean("modal", NULL, NULL, FALSE, flags);
    g_object_class_install_properties(object_class, N_PROPS, props);
}

static void segue_glib_request_init(SegueGLibRequest *self) {
    for (int side = 0; side < 2; side++) {
        self->elements[side] = g_array_new(FALSE, TRUE, sizeof(Element));
        g_array_set_clear_func(self->elements[side], clear_element);
        self->element_pointers[side] = g_ptr_array_new();
    }
}

SegueGLibRequest *segue_glib_request_new(void) {
    return g_object_new(SEGUE_GLIB_TYPE_REQUEST, NULL);
}

void segue_glib_request_add_element(SegueGLibRequest *request, SegueGLibSide side, const char *name,
                                    double x, double y, double width, double height) {
    g_return_if_fail(SEGUE_GLIB_IS_REQUEST(request));
    g_return_if_fail(side == SEGUE_GLIB_SIDE_FROM || side == SEGUE_GLIB_SIDE_TO);
    g_return_if_fail(name != NULL);
    Element element = { g_strdup(name), { sizeof(segue_element_t), NULL, { x, y, width, height } } };
    g_array_append_val(request->elements[side], element);
}

void segue_glib_request_fill(SegueGLibRequest *request, segue_transition_desc_t *desc) {
    memset(desc, 0, sizeof *desc);
    desc->struct_size = sizeof *desc;
    desc->bounds = (segue_rect_t){ 0, 0, request->bounds_width, request->bounds_height };
    segue_view_t *views[2] = { &desc->from, &desc->to };
    for (int side = 0; side < 2; side++) {
        GArray *elements = request->elements[side];
        GPtrArray *pointers = request->element_pointers[side];
        g_ptr_array_set_size(pointers, 0);
        for (guint i = 0; i < elements->len; i++) {
            Element *element = &g_array_index(elements, Element, i);
            element->element.name = element->name;
            g_ptr_array_add(pointers, &element->element);
        }
        *views[side] = (segue_view_t){ request->names[side], request->frames[side],
                                       elements->len ? (const segue_element_t *const *)pointers->pdata : NULL, elements->len };
    }
    desc->going_right = request->going_right;
    desc->interactive = request->interactive;
    desc->animator = request->animator;
    desc->parameters_json = request->parameters_json;
    desc->kind = request->kind;
    desc->anchor = request->anchor;
    desc->window_type = (uint32_t)request->window_type;
    desc->modal = request->modal;
}

const char *segue_glib_request_element_name(SegueGLibRequest *request, SegueGLibSide side, guint index) {
    if (side > SEGUE_GLIB_SIDE_TO || index >= request->elements[side]->len) return NULL;
    return g_array_index(request->elements[side], Element, index).name;
}
