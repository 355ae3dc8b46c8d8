#pragma once
/*
 * Segue animator ABI: the transition context.
 *
 * The host builds one context per transition and hands it to every call of
 * that transition. It and everything it points to are owned by the host,
 * read-only to the animator, and valid from the start of `setup` until `end`
 * returns; do not keep any of its pointers after that.
 *
 * The frames of a switch follow the container transition rules: with W the
 * width of the container bounds B, travel = going_right ? -W : +W, and each
 * view's own frame F (since 1.3 a host may give views frames of their own, a
 * window on its output; without one, F is B):
 *   from_initial_frame = F(from),  to_final_frame = F(to),
 *   from_final_frame   = F(from) moved by travel along x,
 *   to_initial_frame   = F(to) moved by -travel along x.
 * An appearance or a disappearance (since 1.3, see segue_transition_kind_t)
 * moves nothing by itself: each view's initial and final frames are its own.
 * An animator may use them for geometry or only for the direction.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"
#include "host.h"
#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A named sub-element of a view (a cell's image, a label, ...). */
typedef struct segue_element {
    /** sizeof(segue_element_t) as the host was built. */
    uint32_t struct_size;
    /** The element's name, unique within its view. Host-owned, NUL-terminated. */
    const char *name;
    /** Its frame in container coordinates at the start of the transition. */
    segue_rect_t frame;
} segue_element_t;

/**
 * Since 1.3: what a transition does, in segue_context_t.kind. A host plays
 * a window's appearance and disappearance with every animator: one that was
 * not written for the kind (see segue_animator_t.kinds) is handed one it
 * was, as docs/abi.md's table says (a disappearance as a switch to a
 * transparent stand-in; an appearance as a disappearance run backwards). A
 * switch goes only to an animator that declares switches. Treat an unknown
 * value as a switch.
 */
typedef enum segue_transition_kind {
    /** `from` leaves and `to` takes its place: two children of the container, the seeds' switch. */
    SEGUE_TRANSITION_SWITCH = 0,
    /** `to` arrives over `from`, which stays where it is beneath it (a window opens over the desktop). */
    SEGUE_TRANSITION_APPEAR = 1,
    /** `from` leaves, revealing `to`, which was beneath it all along (a window closes). */
    SEGUE_TRANSITION_DISAPPEAR = 2,
} segue_transition_kind_t;

/** The bit of segue_animator_t.kinds that says an animator was written for `kind`. */
#define SEGUE_KIND_BIT(kind) (1u << (uint32_t)(kind))

/**
 * One side of the transition: a child's root view and its elements.
 * Embedded in segue_context_t, so frozen for ABI major 1: what a later minor
 * adds about a view goes at the end of segue_context_t instead.
 */
typedef struct segue_view {
    /** The child's name. Host-owned, NUL-terminated. */
    const char *name;
    /** The root view's frame in container coordinates at the start. */
    segue_rect_t frame;
    /** The named elements, in the view's order. Host-owned array of host-owned elements; NULL when element_count is 0. */
    const segue_element_t *const *elements;
    uint32_t element_count;
} segue_view_t;

/**
 * A cubic Bezier timing curve from (0, 0) to (1, 1) through the control
 * points (x1, y1) and (x2, y2), as CSS and UIKit define them; x1 and x2 in
 * [0, 1]. Plain data. Since 1.1.
 */
typedef struct segue_cubic_bezier {
    double x1, y1, x2, y2;
} segue_cubic_bezier_t;

/**
 * Since 1.4: what kind of window a view is, in segue_context_t.window_type,
 * as desktops tell them apart (EWMH's _NET_WM_WINDOW_TYPE, KWin's, GNOME's).
 * Treat an unknown value as SEGUE_WINDOW_NORMAL.
 */
typedef enum segue_window_type {
    SEGUE_WINDOW_NORMAL = 0,       /**< an application's main window, or not known */
    SEGUE_WINDOW_DIALOG = 1,       /**< a dialog over another window */
    SEGUE_WINDOW_UTILITY = 2,      /**< a palette or toolbox that stays beside its window */
    SEGUE_WINDOW_NOTIFICATION = 3, /**< a notification bubble or banner */
    SEGUE_WINDOW_MENU = 4,         /**< a menu: popup, drop-down or context */
    SEGUE_WINDOW_TOOLTIP = 5,      /**< a tooltip */
    SEGUE_WINDOW_SPLASH = 6,       /**< a splash screen */
    SEGUE_WINDOW_DOCK = 7,         /**< a panel or dock */
} segue_window_type_t;

