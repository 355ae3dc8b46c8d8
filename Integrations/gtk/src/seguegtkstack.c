/* SegueGtkStack: pages switched by Segue transitions. See segue-gtk.h. */
#define G_LOG_DOMAIN "SegueGtk"
#include "seguegtkstack-private.h"

#include <glib-unix.h>
#include <math.h>
#include <string.h>

/* The edge a swipe back starts from, in pixels. Whether a release finishes is libsegue's rule
 * (segue_edge_pan_finishes, the container's EdgePanGesture). */
#define EDGE_WIDTH 24.0
/* How far a press at the edge moves sideways, in pixels, before it is a swipe. */
#define DRAG_THRESHOLD 8.0
/* How long a drag may rest before its release, in seconds, and still fling. */
#define REST_SECONDS 0.1

enum { PROP_0, PROP_VISIBLE_CHILD, PROP_VISIBLE_CHILD_NAME, PROP_ANIMATOR, PROP_CONFIG_FILE, PROP_TRANSITION_RUNNING,
       PROP_EDGE_SWIPE, PROP_PAGES, N_PROPS };
static GParamSpec *properties[N_PROPS];
enum { TRANSITION_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void segue_gtk_stack_buildable_init(GtkBuildableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(SegueGtkStack, segue_gtk_stack, GTK_TYPE_WIDGET,
                              G_IMPLEMENT_INTERFACE(GTK_TYPE_BUILDABLE, segue_gtk_stack_buildable_init))

static void end_transition(SegueGtkStack *self, gboolean completed);
static void switch_to(SegueGtkStack *self, Page *page, const char *animator, const char *parameters, GtkWidget *origin);
static void switch_at_once(SegueGtkStack *self, Page *page, const char *reason);

/* What "transition-finished" names as the animator of a switch that played none. */
static const char no_animator[] = "none";

/* ---- Elements ------------------------------------------------------------ */

static const char element_key[] = "segue-gtk-element-name";

void segue_gtk_set_element_name(GtkWidget *widget, const char *name) {
    g_return_if_fail(GTK_IS_WIDGET(widget));
    g_object_set_data_full(G_OBJECT(widget), element_key, g_strdup(name), g_free);
}

const char *segue_gtk_get_element_name(GtkWidget *widget) {
    g_return_val_if_fail(GTK_IS_WIDGET(widget), NULL);
    return g_object_get_data(G_OBJECT(widget), element_key);
}

/* The named elements under @widget, depth first, at most MAX_ELEMENTS. */
static void collect_elements(GtkWidget *widget, GtkWidget **into, uint32_t *count) {
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        if (*count >= MAX_ELEMENTS) return;
        if (segue_gtk_get_element_name(child) && gtk_widget_get_mapped(child)) into[(*count)++] = child;
        collect_elements(child, into, count);
    }
}

/* ---- The player ---------------------------------------------------------- */

static void on_player_event(void *user_data, const segue_event_t *event) {
    (void)user_data;
    /* libsegue has escaped what a plugin wrote. */
    if (event->level >= SEGUE_LOG_WARNING || event->kind == SEGUE_EVENT_CONFIG_ERROR || event->kind == SEGUE_EVENT_FELL_BACK)
        g_warning("%s", event->message);
    else
        g_debug("%s", event->message);
}

static gboolean on_player_readable(int fd, GIOCondition condition, gpointer data) {
    (void)fd;
    (void)condition;
    SegueGtkStack *self = data;
    segue_player_dispatch(self->player);
    return G_SOURCE_CONTINUE;
}

static void drop_player(SegueGtkStack *self) {
    if (self->playing) end_transition(self, TRUE);
    if (self->player_source) g_source_remove(self->player_source);
    self->player_source = 0;
    if (self->player) segue_player_free(self->player);
    self->player = NULL;
}

/* The player, made at the first switch: the config file given, else the standard one, followed by
 * libsegue as it appears, changes and vanishes (the built-in default plays while there is none). */
static segue_player_t *player(SegueGtkStack *self) {
    if (self->player || self->player_failed) return self->player;
    segue_player_options_t options;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.config_path = self->config_file;
    options.flags = SEGUE_PLAYER_WATCH | SEGUE_PLAYER_STANDARD_CONFIG;
    options.on_event = on_player_event;
    options.user_data = self;
    if (segue_player_new(&options, &self->player) != SEGUE_OK) {
        g_warning("Segue's player could not start (%s); pages switch without transitions", segue_error_message());
        self->player = NULL;
        self->player_failed = TRUE;
    } else {
        segue_player_dispatch(self->player);
        self->player_source = g_unix_fd_add(segue_player_fd(self->player), G_IO_IN, on_player_readable, self);
    }
    return self->player;
}

/* ---- Pages --------------------------------------------------------------- */

static Page *page_of(SegueGtkStack *self, GtkWidget *child) {
    for (guint i = 0; i < self->pages->len; i++) {
        Page *page = g_ptr_array_index(self->pages, i);
        if (page->widget == child) return page;
    }
    return NULL;
}

static Page *page_named(SegueGtkStack *self, const char *name) {
    for (guint i = 0; name && i < self->pages->len; i++) {
        Page *page = g_ptr_array_index(self->pages, i);
        if (strcmp(page->name, name) == 0) return page;
    }
    return NULL;
}

static guint index_of(SegueGtkStack *self, Page *page) {
    guint index = 0;
    g_ptr_array_find(self->pages, page, &index);
    return index;
}

static gboolean page_visible(Page *page) { return gtk_widget_get_visible(page->widget); }

/* The first page that may be shown, other than @except. */
static Page *first_visible(SegueGtkStack *self, Page *except) {
    for (guint i = 0; i < self->pages->len; i++) {
        Page *page = g_ptr_array_index(self->pages, i);
        if (page != except && page_visible(page)) return page;
    }
    return NULL;
}

/* The nearest visible page added before the visible one: where the swipe back goes. */
static Page *visible_before(SegueGtkStack *self) {
    for (guint i = self->visible ? index_of(self, self->visible) : 0; i-- > 0;) {
        Page *page = g_ptr_array_index(self->pages, i);
        if (page_visible(page)) return page;
    }
    return NULL;
}

void segue_gtk_stack_forget_pages(SegueGtkStack *self, SegueGtkStackPages *pages) {
    if (self->pages_model == pages) self->pages_model = NULL;
}

/* Only the visible page (and, while a transition plays, the page leaving) is laid out and drawn. */
static void update_child_visibility(SegueGtkStack *self) {
    for (guint i = 0; i < self->pages->len; i++) {
        Page *page = g_ptr_array_index(self->pages, i);
        gboolean shown = page == self->visible || (self->playing && (page == self->playing->from || page == self->playing->to));
        gtk_widget_set_child_visible(page->widget, shown);
    }
}

static void notify_visible(SegueGtkStack *self) {
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_VISIBLE_CHILD]);
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_VISIBLE_CHILD_NAME]);
    if (self->pages_model && self->pages->len)
        gtk_selection_model_selection_changed(GTK_SELECTION_MODEL(self->pages_model), 0, self->pages->len);
}

