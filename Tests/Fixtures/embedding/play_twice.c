/*
 * Plays ANIMATOR from PLUGIN_DIR once to its end, finishes it, waits WAIT
 * seconds (dispatching the player's events), then begins it again, and prints
 * what each plan said: plan|N|ANIMATOR|FELL_BACK|REASON, then done. Given
 * PLAY, the first transition is sampled at 60 frames a second of real time,
 * slowed to last PLAY seconds, and what its finish said follows its plan:
 * finish|ANIMATOR|FELL_BACK|REASON. Built with the system C compiler against the installed
 * header and library alone.
 *
 *   play_twice PLUGIN_DIR ANIMATOR WAIT [PLAY]
 */
#define _POSIX_C_SOURCE 200809L
#include <segue/embed.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static segue_transition_t *begin(segue_player_t *player, const char *animator, int n) {
    segue_rect_t screen = { 0, 0, 390, 844 };
    segue_transition_desc_t desc = { .struct_size = sizeof desc, .bounds = screen, .going_right = true,
        .from = { .name = "home", .frame = screen }, .to = { .name = "settings", .frame = screen }, .animator = animator };
    segue_transition_t *transition;
    if (segue_transition_begin(player, &desc, &transition) != SEGUE_OK) {
        printf("begin failed|%s\n", segue_error_message());
        exit(1);
    }
    segue_plan_info_t plan = { .struct_size = sizeof plan };
    segue_transition_plan(transition, &plan);
    printf("plan|%d|%s|%d|%s\n", n, plan.animator, plan.fell_back, plan.reason);
    fflush(stdout);
    return transition;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) return 2;
    const char *dirs[] = { argv[1] };
    segue_player_options_t options = { .struct_size = sizeof options, .plugin_dirs = dirs, .plugin_dir_count = 1,
        .flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS };
    segue_player_t *player;
    if (segue_player_new(&options, &player) != SEGUE_OK) {
        printf("new failed|%s\n", segue_error_message());
        return 1;
    }
    segue_transition_t *first = begin(player, argv[2], 1);
    segue_layer_state_t states[SEGUE_MAX_LAYERS], *layers[SEGUE_MAX_LAYERS];
    for (int i = 0; i < SEGUE_MAX_LAYERS; i++) {
        states[i] = (segue_layer_state_t){ .struct_size = sizeof states[i] };
        layers[i] = &states[i];
    }
    segue_plan_info_t plan = { .struct_size = sizeof plan };
    segue_transition_plan(first, &plan);
    if (argc == 5) {
        double play = atof(argv[4]), started = now();
        for (double elapsed = 0; elapsed <= play; elapsed = now() - started) {
            segue_transition_sample(first, elapsed / play * plan.duration, layers, plan.layer_count);
            nanosleep(&(struct timespec){ 0, 1000000000 / 60 }, NULL);
        }
        segue_transition_report_t report = { .struct_size = sizeof report };
        segue_transition_finish(first, true, &report);
        printf("finish|%s|%d|%s\n", report.animator, report.fell_back, report.reason ? report.reason : "");
    } else {
        for (double t = 0; t <= plan.duration; t += 1.0 / 60) segue_transition_sample(first, t, layers, plan.layer_count);
        segue_transition_finish(first, true, NULL);
    }
    segue_transition_free(first);
    double until = now() + atof(argv[3]);
    while (now() < until) {
        struct pollfd descriptor = { segue_player_fd(player), POLLIN, 0 };
        if (poll(&descriptor, 1, 100) > 0) segue_player_dispatch(player);
    }
    segue_transition_t *second = begin(player, argv[2], 2);
    segue_transition_finish(second, true, NULL);
    segue_transition_free(second);
    segue_player_free(player);
    printf("done\n");
    return 0;
}
