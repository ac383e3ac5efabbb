/* Hand-written: the byte scan of the tokenizer's text-like loops.
 *
 * lxp_scan4 finds the first of up to four stop bytes, 16 bytes at a time
 * with SSE2 (part of every x86-64 CPU) and one byte at a time elsewhere.
 * lxp_skip_whitespace finds the end of a run of ASCII whitespace the same
 * way (a text token's DATA_LEADING_WHITESPACE and DATA_WHITESPACE_ONLY).
 * lxp_find_byte and lxp_is_amp_tail serve the conversion of ranges whose
 * only work is character references (convert.pxi; its runs are copied with
 * core/copy.h's lxp_copy_run).
 */
#ifndef LEXPY_SCAN_H
#define LEXPY_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "copy.h"

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define LXP_SCAN_SSE2 1
#endif

/* The index of the first byte of s[i:n] equal to a, b, c or d (n when
 * none). */
static inline size_t lxp_scan4(const unsigned char *s, size_t i, size_t n,
                               unsigned char a, unsigned char b,
                               unsigned char c, unsigned char d)
{
#ifdef LXP_SCAN_SSE2
    const __m128i va = _mm_set1_epi8((char) a);
    const __m128i vb = _mm_set1_epi8((char) b);
    const __m128i vc = _mm_set1_epi8((char) c);
    const __m128i vd = _mm_set1_epi8((char) d);
    while (i + 16 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *) (s + i));
        __m128i hit = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
            _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
        unsigned int mask = (unsigned int) _mm_movemask_epi8(hit);
        if (mask)
            return i + (unsigned int) __builtin_ctz(mask);
        i += 16;
    }
#endif
    for (; i < n; i++) {
        unsigned char ch = s[i];
        if (ch == a || ch == b || ch == c || ch == d)
            return i;
    }
    return i;
}

/* The index of the first byte of s[i:n] outside printable ASCII
 * (0x20..0x7E), n when none: the position cursor's fast path. */
static inline size_t lxp_scan_printable(const unsigned char *s, size_t i,
                                        size_t n)
{
#ifdef LXP_SCAN_SSE2
    const __m128i below = _mm_set1_epi8(0x20);
    const __m128i del = _mm_set1_epi8(0x7F);
    while (i + 16 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *) (s + i));
        /* signed: bytes >= 0x80 are negative, so "< 0x20" catches them */
        __m128i stop = _mm_or_si128(_mm_cmplt_epi8(x, below),
                                    _mm_cmpeq_epi8(x, del));
        unsigned int mask = (unsigned int) _mm_movemask_epi8(stop);
        if (mask)
            return i + (size_t) __builtin_ctz(mask);
        i += 16;
    }
#endif
    while (i < n && s[i] >= 0x20 && s[i] < 0x7F)
        i++;
    return i;
}

/* The index of the first byte of s[i:end] that is not ASCII whitespace
 * (TAB, LF, FF, CR, SPACE), end when none. s[i:limit] (limit >= end) may
 * be read: 16 bytes at a time with SSE2 while they are there, so that a
 * short run needs no byte loop. */
static inline size_t lxp_skip_whitespace(const unsigned char *s, size_t i,
                                         size_t end, size_t limit)
{
#ifdef LXP_SCAN_SSE2
    const __m128i space = _mm_set1_epi8(0x20);
    const __m128i tab = _mm_set1_epi8(0x09);
    const __m128i four = _mm_set1_epi8(4);
    const __m128i vtab = _mm_set1_epi8(0x0B);
    while (i < end && i + 16 <= limit) {
        __m128i x = _mm_loadu_si128((const __m128i *) (s + i));
        /* TAB..CR: x - 9 <= 4 (unsigned), less VT (0x0B) */
        __m128i d = _mm_sub_epi8(x, tab);
        __m128i low = _mm_andnot_si128(_mm_cmpeq_epi8(x, vtab),
                                       _mm_cmpeq_epi8(_mm_min_epu8(d, four), d));
        __m128i ws = _mm_or_si128(low, _mm_cmpeq_epi8(x, space));
        unsigned int other = ~(unsigned int) _mm_movemask_epi8(ws) & 0xFFFFu;
        if (other) {
            i += (size_t) __builtin_ctz(other);
            return i < end ? i : end;
        }
        i += 16;
    }
    if (i >= end)
        return end;
#endif
    while (i < end && (s[i] == 0x20 || s[i] == 0x0A || s[i] == 0x09
                       || s[i] == 0x0C || s[i] == 0x0D))
        i++;
    return i;
}

/* The index of the first byte of s[i:n] equal to b (n when none). With
 * SSE2 and n >= 16, 16 bytes at a time; the last, partial block is read as
 * the 16 bytes ending at n, the ones before i masked off, so no byte loop
 * runs. */
static inline size_t lxp_find_byte(const unsigned char *s, size_t i, size_t n,
                                   unsigned char b)
{
#ifdef LXP_SCAN_SSE2
    if (n >= 16) {
        const __m128i vb = _mm_set1_epi8((char) b);
        unsigned int mask;
        while (i + 16 <= n) {
            mask = (unsigned int) _mm_movemask_epi8(_mm_cmpeq_epi8(
                _mm_loadu_si128((const __m128i *) (s + i)), vb));
            if (mask)
                return i + (unsigned int) __builtin_ctz(mask);
            i += 16;
        }
        if (i < n) {
            mask = (unsigned int) _mm_movemask_epi8(_mm_cmpeq_epi8(
                _mm_loadu_si128((const __m128i *) (s + n - 16)), vb));
            mask >>= 16 - (n - i);
            if (mask)
                return i + (unsigned int) __builtin_ctz(mask);
        }
        return n;
    }
#endif
    while (i < n && s[i] != b)
        i++;
    return i;
}

/* Whether s[0:4] is "amp;" (the bytes after the '&' of &amp;). */
static inline int lxp_is_amp_tail(const unsigned char *s)
{
    return memcmp(s, "amp;", 4) == 0;
}

#endif /* LEXPY_SCAN_H */
