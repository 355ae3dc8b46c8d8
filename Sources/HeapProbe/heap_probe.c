#include "heap_probe.h"

#include <malloc.h>

size_t heap_probe_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
