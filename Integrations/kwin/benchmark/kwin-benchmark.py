#!/usr/bin/python3
"""KWin's frames and CPU time while a window opens and closes: the Segue
effect playing each bundled animator, the C example (CurveSlide), the C++
example (CardFlip) and the built-in default, beside KWin's own Scale and Fade
effects on the same window, in the same headless KWin, rounds alternating.

    Integrations/kwin/benchmark/kwin-benchmark.py [--prefix DIR] [--rounds N] [--spinning] [--look]

DIR is where Segue is installed (Scripts/install.sh --prefix DIR); without
it, a release build is installed into a temporary folder first. Needs what
the tests need: kwin-wayland, kwin-dev, extra-cmake-modules, cmake, g++,
weston, dbus and python3-dbus (run it with Debian's /usr/bin/python3).

Two probe effects (probe.cpp), first and last in KWin's effect chain, time
every paint pass on KWin's thread (CPU time of that thread): a frame's CPU
time is from the start of its paint to its end; the effects' own time is what
the outer probe saw of each pass less what lay beneath the inner one (KWin
drawing the windows), so it is the animating effect's alone. llvmpipe's
drawing threads are not counted in either. KWin runs with
KWIN_EFFECTS_FORCE_ANIMATIONS=1, as its own effects refuse llvmpipe otherwise.

--look plays only Pop and the built-in default (which round windows and
give them a shadow: ABI 1.4's look), each with the look drawn and without
it (the effect loaded with SEGUE_KWIN_LOOK=0), beside Scale: what drawing
the look costs a frame.

--spinning then plays, once, a plugin whose first setup starts 8 threads that
compute forever (the test fixture built with ATTEMPT_SPIN_AFTER), and the
rounds of the built-in default again after it, in the same KWin with the
Segue effect (its player and workers) kept loaded: what such a plugin costs
every window afterwards.
"""
import argparse
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

import dbus

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
APP_ID = "org.freedesktop.weston.wayland-image"
PICTURE = os.path.join(ROOT, "docs", "images", "close-Pop.png")
SEGUE_ANIMATORS = ["default", "Pop", "SpringSlide", "CurlUp", "ImageZoom", "CurveSlide", "CardFlip"]
KWIN_EFFECTS = {"scale": "kwin4_effect_scale", "fade": "kwin4_effect_fade"}
FRAME = re.compile(r"segueprobe: frame at ([0-9.]+) ms: ([0-9.]+) us of CPU, [0-9.]+ us of wall time, the effects' own ([-0-9.]+) us; "
                   r"the process ([0-9.]+) us since the last frame")
QUIET_MS = 600  # no frame for this long: the animation is over (the client draws nothing by itself)
VBLANK_MS = 4  # paints closer than this are of one refresh of the 60 Hz virtual output


