/*
 * What a plugin that computes beside its calls costs the program playing it.
 * The program's own work is a fixed piece of computing done once a frame (60
 * a second), timed with the wall clock: alone, while a transition of the
 * plugin plays (sampled in real time, slowed to SECONDS), and after it (the
 * player's events dispatched). Prints, per phase, the median and 90th
 * percentile time of the work and their ratio to alone, then what the
 * transition's finish and the next plan said. Built against libsegue alone.
 *
 *   plugin_cost PLUGIN_DIR ANIMATOR SECONDS
 */
#define _POSIX_C_SOURCE 200809L
#include <segue/embed.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_FRAMES 6000

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile double sink;
static long iterations = 1000000;

/* The program's own work: the same computing every time; how long it took. */
static double work(void) {
    double started = now(), x = 0;
    for (long i = 0; i < iterations; i++) x += (double)(i & 7) * 0.5;
    sink = x;
    return now() - started;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct phase { const char *name; double times[MAX_FRAMES]; int count; };

static void record(struct phase *p, double t) { if (p->count < MAX_FRAMES) p->times[p->count++] = t; }

static double percentile(struct phase *p, double q) {
    qsort(p->times, (size_t)p->count, sizeof p->times[0], compare);
    return p->count ? p->times[(int)(q * (p->count - 1))] : 0;
}

static void next_frame(double *deadline) {
    *deadline += 1.0 / 60;
    double left = *deadline - now();
    if (left > 0) nanosleep(&(struct timespec){ 0, (long)(left * 1e9) }, NULL);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: plugin_cost PLUGIN_DIR ANIMATOR SECONDS\n"); return 2; }
    double seconds = atof(argv[3]);
    const char *dirs[] = { argv[1] };
    segue_player_options_t options = { .struct_size = sizeof options, .plugin_dirs = dirs, .plugin_dir_count = 1,
        .flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS };
    segue_player_t *player;
    if (segue_player_new(&options, &player) != SEGUE_OK) { printf("new failed: %s\n", segue_error_message()); return 1; }
    /* About 2 ms of work alone. */
    double took = work();
    iterations = (long)(iterations * 0.002 / (took > 0 ? took : 0.002));

    static struct phase alone = { "alone" }, playing = { "while it plays" }, after = { "after it" };
    double deadline = now();
    for (double until = now() + seconds; now() < until; next_frame(&deadline)) record(&alone, work());

    segue_rect_t screen = { 0, 0, 390, 844 };
    segue_transition_desc_t desc = { .struct_size = sizeof desc, .bounds = screen, .going_right = true,
        .from = { .name = "home", .frame = screen }, .to = { .name = "settings", .frame = screen }, .animator = argv[2] };
    segue_transition_t *transition;
    if (segue_transition_begin(player, &desc, &transition) != SEGUE_OK) { printf("begin failed: %s\n", segue_error_message()); return 1; }
    segue_plan_info_t plan = { .struct_size = sizeof plan };
    segue_transition_plan(transition, &plan);
    printf("plan: %s%s\n", plan.animator, plan.fell_back ? " (fell back)" : "");
    segue_layer_state_t states[SEGUE_MAX_LAYERS], *layers[SEGUE_MAX_LAYERS];
    for (int i = 0; i < SEGUE_MAX_LAYERS; i++) {
        states[i] = (segue_layer_state_t){ .struct_size = sizeof states[i] };
        layers[i] = &states[i];
    }
    deadline = now();
    double started = now();
    for (double elapsed = 0; elapsed <= seconds; elapsed = now() - started, next_frame(&deadline)) {
        segue_transition_sample(transition, elapsed / seconds * plan.duration, layers, plan.layer_count);
        record(&playing, work());
    }
    segue_transition_report_t report = { .struct_size = sizeof report };
    segue_transition_finish(transition, true, &report);
    printf("finish: %s%s\n", report.animator, report.fell_back ? " (fell back)" : "");
    if (report.reason && *report.reason) printf("  why: %s\n", report.reason);
    segue_transition_free(transition);

    deadline = now();
    for (double until = now() + seconds; now() < until; next_frame(&deadline)) {
        struct pollfd descriptor = { segue_player_fd(player), POLLIN, 0 };
        if (poll(&descriptor, 1, 0) > 0) segue_player_dispatch(player);
        record(&after, work());
    }
    if (segue_transition_begin(player, &desc, &transition) == SEGUE_OK) {
        segue_transition_plan(transition, &plan);
        printf("next plan: %s%s\n  why: %s\n", plan.animator, plan.fell_back ? " (fell back)" : "", plan.reason);
        segue_transition_finish(transition, true, NULL);
        segue_transition_free(transition);
    }
    segue_player_free(player);

    double base = percentile(&alone, 0.5), base90 = percentile(&alone, 0.9);
    struct phase *phases[] = { &alone, &playing, &after };
    printf("%-18s %6s %10s %10s %8s %8s\n", "the program's work", "frames", "median ms", "p90 ms", "median x", "p90 x");
    for (int i = 0; i < 3; i++) {
        double m = percentile(phases[i], 0.5), p = percentile(phases[i], 0.9);
        printf("%-18s %6d %10.3f %10.3f %8.2f %8.2f\n", phases[i]->name, phases[i]->count, m * 1e3, p * 1e3, m / base, p / base90);
    }
    return 0;
}
