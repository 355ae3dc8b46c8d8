/* SegueGtk keeping GTK's platform contract, as GtkStack does, from a program built against the installed widget:
 *   contract animations|refused|pages|switcher|roles|config|late
 * animations: gtk-enable-animations off, then on, then off during a transition; prints running|0|1 after each switch
 * refused:    switches made at once (the stack not shown, the visible page hidden) and refused (to a hidden page)
 * pages:      the "pages" selection model: items (item|POSITION|NAME|TITLE|SELECTED), changes, a selection
 * switcher:   a SegueGtkStackSwitcher's buttons (button|LABEL|PRESSED|ATTENTION), one activated, a page shown
 * roles:      accessible roles (role|WIDGET|NICK)
 * config:     one switch from a to b chosen by the standard config's rules (XDG_CONFIG_HOME), no animator named
 * late:       an interactive switch to b with TestFade (a plugin 50 ms an evaluation) held at 0.5: whether the
 *             transition was late before it, at the first frame drawn and once a frame had the plugin's answer
 *             (late|WHEN|0 or 1, frames|N: the frames drawn until then), then cancelled
 * Each switch's end: finished|FROM|TO|ANIMATOR|COMPLETED|FELL_BACK|REASON. Waits are on conditions, each with a
 * deadline (timeout|WHAT, exit 1 when one passes). */
#include <segue-gtk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int finished_count;
static GtkWidget *window, *stack, *switcher;

static void on_finished(SegueGtkStack *s, const char *from, const char *to, const char *animator, gboolean completed,
                        gboolean fell_back, const char *reason, gpointer data) {
    (void)s;
    (void)data;
    printf("finished|%s|%s|%s|%d|%d|%s\n", from, to, animator, completed, fell_back, reason);
    fflush(stdout);
    finished_count++;
}

static gboolean expired;
static gboolean expire(gpointer data) {
    (void)data;
    expired = TRUE;
    return G_SOURCE_REMOVE;
}

/* Runs the main loop until @done, or fails after 30 seconds. */
static void until(gboolean (*done)(void), const char *what) {
    expired = FALSE;
    guint deadline = g_timeout_add_seconds(30, expire, NULL);
    while (!done()) {
        if (expired) {
            printf("timeout|%s\n", what);
            fflush(stdout);
            exit(1);
        }
        g_main_context_iteration(NULL, TRUE);
    }
    if (!expired) g_source_remove(deadline);
}

static gboolean laid_out(void) { return gtk_widget_get_mapped(stack) && gtk_widget_get_width(stack) > 0; }
static int finished_target;
static gboolean switched(void) { return finished_count >= finished_target; }

static void set_animations(gboolean on) { g_object_set(gtk_settings_get_default(), "gtk-enable-animations", on, NULL); }

static void print_running(void) {
    printf("running|%d\n", segue_gtk_stack_get_transition_running(SEGUE_GTK_STACK(stack)));
    fflush(stdout);
}

static GtkWidget *new_stack(void) {
    stack = segue_gtk_stack_new();
    segue_gtk_stack_set_animator(SEGUE_GTK_STACK(stack), "SpringSlide");
    segue_gtk_stack_add_titled(SEGUE_GTK_STACK(stack), gtk_label_new("First"), "a", "First");
    segue_gtk_stack_add_titled(SEGUE_GTK_STACK(stack), gtk_label_new("Second"), "b", "Second");
    segue_gtk_stack_add_titled(SEGUE_GTK_STACK(stack), gtk_label_new("Third"), "c", "Third");
    g_signal_connect(stack, "transition-finished", G_CALLBACK(on_finished), NULL);
    return stack;
}

static void show(GtkWidget *child) {
    window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), 320, 480);
    gtk_window_set_child(GTK_WINDOW(window), child);
    gtk_window_present(GTK_WINDOW(window));
    until(laid_out, "laid out");
}

static void animations(void) {
    show(new_stack());
    set_animations(FALSE);
    segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), "b");
    print_running();
    /* Turned on again, the next switch plays. */
    set_animations(TRUE);
    finished_target = finished_count + 1;
    segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), "c");
    print_running();
    until(switched, "the switch to c");
    /* Turned off while one plays: it ends then. */
    segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), "a");
    print_running();
    set_animations(FALSE);
    print_running();
}

