// The renderer's innermost loops over rows of premultiplied RGBA words, in
// AVX2 where the processor has it (asked at run time), else SSE2 (every
// x86-64 has it), else in plain C with the same arithmetic: the same bytes
// every way.
//
// Scaling a channel by k / 255 rounds as `(t + (t >> 8)) >> 8` with
// t = c * k + 128, which equals (t * 257) >> 16 for every t a channel can
// reach: one high-half multiply per eight channels (pixman's way).

#include "graphics_shims.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Every channel of `p` times `k` / 255, rounded.
static inline uint32_t scaled(uint32_t p, uint32_t k) {
    uint32_t rb = (p & 0x00FF00FFu) * k + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t ag = ((p >> 8) & 0x00FF00FFu) * k + 0x00800080u;
    ag = (ag + ((ag >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
    return rb | ag;
}

/// `a` and `b` mixed by `f` / 256 towards `b`, rounded.
static inline uint32_t mixed(uint32_t a, uint32_t b, uint32_t f) {
    uint32_t g = 256 - f;
    uint32_t rb = (((a & 0x00FF00FFu) * g + (b & 0x00FF00FFu) * f + 0x00800080u) >> 8) & 0x00FF00FFu;
    uint32_t ag = (((a >> 8) & 0x00FF00FFu) * g + ((b >> 8) & 0x00FF00FFu) * f + 0x00800080u) & 0xFF00FF00u;
    return rb | ag;
}

#if defined(__SSE2__)
/// Eight channels (16-bit lanes) times `k` / 255, rounded.
static inline __m128i scaled16(__m128i c, __m128i k) {
    return _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(c, k), _mm_set1_epi16(0x80)), _mm_set1_epi16(0x0101));
}

/// Four words of `a` and `b` mixed by `f` (each word's weight in both of its
/// 16-bit lanes) towards `b`: red and blue in the low byte of each lane, then
/// green and alpha, so that no bytes need unpacking.
static inline __m128i mixed4(__m128i a, __m128i b, __m128i f) {
    const __m128i m = _mm_set1_epi32(0x00FF00FF), half = _mm_set1_epi16(0x80);
    __m128i g = _mm_sub_epi16(_mm_set1_epi16(256), f);
    __m128i rb = _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(a, m), g), _mm_mullo_epi16(_mm_and_si128(b, m), f)), half);
    __m128i ag = _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_srli_epi16(a, 8), g), _mm_mullo_epi16(_mm_srli_epi16(b, 8), f)), half);
    return _mm_or_si128(_mm_srli_epi16(rb, 8), _mm_andnot_si128(m, ag));
}
#endif

#if defined(__x86_64__)
#include <immintrin.h>

/// The AVX2 versions, eight words at a time: chosen at run time where the processor has AVX2.
__attribute__((target("avx2"))) static inline __m256i scaled16x2(__m256i c, __m256i k) {
    return _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(c, k), _mm256_set1_epi16(0x80)), _mm256_set1_epi16(0x0101));
}

__attribute__((target("avx2"))) static size_t over_color_avx2(uint32_t *words, uint32_t color, size_t count, uint32_t k) {
    const __m256i zero = _mm256_setzero_si256(), k16 = _mm256_set1_epi16((short)k), c = _mm256_set1_epi32((int)color);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(words + i));
        __m256i lo = scaled16x2(_mm256_unpacklo_epi8(x, zero), k16), hi = scaled16x2(_mm256_unpackhi_epi8(x, zero), k16);
        _mm256_storeu_si256((__m256i *)(words + i), _mm256_add_epi8(_mm256_packus_epi16(lo, hi), c));
    }
    return i;
}

__attribute__((target("avx2"))) static size_t blend_opaque_avx2(const uint32_t *source, size_t count, uint32_t k, uint32_t *out) {
    const __m256i zero = _mm256_setzero_si256(), k16 = _mm256_set1_epi16((short)k), rest16 = _mm256_set1_epi16((short)(255 - k));
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(source + i)), y = _mm256_loadu_si256((const __m256i *)(out + i));
        __m256i lo = _mm256_add_epi16(scaled16x2(_mm256_unpacklo_epi8(x, zero), k16), scaled16x2(_mm256_unpacklo_epi8(y, zero), rest16));
        __m256i hi = _mm256_add_epi16(scaled16x2(_mm256_unpackhi_epi8(x, zero), k16), scaled16x2(_mm256_unpackhi_epi8(y, zero), rest16));
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_packus_epi16(lo, hi));
    }
    return i;
}

