"""The structs of segue/embed.h as ctypes declares them: libsegue's C API,
member for member. The package's tests compare each size and offset with the
C compiler's. Private: the package's own classes are the API."""
import ctypes as C
from typing import Dict, Union


class Rect(C.Structure):
    _fields_ = [("x", C.c_double), ("y", C.c_double), ("width", C.c_double), ("height", C.c_double)]


class Vec3(C.Structure):
    _fields_ = [("x", C.c_double), ("y", C.c_double), ("z", C.c_double)]


class Element(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("name", C.c_char_p), ("frame", Rect)]


class View(C.Structure):
    _fields_ = [("name", C.c_char_p), ("frame", Rect),
                ("elements", C.POINTER(C.POINTER(Element))), ("element_count", C.c_uint32)]


class Event(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("kind", C.c_uint32), ("level", C.c_uint32),
                ("message", C.c_char_p), ("transition", C.c_void_p)]


EVENT_FN = C.CFUNCTYPE(None, C.c_void_p, C.POINTER(Event))


class PlayerOptions(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("plugin_dirs", C.POINTER(C.c_char_p)), ("plugin_dir_count", C.c_uint32),
                ("config_path", C.c_char_p), ("isolation", C.c_uint32), ("sandbox", C.c_uint32),
                ("worker_path", C.c_char_p), ("flags", C.c_uint32), ("sample_bound_us", C.c_uint32),
                ("on_event", EVENT_FN), ("user_data", C.c_void_p), ("workers_memory", C.c_uint64)]


class AnimatorInfo(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("name", C.c_char_p), ("id", C.c_char_p), ("version", C.c_char_p),
                ("description", C.c_char_p), ("file", C.c_char_p), ("param_count", C.c_uint32), ("kinds", C.c_uint32)]


class Param(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("name", C.c_char_p), ("explanation", C.c_char_p), ("type", C.c_uint32),
                ("default_value", C.c_double), ("min_value", C.c_double), ("max_value", C.c_double),
                ("choices", C.POINTER(C.c_char_p)), ("choice_count", C.c_uint32)]


class Anchor(C.Structure):
    _fields_ = [("has_rect", C.c_bool), ("has_point", C.c_bool), ("rect", Rect), ("point_x", C.c_double), ("point_y", C.c_double)]


class TransitionDesc(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("bounds", Rect), ("from_", View), ("to", View),
                ("going_right", C.c_bool), ("interactive", C.c_bool),
                ("animator", C.c_char_p), ("parameters_json", C.c_char_p), ("kind", C.c_uint32),
                ("anchor", Anchor), ("window_type", C.c_uint32), ("modal", C.c_bool)]


class LayerRequest(C.Structure):
    _fields_ = [("kind", C.c_uint32), ("element", C.c_uint32), ("mesh_columns", C.c_uint32), ("mesh_rows", C.c_uint32)]


class ElementRef(C.Structure):
    _fields_ = [("side", C.c_uint32), ("element", C.c_uint32)]


MAX_LAYERS = 8


class PlanInfo(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("duration", C.c_double), ("layer_count", C.c_uint32),
                ("layers", LayerRequest * MAX_LAYERS), ("hidden_count", C.c_uint32), ("hidden", ElementRef * MAX_LAYERS),
                ("animator", C.c_char_p), ("file", C.c_char_p), ("fell_back", C.c_bool), ("reason", C.c_char_p)]


class CornerRadii(C.Structure):
    _fields_ = [("top_left", C.c_double), ("top_right", C.c_double), ("bottom_right", C.c_double), ("bottom_left", C.c_double)]


class Clip(C.Structure):
    _fields_ = [("shape", C.c_uint32), ("rect", Rect), ("radii", CornerRadii)]


class Shadow(C.Structure):
    _fields_ = [("radius", C.c_double), ("offset_x", C.c_double), ("offset_y", C.c_double), ("red", C.c_double),
                ("green", C.c_double), ("blue", C.c_double), ("opacity", C.c_double)]


class LayerState(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("frame", Rect), ("transform", C.c_double * 16), ("alpha", C.c_double),
                ("z_position", C.c_double), ("hidden", C.c_bool), ("mesh", C.POINTER(Vec3)),
                ("mesh_vertex_count", C.c_uint32), ("clip", Clip), ("corner_radius", C.c_double), ("shadow", Shadow)]


class TransitionReport(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("animator", C.c_char_p), ("fell_back", C.c_bool), ("reason", C.c_char_p),
                ("completed", C.c_bool)]


