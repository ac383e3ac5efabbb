/* Hand-written: the byte scan of the tokenizer's text-like loops.
 *
 * lxp_scan4 finds the first of up to four stop bytes, 16 bytes at a time
 * with SSE2 (part of every x86-64 CPU) and one byte at a time elsewhere.
 * lxp_skip_whitespace finds the end of a run of ASCII whitespace the same
 * way (a text token's DATA_LEADING_WHITESPACE and DATA_WHITESPACE_ONLY).
 * lxp_scan4_run is lxp_scan4 for runs that may be long (below).
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

#ifdef LXP_SCAN_SSE2
/* The mask of the bytes of p[0:16] equal to a, b, c or d (va..vd). */
static inline unsigned int lxp_block4_sse2(const unsigned char *p,
                                           __m128i va, __m128i vb,
                                           __m128i vc, __m128i vd)
{
    __m128i x = _mm_loadu_si128((const __m128i *) p);
    return (unsigned int) _mm_movemask_epi8(_mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
        _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd))));
}
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
        unsigned int mask = lxp_block4_sse2(s + i, va, vb, vc, vd);
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

/* The long runs (raw text, comments, attribute values left to their state):
 * lxp_scan4_run checks the first LXP_SCAN_IN_LINE bytes in line as
 * lxp_scan4 does, and a run that goes on past them continues out of line
 * 64 bytes a step: with AVX2 where the CPU has it (checked once,
 * lxp_scan_init; only that function is compiled for AVX2, so the module
 * still runs on any x86-64), else SSE2. A short run costs what lxp_scan4
 * costs; a long one 0.34 instructions a byte instead of 1.19. */
#ifdef LXP_SCAN_SSE2
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LXP_SCAN_AVX2 1
#endif

#ifdef LXP_SCAN_AVX2
__attribute__((target("avx2")))
static inline __m256i lxp_block4_avx2(const unsigned char *p,
                                      __m256i va, __m256i vb,
                                      __m256i vc, __m256i vd)
{
    __m256i x = _mm256_loadu_si256((const __m256i *) p);
    return _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(x, va), _mm256_cmpeq_epi8(x, vb)),
        _mm256_or_si256(_mm256_cmpeq_epi8(x, vc), _mm256_cmpeq_epi8(x, vd)));
}

__attribute__((target("avx2"), noinline))
static size_t lxp_scan4_long_avx2(const unsigned char *s, size_t i, size_t n,
                                  unsigned char a, unsigned char b,
                                  unsigned char c, unsigned char d)
{
    const __m256i va = _mm256_set1_epi8((char) a);
    const __m256i vb = _mm256_set1_epi8((char) b);
    const __m256i vc = _mm256_set1_epi8((char) c);
    const __m256i vd = _mm256_set1_epi8((char) d);
    while (i + 64 <= n) {
        __m256i hx = lxp_block4_avx2(s + i, va, vb, vc, vd);
        __m256i hy = lxp_block4_avx2(s + i + 32, va, vb, vc, vd);
        __m256i any = _mm256_or_si256(hx, hy);
        if (!_mm256_testz_si256(any, any)) {
            uint64_t mask = (uint32_t) _mm256_movemask_epi8(hx)
                | (uint64_t) (uint32_t) _mm256_movemask_epi8(hy) << 32;
            return i + (size_t) __builtin_ctzll(mask);
        }
        i += 64;
    }
    return lxp_scan4(s, i, n, a, b, c, d);
}
#endif

static size_t lxp_scan4_long_sse2(const unsigned char *s, size_t i, size_t n,
                                  unsigned char a, unsigned char b,
                                  unsigned char c, unsigned char d)
{
    const __m128i va = _mm_set1_epi8((char) a);
    const __m128i vb = _mm_set1_epi8((char) b);
    const __m128i vc = _mm_set1_epi8((char) c);
    const __m128i vd = _mm_set1_epi8((char) d);
    while (i + 64 <= n) {
        unsigned int m0 = lxp_block4_sse2(s + i, va, vb, vc, vd);
        unsigned int m1 = lxp_block4_sse2(s + i + 16, va, vb, vc, vd);
        unsigned int m2 = lxp_block4_sse2(s + i + 32, va, vb, vc, vd);
        unsigned int m3 = lxp_block4_sse2(s + i + 48, va, vb, vc, vd);
        if (m0 | m1 | m2 | m3) {
            uint64_t all = (uint64_t) m0 | (uint64_t) m1 << 16
                | (uint64_t) m2 << 32 | (uint64_t) m3 << 48;
            return i + (size_t) __builtin_ctzll(all);
        }
        i += 64;
    }
    return lxp_scan4(s, i, n, a, b, c, d);
}

/* The long scan lxp_scan4_run goes on with (lxp_scan_init). */
static size_t (*lxp_scan4_long)(const unsigned char *, size_t, size_t,
                                unsigned char, unsigned char, unsigned char,
                                unsigned char) = lxp_scan4_long_sse2;

/* Scan the long runs with AVX2 when `allowed` and the CPU has it, else with
 * SSE2 (the tests compare the two); returns whether AVX2 is used. */
static int lxp_scan_init(int allowed)
{
    lxp_scan4_long = lxp_scan4_long_sse2;
#ifdef LXP_SCAN_AVX2
    __builtin_cpu_init();
    if (allowed && __builtin_cpu_supports("avx2"))
        lxp_scan4_long = lxp_scan4_long_avx2;
#else
    (void) allowed;
#endif
    return lxp_scan4_long != lxp_scan4_long_sse2;
}
#else
static int lxp_scan_init(int allowed)
{
    (void) allowed;
    return 0;
}
#endif

/* lxp_scan4 for runs that may be long (see above): the first
 * LXP_SCAN_IN_LINE bytes in line (most attribute values and texts end
 * there, and a call costs more than it saves on them), the rest out of
 * line. */
#define LXP_SCAN_IN_LINE 64             /* a multiple of 16 */
static inline size_t lxp_scan4_run(const unsigned char *s, size_t i, size_t n,
                                   unsigned char a, unsigned char b,
                                   unsigned char c, unsigned char d)
{
#ifdef LXP_SCAN_SSE2
    const __m128i va = _mm_set1_epi8((char) a);
    const __m128i vb = _mm_set1_epi8((char) b);
    const __m128i vc = _mm_set1_epi8((char) c);
    const __m128i vd = _mm_set1_epi8((char) d);
    const size_t in_line = i + LXP_SCAN_IN_LINE;
    while (i + 16 <= n) {
        unsigned int mask = lxp_block4_sse2(s + i, va, vb, vc, vd);
        if (mask)
            return i + (unsigned int) __builtin_ctz(mask);
        i += 16;
        if (i >= in_line && i + 64 <= n)
            return lxp_scan4_long(s, i, n, a, b, c, d);
    }
#endif
    return lxp_scan4(s, i, n, a, b, c, d);
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
