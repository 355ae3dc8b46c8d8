// SegueGLib from GJS through its typelib alone: gjs player.js CRASH_FOLDER CONFIG_FILE [PREFIX]
// Prints `check|NAME|true|detail` for each thing it checks (the test reads them) and `animators|...`.
// With PREFIX, it finds the typelib and the library there itself, as a GNOME Shell extension does
// (docs/glib.md), rather than through GI_TYPELIB_PATH and LD_LIBRARY_PATH.
const [crashFolder, configPath, prefix] = ARGV;
if (prefix) {
    const { GIRepository } = imports.gi;
    GIRepository.Repository.prepend_search_path(`${prefix}/lib/girepository-1.0`);
    GIRepository.Repository.prepend_library_path(`${prefix}/lib`);
}
imports.gi.versions.SegueGLib = '1';
const { GLib, SegueGLib } = imports.gi;

function check(name, ok, detail = '') {
    print(`check|${name}|${ok ? 'true' : 'false'}|${String(detail).replace(/\n/g, ' ')}`);
}

const good = '{"rules": [{"from": "a", "to": "b", "animator": "CurlUp", "parameters": {"rows": 8}}]}';
GLib.file_set_contents(configPath, good);

// The object form: construct-only properties, then init.
const player = new SegueGLib.Player({ config_path: configPath, plugin_dirs: [crashFolder] });
player.init(null);
const events = { log: [], reloaded: [], configError: [], fellBack: [] };
player.connect('log', (_p, level, message) => events.log.push([level, message]));
player.connect('reloaded', (_p, message) => events.reloaded.push(message));
player.connect('config-error', (_p, message) => events.configError.push(message));
player.connect('fell-back', (_p, transition, message) => events.fellBack.push([transition, message]));

const animators = player.list_animators();
print(`animators|${animators.join(',')}`);

// Runs the player's main context until `done()` or `seconds` pass; whether done.
function loopUntil(done, seconds) {
    const context = GLib.MainContext.default();
    const deadline = GLib.get_monotonic_time() + seconds * 1e6;
    while (!done() && GLib.get_monotonic_time() < deadline) {
        GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => GLib.SOURCE_REMOVE);
        context.iteration(true);
    }
    return done();
}

// Samples `t` until the states are the plugin's answer, not held from before (a late plugin's, on a busy
// machine), within a deadline; [count, whether any of the samples said the plan changed].
function fresh(tr, t) {
    const deadline = GLib.get_monotonic_time() + 10e6;
    let changedAny = false;
    for (;;) {
        const [count, changed] = tr.sample(t);
        changedAny = changedAny || changed;
        if (!tr.get_late() || GLib.get_monotonic_time() > deadline) return [count, changedAny];
        GLib.usleep(2000);
    }
}

// The local matrix maps the layer's own point (x, y) where the 3x3 map maps (x + rx, y + ry), and so does
// the container matrix for the container's point, and the map around another origin (get_map_at, and as a
// matrix get_matrix_at) its own point; the largest difference over the corners and centre.
function matrixErrors(layer) {
    const [rx, ry, rw, rh] = layer.get_resting_frame();
    const m = layer.get_map();
    const local = layer.get_local_matrix(), container = layer.get_matrix();
    const [ox, oy] = [rx - 7, ry + 5], around = layer.get_map_at(ox, oy), aroundMatrix = layer.get_matrix_at(ox, oy);
    const mapped = (a, x, y) => {
        const w = a[6] * x + a[7] * y + a[8];
        return [(a[0] * x + a[1] * y + a[2]) / w, (a[3] * x + a[4] * y + a[5]) / w];
    };
    const apply = (matrix, x, y) => {
        const v = (c) => x * matrix.get_value(0, c) + y * matrix.get_value(1, c) + matrix.get_value(3, c);
        return [v(0) / v(3), v(1) / v(3)];
    };
    let worst = 0;
    for (const [x, y] of [[0, 0], [rw, 0], [0, rh], [rw, rh], [rw / 2, rh / 2]]) {
        const X = rx + x, Y = ry + y, W = m[6] * X + m[7] * Y + m[8];
        const seen = [(m[0] * X + m[1] * Y + m[2]) / W, (m[3] * X + m[4] * Y + m[5]) / W];
        const [lx, ly] = apply(local, x, y), [cx, cy] = apply(container, X, Y), [ax, ay] = mapped(around, X - ox, Y - oy);
        const [mx, my] = apply(aroundMatrix, X - ox, Y - oy);
        worst = Math.max(worst, Math.abs(lx + rx - seen[0]), Math.abs(ly + ry - seen[1]), Math.abs(cx - seen[0]), Math.abs(cy - seen[1]),
                         Math.abs(ax + ox - seen[0]), Math.abs(ay + oy - seen[1]), Math.abs(mx + ox - seen[0]), Math.abs(my + oy - seen[1]));
    }
    return worst;
}

