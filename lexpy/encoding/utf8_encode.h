/* Hand-written: the UTF-8 of a Python str's storage (PEP 393: 1, 2 or 4
 * bytes a code point), the Encoding Standard's UTF-8 encoder
 * (https://encoding.spec.whatwg.org/#utf-8-encoder) with each lone
 * surrogate written as U+FFFD. Runs of ASCII go 16 code points a step with
 * SSE2 (part of every x86-64 CPU), 8 with plain 64-bit words elsewhere.
 * `out` has room for 2, 3 or 4 bytes a code point for kind 1, 2 or 4.
 */
#ifndef LEXPY_UTF8_ENCODE_H
#define LEXPY_UTF8_ENCODE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "utf8.h"

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define LXP_UTF8_SSE2 1
#endif

static inline size_t lxp_utf8_put(uint32_t c, unsigned char *out)
{
    if (c >= 0xD800 && c <= 0xDFFF)
        c = 0xFFFD;                             /* a lone surrogate */
    return lxp_utf8_write(c, out);
}

static inline size_t lxp_utf8_encode(unsigned int kind, const void *data,
                                     size_t length, unsigned char *out)
{
    size_t i = 0, o = 0;
    if (kind == 1) {
        const unsigned char *s = (const unsigned char *) data;
        while (i < length) {
#ifdef LXP_UTF8_SSE2
            while (i + 16 <= length) {
                __m128i x = _mm_loadu_si128((const __m128i *) (s + i));
                if (_mm_movemask_epi8(x))
                    break;
                _mm_storeu_si128((__m128i *) (out + o), x);
                i += 16;
                o += 16;
            }
#endif
            while (i + 8 <= length) {
                uint64_t w;
                memcpy(&w, s + i, 8);
                if (w & 0x8080808080808080ULL)
                    break;
                memcpy(out + o, &w, 8);
                i += 8;
                o += 8;
            }
            if (i < length) {
                o += lxp_utf8_put(s[i], out + o);
                i++;
            }
        }
    } else if (kind == 2) {
        const uint16_t *s = (const uint16_t *) data;
        while (i < length) {
#ifdef LXP_UTF8_SSE2
            const __m128i high = _mm_set1_epi16((short) 0xFF80);
            while (i + 16 <= length) {
                __m128i a = _mm_loadu_si128((const __m128i *) (s + i));
                __m128i b = _mm_loadu_si128((const __m128i *) (s + i + 8));
                __m128i any = _mm_and_si128(_mm_or_si128(a, b), high);
                if (_mm_movemask_epi8(_mm_cmpeq_epi8(any, _mm_setzero_si128())) != 0xFFFF)
                    break;
                _mm_storeu_si128((__m128i *) (out + o), _mm_packus_epi16(a, b));
                i += 16;
                o += 16;
            }
#endif
            while (i + 4 <= length) {
                uint64_t w;
                memcpy(&w, s + i, 8);
                if (w & 0xFF80FF80FF80FF80ULL)
                    break;
                out[o] = (unsigned char) w;
                out[o + 1] = (unsigned char) (w >> 16);
                out[o + 2] = (unsigned char) (w >> 32);
                out[o + 3] = (unsigned char) (w >> 48);
                i += 4;
                o += 4;
            }
            if (i < length) {
                o += lxp_utf8_put(s[i], out + o);
                i++;
            }
        }
    } else {
        const uint32_t *s = (const uint32_t *) data;
        for (; i < length; i++)
            o += lxp_utf8_put(s[i], out + o);
    }
    return o;
}

#endif
