/*
 * segue-gtk-demo: an app of three real pages (a list, a form, a picture) in a
 * SegueGtkStack, titled, under a SegueGtkStackSwitcher. Right and Left (or
 * the buttons, or the switcher's tabs) go to the next and previous page; a
 * drag from the left edge goes back, following the finger. The config's
 * rules choose each switch's animator by the pages' names.
 *
 *   segue-gtk-demo [--config FILE] [--animator NAME] [--size WxH]
 *       the window; first the stack's top in the window (stack-top|Y) and the
 *       middle of each of the switcher's tabs (tab|TITLE|X|Y), then ready;
 *       each switch's end is a line on standard output:
 *       finished|FROM|TO|ANIMATOR|COMPLETED|FELL_BACK|REASON
 *       (ANIMATOR "none" when it played no transition: animations off)
 *   segue-gtk-demo --frames DIR --animator NAME --fractions F,F,... [--from P --to P] [--origin ELEMENT] [--wait-pointer]
 *       (the stack alone in the window, no switcher) holds the switch at each fraction and writes what the window's
 *       renderer draws: DIR/rest-PAGE.png (each page at rest), and per
 *       fraction DIR/frame-F.png (the stack over black) and DIR/page-PAGE-F.png
 *       (each page as drawn then, its hidden elements hidden); lines:
 *       element|SIDE|NAME|X|Y|W|H and held|F|PATH, then done; with --origin, each
 *       switch comes from the from page's element of that name (the anchor's
 *       rectangle), first told as origin|X|Y|W|H; with --wait-pointer, it says
 *       waiting-pointer and waits (30 s at most) for the pointer to move over
 *       the stack, then says pointer|X|Y (the stack's anchor point) first
 *   segue-gtk-demo --benchmark [--animators A,B,...] [--rounds N]
 *       plays each animator and GtkStack's own ROTATE_LEFT and SLIDE_LEFT
 *       between the same pages and prints each one's frame times:
 *       bench|NAME|FRAMES|FPS|MEDIAN_MS|P90_MS (a frame: the frame clock's
 *       layout, paint and render, timed from before-paint to after-paint)
 */
#include <segue-gtk.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const page_names[] = { "list", "form", "picture" };
static const char *const page_titles[] = { "Places", "Booking", "Lofoten" };
enum { PAGES = 3 };

static struct {
    const char *config, *animator, *frames, *fractions, *from, *to, *animators, *origin;
    int width, height, rounds;
    gboolean benchmark, wait_pointer;
} options = { .width = 390, .height = 844, .from = "list", .to = "picture", .rounds = 3,
              .animators = "default,SpringSlide,CurlUp,ImageZoom" };

static GtkWidget *window, *stack, *switcher;
static GMainLoop *loop;
static int finished_count;

/* ---- The pages ----------------------------------------------------------- */

/* A landscape drawn with cairo: a picture with detail everywhere. */
static GdkTexture *landscape(int width, int height) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    cairo_pattern_t *sky = cairo_pattern_create_linear(0, 0, 0, height);
    cairo_pattern_add_color_stop_rgb(sky, 0, 0.16, 0.38, 0.74);
    cairo_pattern_add_color_stop_rgb(sky, 1, 0.96, 0.72, 0.46);
    cairo_set_source(cr, sky);
    cairo_paint(cr);
    cairo_pattern_destroy(sky);
    cairo_set_source_rgb(cr, 0.99, 0.86, 0.3);
    cairo_arc(cr, width * 0.72, height * 0.3, height * 0.12, 0, 2 * G_PI);
    cairo_fill(cr);
    for (int ridge = 0; ridge < 3; ridge++) {
        cairo_move_to(cr, 0, height);
        for (int x = 0; x <= width; x += 4)
            cairo_line_to(cr, x, height * (0.55 + 0.12 * ridge) + height * 0.08 * sin(x * (0.021 + 0.013 * ridge) + ridge));
        cairo_line_to(cr, width, height);
        cairo_set_source_rgb(cr, 0.18 - 0.05 * ridge, 0.42 - 0.08 * ridge, 0.28 - 0.06 * ridge);
        cairo_fill(cr);
    }
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    GBytes *bytes = g_bytes_new(cairo_image_surface_get_data(surface), (gsize)cairo_image_surface_get_stride(surface) * height);
    GdkTexture *texture = gdk_memory_texture_new(width, height, GDK_MEMORY_DEFAULT, bytes, cairo_image_surface_get_stride(surface));
    g_bytes_unref(bytes);
    cairo_surface_destroy(surface);
    return texture;
}

