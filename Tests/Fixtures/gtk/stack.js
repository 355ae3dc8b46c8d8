// SegueGtk through GJS: a stack of two pages and a switch with an animator
// named in code. Prints finished|FROM|TO|ANIMATOR|COMPLETED|FELL_BACK|REASON.
imports.gi.versions.Gtk = '4.0';
imports.gi.versions.SegueGtk = '1';
const { GLib, Gtk, SegueGtk } = imports.gi;

Gtk.init();
const loop = GLib.MainLoop.new(null, false);
const window = new Gtk.Window({ title: 'Segue from GJS', default_width: 320, default_height: 480 });
const stack = new SegueGtk.Stack();
stack.add_named(new Gtk.Label({ label: 'First' }), 'a');
stack.add_named(new Gtk.Label({ label: 'Second' }), 'b');
stack.connect('transition-finished', (s, from, to, animator, completed, fellBack, reason) => {
    print(`finished|${from}|${to}|${animator}|${completed ? 1 : 0}|${fellBack ? 1 : 0}|${reason}`);
    loop.quit();
});
window.set_child(stack);
window.present();
// The switch, at the first frame the stack has been laid out in (before, it would switch without a transition).
stack.add_tick_callback(widget => {
    if (widget.get_width() <= 0) return GLib.SOURCE_CONTINUE;
    stack.set_visible_child_full('b', 'CurlUp', null);
    return GLib.SOURCE_REMOVE;
});
GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 60, () => { loop.quit(); return false; });
loop.run();
