/* lxp_copy_run: memcpy for the short runs most attribute values, texts and
 * runs between character references are, without a call (the tokenizer's
 * conversion, the tree builder's element and text creation).
 */
#ifndef LEXPY_COPY_H
#define LEXPY_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define LXP_COPY_SSE2 1
#endif

/* memcpy(d, s, n) (d and s not overlapping): up to 32 bytes with two overlapping loads and stores of the largest size that
 * fits, without a call; longer runs go to memcpy. */
static inline void lxp_copy_run(unsigned char *d, const unsigned char *s,
                                size_t n)
{
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
#ifdef LXP_COPY_SSE2
        __m128i a = _mm_loadu_si128((const __m128i *) s);
        __m128i b = _mm_loadu_si128((const __m128i *) (s + n - 16));
        _mm_storeu_si128((__m128i *) d, a);
        _mm_storeu_si128((__m128i *) (d + n - 16), b);
#else
        memcpy(d, s, n);
#endif
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

#endif /* LEXPY_COPY_H */
