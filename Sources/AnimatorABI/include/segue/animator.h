#pragma once
/*
 * Segue animator ABI: animators, their parameters, and the evaluation model.
 *
 * The evaluation model: the animator describes, the host animates.
 * 1. setup(): the animator reads the context and fills the plan: the duration
 *    and the layers it needs (the two root views, snapshots of elements), the
 *    elements to hide while it runs; or it declines with a reason.
 * 2. evaluate(): for any time t in [0, duration], in any order, as often as the
 *    host likes, the state of every layer: frame, transform, alpha, z order,
 *    visibility and, where requested, a deformation mesh. One call per frame,
 *    so values the layers share (a curve's progress, a spring) are computed
 *    once. It must be pure (the same inputs give the same states) and must not
 *    allocate, lock or block.
 * 3. end(): once, after the host has completed the transition (or abandoned
 *    it), with whether it completed. Release anything setup acquired here.
 * The host owns the clock: it decides which t to ask for, completes the
 * transition exactly once, and restores every view afterwards.
 *
 * Threads. [main-thread] means the thread that drives the container; the host
 * never calls one animator's setup or end concurrently with any call for the
 * same transition. evaluate is [any-thread]: the host may call it for one
 * transition from several threads at once (a renderer may), each call with
 * states and meshes of its own, which purity makes safe.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "geometry.h"
#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Parameters ---------------------------------------------------------- */

/** The type of a parameter. Its value always travels as a double. */
typedef enum segue_param_type {
    SEGUE_PARAM_NUMBER = 0,  /**< any finite double in [min, max] */
    SEGUE_PARAM_INTEGER = 1, /**< a whole number in [min, max] */
    SEGUE_PARAM_BOOLEAN = 2, /**< 0 or 1; min 0, max 1 */
    SEGUE_PARAM_CHOICE = 3,  /**< the index of one of `choices`; min 0, max choice_count - 1 */
    /**
     * Since 1.1: a timing curve. Config names one of the five named curves
     * ("linear", "easeIn", "easeOut", "easeInOut", "default") or a curve of
     * its own top-level "curves". Evaluate ctx->curves[i] with
     * host->cubic_bezier_value; params[i] is the segue_curve_t of a named
     * curve, or 5 or more for one the config defines. default_value is a
     * segue_curve_t; min 0, max 4. A 1.0 host refuses a plugin that declares
     * one (it names the unknown type), so such a plugin always gets curves.
     * (The built-in default's own "curve", as libsegue lists it, has min
     * SEGUE_CURVE_SPRING: its default value, "spring", which follows its
     * spring instead.)
     */
    SEGUE_PARAM_CURVE = 4,
} segue_param_type_t;

/** Longest name the host accepts for a parameter, in bytes, without the NUL. */
#define SEGUE_MAX_PARAM_NAME 63
/** Most parameters one animator may declare. */
#define SEGUE_MAX_PARAMS 32
/** Most choices one choice parameter may have; each name at most SEGUE_MAX_PARAM_NAME bytes. */
#define SEGUE_MAX_CHOICES 256

/**
 * A parameter the animator accepts, which config files set by name. Plugin-
 * owned, and (like every string it points to) valid for the process lifetime:
 * the host never unloads a plugin. The host validates every member at load.
 */
typedef struct segue_param {
    /** sizeof(segue_param_t) as the plugin was built. */
    uint32_t struct_size;
    /** The name used in config: [A-Za-z_][A-Za-z0-9_]*, at most SEGUE_MAX_PARAM_NAME bytes. */
    const char *name;
    /** One sentence for people: what it changes, and its unit. Not NULL. */
    const char *explanation;
    /** A segue_param_type_t value. */
    uint32_t type;
    /** The value used when config does not set it; within [min_value, max_value]. */
    double default_value;
    /** The smallest and largest values config may set; finite, min <= max. */
    double min_value;
    double max_value;
    /** For SEGUE_PARAM_CHOICE: the choices' names (as config writes them), plugin-owned; otherwise NULL. */
    const char *const *choices;
    /** How many choices: 1 to SEGUE_MAX_CHOICES for SEGUE_PARAM_CHOICE, otherwise 0. */
    uint32_t choice_count;
} segue_param_t;

/* ---- The plan that setup fills ------------------------------------------- */

