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
#
# A streaming document (dom_streaming_start; lexpy.rewriter, which frees
# each subtree the parser has finished with while the parse goes on) makes
# its nodes another way, so that what it frees serves what it makes next:
#
# - Every element and character-data node is ONE block: a header (the
#   block's size in bytes), the node's SourceRecord prefix, its struct, the
#   room its creator asked for (an element's attribute array and values, a
#   Text node's data: what the tree builder's one-allocation nodes hold),
#   and ARENA_ALIGN unused bytes. (The unused bytes keep the block's end
#   away from the bump's position, so that the creator's "give back the
#   unused tail" (dom_shrink_inline, character_data_commit_inline) never
#   applies to it: a block's size never changes after it is made.)
# - Whatever a node points at outside its block is a piece of its own,
#   made for it alone and sized by the node's own fields: an attribute
#   array of attr_capacity entries, an attribute value of value_length
#   bytes (or more: a value set shorter in place), a text buffer of
#   capacity bytes (NODE_DATA_BIG: a BigBlock), a PI target.
# - Freeing a node (subtree_reclaim) gives back each piece outside its
#   block, then the block whole, into the free list of its size class
#   (Arena.recycled: list k holds regions of 8 * k bytes, k <= 2048, that is
#   everything below BIG_ALLOCATION; a block that large is a BigBlock and
#   goes back to malloc). Nothing inside a block is ever handed back on its
#   own: the values the tree builder packs into an element's room are not
#   8-aligned regions of their own, and handing them back as such made
#   two recycled regions overlap.
# - Blocks and pieces are taken from the list of their size class first
#   (arena_stream_take), else from the bump.
#
# So a stream whose content repeats reaches a steady state: every class's
# list feeds the nodes of that size, and the arena stops growing. The
# tree builder's inline one-allocation paths are skipped for such a
# document without a test of their own: free_elements and
# free_character_data hold STREAMING_MARK (never handed out), so the
# inline path's "nothing to reuse" test sends every creation to the DOM's
# element_create_with_room_slow / text_create_with_room_slow. A parse
# (no streaming) runs none of this; the code's layout costs it +0.3%
# instructions on the corpus (tools/profile_parse.py: 263,575,253 against
# 262,786,753 for main from bytes, +0.22% with to_html), one instruction
# a node in create_element_for_token and insert_characters. (A Text made
# by text_create and character_data_reserve instead, whose data is a
# piece, costs less (+0.2%) but does not stay bounded: the tree builder's
# commit gives back the unused tail of a fresh piece, so the freed piece
# falls into a smaller size class than the next room asks for.)

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
    # Arena.recycled of a streaming document: lists 1 .. STREAM_CLASSES - 1
    # of regions of 8 * k bytes (all sizes below BIG_ALLOCATION).
    STREAM_CLASSES = BIG_ALLOCATION // ARENA_ALIGN + 1
    STREAM_HEADER = ARENA_ALIGN       # a block's header: its size (size_t)


# The mark a streaming document's free_elements and free_character_data
# hold (never on a list, never handed out: see above).
cdef CNode STREAMING_MARK


