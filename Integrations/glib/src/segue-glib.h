/*
 * SegueGLib: play Segue animators from any GObject program, and from GJS,
 * PyGObject and Vala through the SegueGLib-1 typelib, over libsegue.
 *
 * A player finds the animators (plugins in their folders, the built-in
 * default) and follows a config file's rules; a request describes a
 * transition (its kind, the two views' names and frames, the container's
 * bounds); a transition, begun from a request, is sampled at any time of the
 * program's clock into layers, back to front, each a snapshot of what to
 * draw: which view it shows, where that content rests, its alpha, and either
 * the projective map (a 3x3, or a graphene 4x4 in container or in the
 * layer's own coordinates) or a mesh with its light. Plugin animators run in
 * libsegue's sandboxed workers: one that crashes, hangs or answers nonsense
 * costs only its own transition (the built-in default takes over from the
 * same point, and the player's "fell-back" signal says why).
 *
 * Everything here is libsegue's own: the sampler (it follows a takeover and
 * orders the layers), the flat map, the page's shading, the config's
 * policy. This library only makes them GObjects.
 *
 * Threads
 * -------
 * A player and everything it makes belong to the thread that initialized
 * the player (libsegue's [main] thread): make transitions, finish them, read
 * properties and drop the last reference there. Its events (log lines,
 * reloads, config errors, fallbacks) are signals emitted on the GMainContext
 * that was the thread-default one when the player was initialized (the
 * global default context when none was pushed): run that context's loop, on
 * that same thread, to receive them. Initializing fails with
 * %SEGUE_GLIB_ERROR_WRONG_THREAD while another thread runs that context;
 * should another thread run it later, the player's events stop for good
 * (its source is removed), with a critical warning (libsegue answers only
 * its own thread, so they could not be delivered). segue_glib_transition_sample() and
 * segue_glib_transition_get_layer() may run on another thread (a render
 * thread), one thread at a time for one transition; a #SegueGLibLayer is an
 * immutable snapshot any thread may read.
 *
 * Ownership
 * ---------
 * Strings and arrays passed in are copied. Objects returned with
 * (transfer full) are the caller's; a transition keeps its player alive,
 * and the player its workers, until the last transition made from it is
 * gone. What a getter returns with (transfer none) is owned by the object
 * and valid as long as it is (for a transition's strings: until the
 * transition is disposed, as its last reference goes or by
 * g_object_run_dispose()). Dropping the player's last reference frees
 * libsegue's player, which waits for plugin calls still running on its
 * threads, at most 3 s for each (see segue_player_free()), and ends its
 * workers. To free it at a moment of your choosing (a binding's garbage
 * collector runs when it will), dispose it (g_object_run_dispose()) on its
 * thread, once no other thread samples its transitions: the transitions
 * made from it are disposed first (an unfinished one finished as not
 * completed), its signals stop, and later calls fail with
 * %SEGUE_GLIB_ERROR_INVALID_ARGUMENT. Since 1.4 (before, disposing it
 * only disconnected its signals).
 *
 * Errors are #GError in the SEGUE_GLIB_ERROR domain, with libsegue's own
 * message (naming the file, key or argument, what was expected and found).
 *
 * Build: pkg-config --cflags --libs segue-glib-1
 * Introspection: the SegueGLib-1 namespace (gi.require_version("SegueGLib", "1");
 * imports.gi.versions.SegueGLib = "1" in GJS).
 */
#pragma once

#include <gio/gio.h>
#include <graphene-gobject.h>

G_BEGIN_DECLS

/* ---- Errors and enumerations ---------------------------------------------- */

/**
 * SEGUE_GLIB_ERROR:
 *
 * The error domain of this library: the codes are #SegueGLibError.
 */
#define SEGUE_GLIB_ERROR (segue_glib_error_quark())
GQuark segue_glib_error_quark(void);

/**
 * SegueGLibError:
 * @SEGUE_GLIB_ERROR_FAILED: anything libsegue answers that has no code of its own here
 * @SEGUE_GLIB_ERROR_INVALID_ARGUMENT: an argument was refused (a NaN, a request
 *   with no bounds, parameters-json that is not a JSON object, ...)
 * @SEGUE_GLIB_ERROR_NOT_FOUND: no animator of that name
 * @SEGUE_GLIB_ERROR_CONFIG: the config file could not be read or is invalid
 * @SEGUE_GLIB_ERROR_WRONG_THREAD: called from a thread that is not the player's
 *   (at init: another thread runs the context its events would come on)
 * @SEGUE_GLIB_ERROR_ENDED: the transition has already been finished
 * @SEGUE_GLIB_ERROR_BUFFER_TOO_SMALL: libsegue's SEGUE_E_BUFFER_TOO_SMALL
 *   (not expected here: the sampler sizes its own buffers)
 * @SEGUE_GLIB_ERROR_SYSTEM: the system refused something libsegue needed
 *   (a thread, a descriptor, a worker process)
 *
 * Why a call failed: libsegue's segue_status_t errors, each the negation of
 * the status (SEGUE_E_CONFIG, -3, is 3).
 */
typedef enum {
    SEGUE_GLIB_ERROR_FAILED = 0,
    SEGUE_GLIB_ERROR_INVALID_ARGUMENT = 1,
    SEGUE_GLIB_ERROR_NOT_FOUND = 2,
    SEGUE_GLIB_ERROR_CONFIG = 3,
    SEGUE_GLIB_ERROR_WRONG_THREAD = 4,
    SEGUE_GLIB_ERROR_ENDED = 5,
    SEGUE_GLIB_ERROR_BUFFER_TOO_SMALL = 6,
    SEGUE_GLIB_ERROR_SYSTEM = 7,
} SegueGLibError;
GType segue_glib_error_get_type(void);
#define SEGUE_GLIB_TYPE_ERROR (segue_glib_error_get_type())

