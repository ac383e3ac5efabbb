/* Hand-written: the byte scan of the serializer's escaping.
 *
 * lxp_escape_scan finds the next byte that "escaping a string" may replace
 * (https://html.spec.whatwg.org/multipage/parsing.html#escapingString):
 * '&', '<', '>', the first byte of U+00A0 (0xC2), and '"' in attribute
 * mode. 16 bytes at a time with SSE2 (part of every x86-64 CPU), one byte
 * at a time elsewhere.
 */
#ifndef LEXPY_ESCAPE_H
#define LEXPY_ESCAPE_H

#include <stddef.h>

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define LXP_ESCAPE_SSE2 1
#endif

/* The index of the first byte of s[i:n] to look at (n when none). */
static inline size_t lxp_escape_scan(const unsigned char *s, size_t i, size_t n,
                                     int attribute_mode)
{
    /* In text mode the quote's place is taken by '&' again. */
    const unsigned char quote = attribute_mode ? '"' : '&';
#ifdef LXP_ESCAPE_SSE2
    const __m128i amp = _mm_set1_epi8('&');
    const __m128i lt = _mm_set1_epi8('<');
    const __m128i gt = _mm_set1_epi8('>');
    const __m128i c2 = _mm_set1_epi8((char) 0xC2);
    const __m128i qu = _mm_set1_epi8((char) quote);
    while (i + 16 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *) (s + i));
        __m128i hit = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, amp), _mm_cmpeq_epi8(x, lt)),
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, gt), _mm_cmpeq_epi8(x, c2)),
                         _mm_cmpeq_epi8(x, qu)));
        unsigned int mask = (unsigned int) _mm_movemask_epi8(hit);
        if (mask)
            return i + (size_t) __builtin_ctz(mask);
        i += 16;
    }
#endif
    for (; i < n; i++) {
        unsigned char ch = s[i];
        if (ch == '&' || ch == '<' || ch == '>' || ch == 0xC2 || ch == quote)
            return i;
    }
    return i;
}

#endif