/** What a layer shows. Unknown values make the host decline the transition for the animator. */
typedef enum segue_layer_kind {
    SEGUE_LAYER_FROM_VIEW = 0,             /**< the from child's root view */
    SEGUE_LAYER_TO_VIEW = 1,               /**< the to child's root view */
    SEGUE_LAYER_FROM_ELEMENT_SNAPSHOT = 2, /**< a copy of from.elements[element], made at setup */
    SEGUE_LAYER_TO_ELEMENT_SNAPSHOT = 3,   /**< a copy of to.elements[element], made at setup */
} segue_layer_kind_t;

/** Most mesh divisions along either axis. */
#define SEGUE_MAX_MESH_DIVISIONS 64

/** One layer the animator needs. Frozen for ABI major 1. */
typedef struct segue_layer_request {
    /** A segue_layer_kind_t value. */
    uint32_t kind;
    /** For snapshots: the index of the element in from.elements or to.elements. */
    uint32_t element;
    /**
     * To deform the layer, a grid of (mesh_columns + 1) x (mesh_rows + 1)
     * vertices, each at most SEGUE_MAX_MESH_DIVISIONS; 0 and 0 for none.
     */
    uint32_t mesh_columns;
    uint32_t mesh_rows;
} segue_layer_request_t;

/** Which view an element reference points into. */
typedef enum segue_side {
    SEGUE_SIDE_FROM = 0,
    SEGUE_SIDE_TO = 1,
} segue_side_t;

/** An element of the from or to view. Frozen for ABI major 1. */
typedef struct segue_element_ref {
    /** A segue_side_t value. */
    uint32_t side;
    /** Index into that view's elements. */
    uint32_t element;
} segue_element_ref_t;

/** Longest duration a plan may ask for, in seconds. */
#define SEGUE_MAX_DURATION 60.0
/** Most layers one transition may use. */
#define SEGUE_MAX_LAYERS 8
/** Most elements one transition may hide. */
#define SEGUE_MAX_HIDDEN_ELEMENTS 8
/** Size of segue_plan_t.decline_reason, in bytes, with its NUL. */
#define SEGUE_REASON_CAPACITY 256
/** Number of doubles in segue_plan_t.scratch. */
#define SEGUE_SCRATCH_COUNT 32

/**
 * The plan for one transition. Host-owned, zero-filled by the host before
 * setup (but for the version and size), written by setup, then read-only for
 * the rest of the transition; valid until end returns.
 */
typedef struct segue_plan {
    /** The host's ABI version; set by the host. */
    segue_version_t abi_version;
    /** sizeof(segue_plan_t) as the host was built; set by the host. Write nothing past it. */
    uint32_t struct_size;

    /** [out] Seconds; finite and in (0, SEGUE_MAX_DURATION]. */
    double duration;

    /** [out] How many of `layers` are used: at most SEGUE_MAX_LAYERS. */
    uint32_t layer_count;
    /** [out] The layers, bottom first. A root view may appear once; the to view is added to the container either way. */
    segue_layer_request_t layers[SEGUE_MAX_LAYERS];

    /** [out] How many of `hidden` are used: at most SEGUE_MAX_HIDDEN_ELEMENTS. */
    uint32_t hidden_count;
    /** [out] Elements the host hides while the transition runs and shows again at its end. */
    segue_element_ref_t hidden[SEGUE_MAX_HIDDEN_ELEMENTS];

    /** [out] When setup declines: why, for people. NUL-terminated; truncated to fit. */
    char decline_reason[SEGUE_REASON_CAPACITY];

    /**
     * The animator's own per-transition values (a solved spring, chosen
     * indices, ...), written by setup and read by evaluate. The host never
     * reads them. Using scratch instead of malloc keeps an animator free of
     * leaks even when a transition is abandoned.
     */
    double scratch[SEGUE_SCRATCH_COUNT];

    /** The animator's own pointer, if scratch is not enough: owned by the animator, released in end. */
    void *instance;
} segue_plan_t;

/** What setup answers. Any other value is treated as an error (the host falls back). */
typedef enum segue_setup_result {
    SEGUE_SETUP_ANIMATE = 0, /**< the plan is filled: animate it */
    SEGUE_SETUP_DECLINE = 1, /**< not this transition: see decline_reason */
} segue_setup_result_t;

/* ---- Per-frame state ----------------------------------------------------- */

/**
 * Since 1.4: the shape a layer is cut to, in segue_clip_t.shape. Treat an
 * unknown value as SEGUE_CLIP_NONE (the host draws such a layer unclipped).
 */
