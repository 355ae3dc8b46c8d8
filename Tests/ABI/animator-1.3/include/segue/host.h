#pragma once
/*
 * Segue animator ABI: the host function table.
 *
 * The host hands every plugin a `segue_host_t` through the entry point. It is
 * owned by the host and stays valid, unchanged, for the life of the process:
 * keep the pointer. The table is append-only (sqlite3_api_routines style): new
 * members are only ever added at its end, so before calling a member added
 * after 1.0, check that the host's `struct_size` covers it with SEGUE_HOST_HAS.
 */

#include <stddef.h>
#include <stdint.h>

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Severity of a log message. Unknown values are treated as SEGUE_LOG_INFO. */
typedef enum segue_log_level {
    SEGUE_LOG_DEBUG = 0,
    SEGUE_LOG_INFO = 1,
    SEGUE_LOG_WARNING = 2,
    SEGUE_LOG_ERROR = 3,
} segue_log_level_t;

/**
 * The named timing curves of UIKit, as cubic Bezier curves from (0,0) to (1,1)
 * with these control points. Unknown values are treated as SEGUE_CURVE_LINEAR.
 */
typedef enum segue_curve {
    /**
     * Not a curve: "spring", the value of the built-in default's own `curve`
     * parameter (its default and minimum, as libsegue lists it) when it
     * follows its spring. A plugin's curve parameter never receives it;
     * curve_value treats it as unknown.
     */
    SEGUE_CURVE_SPRING = -1,
    SEGUE_CURVE_LINEAR = 0,      /**< (0,0) (1,1) */
    SEGUE_CURVE_EASE_IN = 1,     /**< (0.42,0) (1,1) */
    SEGUE_CURVE_EASE_OUT = 2,    /**< (0,0) (0.58,1) */
    SEGUE_CURVE_EASE_IN_OUT = 3, /**< (0.42,0) (0.58,1) */
    SEGUE_CURVE_DEFAULT = 4,     /**< (0.25,0.1) (0.25,1) */
} segue_curve_t;

/**
 * A spring, solved once by `spring_init` (UIKit's form) or
 * `spring_init_physical` (stiffness, damping, mass) and then evaluated with
 * `spring_value` as often as needed. Plain data owned by whoever declares it
 * (a plan's `scratch` is a good home: see animator.h); copy freely.
 */
typedef struct segue_spring {
    double duration;          /**< seconds: as requested (spring_init), or the time it settles (spring_init_physical) */
    double damping_ratio;     /**< zeta: in (0, 1] from spring_init, 1 critically damped; above 1 (overdamped) from spring_init_physical too */
    double initial_velocity;  /**< in units of the whole distance per second */
    double omega0;            /**< undamped angular frequency, solved by spring_init or spring_init_physical */
} segue_spring_t;

typedef struct segue_host segue_host_t;

/** The host's services for plugins. See the file comment for its lifetime. */
struct segue_host {
    /** The host's ABI version. */
    segue_version_t abi_version;
    /** sizeof(segue_host_t) as the host was built; members past it are absent. */
    uint32_t struct_size;

    /** The host's name and version, e.g. "segue" and "1.0.0". Host-owned, NUL-terminated, valid for the process lifetime. */
    const char *host_name;
    const char *host_version;

    /** Opaque to plugins: the host uses it to tell plugins apart. Never touch it. */
    void *host_data;

    /**
     * Writes a message to the host's log, attributed to the plugin that was
     * handed this `host`. `message` is borrowed for the duration of the call.
     * [any-thread]
     */
    void (*log)(const segue_host_t *host, segue_log_level_t level, const char *message);

    /**
     * The value of a named curve at time fraction `t` (clamped to [0, 1], so
     * -INFINITY gives 0 and +INFINITY gives 1): solves x(s) = t, then returns
     * y(s). A NaN `t` gives NaN, which the host's check on layer states then
     * catches. [any-thread, pure, allocation-free]
     */
    double (*curve_value)(segue_curve_t curve, double t);

    /**
     * The same for a custom cubic Bezier with control points (x1,y1), (x2,y2);
     * x1 and x2 are clamped to [0, 1]. A NaN `t` or a NaN control point gives
     * NaN for every `t`. [any-thread, pure, allocation-free]
     */
    double (*cubic_bezier_value)(double x1, double y1, double x2, double y2, double t);

