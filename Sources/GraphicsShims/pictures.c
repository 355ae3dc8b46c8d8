/* PNG through libpng16 and JPEG through libjpeg (62), both
 * loaded at run time; their records are laid out in layouts.h. */
#include "graphics_shims.h"
#include "layouts.h"
#include "say.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A handle per library name, opened once (a library stays loaded for the process's life). */
static void *open_library(const char *name) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct { char name[256]; void *handle; } opened[8];
    static int count;
    void *handle = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < count; i++) if (strcmp(opened[i].name, name) == 0) { handle = opened[i].handle; goto done; }
    handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle && count < 8 && strlen(name) < sizeof opened[0].name) {
        strcpy(opened[count].name, name);
        opened[count++].handle = handle;
    }
done:
    pthread_mutex_unlock(&lock);
    return handle;
}

/* ---- Reducing as rows arrive -------------------------------------------- */

/* The whole factor a w x h picture can be reduced by and still be at least
 * fit_w x fit_h (1: none; fit 0 x 0: no limit). */
static uint32_t reduction(uint32_t w, uint32_t h, uint32_t fit_w, uint32_t fit_h) {
    if (!fit_w || !fit_h || w < 2 * fit_w || h < 2 * fit_h) return 1;
    uint32_t a = w / fit_w, b = h / fit_h;
    return a < b ? a : b;
}

/* Rows of straight RGBA in, rows f times smaller out: each output pixel the
 * mean of an f x f box (colours weighted by alpha); the last w mod f columns
 * and h mod f rows are left out. */
typedef struct {
    uint32_t f, out_w, out_h, filled, out_row;
    uint64_t *sums;
    /* The reduced picture, and a row of the full one to read into. */
    unsigned char *out, *row;
} reducer;

static void reducer_free(reducer *r) {
    if (!r) return;
    free(r->sums);
    free(r->out);
    free(r->row);
    free(r);
}

/* A reducer of a w x h picture by f; NULL without the memory. */
static reducer *reducer_new(uint32_t w, uint32_t h, uint32_t f) {
    reducer *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->f = f;
    r->out_w = w / f;
    r->out_h = h / f;
    r->sums = calloc((size_t)r->out_w * 4 + 4, sizeof *r->sums);
    r->out = malloc((size_t)r->out_w * r->out_h * 4 + 4);
    r->row = malloc((size_t)w * 4 + 4);
    if (!r->sums || !r->out || !r->row) {
        reducer_free(r);
        return NULL;
    }
    return r;
}

static void reduce_row(reducer *r, const unsigned char *row) {
    if (r->out_row >= r->out_h) return;
    for (uint32_t x = 0; x < r->out_w * r->f; x++) {
        const unsigned char *p = row + (size_t)x * 4;
        uint64_t *s = r->sums + (size_t)(x / r->f) * 4;
        unsigned a = p[3];
        s[0] += p[0] * a;
        s[1] += p[1] * a;
        s[2] += p[2] * a;
        s[3] += a;
    }
    if (++r->filled < r->f) return;
    unsigned char *o = r->out + (size_t)r->out_row * r->out_w * 4;
    uint64_t n = (uint64_t)r->f * r->f;
    for (uint32_t x = 0; x < r->out_w; x++) {
        uint64_t *s = r->sums + (size_t)x * 4, a = s[3];
        for (int c = 0; c < 3; c++) o[x * 4 + c] = a ? (unsigned char)((s[c] + a / 2) / a) : 0;
        o[x * 4 + 3] = (unsigned char)((a + n / 2) / n);
        s[0] = s[1] = s[2] = s[3] = 0;
    }
    r->filled = 0;
    r->out_row++;
}

/* Hands the reduced picture over: the caller frees it. */
static void reducer_take(reducer *r, uint32_t *width, uint32_t *height, unsigned char **pixels) {
    *width = r->out_w;
    *height = r->out_h;
    *pixels = r->out;
    r->out = NULL;
}

/* ---- PNG ---------------------------------------------------------------- */

/* libpng's own reading API (its simplified API misreads interlaced 16-bit
 * pictures in 1.6.39, Debian 12's): its errors longjmp back here. */
