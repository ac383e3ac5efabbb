/* Hand-written: little-endian loads of unaligned bytes, for the keyed hash
 * (core.pxd keyed_hash) that reads its input a word at a time. A memcpy of
 * a constant size compiles to one load; a big-endian machine swaps bytes.
 *
 * lxp_load_le_tail(p, r) is the r bytes p[0..r) (r < 8) as a little-endian
 * word, read without touching p[r] or beyond: two overlapping loads whose
 * common bytes land in the same places.
 */
#ifndef LEXPY_LOAD_H
#define LEXPY_LOAD_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) \
    && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LXP_BIG_ENDIAN 1
#endif

static inline uint64_t lxp_load_le64(const unsigned char *p)
{
#ifdef LXP_BIG_ENDIAN
    uint64_t w = 0;
    int k;
    for (k = 0; k < 8; k++)
        w |= (uint64_t) p[k] << (8 * k);
    return w;
#else
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
#endif
}

static inline uint64_t lxp_load_le32(const unsigned char *p)
{
#ifdef LXP_BIG_ENDIAN
    return (uint64_t) p[0] | (uint64_t) p[1] << 8 | (uint64_t) p[2] << 16
        | (uint64_t) p[3] << 24;
#else
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
#endif
}

static inline uint64_t lxp_load_le_tail(const unsigned char *p, size_t r)
{
    if (r >= 4)
        return lxp_load_le32(p) | lxp_load_le32(p + r - 4) << (8 * (r - 4));
    if (r == 0)
        return 0;
    return (uint64_t) p[0] | (uint64_t) p[r >> 1] << (8 * (r >> 1))
        | (uint64_t) p[r - 1] << (8 * (r - 1));
}

#endif