/* A page shown or hidden (its widget's "visible"), as GtkStack follows it: the visible page hidden
 * gives way, at once, to the first visible page; a page shown where none was visible becomes it. */
static void on_page_visible(Page *page, GParamSpec *pspec, SegueGtkStack *self) {
    (void)pspec;
    if (page == self->visible && !page_visible(page)) {
        Page *next = first_visible(self, page);
        if (next) {
            switch_at_once(self, next, "the visible page was hidden");
        } else {
            if (self->playing) end_transition(self, TRUE);
            self->visible = NULL;
            notify_visible(self);
            update_child_visibility(self);
        }
    } else if (!self->visible && page_visible(page)) {
        self->visible = page;
        notify_visible(self);
        update_child_visibility(self);
    }
    gtk_widget_queue_resize(GTK_WIDGET(self));
}

/* Adds @page (the stack takes a reference) after checking what add_named promises. */
static void add_page(SegueGtkStack *self, Page *page) {
    g_return_if_fail(GTK_IS_WIDGET(page->widget) && gtk_widget_get_parent(page->widget) == NULL);
    g_return_if_fail(page->name != NULL);
    if (page_named(self, page->name)) {
        g_critical("a page called \"%s\" is already in the stack: its %s is not added", page->name, G_OBJECT_TYPE_NAME(page->widget));
        return;
    }
    g_ptr_array_add(self->pages, g_object_ref(page));
    gtk_widget_set_parent(page->widget, GTK_WIDGET(self));
    g_signal_connect_object(page, "notify::visible", G_CALLBACK(on_page_visible), self, 0);
    if (self->pages_model) g_list_model_items_changed(G_LIST_MODEL(self->pages_model), self->pages->len - 1, 0, 1);
    if (!self->visible && page_visible(page)) {
        self->visible = page;
        notify_visible(self);
    }
    update_child_visibility(self);
}

void segue_gtk_stack_add_named(SegueGtkStack *self, GtkWidget *child, const char *name) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    g_return_if_fail(GTK_IS_WIDGET(child) && gtk_widget_get_parent(child) == NULL);
    g_return_if_fail(name != NULL);
    /* Refused before a page takes a reference, so that @child stays the caller's. */
    if (page_named(self, name)) {
        g_critical("segue_gtk_stack_add_named: a page called \"%s\" is already in the stack", name);
        return;
    }
    Page *page = g_object_new(SEGUE_GTK_TYPE_STACK_PAGE, "child", child, "name", name, NULL);
    add_page(self, page);
    g_object_unref(page);
}

void segue_gtk_stack_add_titled(SegueGtkStack *self, GtkWidget *child, const char *name, const char *title) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    g_return_if_fail(GTK_IS_WIDGET(child) && gtk_widget_get_parent(child) == NULL);
    g_return_if_fail(name != NULL);
    if (page_named(self, name)) {
        g_critical("segue_gtk_stack_add_titled: a page called \"%s\" is already in the stack", name);
        return;
    }
    Page *page = g_object_new(SEGUE_GTK_TYPE_STACK_PAGE, "child", child, "name", name, "title", title, NULL);
    add_page(self, page);
    g_object_unref(page);
}

GtkSelectionModel *segue_gtk_stack_get_pages(SegueGtkStack *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), NULL);
    if (self->pages_model) return g_object_ref(GTK_SELECTION_MODEL(self->pages_model));
    self->pages_model = pages_model_new(self);
    return GTK_SELECTION_MODEL(self->pages_model);
}

void segue_gtk_stack_remove(SegueGtkStack *self, GtkWidget *child) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    Page *page = page_of(self, child);
    g_return_if_fail(page != NULL);
    if (self->playing && (self->playing->from == page || self->playing->to == page)) end_transition(self, TRUE);
    guint index = index_of(self, page);
    g_signal_handlers_disconnect_by_func(page, on_page_visible, self);
    g_ptr_array_remove_index(self->pages, index);
    gtk_widget_unparent(child);
    if (self->pages_model) g_list_model_items_changed(G_LIST_MODEL(self->pages_model), index, 1, 0);
    if (self->visible == page) {
        self->visible = first_visible(self, NULL);
        notify_visible(self);
    }
    g_object_unref(page);
    update_child_visibility(self);
}

SegueGtkStackPage *segue_gtk_stack_get_page(SegueGtkStack *self, GtkWidget *child) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), NULL);
    return page_of(self, child);
}

GtkWidget *segue_gtk_stack_get_child_by_name(SegueGtkStack *self, const char *name) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), NULL);
    Page *page = page_named(self, name);
    return page ? page->widget : NULL;
}

