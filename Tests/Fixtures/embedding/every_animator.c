/*
 * Plays every animator a player finds in one plugin folder (and nothing
 * else), each for its whole duration on a clock of its own, and prints one
 * line per animator: played|NAME|FILE|ANIMATOR PLAYED|FELL BACK|REASON, then
 * done. Built with the system C compiler against the installed header and
 * library alone (pkg-config segue).
 *
 *   every_animator PLUGIN_DIR
 */
#include <segue/embed.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    const char *dirs[] = { argv[1] };
    segue_player_options_t options;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.plugin_dirs = dirs;
    options.plugin_dir_count = 1;
    options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS;
    segue_player_t *player;
    if (segue_player_new(&options, &player) != SEGUE_OK) {
        printf("new failed|%s\n", segue_error_message());
        return 1;
    }
    static segue_vec3_t meshes[SEGUE_MAX_LAYERS][65 * 65];
    uint32_t count = segue_player_animator_count(player);
    for (uint32_t index = 0; index < count; index++) {
        segue_animator_info_t info = { .struct_size = sizeof info };
        if (segue_player_animator_info(player, index, &info) != SEGUE_OK || info.file == NULL) continue;
        char name[64];
        snprintf(name, sizeof name, "%s", info.name);
        segue_rect_t screen = { 0, 0, 390, 844 };
        segue_transition_desc_t desc = { .struct_size = sizeof desc, .bounds = screen, .going_right = true,
            .from = { .name = "home", .frame = screen }, .to = { .name = "settings", .frame = screen }, .animator = name };
        segue_transition_t *transition;
        if (segue_transition_begin(player, &desc, &transition) != SEGUE_OK) {
            printf("begin failed|%s|%s\n", name, segue_error_message());
            continue;
        }
        segue_plan_info_t plan = { .struct_size = sizeof plan };
        segue_transition_plan(transition, &plan);
        segue_layer_state_t states[SEGUE_MAX_LAYERS], *layers[SEGUE_MAX_LAYERS];
        for (uint32_t i = 0; i < plan.layer_count; i++) {
            states[i] = (segue_layer_state_t){ .struct_size = sizeof states[i], .mesh = meshes[i], .mesh_vertex_count = 65 * 65 };
            layers[i] = &states[i];
        }
        /* Asks each frame's answer again until it comes (a sample never waits long on a worker). */
        for (double t = 0; t <= plan.duration; t += 1.0 / 60) {
            for (int tries = 0; tries < 2000 && segue_transition_sample(transition, t, layers, plan.layer_count) == SEGUE_LATE; tries++) {}
        }
        segue_transition_report_t report = { .struct_size = sizeof report };
        segue_transition_finish(transition, true, &report);
        printf("played|%s|%s|%s|%d|%s\n", name, info.file, report.animator, report.fell_back, report.fell_back ? plan.reason : "");
        segue_transition_free(transition);
    }
    segue_player_free(player);
    printf("done\n");
    return 0;
}
