/* Hand-written: lxp_prefetch(p) asks for the cache line that holds p ahead
 * of a load that would otherwise wait for memory. A hint only: it changes
 * no result, and is nothing where the compiler has no such builtin.
 */
#ifndef LEXPY_PREFETCH_H
#define LEXPY_PREFETCH_H

#if defined(__GNUC__) || defined(__clang__)
#define lxp_prefetch(p) __builtin_prefetch(p)
#else
#define lxp_prefetch(p) ((void) (p))
#endif

#endif