const char *segue_gtk_stack_get_page_name(SegueGtkStack *self, GtkWidget *child) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), NULL);
    Page *page = page_of(self, child);
    return page ? page->name : NULL;
}

GtkWidget *segue_gtk_stack_get_visible_child(SegueGtkStack *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), NULL);
    return self->visible ? self->visible->widget : NULL;
}

const char *segue_gtk_stack_get_visible_child_name(SegueGtkStack *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), NULL);
    return self->visible ? self->visible->name : NULL;
}

/* ---- Transitions ----------------------------------------------------------- */

/* Re-reads the plan (at the start, and when the default took over): layers, and the elements to hide. */
static void read_plan(SegueGtkStack *self) {
    Playing *p = self->playing;
    for (uint32_t i = 0; i < p->hidden_count; i++) gtk_widget_set_opacity(p->hidden[i], p->hidden_opacity[i]);
    p->hidden_count = 0;
    p->plan.struct_size = sizeof p->plan;
    segue_transition_plan(p->handle, &p->plan);
    for (uint32_t i = 0; i < p->plan.hidden_count && i < SEGUE_MAX_HIDDEN_ELEMENTS; i++) {
        segue_element_ref_t ref = p->plan.hidden[i];
        uint32_t side = ref.side == SEGUE_SIDE_TO;
        if (ref.element >= p->element_count[side]) continue;
        GtkWidget *element = p->elements[side][ref.element];
        p->hidden[p->hidden_count] = element;
        p->hidden_opacity[p->hidden_count++] = gtk_widget_get_opacity(element);
        gtk_widget_set_opacity(element, 0);
    }
    if (self->mesh) segue_gtk_mesh_clear(self->mesh);
    p->sampled = FALSE;
}

/* The time the transition is at now. */
static double current_time(SegueGtkStack *self, gint64 now) {
    Playing *p = self->playing;
    double duration = p->plan.duration;
    if (!p->interactive) return p->started ? (double)(now - p->started) / 1e6 : 0;
    if (!p->released) return p->fraction * duration;
    double x = p->seconds > 0 ? fmin(fmax((double)(now - p->started) / 1e6 / p->seconds, 0), 1) : 1;
    double eased = p->linear ? x : segue_cubic_bezier_value(0.42, 0, 0.58, 1, x);
    p->fraction = p->origin + (p->target - p->origin) * eased;
    return p->fraction * duration;
}

/* Samples the transition at @t; when the plan changed since the last sample (the default took over from a
 * plugin that failed), the plan is read again. */
static void sample(SegueGtkStack *self, double t) {
    Playing *p = self->playing;
    bool changed = false;
    segue_status_t status = segue_sampler_sample(p->sampler, t, &p->layer_count, &changed);
    if (changed && p->sampled) read_plan(self);
    p->late = status == SEGUE_LATE;
    if (status >= 0) p->sampled = TRUE;
    else g_warning("sampling the transition failed: %s", segue_error_message());
}

static gboolean on_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)data;
    SegueGtkStack *self = SEGUE_GTK_STACK(widget);
    Playing *p = self->playing;
    if (!p) {
        self->tick = 0;
        return G_SOURCE_REMOVE;
    }
    gint64 now = gdk_frame_clock_get_frame_time(clock);
    if (!p->interactive && !p->started) p->started = now;
    double t = current_time(self, now);
    sample(self, fmin(t, p->plan.duration));
    gtk_widget_queue_draw(widget);
    gboolean done = p->interactive ? p->released && p->fraction == p->target : t >= p->plan.duration;
    if (done) {
        self->tick = 0;
        end_transition(self, !p->interactive || p->target == 1);
        return G_SOURCE_REMOVE;
    }
    /* The next frame's answer asked for now, while this one is drawn. */
    gint64 interval = 0, presented = 0;
    gdk_frame_clock_get_refresh_info(clock, now, &interval, &presented);
    if (!p->interactive || p->released) segue_transition_prefetch(p->handle, t + (interval > 0 ? interval : 16667) / 1e6);
    return G_SOURCE_CONTINUE;
}

static void describe_side(SegueGtkStack *self, uint32_t side, Page *page, segue_view_t *view, const segue_element_t **pointers) {
    Playing *p = self->playing;
    collect_elements(page->widget, p->elements[side], &p->element_count[side]);
    for (uint32_t i = 0; i < p->element_count[side]; i++) {
        GtkWidget *element = p->elements[side][i];
        graphene_rect_t bounds;
        if (!gtk_widget_compute_bounds(element, GTK_WIDGET(self), &bounds)) graphene_rect_init(&bounds, 0, 0, 0, 0);
        p->described[side][i] = (segue_element_t){ sizeof(segue_element_t), segue_gtk_get_element_name(element),
                                                   { bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height } };
        pointers[i] = &p->described[side][i];
        /* A picture of it as it is now, drawn where a snapshot layer of it goes. */
        GdkPaintable *live = gtk_widget_paintable_new(element);
        p->pictures[side][i] = gdk_paintable_get_current_image(live);
        g_object_unref(live);
    }
    view->name = page->name;
    view->frame = (segue_rect_t){ 0, 0, p->width, p->height };
    view->elements = pointers;
    view->element_count = p->element_count[side];
}

static gboolean animations_enabled(SegueGtkStack *self) {
    gboolean enabled = TRUE;
    g_object_get(gtk_widget_get_settings(GTK_WIDGET(self)), "gtk-enable-animations", &enabled, NULL);
    return enabled;
}

/* Where a switch comes from (segue_anchor_t): @origin's bounds in the stack's coordinates, when given and
 * in the stack's window, and the pointer while it is over the stack. */
