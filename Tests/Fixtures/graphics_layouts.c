/* Checks GraphicsShims' layouts.h against the real headers of libpng,
 * libjpeg and FreeType (Debian: libpng-dev, libjpeg62-turbo-dev,
 * libfreetype-dev). Compiles only when every value matches. */
#include <stddef.h>
#include <stdio.h>
#include <png.h>
#include <jpeglib.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include "layouts.h"

#define SAME(a, b) _Static_assert((a) == (b), #a " is " #b)

SAME(PNG_COLOR_MASK_COLOR_, PNG_COLOR_MASK_COLOR);
SAME(PNG_COLOR_MASK_ALPHA_, PNG_COLOR_MASK_ALPHA);
SAME(PNG_INFO_tRNS_, PNG_INFO_tRNS);
SAME(PNG_FILLER_AFTER_, PNG_FILLER_AFTER);

SAME(JPEG_DECOMPRESS_SIZE, sizeof(struct jpeg_decompress_struct));
SAME(JPEG_ERROR_MGR_SIZE, sizeof(struct jpeg_error_mgr));
SAME(JPEG_LIB_VERSION_62, JPEG_LIB_VERSION);
SAME(CINFO_ERR, offsetof(struct jpeg_decompress_struct, err));
SAME(CINFO_IMAGE_WIDTH, offsetof(struct jpeg_decompress_struct, image_width));
SAME(CINFO_IMAGE_HEIGHT, offsetof(struct jpeg_decompress_struct, image_height));
SAME(CINFO_JPEG_COLOR_SPACE, offsetof(struct jpeg_decompress_struct, jpeg_color_space));
SAME(CINFO_OUT_COLOR_SPACE, offsetof(struct jpeg_decompress_struct, out_color_space));
SAME(CINFO_OUTPUT_WIDTH, offsetof(struct jpeg_decompress_struct, output_width));
SAME(CINFO_OUTPUT_HEIGHT, offsetof(struct jpeg_decompress_struct, output_height));
SAME(CINFO_OUTPUT_COMPONENTS, offsetof(struct jpeg_decompress_struct, output_components));
SAME(CINFO_OUTPUT_SCANLINE, offsetof(struct jpeg_decompress_struct, output_scanline));
SAME(ERR_ERROR_EXIT, offsetof(struct jpeg_error_mgr, error_exit));
SAME(ERR_EMIT_MESSAGE, offsetof(struct jpeg_error_mgr, emit_message));
SAME(ERR_OUTPUT_MESSAGE, offsetof(struct jpeg_error_mgr, output_message));
SAME(ERR_FORMAT_MESSAGE, offsetof(struct jpeg_error_mgr, format_message));
SAME(JCS_CMYK_, JCS_CMYK);
SAME(JCS_YCCK_, JCS_YCCK);
SAME(JCS_EXT_RGBA_, JCS_EXT_RGBA);
SAME(JPEG_HEADER_OK_, JPEG_HEADER_OK);
SAME(JMSG_LENGTH, JMSG_LENGTH_MAX);

SAME(FACE_FLAGS, offsetof(FT_FaceRec, face_flags));
SAME(FACE_GLYPH, offsetof(FT_FaceRec, glyph));
SAME(FACE_SIZE, offsetof(FT_FaceRec, size));
SAME(SIZE_METRICS, offsetof(FT_SizeRec, metrics));
SAME(METRICS_ASCENDER, offsetof(FT_Size_Metrics, ascender));
SAME(METRICS_DESCENDER, offsetof(FT_Size_Metrics, descender));
SAME(METRICS_HEIGHT, offsetof(FT_Size_Metrics, height));
SAME(SLOT_LINEAR_HORI_ADVANCE, offsetof(FT_GlyphSlotRec, linearHoriAdvance));
SAME(SLOT_BITMAP, offsetof(FT_GlyphSlotRec, bitmap));
SAME(SLOT_BITMAP_LEFT, offsetof(FT_GlyphSlotRec, bitmap_left));
SAME(SLOT_BITMAP_TOP, offsetof(FT_GlyphSlotRec, bitmap_top));
SAME(BITMAP_ROWS, offsetof(FT_Bitmap, rows));
SAME(BITMAP_WIDTH, offsetof(FT_Bitmap, width));
SAME(BITMAP_PITCH, offsetof(FT_Bitmap, pitch));
SAME(BITMAP_BUFFER, offsetof(FT_Bitmap, buffer));
SAME(BITMAP_PIXEL_MODE, offsetof(FT_Bitmap, pixel_mode));
SAME(FT_FACE_FLAG_KERNING_, FT_FACE_FLAG_KERNING);
SAME(FT_LOAD_RENDER_, FT_LOAD_RENDER);
SAME(FT_LOAD_TARGET_LIGHT_, FT_LOAD_TARGET_LIGHT);
SAME(FT_PIXEL_MODE_GRAY_, FT_PIXEL_MODE_GRAY);
SAME(FT_KERNING_UNFITTED_, FT_KERNING_UNFITTED);

int main(void) { puts("layouts match"); return 0; }
