/* Type through FreeType and fontconfig, both loaded at run time; FreeType's
 * face and glyph-slot records, public and stable, are laid out in layouts.h. */
#include "graphics_shims.h"
#include "layouts.h"
#include "say.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct graphics_font {
    void *library, *face;
    int (*done_face)(void *);
    int (*done_library)(void *);
    unsigned (*char_index)(void *, unsigned long);
    int (*load_glyph)(void *, unsigned, int32_t);
    int (*get_kerning)(void *, unsigned, unsigned, unsigned, long *);
};

graphics_font *graphics_font_open(const char *path, double pixel_height, const char *library, char *message, size_t message_size) {
    const char *name = library ? library : "libfreetype.so.6";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        say(message, message_size, "cannot load %s (%s)", name, dlerror());
        return NULL;
    }
    int (*init)(void **) = dlsym(lib, "FT_Init_FreeType");
    int (*new_face)(void *, const char *, long, void **) = dlsym(lib, "FT_New_Face");
    int (*char_size)(void *, long, long, unsigned, unsigned) = dlsym(lib, "FT_Set_Char_Size");
    graphics_font font = {
        .done_face = dlsym(lib, "FT_Done_Face"), .done_library = dlsym(lib, "FT_Done_FreeType"),
        .char_index = dlsym(lib, "FT_Get_Char_Index"), .load_glyph = dlsym(lib, "FT_Load_Glyph"),
        .get_kerning = dlsym(lib, "FT_Get_Kerning"),
    };
    if (!init || !new_face || !char_size || !font.done_face || !font.done_library || !font.char_index || !font.load_glyph ||
        !font.get_kerning) {
        say(message, message_size, "%s lacks FreeType's functions", name);
        return NULL;
    }
    int error = init(&font.library);
    if (error) {
        say(message, message_size, "FreeType did not start (error %d)", error);
        return NULL;
    }
    if ((error = new_face(font.library, path, 0, &font.face)) != 0) {
        say(message, message_size, "not a font FreeType reads (FreeType error %d)", error);
        font.done_library(font.library);
        return NULL;
    }
    /* The height in 26.6 points at 72 dpi: pixels, fractions kept. */
    if ((error = char_size(font.face, 0, (long)(pixel_height * 64 + 0.5), 72, 72)) != 0) {
        say(message, message_size, "cannot size the font to %.1f pixels (FreeType error %d)", pixel_height, error);
        font.done_face(font.face);
        font.done_library(font.library);
        return NULL;
    }
    graphics_font *made = malloc(sizeof *made);
    if (!made) {
        font.done_face(font.face);
        font.done_library(font.library);
        return NULL;
    }
    *made = font;
    return made;
}

void graphics_font_metrics(const graphics_font *font, double *ascender, double *descender, double *line_height) {
    void *size = FIELD(font->face, FACE_SIZE, void *);
    *ascender = FIELD(size, SIZE_METRICS + METRICS_ASCENDER, long) / 64.0;
    *descender = FIELD(size, SIZE_METRICS + METRICS_DESCENDER, long) / 64.0;
    *line_height = FIELD(size, SIZE_METRICS + METRICS_HEIGHT, long) / 64.0;
}

int graphics_font_render(graphics_font *font, uint32_t codepoint, graphics_glyph *glyph) {
    memset(glyph, 0, sizeof *glyph);
    glyph->index = font->char_index(font->face, codepoint);
    if (font->load_glyph(font->face, glyph->index, FT_LOAD_RENDER_ | FT_LOAD_TARGET_LIGHT_) != 0) return -1;
    void *slot = FIELD(font->face, FACE_GLYPH, void *);
    unsigned char *bitmap = (unsigned char *)slot + SLOT_BITMAP;
    if (FIELD(bitmap, BITMAP_PIXEL_MODE, unsigned char) != FT_PIXEL_MODE_GRAY_ && FIELD(bitmap, BITMAP_ROWS, uint32_t) != 0) return -1;
    glyph->left = FIELD(slot, SLOT_BITMAP_LEFT, int32_t);
    glyph->top = FIELD(slot, SLOT_BITMAP_TOP, int32_t);
    glyph->rows = FIELD(bitmap, BITMAP_ROWS, uint32_t);
    glyph->width = FIELD(bitmap, BITMAP_WIDTH, uint32_t);
    glyph->pitch = FIELD(bitmap, BITMAP_PITCH, int32_t);
    glyph->coverage = FIELD(bitmap, BITMAP_BUFFER, const unsigned char *);
    /* The unhinted advance (16.16), so that text keeps its proportions at every size. */
    glyph->advance = FIELD(slot, SLOT_LINEAR_HORI_ADVANCE, long) / 65536.0;
    return 0;
}

double graphics_font_kerning(graphics_font *font, uint32_t left_index, uint32_t right_index) {
    if (!(FIELD(font->face, FACE_FLAGS, long) & FT_FACE_FLAG_KERNING_) || !left_index || !right_index) return 0;
    long delta[2] = {0, 0};
    if (font->get_kerning(font->face, left_index, right_index, FT_KERNING_UNFITTED_, delta) != 0) return 0;
    return delta[0] / 64.0;
}

void graphics_font_close(graphics_font *font) {
    if (!font) return;
    font->done_face(font->face);
    font->done_library(font->library);
    free(font);
}

int graphics_font_find(const char *pattern, const char *library, char *path, size_t path_size, char *family, size_t family_size) {
    void *lib = dlopen(library ? library : "libfontconfig.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return -1;
    void *(*load)(void) = dlsym(lib, "FcInitLoadConfigAndFonts");
    void *(*parse)(const char *) = dlsym(lib, "FcNameParse");
    int (*substitute)(void *, void *, int) = dlsym(lib, "FcConfigSubstitute");
    void (*defaults)(void *) = dlsym(lib, "FcDefaultSubstitute");
    void *(*match)(void *, void *, int *) = dlsym(lib, "FcFontMatch");
    int (*get_string)(void *, const char *, int, const char **) = dlsym(lib, "FcPatternGetString");
    void (*destroy)(void *) = dlsym(lib, "FcPatternDestroy");
    void (*config_destroy)(void *) = dlsym(lib, "FcConfigDestroy");
    if (!load || !parse || !substitute || !defaults || !match || !get_string || !destroy || !config_destroy) return -1;
    void *config = load();
    if (!config) return -1;
    int found = -1;
    void *wanted = parse(pattern);
    if (wanted) {
        substitute(config, wanted, 0 /* FcMatchPattern */);
        defaults(wanted);
        int result = 0;
        void *best = match(config, wanted, &result);
        const char *file = NULL, *name = NULL;
        if (best && get_string(best, "file", 0, &file) == 0 /* FcResultMatch */ && file && strlen(file) < path_size) {
            strcpy(path, file);
            found = 0;
            if (family_size > 0) {
                family[0] = 0;
                if (get_string(best, "family", 0, &name) == 0 && name) snprintf(family, family_size, "%s", name);
            }
        }
        if (best) destroy(best);
        destroy(wanted);
    }
    config_destroy(config);
    return found;
}
