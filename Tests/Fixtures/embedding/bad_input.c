/*
 * Calls libsegue with every kind of bad input a program can pass, and prints
 * one line per case: NAME|STATUS|MESSAGE. The tests check each status and the
 * words of each message. Built with the system C compiler against the
 * installed header and library alone (pkg-config segue).
 *
 *   bad_input PLUGIN_DIR BROKEN_CONFIG
 */
#define _POSIX_C_SOURCE 200809L
#include <segue/embed.h>

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void show(const char *name, int status) {
    printf("%s|%d|%s\n", name, status, status == SEGUE_OK ? "" : segue_error_message());
}

static segue_player_t *player;
static segue_transition_t *transition;
static segue_layer_state_t *pointers[SEGUE_MAX_LAYERS];
static uint32_t layer_count;

/* Samples the transition at `t` until the plugin's answer comes, not states held from before
 * (SEGUE_LATE: its worker is slow to answer on a busy machine), for at most 10 s. */
static int answered(double t) {
    struct timespec now, pause = { 0, 1000000 };
    clock_gettime(CLOCK_MONOTONIC, &now);
    time_t deadline = now.tv_sec + 10;
    int status;
    while ((status = segue_transition_sample(transition, t, pointers, layer_count)) == SEGUE_LATE && now.tv_sec < deadline) {
        nanosleep(&pause, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
    }
    return status;
}

static void *elsewhere(void *unused) {
    (void)unused;
    segue_transition_desc_t desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    segue_transition_t *other = NULL;
    show("begin from another thread", segue_transition_begin(player, &desc, &other));
    show("dispatch from another thread", segue_player_dispatch(player));
    show("finish from another thread", segue_transition_finish(transition, true, NULL));
    show("sample from another thread", answered(0.1));
    printf("animator count from another thread|%u|%s\n", segue_player_animator_count(player), segue_error_message());
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    const char *dirs[] = { argv[1] };
    segue_player_options_t options;
    memset(&options, 0, sizeof options);

    show("new with NULL options", segue_player_new(NULL, &player));
    show("new with struct_size 0", segue_player_new(&options, &player));
    options.struct_size = 8;
    show("new with a small struct_size", segue_player_new(&options, &player));
    options.struct_size = sizeof options;
    show("new with NULL out", segue_player_new(&options, NULL));
    options.plugin_dir_count = 1;
    show("new with NULL folders", segue_player_new(&options, &player));
    options.plugin_dirs = dirs;
    options.isolation = 7;
    show("new with an unknown isolation", segue_player_new(&options, &player));
    options.isolation = SEGUE_ISOLATION_PROCESS;
    options.flags = 0x80;
    show("new with unknown flags", segue_player_new(&options, &player));
    options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS;
    options.config_path = argv[2];
    show("new with a broken config", segue_player_new(&options, &player));
    options.config_path = NULL;
    show("new", segue_player_new(&options, &player));

    segue_animator_info_t info;
    memset(&info, 0, sizeof info);
    show("info with struct_size 0", segue_player_animator_info(player, 0, &info));
    info.struct_size = sizeof info;
    show("info past the last", segue_player_animator_info(player, 999, &info));
    show("info into NULL", segue_player_animator_info(player, 0, NULL));
    show("find a misspelt name", segue_player_find_animator(player, "CurlUpp", &info));
    show("find NULL", segue_player_find_animator(player, NULL, &info));
    segue_param_t param;
    memset(&param, 0, sizeof param);
    param.struct_size = sizeof param;
    show("param past the last", segue_player_animator_param(player, 0, 99, &param));

    segue_transition_desc_t desc;
    memset(&desc, 0, sizeof desc);
    show("begin with NULL desc", segue_transition_begin(player, NULL, &transition));
    show("begin with struct_size 0", segue_transition_begin(player, &desc, &transition));
    desc.struct_size = sizeof desc;
    show("begin with empty bounds", segue_transition_begin(player, &desc, &transition));
    desc.bounds = (segue_rect_t){ 0, 0, 390, 844 };
    desc.from.frame = desc.bounds;
    desc.to.frame = desc.bounds;
    show("begin with a NULL view name", segue_transition_begin(player, &desc, &transition));
    desc.from.name = "home";
    desc.to.name = "settings";
    desc.from.element_count = 2;
    show("begin with NULL elements", segue_transition_begin(player, &desc, &transition));
    segue_element_t element = { sizeof element, "photo", { 10, 10, NAN, 50 } };
    const segue_element_t *elements[2] = { NULL, &element };
    desc.from.elements = elements;
    show("begin with a NULL element", segue_transition_begin(player, &desc, &transition));
    elements[0] = &element;
    desc.from.element_count = 1;
    show("begin with a NaN frame", segue_transition_begin(player, &desc, &transition));
    element.frame.width = 50;
    desc.animator = "CurlUp";
    desc.parameters_json = "{\"duration\": 0.5,";
    show("begin with malformed parameters", segue_transition_begin(player, &desc, &transition));
    desc.parameters_json = "[1, 2]";
    show("begin with parameters not an object", segue_transition_begin(player, &desc, &transition));

    segue_plan_info_t plan;
    memset(&plan, 0, sizeof plan);
    plan.struct_size = sizeof plan;
    desc.parameters_json = NULL;
    desc.animator = "Nope";
    show("begin an unknown animator", segue_transition_begin(player, &desc, &transition));
    segue_transition_plan(transition, &plan);
    printf("plan of an unknown animator|%s|%d|%s\n", plan.animator, plan.fell_back, plan.reason);
    segue_transition_finish(transition, true, NULL);
    segue_transition_free(transition);
    desc.animator = "CurlUp";
    desc.parameters_json = "{\"duration\": 99}";
    show("begin with a parameter out of range", segue_transition_begin(player, &desc, &transition));
    segue_transition_plan(transition, &plan);
    printf("plan with a parameter out of range|%s|%d|%s\n", plan.animator, plan.fell_back, plan.reason);
    segue_transition_finish(transition, true, NULL);
    segue_transition_free(transition);

    desc.parameters_json = NULL;
    show("begin", segue_transition_begin(player, &desc, &transition));
    show("plan into NULL", segue_transition_plan(transition, NULL));
    plan.struct_size = 0;
    show("plan with struct_size 0", segue_transition_plan(transition, &plan));
    plan.struct_size = sizeof plan;
    show("plan", segue_transition_plan(transition, &plan));
    printf("plan of CurlUp|%s|%d|%u layers\n", plan.animator, plan.fell_back, plan.layer_count);

    static segue_layer_state_t states[SEGUE_MAX_LAYERS];
    layer_count = plan.layer_count;
    for (int i = 0; i < SEGUE_MAX_LAYERS; i++) pointers[i] = &states[i];
    show("sample with NULL states", segue_transition_sample(transition, 0.1, NULL, plan.layer_count));
    show("sample with too few states", segue_transition_sample(transition, 0.1, pointers, plan.layer_count - 1));
    show("sample with struct_size 0", segue_transition_sample(transition, 0.1, pointers, plan.layer_count));
    /* 8 bytes short of the smallest state libsegue takes: the animator ABI 1.3's, through mesh_vertex_count. */
    for (int i = 0; i < SEGUE_MAX_LAYERS; i++) states[i].struct_size = offsetof(segue_layer_state_t, clip) - 8;
    show("sample with a state 8 bytes short", segue_transition_sample(transition, 0.1, pointers, plan.layer_count));
    for (int i = 0; i < SEGUE_MAX_LAYERS; i++) states[i].struct_size = sizeof states[i];
    show("sample without room for the mesh", segue_transition_sample(transition, 0.1, pointers, plan.layer_count));
    static segue_vec3_t meshes[SEGUE_MAX_LAYERS][65 * 65];
    for (uint32_t i = 0; i < plan.layer_count; i++) {
        states[i].mesh = meshes[i];
        states[i].mesh_vertex_count = segue_layer_mesh_vertex_count(&plan.layers[i]);
    }
    show("sample at NaN", segue_transition_sample(transition, NAN, pointers, plan.layer_count));
    show("sample before the start", answered(-1));
    show("sample past the end", answered(plan.duration + 1));
    show("sample", answered(plan.duration / 2));

    pthread_t thread;
    pthread_create(&thread, NULL, elsewhere, NULL);
    pthread_join(thread, NULL);

    segue_transition_report_t report;
    memset(&report, 0, sizeof report);
    report.struct_size = 4;
    show("finish with a small report", segue_transition_finish(transition, true, &report));
    report.struct_size = sizeof report;
    show("finish", segue_transition_finish(transition, true, &report));
    printf("report|%s|%d|%d\n", report.animator, report.fell_back, report.completed);
    show("finish again", segue_transition_finish(transition, true, &report));
    show("sample after finish", segue_transition_sample(transition, 0.1, pointers, plan.layer_count));
    segue_transition_free(transition);
    segue_transition_free(NULL);

    float xy[2 * 4], uv[2 * 4];
    segue_rect_t bounds = desc.bounds;
    printf("project NULL|%u\n", segue_layer_project(NULL, NULL, &bounds, 1, xy, uv, 4, NULL, NULL));
    printf("project 0 divisions|%u\n", segue_layer_project(&states[0], NULL, &bounds, 0, xy, uv, 4, NULL, NULL));
    printf("project too little room|%u\n", segue_layer_project(&states[0], NULL, &bounds, 2, xy, uv, 4, NULL, NULL));
    int32_t indices[6];
    printf("indices too little room|%u\n", segue_grid_indices(2, 1, indices, 6));
    printf("spring NULL|%d\n", segue_spring_init(NULL, 1, 0.5, 0));
    printf("spring value NULL|%d\n", isnan(segue_spring_value(NULL, 0.5)));
    segue_spring_t physical;
    printf("spring physical undamped|%d\n", segue_spring_init_physical(&physical, 100, 0, 1, 0));
    bool solved = segue_spring_init_physical(&physical, 100, 10, 1, 0);
    printf("spring physical|%d|%.0f\n", solved, physical.duration * 1000);

    show("dispatch", segue_player_dispatch(player));
    segue_player_free(player);
    segue_player_free(NULL);
    printf("fd of NULL|%d\n", segue_player_fd(NULL));
    printf("done\n");
    return 0;
}
