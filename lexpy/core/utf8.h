/* Hand-written: the UTF-8 encoder of one code point, shared by the
 * tokenizer (character references), the encoding stage's decoders and
 * utf8_encode.h (str to UTF-8). Not in the standard: the Encoding
 * Standard's UTF-8 encoder (https://encoding.spec.whatwg.org/#utf-8-encoder)
 * for a code point the caller has checked (a scalar value, or a lone
 * surrogate the caller wants as its generalized UTF-8).
 */
#ifndef LEXPY_UTF8_H
#define LEXPY_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Writes 1 to 4 bytes at `out`; returns how many. */
static inline size_t lxp_utf8_write(uint32_t c, unsigned char *out)
{
    if (c < 0x80) {
        out[0] = (unsigned char) c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (unsigned char) (0xC0 | (c >> 6));
        out[1] = (unsigned char) (0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (unsigned char) (0xE0 | (c >> 12));
        out[1] = (unsigned char) (0x80 | ((c >> 6) & 0x3F));
        out[2] = (unsigned char) (0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (unsigned char) (0xF0 | (c >> 18));
    out[1] = (unsigned char) (0x80 | ((c >> 12) & 0x3F));
    out[2] = (unsigned char) (0x80 | ((c >> 6) & 0x3F));
    out[3] = (unsigned char) (0x80 | (c & 0x3F));
    return 4;
}

#endif
