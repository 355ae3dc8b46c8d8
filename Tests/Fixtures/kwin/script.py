#!/usr/bin/python3
"""Runs a KWin script (JavaScript, KWin's scripting API) in the running KWin
through org.kde.kwin.Scripting: script.py 'workspace.clientList()...'. Needs
the session bus KWin is on (DBUS_SESSION_BUS_ADDRESS) and python3-dbus."""
import os
import sys
import tempfile

import dbus

bus = dbus.SessionBus()
scripting = dbus.Interface(bus.get_object("org.kde.KWin", "/Scripting"), "org.kde.kwin.Scripting")
with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False) as source:
    source.write(sys.argv[1])
name = "segue-test-%d" % os.getpid()
try:
    # loadScript is overloaded (path; path and name): the signature picks the second.
    scripting.loadScript(source.name, name, signature="ss")
    scripting.start()  # runs the scripts loaded and not yet running: this one
finally:
    scripting.unloadScript(name)
    os.unlink(source.name)
