/* Hand-written: UTF-8 into the code units of a CPython str (strings.pxi,
 * decode_long_utf8; not in any standard). No Python API: callable without
 * the GIL.
 *
 * lxp_utf8_measure gives the number of code points of UTF-8 text and the
 * max_char PyUnicode_New needs for it (the str's kind comes from its
 * largest code point, read off the largest lead byte). lxp_utf8_to_ucs1,
 * _ucs2 and _ucs4 then write the code points into a str of that kind: 0,
 * or -1 when the text is not UTF-8 (a stray or missing continuation byte,
 * an overlong form, past U+10FFFF; lone surrogates are read, as Python's
 * "surrogatepass" reads them). The measure goes 16 bytes at a time with
 * SSE2 (part of every x86-64 CPU) whatever the text; the decoders take runs
 * of ASCII 16 bytes at a time with SSE2, 8 elsewhere.
 */
#ifndef LEXPY_UTF8_DECODE_H
#define LEXPY_UTF8_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define LXP_UTF8_SSE2 1
#endif

#define LXP_HIGH_BITS 0x8080808080808080ULL

/* The ASCII bytes from s[i] on, counted inside the block of LXP_BLOCK bytes
 * that starts there (16 with SSE2, 8 elsewhere): LXP_BLOCK when the whole
 * block is ASCII, the length of its ASCII prefix otherwise, and 0 when s[i]
 * is not ASCII or fewer than LXP_BLOCK bytes are left. A decoder widens the
 * whole block and moves on by the prefix, so that a text with a multi-byte
 * character every few words stays on the block path. */
#ifdef LXP_UTF8_SSE2
#define LXP_BLOCK 16
static inline size_t lxp_ascii_prefix(const uint8_t *s, size_t i, size_t n)
{
    unsigned mask;
    if (i + 16 > n)
        return 0;
    mask = (unsigned) _mm_movemask_epi8(_mm_loadu_si128((const __m128i *) (s + i)));
    return mask ? (size_t) __builtin_ctz(mask) : 16;
}
#else
#define LXP_BLOCK 8
static inline size_t lxp_ascii_prefix(const uint8_t *s, size_t i, size_t n)
{
    uint64_t w;
    size_t k = 0;
    if (i + 8 > n)
        return 0;
    memcpy(&w, s + i, 8);
    if (!(w & LXP_HIGH_BITS))
        return 8;
    while (s[i + k] < 0x80)
        k++;
    return k;
}
#endif

/* Widen `run` (LXP_BLOCK) bytes into code units: the block's ASCII prefix and
 * what follows it, which the decoder writes again. */
static inline void lxp_widen_ucs1(const uint8_t *s, uint8_t *out, size_t run)
{
    memcpy(out, s, run);
}

static inline void lxp_widen_ucs2(const uint8_t *s, uint16_t *out, size_t run)
{
#ifdef LXP_UTF8_SSE2
    if (run == 16) {
        __m128i v = _mm_loadu_si128((const __m128i *) s);
        __m128i zero = _mm_setzero_si128();
        _mm_storeu_si128((__m128i *) out, _mm_unpacklo_epi8(v, zero));
        _mm_storeu_si128((__m128i *) (out + 8), _mm_unpackhi_epi8(v, zero));
        return;
    }
#endif
    for (size_t k = 0; k < run; k++)
        out[k] = s[k];
}

static inline void lxp_widen_ucs4(const uint8_t *s, uint32_t *out, size_t run)
{
#ifdef LXP_UTF8_SSE2
    if (run == 16) {
        __m128i v = _mm_loadu_si128((const __m128i *) s);
        __m128i zero = _mm_setzero_si128();
        __m128i lo = _mm_unpacklo_epi8(v, zero), hi = _mm_unpackhi_epi8(v, zero);
        _mm_storeu_si128((__m128i *) out, _mm_unpacklo_epi16(lo, zero));
        _mm_storeu_si128((__m128i *) (out + 4), _mm_unpackhi_epi16(lo, zero));
        _mm_storeu_si128((__m128i *) (out + 8), _mm_unpacklo_epi16(hi, zero));
        _mm_storeu_si128((__m128i *) (out + 12), _mm_unpackhi_epi16(hi, zero));
        return;
    }
#endif
    for (size_t k = 0; k < run; k++)
        out[k] = s[k];
}

