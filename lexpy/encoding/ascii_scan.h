/* Hand-written: the length of the ASCII prefix of bytes (UTF-8 validation,
 * utf8.pxi; the autodetection's ASCII count), 32 bytes a step with SSE2
 * (part of every x86-64 CPU): the first byte >= 0x80 is found by its
 * position in the block's mask, not by a byte loop. Elsewhere 16 bytes a
 * step as two words, then a byte loop. Not in any standard.
 */
#ifndef LEXPY_ASCII_SCAN_H
#define LEXPY_ASCII_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define LXP_ASCII_SSE2 1
#endif

static inline size_t lxp_ascii_prefix_length(const uint8_t *s, size_t n)
{
    size_t i = 0;
#ifdef LXP_ASCII_SSE2
    unsigned int mask;
    while (n - i >= 32) {
        __m128i a = _mm_loadu_si128((const __m128i *) (s + i));
        __m128i b = _mm_loadu_si128((const __m128i *) (s + i + 16));
        if (_mm_movemask_epi8(_mm_or_si128(a, b))) {
            mask = (unsigned int) _mm_movemask_epi8(a)
                | (unsigned int) _mm_movemask_epi8(b) << 16;
            return i + (size_t) __builtin_ctz(mask);
        }
        i += 32;
    }
    if (n - i >= 16) {
        mask = (unsigned int) _mm_movemask_epi8(_mm_loadu_si128((const __m128i *) (s + i)));
        if (mask)
            return i + (size_t) __builtin_ctz(mask);
        i += 16;
    }
    if (n - i >= 8) {
        /* the upper 8 lanes are zeros */
        mask = (unsigned int) _mm_movemask_epi8(_mm_loadl_epi64((const __m128i *) (s + i)));
        if (mask)
            return i + (size_t) __builtin_ctz(mask);
        i += 8;
    }
#else
    uint64_t a, b;
    while (n - i >= 16) {
        memcpy(&a, s + i, 8);
        memcpy(&b, s + i + 8, 8);
        if ((a | b) & 0x8080808080808080ULL)
            break;
        i += 16;
    }
#endif
    while (i < n && s[i] < 0x80)
        i++;
    return i;
}

#endif