/**
 * SegueGLibSandbox:
 * @SEGUE_GLIB_SANDBOX_FROM_CONFIG: $SEGUE_SANDBOX when set, else the config's
 *   "sandbox", else strict
 * @SEGUE_GLIB_SANDBOX_STRICT: Landlock, seccomp, no capabilities, resource limits
 * @SEGUE_GLIB_SANDBOX_OFF: workers still isolate plugins, unconfined
 *
 * How plugin workers are confined (libsegue's segue_sandbox_t).
 */
typedef enum {
    SEGUE_GLIB_SANDBOX_FROM_CONFIG = 0,
    SEGUE_GLIB_SANDBOX_STRICT = 1,
    SEGUE_GLIB_SANDBOX_OFF = 2,
} SegueGLibSandbox;
GType segue_glib_sandbox_get_type(void);
#define SEGUE_GLIB_TYPE_SANDBOX (segue_glib_sandbox_get_type())

/**
 * SegueGLibIsolation:
 * @SEGUE_GLIB_ISOLATION_PROCESS: sandboxed worker processes (the default): a
 *   plugin that crashes or hangs costs only its own transition
 * @SEGUE_GLIB_ISOLATION_NONE: plugin code in this process, unprotected: for
 *   trusted plugins only
 * @SEGUE_GLIB_ISOLATION_FROM_CONFIG: whatever the config says, else process
 *
 * Where plugin code runs (libsegue's segue_isolation_t).
 */
typedef enum {
    SEGUE_GLIB_ISOLATION_PROCESS = 0,
    SEGUE_GLIB_ISOLATION_NONE = 1,
    SEGUE_GLIB_ISOLATION_FROM_CONFIG = 2,
} SegueGLibIsolation;
GType segue_glib_isolation_get_type(void);
#define SEGUE_GLIB_TYPE_ISOLATION (segue_glib_isolation_get_type())

/**
 * SegueGLibTransitionKind:
 * @SEGUE_GLIB_TRANSITION_KIND_SWITCH: "from" leaves and "to" takes its place
 * @SEGUE_GLIB_TRANSITION_KIND_APPEAR: "to" arrives over "from" (a window opens);
 *   rules match it by the to-name
 * @SEGUE_GLIB_TRANSITION_KIND_DISAPPEAR: "from" leaves, revealing "to" (a
 *   window closes); rules match it by the from-name
 *
 * What a transition does (libsegue's segue_transition_kind_t).
 */
typedef enum {
    SEGUE_GLIB_TRANSITION_KIND_SWITCH = 0,
    SEGUE_GLIB_TRANSITION_KIND_APPEAR = 1,
    SEGUE_GLIB_TRANSITION_KIND_DISAPPEAR = 2,
} SegueGLibTransitionKind;
GType segue_glib_transition_kind_get_type(void);
#define SEGUE_GLIB_TYPE_TRANSITION_KIND (segue_glib_transition_kind_get_type())

/**
 * SegueGLibSide:
 * @SEGUE_GLIB_SIDE_FROM: the view going away (the leaving window, or what an
 *   arriving one appears over)
 * @SEGUE_GLIB_SIDE_TO: the view coming in (the arriving window, or what a
 *   leaving one reveals)
 *
 * Which view a layer shows, or an element belongs to.
 */
typedef enum {
    SEGUE_GLIB_SIDE_FROM = 0,
    SEGUE_GLIB_SIDE_TO = 1,
} SegueGLibSide;
GType segue_glib_side_get_type(void);
#define SEGUE_GLIB_TYPE_SIDE (segue_glib_side_get_type())

/**
 * SegueGLibLogLevel:
 * @SEGUE_GLIB_LOG_LEVEL_DEBUG: for debugging
 * @SEGUE_GLIB_LOG_LEVEL_INFO: worth a line in a log
 * @SEGUE_GLIB_LOG_LEVEL_WARNING: something went wrong and was dealt with
 * @SEGUE_GLIB_LOG_LEVEL_ERROR: something failed
 *
 * How serious a "log" signal's line is (libsegue's segue_log_level_t).
 */
typedef enum {
    SEGUE_GLIB_LOG_LEVEL_DEBUG = 0,
    SEGUE_GLIB_LOG_LEVEL_INFO = 1,
    SEGUE_GLIB_LOG_LEVEL_WARNING = 2,
    SEGUE_GLIB_LOG_LEVEL_ERROR = 3,
} SegueGLibLogLevel;
GType segue_glib_log_level_get_type(void);
#define SEGUE_GLIB_TYPE_LOG_LEVEL (segue_glib_log_level_get_type())

/**
 * SegueGLibWindowType:
 * @SEGUE_GLIB_WINDOW_TYPE_NORMAL: an application's main window, or not known
 * @SEGUE_GLIB_WINDOW_TYPE_DIALOG: a dialog over another window
 * @SEGUE_GLIB_WINDOW_TYPE_UTILITY: a palette or toolbox that stays beside its window
 * @SEGUE_GLIB_WINDOW_TYPE_NOTIFICATION: a notification bubble or banner
 * @SEGUE_GLIB_WINDOW_TYPE_MENU: a menu: popup, drop-down or context
 * @SEGUE_GLIB_WINDOW_TYPE_TOOLTIP: a tooltip
 * @SEGUE_GLIB_WINDOW_TYPE_SPLASH: a splash screen
 * @SEGUE_GLIB_WINDOW_TYPE_DOCK: a panel or dock
 *
 * What kind of window appears or disappears, as desktops tell them apart
 * (the animator ABI's segue_window_type_t, same values): a request's
 * "window-type".
 *
 * Since: 1.1
 */