    /**
     * Solves a UIKit-style spring: a damped harmonic oscillator of mass 1,
     * displacement x(t) from 1 towards 0 with initial velocity -v, whose
     * undamped frequency omega0 makes the sine term's decayed coefficient
     * 0.001 at `duration` T, as in the public reimplementation of UIKit's
     * duration-based spring (Framer's duration-to-stiffness solver):
     *
     *     ((zeta*omega0 - v) / omega_d) * exp(-zeta*omega0*T) = 0.001   (zeta < 1,
     *                                    omega_d = omega0*sqrt(1 - zeta^2))
     *     (1 + (omega0 - v)*T) * exp(-omega0*T) = 0.001                 (zeta = 1)
     *
     * For example T = 3, zeta = 0.25, v = 0 gives omega0 = 7.4050, stiffness
     * omega0^2 = 54.8336. The root is the one on the branch where the left
     * side falls as omega0 grows, found by Newton's method inside a bracket
     * with a bisection fallback: it always converges.
     *
     * Where the condition has no root (zeta below about 0.001 with v = 0, or a
     * velocity so high that the coefficient never rises to 0.001), omega0 is
     * instead chosen so that the decay alone is 0.001 at T:
     * omega0 = ln(1000) / (zeta*T).
     *
     * Fills `*spring`, which the caller owns, and returns true. Returns false,
     * leaving `*spring` zeroed, when `duration` is not finite and positive, the
     * damping ratio is not in (0, 1], the velocity is not finite (NaN in any
     * argument included), or omega0 would not be a finite positive number
     * (a duration so short that it overflows). [any-thread, pure, allocation-free]
     */
    bool (*spring_init)(segue_spring_t *spring, double duration, double damping_ratio, double initial_velocity);

    /**
     * The spring's progress at time `t` seconds: 0 at t <= 0, 1 - x(t) while
     * running (it may overshoot 1), exactly 1 at t >= duration.
     * NaN when `t` is NaN, when `spring` is NULL, or when it was not solved
     * (a zeroed spring from a failed spring_init): the host's check on layer
     * states then falls back instead of freezing the animation at 0.
     * `spring` is borrowed for the call. [any-thread, pure, allocation-free]
     */
    double (*spring_value)(const segue_spring_t *spring, double t);

    /**
     * Solves a physical spring, as libadwaita's AdwSpringParams, niri's and
     * Hyprland's `spring` curves state one: a mass `mass` on a spring of
     * `stiffness` with `damping`, so omega0 = sqrt(stiffness / mass) and
     * damping ratio zeta = damping / (2 * sqrt(stiffness * mass)), which may
     * exceed 1 (overdamped: no overshoot, a slower rest). `initial_velocity`
     * is in units of the whole distance per second, as for spring_init.
     *
     * Its duration is the time it settles within 0.001 of the distance
     * (libadwaita's epsilon): for zeta <= 1, when the envelope
     * exp(-damping * t / (2 * mass)) reaches 0.001, as libadwaita estimates
     * it (the motion left then ends at once, as there); for zeta > 1, when
     * the motion itself is 0.001 from rest. spring_value then evaluates it
     * like any other: exactly 1 from that duration on.
     *
     * Fills `*spring`, which the caller owns, and returns true. Returns
     * false, leaving `*spring` zeroed, when an argument is not finite (NaN
     * included) or stiffness, damping or mass is not positive (an undamped
     * spring never settles). Since ABI 1.2: check
     * SEGUE_HOST_HAS(host, spring_init_physical). [any-thread, pure, allocation-free]
     */
    bool (*spring_init_physical)(segue_spring_t *spring, double stiffness, double damping, double mass, double initial_velocity);

    /* Add new members here, at the end only. */
};

/** Whether `host` provides `member` (false for members added after the host was built). */
#define SEGUE_HOST_HAS(host, member) \
    ((host)->struct_size >= offsetof(segue_host_t, member) + sizeof((host)->member) && (host)->member != NULL)

#ifdef __cplusplus
}
#endif
