#!/usr/bin/python3
"""Starts a KWin script (JavaScript, KWin's scripting API) in the running KWin
through org.kde.kwin.Scripting: script.py FILE.js NAME. KWin reads the file on
a thread of its own and runs it later, so the file must stay until the script
has run (the caller watches for a line the script prints), and the script stays
loaded under NAME. Needs the session bus KWin is on (DBUS_SESSION_BUS_ADDRESS)
and python3-dbus."""
import sys

import dbus

bus = dbus.SessionBus()
scripting = dbus.Interface(bus.get_object("org.kde.KWin", "/Scripting"), "org.kde.kwin.Scripting")
# loadScript is overloaded (path; path and name): the signature picks the second.
scripting.loadScript(sys.argv[1], sys.argv[2], signature="ss")
scripting.start()  # runs the scripts loaded and not yet running: this one