/* Goes @step pages on; @origin (may be NULL), the button clicked, is where the switch comes from. */
static void go(int step, GtkWidget *origin) {
    const char *visible = segue_gtk_stack_get_visible_child_name(SEGUE_GTK_STACK(stack));
    for (int i = 0; i < PAGES; i++) {
        if (strcmp(page_names[i], visible) == 0 && i + step >= 0 && i + step < PAGES) {
            GtkWidget *page = segue_gtk_stack_get_child_by_name(SEGUE_GTK_STACK(stack), page_names[i + step]);
            segue_gtk_stack_set_visible_child_from(SEGUE_GTK_STACK(stack), page, origin);
            return;
        }
    }
}

static void on_next(GtkButton *button, gpointer data) { (void)data; go(1, GTK_WIDGET(button)); }
static void on_back(GtkButton *button, gpointer data) { (void)data; go(-1, GTK_WIDGET(button)); }

static GtkWidget *page(const char *css_class, const char *title, gboolean back, gboolean next) {
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_widget_add_css_class(box, "page");
    gtk_widget_add_css_class(box, css_class);
    GtkWidget *bar = gtk_center_box_new();
    gtk_widget_add_css_class(bar, "bar");
    GtkWidget *heading = gtk_label_new(title);
    gtk_widget_add_css_class(heading, "title-2");
    gtk_center_box_set_center_widget(GTK_CENTER_BOX(bar), heading);
    if (back) {
        GtkWidget *button = gtk_button_new_with_label("Back");
        g_signal_connect(button, "clicked", G_CALLBACK(on_back), NULL);
        gtk_center_box_set_start_widget(GTK_CENTER_BOX(bar), button);
    }
    if (next) {
        GtkWidget *button = gtk_button_new_with_label("Next");
        g_signal_connect(button, "clicked", G_CALLBACK(on_next), NULL);
        gtk_center_box_set_end_widget(GTK_CENTER_BOX(bar), button);
    }
    gtk_box_append(GTK_BOX(box), bar);
    return box;
}

static GtkWidget *list_page(GdkTexture *photo) {
    GtkWidget *box = page("list", "Places", FALSE, TRUE);
    (void)photo;
    GdkTexture *small = landscape(160, 120);
    GtkWidget *thumbnail = gtk_picture_new_for_paintable(GDK_PAINTABLE(small));
    g_object_unref(small);
    gtk_picture_set_can_shrink(GTK_PICTURE(thumbnail), TRUE);
    gtk_widget_set_size_request(thumbnail, 160, 120);
    segue_gtk_set_element_name(thumbnail, "photo");
    GtkWidget *featured = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    gtk_widget_set_margin_start(featured, 16);
    gtk_widget_set_margin_end(featured, 16);
    gtk_box_append(GTK_BOX(featured), thumbnail);
    GtkWidget *blurb = gtk_label_new("Featured: Lofoten, where the mountains meet the sea. Tap Next to book.");
    gtk_label_set_wrap(GTK_LABEL(blurb), TRUE);
    gtk_label_set_xalign(GTK_LABEL(blurb), 0);
    gtk_widget_set_hexpand(blurb, TRUE);
    gtk_box_append(GTK_BOX(featured), blurb);
    gtk_box_append(GTK_BOX(box), featured);
    GtkWidget *list = gtk_list_box_new();
    gtk_widget_add_css_class(list, "boxed-list");
    gtk_widget_set_margin_start(list, 16);
    gtk_widget_set_margin_end(list, 16);
    static const char *const places[] = { "Lake Bled", "Hallstatt", "Lofoten", "Cinque Terre", "Dolomites", "Skye", "Tatra" };
    for (size_t i = 0; i < G_N_ELEMENTS(places); i++) {
        GtkWidget *row = gtk_label_new(places[i]);
        gtk_label_set_xalign(GTK_LABEL(row), 0);
        gtk_widget_set_margin_top(row, 10);
        gtk_widget_set_margin_bottom(row, 10);
        gtk_widget_set_margin_start(row, 12);
        gtk_list_box_append(GTK_LIST_BOX(list), row);
    }
    gtk_box_append(GTK_BOX(box), list);
    return box;
}

