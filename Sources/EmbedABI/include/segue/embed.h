#pragma once
/*
 * libsegue: play Segue animators on your own views, from any language.
 *
 * A transition player, not a container. Your program keeps its views, its
 * textures and its renderer. libsegue finds the animators (plugins in their
 * folders, and the built-in default), chooses one by name or by a config
 * file's rules, runs it sandboxed in a worker process, and hands back plain
 * layer states (frame, 3D transform, alpha, z, hidden, mesh) for any time of
 * your clock, written into memory you own.
 *
 * In short (a test compiles and runs this sketch as it stands, with draw()
 * and fail() of its own):
 *
 *   segue_player_t *player;
 *   segue_player_options_t options = { sizeof options };
 *   if (segue_player_new(&options, &player) != SEGUE_OK) return fail(segue_error_message());
 *   segue_transition_desc_t desc = { sizeof desc };
 *   desc.bounds = (segue_rect_t){ 0, 0, 390, 844 };
 *   desc.from = (segue_view_t){ "home", desc.bounds, NULL, 0 };
 *   desc.to = (segue_view_t){ "settings", desc.bounds, NULL, 0 };
 *   desc.animator = "CurlUp";                            // or NULL: the config's rules
 *   segue_transition_t *tr;
 *   if (segue_transition_begin(player, &desc, &tr) != SEGUE_OK) return fail(segue_error_message());
 *   segue_plan_info_t plan = { sizeof plan };
 *   segue_transition_plan(tr, &plan);                    // duration, layers, meshes
 *   segue_layer_state_t state[SEGUE_MAX_LAYERS], *states[SEGUE_MAX_LAYERS];
 *   static segue_vec3_t mesh[SEGUE_MAX_LAYERS][(SEGUE_MAX_MESH_DIVISIONS + 1) * (SEGUE_MAX_MESH_DIVISIONS + 1)];
 *   for (uint32_t i = 0; i < SEGUE_MAX_LAYERS; i++) {
 *       state[i] = (segue_layer_state_t){ sizeof state[i] };
 *       state[i].mesh = mesh[i];
 *       state[i].mesh_vertex_count = (SEGUE_MAX_MESH_DIVISIONS + 1) * (SEGUE_MAX_MESH_DIVISIONS + 1);
 *       states[i] = &state[i];
 *   }
 *   for (double t = 0; t <= plan.duration; t += 1.0 / 60) {   // your clock
 *       segue_status_t sampled = segue_transition_sample(tr, t, states, plan.layer_count);
 *       if (sampled == SEGUE_DEFAULT_TOOK_OVER) segue_transition_plan(tr, &plan);
 *       draw(&plan, states);
 *   }
 *   segue_transition_finish(tr, true, NULL);             // exactly once
 *   segue_transition_free(tr);
 *   segue_player_free(player);
 *
 * Link with `pkg-config --cflags --libs segue`. At run time libsegue needs the
 * `segue-worker` executable (plugin code runs there) and the Swift runtime it
 * was built with; `Scripts/install.sh` installs both beside it
 * (PREFIX/libexec/segue/segue-worker, PREFIX/lib/segue/runtime). Its RUNPATH,
 * as SwiftPM links it, names the building toolchain's folder first
 * (/opt/swift/usr/lib/swift/linux here) and the bundled runtime second: on a
 * machine with another Swift toolchain at that very path, start the program
 * with LD_LIBRARY_PATH=PREFIX/lib/segue/runtime.
 *
 * Versions
 * --------
 * This API has a version of its own, MAJOR.MINOR, apart from the animator
 * ABI's: SEGUE_API_VERSION here, segue_api_version() at run time. The shared
 * library's SONAME carries the major (libsegue.so.1). Within a major, functions
 * are only added, structs only grow at their end, and every struct you pass
 * starts with `struct_size`: set it to sizeof the struct as your header
 * declares it. libsegue reads only what your struct_size covers and treats the
 * rest as zero; it writes only what your struct_size covers. A struct_size of
 * 0, or smaller than the struct was in version 1.0, is refused with
 * SEGUE_E_INVALID_ARGUMENT. Enumerations may gain values in a minor version.
 *
 * Threads
 * -------
 * [main]  The thread that called segue_player_new for this player. Called from
 *         any other thread, the function does nothing and answers
 *         SEGUE_E_WRONG_THREAD.
 * [any]   Any thread, also several at once (a render thread may sample while
 *         the main thread begins another transition).
 * No callback ever runs on a thread of libsegue's: everything libsegue has to
 * tell (reloads, worker deaths, fallbacks, log lines) waits in a queue; the
 * player's file descriptor (segue_player_fd) becomes readable, and
 * segue_player_dispatch, called by you on the main thread, delivers it to your
 * event callback.
 *
 * The render thread's bound
 * -------------------------
 * segue_transition_sample never waits on plugin code for longer than the
 * player's sample bound (segue_player_options_t.sample_bound_us, 4 ms unless
 * set; at most 100 ms), give or take the time the system takes to run the
 * calling thread again (measured: at most 4.07 ms for a 4 ms bound, with a
 * hung plugin spinning on one of two cores). A bound under a millisecond
 * holds as set: the wait is kept to the microsecond.
 * - Sample asks the plugin's worker on the calling thread (one round trip
 *   through shared memory, tens of microseconds) and waits for its answer at
 *   most the bound: spinning first, up to 200 microseconds, then asleep
 *   (asleep from the start with SEGUE_PLAYER_NO_SPIN). An answer later than
 *   that is left to an evaluator thread of libsegue's (one per transition),
 *   which waits under the plugin's own deadline; sample copies the newest states the plugin did give (or the
 *   layers' resting states before its first) and returns SEGUE_LATE: the
 *   frame is held, never torn. Until the plugin answers again, later samples
 *   return held states at once instead of waiting again.
 * - When the worker's deadline runs out (0.5 s for one evaluate), or it
 *   crashes or is refused by its sandbox, the worker is ended and the plugin
 *   quarantined (its animators run the default until it changes on disk);
 *   when it answers a non-finite value, it loses that transition but is not
 *   quarantined (its worker is sound, and the value may come from one
 *   parameter set or one t: `segue validate` finds it). Either way the
 *   built-in default takes over from the same point of the transition (the
 *   same fraction of its duration), exactly as `segue run` does, and an event
 *   says why. The first sample after the takeover returns
 *   SEGUE_DEFAULT_TOOK_OVER with the default's layers (re-read the plan);
 *   later ones answer as for any animator (SEGUE_OK, SEGUE_CLAMPED).
 * - Two threads sampling one transition at once: while one asks the worker,
 *   the other waits for that answer, or has the evaluator thread ask for its
 *   own t as soon as the first is answered, each within the bound.
 * - The built-in default runs in your process, on the calling thread, and
 *   never waits.
 * - With SEGUE_ISOLATION_NONE, plugin code runs on the evaluator thread and
 *   sample still waits at most the bound; but a plugin that hangs cannot be
 *   stopped there, and finishing its transition waits for it.
 *
 * Errors
 * ------
 * Every function that can fail returns a segue_status_t: 0 is success,
 * positive values are successes with something to know, negative values are
 * errors (nothing was done). After any status other than SEGUE_OK,
 * segue_error_message() on the same thread says what happened in words, naming
 * the argument, key or file, what was expected and what was found.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segue/animator.h"
#include "segue/context.h"
#include "segue/geometry.h"
#include "segue/host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Versions ------------------------------------------------------------ */

