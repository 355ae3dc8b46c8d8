/* One message for the caller: formatted into `message` (of `size` bytes), on
 * one line (what a library said may hold a newline). Private to GraphicsShims. */
#ifndef GRAPHICS_SAY_H
#define GRAPHICS_SAY_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

static inline void say(char *message, size_t size, const char *format, ...) {
    if (!message || size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(message, size, format, args);
    va_end(args);
    for (char *c = message; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
}

#endif
