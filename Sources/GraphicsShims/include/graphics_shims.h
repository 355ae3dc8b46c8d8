/* GraphicsShims: the system's picture and font libraries, loaded at run time
 * (dlopen) the way SDL2 and zlib are, so that Segue builds without their
 * development files and runs, with a plainer look, without the libraries:
 *   libpng16.so.16 (PNG; its errors longjmp, which only C can catch),
 *   libjpeg.so.62 (JPEG; its errors longjmp, which only C can catch),
 *   libfreetype.so.6 (type; its records are read at the offsets of its ABI),
 *   libfontconfig.so.1 (which font file a family name means).
 * Every call here copies what it returns into memory the caller owns; no
 * pointer into a library's memory outlives the call, except a glyph's
 * bitmap, valid until the next call on the same font. Loading is
 * thread-safe; a font is used by one thread at a time. */
#ifndef GRAPHICS_SHIMS_H
#define GRAPHICS_SHIMS_H
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/** Stores `value` in the `count` 32-bit words from `words`: the C library's
 * wmemset (wchar_t is 32 bits on Linux), which stores as wide as the
 * processor allows; a canvas's opaque runs are filled with it. */
static inline void graphics_fill32(uint32_t *words, uint32_t value, size_t count) {
    _Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "wchar_t is 32 bits");
    wmemset((wchar_t *)words, (wchar_t)value, count);
}

/** `color`, a premultiplied RGBA word, over each of the `count` words from
 * `words` (premultiplied): color + word × (255 − alpha) / 255 per channel,
 * rounded. In vector lanes where the processor has them, the same bytes. */
void graphics_over_color32(uint32_t *words, uint32_t color, size_t count);

/** Each of the `count` opaque words from `source` at opacity k / 255 (k
 * below 255) over the word at `out` beside it: source × k / 255 + out ×
 * (255 − k) / 255 per channel, each rounded. */
void graphics_blend_opaque32(const uint32_t *source, size_t count, uint32_t k, uint32_t *out);

/** Each of `count` words of `a` mixed with the word of `b` beside it into
 * `out`, by f / 256 towards `b` (f from 0 to 256) or, when `weights` is
 * not NULL, by each word's own weight there: a × (256 − f) + b × f, plus
 * 128, over 256, per channel. `out` may be `a` or `b`. */
void graphics_mix_rows32(const void *a, const void *b, size_t count, uint32_t f, const uint32_t *weights, uint32_t *out);

/** What a decode returns. */
enum {
    GRAPHICS_OK = 0,
    /** The library could not be loaded: `message` names it. */
    GRAPHICS_NO_LIBRARY = 1,
    /** The data is not a picture of the kind, or is truncated or corrupt: `message` says what the library said. */
    GRAPHICS_CORRUPT = 2,
    /** The picture is larger than `max_pixels` (said before any pixel is decoded). */
    GRAPHICS_TOO_LARGE = 3,
    /** Memory for the pixels could not be had. */
    GRAPHICS_NO_MEMORY = 4,
};

/**
 * Decodes the PNG (`kind` 'P') or JPEG (`kind` 'J') in `bytes` into straight
 * (not premultiplied) RGBA, 8 bits a channel, rows top first, no padding:
 * `*pixels` is malloc'd and the caller frees it. Every PNG colour type, bit
 * depth and interlacing, and baseline and progressive JPEG (greyscale, RGB,
 * CMYK as the library converts it). A picture of more than `max_pixels`
 * pixels is refused from its header, before its pixels are decoded. A
 * picture at least twice `fit_width` x `fit_height` both ways (0 x 0: no
 * limit) is decoded reduced, as its rows arrive, by the largest whole
 * factor that keeps it at least that size: each pixel the mean of a box of
 * the picture's (colours weighted by alpha; the last columns and rows that
 * do not fill a box left out), so memory is only ever the reduced picture's.
 * `library` names the shared library to load (NULL for the standard one).
 * On failure, `message` (of `message_size` bytes) says why in one line.
 */
int graphics_decode_picture(int kind, const unsigned char *bytes, size_t size, uint64_t max_pixels, uint32_t fit_width,
                            uint32_t fit_height, const char *library, uint32_t *width, uint32_t *height, unsigned char **pixels,
                            char *message, size_t message_size);

/** A font face at one pixel size, with FreeType's library. Opaque. */
typedef struct graphics_font graphics_font;

/**
 * Opens the font file at `path` (face 0) at `pixel_height` pixels an em, with
 * FreeType loaded from `library` (NULL: libfreetype.so.6). NULL on failure,
 * with `message` saying why.
 */
graphics_font *graphics_font_open(const char *path, double pixel_height, const char *library, char *message, size_t message_size);

/** The face's ascender and descender (below the baseline: negative) and line height, in pixels. */
void graphics_font_metrics(const graphics_font *font, double *ascender, double *descender, double *line_height);

/** A glyph rendered to 8-bit coverage. */
typedef struct {
    /** The bitmap's left edge from the pen, and its top above the baseline, in pixels. */
    int32_t left, top;
    uint32_t width, rows;
    /** Bytes from one row to the next. */
    int32_t pitch;
    /** width x rows coverage values, 0 to 255; valid until the next call on this font. */
    const unsigned char *coverage;
    /** How far the pen moves, in pixels (fractional, for hinting-free layout). */
    double advance;
    /** The glyph's index in the face (0: the face has no glyph for the character). */
    uint32_t index;
} graphics_glyph;

/** Renders the glyph of Unicode `codepoint`, anti-aliased. 0 on success. */
int graphics_font_render(graphics_font *font, uint32_t codepoint, graphics_glyph *glyph);

/** The kerning between two glyph indices, in pixels (0 when the face has none). */
double graphics_font_kerning(graphics_font *font, uint32_t left_index, uint32_t right_index);

void graphics_font_close(graphics_font *font);

/**
 * The file fontconfig (loaded from `library`, NULL: libfontconfig.so.1)
 * matches best to `pattern` (a family name, "DejaVu Sans"), copied into
 * `path`, and that font's family into `family` (fontconfig always offers
 * something: compare). 0 on success; -1 when fontconfig is missing or matches nothing.
 */
int graphics_font_find(const char *pattern, const char *library, char *path, size_t path_size, char *family, size_t family_size);

#endif
