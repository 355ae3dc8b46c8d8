/* SegueGtk from C, as a program built against the installed widget:
 *   cc stack.c $(pkg-config --cflags --libs segue-gtk4)
 * A window with a stack of two pages and a switch with an animator named in code.
 * Prints the switch's end: finished|FROM|TO|ANIMATOR|COMPLETED|FELL_BACK|REASON */
#include <segue-gtk.h>

#include <stdio.h>

static GMainLoop *loop;

static void on_finished(SegueGtkStack *stack, const char *from, const char *to, const char *animator, gboolean completed,
                        gboolean fell_back, const char *reason, gpointer data) {
    (void)stack;
    (void)data;
    printf("finished|%s|%s|%s|%d|%d|%s\n", from, to, animator, completed, fell_back, reason);
    fflush(stdout);
    g_main_loop_quit(loop);
}

/* The switch, at the first frame the stack has been laid out in (before, it would switch without a transition). */
static gboolean switch_page(GtkWidget *stack, GdkFrameClock *clock, gpointer data) {
    (void)clock;
    (void)data;
    if (gtk_widget_get_width(stack) <= 0) return G_SOURCE_CONTINUE;
    segue_gtk_stack_set_visible_child_full(SEGUE_GTK_STACK(stack), "b", "SpringSlide", NULL);
    return G_SOURCE_REMOVE;
}

static gboolean give_up(gpointer data) {
    (void)data;
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(void) {
    gtk_init();
    loop = g_main_loop_new(NULL, FALSE);
    GtkWidget *window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), 320, 480);
    GtkWidget *stack = segue_gtk_stack_new();
    segue_gtk_stack_add_named(SEGUE_GTK_STACK(stack), gtk_label_new("First"), "a");
    segue_gtk_stack_add_named(SEGUE_GTK_STACK(stack), gtk_label_new("Second"), "b");
    g_signal_connect(stack, "transition-finished", G_CALLBACK(on_finished), NULL);
    gtk_window_set_child(GTK_WINDOW(window), stack);
    gtk_window_present(GTK_WINDOW(window));
    gtk_widget_add_tick_callback(stack, switch_page, NULL, NULL);
    g_timeout_add_seconds(60, give_up, NULL);
    g_main_loop_run(loop);
    gtk_window_destroy(GTK_WINDOW(window));
    g_main_loop_unref(loop);
    return 0;
}
