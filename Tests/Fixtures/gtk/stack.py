"""SegueGtk through PyGObject, as a Python app uses it: a window with a stack
of three pages; a switch with an animator named in code, then one the
config's rules choose. Prints the pages' titles from the "pages" model
(pages|TITLE,...), and each transition's end:
    finished|FROM|TO|ANIMATOR|COMPLETED|FELL_BACK|REASON
Usage: python3 stack.py CONFIG"""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("SegueGtk", "1")
from gi.repository import GLib, Gtk, SegueGtk  # noqa: E402

config = sys.argv[1]
loop = GLib.MainLoop()
steps = [("b", "SpringSlide"), ("c", None)]


def finished(stack, origin, to, animator, completed, fell_back, reason):
    print(f"finished|{origin}|{to}|{animator}|{int(completed)}|{int(fell_back)}|{reason}", flush=True)
    GLib.idle_add(step)


def step():
    if not steps:
        loop.quit()
        return False
    name, animator = steps.pop(0)
    if animator:
        stack.set_visible_child_full(name, animator, None)
    else:
        stack.props.visible_child_name = name
    return False


Gtk.init()
window = Gtk.Window(title="Segue from Python", default_width=320, default_height=480)
stack = SegueGtk.Stack(config_file=config)
for name, text in [("a", "First"), ("b", "Second"), ("c", "Third")]:
    stack.add_titled(Gtk.Label(label=text), name, text)
stack.connect("transition-finished", finished)
window.set_child(stack)
window.present()
print(f"visible|{stack.props.visible_child_name}", flush=True)
pages = stack.props.pages
print("pages|" + ",".join(pages.get_item(i).props.title for i in range(pages.get_n_items())), flush=True)


def first_switch(widget, clock):
    """The first switch, at the first frame the stack has been laid out in (before, it would switch
    without a transition)."""
    if widget.get_width() <= 0:
        return GLib.SOURCE_CONTINUE
    step()
    return GLib.SOURCE_REMOVE


stack.add_tick_callback(first_switch)
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
print(f"visible|{stack.get_visible_child_name()}", flush=True)