static segue_anchor_t anchor_of(SegueGtkStack *self, GtkWidget *origin) {
    segue_anchor_t anchor = { 0 };
    graphene_rect_t bounds;
    if (origin && gtk_widget_compute_bounds(origin, GTK_WIDGET(self), &bounds) && bounds.size.width >= 0 && bounds.size.height >= 0) {
        anchor.has_rect = true;
        anchor.rect = (segue_rect_t){ bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height };
    } else if (origin) {
        g_warning("the origin of a switch (a %s) is not in the stack's window: the switch has no anchor rectangle",
                  G_OBJECT_TYPE_NAME(origin));
    }
    if (self->pointer_known && isfinite(self->pointer_x) && isfinite(self->pointer_y)) {
        anchor.has_point = true;
        anchor.point_x = self->pointer_x;
        anchor.point_y = self->pointer_y;
    }
    return anchor;
}

/* Begins a transition from the visible page to @to, coming from @origin (may be NULL); FALSE when none
 * can play (the switch is then immediate), with why in @why (a new string). */
static gboolean begin_transition(SegueGtkStack *self, Page *to, const char *animator, const char *parameters, gboolean interactive,
                                 GtkWidget *origin, char **why) {
    double width = gtk_widget_get_width(GTK_WIDGET(self)), height = gtk_widget_get_height(GTK_WIDGET(self));
    const char *refusal = !self->visible                              ? "no page was visible"
                          : !animations_enabled(self)                 ? "animations are off (gtk-enable-animations)"
                          : !gtk_widget_get_mapped(GTK_WIDGET(self))  ? "the stack is not shown (not mapped)"
                          : width <= 0 || height <= 0                 ? "the stack has no size yet"
                          : !player(self)                             ? "Segue's player could not start (the log says why)"
                                                                      : NULL;
    if (refusal) {
        *why = g_strdup(refusal);
        return FALSE;
    }
    Playing *p = g_new0(Playing, 1);
    self->playing = p;
    p->from = self->visible;
    p->to = to;
    p->width = width;
    p->height = height;
    p->interactive = interactive;
    segue_transition_desc_t desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.bounds = (segue_rect_t){ 0, 0, width, height };
    /* Measured before the arriving page is laid out: @origin is most often on the page leaving. */
    desc.anchor = anchor_of(self, origin);
    /* The arriving page is laid out (it was not) before its elements are measured. */
    update_child_visibility(self);
    gtk_widget_allocate(to->widget, (int)width, (int)height, -1, NULL);
    const segue_element_t *from_elements[MAX_ELEMENTS], *to_elements[MAX_ELEMENTS];
    describe_side(self, 0, p->from, &desc.from, from_elements);
    describe_side(self, 1, p->to, &desc.to, to_elements);
    desc.going_right = index_of(self, to) > index_of(self, p->from);
    desc.interactive = interactive;
    desc.animator = animator ? animator : self->animator;
    desc.parameters_json = parameters;
    if (segue_transition_begin(self->player, &desc, &p->handle) != SEGUE_OK) {
        *why = g_strdup_printf("the transition could not begin: %s", segue_error_message());
        g_warning("a transition from \"%s\" to \"%s\" could not begin: %s", p->from->name, to->name, segue_error_message());
        self->playing = NULL;
        for (uint32_t s = 0; s < 2; s++)
            for (uint32_t i = 0; i < p->element_count[s]; i++) g_clear_object(&p->pictures[s][i]);
        g_free(p);
        update_child_visibility(self);
        return FALSE;
    }
    if (segue_sampler_new(p->handle, &p->sampler) != SEGUE_OK) p->sampler = NULL;  /* only for a NULL transition */
    read_plan(self);
    sample(self, 0);
    if (!self->tick) self->tick = gtk_widget_add_tick_callback(GTK_WIDGET(self), on_tick, NULL, NULL);
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_TRANSITION_RUNNING]);
    gtk_widget_queue_draw(GTK_WIDGET(self));
    return TRUE;
}

/* Ends the transition that plays: libsegue's report, the hidden elements shown again, the signal. */
static void end_transition(SegueGtkStack *self, gboolean completed) {
    Playing *p = self->playing;
    if (!p) return;
    segue_transition_report_t report;
    memset(&report, 0, sizeof report);
    report.struct_size = sizeof report;
    segue_transition_finish(p->handle, completed, &report);
    for (uint32_t i = 0; i < p->hidden_count; i++) gtk_widget_set_opacity(p->hidden[i], p->hidden_opacity[i]);
    for (uint32_t s = 0; s < 2; s++)
        for (uint32_t i = 0; i < p->element_count[s]; i++) g_clear_object(&p->pictures[s][i]);
    if (self->mesh) segue_gtk_mesh_clear(self->mesh);
    if (self->tick) gtk_widget_remove_tick_callback(GTK_WIDGET(self), self->tick);
    self->tick = 0;
    self->playing = NULL;
    if (!completed && self->visible != p->from) {
        self->visible = p->from;
        notify_visible(self);
    }
    update_child_visibility(self);
    gtk_widget_queue_draw(GTK_WIDGET(self));
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_TRANSITION_RUNNING]);
    char *animator = g_strdup(report.animator ? report.animator : p->plan.animator);
    char *reason = g_strdup(report.reason ? report.reason : "");
    gboolean fell_back = report.fell_back;
    Page *from = p->from, *to = p->to;
    char *from_name = g_strdup(from->name), *to_name = g_strdup(to->name);
    segue_sampler_free(p->sampler);  /* before its transition */
    segue_transition_free(p->handle);
    g_free(p);
    g_signal_emit(self, signals[TRANSITION_FINISHED], 0, from_name, to_name, animator, completed, fell_back, reason);
    g_free(from_name);
    g_free(to_name);
    g_free(animator);
    g_free(reason);
}

