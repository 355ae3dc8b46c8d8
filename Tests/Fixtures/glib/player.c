/* SegueGLib from C, built against the installed segue-glib-1.pc: player.c [ANIMATOR]
 * Opens a window (700 x 475 at 100, 80 on a 1280 x 720 output) with ANIMATOR (else the config's rules)
 * and prints `layer|t|index|side|visible|alpha|x|y` for the window's layer: where its top-left corner is
 * seen, through the graphene matrix; then `finished|animator|completed|fell_back|reason`. */
#include <segue-glib.h>
#include <stdio.h>

int main(int argc, char **argv) {
    GError *error = NULL;
    SegueGLibPlayer *player = segue_glib_player_new(&error);
    if (!player) {
        fprintf(stderr, "%s\n", error->message);
        return 1;
    }
    SegueGLibRequest *request = g_object_new(SEGUE_GLIB_TYPE_REQUEST, "kind", SEGUE_GLIB_TRANSITION_KIND_APPEAR,
        "to-name", "org.gnome.Calculator", "to-x", 100.0, "to-y", 80.0, "to-width", 700.0, "to-height", 475.0,
        "bounds-width", 1280.0, "bounds-height", 720.0, "animator", argc > 1 ? argv[1] : NULL, NULL);
    SegueGLibTransition *transition = segue_glib_player_begin(player, request, &error);
    g_object_unref(request);
    if (!transition) {
        fprintf(stderr, "%s\n", error->message);
        return 1;
    }
    double duration = segue_glib_transition_get_duration(transition);
    for (int step = 0; step <= 4; step++) {
        double t = duration * step / 4;
        /* The plugin's answer, not states held from before (a late plugin's, on a busy machine), within 10 s. */
        gint64 deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
        guint count = segue_glib_transition_sample(transition, t, NULL, &error);
        while (segue_glib_transition_get_late(transition) && g_get_monotonic_time() < deadline) {
            g_usleep(2000);
            count = segue_glib_transition_sample(transition, t, NULL, &error);
        }
        for (guint i = 0; i < count; i++) {
            SegueGLibLayer *layer = segue_glib_transition_get_layer(transition, i);
            if (segue_glib_layer_get_side(layer) == SEGUE_GLIB_SIDE_TO) {
                double x, y;
                segue_glib_layer_get_resting_frame(layer, &x, &y, NULL, NULL);
                graphene_matrix_t matrix;
                segue_glib_layer_get_matrix(layer, &matrix);
                graphene_point3d_t corner = GRAPHENE_POINT3D_INIT((float)x, (float)y, 0), seen;
                graphene_vec4_t p, q;
                graphene_vec4_init(&p, corner.x, corner.y, 0, 1);
                graphene_matrix_transform_vec4(&matrix, &p, &q);
                seen.x = graphene_vec4_get_x(&q) / graphene_vec4_get_w(&q);
                seen.y = graphene_vec4_get_y(&q) / graphene_vec4_get_w(&q);
                printf("layer|%.3f|%u|to|%d|%.3f|%.1f|%.1f\n", t, i, segue_glib_layer_get_visible(layer),
                       segue_glib_layer_get_alpha(layer), seen.x, seen.y);
            }
            segue_glib_layer_unref(layer);
        }
    }
    SegueGLibReport *report = segue_glib_transition_finish(transition, TRUE, &error);
    printf("finished|%s|%d|%d|%s\n", segue_glib_report_get_animator(report), segue_glib_report_get_completed(report),
           segue_glib_report_get_fell_back(report), segue_glib_report_get_reason(report));
    g_object_unref(report);
    g_object_unref(transition);
    g_object_unref(player);
    return 0;
}
