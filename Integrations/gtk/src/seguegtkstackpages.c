/* The "pages" selection model of a SegueGtkStack: its pages, in order, the visible one selected.
 * As GtkStack's GtkStackPages. Its functions are not `segue_gtk_`, so that introspection leaves
 * the type out: apps see it as a GtkSelectionModel. */
#define G_LOG_DOMAIN "SegueGtk"
#include "seguegtkstack-private.h"

struct _SegueGtkStackPages {
    GObject parent_instance;
    SegueGtkStack *stack; /* a reference: the model keeps the stack it lists */
};

static void pages_model_list_init(GListModelInterface *iface);
static void pages_model_selection_init(GtkSelectionModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(SegueGtkStackPages, pages_model, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, pages_model_list_init)
                              G_IMPLEMENT_INTERFACE(GTK_TYPE_SELECTION_MODEL, pages_model_selection_init))

static GType pages_model_get_item_type(GListModel *list) {
    (void)list;
    return SEGUE_GTK_TYPE_STACK_PAGE;
}

static guint pages_model_get_n_items(GListModel *list) {
    SegueGtkStackPages *self = (SegueGtkStackPages *)list;
    return self->stack->pages->len;
}

static gpointer pages_model_get_item(GListModel *list, guint position) {
    SegueGtkStackPages *self = (SegueGtkStackPages *)list;
    if (position >= self->stack->pages->len) return NULL;
    return g_object_ref(g_ptr_array_index(self->stack->pages, position));
}

static void pages_model_list_init(GListModelInterface *iface) {
    iface->get_item_type = pages_model_get_item_type;
    iface->get_n_items = pages_model_get_n_items;
    iface->get_item = pages_model_get_item;
}

static gboolean pages_model_is_selected(GtkSelectionModel *model, guint position) {
    SegueGtkStackPages *self = (SegueGtkStackPages *)model;
    return position < self->stack->pages->len && g_ptr_array_index(self->stack->pages, position) == self->stack->visible;
}

/* Selecting a page shows it, with a transition; an invisible page cannot be selected. */
static gboolean pages_model_select_item(GtkSelectionModel *model, guint position, gboolean unselect_rest) {
    (void)unselect_rest;
    SegueGtkStackPages *self = (SegueGtkStackPages *)model;
    if (position >= self->stack->pages->len) return FALSE;
    SegueGtkStackPage *page = g_ptr_array_index(self->stack->pages, position);
    if (!segue_gtk_stack_page_get_visible(page)) return FALSE;
    segue_gtk_stack_set_visible_child(self->stack, page->widget);
    return TRUE;
}

static void pages_model_selection_init(GtkSelectionModelInterface *iface) {
    iface->is_selected = pages_model_is_selected;
    iface->select_item = pages_model_select_item;
}

static void pages_model_dispose(GObject *object) {
    SegueGtkStackPages *self = (SegueGtkStackPages *)object;
    if (self->stack) segue_gtk_stack_forget_pages(self->stack, self);
    g_clear_object(&self->stack);
    G_OBJECT_CLASS(pages_model_parent_class)->dispose(object);
}

static void pages_model_class_init(SegueGtkStackPagesClass *klass) { G_OBJECT_CLASS(klass)->dispose = pages_model_dispose; }

static void pages_model_init(SegueGtkStackPages *self) { (void)self; }

SegueGtkStackPages *pages_model_new(SegueGtkStack *stack) {
    SegueGtkStackPages *self = g_object_new(pages_model_get_type(), NULL);
    self->stack = g_object_ref(stack);
    return self;
}
