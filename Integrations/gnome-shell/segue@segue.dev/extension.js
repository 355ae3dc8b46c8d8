// Segue window animations for GNOME Shell 43 and 44 (the init/enable/disable
// form; GNOME 45 and later load extensions as ES modules, see docs/gnome-shell.md).
//
// Windows opening, closing, minimizing and coming back are Segue transitions,
// played through libsegue by the SegueGLib-1 typelib (GJS calls C only
// through GObject introspection): an appearance for an opening or a window
// coming back, a disappearance for a closing or a minimizing, the animator
// chosen by the user's ~/.config/segue/segue.json rules by application id.
//
// While enabled, the shell's own map, destroy, minimize and unminimize
// handlers on global.window_manager are blocked and this extension's run in
// their place; windows it does not animate (dialogs, transient and other
// window types, the Overview showing, a window the shell skips, animations
// switched off) are handed to the shell's own handler, so they keep the
// shell's behaviour. Every window it animates ends in the matching
// shellwm.completed_* call however its transition ends: completed, cut short
// by the shell (kill-window-effects), by another change of the same window,
// by an error, or by the extension being disabled.
//
// Each frame (a Clutter.Timeline on the window's actor) samples the
// transition and sets the window actor's state: a flat layer through
// actor.set_transform() (the map in the actor's own coordinates, in
// perspective) and its alpha as the actor's opacity, its corners and clip
// (the animator ABI 1.4) as a Shell.GLSLEffect masking the window's surface;
// a mesh (CurlUp's page) through a
// Clutter.DeformEffect lit and its back washed out as Segue's renderer shades
// them; the window's own shadow stands for Segue's. A plugin
// never holds the shell up beyond libsegue's bounds (a frame's sample 4 ms,
// a setup and first frames 100 ms; an end is not waited for): a plugin that crashes or hangs
// costs its animation only (the built-in default finishes it, the player's
// "fell-back" signal says why, or its "log" signal once it has ended).
'use strict';

const {Clutter, Cogl, Gio, GLib, GObject, Meta, Shell, St} = imports.gi;
const Main = imports.ui.main;

let SegueGLib = null;
let importError = null;
try {
    // Where Scripts/install.sh and Meson put the library for one user (~/.local) or all (/usr/local):
    // Debian's introspection looks only in /usr/lib, and the shell's environment is not the user's to set.
    const {GIRepository} = imports.gi;
    for (const prefix of ['/usr/local', `${GLib.get_home_dir()}/.local`]) {
        if (GLib.file_test(`${prefix}/lib/girepository-1.0/SegueGLib-1.typelib`, GLib.FileTest.EXISTS)) {
            GIRepository.Repository.prepend_search_path(`${prefix}/lib/girepository-1.0`);
            GIRepository.Repository.prepend_library_path(`${prefix}/lib`);
        }
    }
    imports.gi.versions.SegueGLib = '1';
    SegueGLib = imports.gi.SegueGLib;
} catch (e) {
    importError = e;
}

/// The four changes of a window this extension animates, as the shell's signals name them.
const CHANGES = {
    map: {begins: 'opens', ends: 'opened', leaves: false, complete: 'completed_map'},
    destroy: {begins: 'closes', ends: 'closed', leaves: true, complete: 'completed_destroy'},
    minimize: {begins: 'minimizes', ends: 'minimized', leaves: true, complete: 'completed_minimize'},
    unminimize: {begins: 'unminimizes', ends: 'unminimized', leaves: false, complete: 'completed_unminimize'},
};

/// The shell's own handler of each change (WindowManager's methods of GNOME 43 and 44).
const SHELL_HANDLERS = {
    map: '_mapWindow',
    destroy: '_destroyWindow',
    minimize: '_minimizeWindow',
    unminimize: '_unminimizeWindow',
};

function say(message) {
    log(`segue: ${message}`);
}

/// The name the config's rules match a window by, and where it comes from:
/// its application's id as the shell knows it (the .desktop file's name,
/// without .desktop), else the GApplication id it reports, else its WM class
/// (on Wayland, its app id).
function windowName(window) {
    const app = Shell.WindowTracker.get_default().get_window_app(window);
    if (app && !app.is_window_backed() && app.get_id())
        return [app.get_id().replace(/\.desktop$/, ''), 'its application, as the shell matched it to a .desktop file'];
    const gapplication = window.get_gtk_application_id();
    if (gapplication)
        return [gapplication, 'the GApplication id it reports'];
    const wmClass = window.get_wm_class();
    if (wmClass)
        return [wmClass, window.get_client_type() === Meta.WindowClientType.WAYLAND ? 'its Wayland app id' : 'its X11 class'];
    return [`window-${window.get_id()}`, 'no application id nor class: its window number'];
}