/** Packs a version: the major in the high 16 bits. */
#define SEGUE_MAKE_VERSION(major, minor) ((((uint32_t)(major)) << 16) | (uint32_t)(minor))
/** The API major version: bumped on any incompatible change (and in the SONAME). */
#define SEGUE_API_VERSION_MAJOR 1
/**
 * The API minor version: bumped when functions are added or structs grow
 * (1.1 added segue_spring_init_physical; 1.2 added segue_transition_desc_t.kind
 * and segue_animator_info_t.kinds, with the animator ABI 1.3; 1.3 added
 * SEGUE_PLAYER_NO_SPIN and segue_transition_prefetch; 1.4 added
 * SEGUE_PLAYER_STANDARD_CONFIG and the helpers for hosts: the sampler, a
 * page's shading and the edge pan's rule; 1.5, with the animator ABI 1.4,
 * added segue_transition_desc_t.anchor, window_type and modal, and the
 * layer state's clip, corner radius and shadow, which
 * segue_transition_sample and segue_drawn_layer_t.state carry).
 */
#define SEGUE_API_VERSION_MINOR 5
/** The version this header describes. */
#define SEGUE_API_VERSION SEGUE_MAKE_VERSION(SEGUE_API_VERSION_MAJOR, SEGUE_API_VERSION_MINOR)
/** True when this header is at least MAJOR.MINOR (and of the same major), for #if. */
#define SEGUE_CHECK_VERSION(major, minor) \
    (SEGUE_API_VERSION_MAJOR == (major) && SEGUE_API_VERSION_MINOR >= (minor))

/**
 * The version of the libsegue the program runs with, packed as
 * SEGUE_MAKE_VERSION. Its major equals SEGUE_API_VERSION_MAJOR whenever the
 * dynamic loader found the library by its SONAME; its minor may be higher than
 * the header's. [any]
 */
uint32_t segue_api_version(void);

/* ---- Status -------------------------------------------------------------- */

/** What a call answers. Unknown negative values are errors, unknown positive ones successes. */
typedef enum segue_status {
    SEGUE_OK = 0,
    /** sample: the plugin did not answer within the bound; the states are the newest it gave (held). */
    SEGUE_LATE = 1,
    /** sample: the plugin failed mid-transition and the built-in default runs from then on; re-read the plan. */
    SEGUE_DEFAULT_TOOK_OVER = 2,
    /** sample: t was negative or past the duration; the states are those at 0 or at the duration. */
    SEGUE_CLAMPED = 3,
    /** An argument is NULL, a struct_size is 0 or too small, a number is NaN, ... */
    SEGUE_E_INVALID_ARGUMENT = -1,
    /** No animator of that name or index. */
    SEGUE_E_NOT_FOUND = -2,
    /** The config file could not be read or is invalid. */
    SEGUE_E_CONFIG = -3,
    /** A [main] function called from another thread. */
    SEGUE_E_WRONG_THREAD = -4,
    /** The transition has already been finished. */
    SEGUE_E_ENDED = -5,
    /** Fewer layer states, or smaller meshes, than the plan needs. */
    SEGUE_E_BUFFER_TOO_SMALL = -6,
    /** The system refused something libsegue needed (a thread, a descriptor). */
    SEGUE_E_SYSTEM = -7,
} segue_status_t;

/**
 * What the calling thread's last call that did not answer SEGUE_OK went
 * through, in words; "" when there was none. Owned by libsegue, valid on this
 * thread until its next libsegue call. [any]
 */
const char *segue_error_message(void);

/* ---- The player ---------------------------------------------------------- */