static GtkWidget *form_page(void) {
    GtkWidget *box = page("form", "Booking", TRUE, TRUE);
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(grid), 10);
    gtk_grid_set_column_spacing(GTK_GRID(grid), 10);
    gtk_widget_set_margin_start(grid, 16);
    gtk_widget_set_margin_end(grid, 16);
    static const char *const fields[][2] = { { "Name", "Ada Lovelace" }, { "E-mail", "ada@example.org" }, { "Nights", "3" } };
    for (int i = 0; i < 3; i++) {
        gtk_grid_attach(GTK_GRID(grid), gtk_label_new(fields[i][0]), 0, i, 1, 1);
        GtkWidget *entry = gtk_entry_new();
        gtk_editable_set_text(GTK_EDITABLE(entry), fields[i][1]);
        gtk_widget_set_hexpand(entry, TRUE);
        gtk_grid_attach(GTK_GRID(grid), entry, 1, i, 1, 1);
    }
    gtk_grid_attach(GTK_GRID(grid), gtk_label_new("Breakfast"), 0, 3, 1, 1);
    GtkWidget *toggle = gtk_switch_new();
    gtk_switch_set_active(GTK_SWITCH(toggle), TRUE);
    gtk_widget_set_halign(toggle, GTK_ALIGN_START);
    gtk_grid_attach(GTK_GRID(grid), toggle, 1, 3, 1, 1);
    gtk_box_append(GTK_BOX(box), grid);
    GtkWidget *book = gtk_button_new_with_label("Book");
    gtk_widget_add_css_class(book, "suggested-action");
    gtk_widget_set_margin_start(book, 16);
    gtk_widget_set_margin_end(book, 16);
    gtk_box_append(GTK_BOX(box), book);
    return box;
}

static GtkWidget *picture_page(GdkTexture *photo) {
    GtkWidget *box = page("picture", "Lofoten", TRUE, FALSE);
    GtkWidget *picture = gtk_picture_new_for_paintable(GDK_PAINTABLE(photo));
    gtk_picture_set_can_shrink(GTK_PICTURE(picture), TRUE);
    gtk_widget_set_size_request(picture, -1, 280);
    segue_gtk_set_element_name(picture, "photo");
    gtk_box_append(GTK_BOX(box), picture);
    GtkWidget *caption = gtk_label_new("Reine, in the evening. The fishing village lies between the mountains and the sea.");
    gtk_label_set_wrap(GTK_LABEL(caption), TRUE);
    gtk_widget_set_margin_start(caption, 16);
    gtk_widget_set_margin_end(caption, 16);
    gtk_box_append(GTK_BOX(box), caption);
    return box;
}

static const char css[] =
    ".page { padding-bottom: 16px; }\n"
    ".bar { padding: 10px 12px; background: alpha(black, 0.06); }\n"
    ".list { background: #fbfaf7; }\n"
    ".form { background: #e8f0fb; }\n"
    ".picture { background: #2b2d33; color: #f2f2f2; }\n";

/* ---- Output -------------------------------------------------------------- */

static void on_finished(SegueGtkStack *s, const char *from, const char *to, const char *animator, gboolean completed,
                        gboolean fell_back, const char *reason, gpointer data) {
    (void)s;
    (void)data;
    printf("finished|%s|%s|%s|%d|%d|%s\n", from, to, animator, completed, fell_back, reason);
    fflush(stdout);
    finished_count++;
}