typedef enum segue_clip_shape {
    SEGUE_CLIP_NONE = 0,         /**< not clipped: the resting value */
    SEGUE_CLIP_ROUNDED_RECT = 1, /**< `rect` with its corners rounded by `radii` */
    SEGUE_CLIP_ELLIPSE = 2,      /**< the ellipse inscribed in `rect` (a circle when it is square) */
} segue_clip_shape_t;

/**
 * Since 1.4: the radii of a rectangle's four corners, in points. Plain data.
 * A corner with a radius of 0 is square.
 */
typedef struct segue_corner_radii {
    double top_left;
    double top_right;
    double bottom_right;
    double bottom_left;
} segue_corner_radii_t;

/**
 * Since 1.4: a clip, in the layer's own coordinates: points of its content
 * before its transform, (0, 0) at the top-left of its frame and
 * (frame.width, frame.height) at the bottom-right (for a layer with a mesh,
 * of its content as the mesh's (i, j) address it). Only what lies inside is
 * drawn, anti-aliased, with everything else about the layer (its transform,
 * mesh, alpha) applied as usual. Plain data; animatable: write it each frame.
 *
 * The host checks it (see docs/abi.md, "What windows need"): a non-finite
 * member fails the frame like any non-finite state; a negative width or
 * height is taken as 0 (nothing is drawn); a negative radius as 0; a radius
 * larger than half the rect's shorter side as that half.
 */
typedef struct segue_clip {
    /** A segue_clip_shape_t value. */
    uint32_t shape;
    /** The rectangle clipped to (or the ellipse's box), layer coordinates. */
    segue_rect_t rect;
    /** For SEGUE_CLIP_ROUNDED_RECT: its corners' radii, points. Ignored otherwise. */
    segue_corner_radii_t radii;
} segue_clip_t;

/**
 * Since 1.4: the shadow a layer casts on what lies beneath it: its
 * silhouette (the frame with its corner radius, cut to its clip), blurred,
 * moved by the offset, in a colour, drawn just under the layer and faded with
 * it (the layer's alpha multiplies `opacity`). Plain data; animatable. The
 * resting value, all zeros, casts none. The host takes a negative radius as
 * 0 and clamps colour and opacity to [0, 1]; a non-finite member fails the
 * frame.
 */
typedef struct segue_shadow {
    /** How far the blur spreads, in points: the Gaussian's standard deviation is half of it. 0: a sharp shadow. */
    double radius;
    /** How far the shadow is moved from the layer, in container points (x right, y down), after its transform. */
    double offset_x;
    double offset_y;
    /** Its colour, each in [0, 1], not premultiplied. */
    double red;
    double green;
    double blue;
    /** Its opacity in [0, 1]; 0 casts none. */
    double opacity;
} segue_shadow_t;

/**
 * The state of one layer at one time. Host-owned, written by evaluate.
 * Before each call the host fills it with the layer's resting values: its
 * frame at setup, identity transform, alpha 1, z_position equal to the layer's
 * index, not hidden (and, since 1.4, no clip, corner radius 0, no shadow).
 * A mesh starts as a flat grid over the layer's frame and is not reset
 * between calls: write every vertex.
 */
typedef struct segue_layer_state {
    /** sizeof(segue_layer_state_t) as the host was built; write nothing past it. */
    uint32_t struct_size;
    /** The layer's frame, container coordinates. */
    segue_rect_t frame;
    /** Applied about the frame's centre. */
    segue_transform3d_t transform;
    /** Opacity in [0, 1]; the host clamps values outside. */
    double alpha;
    /** Drawing order among the transition's layers: higher draws on top. */
    double z_position;
    /** Whether the layer is drawn at all. */
    bool hidden;
    /**
     * The deformation, when the layer asked for a mesh; else NULL. Host-
     * owned, valid during the call. (mesh_rows + 1) rows of (mesh_columns + 1)
     * vertices, row-major from the top-left: vertex (i, j) is where the point
     * of the layer's content at (i / mesh_columns, j / mesh_rows) of its width
     * and height goes, in container coordinates (z towards the viewer). When
     * a mesh is present it replaces frame and transform for drawing.
     */
    segue_vec3_t *mesh;
    /** The number of vertices in `mesh`: (mesh_columns + 1) * (mesh_rows + 1), or 0. */
    uint32_t mesh_vertex_count;

    /*
     * Since 1.4: what windows need. The host's resting values are none: no
     * clip, square corners, no shadow. Write them only when the host has room
     * for them: SEGUE_STATE_HAS(state, shadow) (a 1.3 host's states end
     * before them). An animator built before 1.4 never writes them, so its
     * layers draw exactly as they did.
     */
    /** The shape the layer is cut to; resting: SEGUE_CLIP_NONE. */
    segue_clip_t clip;
    /**
     * The radius of the layer's own corners (its frame's rectangle, in the
     * layer's coordinates), points; resting 0. The host clamps it to
     * [0, half the frame's shorter side]. With a clip, both apply.
     */
    double corner_radius;
    /** The shadow the layer casts; resting: none. */
    segue_shadow_t shadow;

    /* Add new members here, at the end only. */
} segue_layer_state_t;

