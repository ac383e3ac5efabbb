# The per-document arena (DESIGN.md decision 7). Not in the standard.
#
# Small allocations bump a pointer through blocks that double in size up to
# ARENA_MAX_BLOCK; an allocation of BIG_ALLOCATION bytes or more gets a
# malloc'd block of its own (a BigBlock), so a huge text does not leave a
# huge hole in a bump block. The whole arena goes in one step with its
# document (arena_destroy).
#
# Node structs of detached, proxy-less subtrees are reclaimed onto per-kind
# free lists (chained through CNode.proxy, which is NULL for such nodes) and
# reused by the next create call, so a long-lived document that is edited a
# lot does not grow without bound. Text buffers stay with a recycled
# character-data struct; big ones are given back to malloc.

from libc.stdint cimport uintptr_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memmove, memset, memcmp, strlen

# ARENA_ALIGN and BIG_ALLOCATION: dom.pxd (the inline bump shares them).
cdef enum:
    ARENA_FIRST_BLOCK = 4096 - 64     # usable bytes of the first block
    # (64 KiB, not more: the unused tail of the last block is at most that,
    # and malloc keeps blocks of this size in its heap for the next
    # document; larger blocks raise the peak RSS of a parse.)
    ARENA_MAX_BLOCK = 64 * 1024


# A few freed blocks of the largest size wait for the next document, one
# in each of ARENA_CACHE_SLOTS process-wide slots filled and emptied
# atomically (any thread may give or take one). Without them the blocks of
# every document of more than about 200 KiB went back to malloc at its
# end, malloc gave the top of its heap back to the system (glibc trims
# above 128 KiB) and the next document took every page again as a fault.
cdef enum:
    ARENA_CACHE_SLOTS = 8

cdef extern from *:
    """
    static void *lexpy_arena_cache_slots[8];
    #if defined(_MSC_VER)
    #include <windows.h>
    static void *lexpy_arena_cache_take_slot(int i) {
        return InterlockedExchangePointer(&lexpy_arena_cache_slots[i], NULL);
    }
    static int lexpy_arena_cache_fill_slot(int i, void *block) {
        return InterlockedCompareExchangePointer(&lexpy_arena_cache_slots[i], block, NULL)
               == NULL;
    }
    #else
    static void *lexpy_arena_cache_take_slot(int i) {
        return __atomic_exchange_n(&lexpy_arena_cache_slots[i], NULL, __ATOMIC_ACQ_REL);
    }
    static int lexpy_arena_cache_fill_slot(int i, void *block) {
        void *empty = NULL;
        return __atomic_compare_exchange_n(&lexpy_arena_cache_slots[i], &empty, block, 0,
                                           __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    }
    #endif
    """
    void* lexpy_arena_cache_take_slot(int i) noexcept nogil
    bint lexpy_arena_cache_fill_slot(int i, void* block) noexcept nogil


cdef size_t arena_top_block_size() noexcept nogil:
    """The size arena_new_block's doubling stops at."""
    cdef size_t size = ARENA_FIRST_BLOCK
    while size < ARENA_MAX_BLOCK:
        size *= 2
    return size


cdef size_t ARENA_TOP_BLOCK = arena_top_block_size()


cdef void arena_cache_put(ArenaBlock* block) noexcept nogil:
    """Leave a block of ARENA_TOP_BLOCK bytes in an empty slot, or give it
    to malloc when there is none."""
    cdef int i
    for i in range(ARENA_CACHE_SLOTS):
        if lexpy_arena_cache_fill_slot(i, block):
            return
    free(block)


cdef ArenaBlock* arena_cache_take() noexcept nogil:
    """A cached block of ARENA_TOP_BLOCK bytes, or NULL."""
    cdef int i
    cdef void* block
    for i in range(ARENA_CACHE_SLOTS):
        block = lexpy_arena_cache_take_slot(i)
        if block != NULL:
            return <ArenaBlock*> block
    return NULL


cdef inline uint8_t* align_pointer(uint8_t* p) noexcept nogil:
    return <uint8_t*> ((<uintptr_t> p + (ARENA_ALIGN - 1))
                       & ~(<uintptr_t> (ARENA_ALIGN - 1)))


cdef inline uint8_t* big_block_data(BigBlock* block) noexcept nogil:
    return <uint8_t*> block + sizeof(BigBlock)


cdef void arena_init(Arena* arena) noexcept nogil:
    memset(arena, 0, sizeof(Arena))
    arena.next_block_size = ARENA_FIRST_BLOCK


cdef void arena_destroy(Arena* arena) noexcept nogil:
    cdef ArenaBlock* block = arena.blocks
    cdef ArenaBlock* next_block
    cdef BigBlock* big = arena.big
    cdef BigBlock* next_big
    while block != NULL:
        next_block = block.next
        if block.size == ARENA_TOP_BLOCK:
            arena_cache_put(block)
        else:
            free(block)
        block = next_block
    while big != NULL:
        next_big = big.next
        free(big)
        big = next_big
    memset(arena, 0, sizeof(Arena))


cdef int arena_new_block(Arena* arena, size_t min_size) noexcept nogil:
    """Make a fresh bump block of at least min_size bytes current."""
    cdef size_t size = arena.next_block_size
    cdef ArenaBlock* block
    if size < min_size:
        size = min_size
    if size > (<size_t> -1) - sizeof(ArenaBlock) - ARENA_ALIGN:
        return -1
    block = arena_cache_take() if size == ARENA_TOP_BLOCK else NULL
    if block == NULL:
        block = <ArenaBlock*> malloc(sizeof(ArenaBlock) + size + ARENA_ALIGN)
    if block == NULL:
        return -1
    block.size = size
    block.next = arena.blocks
    arena.blocks = block
    arena.pos = <uint8_t*> block + sizeof(ArenaBlock)
    arena.end = arena.pos + size + ARENA_ALIGN
    arena.bytes_reserved += sizeof(ArenaBlock) + size + ARENA_ALIGN
    if arena.next_block_size < ARENA_MAX_BLOCK:
        arena.next_block_size *= 2
    return 0


