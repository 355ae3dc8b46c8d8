// For Segue's tests only, never for a user's session: GNOME Shell 43 has no
// --unsafe-mode flag, so this sets unsafe mode (org.gnome.Shell.Eval and
// org.gnome.Shell.Screenshot answer any caller) and closes the Overview the
// shell opens as it starts (window animations are skipped while it shows).
const Main = imports.ui.main;

let startup = 0;

function hideOverview() {
    Main.overview.hide();
    log('segue-test: overview closed, unsafe mode on');
}

function init() {
    return {
        enable() {
            global.context.unsafe_mode = true;
            if (Main.layoutManager._startingUp)
                startup = Main.layoutManager.connect('startup-complete', hideOverview);
            else
                hideOverview();
        },
        disable() {
            if (startup)
                Main.layoutManager.disconnect(startup);
            startup = 0;
            global.context.unsafe_mode = false;
        },
    };
}