__attribute__((target("avx2"))) static size_t mix_rows_avx2(const uint32_t *a, const uint32_t *b, size_t count, uint32_t f, const uint32_t *weights, uint32_t *out) {
    const __m256i m = _mm256_set1_epi32(0x00FF00FF), half = _mm256_set1_epi16(0x80), full = _mm256_set1_epi16(256);
    __m256i w = _mm256_set1_epi16((short)f);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        if (weights) {
            w = _mm256_loadu_si256((const __m256i *)(weights + i));
            w = _mm256_or_si256(w, _mm256_slli_epi32(w, 16));
        }
        __m256i x = _mm256_loadu_si256((const __m256i *)(a + i)), y = _mm256_loadu_si256((const __m256i *)(b + i));
        __m256i g = _mm256_sub_epi16(full, w);
        __m256i rb = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(x, m), g), _mm256_mullo_epi16(_mm256_and_si256(y, m), w)), half);
        __m256i ag = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(x, 8), g), _mm256_mullo_epi16(_mm256_srli_epi16(y, 8), w)), half);
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_or_si256(_mm256_srli_epi16(rb, 8), _mm256_andnot_si256(m, ag)));
    }
    return i;
}

/// Whether the processor has AVX2 (asked once).
static int has_avx2(void) {
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return known;
}
#else
static int has_avx2(void) { return 0; }
static size_t over_color_avx2(uint32_t *w, uint32_t c, size_t n, uint32_t k) { (void)w; (void)c; (void)n; (void)k; return 0; }
static size_t blend_opaque_avx2(const uint32_t *s, size_t n, uint32_t k, uint32_t *o) { (void)s; (void)n; (void)k; (void)o; return 0; }
static size_t mix_rows_avx2(const uint32_t *a, const uint32_t *b, size_t n, uint32_t f, const uint32_t *w, uint32_t *o) {
    (void)a; (void)b; (void)n; (void)f; (void)w; (void)o; return 0;
}
#endif

void graphics_over_color32(uint32_t *words, uint32_t color, size_t count) {
    uint32_t k = 255 - (color >> 24);
    size_t i = has_avx2() ? over_color_avx2(words, color, count, k) : 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), k16 = _mm_set1_epi16((short)k), c = _mm_set1_epi32((int)color);
    for (; i + 4 <= count; i += 4) {
        __m128i x = _mm_loadu_si128((const __m128i *)(words + i));
        __m128i lo = scaled16(_mm_unpacklo_epi8(x, zero), k16), hi = scaled16(_mm_unpackhi_epi8(x, zero), k16);
        _mm_storeu_si128((__m128i *)(words + i), _mm_add_epi8(_mm_packus_epi16(lo, hi), c));
    }
#endif
    for (; i < count; i++) words[i] = color + scaled(words[i], k);
}

void graphics_blend_opaque32(const uint32_t *source, size_t count, uint32_t k, uint32_t *out) {
    size_t i = has_avx2() ? blend_opaque_avx2(source, count, k, out) : 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), k16 = _mm_set1_epi16((short)k), rest16 = _mm_set1_epi16((short)(255 - k));
    for (; i + 4 <= count; i += 4) {
        __m128i x = _mm_loadu_si128((const __m128i *)(source + i)), y = _mm_loadu_si128((const __m128i *)(out + i));
        __m128i lo = _mm_add_epi16(scaled16(_mm_unpacklo_epi8(x, zero), k16), scaled16(_mm_unpacklo_epi8(y, zero), rest16));
        __m128i hi = _mm_add_epi16(scaled16(_mm_unpackhi_epi8(x, zero), k16), scaled16(_mm_unpackhi_epi8(y, zero), rest16));
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(lo, hi));
    }
#endif
    for (; i < count; i++) {
        uint32_t s = scaled(source[i], k);
        out[i] = s + scaled(out[i], 255 - (s >> 24));
    }
}

void graphics_mix_rows32(const void *a_, const void *b_, size_t count, uint32_t f, const uint32_t *weights, uint32_t *out) {
    const uint32_t *a = a_, *b = b_;
    size_t i = has_avx2() ? mix_rows_avx2(a, b, count, f, weights, out) : 0;
#if defined(__SSE2__)
    __m128i w = _mm_set1_epi16((short)f);
    for (; i + 4 <= count; i += 4) {
        if (weights) {
            w = _mm_loadu_si128((const __m128i *)(weights + i));
            w = _mm_or_si128(w, _mm_slli_epi32(w, 16));
        }
        __m128i x = _mm_loadu_si128((const __m128i *)(a + i)), y = _mm_loadu_si128((const __m128i *)(b + i));
        _mm_storeu_si128((__m128i *)(out + i), mixed4(x, y, w));
    }
#endif
    for (; i < count; i++) out[i] = mixed(a[i], b[i], weights ? weights[i] : f);
}
