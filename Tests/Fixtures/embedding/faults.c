/*
 * Plays one animator the way a compositor would: a render thread samples the
 * transition at the wall clock's time, about every millisecond, while the
 * main thread waits on the player's descriptor and dispatches. Built against
 * the installed libsegue (pkg-config segue) with the system C compiler.
 *
 *   faults PLUGIN_DIR ANIMATOR [end|setup|inprocess]
 *
 * Prints the plan, every event ("event|KIND|MESSAGE"), how many samples
 * answered each status, the plan after the run, and the report. With `end`
 * (a plugin that fails as it ends), it plays the transition through without
 * waiting for a fallback, and after the report dispatches until an event
 * about the plugin's end arrives. With `setup` (a plugin that hangs in
 * setup), it prints the plan begin gave and its reason, dispatches until an
 * event about the setup arrives, then begins again ("again|...").
 * With `inprocess` (the plugin in this process, SEGUE_ISOLATION_NONE), it
 * begins, prints the events begin left waiting and what the first sample
 * answered ("first|STATUS"), and finishes.
 */
#define _POSIX_C_SOURCE 200809L
#include <segue/embed.h>

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static segue_transition_t *transition;
static segue_plan_info_t plan;
static atomic_int stopping;
static atomic_int fell_back_heard;
static atomic_int end_heard;
static atomic_int setup_heard;
static long counts[4], others;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_event(void *user_data, const segue_event_t *event) {
    (void)user_data;
    printf("event|%u|%s\n", event->kind, event->message);
    if (event->kind == SEGUE_EVENT_FELL_BACK && event->transition == transition) atomic_store(&fell_back_heard, 1);
    if (strstr(event->message, " in end")) atomic_store(&end_heard, 1);
    if (strstr(event->message, " in setup")) atomic_store(&setup_heard, 1);
}

/* Dispatches the player's events until `heard` is set, for at most `seconds`. */
static void dispatch_until(segue_player_t *player, atomic_int *heard, double seconds) {
    struct pollfd descriptor = { segue_player_fd(player), POLLIN, 0 };
    double deadline = now() + seconds;
    while (now() < deadline && !atomic_load(heard)) {
        if (poll(&descriptor, 1, 100) > 0) segue_player_dispatch(player);
    }
}

/* Counts a sample's status. */
static void count(int status) {
    if (status >= 0 && status <= 3) counts[status]++;
    else others++;
}

/* The render thread: samples at the time of the wall clock since the start. */
static void *render(void *unused) {
    (void)unused;
    static segue_layer_state_t states[SEGUE_MAX_LAYERS];
    static segue_vec3_t meshes[SEGUE_MAX_LAYERS][65 * 65];
    segue_layer_state_t *pointers[SEGUE_MAX_LAYERS];
    for (int i = 0; i < SEGUE_MAX_LAYERS; i++) {
        states[i].struct_size = sizeof states[i];
        states[i].mesh = meshes[i];
        states[i].mesh_vertex_count = 65 * 65;
        pointers[i] = &states[i];
    }
    struct timespec pause = { 0, 1000000 };
    /* The clock starts once the start is the plugin's (its first frames can come after begin's bound on a
     * busy machine, and are held until then; 10 s at most): it answers before its fault, at a quarter. */
    double give_up = now() + 10;
    int status;
    do {
        status = segue_transition_sample(transition, 0, pointers, SEGUE_MAX_LAYERS);
        count(status);
        if (status == SEGUE_LATE) nanosleep(&pause, NULL);
    } while (status == SEGUE_LATE && now() < give_up && !atomic_load(&stopping));
    double start = now();
    while (!atomic_load(&stopping)) {
        count(segue_transition_sample(transition, now() - start, pointers, SEGUE_MAX_LAYERS));
        nanosleep(&pause, NULL);
    }
    return NULL;
}

