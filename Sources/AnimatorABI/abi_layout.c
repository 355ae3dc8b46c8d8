// Pins the ABI's layout: a change that moves a member of a frozen struct fails
// to compile here instead of breaking plugins at run time.
#include "segue_animator.h"

#include <stddef.h>

_Static_assert(sizeof(segue_rect_t) == 32, "segue_rect_t is four doubles");
_Static_assert(sizeof(segue_vec3_t) == 24, "segue_vec3_t is three doubles");
_Static_assert(sizeof(segue_transform3d_t) == 128, "segue_transform3d_t is sixteen doubles");
_Static_assert(sizeof(segue_layer_request_t) == 16, "segue_layer_request_t is frozen for major 1");
_Static_assert(sizeof(segue_element_ref_t) == 8, "segue_element_ref_t is frozen for major 1");
_Static_assert(offsetof(segue_plugin_t, struct_size) == 8, "struct_size follows the version");
_Static_assert(offsetof(segue_animator_t, struct_size) == 8, "struct_size follows the version");
_Static_assert(offsetof(segue_context_t, struct_size) == 8, "struct_size follows the version");
_Static_assert(offsetof(segue_plan_t, struct_size) == 8, "struct_size follows the version");
_Static_assert(offsetof(segue_host_t, struct_size) == 8, "struct_size follows the version");
/* 1.1 appended curves after everything 1.0 had: a 1.0 plugin reads the same offsets. */
_Static_assert(offsetof(segue_context_t, curves) >= offsetof(segue_context_t, param_count) + sizeof(uint32_t),
               "curves comes after every 1.0 member");
_Static_assert(sizeof(segue_cubic_bezier_t) == 32, "segue_cubic_bezier_t is four doubles");
/* The smallest struct_size a host accepts for each plugin struct (PluginRuntime's SizedStruct.Minimum):
 * the end of its last required member in ABI 1.0. They may never grow within major 1. */
_Static_assert(offsetof(segue_plugin_t, animator_count) + sizeof(uint32_t) == 28, "SizedStruct.Minimum.plugin");
_Static_assert(offsetof(segue_animator_t, end) == 80, "SizedStruct.Minimum.animator: through evaluate");
_Static_assert(offsetof(segue_param_t, max_value) + sizeof(double) == 56, "SizedStruct.Minimum.parameter");
/* 1.4 appended clip, corner_radius and shadow after every 1.3 member of a layer state, and the anchor,
 * window type and modal flag after the context's kind: a 1.3 plugin reads and writes the same offsets. */
_Static_assert(offsetof(segue_layer_state_t, clip) >= offsetof(segue_layer_state_t, mesh_vertex_count) + sizeof(uint32_t),
               "clip comes after every 1.3 member");
_Static_assert(offsetof(segue_layer_state_t, mesh_vertex_count) == 200, "the 1.3 layer state's last member stays put");
_Static_assert(offsetof(segue_context_t, anchor) >= offsetof(segue_context_t, kind) + sizeof(uint32_t),
               "anchor comes after every 1.3 member");
_Static_assert(sizeof(segue_clip_t) == 72, "segue_clip_t: shape, rect, radii");
_Static_assert(sizeof(segue_shadow_t) == 56, "segue_shadow_t is seven doubles");
