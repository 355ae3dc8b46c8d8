#!/usr/bin/python3
"""GNOME Shell's frames and CPU time while a window opens and closes: the
Segue extension playing the built-in default, SpringSlide and CurlUp, beside
GNOME's own window animations on the same window, in the same headless
GNOME Shell 43, rounds alternating; then the shell's memory after the same
cycles in a shell that never enabled the extension and in one that did.

    Integrations/gnome-shell/benchmark/gnome-benchmark.py [--prefix DIR] [--rounds N]
        [--kinds "gnome,segue CurlUp"] [--perf]

DIR is where Segue is installed (Scripts/install.sh --prefix DIR); without
it, a release build is installed into a temporary folder first. SegueGLib
(Integrations/glib) is built with Meson against it into the work folder,
unless DIR holds its typelib already. Needs what the tests need:
gnome-shell, weston, dbus, python3-dbus, meson, ninja-build,
gobject-introspection, libgirepository1.0-dev, libgraphene-1.0-dev,
gir1.2-graphene-1.0 (run it with Debian's /usr/bin/python3).

The shell is started as the tests start it (GnomeShellSession.swift):
headless, Wayland, a 1280x720 virtual monitor, llvmpipe, a private session
and system bus, runtime folder and home, the test-only extension
segue-test@segue.dev for unsafe mode (org.gnome.Shell.Eval). On llvmpipe the
shell inhibits its own animations (St.Settings, as main.js's
AnimationsSettings does without hardware rendering); the benchmark lifts that
(St.Settings.get().uninhibit_animations()) so GNOME's own open and close
animations play. The window is weston-image showing docs/images/close-Pop.png.

A probe put in the shell through Eval (no hook in the extension) notes, on
the shell's thread, each frame the stage paints (its after-paint signal) and
each map and destroy of a window, with the time and the CPU time of the
shell's main thread (/proc/thread-self/schedstat, ns) and of its whole
process (/proc/self/stat, 10 ms ticks). An animation runs from its window's
map (or destroy) to the last frame painted before none came for QUIET_MS
(the client draws nothing by itself). The probe is connected before the
extension is enabled, so it runs before the extension's handler (its setup
counts) but after the shell's own (the shell's easing setup does not). The
workers' CPU time (segue-worker processes under the shell) is read from
/proc around each animation. GNOME's rounds run with the extension disabled
through the shell's extension manager; Segue's with it enabled, its config
(~/.config/segue/segue.json) naming the animator.

--kinds runs some of the animations only (gnome, "segue default", "segue
SpringSlide", "segue CurlUp"; GNOME's own for the ratios). --perf also
samples the shell's main thread with perf (4,000 samples a second, timed on
CLOCK_MONOTONIC as the probe's notes are) through the measured rounds and
shows where each animation's frames spend it: the samples between each
animation's first frame and its last (its setup left out, as the median
frame leaves it out), by library, as ms a frame; perf's own cost inflates
every figure alike. Code JIT-compiled by llvmpipe (its shaders) or
SpiderMonkey shows as perf-PID.map.

Every process it starts carries a tag in its environment, sits in one
process group and ends when the benchmark does (PR_SET_PDEATHSIG, the
group killed at exit, the benchmark a subreaper for what daemonizes); every
wait has a deadline, and --timeout bounds the whole run.
"""
import argparse
import atexit
import ctypes
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

try:
    import dbus
    import dbus.bus
except ImportError:
    sys.exit("gnome-benchmark: needs python3-dbus (apt-get install python3-dbus) and Debian's /usr/bin/python3")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
