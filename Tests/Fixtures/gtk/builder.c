/* SegueGtk from a GtkBuilder file: the stack and its pages as the .ui file says.
 *   builder PAGES.ui
 * Prints each child of the stack (page|NAME|TYPE, NAME "-" for none), each page's title and attention
 * (title|NAME|TITLE|NEEDS_ATTENTION, TITLE "-" for none) and the visible page
 * (visible|NAME|TYPE), then switches to "settings" and prints the switch's end
 * (finished|FROM|TO|ANIMATOR|COMPLETED|FELL_BACK|REASON; missing|settings without it), removes the page it left
 * (removed|NAME|PAGES LEFT), and frees the window and the builder before it exits. */
#include <segue-gtk.h>

#include <stdio.h>

static GMainLoop *loop;

static const char *or_dash(const char *text) { return text ? text : "-"; }

static void on_finished(SegueGtkStack *stack, const char *from, const char *to, const char *animator, gboolean completed,
                        gboolean fell_back, const char *reason, gpointer data) {
    (void)data;
    printf("finished|%s|%s|%s|%d|%d|%s\n", from, to, animator, completed, fell_back, reason);
    GtkWidget *left = segue_gtk_stack_get_child_by_name(stack, from);
    if (left) segue_gtk_stack_remove(stack, left);
    int pages = 0;
    for (GtkWidget *child = gtk_widget_get_first_child(GTK_WIDGET(stack)); child; child = gtk_widget_get_next_sibling(child)) pages++;
    printf("removed|%s|%d\n", from, pages);
    fflush(stdout);
    g_main_loop_quit(loop);
}

/* The switch, at the first frame the stack has been laid out in. */
static gboolean switch_page(GtkWidget *stack, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    (void)data;
    if (gtk_widget_get_width(stack) <= 0) return G_SOURCE_CONTINUE;
    if (!segue_gtk_stack_get_child_by_name(SEGUE_GTK_STACK(stack), "settings")) {
        printf("missing|settings\n");
        g_main_loop_quit(loop);
        return G_SOURCE_REMOVE;
    }
    segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), "settings");
    return G_SOURCE_REMOVE;
}

static gboolean give_up(gpointer data) {
    (void)data;
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: builder PAGES.ui\n");
        return 2;
    }
    gtk_init();
    loop = g_main_loop_new(NULL, FALSE);
    GtkBuilder *builder = gtk_builder_new_from_file(argv[1]);
    GtkWidget *window = GTK_WIDGET(gtk_builder_get_object(builder, "window"));
    SegueGtkStack *stack = SEGUE_GTK_STACK(gtk_builder_get_object(builder, "stack"));
    for (GtkWidget *child = gtk_widget_get_first_child(GTK_WIDGET(stack)); child; child = gtk_widget_get_next_sibling(child))
        printf("page|%s|%s\n", or_dash(segue_gtk_stack_get_page_name(stack, child)), G_OBJECT_TYPE_NAME(child));
    for (GtkWidget *child = gtk_widget_get_first_child(GTK_WIDGET(stack)); child; child = gtk_widget_get_next_sibling(child)) {
        SegueGtkStackPage *page = segue_gtk_stack_get_page(stack, child);
        printf("title|%s|%s|%d\n", or_dash(segue_gtk_stack_page_get_name(page)), or_dash(segue_gtk_stack_page_get_title(page)),
               segue_gtk_stack_page_get_needs_attention(page));
    }
    GtkWidget *visible = segue_gtk_stack_get_visible_child(stack);
    printf("visible|%s|%s\n", or_dash(segue_gtk_stack_get_visible_child_name(stack)), visible ? G_OBJECT_TYPE_NAME(visible) : "-");
    fflush(stdout);
    g_signal_connect(stack, "transition-finished", G_CALLBACK(on_finished), NULL);
    gtk_widget_add_tick_callback(GTK_WIDGET(stack), switch_page, NULL, NULL);
    g_timeout_add_seconds(60, give_up, NULL);
    gtk_window_present(GTK_WINDOW(window));
    g_main_loop_run(loop);
    gtk_window_destroy(GTK_WINDOW(window));
    g_object_unref(builder);
    g_main_loop_unref(loop);
    return 0;
}