// A flat animator: Pop opening a window at its own frame, not the bounds.
{
    const request = new SegueGLib.Request({ kind: SegueGLib.TransitionKind.APPEAR, to_name: 'org.gnome.Calculator',
        to_x: 100, to_y: 80, to_width: 700, to_height: 475, bounds_width: 1280, bounds_height: 720, animator: 'Pop' });
    const tr = player.begin(request);
    check('pop-plays', tr.animator === 'Pop' && !tr.fell_back && tr.plugin_path.endsWith('libPop.so') && tr.duration > 0,
          `${tr.animator} ${tr.plugin_path} ${tr.reason}`);
    let first = true, worst = 0, frames = [], scaled = false;
    for (const f of [0, 0.3, 0.6, 1]) {
        const [count, changed] = fresh(tr, f * tr.duration);
        if (first) check('first-sample-changes-plan', changed === true);
        first = false;
        for (let i = 0; i < count; i++) {
            const layer = tr.get_layer(i);
            if (layer.get_side() !== SegueGLib.Side.TO || layer.get_has_mesh()) continue;
            frames.push(layer.get_resting_frame().join(','));
            worst = Math.max(worst, matrixErrors(layer));
            const m = layer.get_map();
            if (f > 0 && f < 1 && Math.abs(m[0] - 1) > 1e-3) scaled = true;
        }
    }
    check('pop-rests-at-window-frame', frames.length === 4 && frames.every((f) => f === '100,80,700,475'), frames.join(' '));
    check('pop-matrices-match-map', worst < 1e-3, worst);
    check('pop-moves', scaled);
    const report = tr.finish(true);
    check('report', report.completed && report.animator === 'Pop' && !report.fell_back && report.reason.length > 0, report.reason);
    try {
        tr.finish(true);
        check('finish-twice-ended', false, 'no error');
    } catch (e) {
        check('finish-twice-ended', e.matches(SegueGLib.Error, SegueGLib.Error.ENDED), e.message);
    }
    try {
        tr.sample(0.1);
        check('sample-after-finish-ended', false, 'no error');
    } catch (e) {
        check('sample-after-finish-ended', e.matches(SegueGLib.Error, SegueGLib.Error.ENDED), e.message);
    }
}

// A mesh: CurlUp, chosen by the config's rule for a -> b.
{
    const request = new SegueGLib.Request({ from_name: 'a', to_name: 'b', bounds_width: 390, bounds_height: 844 });
    const tr = player.begin(request);
    check('curlup-by-rule', tr.animator === 'CurlUp' && tr.reason.includes('rules[0]'), tr.reason);
    const [count] = fresh(tr, tr.duration * 0.5);
    let meshes = 0;
    for (let i = 0; i < count; i++) {
        const layer = tr.get_layer(i);
        if (!layer.get_has_mesh()) continue;
        meshes++;
        const [columns, rows] = layer.get_mesh_size();
        const vertices = layer.get_mesh_vertices(), light = layer.get_mesh_light(false), back = layer.get_mesh_light(true);
        const n = (columns + 1) * (rows + 1);
        check('mesh-size', rows === 8 && columns > 0 && vertices.length === 3 * n, `${columns}x${rows} ${vertices.length}`);
        check('mesh-light', light.length === n && back.length === n && light.every((v) => v >= 0.3 - 1e-6 && v <= 1 + 1e-6)
              && Math.min(...light) < 0.999, `${Math.min(...light)}..${Math.max(...light)}`);
        check('mesh-curls', vertices.some((v, k) => k % 3 === 2 && v > 1), 'some vertex lifted towards the viewer');
    }
    check('curlup-has-a-mesh', meshes === 1, meshes);
    tr.finish(true);
}