cdef BigBlock* arena_big_alloc(Arena* arena, size_t size) noexcept nogil:
    cdef BigBlock* block
    if size > (<size_t> -1) - sizeof(BigBlock):
        return NULL
    block = <BigBlock*> malloc(sizeof(BigBlock) + size)
    if block == NULL:
        return NULL
    block.size = size
    block.prev = NULL
    block.next = arena.big
    if arena.big != NULL:
        arena.big.prev = block
    arena.big = block
    arena.bytes_reserved += sizeof(BigBlock) + size
    return block


cdef void arena_big_unlink(Arena* arena, BigBlock* block) noexcept nogil:
    if block.prev != NULL:
        block.prev.next = block.next
    else:
        arena.big = block.next
    if block.next != NULL:
        block.next.prev = block.prev
    arena.bytes_reserved -= sizeof(BigBlock) + block.size


cdef void arena_big_free(Arena* arena, uint8_t* data) noexcept nogil:
    """Give a big block (by its data pointer) back to malloc."""
    cdef BigBlock* block = <BigBlock*> (data - sizeof(BigBlock))
    arena_big_unlink(arena, block)
    free(block)


cdef uint8_t* arena_big_resize(Arena* arena, uint8_t* data,
                               size_t size) noexcept nogil:
    """Resize a big block; returns its (possibly moved) data or NULL."""
    cdef BigBlock* block = <BigBlock*> (data - sizeof(BigBlock))
    cdef BigBlock* prev = block.prev
    cdef BigBlock* next_block = block.next
    cdef size_t old_size = block.size
    cdef BigBlock* moved
    if size > (<size_t> -1) - sizeof(BigBlock):
        return NULL
    moved = <BigBlock*> realloc(block, sizeof(BigBlock) + size)
    if moved == NULL:
        return NULL
    moved.size = size
    if prev != NULL:
        prev.next = moved
    else:
        arena.big = moved
    if next_block != NULL:
        next_block.prev = moved
    arena.bytes_reserved += size
    arena.bytes_reserved -= old_size
    return big_block_data(moved)


cdef inline bint arena_is_tail(Arena* arena, uint8_t* block,
                               size_t size) noexcept nogil:
    """Whether block..block+size is the latest bump allocation."""
    return block != NULL and block + size == arena.pos


cdef uint8_t* dom_alloc(CDocument* doc, size_t size) noexcept nogil:
    # The bump: nothing else, so that it needs no saved registers (the rest
    # is dom_alloc_slow's).
    cdef Arena* arena = &doc.arena
    cdef uint8_t* p = align_pointer(arena.pos)
    if size < BIG_ALLOCATION and arena.pos != NULL and p <= arena.end \
            and <size_t> (arena.end - p) >= size:
        arena.pos = p + size
        return p
    return dom_alloc_rest(doc, size)


cdef uint8_t* dom_alloc_slow(CDocument* doc, size_t size) noexcept nogil:
    """dom_alloc of a big block, or of one that needs a new arena block."""
    cdef Arena* arena = &doc.arena
    cdef uint8_t* p
    cdef BigBlock* big
    if size >= BIG_ALLOCATION:
        big = arena_big_alloc(arena, size)
        return big_block_data(big) if big != NULL else NULL
    p = align_pointer(arena.pos)
    if arena.pos == NULL or p > arena.end or <size_t> (arena.end - p) < size:
        if arena_new_block(arena, size) != 0:
            return NULL
        p = align_pointer(arena.pos)
    arena.pos = p + size
    return p


# Called through a pointer, so that the compiler does not inline it into
# dom_alloc (its saved registers would come back to every bump).
ctypedef uint8_t* (*AllocFunction)(CDocument* doc, size_t size) noexcept nogil
cdef AllocFunction dom_alloc_rest = dom_alloc_slow


cdef void dom_shrink(CDocument* doc, uint8_t* block, size_t old_size,
                     size_t new_size) noexcept nogil:
    cdef Arena* arena = &doc.arena
    cdef uint8_t* tail
    if new_size >= old_size or block == NULL:
        return
    if arena_is_tail(arena, block, old_size):
        arena.pos = block + new_size
        return
    # The newest big block: its unused tail becomes the bump region when it
    # is larger than what is left of the current one (a big block is never
    # moved, so the caller's pointer stays valid).
    if arena.big != NULL and block == big_block_data(arena.big) \
            and old_size == arena.big.size:
        tail = align_pointer(block + new_size)
        if tail < block + old_size and \
                <size_t> (block + old_size - tail) > <size_t> (arena.end - arena.pos):
            arena.pos = tail
            arena.end = block + old_size
        # A donated block can no longer be resized or freed on its own.
        arena.big.size = 0


cdef uint8_t* dom_copy(CDocument* doc, const uint8_t* data,
                       size_t length) noexcept nogil:
    cdef uint8_t* p = dom_alloc(doc, length)
    if p != NULL and length:
        memcpy(p, data, length)
    return p


cdef inline CNode* arena_take_free(CNode** free_list) noexcept nogil:
    cdef CNode* node = free_list[0]
    if node != NULL:
        free_list[0] = <CNode*> node.proxy
        node.proxy = NULL
    return node


cdef inline void arena_put_free(CNode** free_list, CNode* node) noexcept nogil:
    node.proxy = <void*> free_list[0]
    free_list[0] = node
