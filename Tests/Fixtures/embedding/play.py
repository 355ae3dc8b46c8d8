"""Plays Segue animators from Python through libsegue, with the segue package
(Integrations/python: ctypes, no compile step). Reads a JSON request on
standard input:

  {"library": ".../libsegue.so.1", "package": ".../Integrations/python",
   "plugins": [...], "config": null or path,
   "transitions": [{"bounds": [w, h],
                    "from": {"name": "a", "frame": [x, y, w, h], "elements": [["photo", [x, y, w, h]]]},
                    "to": {...}, "going_right": true, "interactive": false,
                    "animator": "CurlUp" or null, "parameters": "{...}" or null,
                    "times": [0.0, 0.1]}]}

and prints one JSON document: the struct sizes ctypes laid out, the
animators with their parameters, and for each transition its plan and the
layer states at each time (with the status of each sample).
"""
import json
import sys
import time

KINDS = {"from": 0, "to": 1, "from-snapshot": 2, "to-snapshot": 3}
TYPES = {"number": 0, "integer": 1, "boolean": 2, "choice": 3, "curve": 4}


def as_listed(p):
    """A parameter's default and range as libsegue lists them, all numbers, from the package's
    terms (a config's): a choice or a curve by its index, the built-in default's "spring" as -1."""
    if p.type in ("number", "integer"):
        return {"default": p.default, "min": p.min, "max": p.max}
    if p.type == "boolean":
        return {"default": float(p.default), "min": 0, "max": 1}
    first = -1 if p.type == "curve" and p.choices[0] == "spring" else 0
    return {"default": p.choices.index(p.default) + first, "min": first, "max": len(p.choices) - 1 + first}


def main():
    request = json.load(sys.stdin)
    sys.path.insert(0, request["package"])
    import segue
    from segue import _abi
    import ctypes as C
    segue.library(request["library"])
    major, minor = segue.api_version()
    out = {"version": major << 16 | minor,
           "sizes": {"options": C.sizeof(_abi.PlayerOptions), "desc": C.sizeof(_abi.TransitionDesc),
                     "plan": C.sizeof(_abi.PlanInfo), "info": C.sizeof(_abi.AnimatorInfo), "state": C.sizeof(_abi.LayerState)},
           "events": [], "animators": [], "transitions": []}
    with segue.Player(request["plugins"], request.get("config"), only_given_folders=True,
                      on_event=lambda event: out["events"].append(event.message)) as player:
        player.dispatch()
        for animator in player.animators:
            out["animators"].append({"name": animator.name, "id": animator.id, "file": animator.file, "parameters": [
                dict(name=p.name, type=TYPES[p.type], choices=list(p.choices), **as_listed(p)) for p in animator.parameters]})
        for spec in request["transitions"]:
            def view(side):
                return segue.View(side["name"], tuple(side["frame"]), {e[0]: tuple(e[1]) for e in side.get("elements", [])})
            parameters = json.loads(spec["parameters"]) if spec.get("parameters") else None
            with player.begin(view(spec["from"]), view(spec["to"]), tuple(spec["bounds"]), animator=spec.get("animator"),
                              parameters=parameters, going_right=spec["going_right"],
                              interactive=spec.get("interactive", False)) as transition:
                samples = []
                for t in spec["times"]:
                    # The plugin's answer, not states held from before (its worker slow on a busy machine), within 10 s.
                    deadline = time.monotonic() + 10
                    layers = transition.sample(t)
                    while transition.status == segue.LATE and time.monotonic() < deadline:
                        time.sleep(0.001)
                        layers = transition.sample(t)
                    samples.append({"t": t, "status": transition.status, "layers": [
                        {"frame": list(s.frame), "transform": list(s.transform), "alpha": s.alpha, "z": s.z,
                         "hidden": s.hidden, "mesh": [list(v) for v in s.mesh]} for s in layers]})
                plan = transition.plan
                out["transitions"].append({
                    "animator": plan.animator, "file": plan.file, "duration": plan.duration, "fell_back": plan.fell_back,
                    "reason": plan.reason,
                    "layers": [[KINDS[l.kind], l.element, l.mesh_columns, l.mesh_rows] for l in plan.layers],
                    "hidden": [[0 if side == "from" else 1, element] for side, element in plan.hidden],
                    "samples": samples})
        player.dispatch()
    json.dump(out, sys.stdout)


main()