/** An opaque player: the animators, the config, the workers. */
typedef struct segue_player segue_player_t;
/** An opaque transition being played. */
typedef struct segue_transition segue_transition_t;

/** Where plugin code runs. */
typedef enum segue_isolation {
    /** The default: sandboxed worker processes. A plugin that crashes or hangs costs only its own transition. */
    SEGUE_ISOLATION_PROCESS = 0,
    /** In your process, without protection or sandbox: for trusted plugins only. The bound still holds for sample. */
    SEGUE_ISOLATION_NONE = 1,
    /** Whatever the config says, else SEGUE_ISOLATION_PROCESS. */
    SEGUE_ISOLATION_FROM_CONFIG = 2,
} segue_isolation_t;

/** How workers are confined. */
typedef enum segue_sandbox {
    /** SEGUE_SANDBOX when set, else the config's "sandbox", else strict. */
    SEGUE_SANDBOX_FROM_CONFIG = 0,
    /** Landlock, seccomp, no capabilities, resource limits (see the README's sandbox section). */
    SEGUE_SANDBOX_STRICT = 1,
    /** Workers still isolate plugins, unconfined. */
    SEGUE_SANDBOX_OFF = 2,
} segue_sandbox_t;

/** What an event is about. Unknown values: treat as SEGUE_EVENT_LOG. */
typedef enum segue_event_kind {
    /** A line for the log: the player's own, or what a plugin logged or printed (escaped). */
    SEGUE_EVENT_LOG = 0,
    /** Plugins or the config changed and were reloaded; `message` says what changed. */
    SEGUE_EVENT_RELOADED = 1,
    /** The config changed but is invalid; the last good one is kept. `message` says why. */
    SEGUE_EVENT_CONFIG_ERROR = 2,
    /** A transition's plugin failed mid-transition (crash, hang, escape attempt, NaN); the default took over. */
    SEGUE_EVENT_FELL_BACK = 3,
} segue_event_kind_t;

/** One event, delivered by segue_player_dispatch. Owned by libsegue, valid during the callback. */
typedef struct segue_event {
    /** sizeof(segue_event_t) as libsegue was built; members past your header's size are absent. */
    uint32_t struct_size;
    /** A segue_event_kind_t value. */
    uint32_t kind;
    /** How serious: a segue_log_level_t value. */
    uint32_t level;
    /** The text, NUL-terminated, with any bytes a plugin supplied escaped. */
    const char *message;
    /**
     * For SEGUE_EVENT_FELL_BACK: the transition (still yours until you free
     * it); NULL when you freed it before this event was dispatched (its
     * address may by then be another transition's), and for other kinds.
     */
    segue_transition_t *transition;
} segue_event_t;

/**
 * Receives events inside segue_player_dispatch, on the main thread. May call
 * any libsegue function but segue_player_dispatch and segue_player_free.
 */
typedef void (*segue_event_fn)(void *user_data, const segue_event_t *event);

/** How to make a player. Zero-filled (with struct_size set), it makes the standard one. */
typedef struct segue_player_options {
    /** sizeof(segue_player_options_t). */
    uint32_t struct_size;
    /**
     * Plugin folders searched first, in order (like `segue --plugins`); NULL
     * when plugin_dir_count is 0. The standard search path follows unless
     * SEGUE_PLAYER_ONLY_GIVEN_FOLDERS: SEGUE_PLUGIN_PATH, the config's
     * "plugins", $XDG_DATA_HOME/segue/plugins, PREFIX/lib/segue/plugins.
     * Borrowed for the call.
     */
    const char *const *plugin_dirs;
    uint32_t plugin_dir_count;
    /** A config file (rules, parameters, curves, sandbox, limits), or NULL for none. Borrowed for the call. */
    const char *config_path;
    /** A segue_isolation_t value. */
    uint32_t isolation;
    /** A segue_sandbox_t value. */
    uint32_t sandbox;
    /** The segue-worker executable, or NULL: $SEGUE_WORKER, then beside libsegue, then ../libexec/segue. Borrowed. */
    const char *worker_path;
    /** SEGUE_PLAYER_* flags. */
    uint32_t flags;
    /** How long sample may wait for a plugin, in microseconds: 0 for 4000; at most 100000. */
    uint32_t sample_bound_us;
    /** Receives events during segue_player_dispatch; NULL to drop them. */
    segue_event_fn on_event;
    /** Passed to on_event as it is. */
    void *user_data;
    /**
     * The address space all of this player's workers may use together, in
     * bytes: each worker's limit is what is left of it (at most the config's
     * "limits": {"memory"}); idle workers are ended to make room, oldest idle
     * first, and a transition that finds no room plays the built-in default,
     * saying so. 0 for the config's "limits": {"totalMemory"}, else 4 GiB;
     * otherwise at least 268435456 (256 MiB). Strict sandbox only. Since 1.4.
     */
    uint64_t workers_memory;
} segue_player_options_t;

/** Search only plugin_dirs (and the config's "plugins"), not the standard folders. */
#define SEGUE_PLAYER_ONLY_GIVEN_FOLDERS 0x1u
/** Watch the config and the plugin folders; reloads arrive through the descriptor. */
#define SEGUE_PLAYER_WATCH 0x2u
/** Accept plugin files and folders others can write (refused by default, as `segue list` does). */
#define SEGUE_PLAYER_ALLOW_INSECURE_PLUGINS 0x4u
/**
 * Since 1.3: sample waits for a plugin's worker asleep from the start. By
 * default it first spins up to 200 microseconds on the calling thread, as an
 * answer usually comes sooner than a sleep and a wake-up; with this flag each
 * sample of a plugin costs a wake-up's latency instead of that CPU time. For
 * compositors and programs on batteries, whose thread has other work or none.
 */
