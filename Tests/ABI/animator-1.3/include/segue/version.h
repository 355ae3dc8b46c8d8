#pragma once
/*
 * Segue animator ABI: versions and the compatibility rule.
 *
 * Compatibility promise
 * ---------------------
 * - The ABI version is MAJOR.MINOR. A host accepts a plugin whose major equals
 *   its own, whatever the minor (older or newer). A different major is refused
 *   at load time, with a message naming both versions.
 * - Within one major, structs only grow at their end and no member changes
 *   meaning. Every top-level struct starts with `abi_version` and `struct_size`.
 *   A reader ignores whatever lies past the size it knows, and treats members
 *   the writer's `struct_size` does not cover as zero (Linux's
 *   copy_struct_from_user rule). Arrays are arrays of pointers, so an element
 *   may grow too.
 * - The host function table (`segue_host_t`) is append-only: new functions are
 *   added at its end; check `struct_size` (or use SEGUE_HOST_HAS) before
 *   calling one added after 1.0.
 * - Enumerations may gain values in a minor version; treat unknown values as
 *   the documented fallback of that enumeration.
 */

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The major version: bumped on any incompatible change. */
#define SEGUE_ABI_VERSION_MAJOR 1
/**
 * The minor version: bumped when structs or the host table grow.
 * 1.1 added SEGUE_PARAM_CURVE and segue_context_t.curves;
 * 1.2 added segue_host_t.spring_init_physical;
 * 1.3 added kinds of transition (segue_context_t.kind, segue_animator_t.kinds)
 * and views with frames of their own.
 */
#define SEGUE_ABI_VERSION_MINOR 3

/** An ABI version. Plain data; copy freely. */
typedef struct segue_version {
    uint32_t major; /**< incompatible changes */
    uint32_t minor; /**< compatible growth */
} segue_version_t;

/** The version this header describes. Put it in every struct you fill. */
#define SEGUE_ABI_VERSION_INIT { SEGUE_ABI_VERSION_MAJOR, SEGUE_ABI_VERSION_MINOR }

/**
 * Whether a peer of version `v` can be talked to by code built against this
 * header: the majors must match; any minor is fine.
 * [any-thread, pure]
 */
static inline bool segue_version_is_compatible(segue_version_t v) {
    return v.major == SEGUE_ABI_VERSION_MAJOR;
}

#ifdef __cplusplus
}
#endif
