/* HeapProbe: the host's view of its own heap, for `segue validate`'s memory
 * check. glibc's mallinfo2 is not in Swift's Glibc module, hence this shim.
 * Host-only: plugins never see it. Thread-safe (glibc locks its arenas). */
#ifndef HEAP_PROBE_H
#define HEAP_PROBE_H
#include <stddef.h>

/** Bytes currently allocated with malloc and not freed, all arenas and mmapped blocks included. */
size_t heap_probe_bytes_in_use(void);

#endif