/* The code points of UTF-8 text are its bytes less its continuation bytes
 * (0x80-0xBF); the str's kind comes from its largest byte. With SSE2 both
 * go 32 bytes a step without a branch: each byte lane of `counts` counts up
 * to 255 blocks, then _mm_sad_epu8 adds the lanes up. */
static inline void lxp_utf8_measure(const uint8_t *s, size_t n,
                                    size_t *code_points, uint32_t *max_char)
{
    size_t i = 0, count = 0;
    uint8_t largest_byte = 0;
#ifdef LXP_UTF8_SSE2
    if (n >= 16) {
        const __m128i zero = _mm_setzero_si128();
        const __m128i lead_min = _mm_set1_epi8((char) 0xC0);   /* -64 signed */
        __m128i largest = zero;
        while (i + 16 <= n) {
            __m128i counts = zero, sums;
            size_t blocks;
            /* two blocks a step (a lane counts up to 2 * 127 + 1) */
            for (blocks = 0; blocks < 127 && i + 32 <= n; blocks++, i += 32) {
                __m128i v = _mm_loadu_si128((const __m128i *) (s + i));
                __m128i w = _mm_loadu_si128((const __m128i *) (s + i + 16));
                largest = _mm_max_epu8(largest, _mm_max_epu8(v, w));
                /* 0x80-0xBF are the signed bytes below -64: -1 in their lanes */
                counts = _mm_sub_epi8(counts, _mm_cmpgt_epi8(lead_min, v));
                counts = _mm_sub_epi8(counts, _mm_cmpgt_epi8(lead_min, w));
            }
            if (i + 32 > n && i + 16 <= n) {
                __m128i v = _mm_loadu_si128((const __m128i *) (s + i));
                largest = _mm_max_epu8(largest, v);
                counts = _mm_sub_epi8(counts, _mm_cmpgt_epi8(lead_min, v));
                i += 16;
            }
            sums = _mm_sad_epu8(counts, zero);
            count += (size_t) _mm_cvtsi128_si32(sums)
                + (size_t) _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
        }
        largest = _mm_max_epu8(largest, _mm_srli_si128(largest, 8));
        largest = _mm_max_epu8(largest, _mm_srli_si128(largest, 4));
        largest = _mm_max_epu8(largest, _mm_srli_si128(largest, 2));
        largest = _mm_max_epu8(largest, _mm_srli_si128(largest, 1));
        largest_byte = (uint8_t) _mm_cvtsi128_si32(largest);
    }
#endif
    /* the rest 8 bytes a step where they are ASCII (no continuation byte,
     * and no byte that would change the str's kind) */
    while (i < n) {
        size_t end = i + 1;
        if (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (!(w & LXP_HIGH_BITS)) {
                i += 8;
                continue;
            }
            end = i + 8;
        }
        for (; i < end; i++) {
            uint8_t c = s[i];
            count += (c & 0xC0) == 0x80;
            if (c > largest_byte)
                largest_byte = c;
        }
    }
    *code_points = n - count;
    *max_char = largest_byte < 0x80 ? 127 : largest_byte < 0xC4 ? 255
        : largest_byte < 0xF0 ? 0xFFFF : 0x10FFFF;
}

#define LXP_IS_CONTINUATION(c) (((c) & 0xC0) == 0x80)

/* After a whole block of ASCII: more of it, two blocks a step while both
 * are ASCII (one test for the two), the way long runs of markup and text
 * go. Only after a whole block, so that text with a multi-byte character
 * every few bytes does not pay for a test that fails. */
