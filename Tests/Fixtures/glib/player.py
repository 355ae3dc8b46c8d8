# SegueGLib from Python (PyGObject) through its typelib alone: python3 player.py CRASH_FOLDER CONFIG_FILE
# Prints `check|NAME|True|detail` for each thing it checks (the test reads them) and `animators|...`.
# Where the `segue` package (libsegue through ctypes) is importable, the layers are compared with it.
import sys, time

import gi
gi.require_version("SegueGLib", "1")
from gi.repository import GLib, SegueGLib

crash_folder, config_path = sys.argv[1], sys.argv[2]


def check(name, ok, detail=""):
    print(f"check|{name}|{bool(ok)}|{str(detail).replace(chr(10), ' ')}", flush=True)


good = '{"rules": [{"from": "a", "to": "b", "animator": "CurlUp", "parameters": {"rows": 8}}]}'
with open(config_path, "w") as f:
    f.write(good)

player = SegueGLib.Player(config_path=config_path, plugin_dirs=[crash_folder])
player.init(None)
events = {"log": [], "reloaded": [], "config-error": [], "fell-back": []}
player.connect("log", lambda _p, level, message: events["log"].append((level, message)))
player.connect("reloaded", lambda _p, message: events["reloaded"].append(message))
player.connect("config-error", lambda _p, message: events["config-error"].append(message))
player.connect("fell-back", lambda _p, transition, message: events["fell-back"].append((transition, message)))
print("animators|" + ",".join(player.list_animators()), flush=True)


def loop_until(done, seconds):
    """Runs the main context until done() or `seconds` pass; whether done."""
    context = GLib.MainContext.default()
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        GLib.timeout_add(50, lambda: GLib.SOURCE_REMOVE)
        context.iteration(True)
    return done()


def fresh(tr, t):
    """Samples `t` until the states are the plugin's answer, not held from before (a late plugin's, on a busy
    machine), within a deadline: the count, and whether any of the samples said the plan changed."""
    deadline, changed_any = time.monotonic() + 10, False
    while True:
        count, changed = tr.sample(t)
        changed_any = changed_any or changed
        if not tr.get_late() or time.monotonic() > deadline:
            return count, changed_any
        time.sleep(0.002)


def fresh_reference(theirs, t):
    """The segue package's layers at `t`, likewise not held."""
    deadline = time.monotonic() + 10
    while True:
        layers = theirs.layers(t)
        if theirs.status != segue.Status.LATE or time.monotonic() > deadline:
            return layers
        time.sleep(0.002)


def seen(matrix, x, y):
    v = [x * matrix.get_value(0, c) + y * matrix.get_value(1, c) + matrix.get_value(3, c) for c in range(4)]
    return v[0] / v[3], v[1] / v[3]


def matrix_error(layer):
    """The largest difference between where the 3x3 map sees the corners and centre and where the local
    (and the container) matrix does, and the map around another origin (get_map_at, and as a matrix get_matrix_at)."""
    rx, ry, rw, rh = layer.get_resting_frame()
    m = layer.get_map()
    local, container = layer.get_local_matrix(), layer.get_matrix()
    ox, oy = rx - 7, ry + 5
    around, around_matrix = layer.get_map_at(ox, oy), layer.get_matrix_at(ox, oy)
    worst = 0.0
    for x, y in ((0, 0), (rw, 0), (0, rh), (rw, rh), (rw / 2, rh / 2)):
        X, Y = rx + x, ry + y
        W = m[6] * X + m[7] * Y + m[8]
        sx, sy = (m[0] * X + m[1] * Y + m[2]) / W, (m[3] * X + m[4] * Y + m[5]) / W
        lx, ly = seen(local, x, y)
        cx, cy = seen(container, X, Y)
        aw = around[6] * (X - ox) + around[7] * (Y - oy) + around[8]
        ax = (around[0] * (X - ox) + around[1] * (Y - oy) + around[2]) / aw
        ay = (around[3] * (X - ox) + around[4] * (Y - oy) + around[5]) / aw
        mx, my = seen(around_matrix, X - ox, Y - oy)
        worst = max(worst, abs(lx + rx - sx), abs(ly + ry - sy), abs(cx - sx), abs(cy - sy), abs(ax + ox - sx), abs(ay + oy - sy),
                    abs(mx + ox - sx), abs(my + oy - sy))
    return worst