// Errors: parameters that are not a JSON object.
try {
    player.begin(new SegueGLib.Request({ from_name: 'a', to_name: 'b', bounds_width: 390, bounds_height: 844,
                                         animator: 'Pop', parameters_json: '{"duration": ' }));
    check('bad-json-invalid-argument', false, 'no error');
} catch (e) {
    check('bad-json-invalid-argument', e.matches(SegueGLib.Error, SegueGLib.Error.INVALID_ARGUMENT) && e.message.length > 0, e.message);
}

// A plugin that crashes mid-transition: the default takes over, the player says so on the main loop.
{
    const tr = player.begin(new SegueGLib.Request({ from_name: 'a', to_name: 'c', bounds_width: 390, bounds_height: 844,
                                                    animator: 'TestFade' }));
    check('crasher-plays', tr.animator === 'TestFade', tr.reason);
    let notified = 0;
    tr.connect('notify::fell-back', () => notified++);
    tr.sample(0.1);
    let changedLater = false, t = 0.3;
    loopUntil(() => {
        const [count, changed] = tr.sample(t);
        if (changed) changedLater = true;
        t = Math.min(t + 0.01, 0.45);
        return events.fellBack.length > 0 && count > 0;
    }, 10);
    const fell = events.fellBack[0];
    check('fell-back-signal', fell !== undefined && fell[0] === tr && fell[1].length > 0, fell ? fell[1] : 'none');
    const [count, changed] = tr.sample(0.45);
    check('default-goes-on', tr.fell_back && tr.animator === 'default' && count > 0 && (changed || changedLater) && notified > 0,
          `${tr.animator} ${count} ${tr.reason}`);
    const report = tr.finish(true);
    check('report-fell-back', report.fell_back && report.animator === 'default', report.reason);
}

// The config, watched: broken after the start, then fixed.
GLib.file_set_contents(configPath, '{"rules": [');
check('config-error-signal', loopUntil(() => events.configError.length > 0, 20) && events.configError[0].includes(configPath),
      events.configError[0]);
GLib.file_set_contents(configPath, '{"rules": [{"from": "a", "to": "b", "animator": "SpringSlide"}]}');
check('reloaded-signal', loopUntil(() => events.reloaded.length > 0, 20), events.reloaded[0]);
{
    const tr = player.begin(new SegueGLib.Request({ from_name: 'a', to_name: 'b', bounds_width: 390, bounds_height: 844 }));
    check('reloaded-rules-apply', tr.animator === 'SpringSlide', tr.reason);
    tr.finish(false);
}

// The standard constructor and the convenience one.
const standard = SegueGLib.Player.new();
check('standard-player', standard.list_animators().includes('CurlUp'));
// With no standard config, the player says so once, as a log line on the main loop.
const lines = [];
standard.connect('log', (_p, level, message) => lines.push(message));
check('standard-config-absent-logged', loopUntil(() => lines.some((line) => line.includes('segue.json')), 20), lines.join(' / '));
const optioned = SegueGLib.Player.new_with_options(configPath, [crashFolder]);
check('player-with-options', optioned.list_animators().includes('TestFade'));
try {
    SegueGLib.Player.new_with_options('/nonexistent/segue.json', null);
    check('missing-config-error', false, 'no error');
} catch (e) {
    check('missing-config-error', e.matches(SegueGLib.Error, SegueGLib.Error.CONFIG) && e.message.includes('/nonexistent/segue.json'), e.message);
}
print('done');
