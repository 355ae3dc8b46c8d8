/*
 * Counts what sampling allocates, from the first sample of a process on, as
 * a render thread sees it. The program's own malloc family stands in front
 * of the C library's for every library in the process (libsegue and the
 * Swift runtime included) and counts the calls made on a thread while it is
 * counting. Built against the installed libsegue (pkg-config segue).
 *
 *   allocations PLUGIN_DIR ANIMATOR [trace]
 *
 * Prints "first|N" (the process's first sample), "steady|N" (1,000 samples
 * across the transition), "ahead|N" (samples on a 60 Hz clock, each followed
 * by the next frame's prefetch), "clamped|STATUS|N" (a sample past the end on a new
 * thread: that thread's first message), and, with "trace", the stack of
 * each counted call on standard error.
 */
#define _GNU_SOURCE
#include <segue/embed.h>

#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Thread_local int counting;
static _Thread_local long counted;
static int tracing;

static void counted_call(void) {
    if (!counting) return;
    counted++;
    if (tracing) {
        counting = 0;
        void *frames[24];
        int depth = backtrace(frames, 24);
        backtrace_symbols_fd(frames, depth, 2);
        write(2, "--\n", 3);
        counting = 1;
    }
}

void *malloc(size_t size) { counted_call(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { counted_call(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { counted_call(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { counted_call(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { counted_call(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    counted_call();
    *out = __libc_memalign(alignment, size);
    return *out ? 0 : ENOMEM;
}

static segue_transition_t *transition;
static segue_plan_info_t plan;
static segue_layer_state_t states[SEGUE_MAX_LAYERS];
static segue_layer_state_t *pointers[SEGUE_MAX_LAYERS];
static segue_vec3_t meshes[SEGUE_MAX_LAYERS][65 * 65];

static void *first_samples(void *unused) {
    (void)unused;
    counting = 1;
    segue_transition_sample(transition, plan.duration / 3, pointers, plan.layer_count);
    long first = counted;
    for (int i = 0; i < 1000; i++) segue_transition_sample(transition, plan.duration * i / 1000.0, pointers, plan.layer_count);
    long steady = counted - first;
    /* A compositor's frames: a sample on a 60 Hz clock, then the next frame's prefetch (frames evaluated ahead). */
    for (int i = 0; i * (1 / 60.0) <= plan.duration; i++) {
        segue_transition_sample(transition, i / 60.0, pointers, plan.layer_count);
        segue_transition_prefetch(transition, (i + 1) / 60.0);
    }
    counting = 0;
    printf("first|%ld\nsteady|%ld\nahead|%ld\n", first, steady, counted - first - steady);
    return NULL;
}

/* A thread's first answer that is not SEGUE_OK sets its message. (An error
 * builds its words, naming what was wrong, and may allocate.) */
static void *other_statuses(void *unused) {
    (void)unused;
    counting = 1;
    int status = segue_transition_sample(transition, plan.duration + 1, pointers, plan.layer_count);
    counting = 0;
    printf("clamped|%d|%ld\n", status, counted);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    tracing = argc > 3;
    void *warm[1];
    backtrace(warm, 1);  /* loads what backtrace needs before anything is counted */
    const char *dirs[] = { argv[1] };
    segue_player_options_t options;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.plugin_dirs = dirs;
    options.plugin_dir_count = 1;
    options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS;
    segue_player_t *player = NULL;
    if (segue_player_new(&options, &player) != SEGUE_OK) {
        fprintf(stderr, "%s\n", segue_error_message());
        return 1;
    }
    segue_transition_desc_t desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.bounds = (segue_rect_t){ 0, 0, 390, 844 };
    desc.from = (segue_view_t){ "a", desc.bounds, NULL, 0 };
    desc.to = (segue_view_t){ "b", desc.bounds, NULL, 0 };
    desc.animator = argv[2];
    if (segue_transition_begin(player, &desc, &transition) != SEGUE_OK) {
        fprintf(stderr, "%s\n", segue_error_message());
        return 1;
    }
    plan.struct_size = sizeof plan;
    segue_transition_plan(transition, &plan);
    printf("plan|%s|%d\n", plan.animator, plan.fell_back);
    for (int i = 0; i < SEGUE_MAX_LAYERS; i++) {
        states[i].struct_size = sizeof states[i];
        states[i].mesh = meshes[i];
        states[i].mesh_vertex_count = 65 * 65;
        pointers[i] = &states[i];
    }
    pthread_t thread;
    pthread_create(&thread, NULL, first_samples, NULL);
    pthread_join(thread, NULL);
    pthread_create(&thread, NULL, other_statuses, NULL);
    pthread_join(thread, NULL);
    segue_transition_finish(transition, true, NULL);
    segue_transition_free(transition);
    segue_player_free(player);
    printf("done\n");
    return 0;
}