/* "transition-finished" for a switch that played no transition. */
static void finished_without_transition(SegueGtkStack *self, const char *from, const char *to, gboolean completed, const char *reason) {
    g_signal_emit(self, signals[TRANSITION_FINISHED], 0, from ? from : "", to ? to : "", no_animator, completed, FALSE, reason);
}

/* Shows @page with no transition, and says why. */
static void switch_at_once(SegueGtkStack *self, Page *page, const char *reason) {
    if (self->playing) end_transition(self, TRUE);
    char *from = g_strdup(self->visible ? self->visible->name : NULL);
    self->visible = page;
    update_child_visibility(self);
    notify_visible(self);
    gtk_widget_queue_resize(GTK_WIDGET(self));
    finished_without_transition(self, from, page->name, TRUE, reason);
    g_free(from);
}

static void switch_to(SegueGtkStack *self, Page *page, const char *animator, const char *parameters, GtkWidget *origin) {
    if (self->playing) end_transition(self, TRUE);
    if (page == self->visible) return;
    if (!page_visible(page)) {
        char *reason = g_strdup_printf("the page \"%s\" is not visible", page->name);
        finished_without_transition(self, self->visible ? self->visible->name : NULL, page->name, FALSE, reason);
        g_free(reason);
        return;
    }
    char *why = NULL;
    if (!begin_transition(self, page, animator, parameters, FALSE, origin, &why)) {
        switch_at_once(self, page, why);
        g_free(why);
        return;
    }
    self->visible = page;
    notify_visible(self);
    gtk_widget_queue_resize(GTK_WIDGET(self));
}

void segue_gtk_stack_set_visible_child(SegueGtkStack *self, GtkWidget *child) {
    segue_gtk_stack_set_visible_child_from(self, child, NULL);
}

void segue_gtk_stack_set_visible_child_from(SegueGtkStack *self, GtkWidget *child, GtkWidget *origin) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    g_return_if_fail(origin == NULL || GTK_IS_WIDGET(origin));
    Page *page = page_of(self, child);
    g_return_if_fail(page != NULL);
    switch_to(self, page, NULL, NULL, origin);
}

void segue_gtk_stack_set_visible_child_full(SegueGtkStack *self, const char *name, const char *animator,
                                            const char *parameters_json) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    Page *page = page_named(self, name);
    if (!page) {
        g_warning("the stack has no page called \"%s\"", name ? name : "(null)");
        return;
    }
    switch_to(self, page, animator, parameters_json, NULL);
}

void segue_gtk_stack_set_visible_child_name(SegueGtkStack *self, const char *name) {
    segue_gtk_stack_set_visible_child_full(self, name, NULL, NULL);
}

gboolean segue_gtk_stack_get_transition_running(SegueGtkStack *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), FALSE);
    return self->playing != NULL;
}

gboolean segue_gtk_stack_get_transition_late(SegueGtkStack *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), FALSE);
    return self->playing != NULL && self->playing->late;
}

/* ---- Interaction --------------------------------------------------------- */

gboolean segue_gtk_stack_begin_interactive(SegueGtkStack *self, const char *name) {
    return segue_gtk_stack_begin_interactive_from(self, name, NULL);
}

gboolean segue_gtk_stack_begin_interactive_from(SegueGtkStack *self, const char *name, GtkWidget *origin) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), FALSE);
    g_return_val_if_fail(origin == NULL || GTK_IS_WIDGET(origin), FALSE);
    Page *page = page_named(self, name);
    if (!page || page == self->visible || self->playing || !page_visible(page)) return FALSE;
    char *why = NULL;
    if (!begin_transition(self, page, NULL, NULL, TRUE, origin, &why)) {
        g_debug("no interactive switch to \"%s\": %s", name, why);
        g_free(why);
        return FALSE;
    }
    self->visible = page;
    notify_visible(self);
    return TRUE;
}

void segue_gtk_stack_update_interactive(SegueGtkStack *self, double fraction) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    Playing *p = self->playing;
    if (!p || !p->interactive || p->released || isnan(fraction)) return;
    p->fraction = fmin(fmax(fraction, 0), 1);
    sample(self, p->fraction * p->plan.duration);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void segue_gtk_stack_end_interactive(SegueGtkStack *self, gboolean finish, double velocity) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    Playing *p = self->playing;
    if (!p || !p->interactive || p->released) return;
    p->released = TRUE;
    p->origin = p->fraction;
    p->target = finish ? 1 : 0;
    GdkFrameClock *clock = gtk_widget_get_frame_clock(GTK_WIDGET(self));
    p->started = clock ? gdk_frame_clock_get_frame_time(clock) : g_get_monotonic_time();
    /* The rest of the duration at the ease-in-out pace, unless the release moved faster (then linearly at its speed). */
    double distance = fabs(p->target - p->origin), flick = isfinite(velocity) ? fabs(velocity) : 0;
    p->seconds = distance * p->plan.duration;
    p->linear = FALSE;
    if (flick > 0 && distance / flick < p->seconds) {
        p->seconds = distance / flick;
        p->linear = TRUE;
    }
    if (!self->tick) self->tick = gtk_widget_add_tick_callback(GTK_WIDGET(self), on_tick, NULL, NULL);
}

/* A press near the left edge may become the swipe back; it is claimed only once it moves sideways past
 * DRAG_THRESHOLD, so that a click there (a Back button at the edge) stays the child's. */
static void on_drag_begin(GtkGestureDrag *gesture, double x, double y, SegueGtkStack *self) {
    (void)gesture;
    (void)y;
    self->swiping = FALSE;
    self->edge_press = self->edge_swipe && x <= EDGE_WIDTH && visible_before(self) && !self->playing;
}