#define SEGUE_PLAYER_NO_SPIN 0x8u
/**
 * Since 1.4: with config_path NULL, follow the standard config, as a
 * desktop's hosts do: $XDG_CONFIG_HOME/segue/segue.json, else
 * ~/.config/segue/segue.json. Whatever state it is in, the player starts:
 * absent, no rules apply (the built-in default plays every transition not given an animator) and
 * one SEGUE_EVENT_LOG says so; broken, likewise, with one
 * SEGUE_EVENT_CONFIG_ERROR naming the file, line:column and key. With
 * SEGUE_PLAYER_WATCH it is followed as it appears, changes, breaks (the last
 * good config is kept) and vanishes (no rules again), each said once by an
 * event. Ignored when config_path is set: a config the program names is the
 * program's, and one that cannot be read fails segue_player_new.
 */
#define SEGUE_PLAYER_STANDARD_CONFIG 0x10u

/**
 * Makes a player: reads the config (if any), finds the plugins (a scanner
 * process examines new files; what it learned is cached), starts watching when
 * asked. The calling thread becomes the player's main thread.
 * On success *out is a player you free with segue_player_free.
 * Fails with SEGUE_E_CONFIG for an unreadable or invalid config (the message
 * names the file, line:column, key and what was expected), and with
 * SEGUE_E_INVALID_ARGUMENT for bad options; *out is then NULL. [any; becomes main]
 */
segue_status_t segue_player_new(const segue_player_options_t *options, segue_player_t **out);

/**
 * Frees the player: transitions not finished are finished as not completed
 * (their animators hear end) and freed; plugin calls still running on
 * libsegue's threads (a late setup, a late evaluate, an end) are waited for
 * on this thread, at most 3 s for each; then workers are ended and waited
 * for; the descriptor is closed. Events not dispatched are dropped. NULL is ignored, and so is a
 * call from within on_event (segue_error_message says so). [main]
 */
void segue_player_free(segue_player_t *player);

/**
 * A descriptor that is readable while events wait: add it to your event loop
 * (poll, epoll, g_unix_fd_add, QSocketNotifier, wl_event_loop_add_fd) for
 * reading, and call segue_player_dispatch when it is. Owned by the player;
 * do not read or close it. -1 for a NULL player. [any]
 */
int segue_player_fd(segue_player_t *player);

/**
 * Delivers every waiting event to on_event, in order, and applies reloads the
 * watch prepared (new animators, the new config; a broken config keeps the
 * last good one). Transitions already begun keep their animator. Never blocks.
 * [main]
 */
segue_status_t segue_player_dispatch(segue_player_t *player);

/**
 * How many animators there are: every plugin's, then the built-in default
 * (always last). 0 for NULL, and 0 from a thread other than the main one;
 * segue_error_message then says which. [main]
 */
uint32_t segue_player_animator_count(segue_player_t *player);

/** What `segue list --json` says of one animator. */
typedef struct segue_animator_info {
    /** sizeof(segue_animator_info_t). */
    uint32_t struct_size;
    /** The short name used in configs ("CurlUp"; "default" for the built-in). */
    const char *name;
    /** The stable id ("org.segue.curl-up/1"). */
    const char *id;
    /** The animator's version. */
    const char *version;
    /** One or two sentences for people. */
    const char *description;
    /** The plugin file, or NULL for the built-in default. */
    const char *file;
    /** How many parameters; read each with segue_player_animator_param. */
    uint32_t param_count;
    /**
     * Since 1.2: the kinds of transition it was written for, as
     * SEGUE_KIND_BIT(SEGUE_TRANSITION_...) bits (segue/context.h); never 0:
     * an animator that declares none was written for switches. Every
     * animator plays a window's appearance and disappearance; a switch only
     * one that declares switches (else the built-in default plays it; see
     * segue_transition_desc_t.kind and docs/abi.md's table).
     */
    uint32_t kinds;
} segue_animator_info_t;

/**
 * Fills *info with animator `index` (below segue_player_animator_count). The
 * strings are owned by the player and valid until the next
 * segue_player_dispatch or segue_player_free. Plugin-supplied text is passed
 * as the plugin wrote it (validated at load: bounded, NUL-terminated UTF-8);
 * escape it before printing it to a terminal. [main]
 */
segue_status_t segue_player_animator_info(segue_player_t *player, uint32_t index, segue_animator_info_t *info);

/** Like segue_player_animator_info, by short name. SEGUE_E_NOT_FOUND says "did you mean" when it can. [main] */
segue_status_t segue_player_find_animator(segue_player_t *player, const char *name, segue_animator_info_t *info);

/**
 * Fills *param with parameter `param_index` of animator `index`, in the
 * animator ABI's own form (segue_param_t: name, explanation, type, default,
 * range, choices). Set param->struct_size first. Pointers are owned by the
 * player, valid like segue_player_animator_info's strings. [main]
 */
segue_status_t segue_player_animator_param(segue_player_t *player, uint32_t index, uint32_t param_index,
                                           segue_param_t *param);

/* ---- Transitions --------------------------------------------------------- */