try:
    import segue  # libsegue's own answers, through the Python package installed beside it
except ImportError:
    segue = None
check("libsegue-package", segue is not None, "PYTHONPATH=PREFIX/lib/segue/python")

# A flat animator: Pop opening a window at its own frame, not the bounds.
request = SegueGLib.Request(kind=SegueGLib.TransitionKind.APPEAR, to_name="org.gnome.Calculator", to_x=100, to_y=80,
                            to_width=700, to_height=475, bounds_width=1280, bounds_height=720, animator="Pop")
tr = player.begin(request)
check("pop-plays", tr.props.animator == "Pop" and not tr.props.fell_back and tr.props.plugin_path.endswith("libPop.so"),
      tr.props.reason)
reference = None
if segue:
    direct = segue.Player([], config_path)
    reference = direct.begin(None, segue.View("org.gnome.Calculator", (100, 80, 700, 475)), (1280, 720), animator="Pop",
                             kind="appear")
worst, same, frames = 0.0, True, []
for f in (0, 0.3, 0.6, 1):
    t = f * tr.props.duration
    count, changed = fresh(tr, t)
    layers = [tr.get_layer(i) for i in range(count)]
    for layer in layers:
        if layer.get_side() == SegueGLib.Side.TO:
            frames.append(tuple(layer.get_resting_frame()))
            worst = max(worst, matrix_error(layer))
    if reference:
        theirs = fresh_reference(reference, t)
        same = same and len(theirs) == count and all(
            tuple(l.get_resting_frame()) == d.resting_frame and all(abs(a - b) < 1e-9 for a, b in zip(l.get_map(), d.map))
            and abs(l.get_alpha() - d.state.alpha) < 1e-9 and l.get_visible() == d.visible and l.get_plan_index() == d.plan_index
            for l, d in zip(layers, theirs))
check("pop-rests-at-window-frame", len(frames) == 4 and set(frames) == {(100, 80, 700, 475)}, frames)
check("pop-matrices-match-map", worst < 1e-3, worst)
check("pop-layers-as-libsegue", reference is not None and same)
report = tr.finish(True)
check("report", report.props.completed and report.props.animator == "Pop" and not report.props.fell_back, report.props.reason)
try:
    tr.finish(True)
    check("finish-twice-ended", False, "no error")
except GLib.Error as e:
    check("finish-twice-ended", e.matches(SegueGLib.error_quark(), SegueGLib.Error.ENDED), e.message)
if reference:
    reference.finish()
    reference.close()


def pop_closing_box(**told):
    """Where Pop's closing window is seen at the end of its transition (the box around its corners through the map),
    the request telling it `told` (an anchor, a window type), and the request as the player read it."""
    request = SegueGLib.Request(kind=SegueGLib.TransitionKind.DISAPPEAR, from_name="org.gnome.Calculator", from_x=100,
                                from_y=80, from_width=700, from_height=475, bounds_width=1280, bounds_height=720,
                                animator="Pop", **told)
    tr = player.begin(request)
    count, _ = fresh(tr, tr.props.duration)
    box = None
    for layer in (tr.get_layer(i) for i in range(count)):
        if layer.get_side() == SegueGLib.Side.FROM:
            rx, ry, rw, rh = layer.get_resting_frame()
            m = layer.get_map()
            seen_at = [((m[0] * X + m[1] * Y + m[2]) / (m[6] * X + m[7] * Y + m[8]),
                        (m[3] * X + m[4] * Y + m[5]) / (m[6] * X + m[7] * Y + m[8]))
                       for X, Y in ((rx, ry), (rx + rw, ry), (rx, ry + rh), (rx + rw, ry + rh))]
            xs, ys = [p[0] for p in seen_at], [p[1] for p in seen_at]
            box = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    tr.finish(True)
    return box, request


def near(box, rect, within):
    return box is not None and all(abs(a - b) <= within for a, b in zip(box, rect))


# Minimizing into a task-bar entry: told the anchor's rectangle, Pop's window ends on it; not told, it shrinks
# about its own centre. The window type and modal go through the typelib as the enum and a boolean.
entry = (600, 680, 48, 40)
anchored, told = pop_closing_box(anchor_has_rect=True, anchor_x=entry[0], anchor_y=entry[1], anchor_width=entry[2],
                                 anchor_height=entry[3], anchor_has_point=True, anchor_point_x=10, anchor_point_y=20,
                                 window_type=SegueGLib.WindowType.DIALOG, modal=True)