static void on_drag_update(GtkGestureDrag *gesture, double dx, double dy, SegueGtkStack *self) {
    double now = gtk_event_controller_get_current_event_time(GTK_EVENT_CONTROLLER(gesture)) / 1e3;
    if (!self->swiping) {
        if (!self->edge_press || dx < DRAG_THRESHOLD || fabs(dy) > dx) return;
        self->edge_press = FALSE;
        Page *back = visible_before(self);
        if (!back || !segue_gtk_stack_begin_interactive(self, back->name)) return;
        gtk_gesture_set_state(GTK_GESTURE(gesture), GTK_EVENT_SEQUENCE_CLAIMED);
        self->swiping = TRUE;
        self->last_x = dx;
        self->last_time = now;
        self->speed = 0;
    }
    if (!self->playing) return;
    if (now > self->last_time) self->speed = (dx - self->last_x) / (now - self->last_time);
    self->last_x = dx;
    self->last_time = now;
    segue_gtk_stack_update_interactive(self, dx / self->playing->width);
}

static void on_drag_end(GtkGestureDrag *gesture, double dx, double dy, SegueGtkStack *self) {
    (void)dy;
    self->edge_press = FALSE;
    if (!self->swiping || !self->playing) return;
    self->swiping = FALSE;
    /* A finger that rested before it let go flings nothing. */
    double now = gtk_event_controller_get_current_event_time(GTK_EVENT_CONTROLLER(gesture)) / 1e3;
    if (now - self->last_time > REST_SECONDS) self->speed = 0;
    double width = self->playing->width, flick = width > 0 && isfinite(self->speed) ? self->speed / width : 0;
    gboolean finish = segue_edge_pan_finishes(dx, self->speed, width);
    segue_gtk_stack_end_interactive(self, finish, finish ? fmax(flick, 0) : fmax(-flick, 0));
}

static void on_drag_cancel(GtkGesture *gesture, GdkEventSequence *sequence, SegueGtkStack *self) {
    (void)gesture;
    (void)sequence;
    self->edge_press = FALSE;
    if (!self->swiping) return;
    self->swiping = FALSE;
    segue_gtk_stack_end_interactive(self, FALSE, 0);
}

/* ---- Drawing ------------------------------------------------------------- */

static void segue_gtk_stack_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
    SegueGtkStack *self = SEGUE_GTK_STACK(widget);
    if (self->playing && self->playing->sampled) segue_gtk_stack_snapshot_transition(self, snapshot);
    else if (self->visible) gtk_widget_snapshot_child(widget, self->visible->widget, snapshot);
}

/* ---- Layout -------------------------------------------------------------- */

/* As big as the biggest page, as a homogeneous GtkStack. */
static void segue_gtk_stack_measure(GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                                    int *minimum_baseline, int *natural_baseline) {
    SegueGtkStack *self = SEGUE_GTK_STACK(widget);
    *minimum = *natural = 0;
    *minimum_baseline = *natural_baseline = -1;
    for (guint i = 0; i < self->pages->len; i++) {
        Page *page = g_ptr_array_index(self->pages, i);
        int min = 0, nat = 0;
        gtk_widget_measure(page->widget, orientation, for_size, &min, &nat, NULL, NULL);
        *minimum = MAX(*minimum, min);
        *natural = MAX(*natural, nat);
    }
}

static void segue_gtk_stack_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
    SegueGtkStack *self = SEGUE_GTK_STACK(widget);
    for (guint i = 0; i < self->pages->len; i++) {
        Page *page = g_ptr_array_index(self->pages, i);
        if (gtk_widget_get_child_visible(page->widget)) gtk_widget_allocate(page->widget, width, height, baseline, NULL);
    }
}

/* ---- GtkBuildable ---------------------------------------------------------- */

static GtkBuildableIface *parent_buildable_iface;

/* A .ui file's <child>, as GtkStack takes it: a SegueGtkStackPage is added with its name, a widget
 * is named by its object id; anything else (an event controller) is the widget's to take. */
static void segue_gtk_stack_buildable_add_child(GtkBuildable *buildable, GtkBuilder *builder, GObject *child, const char *type) {
    SegueGtkStack *self = SEGUE_GTK_STACK(buildable);
    if (SEGUE_GTK_IS_STACK_PAGE(child)) {
        add_page(self, SEGUE_GTK_STACK_PAGE(child));
    } else if (GTK_IS_WIDGET(child)) {
        const char *id = gtk_buildable_get_buildable_id(GTK_BUILDABLE(child));
        /* GtkBuilder calls an object given no id "___object_N___": a page still, under a name no rule means. */
        if (id && g_str_has_prefix(id, "___object_"))
            g_warning("a <child> %s of a SegueGtkStack has no name, so is called \"%s\": give its object an id, or put it "
                      "in a <object class=\"SegueGtkStackPage\"> with a \"name\" property", G_OBJECT_TYPE_NAME(child), id);
        segue_gtk_stack_add_named(self, GTK_WIDGET(child), id);
    } else {
        parent_buildable_iface->add_child(buildable, builder, child, type);
    }
}

static void segue_gtk_stack_buildable_init(GtkBuildableIface *iface) {
    parent_buildable_iface = g_type_interface_peek_parent(iface);
    iface->add_child = segue_gtk_stack_buildable_add_child;
}

/* ---- GObject ------------------------------------------------------------- */

void segue_gtk_stack_set_animator(SegueGtkStack *self, const char *animator) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    if (g_strcmp0(self->animator, animator) == 0) return;
    g_free(self->animator);
    self->animator = g_strdup(animator);
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_ANIMATOR]);
}

const char *segue_gtk_stack_get_animator(SegueGtkStack *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), NULL);
    return self->animator;
}

void segue_gtk_stack_set_config_file(SegueGtkStack *self, const char *path) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    if (g_strcmp0(self->config_file, path) == 0) return;
    g_free(self->config_file);
    self->config_file = g_strdup(path);
    self->player_failed = FALSE;
    drop_player(self);
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_CONFIG_FILE]);
}

const char *segue_gtk_stack_get_config_file(SegueGtkStack *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), NULL);
    return self->config_file;
}