/// A CurlUp page: the window's actor drawn as a Clutter.DeformEffect grid as
/// fine as the mesh, built once, whose vertices a vertex shader moves each
/// frame to where the mesh puts them (as Segue's renderer sees it, flat), lit
/// as Segue lights the page, its front or its back, the back washed out as
/// Segue's renderer shades paper (libsegue's segue_page_back, in GLSL). The
/// deform effect's own way, a call into JavaScript for every vertex every
/// frame, cost 15-20 ms a frame for CurlUp's mesh on llvmpipe. The mesh goes to
/// the GPU as a small texture SegueGLib packs (get_mesh_texels: GJS cannot hand
/// Cogl a uniform array), and each grid vertex is placed bilinearly between the
/// mesh's vertices around its point of the window's frame (beyond its edges,
/// for the window's shadow). Which side a pixel shows is its triangle's turn
/// from the window's picture to the screen (a snippet testing gl_FrontFacing
/// stalled GNOME Shell 43 on llvmpipe).
const PAGE_DECLARATIONS = `
varying vec2 segue_drawn;
varying vec2 segue_light;
`;
const PAGE_VERTEX_DECLARATIONS = `${PAGE_DECLARATIONS}
uniform float segue_columns, segue_rows;
uniform float segue_frame_x, segue_frame_y, segue_frame_width, segue_frame_height;
uniform float segue_box_x, segue_box_y, segue_box_width, segue_box_height, segue_scale;
`;
// Units: the actor's own (logical pixels from its corner), but for the grid's positions, the offscreen
// picture's pixels: it covers segue_box of the actor at segue_scale of them a unit (see offscreenBox()).
// (Layer 1 is the mesh: Cogl declares its sampler, cogl_sampler1.)
const PAGE_VERTEX_CODE = `
vec2 segue_vertices = vec2(segue_columns + 1.0, segue_rows + 1.0);
vec2 segue_corner = vec2(segue_box_x, segue_box_y);
vec2 segue_point = segue_corner + cogl_tex_coord0_in.st * vec2(segue_box_width, segue_box_height);
vec2 segue_at = (segue_point - vec2(segue_frame_x, segue_frame_y)) / vec2(segue_frame_width, segue_frame_height)
                * vec2(segue_columns, segue_rows);
vec2 segue_cell = clamp(floor(segue_at), vec2(0.0), vec2(segue_columns - 1.0, segue_rows - 1.0));
vec2 segue_f = segue_at - segue_cell;
vec2 segue_p00 = segue_mesh_point(cogl_sampler1, segue_vertices, segue_cell);
vec2 segue_p10 = segue_mesh_point(cogl_sampler1, segue_vertices, segue_cell + vec2(1.0, 0.0));
vec2 segue_p01 = segue_mesh_point(cogl_sampler1, segue_vertices, segue_cell + vec2(0.0, 1.0));
vec2 segue_p11 = segue_mesh_point(cogl_sampler1, segue_vertices, segue_cell + vec2(1.0, 1.0));
vec2 segue_l00 = segue_mesh_light(cogl_sampler1, segue_vertices, segue_cell);
vec2 segue_l10 = segue_mesh_light(cogl_sampler1, segue_vertices, segue_cell + vec2(1.0, 0.0));
vec2 segue_l01 = segue_mesh_light(cogl_sampler1, segue_vertices, segue_cell + vec2(0.0, 1.0));
vec2 segue_l11 = segue_mesh_light(cogl_sampler1, segue_vertices, segue_cell + vec2(1.0, 1.0));
segue_drawn = mix(mix(segue_p00, segue_p10, segue_f.x), mix(segue_p01, segue_p11, segue_f.x), segue_f.y);
segue_light = clamp(mix(mix(segue_l00, segue_l10, segue_f.x), mix(segue_l01, segue_l11, segue_f.x), segue_f.y), 0.0, 1.0);
cogl_position_out = cogl_modelview_projection_matrix * vec4((segue_drawn - segue_corner) * segue_scale, 0.0, 1.0);
`;
const PAGE_FRAGMENT_DECLARATIONS = `${PAGE_DECLARATIONS}
uniform float segue_alpha;
`;
const PAGE_FRAGMENT_CODE = `
vec2 segue_dx = dFdx(segue_drawn), segue_dy = dFdy(segue_drawn);
vec2 segue_sx = dFdx(cogl_tex_coord_in[0].st), segue_sy = dFdy(cogl_tex_coord_in[0].st);
bool segue_back = (segue_dx.x * segue_dy.y - segue_dx.y * segue_dy.x) * (segue_sx.x * segue_sy.y - segue_sx.y * segue_sy.x) < 0.0;
cogl_color_out = (segue_back ? segue_page_lit(segue_page_back(cogl_color_out), segue_light.y)
                             : segue_page_lit(cogl_color_out, segue_light.x)) * segue_alpha;
`;

/// The part of `actor` its offscreen effects' picture covers, in the actor's own units, as Clutter 43 makes it
/// (clutter-offscreen-effect.c's pre_paint): the box of its paint volume (else of its allocation), rounded and
/// enlarged to whole pixels and 3 more (_clutter_actor_box_enlarge_for_effects). The paint volume of an X11
/// window's actor holds the shadow mutter draws around it, and the picture starts there, not at the actor's corner.
function offscreenBox(actor) {
    let x1, y1, x2, y2, shift = [0, 0];
    const volume = actor.get_paint_volume();
    if (volume) {
        const origin = volume.get_origin();
        [x1, y1, x2, y2] = [origin.x, origin.y, origin.x + volume.get_width(), origin.y + volume.get_height()];
    } else {
        const box = actor.get_allocation_box(); // (in the parent's units: the enlargement depends on the place)
        [x1, y1, x2, y2, shift] = [box.x1, box.y1, box.x2, box.y2, [box.x1, box.y1]];
    }
    const width = Math.round(x2 - x1), height = Math.round(y2 - y1);
    const right = Math.ceil(x2 + 0.75), bottom = Math.ceil(y2 + 0.75);
    return {x: right - width - 3 - shift[0], y: bottom - height - 3 - shift[1], width: width + 3, height: height + 3};
}