/** A transition to play: your two views and how to choose the animator. */
typedef struct segue_transition_desc {
    /** sizeof(segue_transition_desc_t). */
    uint32_t struct_size;
    /** The container's bounds: origin (0, 0), width and height above 0. */
    segue_rect_t bounds;
    /**
     * The view going away and the view coming in, in the animator ABI's own
     * form: a name (matched against the config's rules), the frame in
     * container coordinates, and named elements (element frames in container
     * coordinates). A view's frame is its own: a window at (100, 80, 700,
     * 475) on a 1280 x 720 output is animated from and to that frame (the
     * context's from_initial_frame and to_final_frame), not the bounds. A
     * frame without a width and a height takes the container rule: the
     * bounds. In an appearance `to` is the arriving view and `from` what it
     * arrives over; in a disappearance `from` is the leaving view and `to`
     * what it reveals (see `kind`). That view beneath may be left out (a
     * NULL name): a transparent stand-in of the bounds takes its place.
     * Borrowed for the call; libsegue copies what it keeps.
     */
    segue_view_t from;
    segue_view_t to;
    /** True when `to` comes after `from` (a push, a swipe to the left). */
    bool going_right;
    /** True when a gesture drives the transition (t may go back and forth). */
    bool interactive;
    /**
     * The animator's short name, or NULL to follow the config's rules for
     * from.name -> to.name (then its defaultAnimator, then the built-in
     * default). A name no plugin provides runs the built-in default, with the
     * reason in the plan. Borrowed.
     */
    const char *animator;
    /**
     * Parameters as a JSON object, as a config rule writes them
     * ({"duration": 0.6, "curve": "easeOut"}), or NULL for the rule's (by
     * name: the animator's defaults). Values out of range run the built-in
     * default, with the reason; text that is not a JSON object is
     * SEGUE_E_INVALID_ARGUMENT. Borrowed.
     */
    const char *parameters_json;
    /**
     * Since 1.2: a segue_transition_kind_t (segue/context.h); 0, a switch, for
     * a struct_size that ends before it. Rules match an appearance by
     * `to.name` and a disappearance by `from.name` ("appear" and "disappear"
     * in the config). An animator plays a kind it was not written for as
     * docs/abi.md says: a disappearance as a switch to a transparent
     * stand-in, whose layer libsegue answers hidden in every state; an
     * appearance as that (or a disappearance it was written for) run
     * backwards. The plan's layers always name the sides of this description.
     * Another value is SEGUE_E_INVALID_ARGUMENT.
     */
    uint32_t kind;
    /**
     * Since 1.5: where the transition comes from or goes to, as far as you
     * know it, in container coordinates (segue/context.h's segue_anchor_t:
     * the launcher or element clicked, a minimize's task-bar entry, the
     * pointer), each part flagged; handed to the animator as
     * segue_context_t.anchor. Zero (a struct_size that ends before it): none
     * known. A known part with a non-finite number, or a rectangle of
     * negative size, is SEGUE_E_INVALID_ARGUMENT.
     */
    segue_anchor_t anchor;
    /**
     * Since 1.5: the segue_window_type_t of the window that appears or
     * disappears (segue_context_t.window_type); 0, normal, when not covered.
     * A value libsegue does not know is taken as normal.
     */
    uint32_t window_type;
    /** Since 1.5: whether that window is modal (segue_context_t.modal). */
    bool modal;
} segue_transition_desc_t;

/**
 * Begins a transition: chooses the animator, runs its setup and checks the
 * plan; a plugin in a worker then evaluates its first two frames on a 60 Hz
 * clock (t = 0 and 1/60 s, in one round trip on a thread of libsegue's), so
 * that the first samples find them (see segue_transition_prefetch).
 *
 * Begin waits for a plugin in a worker, its setup and then its first two
 * frames, 100 ms at most in all (a setup's median is 0.2 ms). A setup
 * later than that: the built-in default plays this transition ("did not
 * set up within 100 ms"), and the setup goes on, on a thread of libsegue's,
 * within its deadline of 1 s: a late answer is ended unused; a plugin that
 * hangs past the deadline is killed and quarantined, and a SEGUE_EVENT_LOG
 * warning says so. First frames later than that: a SEGUE_EVENT_LOG warning
 * says so ("did not give its first frames within 100 ms"), and samples hold
 * the transition's start (SEGUE_LATE) until they come; a plugin that hangs
 * past its evaluate deadline of 0.5 s is killed, and the default takes over
 * (SEGUE_EVENT_FELL_BACK).
 *
 * Not counted, and waited for on your thread: starting the plugin's worker
 * and loading the plugin when it has none (its first use, or after its
 * worker was ended to make room or the plugin was reloaded), about 10 ms
 * with the plugin's constructors, at most the load deadline of 5 s. A
 * plugin in your process (SEGUE_ISOLATION_NONE) is waited for as it runs,
 * at begin and at finish. Should libsegue be unable to start a thread, it
 * waits on yours, within the plugin's deadlines.
 *
 * When nothing chose a plugin, or its plugin declines, is quarantined,
 * crashes, hangs or plans something unusable, the built-in default runs and
 * the plan says why; that is a success. On success *out is yours: finish it
 * once, then free it. [main]
 */
segue_status_t segue_transition_begin(segue_player_t *player, const segue_transition_desc_t *desc,
                                      segue_transition_t **out);