# Freed blocks of the largest size wait for the next document, one in
# each of ARENA_CACHE_SLOTS process-wide slots filled and emptied
# atomically (any thread may give or take one). Without them the blocks of
# every document of more than about 200 KiB went back to malloc at its
# end, malloc gave the top of its heap back to the system (glibc trims
# above 128 KiB) and the next document took every page again as a fault.
# When the slots are full, a block with a higher address takes the place
# of a lower one (arena_cache_put): the blocks kept are those nearest the
# top of malloc's heap, so the blocks given back lie below them and never
# make the top chunk large enough to trim. (Kept first come, first served,
# a document of 100 KB to 600 KB of HTML gave back the blocks above the
# kept ones, and each of its parses took about 110 page faults again: a
# fifth of a parse of the 900 KB page of issue 36's W3, whose blocks were
# also returned to the system at each end, 69 us. By address, no size of
# document takes any after the first parse; tests/dom/test_lifetime.py.)
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
    static void *lexpy_arena_cache_place(int i, void *block) {
        void *held = lexpy_arena_cache_slots[i];
        if (held != NULL && (char *) held >= (char *) block)
            return block;
        return InterlockedCompareExchangePointer(&lexpy_arena_cache_slots[i], block, held)
               == held ? held : block;
    }
    #else
    static void *lexpy_arena_cache_take_slot(int i) {
        return __atomic_exchange_n(&lexpy_arena_cache_slots[i], NULL, __ATOMIC_ACQ_REL);
    }
    static void *lexpy_arena_cache_place(int i, void *block) {
        void *held = __atomic_load_n(&lexpy_arena_cache_slots[i], __ATOMIC_ACQUIRE);
        if (held != NULL && (char *) held >= (char *) block)
            return block;
        return __atomic_compare_exchange_n(&lexpy_arena_cache_slots[i], &held, block, 0,
                                           __ATOMIC_ACQ_REL, __ATOMIC_RELAXED) ? held : block;
    }
    #endif
    """
    void* lexpy_arena_cache_take_slot(int i) noexcept nogil
    # Slot i takes `block` if it is empty (NULL back) or holds a block at a
    # lower address (that one back); else `block` back.
    void* lexpy_arena_cache_place(int i, void* block) noexcept nogil


cdef size_t arena_top_block_size() noexcept nogil:
    """The size arena_new_block's doubling stops at."""
    cdef size_t size = ARENA_FIRST_BLOCK
    while size < ARENA_MAX_BLOCK:
        size *= 2
    return size


cdef size_t ARENA_TOP_BLOCK = arena_top_block_size()


cdef void arena_cache_put(ArenaBlock* block) noexcept nogil:
    """Leave a block of ARENA_TOP_BLOCK bytes in an empty slot or in the
    place of a block below it (which goes on down the slots the same way);
    what is left over, the lowest, goes to malloc."""
    cdef int i
    cdef void* out = block
    for i in range(ARENA_CACHE_SLOTS):
        out = lexpy_arena_cache_place(i, out)
        if out == NULL:
            return
    free(out)


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
    free(arena.recycled)
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
    cdef uint8_t* p = dom_alloc(doc, length) if doc.arena.recycled == NULL \
        else arena_stream_take(doc, length)
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


# ---------------------------------------------------------------------------
# Streaming documents: blocks and pieces by size class (see the top)
# ---------------------------------------------------------------------------

cdef int dom_streaming_start(CDocument* doc) noexcept nogil:
    cdef Arena* arena = &doc.arena
    if arena.recycled != NULL:
        return 0
    if doc.node.first_child != NULL or arena.free_elements != NULL \
            or arena.free_character_data != NULL:
        return -1           # (its nodes were made the other way)
    arena.recycled = <uint8_t**> calloc(STREAM_CLASSES, sizeof(uint8_t*))
    if arena.recycled == NULL:
        return -1
    STREAMING_MARK.proxy = NULL
    arena.free_elements = &STREAMING_MARK
    arena.free_character_data = &STREAMING_MARK
    return 0


cdef uint8_t* arena_stream_take(CDocument* doc, size_t size) noexcept nogil:
    """A region of at least `size` bytes (8-aligned) for a streaming
    document: one from the free list of its size class, else the arena's
    (a BigBlock from BIG_ALLOCATION bytes). NULL when out of memory."""
    cdef size_t k = (size + (ARENA_ALIGN - 1)) // ARENA_ALIGN
    cdef uint8_t** lists = doc.arena.recycled
    cdef uint8_t* region
    if k != 0 and k < STREAM_CLASSES:
        region = lists[k]
        if region != NULL:
            lists[k] = (<uint8_t**> region)[0]
            return region
    return dom_alloc(doc, size)