/// The page's two snippets, made once for the shell's life. Cogl finds a pipeline's GLSL program by its
/// snippets' identity, not their text (cogl-pipeline-snippet.c compares pointers): new snippets for each
/// window's page had the shell's thread compile and link the page's program again, on llvmpipe, at every
/// animation drawn with a mesh, and again whenever the window's size remade its pipeline.
let madePageSnippets = null;
function pageSnippets() {
    madePageSnippets ??= [
        Cogl.Snippet.new(Cogl.SnippetHook.VERTEX,
            `${PAGE_VERTEX_DECLARATIONS}${SegueGLib.mesh_texels_glsl()}`, PAGE_VERTEX_CODE),
        Cogl.Snippet.new(Cogl.SnippetHook.FRAGMENT,
            `${PAGE_FRAGMENT_DECLARATIONS}${SegueGLib.page_shading_glsl()}`, PAGE_FRAGMENT_CODE),
    ];
    return madePageSnippets;
}

const PageEffect = GObject.registerClass(
class SeguePageEffect extends Clutter.DeformEffect {
    _init() {
        super._init();
        this._image = Clutter.Image.new();
        this._texture = null; // the image's texture, and the texels' size in it
        this._texels = '';
        this._tiles = '';
        this._pipeline = null; // the effect's pipeline once the page's snippets are on it
        this._uniforms = {};
        this._values = {}; // the uniforms' values, set on the pipeline when they change
    }

    /// The layer to draw (its mesh over `frame`, the window's frame on the stage) with the actor at
    /// `actorBox` (stage coordinates) and its paint opacity `opacity` (0-255). False when its mesh
    /// cannot be seen. What does not change is kept from frame to frame: packing the mesh costs the
    /// shell's thread 40-65 us a frame on llvmpipe, and the effect's grid and texture more when remade.
    show(layer, frame, actorBox, opacity) {
        if (actorBox.width <= 0 || actorBox.height <= 0)
            return false;
        // The mesh in the actor's own units (the vertex shader takes them to the offscreen picture's), packed
        // by SegueGLib: the same loop over the vertices in GJS cost 3-4 ms a frame (an extension's top-level
        // names, Math included, are looked up at every use).
        const [texels, width, height] = layer.get_mesh_texels(actorBox.x, actorBox.y, 1, 1);
        if (!texels)
            return false;
        // Two texels a vertex: the mesh's size, from the texture's.
        const columns = width / 2 - 1, rows = height - 1;
        // Stored as given (premultiplied in, premultiplied kept): Cogl uploads the bytes unchanged. One
        // texture while the mesh keeps its size, its texels replaced each frame.
        if (this._texels === `${width}x${height}`) {
            this._texture.set_region(0, 0, 0, 0, width, height, width, height, Cogl.PixelFormat.RGBA_8888_PRE, 4 * width,
                texels.toArray());
        } else {
            this._image.set_bytes(texels, Cogl.PixelFormat.RGBA_8888_PRE, width, height, 4 * width);
            this._texture = this._image.get_texture();
            this._texels = `${width}x${height}`;
            this._pipeline?.set_layer_texture(1, this._texture);
        }
        Object.assign(this._values, {
            segue_columns: columns,
            segue_rows: rows,
            segue_frame_x: frame.x - actorBox.x,
            segue_frame_y: frame.y - actorBox.y,
            segue_frame_width: frame.width,
            segue_frame_height: frame.height,
            segue_alpha: opacity / 255,
        });
        // The grid, as fine as the mesh (rebuilt only when this changes or the actor's size does).
        if (this._tiles !== `${columns}x${rows}`) {
            this.set_n_tiles(columns, rows);
            this._tiles = `${columns}x${rows}`;
        }
        this.queue_repaint();
        return true;
    }

    /// The uniforms that changed (most stay the same through a transition) on the page's pipeline.
    _setUniforms() {
        for (const name in this._values) {
            const uniform = this._uniforms[name] ??= {location: this._pipeline.get_uniform_location(name), value: null};
            if (uniform.value !== this._values[name]) {
                this._pipeline.set_uniform_1f(uniform.location, this._values[name]);
                uniform.value = this._values[name];
            }
        }
    }

    vfunc_paint_target(node, paintContext) {
        // Where the offscreen picture lies in the actor, and its pixels a unit (the monitor's scale, rounded up,
        // as Clutter draws it), as this paint's picture was made.
        const actor = this.get_actor();
        const box = offscreenBox(actor);
        Object.assign(this._values, {
            segue_box_x: box.x,
            segue_box_y: box.y,
            segue_box_width: box.width,
            segue_box_height: box.height,
            segue_scale: actor.get_resource_scale(),
        });
        // The page's placing and shading on the effect's pipeline, once: it is made as the effect first
        // paints, and again when the actor's size changes. show() keeps its texture after, and the uniforms
        // that changed (show()'s and these) are set here, as each paint begins.
        const pipeline = this.get_pipeline();
        if (pipeline !== this._pipeline && pipeline && this._texture) {
            pipeline.set_layer_combine(0, 'RGBA = REPLACE(TEXTURE)');
            pipeline.set_layer_combine(1, 'RGBA = REPLACE(PREVIOUS)');
            pipeline.set_layer_filters(1, Cogl.PipelineFilter.NEAREST, Cogl.PipelineFilter.NEAREST);
            pipeline.set_layer_texture(1, this._texture);
            for (const snippet of pageSnippets())
                pipeline.add_snippet(snippet);
            this._pipeline = pipeline;
            this._uniforms = {};
        }
        if (this._pipeline)
            this._setUniforms();
        super.vfunc_paint_target(node, paintContext);
    }

    /// The grid at rest: the vertex shader places it (called once a grid, not every frame).
    vfunc_deform_vertex(width, height, vertex) {
    }
});

