/* Between the two halves of the sandbox: not part of its interface. */
#ifndef SANDBOX_INTERNAL_H
#define SANDBOX_INTERNAL_H
#include "worker_sandbox.h"

/* Installs the fatal-signal handlers that note the address space in use in
 * `note`. 0 or -1. */
int sandbox_watch_faults(worker_sandbox_note_t *note);

/* Installs the seccomp filter, new threads waiting for the supervisor when
 * `thread_limit` is not 0; returns its notification descriptor, or -1 with
 * errno. Call with one thread. */
int sandbox_install_filter(uint32_t thread_limit);
/* Moves the process, in a mount namespace of its own, into a root holding
 * only `paths` (each link on the way placed as the machine has it). 0, or -1
 * with a sentence in `error`. */
int sandbox_enter_view(const char *const *paths, size_t count, char *error, size_t capacity);

/* The /proc a supervisor reads its processes' thread counts through (a descriptor opened before its file
 * view, which has no /proc); -1 to read /proc by path. */
void sandbox_set_proc_root(int fd);
#endif
