// Pins the layout of libsegue's public structs: a change that moves a member
// of version 1.0 fails to compile here instead of breaking programs at run time.
#include "segue/embed.h"

#include <stddef.h>

_Static_assert(offsetof(segue_player_options_t, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(segue_transition_desc_t, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(segue_plan_info_t, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(segue_animator_info_t, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(segue_transition_report_t, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(segue_event_t, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(segue_player_options_t, user_data) + sizeof(void *) == 72, "segue_player_options_t as in 1.0: CStruct.playerOptions10");
_Static_assert(offsetof(segue_player_options_t, workers_memory) == 72, "1.4 appended workers_memory after every 1.0 member");
_Static_assert(offsetof(segue_transition_desc_t, parameters_json) + sizeof(const char *) == 176,
               "segue_transition_desc_t as in 1.0: CStruct.transitionDesc10");
_Static_assert(offsetof(segue_transition_desc_t, kind) == 176, "1.2 appended kind after every 1.0 member");
_Static_assert(offsetof(segue_transition_desc_t, anchor) >= 180, "1.5 appended anchor, window_type and modal after kind");
_Static_assert(sizeof(segue_plan_info_t) == 248, "segue_plan_info_t as in 1.0");
_Static_assert(sizeof(segue_animator_info_t) == 56, "segue_animator_info_t as in 1.0 (1.2's kinds fills its padding)");
_Static_assert(offsetof(segue_animator_info_t, kinds) == 52, "1.2 appended kinds after every 1.0 member");
_Static_assert(sizeof(segue_transition_report_t) == 40, "segue_transition_report_t as in 1.0");
_Static_assert(sizeof(segue_event_t) == 32, "segue_event_t as in 1.0");
_Static_assert(offsetof(segue_drawn_layer_t, struct_size) == 0, "struct_size comes first");
/* 1.5: the layer state it carries grew at its end (the animator ABI 1.4's clip, corner radius and shadow), so
 * visible, has_mesh and map moved; libsegue writes 1.4's layout (CStruct.drawnLayer14 = 344 bytes: the state
 * through mesh_vertex_count, 208 bytes at offset 56, then visible at 264 and map at 272) for a program whose
 * struct_size says 1.4. */
_Static_assert(offsetof(segue_drawn_layer_t, state) == 56, "the state starts where it did in 1.4");
_Static_assert(offsetof(segue_drawn_layer_t, state) + offsetof(segue_layer_state_t, mesh_vertex_count) + sizeof(uint32_t) <= 264,
               "the 1.4 state ended by 264");
_Static_assert(sizeof(segue_drawn_layer_t) == 480, "segue_drawn_layer_t as in 1.5");
