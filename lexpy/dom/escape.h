/* Hand-written: the byte scan of the serializer's escaping.
 *
 * lxp_escape_copy finds the next byte that "escaping a string" may replace
 * (https://html.spec.whatwg.org/multipage/parsing.html#escapingString):
 * '&', '<', '>', the first byte of U+00A0 (0xC2), and '"' in attribute
 * mode, and copies the bytes before it. 16 bytes at a time with SSE2 (part
 * of every x86-64 CPU), one byte at a time elsewhere.
 */
#ifndef LEXPY_ESCAPE_H
#define LEXPY_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define LXP_ESCAPE_SSE2 1
#endif

/* lxp_escape_copy scans and copies at once. It copies s[i:k) to
 * d, where k (returned) is the index of the first byte of s[i:n] to look at
 * (n when none), and may write bytes of no meaning up to d + (n - i) + 16:
 * the caller leaves d room for n - i + LXP_ESCAPE_ROOM bytes. Runs of 16
 * are loaded once, tested and stored; the last 4 to 15 bytes are read as
 * two overlapping 8- or 4-byte pieces (never past s[n - 1]), so that short
 * texts and attribute values take no byte loop either. */
#define LXP_ESCAPE_ROOM 16

#ifdef LXP_ESCAPE_SSE2
static inline unsigned int lxp_escape_hits(__m128i x, int attribute_mode)
{
    /* '<' and '>' are the bytes x with x | 2 == '>'; '"' and '&' those with
     * x | 4 == '&' (attribute mode), '&' alone x | 0 == '&' (text mode). */
    const __m128i quote_bit = _mm_set1_epi8(attribute_mode ? 4 : 0);
    __m128i hit = _mm_or_si128(
        _mm_cmpeq_epi8(_mm_or_si128(x, quote_bit), _mm_set1_epi8('&')),
        _mm_or_si128(
            _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(2)), _mm_set1_epi8('>')),
            _mm_cmpeq_epi8(x, _mm_set1_epi8((char) 0xC2))));
    return (unsigned int) _mm_movemask_epi8(hit);
}
#endif

static inline size_t lxp_escape_copy(const unsigned char *s, size_t i, size_t n,
                                     unsigned char *d, int attribute_mode)
{
#ifdef LXP_ESCAPE_SSE2
    size_t r;
    unsigned int mask;
    while (n - i >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *) (s + i));
        _mm_storeu_si128((__m128i *) d, x);
        mask = lxp_escape_hits(x, attribute_mode);
        if (mask)
            return i + (size_t) __builtin_ctz(mask);
        i += 16;
        d += 16;
    }
    r = n - i;
    if (r >= 8) {
        /* s[i:i+8) in lanes 0-7, s[n-8:n) in lanes 8-15 */
        __m128i lo = _mm_loadl_epi64((const __m128i *) (s + i));
        __m128i hi = _mm_loadl_epi64((const __m128i *) (s + n - 8));
        _mm_storel_epi64((__m128i *) d, lo);
        _mm_storel_epi64((__m128i *) (d + r - 8), hi);
        mask = lxp_escape_hits(_mm_unpacklo_epi64(lo, hi), attribute_mode);
        if (mask & 0xFF)
            return i + (size_t) __builtin_ctz(mask);
        if (mask)
            return n - 16 + (size_t) __builtin_ctz(mask);
        return n;
    }
    if (r >= 4) {
        /* s[i:i+4) in lanes 0-3, s[n-4:n) in lanes 4-7, zeros (never a
         * byte to look at) above */
        uint32_t lo, hi;
        memcpy(&lo, s + i, 4);
        memcpy(&hi, s + n - 4, 4);
        memcpy(d, &lo, 4);
        memcpy(d + r - 4, &hi, 4);
        mask = lxp_escape_hits(_mm_unpacklo_epi32(_mm_cvtsi32_si128((int) lo),
                                                  _mm_cvtsi32_si128((int) hi)),
                               attribute_mode);
        if (mask & 0xF)
            return i + (size_t) __builtin_ctz(mask);
        if (mask)
            return n - 8 + (size_t) __builtin_ctz(mask);
        return n;
    }
#endif
    {
        const unsigned char quote = attribute_mode ? '"' : '&';
        for (; i < n; i++) {
            unsigned char ch = s[i];
            if (ch == '&' || ch == '<' || ch == '>' || ch == 0xC2 || ch == quote)
                return i;
            *d++ = ch;
        }
    }
    return i;
}

/* What escaping writes for the byte c that the scan stopped at (next: the
 * byte after it, 0 at the end), written to d as 8 bytes (d has the room):
 * the replacement's length, *consumed the bytes it replaces; 0 for a
 * U+0080..U+00BF other than U+00A0 (nothing replaced). */
static inline size_t lxp_escape_replace(unsigned char *d, unsigned char c,
                                        unsigned char next, size_t *consumed)
{
    static const unsigned char replacements[5][8] = {
        "&amp;", "&lt;", "&gt;", "&quot;", "&nbsp;"};
    int which;
    size_t length;
    *consumed = 1;
    switch (c) {
    case '&': which = 0; length = 5; break;
    case '<': which = 1; length = 4; break;
    case '>': which = 2; length = 4; break;
    case '"': which = 3; length = 6; break;
    default:                                    /* 0xC2 */
        if (next != 0xA0)
            return 0;
        *consumed = 2;
        which = 4;
        length = 6;
        break;
    }
    memcpy(d, replacements[which], 8);
    return length;
}


#endif