/// A flat layer with a look (the animator ABI 1.4): its corners rounded and its clip (a rounded rectangle or
/// an ellipse), drawn as an anti-aliased coverage mask over the window's surface, in the surface's own
/// coordinates. The corners cut the window's frame only: the window's own shadow, outside its frame, stays
/// (Segue's shadow is not drawn: the window's own stands for it). A clip cuts everything the surface draws,
/// the window's own shadow included (not the shadow mutter draws beside an X11 window's surface).
///
/// The effect sits on the window actor's surface (its last child: the surface, or on Wayland the surfaces'
/// container), not on the window actor, which is placed and faded as a flat layer is: a change of an
/// actor's transform or opacity marks that actor dirty, and an offscreen effect on it would draw the window
/// into its picture again every frame (0.3-0.5 ms of a frame on llvmpipe). A parent's change leaves its
/// children clean, so the surface's picture is drawn again only when the window's content changes.
const LOOK_DECLARATIONS = `
uniform vec4 segue_box;
uniform vec4 segue_frame;
uniform vec2 segue_corner;
uniform float segue_shape;
uniform vec4 segue_clip;
uniform vec4 segue_clip_rx;
uniform vec4 segue_clip_ry;

float segue_rounded(vec2 p, vec4 box, vec4 rx, vec4 ry) {
    vec2 lo = box.xy, hi = box.xy + box.zw;
    float cover = clamp(min(min(p.x - lo.x, hi.x - p.x), min(p.y - lo.y, hi.y - p.y)) + 0.5, 0.0, 1.0);
    bool left = p.x < lo.x + 0.5 * box.z, top = p.y < lo.y + 0.5 * box.w;
    vec2 r = top ? (left ? vec2(rx.x, ry.x) : vec2(rx.y, ry.y)) : (left ? vec2(rx.w, ry.w) : vec2(rx.z, ry.z));
    vec2 d = (p - vec2(left ? lo.x + r.x : hi.x - r.x, top ? lo.y + r.y : hi.y - r.y)) * vec2(left ? -1.0 : 1.0, top ? -1.0 : 1.0);
    if (r.x > 0.0 && r.y > 0.0 && d.x > 0.0 && d.y > 0.0)
        cover = min(cover, clamp((1.0 - length(d / r)) * min(r.x, r.y) + 0.5, 0.0, 1.0));
    return cover;
}

float segue_ellipse(vec2 p, vec4 box) {
    vec2 r = 0.5 * box.zw;
    if (r.x <= 0.0 || r.y <= 0.0)
        return 0.0;
    return clamp((1.0 - length((p - box.xy - r) / r)) * min(r.x, r.y) + 0.5, 0.0, 1.0);
}
`;
const LOOK_CODE = `
vec2 p = segue_box.xy + cogl_tex_coord_in[0].xy * segue_box.zw;
float cover = 1.0;
if (p.x > segue_frame.x && p.y > segue_frame.y && p.x < segue_frame.x + segue_frame.z && p.y < segue_frame.y + segue_frame.w)
    cover = segue_rounded(p, segue_frame, vec4(segue_corner.x), vec4(segue_corner.y));
if (segue_shape > 1.5)
    cover *= segue_ellipse(p, segue_clip);
else if (segue_shape > 0.5)
    cover *= segue_rounded(p, segue_clip, segue_clip_rx, segue_clip_ry);
cogl_color_out *= cover;
`;