typedef enum {
    SEGUE_GLIB_WINDOW_TYPE_NORMAL = 0,
    SEGUE_GLIB_WINDOW_TYPE_DIALOG = 1,
    SEGUE_GLIB_WINDOW_TYPE_UTILITY = 2,
    SEGUE_GLIB_WINDOW_TYPE_NOTIFICATION = 3,
    SEGUE_GLIB_WINDOW_TYPE_MENU = 4,
    SEGUE_GLIB_WINDOW_TYPE_TOOLTIP = 5,
    SEGUE_GLIB_WINDOW_TYPE_SPLASH = 6,
    SEGUE_GLIB_WINDOW_TYPE_DOCK = 7,
} SegueGLibWindowType;
GType segue_glib_window_type_get_type(void);
#define SEGUE_GLIB_TYPE_WINDOW_TYPE (segue_glib_window_type_get_type())

/* ---- The request ------------------------------------------------------------ */

/**
 * SegueGLibRequest:
 *
 * A transition to begin: a plain object of properties, read by
 * segue_glib_player_begin() (which copies what it needs: change or drop
 * the request afterwards as you like). Any thread may make and fill one;
 * one thread at a time.
 *
 * Properties: "kind" (#SegueGLibTransitionKind, default SWITCH);
 * "from-name" and "to-name" (nullable strings: the views' names, matched by
 * the config's rules; in an appearance or a disappearance the view beneath
 * may be left out, %NULL, and a transparent stand-in of the bounds takes
 * its place); "from-x", "from-y", "from-width", "from-height", "to-x",
 * "to-y", "to-width", "to-height" (doubles: the views' frames in container
 * coordinates, a window's own frame; a width or height of 0 means the
 * bounds); "bounds-width" and "bounds-height" (doubles above 0: the
 * container, origin (0, 0)); "animator" (nullable: an animator's short name,
 * %NULL to follow the config's rules); "parameters-json" (nullable: a JSON
 * object as a config rule writes parameters, %NULL for the rule's or the
 * animator's defaults); "going-right" (%TRUE when "to" comes after "from")
 * and "interactive" (%TRUE when a gesture drives the transition).
 *
 * Since 1.1, what the host knows of the window that appears or disappears
 * (libsegue's segue_transition_desc_t anchor, window_type and modal, each
 * described on its property): "anchor-has-rect" with "anchor-x",
 * "anchor-y", "anchor-width", "anchor-height" (the task-bar entry or
 * launcher it goes into or comes out of, container coordinates);
 * "anchor-has-point" with "anchor-point-x", "anchor-point-y" (the pointer);
 * "window-type" (#SegueGLibWindowType, default NORMAL) and "modal". Left
 * unset, nothing is known: animators play as they did before.
 */
#define SEGUE_GLIB_TYPE_REQUEST (segue_glib_request_get_type())
G_DECLARE_FINAL_TYPE(SegueGLibRequest, segue_glib_request, SEGUE_GLIB, REQUEST, GObject)

/**
 * segue_glib_request_new:
 *
 * Returns: (transfer full): an empty request (a switch, no names, zero
 *   frames and bounds): set its properties with g_object_set().
 */
SegueGLibRequest *segue_glib_request_new(void);

/**
 * segue_glib_request_add_element:
 * @request: a request
 * @side: the view the element belongs to
 * @name: the element's name, unique within its view (copied)
 * @x: its frame's left edge, container coordinates
 * @y: its frame's top edge
 * @width: its frame's width
 * @height: its frame's height
 *
 * Adds a named element to a view (a cell's image, a title), which an
 * animator may move as a layer of its own (an element snapshot: see
 * segue_glib_layer_get_element()) or hide while the transition plays.
 */
void segue_glib_request_add_element(SegueGLibRequest *request, SegueGLibSide side, const char *name,
                                    double x, double y, double width, double height);

/* ---- The transition ------------------------------------------------------------ */

/**
 * SegueGLibTransition:
 *
 * A transition being played, made by segue_glib_player_begin(): its plan
 * (read-only properties), sampled at any time of the program's clock.
 *
 * Properties (read-only, on the player's thread): "animator" (the short name
 * of the animator that plays, "default" for the built-in), "duration"
 * (seconds), "reason" (why it plays: "rules[0] (to \"b\")", "...; the
 * built-in default ran instead"), "plugin-path" (nullable: its plugin file,
 * %NULL for the built-in default), "fell-back" (whether the built-in default
 * plays instead of the animator that was chosen). They change when the
 * default takes over mid-transition: "notify" is emitted for them on the
 * player's main context with the player's "fell-back" signal, and
 * segue_glib_transition_sample() reports the change at once (plan_changed).
 *
 * Lifetime: finish it once (segue_glib_transition_finish()); the last
 * reference dropped finishes it as not completed if it was not. It keeps
 * its player alive. Drop it on the player's thread, after sampling has
 * stopped.
 */
#define SEGUE_GLIB_TYPE_TRANSITION (segue_glib_transition_get_type())
G_DECLARE_FINAL_TYPE(SegueGLibTransition, segue_glib_transition, SEGUE_GLIB, TRANSITION, GObject)

/* ---- The player ------------------------------------------------------------- */

