#!/usr/bin/python3
"""Talks to GNOME Shell for the tests, over the session bus in
DBUS_SESSION_BUS_ADDRESS (unsafe mode on, as the test-only extension
segue-test@segue.dev sets it):
  shell.py eval JAVASCRIPT         runs it in the shell (org.gnome.Shell.Eval), prints its JSON result
  shell.py screenshot OUT.png      the whole screen as the shell draws it (org.gnome.Shell.Screenshot)
  shell.py scale N                 the only monitor at scale N until the shell ends, as a user picks it in
                                   Settings' Displays (org.gnome.Mutter.DisplayConfig, a temporary config)
Exits 1 with the shell's error when the shell says it failed. Needs python3-dbus."""
import sys

import dbus


def main():
    bus = dbus.SessionBus()
    if sys.argv[1] == "eval":
        shell = dbus.Interface(bus.get_object("org.gnome.Shell", "/org/gnome/Shell"), "org.gnome.Shell")
        ok, result = shell.Eval(sys.argv[2], timeout=30)
        print(result)
        return 0 if ok else 1
    if sys.argv[1] == "screenshot":
        shot = dbus.Interface(bus.get_object("org.gnome.Shell", "/org/gnome/Shell/Screenshot"), "org.gnome.Shell.Screenshot")
        ok, used = shot.Screenshot(False, False, sys.argv[2], timeout=30)
        print(used)
        return 0 if ok else 1
    if sys.argv[1] == "scale":
        config = dbus.Interface(bus.get_object("org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig"),
                                "org.gnome.Mutter.DisplayConfig")
        serial, monitors, _, _ = config.GetCurrentState()
        (connector, _, _, _), modes, _ = monitors[0]
        mode = next(m[0] for m in modes if m[6].get("is-current"))
        # method 1: temporary; one logical monitor at (0, 0), not transformed, primary, the monitor in its mode.
        config.ApplyMonitorsConfig(serial, 1, [(0, 0, float(sys.argv[2]), 0, True, [(connector, mode, {})])], {}, timeout=30)
        return 0
    print("unknown command " + sys.argv[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
