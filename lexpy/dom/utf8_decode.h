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
 * "surrogatepass" reads them). Runs of ASCII go 16 bytes at a time with
 * SSE2 (part of every x86-64 CPU), 8 elsewhere.
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

/* Whether s[i:i+16] is ASCII (SSE2), else whether s[i:i+8] is; the number
 * of bytes it checked (0: not ASCII, or too close to the end). */
static inline size_t lxp_ascii_run(const uint8_t *s, size_t i, size_t n)
{
#ifdef LXP_UTF8_SSE2
    if (i + 16 <= n) {
        __m128i v = _mm_loadu_si128((const __m128i *) (s + i));
        return _mm_movemask_epi8(v) ? 0 : 16;
    }
#endif
    if (i + 8 <= n) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        return (w & LXP_HIGH_BITS) ? 0 : 8;
    }
    return 0;
}

/* Widen `run` (8 or 16) ASCII bytes into code units. */
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

static inline void lxp_utf8_measure(const uint8_t *s, size_t n,
                                    size_t *code_points, uint32_t *max_char)
{
    size_t i = 0, continuations = 0;
    uint8_t top = 0;
    while (i < n) {
        size_t run = lxp_ascii_run(s, i, n);
        if (run) {
            i += run;
            continue;
        }
        uint8_t c = s[i++];
        if ((c & 0xC0) == 0x80)
            continuations++;
        else if (c > top)
            top = c;
    }
    *code_points = n - continuations;
    *max_char = top < 0x80 ? 127 : top < 0xC4 ? 255 : top < 0xF0 ? 0xFFFF : 0x10FFFF;
}

#define LXP_IS_CONTINUATION(c) (((c) & 0xC0) == 0x80)

#define LXP_DEFINE_UTF8_TO(NAME, UNIT, WIDEN, LIMIT)                           \
static inline int NAME(const uint8_t *s, size_t n, UNIT *out, size_t count)    \
{                                                                              \
    size_t i = 0, j = 0;                                                       \
    while (i < n) {                                                            \
        uint32_t c;                                                            \
        size_t run = lxp_ascii_run(s, i, n);                                   \
        if (run && j + run <= count) {                                         \
            WIDEN(s + i, out + j, run);                                        \
            i += run;                                                          \
            j += run;                                                          \
            continue;                                                          \
        }                                                                      \
        c = s[i];                                                              \
        if (c < 0x80) {                                                        \
            i += 1;                                                            \
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