/**
 * SegueGLibPlayer:
 *
 * The animators, the config and the workers: libsegue's player. A
 * #GInitable: make it with segue_glib_player_new() or
 * segue_glib_player_new_with_options() (which initialize it), or with
 * g_object_new() and its construct-only properties followed by
 * g_initable_init() (in GJS `new SegueGLib.Player({...})` then
 * `player.init(null)`; in Python `SegueGLib.Player(...)` then
 * `player.init(None)`). Initializing makes the calling thread the player's
 * thread and attaches a #GSource for libsegue's descriptor to the
 * thread-default #GMainContext (it fails with
 * %SEGUE_GLIB_ERROR_WRONG_THREAD when another thread runs that context);
 * calling init again answers as the first time did. A player that failed
 * to initialize is unusable.
 *
 * Construct-only properties:
 * - "config-path" (string, default %NULL): a config file the program names
 *   (one that cannot be read fails init with %SEGUE_GLIB_ERROR_CONFIG);
 *   %NULL follows the user's standard config
 *   ($XDG_CONFIG_HOME/segue/segue.json, else ~/.config/segue/segue.json)
 *   in whatever state it is, as a desktop's hosts do;
 * - "plugin-dirs" (#GStrv, default %NULL): plugin folders searched first,
 *   in order; the standard ones follow ($SEGUE_PLUGIN_PATH, the config's
 *   "plugins", $XDG_DATA_HOME/segue/plugins, PREFIX/lib/segue/plugins);
 * - "only-given-folders" (boolean, default %FALSE): search only
 *   "plugin-dirs" and the config's "plugins";
 * - "watch" (boolean, default %TRUE): follow the config and the plugin
 *   folders as they change ("reloaded", "config-error");
 * - "sandbox" (#SegueGLibSandbox, default FROM_CONFIG);
 * - "isolation" (#SegueGLibIsolation, default PROCESS);
 * - "no-spin" (boolean, default %FALSE): sampling waits for a worker asleep
 *   from the start rather than spinning up to 200 microseconds first (for
 *   compositors, whose thread has other work);
 * - "sample-bound" (unsigned, microseconds, default 0 for libsegue's 4000,
 *   at most 100000): how long a sample may wait for a plugin.
 *
 * Signals, emitted on the player's main context, in libsegue's order:
 * - "log" (#SegueGLibLogLevel level, const char *message): a line for the
 *   log, the player's own or a plugin's (escaped);
 * - "reloaded" (const char *message): plugins or the config changed and were
 *   reloaded; transitions already begun keep their animator;
 * - "config-error" (const char *message): the config changed and is invalid
 *   (the message names the file, line:column and key); the last good one is
 *   kept;
 * - "fell-back" (#SegueGLibTransition *transition (nullable), const char
 *   *message): a transition's plugin failed mid-transition (crash, hang,
 *   escape attempt, non-finite value); the built-in default took over from
 *   the same point. @transition is %NULL when the program has already
 *   dropped it.
 * Messages are owned by the emission, valid during it.
 */
#define SEGUE_GLIB_TYPE_PLAYER (segue_glib_player_get_type())
G_DECLARE_FINAL_TYPE(SegueGLibPlayer, segue_glib_player, SEGUE_GLIB, PLAYER, GObject)

/**
 * segue_glib_player_new:
 * @error: a place for the reason it failed, or %NULL
 *
 * The standard player: the user's standard config, watched; the standard
 * plugin folders; sandboxed workers.
 *
 * Returns: (transfer full): a player, or %NULL with @error set.
 */
SegueGLibPlayer *segue_glib_player_new(GError **error);

/**
 * segue_glib_player_new_with_options:
 * @config_path: (nullable) (type filename): a config file, or %NULL for the
 *   standard one
 * @plugin_dirs: (nullable) (array zero-terminated=1): plugin folders searched
 *   before the standard ones, or %NULL
 * @error: a place for the reason it failed, or %NULL
 *
 * A player of the given config and plugin folders, watched, sandboxed as the
 * config says. For the other properties make it with g_object_new() and
 * g_initable_init().
 *
 * Returns: (transfer full): a player, or %NULL with @error set.
 */
SegueGLibPlayer *segue_glib_player_new_with_options(const char *config_path, const char *const *plugin_dirs, GError **error);

/**
 * segue_glib_player_list_animators:
 * @player: an initialized player
 *
 * The animators there are: every plugin's, then the built-in default
 * ("default", always last). On the player's thread.
 *
 * Returns: (transfer full) (array zero-terminated=1): their short names
 *   ("CurlUp", "SpringSlide", ..., "default"); free with g_strfreev().
 */
char **segue_glib_player_list_animators(SegueGLibPlayer *player);

/**
 * segue_glib_player_begin:
 * @player: an initialized player
 * @request: the transition to begin (read during the call)
 * @error: a place for the reason it failed, or %NULL
 *
 * Begins a transition: chooses the animator (the request's, else the
 * config's rules), runs its setup in its worker and checks its plan. It
 * waits for a plugin's setup and first two frames 100 ms at most in all (a
 * plugin with no worker, at its first use or after its worker was ended or
 * it was reloaded, also waits for its worker to start and load it, 5 s at
 * most; a plugin in the program's process is waited for as it runs). A
 * setup past that: the built-in default plays, and a plugin that then
 * hangs is killed at its deadline of 1 s and quarantined, which the "log"
 * signal says. First frames past that: the "log" signal says so, and
 * samples hold the start until they come (a hang past 0.5 s: the default
 * takes over, which "fell-back" says). When nothing chose a plugin, or the plugin declines, is
 * quarantined, crashes, hangs or plans something unusable, the built-in
 * default runs and the transition's "reason" says why: that is a success.
 * On the player's thread.
 *
 * Returns: (transfer full): the transition, yours: finish it once with
 *   segue_glib_transition_finish() (dropping it unfinished finishes it as not
 *   completed); %NULL with @error set (%SEGUE_GLIB_ERROR_INVALID_ARGUMENT for
 *   bounds of no size or parameters that are not a JSON object).
 */
SegueGLibTransition *segue_glib_player_begin(SegueGLibPlayer *player, SegueGLibRequest *request, GError **error);

/* ---- Layers ------------------------------------------------------------------ */

