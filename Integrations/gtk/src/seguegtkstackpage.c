/* SegueGtkStackPage: a page's widget, name, title, icon and state. See segue-gtk.h. */
#define G_LOG_DOMAIN "SegueGtk"
#include "seguegtkstack-private.h"

enum { PROP_0, PROP_CHILD, PROP_NAME, PROP_TITLE, PROP_ICON_NAME, PROP_NEEDS_ATTENTION, PROP_VISIBLE, N_PROPS };
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

const char *segue_gtk_stack_page_get_title(SegueGtkStackPage *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK_PAGE(self), NULL);
    return self->title;
}

void segue_gtk_stack_page_set_title(SegueGtkStackPage *self, const char *title) {
    g_return_if_fail(SEGUE_GTK_IS_STACK_PAGE(self));
    if (g_strcmp0(self->title, title) == 0) return;
    g_free(self->title);
    self->title = g_strdup(title);
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_TITLE]);
}

const char *segue_gtk_stack_page_get_icon_name(SegueGtkStackPage *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK_PAGE(self), NULL);
    return self->icon_name;
}

void segue_gtk_stack_page_set_icon_name(SegueGtkStackPage *self, const char *icon_name) {
    g_return_if_fail(SEGUE_GTK_IS_STACK_PAGE(self));
    if (g_strcmp0(self->icon_name, icon_name) == 0) return;
    g_free(self->icon_name);
    self->icon_name = g_strdup(icon_name);
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_ICON_NAME]);
}

gboolean segue_gtk_stack_page_get_needs_attention(SegueGtkStackPage *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK_PAGE(self), FALSE);
    return self->needs_attention;
}

void segue_gtk_stack_page_set_needs_attention(SegueGtkStackPage *self, gboolean needs_attention) {
    g_return_if_fail(SEGUE_GTK_IS_STACK_PAGE(self));
    if (self->needs_attention == !!needs_attention) return;
    self->needs_attention = !!needs_attention;
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_NEEDS_ATTENTION]);
}

/* The page's visibility is its widget's, as GtkStackPage's is. */
gboolean segue_gtk_stack_page_get_visible(SegueGtkStackPage *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK_PAGE(self), FALSE);
    return self->widget && gtk_widget_get_visible(self->widget);
}

void segue_gtk_stack_page_set_visible(SegueGtkStackPage *self, gboolean visible) {
    g_return_if_fail(SEGUE_GTK_IS_STACK_PAGE(self));
    g_return_if_fail(self->widget != NULL);
    gtk_widget_set_visible(self->widget, visible);
}

static void on_child_visible(GtkWidget *widget, GParamSpec *pspec, SegueGtkStackPage *self) {
    (void)widget;
    (void)pspec;
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_VISIBLE]);
}

static void segue_gtk_stack_page_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    SegueGtkStackPage *self = SEGUE_GTK_STACK_PAGE(object);
    switch (id) {
    case PROP_CHILD: g_value_set_object(value, self->widget); break;
    case PROP_NAME: g_value_set_string(value, self->name); break;
    case PROP_TITLE: g_value_set_string(value, self->title); break;
    case PROP_ICON_NAME: g_value_set_string(value, self->icon_name); break;
    case PROP_NEEDS_ATTENTION: g_value_set_boolean(value, self->needs_attention); break;
    case PROP_VISIBLE: g_value_set_boolean(value, segue_gtk_stack_page_get_visible(self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void segue_gtk_stack_page_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    SegueGtkStackPage *self = SEGUE_GTK_STACK_PAGE(object);
    switch (id) {
    /* Sunk: a page a .ui file makes but no stack adds still frees its widget. */
    case PROP_CHILD:
        self->widget = g_value_get_object(value) ? g_object_ref_sink(g_value_get_object(value)) : NULL;
        if (self->widget) g_signal_connect_object(self->widget, "notify::visible", G_CALLBACK(on_child_visible), self, 0);
        break;
    case PROP_NAME: self->name = g_value_dup_string(value); break;
    case PROP_TITLE: segue_gtk_stack_page_set_title(self, g_value_get_string(value)); break;
    case PROP_ICON_NAME: segue_gtk_stack_page_set_icon_name(self, g_value_get_string(value)); break;
    case PROP_NEEDS_ATTENTION: segue_gtk_stack_page_set_needs_attention(self, g_value_get_boolean(value)); break;
    case PROP_VISIBLE: segue_gtk_stack_page_set_visible(self, g_value_get_boolean(value)); break;
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
    g_free(self->title);
    g_free(self->icon_name);
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
    /**
     * SegueGtkStackPage:title: (attributes org.gtk.Property.get=segue_gtk_stack_page_get_title org.gtk.Property.set=segue_gtk_stack_page_set_title)
     *
     * The page's title, which a switcher shows.
     */
    properties[PROP_TITLE] = g_param_spec_string("title", NULL, NULL, NULL,
                                                 G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStackPage:icon-name: (attributes org.gtk.Property.get=segue_gtk_stack_page_get_icon_name org.gtk.Property.set=segue_gtk_stack_page_set_icon_name)
     *
     * The page's icon, which a switcher shows instead of the title.
     */
    properties[PROP_ICON_NAME] = g_param_spec_string("icon-name", NULL, NULL, NULL,
                                                     G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStackPage:needs-attention: (attributes org.gtk.Property.get=segue_gtk_stack_page_get_needs_attention org.gtk.Property.set=segue_gtk_stack_page_set_needs_attention)
     *
     * Whether the page asks for the user's attention: a switcher marks its button (CSS class
     * "needs-attention").
     */
    properties[PROP_NEEDS_ATTENTION] = g_param_spec_boolean("needs-attention", NULL, NULL, FALSE,
                                                            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStackPage:visible: (attributes org.gtk.Property.get=segue_gtk_stack_page_get_visible org.gtk.Property.set=segue_gtk_stack_page_set_visible)
     *
     * Whether the page takes part: its widget's "visible". An invisible page is left out by
     * switchers and cannot be the stack's visible page.
     */
    properties[PROP_VISIBLE] = g_param_spec_boolean("visible", NULL, NULL, TRUE,
                                                    G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    g_object_class_install_properties(object_class, N_PROPS, properties);
}

static void segue_gtk_stack_page_init(SegueGtkStackPage *self) { (void)self; }