#ifdef LXP_UTF8_SSE2
#define LXP_WIDEN_ASCII_RUNS(s, n, i, out, count, j, WIDEN)                    \
    while (i + 32 <= n && j + 32 <= count) {                                   \
        __m128i a = _mm_loadu_si128((const __m128i *) (s + i));                \
        __m128i b = _mm_loadu_si128((const __m128i *) (s + i + 16));           \
        if (_mm_movemask_epi8(_mm_or_si128(a, b)))                             \
            break;                                                             \
        WIDEN(s + i, out + j, 16);                                             \
        WIDEN(s + i + 16, out + j + 16, 16);                                   \
        i += 32;                                                               \
        j += 32;                                                               \
    }
#else
#define LXP_WIDEN_ASCII_RUNS(s, n, i, out, count, j, WIDEN) ((void) 0)
#endif

#define LXP_DEFINE_UTF8_TO(NAME, UNIT, WIDEN, LIMIT)                           \
static inline int NAME(const uint8_t *s, size_t n, UNIT *out, size_t count)    \
{                                                                              \
    size_t i = 0, j = 0;                                                       \
    while (i < n) {                                                            \
        uint32_t c;                                                            \
        size_t run = lxp_ascii_prefix(s, i, n);                                \
        if (run && j + LXP_BLOCK <= count) {                                   \
            WIDEN(s + i, out + j, LXP_BLOCK);                                  \
            i += run;                                                          \
            j += run;                                                          \
            if (run == LXP_BLOCK)                                              \
                LXP_WIDEN_ASCII_RUNS(s, n, i, out, count, j, WIDEN);           \
            continue;                                                          \
        }                                                                      \
        c = s[i];                                                              \
        if (c < 0x80) {                                                        \
            /* the text's last bytes, or the str's last units */               \
            if (j >= count)                                                    \
                return -1;                                                     \
            out[j++] = (UNIT) c;                                               \
            i += 1;                                                            \
            continue;                                                          \
        } else if (c < 0xC2) {                                                 \
            return -1;                                                         \
        } else if (c < 0xE0) {                                                 \
            if (i + 1 >= n || !LXP_IS_CONTINUATION(s[i + 1]))                  \
                return -1;                                                     \
            c = ((c & 0x1F) << 6) | (s[i + 1] & 0x3F);                         \
            i += 2;                                                            \
        } else if (c < 0xF0) {                                                 \
            if (i + 2 >= n || !LXP_IS_CONTINUATION(s[i + 1])                   \
                    || !LXP_IS_CONTINUATION(s[i + 2]))                         \
                return -1;                                                     \
            c = ((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6)                  \
                | (s[i + 2] & 0x3F);                                           \
            if (c < 0x800)                                                     \
                return -1;                                                     \
            i += 3;                                                            \
        } else if (c < 0xF5) {                                                 \
            if (i + 3 >= n || !LXP_IS_CONTINUATION(s[i + 1])                   \
                    || !LXP_IS_CONTINUATION(s[i + 2])                          \
                    || !LXP_IS_CONTINUATION(s[i + 3]))                         \
                return -1;                                                     \
            c = ((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12)                 \
                | ((s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);                \
            if (c < 0x10000 || c > 0x10FFFF)                                   \
                return -1;                                                     \
            i += 4;                                                            \
        } else {                                                               \
            return -1;                                                         \
        }                                                                      \
        /* one lead byte per code point: j stays below count */                \
        if (c > (LIMIT) || j >= count)                                         \
            return -1;                                                         \
        out[j++] = (UNIT) c;                                                   \
    }                                                                          \
    return j == count ? 0 : -1;                                                \
}

LXP_DEFINE_UTF8_TO(lxp_utf8_to_ucs1, uint8_t, lxp_widen_ucs1, 0xFF)
LXP_DEFINE_UTF8_TO(lxp_utf8_to_ucs2, uint16_t, lxp_widen_ucs2, 0xFFFF)
LXP_DEFINE_UTF8_TO(lxp_utf8_to_ucs4, uint32_t, lxp_widen_ucs4, 0x10FFFF)

#endif