/** Whether `state` has `member` (false for members added after the host was built). Since 1.4. */
#define SEGUE_STATE_HAS(state, member) \
    ((state)->struct_size >= offsetof(segue_layer_state_t, member) + sizeof((state)->member))

/* ---- The animator -------------------------------------------------------- */

/** Longest animator id, in bytes, without the NUL. */
#define SEGUE_MAX_ID 127
/** Longest short name, in bytes, without the NUL. */
#define SEGUE_MAX_NAME 63
/** Longest version string, in bytes, without the NUL. */
#define SEGUE_MAX_VERSION 31
/** Longest description, in bytes, without the NUL. */
#define SEGUE_MAX_DESCRIPTION 1023

typedef struct segue_animator segue_animator_t;

/**
 * One animator. Plugin-owned, static, valid for the process lifetime; the
 * host reads it once at load and validates every member.
 */
struct segue_animator {
    /** The ABI version the animator was built against: SEGUE_ABI_VERSION_INIT. */
    segue_version_t abi_version;
    /** sizeof(segue_animator_t) as the plugin was built. */
    uint32_t struct_size;

    /**
     * Stable id: a reverse-DNS name, a slash and a revision number, e.g.
     * "com.example.spring-slide/1": [a-z0-9.-]+/[0-9]+, at most SEGUE_MAX_ID
     * bytes. Bump the revision when the animation changes in a way users
     * would notice.
     */
    const char *id;
    /** Short name used in config: [A-Za-z][A-Za-z0-9_-]*, at most SEGUE_MAX_NAME bytes, e.g. "SpringSlide". */
    const char *name;
    /** Version of this animator's code, e.g. "1.2.0"; at most SEGUE_MAX_VERSION bytes. */
    const char *version;
    /** One or two sentences for people; at most SEGUE_MAX_DESCRIPTION bytes. Not NULL. */
    const char *description;

    /** The parameters, plugin-owned; NULL when param_count is 0. */
    const segue_param_t *const *params;
    /** How many parameters: at most SEGUE_MAX_PARAMS. The context's params follow this order. */
    uint32_t param_count;

    /**
     * Plans a transition, or declines it (fill plan->decline_reason).
     * `self` is this descriptor; `ctx` and `plan` are host-owned (see their
     * types). Required. [main-thread]
     */
    segue_setup_result_t (*setup)(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan);

    /**
     * Writes the state of every layer at time `t` in [0, plan->duration]:
     * `states[i]` is layer i's state, for i < `layer_count`, which equals
     * plan->layer_count. The array and the states are host-owned and valid
     * during the call; each state is pre-filled (see segue_layer_state_t).
     * Pure and allocation-free; see the file comment. Required. [any-thread]
     */
    void (*evaluate)(const segue_animator_t *self, const segue_context_t *ctx, const segue_plan_t *plan,
                     double t, segue_layer_state_t *const *states, uint32_t layer_count);

    /**
     * Called once after a successful setup, when the transition has ended:
     * `completed` is false when it was cancelled or abandoned by the host.
     * Optional (NULL). [main-thread]
     */
    void (*end)(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan, bool completed);

    /**
     * Since 1.3: the kinds of transition this animator was written for, as
     * SEGUE_KIND_BIT(SEGUE_TRANSITION_...) bits. 0, and every animator built
     * before 1.3 (its struct_size ends before this member), means switches
     * only. The host still plays the other kinds with it, by handing it one it
     * declared (see segue_transition_kind_t); an animator that declares no
     * switch (say, appear and disappear only) is not used for switches: the
     * built-in default runs them. Bits the host does not know are ignored.
     */
    uint32_t kinds;

    /* Add new members here, at the end only. */
};

#ifdef __cplusplus
}
#endif
