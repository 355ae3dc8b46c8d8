/*
 * Follows the standard config as a desktop host does (SEGUE_PLAYER_STANDARD_CONFIG
 * with SEGUE_PLAYER_WATCH) while the config is written, broken, removed and
 * written again, and prints what each stage's closing window plays:
 * stage|NAME|ANIMATOR, and each event as event|KIND|MESSAGE. Built with the
 * system C compiler against the installed header and library alone.
 *
 *   follow_config PLUGIN_DIR        (XDG_CONFIG_HOME names the config's home)
 */
#define _POSIX_C_SOURCE 200809L
#include <segue/embed.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Events about the config (reloaded, config-error): a stage's others (a busy machine's late first
 * frames) do not say the config was read. */
static int config_events;

static void on_event(void *user_data, const segue_event_t *event) {
    (void)user_data;
    printf("event|%u|%s\n", event->kind, event->message);
    if (event->kind == SEGUE_EVENT_RELOADED || event->kind == SEGUE_EVENT_CONFIG_ERROR) config_events++;
}

/* Dispatches until an event about the config arrives, for at most 10 s. */
static void await_config_event(segue_player_t *player) {
    int before = config_events;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        struct pollfd descriptor = { segue_player_fd(player), POLLIN, 0 };
        if (poll(&descriptor, 1, 100) > 0) segue_player_dispatch(player);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (config_events == before && now.tv_sec - start.tv_sec < 10);
}

static void stage(segue_player_t *player, const char *name) {
    segue_rect_t screen = { 0, 0, 800, 600 }, window = { 100, 100, 300, 200 };
    segue_transition_desc_t desc = { .struct_size = sizeof desc, .bounds = screen, .kind = SEGUE_TRANSITION_DISAPPEAR,
        .from = { .name = "org.kde.kcalc", .frame = window }, .to = { .name = NULL } };
    segue_transition_t *transition;
    if (segue_transition_begin(player, &desc, &transition) != SEGUE_OK) {
        printf("stage|%s|begin failed: %s\n", name, segue_error_message());
        return;
    }
    segue_plan_info_t plan = { .struct_size = sizeof plan };
    segue_transition_plan(transition, &plan);
    printf("stage|%s|%s\n", name, plan.animator);
    segue_transition_finish(transition, true, NULL);
    segue_transition_free(transition);
    fflush(stdout);
}

static void write_config(const char *path, const char *text) {
    char temporary[4200];
    snprintf(temporary, sizeof temporary, "%s.new", path);
    FILE *file = fopen(temporary, "w");
    if (!file) exit(3);
    fputs(text, file);
    fclose(file);
    rename(temporary, path); /* as editors save */
}

int main(int argc, char **argv) {
    if (argc != 2 || !getenv("XDG_CONFIG_HOME")) return 2;
    char folder[2048], path[4096];
    snprintf(folder, sizeof folder, "%s/segue", getenv("XDG_CONFIG_HOME"));
    snprintf(path, sizeof path, "%s/segue.json", folder);
    const char *dirs[] = { argv[1] };
    segue_player_options_t options = { .struct_size = sizeof options, .plugin_dirs = dirs, .plugin_dir_count = 1,
        .flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS | SEGUE_PLAYER_WATCH | SEGUE_PLAYER_STANDARD_CONFIG, .on_event = on_event };
    segue_player_t *player;
    if (segue_player_new(&options, &player) != SEGUE_OK) {
        printf("new failed|%s\n", segue_error_message());
        return 1;
    }
    segue_player_dispatch(player);
    stage(player, "absent");

    mkdir(folder, 0755);
    write_config(path, "{\"rules\": [{\"disappear\": \"org.kde.kcalc\", \"animator\": \"TestFade\"}]}");
    await_config_event(player);
    stage(player, "written");

    write_config(path, "{\"rules\": [{\"disappear\": \"org.kde.kcalc\", \"animator\": }]}");
    await_config_event(player);
    stage(player, "broken");

    unlink(path);
    await_config_event(player);
    stage(player, "removed");

    write_config(path, "{\"rules\": [{\"disappear\": \"org.kde.kcalc\", \"animator\": \"TestFade\"}]}");
    await_config_event(player);
    stage(player, "back");

    segue_player_free(player);
    printf("done\n");
    return 0;
}