class DrawnLayer(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("plan_index", C.c_uint32), ("request", LayerRequest), ("resting_frame", Rect),
                ("state", LayerState), ("visible", C.c_bool), ("has_mesh", C.c_bool), ("map", C.c_double * 9)]


# Each struct by its C name, for the layout check.
STRUCTS = {"segue_rect_t": Rect, "segue_vec3_t": Vec3, "segue_element_t": Element, "segue_view_t": View,
           "segue_event_t": Event, "segue_player_options_t": PlayerOptions, "segue_animator_info_t": AnimatorInfo,
           "segue_param_t": Param, "segue_transition_desc_t": TransitionDesc, "segue_layer_request_t": LayerRequest,
           "segue_element_ref_t": ElementRef, "segue_plan_info_t": PlanInfo, "segue_layer_state_t": LayerState,
           "segue_transition_report_t": TransitionReport, "segue_drawn_layer_t": DrawnLayer,
           "segue_anchor_t": Anchor, "segue_clip_t": Clip, "segue_shadow_t": Shadow}


def layouts() -> Dict[str, Dict[str, Union[int, Dict[str, int]]]]:
    """Each struct's size and its members' offsets, as ctypes lays them out ("from_" is C's "from")."""
    return {name: {"size": C.sizeof(struct),
                   "offsets": {f[0].rstrip("_"): getattr(struct, f[0]).offset for f in struct._fields_}}
            for name, struct in STRUCTS.items()}


def bind(lib: C.CDLL) -> C.CDLL:
    """Declares the argument and result types of libsegue's functions on `lib`."""
    lib.segue_api_version.restype = C.c_uint32
    lib.segue_error_message.restype = C.c_char_p
    lib.segue_player_new.argtypes = [C.POINTER(PlayerOptions), C.POINTER(C.c_void_p)]
    lib.segue_player_fd.argtypes = [C.c_void_p]
    lib.segue_player_animator_count.argtypes = [C.c_void_p]
    lib.segue_player_animator_count.restype = C.c_uint32
    lib.segue_player_animator_info.argtypes = [C.c_void_p, C.c_uint32, C.POINTER(AnimatorInfo)]
    lib.segue_player_animator_param.argtypes = [C.c_void_p, C.c_uint32, C.c_uint32, C.POINTER(Param)]
    lib.segue_player_dispatch.argtypes = [C.c_void_p]
    lib.segue_player_free.argtypes = [C.c_void_p]
    lib.segue_transition_begin.argtypes = [C.c_void_p, C.POINTER(TransitionDesc), C.POINTER(C.c_void_p)]
    lib.segue_transition_plan.argtypes = [C.c_void_p, C.POINTER(PlanInfo)]
    lib.segue_layer_mesh_vertex_count.argtypes = [C.POINTER(LayerRequest)]
    lib.segue_layer_mesh_vertex_count.restype = C.c_uint32
    lib.segue_transition_sample.argtypes = [C.c_void_p, C.c_double, C.POINTER(C.POINTER(LayerState)), C.c_uint32]
    lib.segue_transition_finish.argtypes = [C.c_void_p, C.c_bool, C.POINTER(TransitionReport)]
    lib.segue_transition_prefetch.argtypes = [C.c_void_p, C.c_double]  # libsegue 1.3
    lib.segue_transition_free.argtypes = [C.c_void_p]
    # libsegue 1.4: the helpers for hosts.
    lib.segue_sampler_new.argtypes = [C.c_void_p, C.POINTER(C.c_void_p)]
    lib.segue_sampler_sample.argtypes = [C.c_void_p, C.c_double, C.POINTER(C.c_uint32), C.POINTER(C.c_bool)]
    lib.segue_sampler_layer.argtypes = [C.c_void_p, C.c_uint32, C.POINTER(DrawnLayer)]
    lib.segue_sampler_free.argtypes = [C.c_void_p]
    lib.segue_page_back.argtypes = [C.POINTER(C.c_float), C.POINTER(C.c_float)]
    lib.segue_page_back.restype = None
    lib.segue_mesh_light.argtypes = [C.POINTER(LayerState), C.POINTER(LayerRequest), C.c_bool, C.POINTER(C.c_float), C.c_uint32]
    lib.segue_mesh_light.restype = C.c_uint32
    lib.segue_page_shading_glsl.restype = C.c_char_p
    lib.segue_edge_pan_finishes.argtypes = [C.c_double, C.c_double, C.c_double]
    lib.segue_edge_pan_finishes.restype = C.c_bool
    return lib
