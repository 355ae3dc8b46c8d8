#pragma once
/*
 * Segue animator ABI: the plugin and its one exported symbol.
 *
 * A plugin is a shared library that exports one function,
 * `segue_animator_entry`, and nothing else the host needs. The host loads it
 * with dlopen(RTLD_NOW | RTLD_LOCAL), calls the entry once, validates what it
 * returns, and never unloads the library.
 *
 * Where a plugin runs
 * -------------------
 * By default the host runs no plugin code in its own process:
 * - A scanner process loads the library and calls the entry point to learn
 *   what it provides; the host caches that and may not load the library
 *   again until an animator is selected. Constructors and the entry point
 *   must therefore be quick and have no side effects; a scan that takes more
 *   than 5 s rejects the file.
 * - A worker process per plugin file, started on first use, runs setup,
 *   evaluate and end. Each call has a deadline (setup 1 s, evaluate 0.5 s,
 *   end 1 s; loading 5 s). A plugin that crashes, exits, or misses a deadline
 *   loses its worker: the running transition is finished by the built-in
 *   default and the plugin is quarantined until its file is replaced (a
 *   rebuilt plugin gets a fresh worker).
 * - The same library may thus be loaded in several processes, one after
 *   another: keep no state in globals that must survive between them.
 * - Never write to standard output. A worker's standard output and error
 *   reach the host's standard error, marked as the plugin's; writing to
 *   standard output while being scanned rejects the file. Log through
 *   segue_host_t.log.
 * Hosts may also load plugins into their own process (isolation "none"), for
 * trusted plugins: the rules above are the same either way.
 */

#include <stdint.h>

#include "animator.h"
#include "host.h"
#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most animators one plugin may export. */
#define SEGUE_MAX_ANIMATORS 64

/** What the entry point returns. Plugin-owned, static, valid for the process lifetime. */
typedef struct segue_plugin {
    /** The ABI version the plugin was built against: SEGUE_ABI_VERSION_INIT. */
    segue_version_t abi_version;
    /** sizeof(segue_plugin_t) as the plugin was built. */
    uint32_t struct_size;
    /** The animators; plugin-owned array of plugin-owned descriptors. */
    const segue_animator_t *const *animators;
    /** How many animators: 1 to SEGUE_MAX_ANIMATORS. Ids and short names must be unique within the plugin. */
    uint32_t animator_count;
} segue_plugin_t;

/** The entry point's name, for dlsym. */
#define SEGUE_ENTRY_SYMBOL "segue_animator_entry"

/** The entry point's type. */
typedef const segue_plugin_t *(*segue_entry_fn)(const segue_host_t *host);

#if defined(_WIN32)
#define SEGUE_EXPORT __declspec(dllexport)
#else
#define SEGUE_EXPORT __attribute__((visibility("default")))
#endif

/**
 * The one symbol a plugin exports. `host` is host-owned and valid for the
 * process lifetime: keep it to call its functions later. Return the plugin's
 * static descriptor, or NULL to refuse to load (log why first).
 * Called once per process, before anything else. [main-thread]
 */
SEGUE_EXPORT const segue_plugin_t *segue_animator_entry(const segue_host_t *host);

#ifdef __cplusplus
}
#endif