const LookEffect = GObject.registerClass(
class SegueLookEffect extends Shell.GLSLEffect {
    vfunc_build_pipeline() {
        this.add_glsl_snippet(Shell.SnippetHook.FRAGMENT, LOOK_DECLARATIONS, LOOK_CODE, false);
    }

    /// A uniform, only when its values changed (most stay the same through a transition).
    _set(name, values) {
        const uniform = (this._uniforms ??= {})[name] ??= {location: this.get_uniform_location(name), values: null};
        if (uniform.values && uniform.values.every((value, i) => value === values[i]))
            return false;
        this.set_uniform_float(uniform.location, values.length, values);
        uniform.values = values;
        return true;
    }

    /// The layer's corners (`radius`) and clip (`clip`, as get_clip() gives it) over `surface` (as
    /// _surface() gives it), the window's frame at `frame` in the surface's coordinates (the content as it
    /// rests, which the layer's own coordinates stretch over).
    show(layer, radius, clip, surface, frame) {
        const [, , width, height] = layer.get_frame();
        const [shape, cx, cy, cw, ch, tl, tr, br, bl] = clip;
        // From the layer's own coordinates to the surface's.
        const sx = width > 0 ? frame.width / width : 1, sy = height > 0 ? frame.height / height : 1;
        const changed = [
            this._set('segue_box', [surface.picture.x, surface.picture.y, surface.picture.width, surface.picture.height]),
            this._set('segue_frame', [frame.x, frame.y, frame.width, frame.height]),
            this._set('segue_corner', [radius * sx, radius * sy]),
            this._set('segue_shape', [shape]),
            this._set('segue_clip', [frame.x + cx * sx, frame.y + cy * sy, cw * sx, ch * sy]),
            this._set('segue_clip_rx', [tl * sx, tr * sx, br * sx, bl * sx]),
            this._set('segue_clip_ry', [tl * sy, tr * sy, br * sy, bl * sy]),
        ];
        // Shell.GLSLEffect blends as if its colours were straight (it multiplies them by their alpha again);
        // the surface's offscreen picture is premultiplied, so a faded window came out darker, its framebuffer
        // alpha below 1. Its pipeline blends premultiplied colours once the effect has one (made as the
        // picture is first drawn, kept after; Clutter 11 cannot hand it to JavaScript earlier).
        if (!this._blended) {
            const pipeline = this.get_pipeline();
            pipeline?.set_blend('RGBA = ADD (SRC_COLOR, DST_COLOR * (1 - SRC_COLOR[A]))');
            this._blended = pipeline !== null;
            changed.push(this._blended);
        }
        // Only the effect is drawn again (its picture stays), should the window actor not be.
        if (changed.includes(true))
            this.queue_repaint();
    }
});

/// One window's transition: its actor driven each frame until it ends, then released.
class WindowTransition {
    constructor(owner, change, shellwm, actor, transition, name, frame) {
        this._owner = owner;
        this.change = change;
        this._shellwm = shellwm;
        this.actor = actor;
        this.transition = transition;
        this.name = name;
        this.frame = frame;
        this._slowDown = St.Settings.get().slow_down_factor;
        // Kept in JavaScript (read again when the plan changes): reading a GObject's property is a call
        // into C, each a few microseconds of the shell's thread.
        this._duration = transition.duration;
        this._opacity = null; // the actor's opacity as last set
        this._box = null; // the actor's position and size on the stage, until its allocation changes
        this._frames = 0;
        this._began = GLib.get_monotonic_time();
        // The framebuffers to flush each frame (see _frame), the stage's as the transition begins.
        this._framebuffers = global.stage.peek_stage_views().map(view => view.get_framebuffer());
        this._ended = false;
        this._effect = null;
        this._look = null;
        this._surfaceBox = null; // the actor the look is on, its place and size, and its allocation handler
        this._transformed = false;
        this._side = CHANGES[change].leaves ? SegueGLib.Side.FROM : SegueGLib.Side.TO;
        const milliseconds = Math.max(1, Math.round(transition.duration * this._slowDown * 1000));
        this._timeline = new Clutter.Timeline({actor, duration: milliseconds});
        this._timeline.connect('new-frame', (_timeline, elapsed) => this._frame(elapsed));
        this._timeline.connect('completed', () => {
            if (this._held())
                this._timeline.start(); // held for a photograph: frames keep coming, at the same time
            else
                this.end(true);
        });
        this._destroyId = actor.connect('destroy', () => this.end(false, 'its actor was destroyed'));
        this._allocationId = actor.connect('notify::allocation', () => {
            this._box = null;
        });
    }

    start() {
        // As the shell's own easing does while a window animates (environment.js): the window is not scanned
        // out directly (mutter's own check leaves an unminimize out), and the shell counts as busy.
        Meta.disable_unredirect_for_display(global.display);
        global.begin_work();
        if (this.change === 'map' || this.change === 'unminimize')
            this.actor.show();
        this._frame(0);
        if (!this._ended) // (a first frame that failed has ended it)
            this._timeline.start();
    }

    /// The transition's time at a frame whose timeline has run `elapsed` ms: the frame clock's,
    /// as the shell's own animations see it (one refresh a frame, so a sample meets the frame
    /// prefetched for it; the clock read in the handler strayed by more than libsegue's 2 ms, and
    /// each such sample waited on the worker), slowed as the shell slows its own animations, or
    /// the fraction held for a photograph.
    _time(elapsed) {
        if (this._held())
            return this._owner.holdAt * this._duration;
        return elapsed / 1000 / this._slowDown;
    }

    _held() {
        return this._owner.holdAt !== null && this._owner.holdAt !== undefined;
    }