check("pop-minimizes-into-anchor", near(anchored, entry, 0.5), f"{anchored} for the entry {entry}")
check("anchor-properties", told.props.window_type == SegueGLib.WindowType.DIALOG and told.props.modal
      and told.props.anchor_has_rect and told.props.anchor_width == 48 and told.props.anchor_point_y == 20,
      (told.props.window_type, told.props.modal))
unanchored, _ = pop_closing_box()
check("pop-without-anchor-shrinks-in-place", unanchored is not None and not near(unanchored, entry, 40)
      and abs(unanchored[0] + unanchored[2] / 2 - 450) < 1 and abs(unanchored[1] + unanchored[3] / 2 - 317.5) < 1, unanchored)

# A mesh: CurlUp, chosen by the config's rule for a -> b.
tr = player.begin(SegueGLib.Request(from_name="a", to_name="b", bounds_width=390, bounds_height=844))
check("curlup-by-rule", tr.props.animator == "CurlUp" and "rules[0]" in tr.props.reason, tr.props.reason)
t = tr.props.duration * 0.5
count, _ = fresh(tr, t)
meshes = [tr.get_layer(i) for i in range(count) if tr.get_layer(i).get_has_mesh()]
check("curlup-has-a-mesh", len(meshes) == 1, len(meshes))
if meshes:
    page = meshes[0]
    columns, rows = page.get_mesh_size()
    vertices, light = page.get_mesh_vertices(), page.get_mesh_light(False)
    n = (columns + 1) * (rows + 1)
    check("mesh-size", rows == 8 and len(vertices) == 3 * n, (columns, rows, len(vertices)))
    # Seen from 1000 points over the bounds' centre (195, 422): scaled about it by 1000 / (1000 - z).
    projected = page.get_mesh_projected()
    expected = [c for k in range(n) for c in (195 + (vertices[3 * k] - 195) * 1000 / (1000 - vertices[3 * k + 2]),
                                              422 + (vertices[3 * k + 1] - 422) * 1000 / (1000 - vertices[3 * k + 2]))]
    check("mesh-projected", len(projected) == 2 * n and all(abs(a - b) < 1e-2 for a, b in zip(projected, expected))
          and any(abs(vertices[3 * k + 2]) > 1 for k in range(n)), len(projected))
    check("mesh-light", len(light) == n and all(0.3 - 1e-6 <= v <= 1 + 1e-6 for v in light) and min(light) < 0.999,
          (min(light), max(light)))
    # The same mesh packed for a vertex shader: texel (2i, j) its point, less (10, 20) and doubled across, in
    # 1/8 from -4096 as two 16-bit values; texel (2i + 1, j) its light on the front and on the back, to 1/255.
    texels, width, height = page.get_mesh_texels(10, 20, 2, 1)
    data = texels.get_data() if texels else b""
    back = page.get_mesh_light(True)
    def unpacked(k):
        return ((data[8 * k] * 256 + data[8 * k + 1]) / 8 - 4096, (data[8 * k + 2] * 256 + data[8 * k + 3]) / 8 - 4096,
                data[8 * k + 4] / 255, data[8 * k + 5] / 255)
    check("mesh-texels", (width, height) == (2 * (columns + 1), rows + 1) and len(data) == 8 * n
          and all(abs(x - (projected[2 * k] - 10) * 2) <= 1 / 16 + 1e-6 and abs(y - (projected[2 * k + 1] - 20)) <= 1 / 16 + 1e-6
                  and abs(f - light[k]) <= 0.5 / 255 + 1e-6 and abs(b - back[k]) <= 0.5 / 255 + 1e-6
                  for k, (x, y, f, b) in enumerate(map(unpacked, range(n))))
          and any(abs(b - f) > 0.01 for _, _, f, b in map(unpacked, range(n))), (width, height, len(data)))
    if segue:
        with segue.Player([], config_path) as direct:
            with direct.begin(segue.View("a"), segue.View("b"), (390, 844)) as theirs:
                drawn = next(d for d in fresh_reference(theirs, t) if d.has_mesh)
                flat = [c for v in drawn.state.mesh for c in v]
                check("mesh-as-libsegue", len(flat) == len(vertices) and all(abs(a - b) < 1e-3 for a, b in zip(vertices, flat))
                      and all(abs(a - b) < 1e-6 for a, b in zip(page.get_mesh_light(True), segue.mesh_light(drawn, back=True))))