def die_with_parent():
    """In the child before exec: end when the benchmark ends, and hear signals (none blocked)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def sh(command, log, **kwargs):
    with open(log, "w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, timeout=1800, **kwargs)
    if done.returncode != 0:
        sys.exit("%s failed (%s): see %s" % (command[0], done.returncode, log))


class KWin:
    """KWin headless in its own D-Bus session and runtime folder, with the Segue effect and the probes."""

    def __init__(self, work, prefix, plugins):
        self.work = work
        self.log_path = os.path.join(work, "kwin.log")
        qt = os.path.join(work, "qt", "kwin", "effects", "plugins")
        os.makedirs(qt)
        for built in ["segue.so", "benchmark/segueprobeouter.so", "benchmark/segueprobeinner.so"]:
            shutil.copy(os.path.join(work, "build", built), qt)
        for sub in ["config/segue", "run"]:
            os.makedirs(os.path.join(work, sub), exist_ok=True)
        os.chmod(os.path.join(work, "run"), 0o700)
        with open(os.path.join(work, "config", "kwinrc"), "w") as rc:
            rc.write("[Plugins]\nsegueEnabled=false\nkwin4_effect_scaleEnabled=false\nkwin4_effect_fadeEnabled=false\n"
                     "kwin4_effect_squashEnabled=false\nsegueprobeouterEnabled=true\nsegueprobeinnerEnabled=true\n")
        self.config = os.path.join(work, "config", "segue", "segue.json")
        # A copy: KWin checks that its name ends in kwin_wayland; the copy drops a file capability root cannot use.
        shutil.copy("/usr/bin/kwin_wayland", os.path.join(work, "kwin_wayland"))
        self.socket = "segue-bench-%d" % os.getpid()
        env = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(work, "run"), XDG_CONFIG_HOME=os.path.join(work, "config"),
                   QT_PLUGIN_PATH=os.path.join(work, "qt"), KWIN_EFFECTS_FORCE_ANIMATIONS="1",
                   SEGUE_PLUGIN_PATH=plugins, SEGUE_WORKER=os.path.join(prefix, "libexec", "segue", "segue-worker"),
                   SEGUE_KWIN_LOOK="@" + os.path.join(work, "look"))
        self.look = os.path.join(work, "look")
        self.env = env
        self.session = subprocess.Popen(
            ["dbus-run-session", "--", "/bin/sh", "-c",
             'echo "$DBUS_SESSION_BUS_ADDRESS" > bus; exec ./kwin_wayland --virtual --width 1024 --height 768 --socket %s '
             "--no-lockscreen --no-global-shortcuts --no-kactivities > kwin.log 2>&1" % self.socket],
            cwd=work, env=env, preexec_fn=die_with_parent)
        deadline = time.monotonic() + 60
        while True:
            try:
                with open(os.path.join(work, "bus")) as bus:
                    os.environ["DBUS_SESSION_BUS_ADDRESS"] = bus.read().strip()
                self.effects = dbus.Interface(dbus.SessionBus().get_object("org.kde.KWin", "/Effects"), "org.kde.kwin.Effects")
                if "segueprobeouter" in [str(e) for e in self.effects.Get("org.kde.kwin.Effects", "loadedEffects",
                                                                          dbus_interface=dbus.PROPERTIES_IFACE)]:
                    break
            except (OSError, dbus.DBusException):
                pass
            if time.monotonic() > deadline or self.session.poll() is not None:
                sys.exit("KWin did not start: see %s" % self.log_path)
            time.sleep(0.1)
        self.pid = self.kwin_pid()

    def kwin_pid(self):
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as cmdline:
                    arguments = cmdline.read().split(b"\0")
            except OSError:
                continue
            if arguments[0].endswith(b"kwin_wayland") and self.socket.encode() in arguments:
                return int(pid)
        sys.exit("KWin's process is not to be found")

    def rss_mib(self):
        with open("/proc/%d/status" % self.pid) as status:
            return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) / 1024

    def frames(self):
        with open(self.log_path, errors="replace") as log:
            return [tuple(float(g) for g in m.groups()) for m in FRAME.finditer(log.read())]

    def burst(self, since):
        """The frames painted from `since` (CLOCK_MONOTONIC ms) until none came for QUIET_MS."""
        deadline = time.monotonic() + 15
        frames = []
        while time.monotonic() < deadline:
            frames = [f for f in self.frames() if f[0] >= since]
            if frames and time.monotonic() * 1000 - frames[-1][0] > QUIET_MS:
                return frames
            time.sleep(0.05)
        if not frames:
            sys.exit("no frame painted in 15 s (did the window open?): see %s" % self.log_path)
        sys.exit("no end to the animation after 15 s (%d frames): see %s" % (len(frames), self.log_path))

    def open_and_close(self):
        """One window opened, then closed once it is still: the frames of each."""
        client_env = dict(self.env, WAYLAND_DISPLAY=self.socket)
        opened = time.monotonic() * 1000
        client = subprocess.Popen(["weston-image", PICTURE], env=client_env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, preexec_fn=die_with_parent)
        opening = self.burst(opened)
        closed = time.monotonic() * 1000
        client.terminate()
        client.wait(timeout=10)
        return opening, self.burst(closed)

    def stop(self):
        if self.pid:
            os.kill(self.pid, signal.SIGTERM)
        try:
            self.session.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.session.kill()
            self.session.wait()


def summary(frames):
    """Frames shown, frames a second, the median CPU time of a frame painted on KWin's thread and of the effects'
    part in it, and the CPU time of KWin's whole process (every thread) a frame shown (µs). A paint within
    VBLANK_MS of the one before is a repaint of the same refresh (KWin repaints when it misses one): both count
    for CPU time, once for frames shown. The process's time is from the first frame's start to the last's."""
    shown = [f for i, f in enumerate(frames) if i == 0 or f[0] - frames[i - 1][0] > VBLANK_MS]
    span = (shown[-1][0] - shown[0][0]) / 1000
    fps = (len(shown) - 1) / span if span > 0 else 0
    process = sum(f[3] for f in frames[1:]) / max(len(shown) - 1, 1)
    return len(shown), fps, statistics.median(f[1] for f in frames), statistics.median(f[2] for f in frames), process


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefix", help="where Segue is installed (default: a release build installed now)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--spinning", action="store_true", help="then play a plugin whose threads spin forever once, and measure again")
    parser.add_argument("--look", action="store_true", help="only Pop and the default, with their look (corners, shadow) and without")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="segue-kwin-benchmark-")
    prefix = os.path.abspath(args.prefix) if args.prefix else os.path.join(work, "prefix")
    if not args.prefix:
        print("installing a release build of Segue in %s" % prefix, flush=True)
        sh([os.path.join(ROOT, "Scripts", "install.sh"), "--prefix", prefix], os.path.join(work, "install.log"))
    build_env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    build = os.path.join(work, "build")
    sh(["cmake", "-S", os.path.join(ROOT, "Integrations", "kwin"), "-B", build, "-DCMAKE_BUILD_TYPE=Release",
        "-DSEGUE_KWIN_BENCHMARK=ON"], os.path.join(work, "configure.log"), env=build_env)
    sh(["cmake", "--build", build, "-j2"], os.path.join(work, "build.log"), env=build_env)
    plugins = os.path.join(work, "plugins")
    os.makedirs(plugins)
    include = os.path.join(prefix, "include")
    sh(["cc", "-std=c11", "-O2", "-shared", "-fPIC", "-I", include, "-o", os.path.join(plugins, "libCurveSlide.so"),
        os.path.join(ROOT, "Examples", "c-animator", "curve_slide.c")], os.path.join(work, "cc.log"))
    sh(["c++", "-std=c++17", "-O2", "-shared", "-fPIC", "-I", include, "-o", os.path.join(plugins, "libCardFlip.so"),
        os.path.join(ROOT, "Examples", "cpp-animator", "card_flip.cpp")], os.path.join(work, "c++.log"))
    if args.spinning:
        sh(["cc", "-std=c11", "-O2", "-shared", "-fPIC", "-I", include, "-DATTEMPT_SPIN_AFTER", "-DSPIN_THREADS=8", "-DATTEMPT_AT=3",
            "-o", os.path.join(plugins, "libspin.so"), os.path.join(ROOT, "Tests", "Fixtures", "fixture_plugin.c"), "-lm"],
           os.path.join(work, "spin.log"))

    kwin = KWin(work, prefix, plugins)
    results = {}  # mode -> [(opening summary, closing summary)]
    rss = {"without": kwin.rss_mib(), "with": 0.0}
    try:
        modes = list(KWIN_EFFECTS) + ["segue " + a for a in SEGUE_ANIMATORS]
        if args.look:
            modes = ["scale"] + ["segue %s%s" % (a, look) for a in ("Pop", "default") for look in ("", ", no look")]
        plays = [(round, mode) for round in range(args.rounds) for mode in modes]
        if args.spinning:  # the spinning plugin once, then the default again, the Segue effect (its player) kept loaded
            plays += [(0, "segue TestFade")] + [(round, "segue default, after") for round in range(args.rounds)]
        kept = False
        for round, mode in plays:
                if mode.startswith("segue "):
                    animator = mode.split(" ", 2)[1].rstrip(",")
                    with open(kwin.config, "w") as config:
                        json.dump({"rules": [{"appear": "*", "disappear": "*", "animator": animator}]}, config)
                    effect = "segue"
                    with open(kwin.look, "w") as look:  # read as the effect loads
                        look.write("0" if mode.endswith("no look") else "1")
                else:
                    effect = KWIN_EFFECTS[mode.split(",")[0]]
                if not kept and not kwin.effects.loadEffect(effect):
                    sys.exit("KWin did not load %s: see %s" % (effect, kwin.log_path))
                opening, closing = kwin.open_and_close()
                if effect == "segue":
                    rss["with"] = max(rss["with"], kwin.rss_mib())
                kept = mode == "segue TestFade" or mode.endswith(", after")
                if not kept:
                    kwin.effects.unloadEffect(effect)
                results.setdefault(mode, []).append((summary(opening), summary(closing)))
                print("round %d %-18s open %2d frames %5.1f fps, close %2d frames %5.1f fps" % (
                    round + 1, mode, results[mode][-1][0][0], results[mode][-1][0][1], results[mode][-1][1][0],
                    results[mode][-1][1][1]), flush=True)
    finally:
        kwin.stop()

    print("\nKWin 5.27 headless on llvmpipe, 1024x768, a 436x336 window; medians of %d rounds" % args.rounds)
    print("fps; a frame's CPU time on KWin's thread; the effect's own part of it; KWin's whole process a frame")
    print("%-18s %-36s %-36s" % ("effect", "opening", "closing"))
    scale_own = statistics.median([r[k][3] for r in results["scale"] for k in (0, 1)])
    for mode, rounds in results.items():
        cells = []
        for k in (0, 1):
            frames, fps, cpu, own, process = (statistics.median(r[k][i] for r in rounds) for i in range(5))
            cells.append("%5.1f %6.0f %6.0f %6.0f µs" % (fps, cpu, own, process))
        own_both = statistics.median([r[k][3] for r in rounds for k in (0, 1)])
        print("%-18s %s   %s   %.2fx scale's own" % (mode, cells[0], cells[1], own_both / scale_own if scale_own else 0))
    if args.spinning:
        with open(kwin.log_path, errors="replace") as log:
            said = [line.strip() for line in log if "TestFade" in line and "quarantined" in line]
        print("\nthe spinning plugin: %s" % (said[0] if said else "no word of it in KWin's log"))
    print("\nKWin's resident memory: %.0f MiB before the Segue effect was first loaded, %.0f MiB at most with it"
          % (rss["without"], rss["with"]))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
