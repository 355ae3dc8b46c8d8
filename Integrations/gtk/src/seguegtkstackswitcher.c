/* SegueGtkStackSwitcher: a row of toggle buttons, one per visible page of a SegueGtkStack. See segue-gtk.h. */
#define G_LOG_DOMAIN "SegueGtk"
#include "seguegtkstack-private.h"

struct _SegueGtkStackSwitcher {
    GtkWidget parent_instance;
    SegueGtkStack *stack;
    GtkSelectionModel *pages;
    /* The pages whose title, icon, attention and visibility the buttons show (references). */
    GPtrArray *watched;
};

enum { PROP_0, PROP_STACK, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE(SegueGtkStackSwitcher, segue_gtk_stack_switcher, GTK_TYPE_WIDGET)

static const char position_key[] = "segue-gtk-page-position";

/* Each button pressed or not as its page is the visible one or not. */
static void sync_selection(SegueGtkStackSwitcher *self) {
    for (GtkWidget *button = gtk_widget_get_first_child(GTK_WIDGET(self)); button; button = gtk_widget_get_next_sibling(button)) {
        guint position = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(button), position_key));
        gboolean selected = gtk_selection_model_is_selected(self->pages, position);
        gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(button), selected);
        gtk_accessible_update_state(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_STATE_SELECTED, selected, -1);
    }
}

/* A click shows the button's page with a transition that comes from the button (the anchor's
 * rectangle); the buttons then show what is visible, so a click on the pressed one leaves it pressed. */
static void on_clicked(GtkButton *button, SegueGtkStackSwitcher *self) {
    guint position = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(button), position_key));
    SegueGtkStackPage *page = self->pages ? g_list_model_get_item(G_LIST_MODEL(self->pages), position) : NULL;
    if (page && self->stack) segue_gtk_stack_set_visible_child_from(self->stack, page->widget, GTK_WIDGET(button));
    g_clear_object(&page);
    sync_selection(self);
}

static GtkWidget *button_for(SegueGtkStackSwitcher *self, SegueGtkStackPage *page, guint position) {
    GtkWidget *button = g_object_new(GTK_TYPE_TOGGLE_BUTTON, "accessible-role", GTK_ACCESSIBLE_ROLE_TAB, NULL);
    const char *title = page->title ? page->title : page->name;
    if (page->icon_name) {
        gtk_button_set_icon_name(GTK_BUTTON(button), page->icon_name);
        gtk_widget_set_tooltip_text(button, title);
        gtk_accessible_update_property(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
    } else {
        gtk_button_set_label(GTK_BUTTON(button), title);
    }
    if (page->needs_attention) gtk_widget_add_css_class(button, "needs-attention");
    g_object_set_data(G_OBJECT(button), position_key, GUINT_TO_POINTER(position));
    g_signal_connect(button, "clicked", G_CALLBACK(on_clicked), self);
    return button;
}

static void rebuild(SegueGtkStackSwitcher *self);

static void on_page_changed(SegueGtkStackPage *page, GParamSpec *pspec, SegueGtkStackSwitcher *self) {
    (void)page;
    (void)pspec;
    rebuild(self);
}

static void unwatch(SegueGtkStackSwitcher *self) {
    for (guint i = 0; i < self->watched->len; i++) g_signal_handlers_disconnect_by_func(g_ptr_array_index(self->watched, i), on_page_changed, self);
    g_ptr_array_set_size(self->watched, 0);
}

/* A button per visible page, in the pages' order; few pages, so all are made again on any change. */
static void rebuild(SegueGtkStackSwitcher *self) {
    unwatch(self);
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(self)))) gtk_widget_unparent(child);
    guint count = self->pages ? g_list_model_get_n_items(G_LIST_MODEL(self->pages)) : 0;
    for (guint i = 0; i < count; i++) {
        SegueGtkStackPage *page = g_list_model_get_item(G_LIST_MODEL(self->pages), i);
        g_signal_connect(page, "notify", G_CALLBACK(on_page_changed), self);
        g_ptr_array_add(self->watched, page);
        if (segue_gtk_stack_page_get_visible(page)) gtk_widget_set_parent(button_for(self, page, i), GTK_WIDGET(self));
    }
    if (self->pages) sync_selection(self);
}