/**
 * SegueGLibLayer:
 *
 * One layer of a transition at one sampled moment, as a host draws it: an
 * immutable, reference-counted snapshot (safe to keep and to read from any
 * thread; it does not keep the transition alive). Draw the content of its
 * side (or element) as it looks at its resting frame, then move it by the
 * map (a flat layer) or draw its mesh, with its alpha, if it is visible.
 */
typedef struct _SegueGLibLayer SegueGLibLayer;
GType segue_glib_layer_get_type(void);
#define SEGUE_GLIB_TYPE_LAYER (segue_glib_layer_get_type())

/**
 * segue_glib_layer_ref:
 * @layer: a layer
 *
 * Returns: (transfer full): @layer, with one more reference.
 */
SegueGLibLayer *segue_glib_layer_ref(SegueGLibLayer *layer);

/**
 * segue_glib_layer_unref:
 * @layer: (transfer full): a layer
 *
 * Drops a reference; the last frees the snapshot.
 */
void segue_glib_layer_unref(SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_plan_index:
 * @layer: a layer
 *
 * Returns: its index in the animator's plan (stable across samples while
 *   the plan does not change), which may differ from its place back to front.
 */
guint segue_glib_layer_get_plan_index(const SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_side:
 * @layer: a layer
 *
 * Returns: the view it shows, or whose element it shows.
 */
SegueGLibSide segue_glib_layer_get_side(const SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_element:
 * @layer: a layer
 *
 * Returns: (transfer none) (nullable): the name of the element it shows (a
 *   snapshot of an element the request added), owned by the layer; %NULL
 *   when it shows the whole view.
 */
const char *segue_glib_layer_get_element(const SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_visible:
 * @layer: a layer
 *
 * Returns: whether to draw it: not hidden, alpha above 0 and (flat) in front
 *   of the eye all over; %FALSE for a transparent stand-in's layer.
 */
gboolean segue_glib_layer_get_visible(const SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_alpha:
 * @layer: a layer
 *
 * Returns: its opacity, in [0, 1].
 */
double segue_glib_layer_get_alpha(const SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_resting_frame:
 * @layer: a layer
 * @x: (out) (optional): the left edge, container coordinates
 * @y: (out) (optional): the top edge
 * @width: (out) (optional): the width
 * @height: (out) (optional): the height
 *
 * Where its content rests: the view's frame (a window's own, else the
 * bounds) or the element's frame. The map and the local matrix start from
 * there.
 */
void segue_glib_layer_get_resting_frame(const SegueGLibLayer *layer, double *x, double *y, double *width, double *height);

/**
 * segue_glib_layer_get_frame:
 * @layer: a layer
 * @x: (out) (optional): the left edge, container coordinates
 * @y: (out) (optional): the top edge
 * @width: (out) (optional): the width
 * @height: (out) (optional): the height
 *
 * Its frame at this sample, before its transform: the layer's own
 * coordinates (its clip's and corner radius') run from (0, 0) at its
 * top-left to (width, height); its content, as it rests
 * (segue_glib_layer_get_resting_frame()), is stretched over it.
 */
void segue_glib_layer_get_frame(const SegueGLibLayer *layer, double *x, double *y, double *width, double *height);

/**
 * segue_glib_layer_get_corner_radius:
 * @layer: a layer
 *
 * Since the animator ABI 1.4: the radius of its corners, in its own
 * coordinates (segue_glib_layer_get_frame()), within 0 and half its frame's
 * shorter side; 0: square corners.
 *
 * Returns: the radius, in points
 */
double segue_glib_layer_get_corner_radius(const SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_clip:
 * @layer: a layer
 * @x: (out) (optional): the clip rectangle's left edge, the layer's own coordinates
 * @y: (out) (optional): its top edge
 * @width: (out) (optional): its width (at least 0)
 * @height: (out) (optional): its height (at least 0)
 * @top_left: (out) (optional): a rounded rectangle's top-left radius (within 0 and half the rect's shorter side)
 * @top_right: (out) (optional): its top-right radius
 * @bottom_right: (out) (optional): its bottom-right radius
 * @bottom_left: (out) (optional): its bottom-left radius
 *
 * Since the animator ABI 1.4: the shape the layer is cut to, in its own
 * coordinates (segue_glib_layer_get_frame()): only what lies inside is
 * drawn, anti-aliased, its transform and alpha applied as usual.
 *
 * Returns: the shape, as segue/animator.h's segue_clip_shape_t: 0 none
 *   (the other values are then 0), 1 the rounded rectangle, 2 the ellipse
 *   inscribed in the rectangle.
 */
guint segue_glib_layer_get_clip(const SegueGLibLayer *layer, double *x, double *y, double *width, double *height,
                                double *top_left, double *top_right, double *bottom_right, double *bottom_left);

/**
 * segue_glib_layer_get_map:
 * @layer: a layer
 *
 * A flat layer's projective map from its content at rest to where it is
 * seen, both in container coordinates, row-major: a point (x, y) of the
 * content at the resting frame is seen at (X / W, Y / W), where
 * X = m[0] x + m[1] y + m[2], Y = m[3] x + m[4] y + m[5],
 * W = m[6] x + m[7] y + m[8] (W > 0 wherever the layer is visible). The
 * identity when it rests. For a layer with a mesh, draw the mesh instead.
 *
 * Returns: (transfer none) (array fixed-size=9): the 9 values, owned by the layer.
 */
const double *segue_glib_layer_get_map(const SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_matrix:
 * @layer: a layer
 * @matrix: (out caller-allocates): receives the map as a 4x4 in container
 *   coordinates
 *
 * The map (segue_glib_layer_get_map()) as a graphene matrix: its 3x3 in the
 * x, y and w rows and columns, z passing through, in graphene's convention
 * (row vectors: a point p = (x, y, z, 1) is seen at p * matrix, as
 * graphene_matrix_transform_vec4() computes it, divided by its w), as GSK
 * and Clutter take matrices.
 */
void segue_glib_layer_get_matrix(const SegueGLibLayer *layer, graphene_matrix_t *matrix);

/**
 * segue_glib_layer_get_local_matrix:
 * @layer: a layer
 * @matrix: (out caller-allocates): receives the map in the layer's own coordinates
 *
 * The same map expressed in the layer's own coordinates, whose origin is
 * its resting frame's top-left corner: translate by the corner, map, and
 * translate back. It is what clutter_actor_set_transform() takes for an
 * actor placed (allocated) at the resting frame with its pivot point at
 * (0, 0), and what gtk_snapshot_transform_matrix() takes after translating
 * to that corner.
 */
void segue_glib_layer_get_local_matrix(const SegueGLibLayer *layer, graphene_matrix_t *matrix);

/**
 * segue_glib_layer_get_map_at:
 * @layer: a layer
 * @x: the origin's x, in container coordinates
 * @y: the origin's y, in container coordinates
 *
 * The map (segue_glib_layer_get_map()) in coordinates whose origin is the
 * container's point (@x, @y): translate by the origin, map, and translate
 * back; row-major, as segue_glib_layer_get_map() gives it.
 * segue_glib_layer_get_local_matrix() is this at the resting frame's
 * top-left corner, as a graphene matrix. For a program that needs the
 * numbers themselves (GJS cannot read a graphene matrix's in one call), or
 * the map around another corner (a compositor's window actor, whose shadow
 * puts its corner away from the window's frame). Any thread.
 *
 * Returns: (transfer full) (array fixed-size=9): the 9 values; free them
 *   with g_free().
 *
 * Since: 1.3
 */
double *segue_glib_layer_get_map_at(const SegueGLibLayer *layer, double x, double y);

/**
 * segue_glib_layer_get_matrix_at:
 * @layer: a layer
 * @x: the origin's x, in container coordinates
 * @y: the origin's y, in container coordinates
 * @matrix: (out caller-allocates): receives the map around that origin
 *
 * The map around the container's point (@x, @y)
 * (segue_glib_layer_get_map_at()) as a graphene matrix, in the convention
 * of segue_glib_layer_get_matrix(): what clutter_actor_set_transform()
 * takes for an actor allocated with its corner at (@x, @y) and its pivot
 * point at (0, 0), such as a compositor's window actor, whose shadow puts
 * its corner away from the window's frame. Any thread.
 *
 * Since: 1.4
 */
void segue_glib_layer_get_matrix_at(const SegueGLibLayer *layer, double x, double y, graphene_matrix_t *matrix);

/**
 * segue_glib_layer_get_has_mesh:
 * @layer: a layer
 *
 * Returns: whether it is drawn as a mesh (CurlUp's page), not through its map.
 */
gboolean segue_glib_layer_get_has_mesh(const SegueGLibLayer *layer);

/**
 * segue_glib_layer_get_mesh_size:
 * @layer: a layer
 * @columns: (out) (optional): the mesh's cells across (0 without a mesh)
 * @rows: (out) (optional): its cells down (0 without a mesh)
 *
 * The grid: (columns + 1) * (rows + 1) vertices, row-major from the top-left;
 * vertex (i, j) is where the content's point at (i / columns, j / rows) of
 * its width and height goes.
 */
void segue_glib_layer_get_mesh_size(const SegueGLibLayer *layer, guint *columns, guint *rows);

/**
 * segue_glib_layer_get_mesh_vertices:
 * @layer: a layer
 * @n_values: (out): the number of floats: 3 per vertex (0 without a mesh)
 *
 * The mesh's vertices, x, y, z each, in container coordinates (z towards
 * the viewer), row-major as segue_glib_layer_get_mesh_size() says. Segue's
 * renderer sees them in perspective from 1000 points over the centre of the
 * bounds (segue_glib_layer_get_mesh_projected() gives them so).
 *
 * Returns: (transfer none) (array length=n_values) (nullable): the values,
 *   owned by the layer; %NULL without a mesh.
 */
const float *segue_glib_layer_get_mesh_vertices(const SegueGLibLayer *layer, gsize *n_values);

/**
 * segue_glib_layer_get_mesh_projected:
 * @layer: a layer
 * @n_values: (out): the number of floats: 2 per vertex (0 without a mesh)
 *
 * The mesh as Segue's renderer sees it, flat (libsegue's
 * segue_layer_project): each vertex x, y in container coordinates after
 * the perspective of an eye 1000 points over the centre of the bounds,
 * row-major as segue_glib_layer_get_mesh_size() says; vertex (i, j) shows
 * the content's point (i / columns, j / rows). For a renderer that draws
 * textured triangles in 2D (Clutter's deform effect with z 0, cairo) rather
 * than in its own perspective, whose eye is elsewhere.
 *
 * Returns: (transfer full) (array length=n_values) (nullable): the values;
 *   %NULL without a mesh, or when a vertex is behind the eye. Free with
 *   g_free().
 */
float *segue_glib_layer_get_mesh_projected(const SegueGLibLayer *layer, gsize *n_values);

/**
 * segue_glib_layer_get_mesh_light:
 * @layer: a layer
 * @back: %TRUE for the light as seen from behind (the back's triangles)
 * @n_values: (out): the number of values: one per vertex (0 without a mesh)
 *
 * The light on each vertex of the mesh, as Segue's renderer lights a curled
 * page (libsegue's segue_mesh_light): 1 where it faces the light as a flat
 * page does, down to 0.3. Multiply the colour by it, interpolated across
 * each triangle.
 *
 * Returns: (transfer full) (array length=n_values) (nullable): the factors,
 *   row-major as the mesh; %NULL without a mesh. Free with g_free().
 */
float *segue_glib_layer_get_mesh_light(const SegueGLibLayer *layer, gboolean back, gsize *n_values);

/**
 * segue_glib_layer_get_mesh_texels:
 * @layer: a layer
 * @origin_x: subtracted from each projected x first
 * @origin_y: subtracted from each projected y first
 * @scale_x: then each x is multiplied by it
 * @scale_y: then each y is multiplied by it
 * @width: (out) (optional): the texture's width in texels: 2 per vertex across
 * @height: (out) (optional): its height: one row per row of vertices
 *
 * The mesh packed as a small RGBA texture (8 bits a channel) for a vertex
 * shader to place a grid by, for hosts whose language cannot hand the GPU
 * an array of floats (GJS with Cogl: GNOME Shell's extension). Vertex
 * (i, j) of segue_glib_layer_get_mesh_projected(), moved to
 * ((x - @origin_x) * @scale_x, (y - @origin_y) * @scale_y) (the host's own
 * coordinates), is texel (2i, j): x then y, each in 1/8 of a unit from
 * -4096 as 16 bits, high byte first (so -4096 to 4095.875 in steps of 0.125,
 * clamped, after the scale: choose one that keeps pixels whole units); texel (2i + 1, j) holds its light
 * (segue_glib_layer_get_mesh_light()) on the front in red and on the back
 * in green, 0 to 255 for 0 to 1. Blue and alpha are 0. Upload the bytes
 * unconverted (Cogl: as RGBA_8888_PRE) and sample with nearest filtering;
 * segue_glib_mesh_texels_glsl() reads them.
 *
 * Returns: (transfer full) (nullable): the bytes, 8 a vertex, row-major, no
 *   padding; %NULL without a mesh, or when a vertex is behind the eye.
 *
 * Since: 1.2
 */
GBytes *segue_glib_layer_get_mesh_texels(const SegueGLibLayer *layer, double origin_x, double origin_y, double scale_x,
                                         double scale_y, guint *width, guint *height);

/* ---- The transition: its functions ---------------------------------------------- */

/**
 * SegueGLibReport:
 *
 * How a transition ended, from segue_glib_transition_finish(): read-only
 * properties "animator" (the one that ran last, "default" after a
 * fallback), "completed" (as the program said), "fell-back" (whether the
 * built-in default ran instead of the chosen animator, from the start or
 * from a failure on) and "reason" (why, failures while it ran included).
 * Immutable; any thread may read it.
 */
#define SEGUE_GLIB_TYPE_REPORT (segue_glib_report_get_type())
G_DECLARE_FINAL_TYPE(SegueGLibReport, segue_glib_report, SEGUE_GLIB, REPORT, GObject)

/**
 * segue_glib_transition_get_animator:
 * @transition: a transition
 *
 * Returns: (transfer none): the "animator" property, owned by the transition.
 */
const char *segue_glib_transition_get_animator(SegueGLibTransition *transition);

/**
 * segue_glib_transition_get_duration:
 * @transition: a transition
 *
 * Returns: the "duration" property: seconds, in (0, 60].
 */
double segue_glib_transition_get_duration(SegueGLibTransition *transition);

/**
 * segue_glib_transition_get_reason:
 * @transition: a transition
 *
 * Returns: (transfer none): the "reason" property, owned by the transition.
 */
const char *segue_glib_transition_get_reason(SegueGLibTransition *transition);

/**
 * segue_glib_transition_get_plugin_path:
 * @transition: a transition
 *
 * Returns: (transfer none) (nullable) (type filename): the "plugin-path"
 *   property, owned by the transition; %NULL for the built-in default.
 */
const char *segue_glib_transition_get_plugin_path(SegueGLibTransition *transition);

/**
 * segue_glib_transition_get_fell_back:
 * @transition: a transition
 *
 * Returns: the "fell-back" property.
 */
gboolean segue_glib_transition_get_fell_back(SegueGLibTransition *transition);

/**
 * segue_glib_transition_sample:
 * @transition: a transition
 * @t: seconds since the transition began, on the program's clock (any
 *   order; outside [0, duration] the states at 0 or at the duration)
 * @plan_changed: (out) (optional): %TRUE at the first sample and whenever
 *   the plan changed since the last one (the built-in default took over:
 *   prepare the layers' content again and read the properties again); else
 *   %FALSE
 * @error: a place for the reason it failed, or %NULL
 *
 * Samples the transition through libsegue's sampler: never waits on plugin
 * code beyond the player's sample bound (a late plugin's newest states are
 * held), follows a takeover by the built-in default, and orders the layers
 * back to front. Read them with segue_glib_transition_get_layer(). On any
 * thread, one at a time for one transition.
 *
 * Returns: the number of layers to draw, or 0 with @error set
 *   (%SEGUE_GLIB_ERROR_ENDED once finished, %SEGUE_GLIB_ERROR_INVALID_ARGUMENT
 *   for a NaN @t).
 */
guint segue_glib_transition_sample(SegueGLibTransition *transition, double t, gboolean *plan_changed, GError **error);

/**
 * segue_glib_transition_get_late:
 * @transition: a transition
 *
 * Whether the last sample's states are held: the plugin did not answer
 * within the player's sample bound, so the layers are the newest it gave
 * (or the resting ones before its first answer), never torn (libsegue's
 * SEGUE_LATE). Sampling the same time again later gives its answer. On the
 * sampling thread.
 *
 * Returns: %TRUE when the last sample was late; %FALSE otherwise, and before
 *   the first.
 */
gboolean segue_glib_transition_get_late(SegueGLibTransition *transition);

/**
 * segue_glib_transition_prefetch:
 * @transition: a transition
 * @t: the time of the next frame, seconds since the transition began
 * @error: a place for the reason it failed, or %NULL
 *
 * Asks the plugin for the layers at @t now, on libsegue's evaluator thread,
 * and returns at once (libsegue's segue_transition_prefetch): a later
 * segue_glib_transition_sample() at the same @t takes that answer rather
 * than waiting on the worker. Call it once a frame is drawn, with the next
 * frame's time: a compositor's thread then spends a frame copying states.
 * Nothing happens for the built-in default or once the plugin has failed.
 * On any thread.
 *
 * Returns: %TRUE, or %FALSE with @error set (%SEGUE_GLIB_ERROR_ENDED once
 *   finished, %SEGUE_GLIB_ERROR_INVALID_ARGUMENT for a NaN @t).
 */
gboolean segue_glib_transition_prefetch(SegueGLibTransition *transition, double t, GError **error);

/**
 * segue_glib_transition_get_layer:
 * @transition: a transition
 * @index: 0 for the backmost, below the count the last sample returned
 *
 * Layer @index of the last sample, back to front (by z position, then plan
 * order). On the thread that sampled.
 *
 * Returns: (transfer full) (nullable): a snapshot of the layer; %NULL for an
 *   index out of range.
 */
SegueGLibLayer *segue_glib_transition_get_layer(SegueGLibTransition *transition, guint index);

/**
 * segue_glib_transition_finish:
 * @transition: a transition
 * @completed: %TRUE when it completed, %FALSE when it was cancelled
 * @error: a place for the reason it failed, or %NULL
 *
 * Ends the transition, once: the animator hears its end and its worker slot
 * is released. Never waits for a plugin in a worker: that happens on a
 * thread of libsegue's after this returns (an evaluate still running
 * first), within the plugin's deadlines, and a failure there comes later
 * through the "log" signal (the report, made at once, cannot say it). A
 * plugin in the program's process hears its end here and is waited for. Later samples fail with
 * %SEGUE_GLIB_ERROR_ENDED. On the player's thread, after sampling has
 * stopped.
 *
 * Returns: (transfer full): how it ended; %NULL with @error set
 *   (%SEGUE_GLIB_ERROR_ENDED when it was already finished).
 */
SegueGLibReport *segue_glib_transition_finish(SegueGLibTransition *transition, gboolean completed, GError **error);

/**
 * segue_glib_report_get_animator:
 * @report: a report
 *
 * Returns: (transfer none): the animator that ran last, owned by the report.
 */
const char *segue_glib_report_get_animator(SegueGLibReport *report);

/**
 * segue_glib_report_get_completed:
 * @report: a report
 *
 * Returns: whether the transition completed, as finish was told.
 */
gboolean segue_glib_report_get_completed(SegueGLibReport *report);

/**
 * segue_glib_report_get_fell_back:
 * @report: a report
 *
 * Returns: whether the built-in default ran instead of the chosen animator.
 */
gboolean segue_glib_report_get_fell_back(SegueGLibReport *report);

/**
 * segue_glib_report_get_reason:
 * @report: a report
 *
 * Returns: (transfer none): why that animator ran, owned by the report.
 */
const char *segue_glib_report_get_reason(SegueGLibReport *report);

/* ---- A page's shading ------------------------------------------------------------ */

/**
 * segue_glib_page_back:
 * @red: the page's colour, straight (not premultiplied), in [0, 1]
 * @green: its green
 * @blue: its blue
 * @alpha: its alpha (unchanged on the back)
 * @out_red: (out): the back's red
 * @out_green: (out): the back's green
 * @out_blue: (out): the back's blue
 *
 * A page's back seen through it (a mesh's triangles that face away), as
 * Segue's renderer shades it (libsegue's segue_page_back): 35% of the colour
 * and 65% of a grey by its brightness. Alpha is unchanged. Any thread.
 */
void segue_glib_page_back(double red, double green, double blue, double alpha, double *out_red, double *out_green, double *out_blue);

/**
 * segue_glib_page_shading_glsl:
 *
 * The same shading in GLSL (libsegue's segue_page_shading_glsl), to put
 * before a fragment shader's main: `vec4 segue_page_back(vec4 c)`, the back
 * of a premultiplied colour, and `vec4 segue_page_lit(vec4 c, float shade)`,
 * a colour in the light segue_glib_layer_get_mesh_light() gave its vertices.
 * No version line (ES 2.0 and desktop 1.10 and later alike). Any thread.
 *
 * Returns: (transfer none): the source, valid for the life of the process.
 */
const char *segue_glib_page_shading_glsl(void);

/**
 * segue_glib_mesh_texels_glsl:
 *
 * GLSL for a vertex shader to read a texture of
 * segue_glib_layer_get_mesh_texels(), to put before its main:
 * `vec2 segue_mesh_point(sampler2D mesh, vec2 vertices, vec2 at)`, the
 * point of vertex `at` (i, j) of a mesh of `vertices` (columns + 1,
 * rows + 1), in the coordinates the texels were packed in (the origin
 * subtracted and the scale applied: still to go through the shader's own
 * matrices), and `vec2 segue_mesh_light(sampler2D mesh, vec2 vertices,
 * vec2 at)`, its light on the front (x) and on the back (y); both read
 * through `vec4 segue_mesh_texel(sampler2D mesh, vec2 vertices, float x,
 * float y)`, texel (x, y). A grid that does not sit on the mesh's vertices
 * interpolates between the four around each of its points (GNOME Shell's
 * extension does). Uses texture2DLod (desktop GLSL 1.10 to 1.40
 * compatibility, ES 2.0 vertex shaders); no version line. Any thread.
 *
 * Returns: (transfer none): the source, valid for the life of the process.
 *
 * Since: 1.2
 */
const char *segue_glib_mesh_texels_glsl(void);

G_END_DECLS