/* What the window's renderer draws of @paintable at @width x @height, over black when @black. */
static void save(GdkPaintable *paintable, int width, int height, gboolean black, const char *path) {
    GtkSnapshot *snapshot = gtk_snapshot_new();
    if (black) gtk_snapshot_append_color(snapshot, &(GdkRGBA){ 0, 0, 0, 1 }, &GRAPHENE_RECT_INIT(0, 0, width, height));
    gdk_paintable_snapshot(paintable, snapshot, width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    /* A widget that has not been drawn since it was shown (a page an animator keeps hidden) draws nothing. */
    if (!node) node = gsk_color_node_new(&(GdkRGBA){ 0, 0, 0, 0 }, &GRAPHENE_RECT_INIT(0, 0, width, height));
    GskRenderer *renderer = gtk_native_get_renderer(GTK_NATIVE(window));
    GdkTexture *texture = gsk_renderer_render_texture(renderer, node, &GRAPHENE_RECT_INIT(0, 0, width, height));
    if (!gdk_texture_save_to_png(texture, path)) {
        fprintf(stderr, "segue-gtk-demo: cannot write %s\n", path);
        exit(1);
    }
    g_object_unref(texture);
    gsk_render_node_unref(node);
}

static void save_widget(GtkWidget *widget, gboolean black, const char *path) {
    GdkPaintable *paintable = gtk_widget_paintable_new(widget);
    /* Its border box (gtk_widget_get_height() leaves the padding out). */
    save(paintable, gdk_paintable_get_intrinsic_width(paintable), gdk_paintable_get_intrinsic_height(paintable), black, path);
    g_object_unref(paintable);
}

/* Runs the main loop until @done says so (a frame drawn, a transition ended). */
static void until(gboolean (*done)(void)) {
    while (!done()) g_main_context_iteration(NULL, TRUE);
}

static int frames_drawn;
static void on_after_paint(GdkFrameClock *clock, gpointer data) { (void)clock; (void)data; frames_drawn++; }
static int frames_target;
static gboolean frame_drawn(void) { return frames_drawn >= frames_target; }
/* Keeps the frame clock running (a tick asks for the next frame) until @count frames are drawn. */
static gboolean keep_drawing(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
    (void)clock, (void)data;
    gtk_widget_queue_draw(widget);
    return frames_drawn >= frames_target ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}
static void next_frames(int count) {
    frames_target = frames_drawn + count;
    gtk_widget_add_tick_callback(window, keep_drawing, NULL, NULL);
    until(frame_drawn);
}
static int finished_target;
static gboolean transition_ended(void) { return finished_count >= finished_target; }

/* Goes to @name at once: an interactive switch let go at its end, flung. */
static void jump(const char *name) {
    if (strcmp(segue_gtk_stack_get_visible_child_name(SEGUE_GTK_STACK(stack)), name) == 0) return;
    finished_target = finished_count + 1;
    if (!segue_gtk_stack_begin_interactive(SEGUE_GTK_STACK(stack), name)) {
        fprintf(stderr, "segue-gtk-demo: cannot go to %s\n", name);
        exit(1);
    }
    segue_gtk_stack_update_interactive(SEGUE_GTK_STACK(stack), 1);
    segue_gtk_stack_end_interactive(SEGUE_GTK_STACK(stack), TRUE, 1e6);
    until(transition_ended);
}

/* The element called @name inside @widget, or NULL. */
static GtkWidget *element_named(GtkWidget *widget, const char *name) {
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        const char *element = segue_gtk_get_element_name(child);
        if (element && strcmp(element, name) == 0) return child;
        GtkWidget *inside = element_named(child, name);
        if (inside) return inside;
    }
    return NULL;
}

static void print_elements(int side, GtkWidget *widget) {
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        const char *name = segue_gtk_get_element_name(child);
        graphene_rect_t b;
        if (name && gtk_widget_compute_bounds(child, stack, &b))
            printf("element|%d|%s|%g|%g|%g|%g\n", side, name, b.origin.x, b.origin.y, b.size.width, b.size.height);
        print_elements(side, child);
    }
}

/* Where the pointer last moved over the stack, as the stack sees it (its anchor point). */
static gboolean pointer_seen;
static double pointer_x, pointer_y;
static void on_pointer(GtkEventControllerMotion *motion, double x, double y, gpointer data) {
    (void)motion, (void)data;
    pointer_seen = TRUE;
    pointer_x = x;
    pointer_y = y;
}
static gint64 pointer_deadline;
static gboolean pointer_or_deadline(void) { return pointer_seen || g_get_monotonic_time() > pointer_deadline; }
static gboolean wake(gpointer data) { (void)data; return G_SOURCE_CONTINUE; }