/** What a transition's plan says. */
typedef struct segue_plan_info {
    /** sizeof(segue_plan_info_t). */
    uint32_t struct_size;
    /** Seconds, in (0, 60]. */
    double duration;
    /** How many of `layers` are used (1 to SEGUE_MAX_LAYERS): pass at least this many states to sample. */
    uint32_t layer_count;
    /** Bottom first: what each layer shows (a root view, or a snapshot of an element) and its mesh size. */
    segue_layer_request_t layers[SEGUE_MAX_LAYERS];
    /** How many of `hidden` are used. */
    uint32_t hidden_count;
    /** Elements to hide while the transition runs (show them again when it ends). */
    segue_element_ref_t hidden[SEGUE_MAX_HIDDEN_ELEMENTS];
    /** The animator that runs: its short name, "default" for the built-in. */
    const char *animator;
    /** Its plugin file, or NULL for the built-in default. */
    const char *file;
    /** True when the built-in default runs instead of the animator that was chosen. */
    bool fell_back;
    /** Why this animator runs, as `segue run` reports it ("rules[0] (to \"b\")", "...; the built-in default ran instead"). */
    const char *reason;
} segue_plan_info_t;

/**
 * Fills *plan. After SEGUE_DEFAULT_TOOK_OVER it describes the default's plan
 * (two layers: the from view, then the to view; no mesh; nothing hidden). The
 * strings are owned by the transition and valid until segue_transition_free.
 * [any]
 */
segue_status_t segue_transition_plan(segue_transition_t *transition, segue_plan_info_t *plan);

/** Mesh vertices a layer needs: (mesh_columns + 1) * (mesh_rows + 1), or 0 without a mesh. [any] */
uint32_t segue_layer_mesh_vertex_count(const segue_layer_request_t *layer);

/**
 * Writes the state of every layer at time `t` (seconds since the transition
 * began, on your clock; any order, scrubbing included) into states[0 ..
 * layer_count-1], which you own. Set each state's struct_size, and for a layer
 * with a mesh its `mesh` to an array of at least
 * segue_layer_mesh_vertex_count vertices and `mesh_vertex_count` to that
 * array's length; libsegue writes frame, transform, alpha (clamped to [0, 1]),
 * z_position, hidden and the mesh vertices, and (since 1.5, when your
 * struct_size covers them) clip, corner_radius and shadow as the host draws
 * them: clamped as segue/animator.h says, a shape it does not know as none;
 * nothing else. Allocates
 * nothing, from the first sample on, whatever it answers. Returns within the
 * player's sample bound (see the file comment): SEGUE_OK, SEGUE_LATE (held
 * states), SEGUE_DEFAULT_TOOK_OVER (once: states of the default's plan),
 * SEGUE_CLAMPED (t outside [0, duration]); or an error:
 * SEGUE_E_INVALID_ARGUMENT for a NaN t, NULL states, a NULL state or one
 * whose struct_size is less than the animator ABI 1.3's segue_layer_state_t
 * (208 bytes, through mesh_vertex_count);
 * SEGUE_E_BUFFER_TOO_SMALL for fewer states or smaller meshes than the plan
 * needs; SEGUE_E_ENDED for a finished transition.
 * [any; several threads at once are fine]
 */
segue_status_t segue_transition_sample(segue_transition_t *transition, double t,
                                       segue_layer_state_t *const *states, uint32_t state_count);

/**
 * Since 1.3: asks the plugin for the states at `t` (clamped to [0, duration],
 * as sample clamps it) on libsegue's evaluator thread and returns at once. A
 * later segue_transition_sample at the same t takes that answer, or waits for
 * it within the sample bound, without a round trip to the worker on its own
 * thread. Call it once a frame is drawn, with the next frame's time: a
 * compositor's thread then spends a frame's time copying states rather than
 * waiting on a worker. Nothing happens for an animator that runs in your
 * process (the built-in default), for states already in hand, or once the
 * plugin has failed. Returns SEGUE_OK, SEGUE_E_INVALID_ARGUMENT (a NULL
 * transition, a NaN t) or SEGUE_E_ENDED. Allocates nothing. [any]
 *
 * Since 1.4, frames ahead: on a regular clock (a prefetch of t + d after a
 * sample at t, d at most 0.1 s), a plugin in a worker is asked for up to 16
 * frames, t + d, t + 2d, ..., in one round trip (fewer at first: a batch is
 * at most as long as all the frames answered before it, and a worker stops
 * after 2 ms), and for the next ones when fewer than half are left ahead. A
 * sample or a prefetch within 2 ms (of the transition's time) of a time so
 * evaluated takes the plugin's answer at that time, never one made up
 * between two: with a steady clock, most frames then cost no round trip and
 * wake no thread. This is sound because an animator's evaluate depends only
 * on t and its setup. A frame evaluated ahead that is not finite fails the
 * transition when a sample reaches it; a worker that crashes, hangs or is
 * refused while evaluating ahead fails it when that is known, at most one
 * batch before the sample would have reached the t it failed at.
 */
segue_status_t segue_transition_prefetch(segue_transition_t *transition, double t);

/** How a transition ended. */
typedef struct segue_transition_report {
    /** sizeof(segue_transition_report_t). */
    uint32_t struct_size;
    /** The animator that ran last ("default" after a fallback). */
    const char *animator;
    /** Whether the built-in default ran instead of the chosen animator, from the start or from a failure on. */
    bool fell_back;
    /** Why, as `segue run` reports it (failures while the transition ran included). */
    const char *reason;
    /** Whether the transition completed (true) or was cancelled (false), as you said. */
    bool completed;
} segue_transition_report_t;