static void on_items_changed(GListModel *model, guint position, guint removed, guint added, SegueGtkStackSwitcher *self) {
    (void)model, (void)position, (void)removed, (void)added;
    rebuild(self);
}

static void on_selection_changed(GtkSelectionModel *model, guint position, guint count, SegueGtkStackSwitcher *self) {
    (void)model, (void)position, (void)count;
    sync_selection(self);
}

void segue_gtk_stack_switcher_set_stack(SegueGtkStackSwitcher *self, SegueGtkStack *stack) {
    g_return_if_fail(SEGUE_GTK_IS_STACK_SWITCHER(self));
    g_return_if_fail(stack == NULL || SEGUE_GTK_IS_STACK(stack));
    if (self->stack == stack) return;
    if (self->pages) {
        g_signal_handlers_disconnect_by_data(self->pages, self);
        g_clear_object(&self->pages);
    }
    g_clear_object(&self->stack);
    if (stack) {
        self->stack = g_object_ref(stack);
        self->pages = segue_gtk_stack_get_pages(stack);
        g_signal_connect(self->pages, "items-changed", G_CALLBACK(on_items_changed), self);
        g_signal_connect(self->pages, "selection-changed", G_CALLBACK(on_selection_changed), self);
    }
    rebuild(self);
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_STACK]);
}

SegueGtkStack *segue_gtk_stack_switcher_get_stack(SegueGtkStackSwitcher *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK_SWITCHER(self), NULL);
    return self->stack;
}

static void segue_gtk_stack_switcher_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    SegueGtkStackSwitcher *self = SEGUE_GTK_STACK_SWITCHER(object);
    switch (id) {
    case PROP_STACK: g_value_set_object(value, self->stack); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void segue_gtk_stack_switcher_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    SegueGtkStackSwitcher *self = SEGUE_GTK_STACK_SWITCHER(object);
    switch (id) {
    case PROP_STACK: segue_gtk_stack_switcher_set_stack(self, g_value_get_object(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void segue_gtk_stack_switcher_dispose(GObject *object) {
    SegueGtkStackSwitcher *self = SEGUE_GTK_STACK_SWITCHER(object);
    segue_gtk_stack_switcher_set_stack(self, NULL);
    G_OBJECT_CLASS(segue_gtk_stack_switcher_parent_class)->dispose(object);
}

static void segue_gtk_stack_switcher_finalize(GObject *object) {
    SegueGtkStackSwitcher *self = SEGUE_GTK_STACK_SWITCHER(object);
    g_ptr_array_unref(self->watched);
    G_OBJECT_CLASS(segue_gtk_stack_switcher_parent_class)->finalize(object);
}

static void segue_gtk_stack_switcher_class_init(SegueGtkStackSwitcherClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    object_class->get_property = segue_gtk_stack_switcher_get_property;
    object_class->set_property = segue_gtk_stack_switcher_set_property;
    object_class->dispose = segue_gtk_stack_switcher_dispose;
    object_class->finalize = segue_gtk_stack_switcher_finalize;

    /**
     * SegueGtkStackSwitcher:stack: (attributes org.gtk.Property.get=segue_gtk_stack_switcher_get_stack org.gtk.Property.set=segue_gtk_stack_switcher_set_stack)
     *
     * The stack whose pages the switcher shows, or %NULL.
     */
    properties[PROP_STACK] = g_param_spec_object("stack", NULL, NULL, SEGUE_GTK_TYPE_STACK,
                                                 G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    g_object_class_install_properties(object_class, N_PROPS, properties);
    gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BOX_LAYOUT);
    gtk_widget_class_set_css_name(widget_class, "seguestackswitcher");
    gtk_widget_class_set_accessible_role(widget_class, GTK_ACCESSIBLE_ROLE_TAB_LIST);
}

static void segue_gtk_stack_switcher_init(SegueGtkStackSwitcher *self) {
    self->watched = g_ptr_array_new_with_free_func(g_object_unref);
    gtk_widget_add_css_class(GTK_WIDGET(self), "linked");
    gtk_box_layout_set_homogeneous(GTK_BOX_LAYOUT(gtk_widget_get_layout_manager(GTK_WIDGET(self))), TRUE);
}

GtkWidget *segue_gtk_stack_switcher_new(void) { return g_object_new(SEGUE_GTK_TYPE_STACK_SWITCHER, NULL); }
