"""Plays Segue animators from Python through libsegue, with ctypes alone.

No compile step: the structs below are the header's (segue/embed.h), as a
Python tool would declare them. Reads a JSON request on standard input:

  {"library": ".../libsegue.so.1", "plugins": [...], "config": null or path,
   "transitions": [{"bounds": [w, h],
                    "from": {"name": "a", "frame": [x, y, w, h], "elements": [["photo", [x, y, w, h]]]},
                    "to": {...}, "going_right": true, "interactive": false,
                    "animator": "CurlUp" or null, "parameters": "{...}" or null,
                    "times": [0.0, 0.1]}]}

and prints one JSON document: the struct sizes ctypes laid out, the
animators with their parameters, and for each transition its plan and the
layer states at each time (with the status of each sample).
"""
import ctypes as C
import json
import sys


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
                ("on_event", EVENT_FN), ("user_data", C.c_void_p)]


class AnimatorInfo(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("name", C.c_char_p), ("id", C.c_char_p), ("version", C.c_char_p),
                ("description", C.c_char_p), ("file", C.c_char_p), ("param_count", C.c_uint32)]


class Param(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("name", C.c_char_p), ("explanation", C.c_char_p), ("type", C.c_uint32),
                ("default_value", C.c_double), ("min_value", C.c_double), ("max_value", C.c_double),
                ("choices", C.POINTER(C.c_char_p)), ("choice_count", C.c_uint32)]


class TransitionDesc(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("bounds", Rect), ("from_", View), ("to", View),
                ("going_right", C.c_bool), ("interactive", C.c_bool),
                ("animator", C.c_char_p), ("parameters_json", C.c_char_p)]


class LayerRequest(C.Structure):
    _fields_ = [("kind", C.c_uint32), ("element", C.c_uint32), ("mesh_columns", C.c_uint32), ("mesh_rows", C.c_uint32)]


class ElementRef(C.Structure):
    _fields_ = [("side", C.c_uint32), ("element", C.c_uint32)]


class PlanInfo(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("duration", C.c_double), ("layer_count", C.c_uint32),
                ("layers", LayerRequest * 8), ("hidden_count", C.c_uint32), ("hidden", ElementRef * 8),
                ("animator", C.c_char_p), ("file", C.c_char_p), ("fell_back", C.c_bool), ("reason", C.c_char_p)]


class LayerState(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("frame", Rect), ("transform", C.c_double * 16), ("alpha", C.c_double),
                ("z_position", C.c_double), ("hidden", C.c_bool), ("mesh", C.POINTER(Vec3)),
                ("mesh_vertex_count", C.c_uint32)]


def text(value):
    return None if value is None else value.decode("utf-8")