    /// A frame, `elapsed` ms into the timeline. Each call into C here costs the shell's thread a few
    /// microseconds (under 2 us measured in a frame on llvmpipe, whose frames take 1.2-1.7 ms of it):
    /// what does not change is kept in JavaScript.
    _frame(elapsed) {
        if (this._ended)
            return;
        const time = this._time(elapsed);
        const t = Math.min(time, this._duration);
        try {
            const [count, planChanged] = this.transition.sample(t);
            if (planChanged)
                this._duration = this.transition.duration;
            let drawn = null;
            for (let i = count - 1; i >= 0 && !drawn; i--) {
                const layer = this.transition.get_layer(i);
                if (layer && layer.get_side() === this._side)
                    drawn = layer; // the frontmost layer of the window's side
            }
            this._apply(drawn);
        } catch (e) {
            say(`${this.name} ${CHANGES[this.change].begins}: a sample failed (${e.message}); the window is released`);
            this.end(false);
            return;
        }
        // The frames drawn so far handed to the GPU, as a monitor's swap does. Mutter 43 does not flush a
        // virtual monitor's frames (its offscreen swap is a fake one): on llvmpipe a whole animation's frames
        // were then drawn at once at the next wait on the GPU, the next closing's first frame (0.3-1 s).
        for (const framebuffer of this._framebuffers)
            framebuffer.flush();
        // The next frame's time, asked for now: the plugin answers while the shell waits for the next refresh.
        try {
            this.transition.prefetch(this._held() ? t : Math.min(time + 1 / 60, this._duration));
        } catch (e) {
            // ended: the next sample says so
        }
        this._frames += 1;
        // Past its duration, it has ended (the timeline's own end may come a frame later).
        if (!this._held() && time >= this._duration)
            this.end(true);
    }

    /// The layer's state on the window's actor; none: not drawn.
    _apply(layer) {
        const actor = this.actor;
        if (!layer || !layer.get_visible()) {
            this._setOpacity(0);
            return;
        }
        const alpha = Math.min(Math.max(layer.get_alpha(), 0), 1);
        if (layer.get_has_mesh()) {
            this._removeLook(); // a page has no corners nor clip here
            this._setOpacity(Math.round(255 * alpha));
            if (!this._effect) {
                this._effect = new PageEffect();
                actor.add_effect_with_name('segue-page', this._effect);
            }
            this._setTransform(null);
            if (!this._effect.show(layer, this.frame, this._actorBox(), actor.get_paint_opacity()))
                this._setOpacity(0); // a vertex behind the eye: not drawn, as Segue's renderer
            return;
        }
        this._removeEffect();
        // The map in the actor's own coordinates: the actor (shadows included) rests at an offset o from
        // the frame, the frame at the layer's resting frame. The frame now: a window that opens may still
        // settle its size (a client-side decoration's first frames).
        const {x, y} = this._actorBox();
        const frame = actor.meta_window?.get_frame_rect() ?? this.frame;
        const ox = frame.x - x, oy = frame.y - y;
        const [restX, restY] = layer.get_resting_frame();
        this._setOpacity(Math.round(255 * alpha));
        // The actor's corner rests at the frame's, less o.
        this._setTransform(layer.get_matrix_at(restX - ox, restY - oy));
        const radius = layer.get_corner_radius(), clip = layer.get_clip();
        const surface = radius > 0 || clip[0] !== 0 ? this._surface() : null;
        if (!surface) {
            // No look (or no surface to put it on): the window is drawn as it is, with no offscreen picture.
            this._removeLook();
            return;
        }
        if (!this._look) {
            this._look = new LookEffect();
            surface.actor.add_effect_with_name('segue-look', this._look);
        }
        this._look.show(layer, radius, clip, surface,
            {x: ox - surface.x, y: oy - surface.y, width: frame.width, height: frame.height});
    }

    /// The window actor's surface, which a look is drawn over (see LookEffect): its last child (the surface,
    /// or on Wayland the surfaces' container, which mutter keeps last), with its place in the window actor,
    /// its size and what its offscreen picture covers (offscreenBox()); read again when its allocation
    /// changes. None: the window actor has no child.
    _surface() {
        const child = this.actor.get_last_child();
        if (child !== this._surfaceBox?.actor) {
            this._removeLook();
            if (!child)
                return null;
            const allocationId = child.connect('notify::allocation', () => {
                this._surfaceBox.x = null;
            });
            this._surfaceBox = {actor: child, allocationId, x: null};
        }
        const box = this._surfaceBox;
        if (box.x === null) {
            [box.x, box.y] = child.get_position();
            [box.width, box.height] = child.get_size();
            box.picture = offscreenBox(child);
        }
        return box;
    }

    /// The actor's own transform; none: at rest. (Only when one was set: setting it, even to none,
    /// redraws the window itself, into an effect's offscreen picture again.)
    _setTransform(matrix) {
        if (!matrix && !this._transformed)
            return;
        this.actor.set_transform(matrix);
        this._transformed = matrix !== null;
    }

    /// The actor's position and size on the stage, read again only when its allocation changes.
    _actorBox() {
        if (!this._box) {
            const [x, y] = this.actor.get_position();
            const [width, height] = this.actor.get_size();
            this._box = {x, y, width, height};
        }
        return this._box;
    }

    _setOpacity(opacity) {
        if (opacity !== this._opacity) {
            this.actor.opacity = opacity;
            this._opacity = opacity;
        }
    }

    _removeLook() {
        if (this._look) {
            this._surfaceBox.actor.remove_effect(this._look);
            this._look = null;
        }
        if (this._surfaceBox) {
            this._surfaceBox.actor.disconnect(this._surfaceBox.allocationId);
            this._surfaceBox = null;
        }
    }

    _removeEffect() {
        if (this._effect) {
            this.actor.remove_effect(this._effect);
            this._effect = null;
        }
    }