int main(int argc, char **argv) {
    const char *mode = argc == 4 ? argv[3] : "";
    if (argc != 3 && !(argc == 4 && (strcmp(mode, "end") == 0 || strcmp(mode, "setup") == 0 || strcmp(mode, "inprocess") == 0))) return 2;
    bool at_end = strcmp(mode, "end") == 0, at_setup = strcmp(mode, "setup") == 0, in_process = strcmp(mode, "inprocess") == 0;
    const char *dirs[] = { argv[1] };
    segue_player_options_t options;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.plugin_dirs = dirs;
    options.plugin_dir_count = 1;
    options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS;
    options.sample_bound_us = 2000;
    options.on_event = on_event;
    if (in_process) {
        options.isolation = SEGUE_ISOLATION_NONE;
        options.flags |= SEGUE_PLAYER_ALLOW_INSECURE_PLUGINS; /* (a test's temporary folder) */
    }
    segue_player_t *player;
    if (segue_player_new(&options, &player) != SEGUE_OK) {
        printf("new failed|%s\n", segue_error_message());
        return 1;
    }
    segue_transition_desc_t desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.bounds = (segue_rect_t){ 0, 0, 390, 844 };
    desc.from.name = "home";
    desc.from.frame = desc.bounds;
    desc.to.name = "settings";
    desc.to.frame = desc.bounds;
    desc.going_right = true;
    desc.animator = argv[2];
    /* A busy machine can keep a worker's setup (ten nice levels down) past begin's bound, and the default
     * plays instead, which is not what this program tries: it begins again then, 5 times at most. */
    for (int tries = 1;; tries++) {
        if (segue_transition_begin(player, &desc, &transition) != SEGUE_OK) {
            printf("begin failed|%s\n", segue_error_message());
            return 1;
        }
        plan.struct_size = sizeof plan;
        segue_transition_plan(transition, &plan);
        if (at_setup || !plan.fell_back || !strstr(plan.reason, "did not set up within") || tries == 5) break;
        segue_transition_free(transition);
    }
    printf("plan|%s|%d|%.3f\n", plan.animator, plan.fell_back, plan.duration);
    fflush(stdout);
    if (in_process) {
        /* What begin posted is waiting already: one dispatch delivers it. */
        struct pollfd descriptor = { segue_player_fd(player), POLLIN, 0 };
        if (poll(&descriptor, 1, 0) > 0) segue_player_dispatch(player);
        static segue_layer_state_t first[SEGUE_MAX_LAYERS];
        segue_layer_state_t *firsts[SEGUE_MAX_LAYERS];
        for (int i = 0; i < SEGUE_MAX_LAYERS; i++) {
            first[i].struct_size = sizeof first[i];
            firsts[i] = &first[i];
        }
        printf("first|%d\n", segue_transition_sample(transition, 0, firsts, plan.layer_count));
        segue_transition_finish(transition, true, NULL);
        segue_transition_free(transition);
        segue_player_free(player);
        printf("done\n");
        return 0;
    }
    if (at_setup) {
        printf("reason|%s\n", plan.reason);
        fflush(stdout);
        dispatch_until(player, &setup_heard, 20);  /* what the setup did comes later */
        segue_transition_t *again;
        if (segue_transition_begin(player, &desc, &again) != SEGUE_OK) {
            printf("begin failed|%s\n", segue_error_message());
            return 1;
        }
        segue_plan_info_t second;
        memset(&second, 0, sizeof second);
        second.struct_size = sizeof second;
        segue_transition_plan(again, &second);
        printf("again|%s|%d|%s\n", second.animator, second.fell_back, second.reason);
        segue_transition_free(again);
        segue_transition_free(transition);
        segue_player_free(player);
        printf("done\n");
        return 0;
    }

    pthread_t thread;
    pthread_create(&thread, NULL, render, NULL);
    /* The main loop: the player's descriptor, for at most 20 s, until the fallback is heard and the transition is over. */
    if (!at_end) dispatch_until(player, &fell_back_heard, 20);
    struct timespec rest = { 0, (long)(plan.duration * 1e9) };
    nanosleep(&rest, NULL);
    atomic_store(&stopping, 1);
    pthread_join(thread, NULL);
    printf("statuses|%ld|%ld|%ld|%ld|%ld\n", counts[SEGUE_OK], counts[SEGUE_LATE], counts[SEGUE_DEFAULT_TOOK_OVER],
           counts[SEGUE_CLAMPED], others);

    segue_plan_info_t after;
    memset(&after, 0, sizeof after);
    after.struct_size = sizeof after;
    segue_transition_plan(transition, &after);
    printf("after|%s|%d|%u|%s\n", after.animator, after.fell_back, after.layer_count, after.reason);
    segue_transition_report_t report;
    memset(&report, 0, sizeof report);
    report.struct_size = sizeof report;
    segue_transition_finish(transition, true, &report);
    printf("report|%s|%d|%d\n", report.animator, report.fell_back, report.completed);
    printf("reason|%s\n", report.reason);
    fflush(stdout);
    if (at_end) dispatch_until(player, &end_heard, 20);  /* what the plugin's end did comes later */
    segue_transition_free(transition);
    segue_player_free(player);
    printf("done\n");
    return 0;
}