static int frames(void) {
    char path[4096];
    if (options.wait_pointer) {
        GtkEventController *motion = gtk_event_controller_motion_new();
        g_signal_connect(motion, "motion", G_CALLBACK(on_pointer), NULL);
        gtk_widget_add_controller(stack, motion);
        printf("waiting-pointer\n");
        fflush(stdout);
        pointer_deadline = g_get_monotonic_time() + 30 * G_USEC_PER_SEC;
        guint waking = g_timeout_add(100, wake, NULL); /* the deadline is looked at with nothing else to do */
        until(pointer_or_deadline);
        g_source_remove(waking);
        if (!pointer_seen) {
            fprintf(stderr, "segue-gtk-demo: the pointer did not move over the stack in 30 s\n");
            return 1;
        }
        printf("pointer|%g|%g\n", pointer_x, pointer_y);
    }
    segue_gtk_stack_set_animator(SEGUE_GTK_STACK(stack), options.animator);
    next_frames(2);
    for (int i = 0; i < PAGES; i++) {
        jump(page_names[i]);
        next_frames(1);
        snprintf(path, sizeof path, "%s/rest-%s.png", options.frames, page_names[i]);
        save_widget(stack, FALSE, path);
    }
    jump(options.from);
    next_frames(1);
    GtkWidget *from = segue_gtk_stack_get_child_by_name(SEGUE_GTK_STACK(stack), options.from);
    GtkWidget *to = segue_gtk_stack_get_child_by_name(SEGUE_GTK_STACK(stack), options.to);
    print_elements(0, from);
    GtkWidget *origin = options.origin ? element_named(from, options.origin) : NULL;
    graphene_rect_t b;
    if (options.origin && !(origin && gtk_widget_compute_bounds(origin, stack, &b))) {
        fprintf(stderr, "segue-gtk-demo: the page %s has no element called %s\n", options.from, options.origin);
        return 1;
    }
    if (origin) printf("origin|%g|%g|%g|%g\n", b.origin.x, b.origin.y, b.size.width, b.size.height);
    gchar **fractions = g_strsplit(options.fractions, ",", -1);
    for (gchar **f = fractions; *f; f++) {
        double fraction = g_ascii_strtod(*f, NULL);
        if (!segue_gtk_stack_begin_interactive_from(SEGUE_GTK_STACK(stack), options.to, origin)) {
            fprintf(stderr, "segue-gtk-demo: cannot begin a switch to %s\n", options.to);
            return 1;
        }
        if (f == fractions) print_elements(1, to);
        segue_gtk_stack_update_interactive(SEGUE_GTK_STACK(stack), fraction);
        next_frames(2);
        /* The plugin's states at the fraction, not older ones held while its worker catches up (on a busy
           machine): a frame more while they are late, 600 frames at most. */
        for (int i = 0; i < 600 && segue_gtk_stack_get_transition_late(SEGUE_GTK_STACK(stack)); i++) next_frames(1);
        snprintf(path, sizeof path, "%s/frame-%s.png", options.frames, *f);
        save_widget(stack, TRUE, path);
        printf("held|%s|%s\n", *f, path);
        snprintf(path, sizeof path, "%s/page-%s-%s.png", options.frames, options.from, *f);
        save_widget(from, FALSE, path);
        snprintf(path, sizeof path, "%s/page-%s-%s.png", options.frames, options.to, *f);
        save_widget(to, FALSE, path);
        fflush(stdout);
        finished_target = finished_count + 1;
        segue_gtk_stack_end_interactive(SEGUE_GTK_STACK(stack), FALSE, 1e6);
        until(transition_ended);
    }
    g_strfreev(fractions);
    printf("done\n");
    return 0;
}

/* ---- The benchmark ------------------------------------------------------- */