tr.finish(True)

# Elements: ImageZoom moves a snapshot of the shared element "photo", named by the layer.
request = SegueGLib.Request(from_name="grid", to_name="detail", bounds_width=390, bounds_height=844, animator="ImageZoom")
request.add_element(SegueGLib.Side.FROM, "title", 0, 0, 390, 40)
request.add_element(SegueGLib.Side.FROM, "photo", 20, 100, 120, 90)
request.add_element(SegueGLib.Side.TO, "photo", 0, 60, 390, 292)
tr = player.begin(request)
tr.prefetch(0.1)
count, _ = fresh(tr, 0.1)
named = [(tr.get_layer(i).get_element(), tr.get_layer(i).get_side(), tuple(tr.get_layer(i).get_resting_frame()))
         for i in range(count) if tr.get_layer(i).get_element() is not None]
check("element-layer", tr.props.animator == "ImageZoom" and named == [("photo", SegueGLib.Side.FROM, (20, 100, 120, 90))],
      (tr.props.reason, named))
tr.finish(True)

# Errors: parameters that are not a JSON object.
try:
    player.begin(SegueGLib.Request(from_name="a", to_name="b", bounds_width=390, bounds_height=844, animator="Pop",
                                   parameters_json="[1, 2]"))
    check("bad-json-invalid-argument", False, "no error")
except GLib.Error as e:
    check("bad-json-invalid-argument", e.matches(SegueGLib.error_quark(), SegueGLib.Error.INVALID_ARGUMENT), e.message)

# A plugin that crashes mid-transition.
tr = player.begin(SegueGLib.Request(from_name="a", to_name="c", bounds_width=390, bounds_height=844, animator="TestFade"))
tr.sample(0.1)
state = {"t": 0.3}


def fell_back_and_sampled():
    count, _ = tr.sample(state["t"])
    state["t"] = min(state["t"] + 0.01, 0.45)
    return bool(events["fell-back"]) and count > 0


loop_until(fell_back_and_sampled, 10)
check("fell-back-signal", events["fell-back"] and events["fell-back"][0][0] == tr, events["fell-back"][:1])
count, _ = tr.sample(0.45)
check("default-goes-on", tr.props.fell_back and tr.props.animator == "default" and count > 0, tr.props.reason)
tr.finish(False)

# A transition dropped before its fallback was delivered: the event names none, not a transition begun since
# (which may have its address).
events["fell-back"].clear()
tr = player.begin(SegueGLib.Request(from_name="a", to_name="c", bounds_width=390, bounds_height=844, animator="LateCrash"))
tr.sample(0.1)
deadline, t = time.monotonic() + 10, 0.3
while not tr.props.fell_back and time.monotonic() < deadline:  # libsegue's plan, read without the main loop
    tr.sample(t)
    t = min(t + 0.01, 0.45)
crashed = tr.props.fell_back
del tr
other = player.begin(SegueGLib.Request(from_name="a", to_name="c", bounds_width=390, bounds_height=844, animator="Pop"))
loop_until(lambda: events["fell-back"], 10)
check("fell-back-after-drop-names-none", crashed and len(events["fell-back"]) == 1 and events["fell-back"][0][0] is None
      and "LateCrash" in events["fell-back"][0][1], events["fell-back"])
other.finish(True)

# Threads: the player's calls refused on another thread; sampling there is fine.
import threading
tr = player.begin(SegueGLib.Request(from_name="a", to_name="b", bounds_width=390, bounds_height=844))
outcome = {}


def elsewhere():
    try:
        player.begin(SegueGLib.Request(from_name="a", to_name="b", bounds_width=390, bounds_height=844))
        outcome["begin"] = "no error"
    except GLib.Error as e:
        outcome["begin"] = e
    outcome["count"] = tr.sample(0.2)[0]
    outcome["layer"] = tr.get_layer(0)


thread = threading.Thread(target=elsewhere)
thread.start()
thread.join(20)
refused = outcome.get("begin")
check("other-thread-refused", isinstance(refused, GLib.Error) and refused.matches(SegueGLib.error_quark(), SegueGLib.Error.WRONG_THREAD),
      refused)
check("other-thread-samples", outcome.get("count", 0) > 0 and outcome.get("layer") is not None, outcome)
tr.finish(True)