void segue_gtk_stack_set_edge_swipe(SegueGtkStack *self, gboolean edge_swipe) {
    g_return_if_fail(SEGUE_GTK_IS_STACK(self));
    if (self->edge_swipe == !!edge_swipe) return;
    self->edge_swipe = !!edge_swipe;
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_EDGE_SWIPE]);
}

gboolean segue_gtk_stack_get_edge_swipe(SegueGtkStack *self) {
    g_return_val_if_fail(SEGUE_GTK_IS_STACK(self), FALSE);
    return self->edge_swipe;
}

static void segue_gtk_stack_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    SegueGtkStack *self = SEGUE_GTK_STACK(object);
    switch (id) {
    case PROP_VISIBLE_CHILD: g_value_set_object(value, segue_gtk_stack_get_visible_child(self)); break;
    case PROP_VISIBLE_CHILD_NAME: g_value_set_string(value, segue_gtk_stack_get_visible_child_name(self)); break;
    case PROP_ANIMATOR: g_value_set_string(value, self->animator); break;
    case PROP_CONFIG_FILE: g_value_set_string(value, self->config_file); break;
    case PROP_TRANSITION_RUNNING: g_value_set_boolean(value, self->playing != NULL); break;
    case PROP_EDGE_SWIPE: g_value_set_boolean(value, self->edge_swipe); break;
    case PROP_PAGES: g_value_take_object(value, segue_gtk_stack_get_pages(self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void segue_gtk_stack_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    SegueGtkStack *self = SEGUE_GTK_STACK(object);
    switch (id) {
    case PROP_VISIBLE_CHILD: segue_gtk_stack_set_visible_child(self, g_value_get_object(value)); break;
    case PROP_VISIBLE_CHILD_NAME: segue_gtk_stack_set_visible_child_name(self, g_value_get_string(value)); break;
    case PROP_ANIMATOR: segue_gtk_stack_set_animator(self, g_value_get_string(value)); break;
    case PROP_CONFIG_FILE: segue_gtk_stack_set_config_file(self, g_value_get_string(value)); break;
    case PROP_EDGE_SWIPE: segue_gtk_stack_set_edge_swipe(self, g_value_get_boolean(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

/* Animations turned off mid-switch: the transition ends at once, as GtkStack's does. */
static void on_enable_animations(GtkSettings *settings, GParamSpec *pspec, SegueGtkStack *self) {
    (void)settings;
    (void)pspec;
    if (self->playing && !animations_enabled(self)) end_transition(self, TRUE);
}

static void forget_settings(SegueGtkStack *self) {
    if (self->settings) g_signal_handler_disconnect(self->settings, self->settings_handler);
    self->settings_handler = 0;
    g_clear_object(&self->settings);
}

/* In a window the stack follows its display's settings. */
static void segue_gtk_stack_root(GtkWidget *widget) {
    SegueGtkStack *self = SEGUE_GTK_STACK(widget);
    GTK_WIDGET_CLASS(segue_gtk_stack_parent_class)->root(widget);
    forget_settings(self);
    self->settings = g_object_ref(gtk_widget_get_settings(widget));
    self->settings_handler = g_signal_connect(self->settings, "notify::gtk-enable-animations", G_CALLBACK(on_enable_animations), self);
}

static void segue_gtk_stack_unroot(GtkWidget *widget) {
    forget_settings(SEGUE_GTK_STACK(widget));
    GTK_WIDGET_CLASS(segue_gtk_stack_parent_class)->unroot(widget);
}

static void segue_gtk_stack_unmap(GtkWidget *widget) {
    SegueGtkStack *self = SEGUE_GTK_STACK(widget);
    if (self->playing) end_transition(self, TRUE);
    GTK_WIDGET_CLASS(segue_gtk_stack_parent_class)->unmap(widget);
}

static void segue_gtk_stack_unrealize(GtkWidget *widget) {
    SegueGtkStack *self = SEGUE_GTK_STACK(widget);
    segue_gtk_mesh_free(self->mesh);
    self->mesh = NULL;
    self->mesh_failed = FALSE;
    GTK_WIDGET_CLASS(segue_gtk_stack_parent_class)->unrealize(widget);
}

static void segue_gtk_stack_dispose(GObject *object) {
    SegueGtkStack *self = SEGUE_GTK_STACK(object);
    drop_player(self);
    forget_settings(self);
    while (self->pages->len) {
        Page *page = g_ptr_array_index(self->pages, self->pages->len - 1);
        segue_gtk_stack_remove(self, page->widget);
    }
    G_OBJECT_CLASS(segue_gtk_stack_parent_class)->dispose(object);
}

static void segue_gtk_stack_finalize(GObject *object) {
    SegueGtkStack *self = SEGUE_GTK_STACK(object);
    g_ptr_array_unref(self->pages);
    g_free(self->animator);
    g_free(self->config_file);
    G_OBJECT_CLASS(segue_gtk_stack_parent_class)->finalize(object);
}

static void segue_gtk_stack_class_init(SegueGtkStackClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    object_class->get_property = segue_gtk_stack_get_property;
    object_class->set_property = segue_gtk_stack_set_property;
    object_class->dispose = segue_gtk_stack_dispose;
    object_class->finalize = segue_gtk_stack_finalize;
    widget_class->measure = segue_gtk_stack_measure;
    widget_class->size_allocate = segue_gtk_stack_size_allocate;
    widget_class->snapshot = segue_gtk_stack_snapshot;
    widget_class->unmap = segue_gtk_stack_unmap;
    widget_class->unrealize = segue_gtk_stack_unrealize;
    widget_class->root = segue_gtk_stack_root;
    widget_class->unroot = segue_gtk_stack_unroot;

    /**
     * SegueGtkStack:visible-child: (attributes org.gtk.Property.get=segue_gtk_stack_get_visible_child org.gtk.Property.set=segue_gtk_stack_set_visible_child)
     *
     * The visible page; during a transition, the page arriving.
     */
    properties[PROP_VISIBLE_CHILD] = g_param_spec_object("visible-child", NULL, NULL, GTK_TYPE_WIDGET,
                                                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStack:visible-child-name: (attributes org.gtk.Property.get=segue_gtk_stack_get_visible_child_name org.gtk.Property.set=segue_gtk_stack_set_visible_child_name)
     *
     * The visible page's name.
     */
    properties[PROP_VISIBLE_CHILD_NAME] = g_param_spec_string("visible-child-name", NULL, NULL, NULL,
                                                              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStack:animator: (attributes org.gtk.Property.get=segue_gtk_stack_get_animator org.gtk.Property.set=segue_gtk_stack_set_animator)
     *
     * The animator every switch plays, or %NULL for the config's rules.
     */
    properties[PROP_ANIMATOR] = g_param_spec_string("animator", NULL, NULL, NULL,
                                                    G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStack:config-file: (attributes org.gtk.Property.get=segue_gtk_stack_get_config_file org.gtk.Property.set=segue_gtk_stack_set_config_file)
     *
     * The Segue config file followed, or %NULL for the standard one.
     */
    properties[PROP_CONFIG_FILE] = g_param_spec_string("config-file", NULL, NULL, NULL,
                                                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStack:transition-running: (attributes org.gtk.Property.get=segue_gtk_stack_get_transition_running)
     *
     * Whether a transition plays.
     */
    properties[PROP_TRANSITION_RUNNING] = g_param_spec_boolean("transition-running", NULL, NULL, FALSE,
                                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStack:edge-swipe: (attributes org.gtk.Property.get=segue_gtk_stack_get_edge_swipe org.gtk.Property.set=segue_gtk_stack_set_edge_swipe)
     *
     * Whether a drag from the left edge goes back to the page before.
     */
    properties[PROP_EDGE_SWIPE] = g_param_spec_boolean("edge-swipe", NULL, NULL, TRUE,
                                                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
    /**
     * SegueGtkStack:pages: (attributes org.gtk.Property.get=segue_gtk_stack_get_pages)
     *
     * The pages as a GtkSelectionModel of SegueGtkStackPage, in the order added; the visible page is
     * the one selected, and selecting another shows it (with a transition).
     */
    properties[PROP_PAGES] = g_param_spec_object("pages", NULL, NULL, GTK_TYPE_SELECTION_MODEL,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, N_PROPS, properties);

    /**
     * SegueGtkStack::transition-finished:
     * @stack: the stack
     * @from: the page left
     * @to: the page gone to
     * @animator: the animator that ran last ("default" after a fallback), or "none" when the switch
     *   played no transition
     * @completed: %FALSE when an interactive transition was cancelled or the switch was refused
     *   (then @from is visible)
     * @fell_back: whether the built-in default ran instead of the animator chosen
     * @reason: why that animator ran, in `segue run`'s words; for a switch with no transition, why
     *   none played ("animations are off (gtk-enable-animations)") or why it was refused
     *
     * Emitted once for every switch, when it has ended: after a transition, and also for a switch
     * made at once (animations off, the stack not shown, a transition that could not begin: before
     * the call that asked for it returns) or refused (to an invisible page). Showing the page
     * already visible is no switch and emits nothing.
     */
    signals[TRANSITION_FINISHED] = g_signal_new("transition-finished", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                NULL, G_TYPE_NONE, 6, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                                G_TYPE_BOOLEAN, G_TYPE_BOOLEAN, G_TYPE_STRING);
    gtk_widget_class_set_css_name(widget_class, "seguestack");
    gtk_widget_class_set_accessible_role(widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
    /* A .ui file names the page type once the stack's is known (Python, GJS: GObject.type_ensure). */
    g_type_ensure(SEGUE_GTK_TYPE_STACK_PAGE);
}

/* The pointer over the stack (or over a page in it), for the anchor. */
static void on_pointer_at(GtkEventControllerMotion *motion, double x, double y, SegueGtkStack *self) {
    (void)motion;
    self->pointer_known = TRUE;
    self->pointer_x = x;
    self->pointer_y = y;
}

static void on_pointer_left(GtkEventControllerMotion *motion, SegueGtkStack *self) {
    (void)motion;
    self->pointer_known = FALSE;
}

static void segue_gtk_stack_init(SegueGtkStack *self) {
    self->pages = g_ptr_array_new();
    self->edge_swipe = TRUE;
    gtk_widget_set_overflow(GTK_WIDGET(self), GTK_OVERFLOW_HIDDEN);
    GtkGesture *drag = gtk_gesture_drag_new();
    gtk_gesture_single_set_touch_only(GTK_GESTURE_SINGLE(drag), FALSE);
    g_signal_connect(drag, "drag-begin", G_CALLBACK(on_drag_begin), self);
    g_signal_connect(drag, "drag-update", G_CALLBACK(on_drag_update), self);
    g_signal_connect(drag, "drag-end", G_CALLBACK(on_drag_end), self);
    g_signal_connect(drag, "cancel", G_CALLBACK(on_drag_cancel), self);
    gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(drag), GTK_PHASE_CAPTURE);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(drag));
    GtkEventController *motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "enter", G_CALLBACK(on_pointer_at), self);
    g_signal_connect(motion, "motion", G_CALLBACK(on_pointer_at), self);
    g_signal_connect(motion, "leave", G_CALLBACK(on_pointer_left), self);
    gtk_event_controller_set_propagation_phase(motion, GTK_PHASE_CAPTURE);
    gtk_widget_add_controller(GTK_WIDGET(self), motion);
}

GtkWidget *segue_gtk_stack_new(void) { return g_object_new(SEGUE_GTK_TYPE_STACK, NULL); }