static gint64 paint_started;
static GArray *frame_times; /* double, milliseconds */
static void on_before_paint(GdkFrameClock *clock, gpointer data) { (void)clock; (void)data; paint_started = g_get_monotonic_time(); }
static void on_after_paint_timed(GdkFrameClock *clock, gpointer data) {
    (void)clock;
    (void)data;
    if (frame_times && paint_started) {
        double ms = (g_get_monotonic_time() - paint_started) / 1e3;
        g_array_append_val(frame_times, ms);
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, gint64 elapsed) {
    g_array_sort(frame_times, compare);
    guint n = frame_times->len;
    double median = n ? g_array_index(frame_times, double, n / 2) : 0, p90 = n ? g_array_index(frame_times, double, n * 9 / 10) : 0;
    printf("bench|%s|%u|%.1f|%.3f|%.3f\n", name, n, n / (elapsed / 1e6), median, p90);
    fflush(stdout);
}

static GtkWidget *gtk_stack_of_pages;
static gboolean gtk_stack_settled(void) { return !gtk_stack_get_transition_running(GTK_STACK(gtk_stack_of_pages)); }

static int benchmark(GdkTexture *photo) {
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    g_signal_connect(clock, "before-paint", G_CALLBACK(on_before_paint), NULL);
    g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint_timed), NULL);
    next_frames(2);
    gchar **animators = g_strsplit(options.animators, ",", -1);
    for (gchar **a = animators; *a; a++) {
        segue_gtk_stack_set_animator(SEGUE_GTK_STACK(stack), *a);
        frame_times = g_array_new(FALSE, FALSE, sizeof(double));
        gint64 elapsed = 0;
        for (int round = 0; round < options.rounds; round++) {
            for (int way = 0; way < 2; way++) {
                finished_target = finished_count + 1;
                gint64 started = g_get_monotonic_time();
                segue_gtk_stack_set_visible_child_name(SEGUE_GTK_STACK(stack), way ? options.from : options.to);
                until(transition_ended);
                elapsed += g_get_monotonic_time() - started;
            }
        }
        report(*a, elapsed);
        g_array_free(frame_times, TRUE);
        frame_times = NULL;
    }
    g_strfreev(animators);
    /* GtkStack's own transitions, between the same pages, in the same window. */
    gtk_stack_of_pages = gtk_stack_new();
    gtk_stack_add_named(GTK_STACK(gtk_stack_of_pages), list_page(photo), "list");
    gtk_stack_add_named(GTK_STACK(gtk_stack_of_pages), form_page(), "form");
    gtk_stack_add_named(GTK_STACK(gtk_stack_of_pages), picture_page(photo), "picture");
    gtk_stack_set_visible_child_name(GTK_STACK(gtk_stack_of_pages), options.from);
    gtk_window_set_child(GTK_WINDOW(window), gtk_stack_of_pages);
    stack = gtk_stack_of_pages;
    next_frames(2);
    static const struct { const char *name; GtkStackTransitionType type; } kinds[] = {
        { "GtkStack ROTATE_LEFT", GTK_STACK_TRANSITION_TYPE_ROTATE_LEFT }, { "GtkStack SLIDE_LEFT", GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT } };
    for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
        gtk_stack_set_transition_type(GTK_STACK(gtk_stack_of_pages), kinds[k].type);
        frame_times = g_array_new(FALSE, FALSE, sizeof(double));
        gint64 elapsed = 0;
        for (int round = 0; round < options.rounds; round++) {
            for (int way = 0; way < 2; way++) {
                gint64 started = g_get_monotonic_time();
                gtk_stack_set_visible_child_name(GTK_STACK(gtk_stack_of_pages), way ? options.from : options.to);
                next_frames(1);
                until(gtk_stack_settled);
                elapsed += g_get_monotonic_time() - started;
            }
        }
        report(kinds[k].name, elapsed);
        g_array_free(frame_times, TRUE);
        frame_times = NULL;
    }
    return 0;
}

/* ---- The window ---------------------------------------------------------- */

static gboolean on_key(GtkEventControllerKey *keys, guint keyval, guint keycode, GdkModifierType state, gpointer data) {
    (void)keys, (void)keycode, (void)state, (void)data;
    if (keyval == GDK_KEY_Right) go(1, NULL);
    else if (keyval == GDK_KEY_Left) go(-1, NULL);
    else if (keyval == GDK_KEY_q || keyval == GDK_KEY_Escape) g_main_loop_quit(loop);
    else return FALSE;
    return TRUE;
}

