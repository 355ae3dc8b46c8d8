/* The records of libpng, libjpeg and FreeType that GraphicsShims hands to
 * them or reads, by size and offset (and the constants it passes), as their ABIs lay them out on LP64
 * systems (x86-64, AArch64). Segue builds without the libraries'
 * development files; where they are installed, the tests compile
 * Tests/Fixtures/graphics_layouts.c, which checks every value here against
 * the real headers. */
#ifndef GRAPHICS_LAYOUTS_H
#define GRAPHICS_LAYOUTS_H
#include <stdint.h>

_Static_assert(sizeof(void *) == 8, "the library records are laid out for LP64 systems");

/* libpng's colour-type bits, valid-chunk flag and filler place (png.h). */
enum { PNG_COLOR_MASK_COLOR_ = 2, PNG_COLOR_MASK_ALPHA_ = 4, PNG_INFO_tRNS_ = 0x10, PNG_FILLER_AFTER_ = 1 };

/* jpeg_decompress_struct and jpeg_error_mgr (JPEG_LIB_VERSION 62). */
enum {
    JPEG_DECOMPRESS_SIZE = 632, JPEG_ERROR_MGR_SIZE = 168, JPEG_LIB_VERSION_62 = 62,
    CINFO_ERR = 0, CINFO_IMAGE_WIDTH = 48, CINFO_IMAGE_HEIGHT = 52, CINFO_JPEG_COLOR_SPACE = 60,
    CINFO_OUT_COLOR_SPACE = 64, CINFO_OUTPUT_WIDTH = 136, CINFO_OUTPUT_HEIGHT = 140,
    CINFO_OUTPUT_COMPONENTS = 148, CINFO_OUTPUT_SCANLINE = 168,
    ERR_ERROR_EXIT = 0, ERR_EMIT_MESSAGE = 8, ERR_OUTPUT_MESSAGE = 16, ERR_FORMAT_MESSAGE = 24,
    JCS_CMYK_ = 4, JCS_YCCK_ = 5, JCS_EXT_RGBA_ = 12, JPEG_HEADER_OK_ = 1, JMSG_LENGTH = 200,
};

/* FT_FaceRec, FT_SizeRec, FT_GlyphSlotRec and FT_Bitmap (FreeType 2). */
enum {
    FACE_FLAGS = 16, FACE_GLYPH = 152, FACE_SIZE = 160,
    SIZE_METRICS = 24, METRICS_ASCENDER = 24, METRICS_DESCENDER = 32, METRICS_HEIGHT = 40,
    SLOT_LINEAR_HORI_ADVANCE = 112, SLOT_BITMAP = 152, SLOT_BITMAP_LEFT = 192, SLOT_BITMAP_TOP = 196,
    BITMAP_ROWS = 0, BITMAP_WIDTH = 4, BITMAP_PITCH = 8, BITMAP_BUFFER = 16, BITMAP_PIXEL_MODE = 26,
    FT_FACE_FLAG_KERNING_ = 1 << 6, FT_LOAD_RENDER_ = 1 << 2, FT_LOAD_TARGET_LIGHT_ = 1 << 16,
    FT_PIXEL_MODE_GRAY_ = 2, FT_KERNING_UNFITTED_ = 1,
};

/* A field of a record at a byte offset. */
#define FIELD(base, offset, type) (*(type *)((unsigned char *)(base) + (offset)))

#endif