UUID = "segue@segue.dev"
EXTENSION = os.path.join(ROOT, "Integrations", "gnome-shell", UUID)
TEST_EXTENSION = os.path.join(ROOT, "Tests", "Fixtures", "gnome-shell", "segue-test@segue.dev")
PICTURE = os.path.join(ROOT, "docs", "images", "close-Pop.png")
SIZE = "1280x720"
KINDS = ["gnome", "segue default", "segue SpringSlide", "segue CurlUp"]
QUIET_MS = 700  # no frame for this long after a window's map or destroy: its animation is over
PERF_HZ = 4000  # --perf's samples a second
RELOADED = "segue.json"  # in the extension's log line as the player reloads the config
TAG = "SEGUE_GNOME_BENCHMARK=" + uuid.uuid4().hex
NEEDED = {"gnome-shell": "gnome-shell", "gnome-extensions": "gnome-shell", "dbus-daemon": "dbus", "gsettings": "libglib2.0-bin",
          "weston-image": "weston"}
NEEDED_TO_BUILD = {"meson": "meson", "ninja": "ninja-build", "g-ir-scanner": "gobject-introspection", "cc": "gcc", "pkg-config": "pkg-config"}

libc = ctypes.CDLL(None, use_errno=True)
started = []  # every Popen, for the end
group = [0]  # the process group every child joins (the first child's)


def die_with_parent():
    """In the child before exec: end when the benchmark ends, and hear signals (none blocked)."""
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def spawn(command, **kwargs):
    """A child in the benchmark's process group, ending with it."""
    kwargs["process_group"] = group[0]  # 0: the first child leads a new group
    child = subprocess.Popen(command, preexec_fn=die_with_parent, **kwargs)
    if not group[0]:
        group[0] = child.pid
    started.append(child)
    return child


def tagged():
    """The processes that carry this run's tag, but this one."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/environ" % pid, "rb") as environ:
                if TAG.encode() in environ.read().split(b"\0") and int(pid) != os.getpid():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def reap():
    """Collects the zombies the benchmark inherited (it is a subreaper)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_everything():
    """Every process the benchmark started ends: the group, then anything tagged; says if one is left."""
    for pid in [p.pid for p in started if p.poll() is None] + tagged():
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and ([p for p in started if p.poll() is None] or tagged()):
        reap()
        time.sleep(0.1)
    if group[0]:
        try:
            os.killpg(group[0], signal.SIGKILL)
        except ProcessLookupError:
            pass
        group[0] = 0
    for pid in tagged():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    time.sleep(0.2)
    for child in started:
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
    reap()
    left = tagged()
    if left:
        print("gnome-benchmark: processes left running: %s" % left, file=sys.stderr)
    started.clear()


def sh(command, log, **kwargs):
    with open(log, "w") as out:
        try:
            done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, timeout=1800, preexec_fn=die_with_parent, **kwargs)
        except subprocess.TimeoutExpired:
            sys.exit("gnome-benchmark: %s took over 30 minutes: see %s" % (command[0], log))
    if done.returncode != 0:
        sys.exit("gnome-benchmark: %s failed (%s): see %s" % (" ".join(command[:3]), done.returncode, log))