# The player answers only the thread that initialized it. Initializing is refused while another thread runs
# the context its events would come on; should another thread run that context later, the player's events
# stop there, said once, rather than leave the loop spinning on a descriptor that stays readable.
context = GLib.MainContext.default()
context.acquire()
made = {}


def init_elsewhere():
    try:
        SegueGLib.Player(config_path=config_path, plugin_dirs=[crash_folder]).init(None)
        made["init"] = "no error"
    except GLib.Error as e:
        made["init"] = e


thread = threading.Thread(target=init_elsewhere)
thread.start()
thread.join(20)
context.release()
refused = made.get("init")
check("init-refused-where-another-thread-runs-the-context",
      isinstance(refused, GLib.Error) and refused.matches(SegueGLib.error_quark(), SegueGLib.Error.WRONG_THREAD)
      and "another thread runs the main context" in refused.message, refused)

# A player whose standard config is broken has a config error to tell from its start.
import os, shutil, tempfile
config_home = tempfile.mkdtemp()
os.makedirs(config_home + "/segue")
with open(config_home + "/segue/segue.json", "w") as f:
    f.write('{"rules": [')
saved_home = os.environ.get("XDG_CONFIG_HOME")
os.environ["XDG_CONFIG_HOME"] = config_home
ready, done = threading.Event(), threading.Event()


def init_and_wait():
    elsewhere = SegueGLib.Player(watch=False, plugin_dirs=[crash_folder])
    elsewhere.init(None)
    ready.set()
    done.wait(20)  # then dropped on its own thread


thread = threading.Thread(target=init_and_wait)
thread.start()
told = ready.wait(20)
if saved_home is None:
    del os.environ["XDG_CONFIG_HOME"]
else:
    os.environ["XDG_CONFIG_HOME"] = saved_home
dispatches = 0
while told and dispatches < 100 and context.iteration(False):
    dispatches += 1
done.set()
thread.join(20)
check("events-another-thread-runs-stop-without-spinning", told and 0 < dispatches < 100, f"{dispatches} dispatches")
shutil.rmtree(config_home)

# Disposed, a player frees libsegue's at once, while references to it and its transitions remain (a garbage
# collector's): the transition is disposed first, the player's worker ends, and later calls are errors.
def children():
    """This process's segue-worker children (libsegue starts them itself), each with its state letter (R running,
    S sleeping, Z ended but not yet reaped)."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read()
        except OSError:
            continue
        after = fields[fields.rindex(")") + 2:].split()
        # (Its name is its executable's: the tests start it through a link named segue-worker-TAG.)
        if fields[fields.index("(") + 1:fields.rindex(")")].startswith("segue-worker") and int(after[1]) == os.getpid():
            found[int(pid)] = after[0]
    return found

before = children().keys()
disposable = SegueGLib.Player()
disposable.init(None)
unfinished = disposable.begin(SegueGLib.Request(kind=SegueGLib.TransitionKind.APPEAR, to_name="org.gnome.Calculator", to_x=100,
                                                to_y=80, to_width=700, to_height=475, bounds_width=1280, bounds_height=720,
                                                animator="Pop"))
unfinished.sample(0.0)
started = children().keys() - before
disposable.run_dispose()
left = {pid: state for pid, state in children().items() if pid in started}  # as dispose returned, with their states
outcomes = []
for call in (lambda: unfinished.finish(True), lambda: disposable.begin(SegueGLib.Request(kind=SegueGLib.TransitionKind.APPEAR,
                                                                                        to_name="w", bounds_width=10, bounds_height=10))):
    try:
        call()
        outcomes.append("no error")
    except GLib.Error as e:
        outcomes.append(e.message)
check("dispose-frees-the-player", len(started) == 1 and not left and outcomes[0] == "the transition has already been finished"
      and outcomes[1] == "the player was disposed (g_object_run_dispose)", (started, left, outcomes))

# The config, watched: broken after the start, then fixed.
with open(config_path, "w") as f:
    f.write('{"rules": [')
check("config-error-signal", loop_until(lambda: events["config-error"], 20) and config_path in events["config-error"][0],
      events["config-error"][:1])
with open(config_path, "w") as f:
    f.write(good)
check("reloaded-signal", loop_until(lambda: events["reloaded"], 20), events["reloaded"][:1])
print("done", flush=True)
