/* Hand-written: the length of the ASCII prefix of bytes (UTF-8 validation,
 * utf8.pxi; the autodetection's ASCII count), 32 bytes a step with SSE2
 * (part of every x86-64 CPU): the first byte >= 0x80 is found by its
 * position in the block's mask, not by a byte loop. A prefix that goes on
 * past its first LXP_ASCII_IN_LINE bytes continues out of line 128 bytes a
 * step with AVX2 where the CPU has it (checked once, lxp_ascii_scan_init;
 * only that function is compiled for AVX2), up to the block that holds the
 * first byte >= 0x80, which the SSE2 loop then finds. Elsewhere 16 bytes a
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
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LXP_ASCII_AVX2 1
#endif
#endif

#ifdef LXP_ASCII_AVX2
/* The index of the first 128-byte block of s[i:n] with a byte >= 0x80, or
 * of the last n - i < 128 bytes: the rest is for the caller's SSE2 loop. */
__attribute__((target("avx2"), noinline))
static size_t lxp_ascii_prefix_long_avx2(const uint8_t *s, size_t i, size_t n)
{
    while (n - i >= 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *) (s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *) (s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *) (s + i + 64));
        __m256i d = _mm256_loadu_si256((const __m256i *) (s + i + 96));
        if (_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(a, b),
                                                 _mm256_or_si256(c, d))))
            break;
        i += 128;
    }
    return i;
}
#endif

/* The long prefixes' out-of-line scan (NULL: none; lxp_ascii_scan_init). */
static size_t (*lxp_ascii_prefix_long)(const uint8_t *, size_t, size_t) = NULL;

/* Scan the long prefixes with AVX2 when `allowed` and the CPU has it;
 * returns whether AVX2 is used (the tests compare the two paths). */
static int lxp_ascii_scan_init(int allowed)
{
    lxp_ascii_prefix_long = NULL;
#ifdef LXP_ASCII_AVX2
    __builtin_cpu_init();
    if (allowed && __builtin_cpu_supports("avx2"))
        lxp_ascii_prefix_long = lxp_ascii_prefix_long_avx2;
#else
    (void) allowed;
#endif
    return lxp_ascii_prefix_long != NULL;
}

#define LXP_ASCII_IN_LINE 64            /* a multiple of 32 */

static inline size_t lxp_ascii_prefix_length(const uint8_t *s, size_t n)
{
    size_t i = 0;
#ifdef LXP_ASCII_SSE2
    unsigned int mask;
    size_t in_line = LXP_ASCII_IN_LINE;
    while (n - i >= 32) {
        __m128i a = _mm_loadu_si128((const __m128i *) (s + i));
        __m128i b = _mm_loadu_si128((const __m128i *) (s + i + 16));
        if (_mm_movemask_epi8(_mm_or_si128(a, b))) {
            mask = (unsigned int) _mm_movemask_epi8(a)
                | (unsigned int) _mm_movemask_epi8(b) << 16;
            return i + (size_t) __builtin_ctz(mask);
        }
        i += 32;
        if (i == in_line && n - i >= 128 && lxp_ascii_prefix_long != NULL)
            i = lxp_ascii_prefix_long(s, i, n);
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