static gboolean mapped(void) { return gtk_widget_get_mapped(stack) && gtk_widget_get_width(stack) > 0; }

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--config") == 0 && next) options.config = argv[++i];
        else if (strcmp(argv[i], "--animator") == 0 && next) options.animator = argv[++i];
        else if (strcmp(argv[i], "--frames") == 0 && next) options.frames = argv[++i];
        else if (strcmp(argv[i], "--fractions") == 0 && next) options.fractions = argv[++i];
        else if (strcmp(argv[i], "--from") == 0 && next) options.from = argv[++i];
        else if (strcmp(argv[i], "--to") == 0 && next) options.to = argv[++i];
        else if (strcmp(argv[i], "--origin") == 0 && next) options.origin = argv[++i];
        else if (strcmp(argv[i], "--animators") == 0 && next) options.animators = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0 && next) options.rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--size") == 0 && next && sscanf(argv[i + 1], "%dx%d", &options.width, &options.height) == 2) i++;
        else if (strcmp(argv[i], "--benchmark") == 0) options.benchmark = TRUE;
        else if (strcmp(argv[i], "--wait-pointer") == 0) options.wait_pointer = TRUE;
        else {
            fprintf(stderr, "usage: segue-gtk-demo [--config FILE] [--animator NAME] [--size WxH]\n"
                            "       segue-gtk-demo --frames DIR --animator NAME --fractions F,... [--from PAGE --to PAGE] [--origin ELEMENT]\n"
                            "                      [--wait-pointer]\n"
                            "       segue-gtk-demo --benchmark [--animators A,B,...] [--rounds N]\n");
            return 2;
        }
    }
    if (options.frames && !options.fractions) options.fractions = "0.5";
    gtk_init();
    GtkCssProvider *provider = gtk_css_provider_new();
    gtk_css_provider_load_from_data(provider, css, -1);
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(provider),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    GdkTexture *photo = landscape(640, 480);
    window = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(window), "Segue GTK demo");
    gtk_window_set_default_size(GTK_WINDOW(window), options.width, options.height);
    gtk_window_set_resizable(GTK_WINDOW(window), FALSE);
    stack = segue_gtk_stack_new();
    segue_gtk_stack_set_config_file(SEGUE_GTK_STACK(stack), options.config);
    segue_gtk_stack_set_animator(SEGUE_GTK_STACK(stack), options.animator);
    GtkWidget *pages[PAGES] = { list_page(photo), form_page(), picture_page(photo) };
    for (int i = 0; i < PAGES; i++) segue_gtk_stack_add_titled(SEGUE_GTK_STACK(stack), pages[i], page_names[i], page_titles[i]);
    g_signal_connect(stack, "transition-finished", G_CALLBACK(on_finished), NULL);
    if (options.frames || options.benchmark) {
        /* Measured alone: the pictures and timings are the stack's. */
        gtk_window_set_child(GTK_WINDOW(window), stack);
    } else {
        GtkWidget *column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
        switcher = segue_gtk_stack_switcher_new();
        segue_gtk_stack_switcher_set_stack(SEGUE_GTK_STACK_SWITCHER(switcher), SEGUE_GTK_STACK(stack));
        gtk_widget_set_halign(switcher, GTK_ALIGN_CENTER);
        gtk_widget_set_margin_top(switcher, 6);
        gtk_widget_set_margin_bottom(switcher, 6);
        gtk_box_append(GTK_BOX(column), switcher);
        gtk_widget_set_vexpand(stack, TRUE);
        gtk_box_append(GTK_BOX(column), stack);
        gtk_window_set_child(GTK_WINDOW(window), column);
    }
    GtkEventController *keys = gtk_event_controller_key_new();
    g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), NULL);
    gtk_widget_add_controller(window, keys);
    loop = g_main_loop_new(NULL, FALSE);
    g_signal_connect_swapped(window, "close-request", G_CALLBACK(g_main_loop_quit), loop);
    gtk_widget_realize(window);
    g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(on_after_paint), NULL);
    gtk_window_present(GTK_WINDOW(window));
    until(mapped);
    int status = 0;
    if (options.frames) status = frames();
    else if (options.benchmark) status = benchmark(photo);
    else {
        graphene_point_t top;
        if (!gtk_widget_compute_point(stack, window, &GRAPHENE_POINT_INIT(0, 0), &top)) top.y = 0;
        printf("stack-top|%d\n", (int)top.y);
        for (GtkWidget *tab = gtk_widget_get_first_child(switcher); tab; tab = gtk_widget_get_next_sibling(tab)) {
            graphene_point_t middle;
            if (gtk_widget_compute_point(tab, window, &GRAPHENE_POINT_INIT(gtk_widget_get_width(tab) / 2.f, gtk_widget_get_height(tab) / 2.f),
                                         &middle))
                printf("tab|%s|%d|%d\n", gtk_button_get_label(GTK_BUTTON(tab)), (int)middle.x, (int)middle.y);
        }
        printf("ready\n");
        fflush(stdout);
        g_main_loop_run(loop);
    }
    gtk_window_destroy(GTK_WINDOW(window));
    g_object_unref(photo);
    return status;
}