    /// Ends it once: the animator hears it, the actor is put back at rest and
    /// handed back to the shell (completed_*), whatever happened.
    end(completed, why) {
        if (this._ended)
            return;
        this._ended = true;
        this._owner.forget(this.actor);
        let reason = why ?? '';
        try {
            this._timeline.stop();
            this._timeline.run_dispose();
        } catch (e) {
            // nothing to stop
        }
        try {
            const report = this.transition.finish(completed);
            if (!why)
                reason = report.get_reason();
        } catch (e) {
            reason = `${reason}${reason ? '; ' : ''}finishing failed: ${e.message}`;
        }
        // Its libsegue transition freed now, not when the garbage collector comes to it.
        this.transition.run_dispose();
        Meta.enable_unredirect_for_display(global.display);
        global.end_work();
        // Each step of putting the actor back at rest, whatever another one does (an actor already gone).
        const actor = this.actor;
        for (const step of [
            () => actor.disconnect(this._destroyId),
            () => actor.disconnect(this._allocationId),
            () => this._removeEffect(),
            () => this._removeLook(),
            () => actor.set_transform(null),
            () => {
                actor.opacity = 255;
            },
        ]) {
            try {
                step();
            } catch (e) {
                // nothing to undo
            }
        }
        const seconds = (GLib.get_monotonic_time() - this._began) / 1e6;
        say(`${this.name} ${CHANGES[this.change].ends}: ${completed ? 'completed' : 'cut short'} (${reason}); ` +
            `${this._frames} frames in ${seconds.toFixed(3)} s`);
        this._shellwm[CHANGES[this.change].complete](actor);
    }
}

class SegueWindowAnimations {
    constructor() {
        /// A fraction of every transition to hold at (for tests' photographs), or null.
        this.holdAt = null;
        this._running = new Map();
        this._blocked = [];
        this._connected = [];
        this._named = new Set();
        this._player = null;
    }

    enable() {
        if (!SegueGLib) {
            say(`cannot play animators: the SegueGLib-1 typelib did not load (${importError}); the shell animates windows itself`);
            return;
        }
        // The newest call this extension makes: a SegueGLib older than 1.4, installed apart, is refused here
        // rather than failing each window's animation.
        if (!SegueGLib.Layer.prototype.get_matrix_at) {
            say('cannot play animators: the SegueGLib library is older than 1.4, which this extension needs ' +
                '(install it again from the same Segue: docs/gnome-shell.md); the shell animates windows itself');
            return;
        }
        try {
            this._player = new SegueGLib.Player({no_spin: true});
            this._player.init(null);
        } catch (e) {
            this._player = null;
            say(`cannot play animators: ${e.message}; the shell animates windows itself`);
            return;
        }
        const player = this._player;
        this._playerSignals = [
            player.connect('log', (_p, _level, message) => say(message)),
            player.connect('reloaded', (_p, message) => say(message)),
            player.connect('config-error', (_p, message) => say(message)),
            player.connect('fell-back', (_p, _transition, message) => say(message)),
        ];
        this._interface = new Gio.Settings({schema_id: 'org.gnome.desktop.interface'});
        const shellwm = global.window_manager;
        // The shell's own handlers, connected first (WindowManager's constructor): blocked while enabled.
        for (const signal of Object.keys(CHANGES)) {
            const id = GObject.signal_handler_find(shellwm, {signalId: signal});
            if (id) {
                GObject.signal_handler_block(shellwm, id);
                this._blocked.push(id);
            }
            this._connected.push(shellwm.connect(signal, (wm, actor) => this._change(signal, wm, actor)));
        }
        this._connected.push(shellwm.connect('kill-window-effects', (_wm, actor) => this._running.get(actor)?.end(false, 'the shell cut it short')));
        say('playing window animators');
    }

    disable() {
        // Every window still animating is released, as it is at the end.
        for (const running of [...this._running.values()])
            running.end(false, 'the extension was disabled');
        const shellwm = global.window_manager;
        for (const id of this._connected)
            shellwm.disconnect(id);
        for (const id of this._blocked) {
            if (GObject.signal_handler_is_connected(shellwm, id))
                GObject.signal_handler_unblock(shellwm, id);
        }
        this._connected = [];
        this._blocked = [];
        if (this._player) {
            for (const id of this._playerSignals)
                this._player.disconnect(id);
            this._player.run_dispose();
            this._player = null;
        }
        this._named.clear();
        this._interface = null;
    }

    forget(actor) {
        this._running.delete(actor);
    }

    /// The container's size: the stage's (all monitors).
    bounds() {
        return [global.stage.width, global.stage.height];
    }

    /// Why the shell keeps this change of this window (its own handler runs), or null.
    _leftToShell(change, actor) {
        const window = actor.meta_window;
        if (!window)
            return 'no window';
        // GNOME animates dialogs its own way, and some windows not at all: theirs stay the shell's.
        if (window.get_window_type() !== Meta.WindowType.NORMAL)
            return 'not a normal window';
        if (window.get_transient_for())
            return 'a transient window';
        if (window._dimmed)
            return 'a window under a modal dialog';
        const wm = Main.wm;
        if (wm._skippedActors?.has(actor))
            return 'the shell skips its animation';
        // The user's own setting. St's enable-animations also folds in the shell's inhibitions (software
        // rendering, Xvnc, remote desktop), which turn the shell's animations off but not Segue's.
        if (!this._interface.get_boolean('enable-animations'))
            return 'animations are off (org.gnome.desktop.interface enable-animations)';
        if (wm._shouldAnimate && !wm._shouldAnimate())
            return 'the Overview shows or a gesture runs';
        if (!actor.get_texture())
            return 'it has nothing drawn yet';
        return null;
    }