static void refused(void) {
    new_stack();
    /* Not in a shown window: at once. */
    segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), "b");
    show(stack);
    SegueGtkStackPage *third = segue_gtk_stack_get_page(SEGUE_GTK_STACK(stack), segue_gtk_stack_get_child_by_name(SEGUE_GTK_STACK(stack), "c"));
    segue_gtk_stack_page_set_visible(third, FALSE);
    segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), "c");
    printf("visible|%s\n", segue_gtk_stack_get_visible_child_name(SEGUE_GTK_STACK(stack)));
    /* The visible page hidden: the first visible one, at once. */
    gtk_widget_set_visible(segue_gtk_stack_get_child_by_name(SEGUE_GTK_STACK(stack), "b"), FALSE);
    printf("visible|%s\n", segue_gtk_stack_get_visible_child_name(SEGUE_GTK_STACK(stack)));
}

static void print_items(GtkSelectionModel *pages) {
    for (guint i = 0; i < g_list_model_get_n_items(G_LIST_MODEL(pages)); i++) {
        SegueGtkStackPage *page = g_list_model_get_item(G_LIST_MODEL(pages), i);
        printf("item|%u|%s|%s|%d\n", i, segue_gtk_stack_page_get_name(page), segue_gtk_stack_page_get_title(page),
               gtk_selection_model_is_selected(pages, i));
        g_object_unref(page);
    }
    fflush(stdout);
}

static void on_items_changed(GListModel *model, guint position, guint removed, guint added, gpointer data) {
    (void)model, (void)data;
    printf("items-changed|%u|%u|%u\n", position, removed, added);
}

static void on_selection_changed(GtkSelectionModel *model, guint position, guint count, gpointer data) {
    (void)model, (void)position, (void)count, (void)data;
    printf("selection-changed\n");
}

static void pages(void) {
    show(new_stack());
    GtkSelectionModel *pages = segue_gtk_stack_get_pages(SEGUE_GTK_STACK(stack));
    GtkSelectionModel *again = NULL;
    g_object_get(stack, "pages", &again, NULL);
    printf("same|%d\n", pages == again);
    g_object_unref(again);
    g_signal_connect(pages, "items-changed", G_CALLBACK(on_items_changed), NULL);
    g_signal_connect(pages, "selection-changed", G_CALLBACK(on_selection_changed), NULL);
    print_items(pages);
    finished_target = finished_count + 1;
    segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), "b");
    until(switched, "the switch to b");
    print_items(pages);
    /* Selecting an item shows its page. */
    finished_target = finished_count + 1;
    printf("select|%d\n", gtk_selection_model_select_item(pages, 2, TRUE));
    until(switched, "the switch to c");
    printf("visible|%s\n", segue_gtk_stack_get_visible_child_name(SEGUE_GTK_STACK(stack)));
    segue_gtk_stack_add_titled(SEGUE_GTK_STACK(stack), gtk_label_new("Fourth"), "d", "Fourth");
    segue_gtk_stack_remove(SEGUE_GTK_STACK(stack), segue_gtk_stack_get_child_by_name(SEGUE_GTK_STACK(stack), "a"));
    print_items(pages);
    g_object_unref(pages);
}

static void print_buttons(void) {
    for (GtkWidget *button = gtk_widget_get_first_child(switcher); button; button = gtk_widget_get_next_sibling(button)) {
        const char *label = gtk_button_get_label(GTK_BUTTON(button));
        printf("button|%s|%d|%d\n", label ? label : gtk_widget_get_tooltip_text(button),
               gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(button)), gtk_widget_has_css_class(button, "needs-attention"));
    }
    fflush(stdout);
}

static GtkWidget *with_switcher(void) {
    new_stack();
    switcher = segue_gtk_stack_switcher_new();
    segue_gtk_stack_switcher_set_stack(SEGUE_GTK_STACK_SWITCHER(switcher), SEGUE_GTK_STACK(stack));
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_box_append(GTK_BOX(box), switcher);
    gtk_widget_set_vexpand(stack, TRUE);
    gtk_box_append(GTK_BOX(box), stack);
    return box;
}

static SegueGtkStackPage *page_called(const char *name) {
    return segue_gtk_stack_get_page(SEGUE_GTK_STACK(stack), segue_gtk_stack_get_child_by_name(SEGUE_GTK_STACK(stack), name));
}