static struct {
    void *(*create)(const char *, void *, void (*)(void *, const char *), void (*)(void *, const char *));
    void *(*create_info)(void *);
    void (*destroy)(void **, void **, void **);
    void (*set_read_fn)(void *, void *, void (*)(void *, unsigned char *, size_t));
    void *(*get_io_ptr)(void *);
    void *(*get_error_ptr)(void *);
    void (*read_info)(void *, void *);
    uint32_t (*get_image_width)(void *, void *);
    uint32_t (*get_image_height)(void *, void *);
    unsigned char (*get_color_type)(void *, void *);
    unsigned char (*get_bit_depth)(void *, void *);
    uint32_t (*get_valid)(void *, void *, uint32_t);
    void (*set_expand)(void *);
    void (*set_scale_16)(void *);
    void (*set_gray_to_rgb)(void *);
    void (*set_filler)(void *, uint32_t, int);
    int (*set_interlace_handling)(void *);
    void (*read_update_info)(void *, void *);
    void (*read_image)(void *, unsigned char **);
    void (*read_row)(void *, unsigned char *, unsigned char *);
    void (*read_end)(void *, void *);
} png;

typedef struct {
    jmp_buf jump;
    char message[200];
    const unsigned char *bytes;
    size_t size, at;
} png_session;

static void png_failed(void *ptr, const char *text) {
    png_session *s = png.get_error_ptr(ptr);
    snprintf(s->message, sizeof s->message, "%s", text ? text : "corrupt data");
    longjmp(s->jump, 1);
}

static void png_warned(void *ptr, const char *text) { (void)ptr; (void)text; }

static void png_read_bytes(void *ptr, unsigned char *out, size_t count) {
    png_session *s = png.get_io_ptr(ptr);
    if (count > s->size - s->at) png_failed(ptr, "the file ends early");
    memcpy(out, s->bytes + s->at, count);
    s->at += count;
}