    _change(change, shellwm, actor) {
        // Another change of the same window cuts the running one short; the new one starts from rest.
        this._running.get(actor)?.end(false, `it ${CHANGES[change].begins}`);
        const why = this._leftToShell(change, actor);
        if (why) {
            if (actor.meta_window?.get_window_type() === Meta.WindowType.NORMAL && !actor.meta_window.get_transient_for())
                say(`${windowName(actor.meta_window)[0]} ${CHANGES[change].begins}, not animated: ${why}`);
            Main.wm[SHELL_HANDLERS[change]](shellwm, actor);
            return;
        }
        const window = actor.meta_window;
        const [name, origin] = windowName(window);
        const frame = window.get_frame_rect();
        const [width, height] = this.bounds();
        const [told, said] = toldOf(change, window);
        let transition;
        try {
            const request = new SegueGLib.Request({
                kind: CHANGES[change].leaves ? SegueGLib.TransitionKind.DISAPPEAR : SegueGLib.TransitionKind.APPEAR,
                bounds_width: width,
                bounds_height: height,
                going_right: true,
            });
            Object.assign(request, told);
            if (CHANGES[change].leaves) {
                Object.assign(request, {from_name: name, from_x: frame.x, from_y: frame.y, from_width: frame.width, from_height: frame.height});
            } else {
                Object.assign(request, {to_name: name, to_x: frame.x, to_y: frame.y, to_width: frame.width, to_height: frame.height});
            }
            transition = this._player.begin(request);
        } catch (e) {
            say(`${name} ${CHANGES[change].begins}, not animated: ${e.message}`);
            Main.wm[SHELL_HANDLERS[change]](shellwm, actor);
            return;
        }
        const slowDown = St.Settings.get().slow_down_factor;
        say(`${name} ${CHANGES[change].begins} at ${frame.x},${frame.y} ${frame.width}x${frame.height}: ${transition.animator} ` +
            `for ${transition.duration * slowDown} s (the animator's ${transition.duration} s x ${slowDown}, the shell's slow-down factor; ${transition.reason})`);
        if (!this._named.has(name)) {
            this._named.add(name);
            say(`window '${name}' (${origin}; rules match this name) ${CHANGES[change].begins} with ${transition.animator}: ${transition.reason}`);
        }
        say(`${name} ${CHANGES[change].begins}: the animator is told ${said}`);
        const running = new WindowTransition(this, change, shellwm, actor, transition, name, frame);
        this._running.set(actor, running);
        running.start();
    }
}

/// The SegueGLib.WindowType of a window (Meta.WindowType folded into the animator ABI's eight kinds).
function windowType(window) {
    const T = Meta.WindowType, S = SegueGLib.WindowType;
    switch (window.get_window_type()) {
    case T.DIALOG: case T.MODAL_DIALOG: return S.DIALOG;
    case T.UTILITY: case T.TOOLBAR: return S.UTILITY;
    case T.NOTIFICATION: return S.NOTIFICATION;
    case T.MENU: case T.DROPDOWN_MENU: case T.POPUP_MENU: case T.COMBO: return S.MENU;
    case T.TOOLTIP: return S.TOOLTIP;
    case T.SPLASHSCREEN: return S.SPLASH;
    case T.DOCK: return S.DOCK;
    default: return S.NORMAL;
    }
}

/// What the shell knows of where a window comes from or goes to, and what it is, as a SegueGLib.Request's
/// properties (SegueGLib 1.1, libsegue 1.5): the pointer always; for a minimize and an unminimize the window's
/// icon geometry when something set it (a dock or task-bar extension; the shell itself sets none); its type, and
/// whether it is modal. With them, the line for the log saying what the animator is told.
function toldOf(change, window) {
    const [pointerX, pointerY] = global.get_pointer();
    const told = {
        anchor_has_point: true, anchor_point_x: pointerX, anchor_point_y: pointerY,
        window_type: windowType(window),
        modal: window.get_window_type() === Meta.WindowType.MODAL_DIALOG || window.is_attached_dialog(),
    };
    let said = `the pointer at ${pointerX},${pointerY}`;
    if (change === 'minimize' || change === 'unminimize') {
        const [known, icon] = window.get_icon_geometry();
        if (known && icon.width > 0 && icon.height > 0) {
            Object.assign(told, {anchor_has_rect: true, anchor_x: icon.x, anchor_y: icon.y, anchor_width: icon.width, anchor_height: icon.height});
            said += `, the task-bar entry at ${icon.x},${icon.y} ${icon.width}x${icon.height}`;
        }
    }
    const typeName = Object.keys(SegueGLib.WindowType).find(key => SegueGLib.WindowType[key] === told.window_type).toLowerCase();
    return [told, `${said}; window type ${typeName}${told.modal ? ', modal' : ''}`];
}

function init() {
    return new SegueWindowAnimations();
}