static void switcher_buttons(void) {
    show(with_switcher());
    segue_gtk_stack_page_set_visible(page_called("b"), FALSE);
    segue_gtk_stack_page_set_needs_attention(page_called("c"), TRUE);
    print_buttons();
    /* The second button (the page "c"), activated as a click does. */
    finished_target = finished_count + 1;
    gtk_widget_activate(gtk_widget_get_next_sibling(gtk_widget_get_first_child(switcher)));
    until(switched, "the switch to c");
    printf("visible|%s\n", segue_gtk_stack_get_visible_child_name(SEGUE_GTK_STACK(stack)));
    print_buttons();
    segue_gtk_stack_page_set_visible(page_called("b"), TRUE);
    segue_gtk_stack_page_set_icon_name(page_called("a"), "go-home-symbolic");
    print_buttons();
}

static const char *role(GtkWidget *widget) {
    GEnumClass *roles = g_type_class_ref(GTK_TYPE_ACCESSIBLE_ROLE);
    GEnumValue *value = g_enum_get_value(roles, gtk_accessible_get_accessible_role(GTK_ACCESSIBLE(widget)));
    g_type_class_unref(roles);
    return value ? value->value_nick : "?";
}

static void roles(void) {
    show(with_switcher());
    printf("role|stack|%s\n", role(stack));
    printf("role|switcher|%s\n", role(switcher));
    printf("role|button|%s\n", role(gtk_widget_get_first_child(switcher)));
}

static void config(void) {
    stack = segue_gtk_stack_new();
    segue_gtk_stack_add_titled(SEGUE_GTK_STACK(stack), gtk_label_new("First"), "a", "First");
    segue_gtk_stack_add_titled(SEGUE_GTK_STACK(stack), gtk_label_new("Second"), "b", "Second");
    g_signal_connect(stack, "transition-finished", G_CALLBACK(on_finished), NULL);
    show(stack);
    finished_target = finished_count + 1;
    segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), "b");
    until(switched, "the switch to b");
}

/* Frames drawn, counted after each paint; a tick callback keeps the frame clock running until the next. */
static int painted, painted_target;
static void on_after_paint(GdkFrameClock *clock, gpointer data) { (void)clock, (void)data; painted++; }
static gboolean painted_enough(void) { return painted >= painted_target; }
static gboolean keep_drawing(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)widget, (void)clock, (void)data;
    return painted < painted_target ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}
static void next_frame(void) {
    painted_target = painted + 1;
    gtk_widget_add_tick_callback(window, keep_drawing, NULL, NULL);
    until(painted_enough, "a frame");
}

static void print_late(const char *when) {
    printf("late|%s|%d\n", when, segue_gtk_stack_get_transition_late(SEGUE_GTK_STACK(stack)));
    fflush(stdout);
}

static void late(void) {
    show(new_stack());
    segue_gtk_stack_set_animator(SEGUE_GTK_STACK(stack), "TestFade");
    g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(on_after_paint), NULL);
    print_late("before");
    if (!segue_gtk_stack_begin_interactive(SEGUE_GTK_STACK(stack), "b")) {
        printf("begin refused\n");
        return;
    }
    /* The frame at 0.5 was never asked for: its sample waits the bound (4 ms), not the plugin's 50 ms. */
    segue_gtk_stack_update_interactive(SEGUE_GTK_STACK(stack), 0.5);
    next_frame();
    print_late("first");
    int frames = 1;
    for (; frames < 600 && segue_gtk_stack_get_transition_late(SEGUE_GTK_STACK(stack)); frames++) next_frame();
    print_late("answered");
    printf("frames|%d\n", frames);
    finished_target = finished_count + 1;
    segue_gtk_stack_end_interactive(SEGUE_GTK_STACK(stack), FALSE, 0);
    until(switched, "the cancelled switch");
    print_late("after");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: contract animations|refused|pages|switcher|roles|config|late\n");
        return 2;
    }
    gtk_init();
    if (strcmp(argv[1], "animations") == 0) animations();
    else if (strcmp(argv[1], "refused") == 0) refused();
    else if (strcmp(argv[1], "pages") == 0) pages();
    else if (strcmp(argv[1], "switcher") == 0) switcher_buttons();
    else if (strcmp(argv[1], "roles") == 0) roles();
    else if (strcmp(argv[1], "config") == 0) config();
    else if (strcmp(argv[1], "late") == 0) late();
    else return 2;
    fflush(stdout);
    gtk_window_destroy(GTK_WINDOW(window));
    return 0;
}