/**
 * Ends the transition, once: the animator hears end(completed) (false for a
 * cancelled one) and its worker slot is released, and, when report is not
 * NULL, *report says how it went (strings valid until
 * segue_transition_free). A second call answers SEGUE_E_ENDED and changes
 * nothing; so does sample afterwards.
 *
 * It never waits on a plugin in a worker: the answer of an evaluate still
 * running, then the plugin's end, are waited for on a thread of libsegue's
 * after this returns, within the plugin's deadlines (0.5 s for the
 * evaluate, 1 s for end). A plugin that fails there is quarantined as for
 * any failure, and a SEGUE_EVENT_LOG warning says how (the report, written
 * before, cannot). A plugin in your process (SEGUE_ISOLATION_NONE) hears end
 * on this thread and is waited for. [main]
 */
segue_status_t segue_transition_finish(segue_transition_t *transition, bool completed,
                                       segue_transition_report_t *report);

/**
 * Frees a transition: finishes it as not completed first if it was not
 * finished. Call it once, after every thread has stopped sampling it.
 * NULL is ignored. [main]
 */
void segue_transition_free(segue_transition_t *transition);

/* ---- Helpers for hosts: sampling layers to draw (since 1.4) --------------- */

/**
 * One layer of a transition at one moment, as a host draws it: what it
 * shows, where that content rests, and its state, with the map a flat layer
 * is drawn through worked out. Filled by segue_sampler_layer up to the
 * program's struct_size (the rest is left as it is).
 */
typedef struct segue_drawn_layer {
    /** sizeof(segue_drawn_layer_t); set by the program. */
    uint32_t struct_size;
    /** Its index in the plan (segue_plan_info_t.layers), which may differ from its place back to front. */
    uint32_t plan_index;
    /** What it shows, on the description's sides (as segue_plan_info_t.layers says). */
    segue_layer_request_t request;
    /**
     * Where its content rests, in container coordinates: the view's frame
     * (a window's own, else the bounds) or the element's frame. Draw the
     * content as it looks there, then move it by `map` (or the mesh).
     */
    segue_rect_t resting_frame;
    /**
     * Its state at the sampled time. `state.mesh`, for a layer with a mesh,
     * points into the sampler's storage: valid until the sampler's next
     * sample or its free. Since 1.5 it carries the layer's clip, corner
     * radius and shadow (clamped as for segue_transition_sample): a host
     * draws the clip and corners as a coverage mask of the layer in its own
     * coordinates, and the shadow beneath it. (A program built against 1.4,
     * whose struct_size is 344, gets 1.4's layout: the state without them.)
     */
    segue_layer_state_t state;
    /**
     * Whether to draw it: not hidden, alpha above 0, and (flat) in front of
     * the eye over all of it. False for a stand-in's layer.
     */
    bool visible;
    /** Whether it has a mesh: draw `state.mesh` (see segue_layer_project), not `map`. */
    bool has_mesh;
    /**
     * A flat layer's projective map from its content at rest to where it is
     * seen, both in container coordinates, row-major: a point (x, y) of the
     * content at `resting_frame` is seen at (X / W, Y / W), where
     * X = map[0] x + map[1] y + map[2], Y = map[3] x + map[4] y + map[5] and
     * W = map[6] x + map[7] y + map[8] (W > 0 wherever `visible`). The
     * identity when it rests. As segue_layer_project sees the same layer.
     * For a GL host it is the 4x4 matrix with this 3x3 in its x, y and w
     * rows and columns (z passing through). A layer with a mesh has the map
     * of the same layer drawn flat (its frame and transform, the mesh left
     * out), for a host that cannot draw meshes; the identity when that flat
     * layer would lie partly behind the eye.
     */
    double map[9];
} segue_drawn_layer_t;

/** A sampler: a transition's layers, ready to draw. Opaque. */
typedef struct segue_sampler segue_sampler_t;

/**
 * Makes a sampler of `transition`: it owns the layers' states and meshes,
 * sized for its plans, follows the plan when the built-in default
 * takes over (it reads the new plan itself), and hands the layers back to
 * front. It keeps the transition's state alive: free the sampler, then the
 * transition (after the sampler, a sample answers SEGUE_E_ENDED). A
 * sampler is used by one thread at a time, any thread, like sample.
 * On success *out is a sampler you free with segue_sampler_free. [any]
 */
segue_status_t segue_sampler_new(segue_transition_t *transition, segue_sampler_t **out);

/**
 * Samples the transition at `t` (as segue_transition_sample, the same bound
 * and statuses, except that a takeover is followed here: SEGUE_DEFAULT_TOOK_OVER
 * is never returned). *layer_count receives the number of layers to draw,
 * read with segue_sampler_layer from back (0) to front. *plan_changed (may
 * be NULL) is set true at the first sample and whenever the plan changed
 * since the last one (the built-in default took over): read it again with
 * segue_transition_plan (the elements to hide, the reason) and prepare the
 * layers' content again; else false. On failure *layer_count is 0.
 * [any; one thread at a time]
 */
segue_status_t segue_sampler_sample(segue_sampler_t *sampler, double t, uint32_t *layer_count, bool *plan_changed);

/**
 * Fills *layer with layer `index` (0 the backmost, below the count the last
 * sample gave) of the last sample: by z position, then plan order. [the
 * sampler's thread]
 */
segue_status_t segue_sampler_layer(segue_sampler_t *sampler, uint32_t index, segue_drawn_layer_t *layer);

/** Frees a sampler; NULL is ignored. [the sampler's thread] */
void segue_sampler_free(segue_sampler_t *sampler);

/* ---- Helpers for hosts: a page's shading (since 1.4) --------------------- */

/**
 * A page's back seen through it (a mesh's triangles that turn away from the
 * viewer, as CurlUp's curl), as Segue's renderer shades it: 35% of the
 * colour and 65% of a grey from 0.72 to 0.97 by its brightness. `rgba` is
 * straight (not premultiplied), each in [0, 1]; `out` (which may be `rgba`)
 * receives the back's colour, alpha unchanged. NULL does nothing. [any, pure]
 */