def main():
    request = json.load(sys.stdin)
    lib = C.CDLL(request["library"])
    lib.segue_api_version.restype = C.c_uint32
    lib.segue_error_message.restype = C.c_char_p
    lib.segue_player_new.argtypes = [C.POINTER(PlayerOptions), C.POINTER(C.c_void_p)]
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
    lib.segue_transition_finish.argtypes = [C.c_void_p, C.c_bool, C.c_void_p]
    lib.segue_transition_free.argtypes = [C.c_void_p]

    out = {"version": lib.segue_api_version(),
           "sizes": {"options": C.sizeof(PlayerOptions), "desc": C.sizeof(TransitionDesc), "plan": C.sizeof(PlanInfo),
                     "info": C.sizeof(AnimatorInfo), "state": C.sizeof(LayerState)},
           "events": [], "animators": [], "transitions": []}

    def on_event(_, event):
        out["events"].append(text(event.contents.message))
    callback = EVENT_FN(on_event)

    folders = (C.c_char_p * len(request["plugins"]))(*[f.encode() for f in request["plugins"]])
    options = PlayerOptions(struct_size=C.sizeof(PlayerOptions), plugin_dirs=folders,
                            plugin_dir_count=len(request["plugins"]), flags=1, on_event=callback)
    if request.get("config"):
        options.config_path = request["config"].encode()
    player = C.c_void_p()
    if lib.segue_player_new(C.byref(options), C.byref(player)) != 0:
        sys.exit("segue_player_new: " + text(lib.segue_error_message()))
    lib.segue_player_dispatch(player)

    for i in range(lib.segue_player_animator_count(player)):
        info = AnimatorInfo(struct_size=C.sizeof(AnimatorInfo))
        assert lib.segue_player_animator_info(player, i, C.byref(info)) == 0
        parameters = []
        for j in range(info.param_count):
            p = Param(struct_size=C.sizeof(Param))
            assert lib.segue_player_animator_param(player, i, j, C.byref(p)) == 0
            parameters.append({"name": text(p.name), "type": p.type, "default": p.default_value,
                               "min": p.min_value, "max": p.max_value,
                               "choices": [text(p.choices[k]) for k in range(p.choice_count)]})
        out["animators"].append({"name": text(info.name), "id": text(info.id), "file": text(info.file),
                                 "parameters": parameters})

    keep = []  # what the structs point to lives until the end
    for spec in request["transitions"]:
        def view(side):
            elements = [Element(struct_size=C.sizeof(Element), name=e[0].encode(), frame=Rect(*e[1]))
                        for e in side.get("elements", [])]
            pointers = (C.POINTER(Element) * max(len(elements), 1))(*[C.pointer(e) for e in elements])
            keep.extend([elements, pointers])
            return View(name=side["name"].encode(), frame=Rect(*side["frame"]),
                        elements=pointers if elements else None, element_count=len(elements))
        desc = TransitionDesc(struct_size=C.sizeof(TransitionDesc), bounds=Rect(0, 0, *spec["bounds"]),
                              from_=view(spec["from"]), to=view(spec["to"]), going_right=spec["going_right"],
                              interactive=spec.get("interactive", False))
        if spec.get("animator"):
            desc.animator = spec["animator"].encode()
        if spec.get("parameters"):
            desc.parameters_json = spec["parameters"].encode()
        transition = C.c_void_p()
        if lib.segue_transition_begin(player, C.byref(desc), C.byref(transition)) != 0:
            sys.exit("segue_transition_begin: " + text(lib.segue_error_message()))
        plan = PlanInfo(struct_size=C.sizeof(PlanInfo))
        assert lib.segue_transition_plan(transition, C.byref(plan)) == 0
        states = [LayerState(struct_size=C.sizeof(LayerState)) for _ in range(plan.layer_count)]
        for state, layer in zip(states, plan.layers):
            count = lib.segue_layer_mesh_vertex_count(C.byref(layer))
            if count:
                mesh = (Vec3 * count)()
                keep.append(mesh)
                state.mesh, state.mesh_vertex_count = C.cast(mesh, C.POINTER(Vec3)), count
        pointers = (C.POINTER(LayerState) * plan.layer_count)(*[C.pointer(s) for s in states])
        samples = []
        for t in spec["times"]:
            status = lib.segue_transition_sample(transition, t, pointers, plan.layer_count)
            samples.append({"t": t, "status": status, "layers": [
                {"frame": [s.frame.x, s.frame.y, s.frame.width, s.frame.height], "transform": list(s.transform),
                 "alpha": s.alpha, "z": s.z_position, "hidden": s.hidden,
                 "mesh": [[s.mesh[k].x, s.mesh[k].y, s.mesh[k].z] for k in range(s.mesh_vertex_count)]}
                for s in states]})
        out["transitions"].append({
            "animator": text(plan.animator), "file": text(plan.file), "duration": plan.duration,
            "fell_back": plan.fell_back, "reason": text(plan.reason),
            "layers": [[l.kind, l.element, l.mesh_columns, l.mesh_rows] for l in plan.layers[:plan.layer_count]],
            "hidden": [[h.side, h.element] for h in plan.hidden[:plan.hidden_count]],
            "samples": samples})
        assert lib.segue_transition_finish(transition, True, None) == 0
        lib.segue_transition_free(transition)
    lib.segue_player_dispatch(player)
    lib.segue_player_free(player)
    json.dump(out, sys.stdout)


main()
