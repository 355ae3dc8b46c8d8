/* Between the two halves of the sandbox: not part of its interface. */
#ifndef SANDBOX_INTERNAL_H
#define SANDBOX_INTERNAL_H
#include "worker_sandbox.h"

/* Installs the SIGSYS handler that records refusals in `record`, and the
 * fatal-signal handlers that note the address space in use. 0 or -1. */
int sandbox_watch_faults(worker_sandbox_record_t *record);

/* Installs the seccomp filter on every thread. 0 or -1 with errno. */
int sandbox_install_filter(void);

/* Installs a second filter that asks a supervisor for every new thread;
 * returns its notification descriptor, or -1 with errno. Call with one thread. */
int sandbox_install_thread_listener(void);
#endif