void segue_page_back(const float rgba[4], float out[4]);

/**
 * The light on each vertex of a layer's mesh, as Segue's renderer lights a
 * curled page: by the angle of the surface (its normal from the vertex's
 * neighbours) to a light in front of the screen and a little above it; 1
 * where it faces the light as a flat page does, down to 0.3. With `back`,
 * as seen from behind (the back's triangles). Writes
 * (mesh_columns + 1) * (mesh_rows + 1) factors for the colour into
 * `shades`, row-major as the mesh; returns that count, or 0 when `layer` has
 * no mesh, `state` lacks its vertices, or `capacity` is too small. Interpolate
 * them across each triangle. [any, pure, allocation-free up to 65 x 65]
 */
uint32_t segue_mesh_light(const segue_layer_state_t *state, const segue_layer_request_t *layer, bool back,
                          float *shades, uint32_t capacity);

/**
 * The same shading in GLSL, for a GL host to put before its fragment
 * shader's main (ES 2.0 and desktop 1.10 and later alike: no version line):
 * `vec4 segue_page_back(vec4 c)`, the back of a premultiplied colour
 * (premultiplied), and `vec4 segue_page_lit(vec4 c, float shade)`, a colour
 * in the light segue_mesh_light gave its vertices (interpolated). Owned by
 * libsegue, valid for the life of the process. [any]
 */
const char *segue_page_shading_glsl(void);

/* ---- Helpers for hosts: the edge pan (since 1.4) ------------------------- */

/**
 * Whether releasing an interactive transition driven by a pan from the
 * container's edge finishes it (else it goes back), by Segue's one rule (the
 * container's EdgePanGesture, iOS's): a flick faster than one container
 * width a second decides by its direction; slower, the transition finishes
 * past half way. `translation` is how far the pan has moved in the
 * finishing direction and `velocity` its speed at release (positive
 * towards finishing), both in the same unit as `width`, the container's
 * width (per second for the speed). A width of 0 or less, or NaN, never
 * finishes. [any, pure]
 */
bool segue_edge_pan_finishes(double translation, double velocity, double width);

/* ---- Helpers for renderers without 3D ------------------------------------ */

/**
 * Projects a layer's state to a grid of triangles in 2D, for renderers that
 * draw textured triangles (SDL_RenderGeometry, cairo meshes, pixman, GL
 * without shaders), as Segue's own renderer sees it:
 * - without a mesh: a grid of `divisions` x `divisions` cells (1 to 64; more
 *   keeps affine texturing true to a perspective) over the frame, through the
 *   transform about the frame's centre, perspective divided;
 * - with a mesh (`layer`, the plan's request for this layer, has one, and the
 *   state carries its vertices): the mesh's own grid (`divisions` is
 *   ignored), each vertex seen in perspective from 1000 points over the
 *   centre of `bounds` (the container's bounds): scaled about that centre by
 *   1000 / (1000 - z). `layer` may be NULL for a layer without a mesh.
 * Writes (columns + 1) * (rows + 1) vertices, row-major from the top-left:
 * xy[2i], xy[2i+1] in container coordinates, and uv[2i], uv[2i+1] in [0, 1]
 * of the layer's content. `capacity` is the number of vertices xy and uv each
 * have room for. Returns the vertex count written, or 0 when an argument is
 * NULL or out of range, the capacity is too small, or a vertex lies behind the
 * eye. Triangles come from segue_grid_indices with the same columns and rows
 * (*columns and *rows, when not NULL, receive them). Does not look at `hidden`
 * or `alpha`. [any, pure, allocation-free]
 */
uint32_t segue_layer_project(const segue_layer_state_t *state, const segue_layer_request_t *layer,
                             const segue_rect_t *bounds, uint32_t divisions, float *xy, float *uv, uint32_t capacity,
                             uint32_t *columns, uint32_t *rows);

/**
 * Writes the triangles of a grid of columns x rows cells: 6 indices a cell
 * (two triangles, counter-clockwise on screen), into `indices` of `capacity`
 * entries. Returns the count written (6 * columns * rows), or 0 when it does
 * not fit or an argument is 0 or NULL. [any, pure]
 */
uint32_t segue_grid_indices(uint32_t columns, uint32_t rows, int32_t *indices, uint32_t capacity);

/** The value of a named curve at time fraction t; the same as the plugins' host->curve_value. [any, pure] */
double segue_curve_value(segue_curve_t curve, double t);

/** A cubic Bezier timing curve's value; the same as host->cubic_bezier_value. [any, pure] */
double segue_cubic_bezier_value(double x1, double y1, double x2, double y2, double t);

/** Solves a UIKit-style spring (duration, damping ratio, velocity); the same as host->spring_init. [any, pure] */
bool segue_spring_init(segue_spring_t *spring, double duration, double damping_ratio, double initial_velocity);

/** A solved spring's progress at t seconds; the same as host->spring_value. [any, pure] */
double segue_spring_value(const segue_spring_t *spring, double t);

/**
 * Solves a physical spring (stiffness, damping, mass, velocity: libadwaita's,
 * niri's and Hyprland's form), lasting until it settles within 0.001; the same
 * as host->spring_init_physical. Since API 1.1. [any, pure]
 */
bool segue_spring_init_physical(segue_spring_t *spring, double stiffness, double damping, double mass, double initial_velocity);

#ifdef __cplusplus
}
#endif