/**
 * Since 1.4: where a transition comes from or goes to, as far as the host
 * knows it, in container coordinates. In an appearance it is the origin
 * (the launcher or task-bar entry clicked, the element a switch came from,
 * the pointer); in a disappearance, the target (a minimize's task-bar entry:
 * a close has none); in a switch, the element or pointer that started it.
 * Each part is flagged: read a part only when its flag is true (the host
 * zero-fills the rest, and `segue validate` checks that an animator does).
 * Plain data, in the context, valid like it.
 */
typedef struct segue_anchor {
    /** Whether `rect` is known. */
    bool has_rect;
    /** Whether `point` is known. */
    bool has_point;
    /** A rectangle: the launcher, the task-bar entry (a window's icon geometry), the element. */
    segue_rect_t rect;
    /** A point: the pointer when the transition began. */
    double point_x;
    double point_y;
} segue_anchor_t;

/**
 * Everything an animator may know about a transition. See the file comment for
 * ownership and lifetime. Read it from any thread the animator is called on;
 * never write to it.
 */
typedef struct segue_context {
    /** The host's ABI version. */
    segue_version_t abi_version;
    /** sizeof(segue_context_t) as the host was built. */
    uint32_t struct_size;

    /** The host function table; the same pointer the entry point received. */
    const segue_host_t *host;

    /** The container's bounds: origin (0, 0), its width and height. */
    segue_rect_t container_bounds;

    /** The child going away and the child coming in, with their elements. */
    segue_view_t from;
    segue_view_t to;

    /** Frames per the rules in the file comment. */
    segue_rect_t from_initial_frame;
    segue_rect_t from_final_frame;
    segue_rect_t to_initial_frame;
    segue_rect_t to_final_frame;

    /** True when the target child comes after the current one. */
    bool going_right;
    /** Always true for transitions Segue runs; kept for parity with UIKit. */
    bool is_animated;
    /** True when a gesture may scrub the transition (t may then go back and forth). */
    bool is_interactive;

    /**
     * The configured parameter values, in the order of the animator's
     * `params`, already validated against their type and [min, max] and with
     * defaults filled in; `param_count` equals the animator's `param_count`.
     * Numbers as given, integers and booleans as whole doubles, a choice as
     * its index.
     */
    const double *params;
    uint32_t param_count;

    /**
     * Since 1.1: for each parameter (param_count entries, in the same order),
     * the control points of its curve when its type is SEGUE_PARAM_CURVE,
     * zeros otherwise. Host-owned, valid like the context. A plugin that
     * declares a curve parameter only runs on a 1.1 host or newer, which
     * always sets it; others may check SEGUE_CONTEXT_HAS(ctx, curves).
     */
    const segue_cubic_bezier_t *curves;

    /**
     * Since 1.3: a segue_transition_kind_t value. An animator only ever sees a
     * kind it declared in segue_animator_t.kinds (a switch when it declared
     * none), so one built before 1.3, which cannot read this member, never
     * needs to. Check SEGUE_CONTEXT_HAS(ctx, kind) on a host older than 1.3:
     * absent means a switch.
     */
    uint32_t kind;

    /**
     * Since 1.4: where the transition comes from or goes to (see
     * segue_anchor_t). Check SEGUE_CONTEXT_HAS(ctx, anchor) on an older
     * host: absent means nothing is known.
     */
    segue_anchor_t anchor;
    /**
     * Since 1.4: a segue_window_type_t value for the window that appears or
     * disappears (`to` in an appearance, `from` in a disappearance); for a
     * switch, SEGUE_WINDOW_NORMAL. Absent (an older host): normal.
     */
    uint32_t window_type;
    /** Since 1.4: whether that window is modal (it blocks the window beneath it). Absent: false. */
    bool modal;

    /* Add new members here, at the end only. */
} segue_context_t;

/** Whether `ctx` has `member` (false for members added after the host was built). */
#define SEGUE_CONTEXT_HAS(ctx, member) \
    ((ctx)->struct_size >= offsetof(segue_context_t, member) + sizeof((ctx)->member))

#ifdef __cplusplus
}
#endif
