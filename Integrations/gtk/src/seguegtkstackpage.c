/* SegueGtkStackPage: a page's widget and name. See segue-gtk.h. */
#define G_LOG_DOMAIN "SegueGtk"
#include "seguegtkstack-private.h"

enum { PROP_0, PROP_CHILD, PROP_NAME, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE(SegueGtkStackPage, segue_gtk_stack_page, G_TYPE_OBJECT)

GtkWidget *segue_gtk_stack_page_get_child(SegueGtkStackPage *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK_PAGE(self), NULL);
    return self->widget;
}

const char *segue_gtk_stack_page_get_name(SegueGtkStackPage *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK_PAGE(self), NULL);
    return self->name;
}

static void segue_gtk_stack_page_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    SegueGtkStackPage *self = SEGUE_GTK_STACK_PAGE(object);
    switch (id) {
    case PROP_CHILD: g_value_set_object(value, self->widget); break;
    case PROP_NAME: g_value_set_string(value, self->name); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void segue_gtk_stack_page_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    SegueGtkStackPage *self = SEGUE_GTK_STACK_PAGE(object);
    switch (id) {
    /* Sunk: a page a .ui file makes but no stack adds still frees its widget. */
    case PROP_CHILD: self->widget = g_value_get_object(value) ? g_object_ref_sink(g_value_get_object(value)) : NULL; break;
    case PROP_NAME: self->name = g_value_dup_string(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void segue_gtk_stack_page_dispose(GObject *object) {
    SegueGtkStackPage *self = SEGUE_GTK_STACK_PAGE(object);
    g_clear_object(&self->widget);
    G_OBJECT_CLASS(segue_gtk_stack_page_parent_class)->dispose(object);
}

static void segue_gtk_stack_page_finalize(GObject *object) {
    SegueGtkStackPage *self = SEGUE_GTK_STACK_PAGE(object);
    g_free(self->name);
    G_OBJECT_CLASS(segue_gtk_stack_page_parent_class)->finalize(object);
}

static void segue_gtk_stack_page_class_init(SegueGtkStackPageClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->get_property = segue_gtk_stack_page_get_property;
    object_class->set_property = segue_gtk_stack_page_set_property;
    object_class->dispose = segue_gtk_stack_page_dispose;
    object_class->finalize = segue_gtk_stack_page_finalize;

    /**
     * SegueGtkStackPage:child: (attributes org.gtk.Property.get=segue_gtk_stack_page_get_child)
     *
     * The page's widget.
     */
    properties[PROP_CHILD] = g_param_spec_object("child", NULL, NULL, GTK_TYPE_WIDGET,
                                                 G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
    /**
     * SegueGtkStackPage:name: (attributes org.gtk.Property.get=segue_gtk_stack_page_get_name)
     *
     * The page's name: unique in its stack; the config's rules match it.
     */
    properties[PROP_NAME] = g_param_spec_string("name", NULL, NULL, NULL,
                                                G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, N_PROPS, properties);
}

static void segue_gtk_stack_page_init(SegueGtkStackPage *self) { (void)self; }