def schedstat_ns(pid):
    """The CPU time of all of a process's threads, in ns (0 when it is gone)."""
    total = 0
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return 0
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as stat:
                total += int(stat.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


def memory_kib(pid):
    """A process's proportional and resident set sizes (KiB), from smaps_rollup."""
    with open("/proc/%d/smaps_rollup" % pid) as rollup:
        text = rollup.read()
    return (int(re.search(r"^Pss:\s+(\d+) kB", text, re.M).group(1)), int(re.search(r"^Rss:\s+(\d+) kB", text, re.M).group(1)))


# The probe, in the shell's JavaScript: frames and window changes with the time (µs) and CPU times.
PROBE = r"""
(() => {
    const {GLib, St} = imports.gi;
    if (!global._segueBenchmark) {
        const text = path => new TextDecoder().decode(GLib.file_get_contents(path)[1]);
        const thread = () => Number(text('/proc/thread-self/schedstat').split(' ')[0]);
        const process = () => {
            const fields = text('/proc/self/stat');
            const after = fields.slice(fields.lastIndexOf(')') + 2).split(' ');
            return Number(after[11]) + Number(after[12]);
        };
        const probe = global._segueBenchmark = {events: [], handlers: []};
        const note = kind => probe.events.push([kind, GLib.get_monotonic_time(), thread(), process()]);
        probe.handlers.push([global.stage, global.stage.connect('after-paint', () => note('frame'))]);
        for (const signal of ['map', 'destroy'])
            probe.handlers.push([global.window_manager, global.window_manager.connect(signal, () => note(signal))]);
        // On llvmpipe the shell inhibits its own animations (main.js, AnimationsSettings): lifted once.
        St.Settings.get().uninhibit_animations();
    }
    return St.Settings.get().enable_animations;
})()
"""
TAKE = "(() => { const p = global._segueBenchmark; const e = p.events; p.events = []; return e; })()"


class Shell:
    """GNOME Shell 43 headless in a private session and system bus, runtime folder and home."""

    def __init__(self, work, name, prefix, glib, segue):
        self.folder = os.path.join(work, name)
        self.home = os.path.join(self.folder, "home")
        for sub in ["run", "home/.config/segue", "home/.local/share/gnome-shell/extensions", "home/.cache"]:
            os.makedirs(os.path.join(self.folder, sub))
        os.chmod(os.path.join(self.folder, "run"), 0o700)
        self.config = os.path.join(self.home, ".config", "segue", "segue.json")
        self.write_config("default")
        tag_name, tag_value = TAG.split("=")
        self.env = {
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", tag_name: tag_value, "HOME": self.home,
            "XDG_RUNTIME_DIR": os.path.join(self.folder, "run"), "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"), "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "LIBGL_ALWAYS_SOFTWARE": "1", "SEGUE_WORKER": os.path.join(prefix, "libexec", "segue", "segue-worker"),
            "SEGUE_PLUGIN_PATH": os.path.join(prefix, "lib", "segue", "plugins"),
            "GI_TYPELIB_PATH": os.path.join(glib, "lib", "girepository-1.0"),
            "LD_LIBRARY_PATH": os.path.join(glib, "lib") + ":" + os.path.join(prefix, "lib"),
            "WAYLAND_DISPLAY": "wayland-0", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
        }
        self.env["DBUS_SYSTEM_BUS_ADDRESS"] = self.bus_daemon("system-bus")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_daemon("session-bus")
        # Before the login, as a user does (and the tests): the extensions installed and enabled, quiet pictures.
        shutil.copytree(TEST_EXTENSION, os.path.join(self.home, ".local/share/gnome-shell/extensions/segue-test@segue.dev"))
        login = ["set -e"]
        enabled = ["segue-test@segue.dev"]
        if segue:
            login += ["gnome-extensions install --force '%s'" % os.path.join(work, UUID + ".shell-extension.zip")]
            enabled.insert(0, UUID)
        login += ["gsettings set org.gnome.shell enabled-extensions \"%s\"" % enabled,
                  "gsettings set org.gnome.desktop.notifications show-banners false",
                  "gsettings set org.gnome.desktop.interface cursor-blink false"]
        sh(["/bin/sh", "-c", "\n".join(login)], os.path.join(self.folder, "login.log"), cwd=self.folder, env=self.env)
        self.log_path = os.path.join(self.folder, "shell.log")
        with open(self.log_path, "w") as log:
            self.process = spawn(["gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", SIZE],
                                 cwd=self.folder, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.pid = self.process.pid
        self.wait_for("segue-test: overview closed, unsafe mode on", 0, 120, "GNOME Shell did not start")
        connection = dbus.bus.BusConnection(self.env["DBUS_SESSION_BUS_ADDRESS"])
        self.shell = dbus.Interface(connection.get_object("org.gnome.Shell", "/org/gnome/Shell"), "org.gnome.Shell")
        if self.eval(PROBE) is not True:
            sys.exit("gnome-benchmark: GNOME's animations stay off after St.Settings.uninhibit_animations(): see %s" % self.log_path)
        self.events = []
        self.enabled = segue
        if segue:
            self.wait_for("segue: playing window animators", 0, 30, "the Segue extension did not start")

    def bus_daemon(self, name):
        """A D-Bus daemon of the session kind, a child of the benchmark; its address."""
        with open(os.path.join(self.folder, name + ".log"), "w") as log:
            bus = spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1"], cwd=self.folder, env=self.env,
                        stdout=subprocess.PIPE, stderr=log, text=True)
        address = bus.stdout.readline().strip()
        if not address:
            sys.exit("gnome-benchmark: dbus-daemon gave no address: see %s" % os.path.join(self.folder, name + ".log"))
        return address

    def log(self):
        with open(self.log_path, errors="replace") as log:
            return log.read()

    def wait_for(self, text, offset, timeout, failure):
        """Waits until the log holds `text` past `offset`; the log past it."""
        deadline = time.monotonic() + timeout
        while True:
            seen = self.log()[offset:]
            if text in seen:
                return seen
            if self.process.poll() is not None:
                sys.exit("gnome-benchmark: %s: GNOME Shell ended (%s): see %s" % (failure, self.process.returncode, self.log_path))
            if time.monotonic() > deadline:
                sys.exit("gnome-benchmark: %s in %d s: see %s" % (failure, timeout, self.log_path))
            time.sleep(0.05)

    def eval(self, javascript):
        try:
            ok, result = self.shell.Eval(javascript, timeout=30)
        except dbus.DBusException as error:
            sys.exit("gnome-benchmark: Eval failed (%s): see %s" % (error, self.log_path))
        if not ok:
            sys.exit("gnome-benchmark: Eval of %s failed: %s" % (javascript.strip()[:80], result))
        return json.loads(result) if result else None

    def write_config(self, animator):
        with open(self.config + ".new", "w") as config:
            json.dump({"rules": [{"appear": "*", "disappear": "*", "animator": animator}]}, config)
        os.rename(self.config + ".new", self.config)
        self.animator = animator

    def set_extension(self, enabled):
        """The extension enabled or disabled through the shell's extension manager, as the Extensions app does."""
        call = "enableExtension" if enabled else "disableExtension"
        state = 1 if enabled else 2  # ExtensionState.ENABLED, DISABLED
        offset = len(self.log())
        self.eval("imports.ui.main.extensionManager.%s('%s')" % (call, UUID))
        deadline = time.monotonic() + 30
        while self.eval("imports.ui.main.extensionManager.lookup('%s').state" % UUID) != state:
            if time.monotonic() > deadline:
                sys.exit("gnome-benchmark: the extension did not become %s in 30 s: see %s" % (call, self.log_path))
            time.sleep(0.1)
        if enabled:
            self.wait_for("segue: playing window animators", offset, 30, "the Segue extension did not start")
        self.enabled = enabled

    def prepare(self, kind):
        """The extension disabled for GNOME's own animations; enabled, its config naming the animator, for Segue's."""
        if kind == "gnome":
            if self.enabled:
                self.set_extension(False)
            return
        animator = kind.split(" ")[1]
        if animator != self.animator:
            offset = len(self.log())
            self.write_config(animator)
            if self.enabled:  # the player follows the file as it is saved
                self.wait_for(RELOADED, offset, 30, "the Segue extension did not reload its config")
        if not self.enabled:
            self.set_extension(True)

    def workers(self):
        """The segue-worker processes under the shell."""
        found, parents = [], {self.pid}
        for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
            try:
                with open("/proc/%d/stat" % pid) as stat:
                    fields = stat.read()
                with open("/proc/%d/cmdline" % pid, "rb") as cmdline:
                    program = os.path.basename(cmdline.read().split(b"\0")[0])
            except OSError:
                continue
            parent = int(fields[fields.rindex(")") + 2:].split()[1])
            if parent in parents:
                parents.add(pid)
                if program == b"segue-worker":
                    found.append(pid)
        return found

    def workers_ns(self):
        """Each worker's CPU time (ns), by process."""
        return {pid: schedstat_ns(pid) for pid in self.workers()}

    def workers_since(self, before):
        """The workers' CPU time (ms) since `before` (a worker that ended meanwhile: its time since then is not counted)."""
        return sum(ns - before.get(pid, 0) for pid, ns in self.workers_ns().items()) / 1e6

    def animation(self, change, began):
        """The probe's notes of the window's `change` ('map', 'destroy') after `began` (ms) until QUIET_MS
        without a frame: (frames, ms from the change to the last frame, main thread CPU ms, process CPU ticks)."""
        deadline = time.monotonic() + 30
        time.sleep(1.0)  # no Eval while the animation runs, as far as can be helped (an Eval is the shell's work too)
        while True:
            self.events += self.eval(TAKE)
            start = next((i for i, e in enumerate(self.events) if e[0] == change and e[1] / 1000 >= began), None)
            if start is not None:
                frames = [e for e in self.events[start + 1:] if e[0] == "frame"]
                if frames and time.monotonic() * 1000 - frames[-1][1] / 1000 > QUIET_MS:
                    began, last = self.events[start], frames[-1]
                    self.events = []
                    return {"frames": len(frames), "ms": (last[1] - began[1]) / 1000, "cpu": (last[2] - began[2]) / 1e6,
                            "ticks": last[3] - began[3], "span_us": [frames[0][1], last[1]],
                            "first": (frames[0][2] - began[2]) / 1e6,
                            "times": [(f[1] - began[1]) / 1000 for f in frames],
                            "each": [(b[2] - a[2]) / 1e6 for a, b in zip(frames, frames[1:])]}
            if time.monotonic() > deadline:
                sys.exit("gnome-benchmark: no end to a window's %s in 30 s (%s): see %s" % (
                    change, "it never came" if start is None else "frames kept coming", self.log_path))
            time.sleep(0.4)

    def memory(self):
        """The shell's PSS and RSS, and its workers' (KiB)."""
        shell = memory_kib(self.pid)
        workers = [memory_kib(pid) for pid in self.workers()]
        return shell, (sum(w[0] for w in workers), sum(w[1] for w in workers), len(workers))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        end_everything()

    def cycle(self):
        """The window opened, then closed once it is still: each one's notes, with the workers' CPU time (ms)."""
        workers = self.workers_ns()
        began = time.monotonic() * 1000
        client = spawn(["weston-image", PICTURE], cwd=self.folder, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        opening = self.animation("map", began)
        opening["workers"] = self.workers_since(workers)
        workers = self.workers_ns()
        began = time.monotonic() * 1000
        client.terminate()
        try:
            client.wait(timeout=10)
        except subprocess.TimeoutExpired:
            sys.exit("gnome-benchmark: weston-image did not end in 10 s after SIGTERM")
        started.remove(client)
        closing = self.animation("destroy", began)
        closing["workers"] = self.workers_since(workers)
        return opening, closing


def played(log, kind):
    """Checks the extension's log of one cycle: none of its lines for GNOME's own, the animator asked for by Segue's."""
    lines = [line for line in log.split("\n") if re.search(r"segue: \S+ (opens|closes)( at|, not animated)", line)]
    if kind == "gnome":
        if lines:
            sys.exit("gnome-benchmark: the extension animated a window while disabled: %s" % lines[0])
        return
    animator = kind.split(" ")[1]
    for change in ["opens", "closes"]:
        said = [line for line in lines if " %s " % change in line]
        if len(said) != 1 or ": %s for " % animator not in said[0]:
            sys.exit("gnome-benchmark: the window %s with Segue's %s, the extension said: %s" % (
                change[:-1], animator, said or "nothing"))


def frame(note):
    """One animation's median CPU time a frame (ms)."""
    return statistics.median(note["each"]) if note["each"] else note["cpu"]


def summary(notes):
    """The medians over rounds of one kind's openings (or closings), and its pooled CPU times a frame."""
    frames = sum(n["frames"] for n in notes)
    return {
        "frames": statistics.median(n["frames"] for n in notes),
        "ms": statistics.median(n["ms"] for n in notes),
        "fps": statistics.median((n["frames"] - 1) / (n["times"][-1] - n["times"][0]) * 1000 if n["frames"] > 1 else 0 for n in notes),
        "gap": statistics.median(max(b - a for a, b in zip([0] + n["times"], n["times"])) for n in notes),
        "frame": statistics.median(frame(n) for n in notes),
        "mean": statistics.median(n["cpu"] / n["frames"] for n in notes),
        "process": sum(n["ticks"] for n in notes) * 10 / frames,
        "workers": sum(n["workers"] for n in notes) / frames,
    }


def table(results, rounds):
    """The medians per kind, and Segue's against GNOME's."""
    lines = ["GNOME Shell 43 headless on llvmpipe, %s, weston-image's 436x336 window; %d rounds, medians" % (SIZE, rounds),
             "frames: painted from the window's map (destroy) to the last; ms: that time; fps: frames a second between the",
             "first and last; gap: the longest wait for a frame (from the map); CPU ms a frame of the shell's main thread:",
             "median of the frames (frame) and the whole animation's over its frames, its setup included (mean); pooled over",
             "rounds, CPU ms a frame of the shell's whole process (llvmpipe's threads included, 10 ms ticks) and of the workers",
             "",
             "%-18s %-6s %6s %6s %6s %6s %7s %7s %8s %8s" % ("kind", "", "frames", "ms", "fps", "gap", "frame", "mean", "process",
                                                             "workers")]
    summaries = {}
    for kind, cycles in results.items():
        for k, change in ((0, "open"), (1, "close")):
            row = summaries[(kind, k)] = summary([c[k] for c in cycles])
            lines.append("%-18s %-6s %6.0f %6.0f %6.1f %6.0f %7.2f %7.2f %8.2f %8.2f" % (
                kind if k == 0 else "", change, row["frames"], row["ms"], row["fps"], row["gap"], row["frame"], row["mean"],
                row["process"], row["workers"]))
    lines += ["", "Segue against GNOME's own (the goal: CPU a frame within 1.2x); round by round: the median and range of",
              "each round's ratio (rounds alternate kinds, so a round's ratio leaves out the machine's drift between rounds)"]
    for kind in results:
        if kind == "gnome" or "gnome" not in results:
            continue
        cells = []
        for k, change in ((0, "open"), (1, "close")):
            ours, theirs = summaries[(kind, k)], summaries[("gnome", k)]
            rounds = sorted(frame(c[k]) / frame(g[k]) for c, g in zip(results[kind], results["gnome"]) if frame(g[k]))
            cells.append("%s: fps %.2fx, CPU a frame %.2fx (mean %.2fx; round by round %.2fx, %.2f-%.2fx)" % (
                change, ours["fps"] / theirs["fps"] if theirs["fps"] else 0, ours["frame"] / theirs["frame"] if theirs["frame"] else 0,
                ours["mean"] / theirs["mean"] if theirs["mean"] else 0,
                statistics.median(rounds) if rounds else 0, rounds[0] if rounds else 0, rounds[-1] if rounds else 0))
        lines.append("%-18s %s;" % (kind, cells[0]))
        lines.append("%-18s %s" % ("", cells[1]))
    return lines


def perf_table(data, results, period_ms):
    """Where each animation's frames spent the shell's main thread: the perf samples in `data` between each
    animation's first frame and its last, by library, as ms a frame (a library's samples times `period_ms` over
    the frames after the first)."""
    if not os.path.exists(data):
        return ["", "perf recorded nothing: see %s (run with --keep to keep it)" % os.path.join(os.path.dirname(data), "perf.log")]
    script = subprocess.run(["perf", "script", "-i", data, "-F", "time,ip,sym,dso"], capture_output=True, text=True,
                            timeout=600).stdout
    samples = []
    for line in script.splitlines():
        time_text, _, rest = line.strip().partition(":")
        dso = rest[rest.rfind("(") + 1:-1] if rest.endswith(")") else "?"
        try:
            samples.append((float(time_text) * 1e6, os.path.basename(dso)))
        except ValueError:
            continue
    columns, counts = [], {}
    for kind, cycles in results.items():
        for k, change in ((0, "open"), (1, "close")):
            spans = [c[k]["span_us"] for c in cycles]
            frames = sum(c[k]["frames"] - 1 for c in cycles)
            count = {}
            for at, dso in samples:
                if any(a <= at <= b for a, b in spans):
                    count[dso] = count.get(dso, 0) + 1
            columns.append(("%s %s" % (kind.replace("segue ", ""), change), frames))
            counts[columns[-1][0]] = count
    total = {}
    for count in counts.values():
        for dso, n in count.items():
            total[dso] = total.get(dso, 0) + n
    libraries = sorted(total, key=total.get, reverse=True)[:12]
    lines = ["", "perf: the shell's main thread from each animation's first frame to its last, ms a frame by library",
             "%-30s" % "" + "".join("%19s" % name for name, _ in columns)]
    for dso in libraries + ["all"]:
        cells = []
        for name, frames in columns:
            n = sum(counts[name].values()) if dso == "all" else counts[name].get(dso, 0)
            cells.append("%19.3f" % (n * period_ms / frames if frames else 0))
        lines.append("%-30s" % dso[:30] + "".join(cells))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefix", help="where Segue is installed (default: a release build installed now)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--timeout", type=int, default=3600, help="seconds the whole run may take (default 3600)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs) at the end")
    parser.add_argument("--kinds", help="the animations to run, comma-separated (default: %s)" % ",".join(KINDS))
    parser.add_argument("--perf", action="store_true", help="also sample the shell's main thread with perf (see above)")
    args = parser.parse_args()
    kinds = args.kinds.split(",") if args.kinds else KINDS
    if set(kinds) - set(KINDS) or not kinds:
        sys.exit("gnome-benchmark: --kinds takes some of %s, not %s" % (", ".join(KINDS), args.kinds))
    if args.perf and not shutil.which("perf"):
        sys.exit("gnome-benchmark: --perf needs perf (apt-get install linux-perf)")
    missing = sorted({package for program, package in NEEDED.items() if not shutil.which(program)})
    if missing:
        sys.exit("gnome-benchmark: needs %s (apt-get install them)" % ", ".join(missing))
    for path in [EXTENSION, TEST_EXTENSION, PICTURE]:
        if not os.path.exists(path):
            sys.exit("gnome-benchmark: %s is missing (run it from a Segue checkout)" % path)

    libc.prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: what daemonizes under the shell stays the benchmark's to end
    atexit.register(end_everything)
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, lambda n, _f: sys.exit("gnome-benchmark: stopped by signal %d" % n))
    signal.signal(signal.SIGALRM, lambda _n, _f: sys.exit("gnome-benchmark: over --timeout (%d s)" % args.timeout))
    signal.alarm(args.timeout)

    work = tempfile.mkdtemp(prefix="segue-gnome-benchmark-")
    prefix = os.path.abspath(args.prefix) if args.prefix else os.path.join(work, "prefix")
    if not args.prefix:
        print("installing a release build of Segue in %s" % prefix, flush=True)
        sh([os.path.join(ROOT, "Scripts", "install.sh"), "--prefix", prefix], os.path.join(work, "install.log"))
    for path in ["lib/libsegue.so.1", "libexec/segue/segue-worker", "lib/segue/plugins/libSpringSlide.so", "lib/segue/plugins/libCurlUp.so"]:
        if not os.path.exists(os.path.join(prefix, path)):
            sys.exit("gnome-benchmark: %s has no %s (install Segue there with Scripts/install.sh --prefix)" % (prefix, path))
    glib = prefix
    if not os.path.exists(os.path.join(prefix, "lib", "girepository-1.0", "SegueGLib-1.typelib")):
        missing = sorted({package for program, package in NEEDED_TO_BUILD.items() if not shutil.which(program)})
        if missing:
            sys.exit("gnome-benchmark: building SegueGLib needs %s (apt-get install them)" % ", ".join(missing))
        glib = os.path.join(work, "glib")
        print("building SegueGLib into %s" % glib, flush=True)
        env = {"PATH": "/usr/bin:/bin", "HOME": work, "PKG_CONFIG_PATH": os.path.join(prefix, "lib", "pkgconfig")}
        sh(["meson", "setup", os.path.join(work, "glib-build"), os.path.join(ROOT, "Integrations", "glib"), "--prefix", glib],
           os.path.join(work, "meson-setup.log"), env=env)
        sh(["ninja", "-C", os.path.join(work, "glib-build")], os.path.join(work, "ninja.log"), env=env)
        sh(["meson", "install", "-C", os.path.join(work, "glib-build")], os.path.join(work, "meson-install.log"), env=env)
    sh(["gnome-extensions", "pack", "--force", EXTENSION, "--out-dir", work], os.path.join(work, "pack.log"))

    results = {}
    cycles = (args.rounds + 1) * len(kinds)
    print("GNOME Shell with the Segue extension: a round to warm up, then %d rounds of %s" % (args.rounds, ", ".join(kinds)),
          flush=True)
    perf, perf_data = None, os.path.join(work, "perf.data")
    shell = Shell(work, "with", prefix, glib, segue=True)
    try:
        for round in range(args.rounds + 1):
            if round == 1 and args.perf:
                with open(os.path.join(work, "perf.log"), "w") as perf_log:
                    perf = spawn(["perf", "record", "-k", "CLOCK_MONOTONIC", "-F", str(PERF_HZ), "-t", str(shell.pid), "-o", perf_data],
                                 stdout=perf_log, stderr=subprocess.STDOUT)
            for kind in kinds:
                shell.prepare(kind)
                offset = len(shell.log())
                cycle = shell.cycle()
                played(shell.log()[offset:], kind)
                if round > 0:
                    results.setdefault(kind, []).append(cycle)
                print("%s %-18s open %3d frames in %5.0f ms, %6.2f ms CPU a frame; close %3d frames in %5.0f ms, %6.2f ms" % (
                    "round %2d" % round if round else "warm-up ", kind, cycle[0]["frames"], cycle[0]["ms"],
                    cycle[0]["cpu"] / cycle[0]["frames"], cycle[1]["frames"], cycle[1]["ms"], cycle[1]["cpu"] / cycle[1]["frames"]),
                      flush=True)
        with_segue = shell.memory()
        if perf:
            perf.send_signal(signal.SIGINT)
            perf.wait(timeout=60)
    finally:
        shell.stop()
    with open(os.path.join(work, "results.json"), "w") as out:
        json.dump(results, out)
    print("GNOME Shell without the extension: %d cycles of its own animations" % cycles, flush=True)
    shell = Shell(work, "without", prefix, glib, segue=False)
    try:
        for _ in range(cycles):
            shell.cycle()
        without = shell.memory()
    finally:
        shell.stop()

    print()
    for line in table(results, args.rounds) + (perf_table(perf_data, results, 1000 / PERF_HZ) if perf else []):
        print(line)
    print("\nthe shell's memory after %d open-close cycles (MiB): PSS %.1f, RSS %.1f with the extension never enabled;"
          "\nPSS %.1f, RSS %.1f with it enabled, and its %d workers' PSS %.1f, RSS %.1f" % (
              cycles, without[0][0] / 1024, without[0][1] / 1024, with_segue[0][0] / 1024, with_segue[0][1] / 1024,
              with_segue[1][2], with_segue[1][0] / 1024, with_segue[1][1] / 1024))
    if args.keep:
        print("logs in %s" % work)
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