cdef inline void arena_stream_give(Arena* arena, uint8_t* region,
                                   size_t size) noexcept nogil:
    """Give back a piece (a region that starts an allocation of its own of
    at least `size` bytes) to the free list of its size class. Pieces of
    BIG_ALLOCATION bytes and more are not taken back (a big value's block
    may have lent its tail to the bump: dom_shrink)."""
    cdef size_t k = (size + (ARENA_ALIGN - 1)) // ARENA_ALIGN
    if region == NULL or k == 0 or k >= STREAM_CLASSES or size >= BIG_ALLOCATION:
        return
    (<uint8_t**> region)[0] = arena.recycled[k]
    arena.recycled[k] = region


cdef uint8_t* arena_stream_block(CDocument* doc, size_t size) noexcept nogil:
    """A node's block of `size` bytes (header, prefix, struct, room; the
    unused ARENA_ALIGN bytes are added here): returns where the prefix
    starts (the header written). NULL when out of memory."""
    cdef uint8_t* block
    cdef BigBlock* big
    size += STREAM_HEADER + ARENA_ALIGN
    if size >= BIG_ALLOCATION:
        big = arena_big_alloc(&doc.arena, size)
        if big == NULL:
            return NULL
        block = big_block_data(big)
    else:
        block = arena_stream_take(doc, size)
        if block == NULL:
            return NULL
    (<size_t*> block)[0] = size
    return block + STREAM_HEADER


cdef inline uint8_t* stream_block_of(CNode* node, size_t* size) noexcept nogil:
    cdef uint8_t* block = (<uint8_t*> node) - node.owner.record_sources - STREAM_HEADER
    size[0] = (<size_t*> block)[0]
    return block


cdef inline bint stream_block_holds(CNode* node, const uint8_t* p) noexcept nogil:
    """Whether p lies in node's block (a streaming document's node)."""
    cdef size_t size
    cdef uint8_t* block = stream_block_of(node, &size)
    return p >= block and p < block + size


cdef void arena_stream_free_node(CNode* node) noexcept nogil:
    """Give back an element's or a character-data node's pieces, then its
    block (a streaming document's; subtree_reclaim)."""
    cdef Arena* arena = &node.owner.arena
    cdef size_t size
    cdef uint8_t* block = stream_block_of(node, &size)
    cdef CElement* element
    cdef CCharacterData* data
    cdef CProcessingInstruction* pi
    cdef uint32_t i
    if node.type == ELEMENT_NODE:
        element = <CElement*> node
        for i in range(element.attr_count):
            if not (element.attrs[i].value >= block and element.attrs[i].value < block + size):
                arena_stream_give(arena, element.attrs[i].value, element.attrs[i].value_length)
        if element.attrs != NULL and not (<uint8_t*> element.attrs >= block
                                          and <uint8_t*> element.attrs < block + size):
            arena_stream_give(arena, <uint8_t*> element.attrs,
                              <size_t> element.attr_capacity * sizeof(CAttr))
        element.attr_count = 0
        element.attr_capacity = 0
        element.attrs = NULL
    else:
        data = <CCharacterData*> node
        if node.type == PROCESSING_INSTRUCTION_NODE:
            pi = <CProcessingInstruction*> node
            if not (pi.target >= block and pi.target < block + size):
                arena_stream_give(arena, pi.target, pi.target_length)
        if node.flags & NODE_DATA_BIG:
            arena_big_free(arena, data.data)
            node.flags &= ~NODE_DATA_BIG
        elif not (data.data >= block and data.data < block + size):
            arena_stream_give(arena, data.data, data.capacity)
        data.data = NULL
        data.capacity = 0
    if size >= BIG_ALLOCATION:
        arena_big_free(arena, block)
    else:
        (<uint8_t**> block)[0] = arena.recycled[(size + (ARENA_ALIGN - 1)) // ARENA_ALIGN]
        arena.recycled[(size + (ARENA_ALIGN - 1)) // ARENA_ALIGN] = block
