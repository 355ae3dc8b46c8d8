/*
 * What a host following the standard config plays for one switch from "a" to
 * "b" (or, with `appear NAME`, a window called NAME opening, as a
 * compositor describes it), as a desktop's host makes its player
 * (SEGUE_PLAYER_STANDARD_CONFIG): chosen|ANIMATOR|FELL_BACK|REASON, after
 * each event the player said at start as event|KIND|MESSAGE.
 * XDG_CONFIG_HOME names the config's home.
 *
 *   chosen [appear NAME]
 */
#include <segue/embed.h>

#include <stdio.h>
#include <string.h>

static void on_event(void *user_data, const segue_event_t *event) {
    (void)user_data;
    printf("event|%u|%s\n", event->kind, event->message);
}

int main(int argc, char **argv) {
    segue_player_options_t options = { .struct_size = sizeof options, .flags = SEGUE_PLAYER_STANDARD_CONFIG, .on_event = on_event };
    segue_player_t *player;
    if (segue_player_new(&options, &player) != SEGUE_OK) {
        printf("failed|%s\n", segue_error_message());
        return 1;
    }
    segue_player_dispatch(player);
    segue_rect_t bounds = { 0, 0, 320, 480 };
    segue_transition_desc_t desc = { .struct_size = sizeof desc, .bounds = bounds, .going_right = true,
        .from = { .name = "a", .frame = bounds }, .to = { .name = "b", .frame = bounds } };
    if (argc == 3 && strcmp(argv[1], "appear") == 0) {
        segue_rect_t screen = { 0, 0, 1024, 768 }, window = { 100, 100, 400, 300 };
        desc.bounds = screen;
        desc.kind = SEGUE_TRANSITION_APPEAR;
        desc.from = (segue_view_t){ .name = NULL };
        desc.to = (segue_view_t){ .name = argv[2], .frame = window };
    } else if (argc != 1) {
        fprintf(stderr, "usage: chosen [appear NAME]\n");
        return 2;
    }
    segue_transition_t *transition;
    if (segue_transition_begin(player, &desc, &transition) != SEGUE_OK) {
        printf("failed|%s\n", segue_error_message());
        return 1;
    }
    segue_plan_info_t plan = { .struct_size = sizeof plan };
    segue_transition_plan(transition, &plan);
    printf("chosen|%s|%d|%s\n", plan.animator, plan.fell_back, plan.reason);
    segue_transition_free(transition);
    segue_player_free(player);
    return 0;
}