/* Whether libpng is loaded, with every function found. */
static int png_loaded(const char *name) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static const char *loaded;
    pthread_mutex_lock(&lock);
    int ok = loaded && strcmp(loaded, name) == 0;
    void *lib = ok ? NULL : open_library(name);
    if (lib) {
#define FIND(field, symbol) *(void **)&png.field = dlsym(lib, symbol)
        FIND(create, "png_create_read_struct"); FIND(create_info, "png_create_info_struct");
        FIND(destroy, "png_destroy_read_struct"); FIND(set_read_fn, "png_set_read_fn");
        FIND(get_io_ptr, "png_get_io_ptr"); FIND(get_error_ptr, "png_get_error_ptr");
        FIND(read_info, "png_read_info"); FIND(get_image_width, "png_get_image_width");
        FIND(get_image_height, "png_get_image_height"); FIND(get_color_type, "png_get_color_type");
        FIND(get_bit_depth, "png_get_bit_depth"); FIND(get_valid, "png_get_valid");
        FIND(set_expand, "png_set_expand"); FIND(set_scale_16, "png_set_scale_16");
        FIND(set_gray_to_rgb, "png_set_gray_to_rgb"); FIND(set_filler, "png_set_filler");
        FIND(set_interlace_handling, "png_set_interlace_handling"); FIND(read_update_info, "png_read_update_info");
        FIND(read_image, "png_read_image"); FIND(read_row, "png_read_row"); FIND(read_end, "png_read_end");
#undef FIND
        void **table = (void **)&png;
        ok = 1;
        for (size_t k = 0; k < sizeof png / sizeof(void *); k++) ok = ok && table[k];
        loaded = ok ? name : NULL;
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

static int decode_png(const unsigned char *bytes, size_t size, uint64_t max_pixels, uint32_t fit_w, uint32_t fit_h, const char *library,
                      uint32_t *width, uint32_t *height, unsigned char **pixels, char *message, size_t message_size) {
    const char *name = library ? library : "libpng16.so.16";
    if (!png_loaded(name)) {
        const char *why = dlerror();
        say(message, message_size, "cannot load %s (%s)", name, why ? why : "it lacks libpng 1.6's functions");
        return GRAPHICS_NO_LIBRARY;
    }
    png_session *s = calloc(1, sizeof *s);
    if (!s) return GRAPHICS_NO_MEMORY;
    s->bytes = bytes;
    s->size = size;
    void *volatile ptr = png.create("1.6.0", s, png_failed, png_warned);
    void *volatile info = ptr ? png.create_info(ptr) : NULL;
    unsigned char *volatile out = NULL;
    unsigned char **volatile rows = NULL;
    reducer *volatile reduced = NULL;
    int status = GRAPHICS_OK;
    if (!ptr || !info) {
        say(message, message_size, "libpng did not start");
        status = GRAPHICS_NO_MEMORY;
        goto done;
    }
    if (setjmp(s->jump)) {
        say(message, message_size, "%s", s->message);
        status = GRAPHICS_CORRUPT;
        goto done;
    }
    png.set_read_fn(ptr, s, png_read_bytes);
    png.read_info(ptr, info);
    uint32_t w = png.get_image_width(ptr, info), h = png.get_image_height(ptr, info);
    if ((uint64_t)w * h > max_pixels) {
        say(message, message_size, "%u x %u pixels", w, h);
        status = GRAPHICS_TOO_LARGE;
        goto done;
    }
    /* Whatever it holds, read as 8-bit RGBA: palettes and low depths expanded, tRNS as alpha,
     * 16 bits scaled (rounded, not cut), grey made colour, opaque alpha added where there is none. */
    unsigned char type = png.get_color_type(ptr, info);
    png.set_expand(ptr);
    if (png.get_bit_depth(ptr, info) == 16) png.set_scale_16(ptr);
    if (!(type & PNG_COLOR_MASK_COLOR_)) png.set_gray_to_rgb(ptr);
    if (!(type & PNG_COLOR_MASK_ALPHA_) && !png.get_valid(ptr, info, PNG_INFO_tRNS_)) png.set_filler(ptr, 0xFF, PNG_FILLER_AFTER_);
    int passes = png.set_interlace_handling(ptr);
    png.read_update_info(ptr, info);
    uint32_t f = reduction(w, h, fit_w, fit_h);
    if (f > 1 && !(reduced = reducer_new(w, h, f))) {
        say(message, message_size, "no memory for %u x %u pixels", w / f, h / f);
        status = GRAPHICS_NO_MEMORY;
        goto done;
    }
    if (reduced && passes == 1) {
        /* Row by row into the reduction: the whole picture is never in memory. */
        for (uint32_t y = 0; y < h; y++) {
            png.read_row(ptr, reduced->row, NULL);
            reduce_row(reduced, reduced->row);
        }
        png.read_end(ptr, NULL);
        reducer_take(reduced, width, height, pixels);
        goto done;
    }
    out = malloc((size_t)w * h * 4);
    rows = malloc(sizeof *rows * (h ? h : 1));
    if (!out || !rows) {
        say(message, message_size, "no memory for %u x %u pixels", w, h);
        status = GRAPHICS_NO_MEMORY;
        goto done;
    }
    for (uint32_t y = 0; y < h; y++) rows[y] = out + (size_t)y * w * 4;
    png.read_image(ptr, rows);
    png.read_end(ptr, NULL);
    if (reduced) {
        /* Interlaced: its rows are whole only after the last pass, so reduced once read. */
        for (uint32_t y = 0; y < h; y++) reduce_row(reduced, rows[y]);
        reducer_take(reduced, width, height, pixels);
        goto done;
    }
    *width = w;
    *height = h;
    *pixels = out;
    out = NULL;
done:
    if (ptr) {
        void *p = ptr, *i = info;
        png.destroy(&p, i ? &i : NULL, NULL);
    }
    reducer_free(reduced);
    free(rows);
    free(out);
    free(s);
    return status;
}

/* ---- JPEG --------------------------------------------------------------- */

typedef struct {
    /* First, so that the library's cinfo pointer is this record's. */
    _Alignas(16) unsigned char cinfo[JPEG_DECOMPRESS_SIZE];
    _Alignas(16) unsigned char err[JPEG_ERROR_MGR_SIZE];
    jmp_buf jump;
    char warning[JMSG_LENGTH];
} jpeg_session;

typedef void (*jpeg_error_exit_fn)(void *);
typedef void (*jpeg_emit_message_fn)(void *, int);
typedef void (*jpeg_format_message_fn)(void *, char *);

static void jpeg_message(void *cinfo, char *buffer) {
    jpeg_session *s = cinfo;
    jpeg_format_message_fn format = FIELD(s->err, ERR_FORMAT_MESSAGE, jpeg_format_message_fn);
    format(cinfo, buffer);
}

static void jpeg_fail(void *cinfo) { longjmp(((jpeg_session *)cinfo)->jump, 1); }

/* Warnings (level -1: corrupt or truncated data the library papers over) are
 * kept and fail the decode; trace messages are dropped; nothing is printed. */
static void jpeg_emit(void *cinfo, int level) {
    jpeg_session *s = cinfo;
    if (level < 0 && !s->warning[0]) jpeg_message(cinfo, s->warning);
}

static void jpeg_output(void *cinfo) { (void)cinfo; }

/* Adobe's inverted CMYK, as Photoshop writes it, to RGBA: each channel times black. */
static void cmyk_to_rgba(unsigned char *row, uint32_t w) {
    for (uint32_t x = 0; x < w; x++) {
        unsigned char *px = row + (size_t)x * 4;
        unsigned k = px[3];
        px[0] = (unsigned char)((px[0] * k + 127) / 255);
        px[1] = (unsigned char)((px[1] * k + 127) / 255);
        px[2] = (unsigned char)((px[2] * k + 127) / 255);
        px[3] = 255;
    }
}

static int decode_jpeg(const unsigned char *bytes, size_t size, uint64_t max_pixels, uint32_t fit_w, uint32_t fit_h, const char *library,
                       uint32_t *width, uint32_t *height, unsigned char **pixels, char *message, size_t message_size) {
    const char *name = library ? library : "libjpeg.so.62";
    void *lib = open_library(name);
    void *(*std_error)(void *) = lib ? dlsym(lib, "jpeg_std_error") : NULL;
    void (*create)(void *, int, size_t) = lib ? dlsym(lib, "jpeg_CreateDecompress") : NULL;
    void (*mem_src)(void *, const unsigned char *, unsigned long) = lib ? dlsym(lib, "jpeg_mem_src") : NULL;
    int (*read_header)(void *, int) = lib ? dlsym(lib, "jpeg_read_header") : NULL;
    int (*start)(void *) = lib ? dlsym(lib, "jpeg_start_decompress") : NULL;
    uint32_t (*read_scanlines)(void *, unsigned char **, uint32_t) = lib ? dlsym(lib, "jpeg_read_scanlines") : NULL;
    int (*finish)(void *) = lib ? dlsym(lib, "jpeg_finish_decompress") : NULL;
    void (*destroy)(void *) = lib ? dlsym(lib, "jpeg_destroy_decompress") : NULL;
    if (!std_error || !create || !mem_src || !read_header || !start || !read_scanlines || !finish || !destroy) {
        say(message, message_size, "cannot load %s (%s)", name, lib ? "it lacks jpeg_mem_src: not libjpeg-turbo" : dlerror());
        return GRAPHICS_NO_LIBRARY;
    }
    jpeg_session *s = calloc(1, sizeof *s);
    if (!s) return GRAPHICS_NO_MEMORY;
    unsigned char *volatile out = NULL;
    reducer *volatile reduced = NULL;
    volatile int created = 0;
    int status = GRAPHICS_OK;
    if (setjmp(s->jump)) {
        char text[JMSG_LENGTH] = "";
        jpeg_message(s, text);
        say(message, message_size, "%s", text);
        status = GRAPHICS_CORRUPT;
        goto done;
    }
    std_error(s->err);
    FIELD(s->err, ERR_ERROR_EXIT, jpeg_error_exit_fn) = jpeg_fail;
    FIELD(s->err, ERR_EMIT_MESSAGE, jpeg_emit_message_fn) = jpeg_emit;
    FIELD(s->err, ERR_OUTPUT_MESSAGE, jpeg_error_exit_fn) = jpeg_output;
    FIELD(s->cinfo, CINFO_ERR, void *) = s->err;
    create(s->cinfo, JPEG_LIB_VERSION_62, JPEG_DECOMPRESS_SIZE);
    created = 1;
    mem_src(s->cinfo, bytes, (unsigned long)size);
    if (read_header(s->cinfo, 1) != JPEG_HEADER_OK_) {
        say(message, message_size, "no image in the file");
        status = GRAPHICS_CORRUPT;
        goto done;
    }
    uint32_t w = FIELD(s->cinfo, CINFO_IMAGE_WIDTH, uint32_t), h = FIELD(s->cinfo, CINFO_IMAGE_HEIGHT, uint32_t);
    if ((uint64_t)w * h > max_pixels) {
        say(message, message_size, "%u x %u pixels", w, h);
        status = GRAPHICS_TOO_LARGE;
        goto done;
    }
    int space = FIELD(s->cinfo, CINFO_JPEG_COLOR_SPACE, int);
    int cmyk = space == JCS_CMYK_ || space == JCS_YCCK_;
    /* CMYK is read as the library gives it and converted below; everything else straight to RGBA. */
    FIELD(s->cinfo, CINFO_OUT_COLOR_SPACE, int) = cmyk ? JCS_CMYK_ : JCS_EXT_RGBA_;
    start(s->cinfo);
    w = FIELD(s->cinfo, CINFO_OUTPUT_WIDTH, uint32_t);
    h = FIELD(s->cinfo, CINFO_OUTPUT_HEIGHT, uint32_t);
    if (FIELD(s->cinfo, CINFO_OUTPUT_COMPONENTS, int) != 4) {
        say(message, message_size, "an unexpected %d components a pixel", FIELD(s->cinfo, CINFO_OUTPUT_COMPONENTS, int));
        status = GRAPHICS_CORRUPT;
        goto done;
    }
    /* Reduced, row by row into the reduction: the whole picture is never in memory. */
    uint32_t f = reduction(w, h, fit_w, fit_h);
    if (f > 1) {
        reduced = reducer_new(w, h, f);
    } else {
        out = malloc((size_t)w * h * 4);
    }
    if (!out && !reduced) {
        say(message, message_size, "no memory for %u x %u pixels", w, h);
        status = GRAPHICS_NO_MEMORY;
        goto done;
    }
    while (FIELD(s->cinfo, CINFO_OUTPUT_SCANLINE, uint32_t) < h) {
        unsigned char *row = reduced ? reduced->row : out + (size_t)FIELD(s->cinfo, CINFO_OUTPUT_SCANLINE, uint32_t) * w * 4;
        if (read_scanlines(s->cinfo, &row, 1) != 1) break;
        if (cmyk) cmyk_to_rgba(row, w);
        if (reduced) reduce_row(reduced, row);
    }
    finish(s->cinfo);
    if (s->warning[0]) {
        say(message, message_size, "%s", s->warning);
        status = GRAPHICS_CORRUPT;
        goto done;
    }
    if (reduced) {
        reducer_take(reduced, width, height, pixels);
        goto done;
    }
    *width = w;
    *height = h;
    *pixels = out;
    out = NULL;
done:
    if (created) destroy(s->cinfo);
    reducer_free(reduced);
    free(out);
    free(s);
    return status;
}

int graphics_decode_picture(int kind, const unsigned char *bytes, size_t size, uint64_t max_pixels, uint32_t fit_width,
                            uint32_t fit_height, const char *library, uint32_t *width, uint32_t *height, unsigned char **pixels,
                            char *message, size_t message_size) {
    *pixels = NULL;
    *width = *height = 0;
    if (kind == 'P') return decode_png(bytes, size, max_pixels, fit_width, fit_height, library, width, height, pixels, message, message_size);
    if (kind == 'J') return decode_jpeg(bytes, size, max_pixels, fit_width, fit_height, library, width, height, pixels, message, message_size);
    say(message, message_size, "not a PNG or JPEG");
    return GRAPHICS_CORRUPT;
}
