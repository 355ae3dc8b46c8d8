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
    SEGUE_CURVE_LINEAR = 0,      /**< (0,0) (1,1) */
    SEGUE_CURVE_EASE_IN = 1,     /**< (0.42,0) (1,1) */
    SEGUE_CURVE_EASE_OUT = 2,    /**< (0,0) (0.58,1) */
    SEGUE_CURVE_EASE_IN_OUT = 3, /**< (0.42,0) (0.58,1) */
    SEGUE_CURVE_DEFAULT = 4,     /**< (0.25,0.1) (0.25,1) */
} segue_curve_t;

/**
 * A UIKit-style spring, solved once by `spring_init` and then evaluated with
 * `spring_value` as often as needed. Plain data owned by whoever declares it
 * (a plan's `scratch` is a good home: see animator.h); copy freely.
 */
typedef struct segue_spring {
    double duration;          /**< seconds, as requested */
    double damping_ratio;     /**< zeta, in (0, 1]; 1 is critically damped */
    double initial_velocity;  /**< in units of the whole distance per second */
    double omega0;            /**< undamped angular frequency, solved by spring_init */
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
     * The value of a named curve at time fraction `t` (clamped to [0, 1]):
     * solves x(s) = t, then returns y(s). [any-thread, pure, allocation-free]
     */
    double (*curve_value)(segue_curve_t curve, double t);

    /**
     * The same for a custom cubic Bezier with control points (x1,y1), (x2,y2);
     * x1 and x2 are clamped to [0, 1]. [any-thread, pure, allocation-free]
     */
    double (*cubic_bezier_value)(double x1, double y1, double x2, double y2, double t);

    /**
     * Solves a UIKit-style spring: a damped harmonic oscillator of mass 1 whose
     * envelope has decayed to 0.001 at `duration` (Newton's method from
     * omega0 = 5 / duration). Fills `*spring`, which the caller owns.
     * Returns false, leaving `*spring` zeroed, when duration is not finite and
     * positive, the damping ratio is not in (0, 1], or the velocity is not
     * finite. [any-thread, pure, allocation-free]
     */
    bool (*spring_init)(segue_spring_t *spring, double duration, double damping_ratio, double initial_velocity);

    /**
     * The spring's progress at time `t` seconds: 0 at t <= 0, 1 - x(t) while
     * running (it may overshoot 1), exactly 1 at t >= duration.
     * `spring` is borrowed for the call. [any-thread, pure, allocation-free]
     */
    double (*spring_value)(const segue_spring_t *spring, double t);

    /* Add new members here, at the end only. */
};

/** Whether `host` provides `member` (false for members added after the host was built). */
#define SEGUE_HOST_HAS(host, member) \
    ((host)->struct_size >= offsetof(segue_host_t, member) + sizeof((host)->member) && (host)->member != NULL)

#ifdef __cplusplus
}
#endif
