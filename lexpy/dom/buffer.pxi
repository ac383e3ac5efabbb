# One growing C buffer of UTF-8 output (serializer, tree dump, text
# content): written without the GIL, decoded to str once at the end.

cdef struct Buffer:
    uint8_t* data
    size_t length
    size_t capacity
    bint failed                   # out of memory: every later write is a no-op


cdef int buffer_grow(Buffer* buffer, size_t extra) noexcept nogil:
    cdef size_t capacity
    cdef uint8_t* data
    if buffer.failed:
        return -1
    if extra > (<size_t> -1) / 2 - buffer.length:
        buffer.failed = True
        return -1
    # Doubling; the need is at most SIZE_MAX / 2, so neither the doubling
    # of a (presized, odd) capacity nor the loop can wrap.
    capacity = buffer.capacity * 2 if buffer.capacity <= (<size_t> -1) / 4 \
        else buffer.length + extra
    if capacity < 1024:
        capacity = 1024
    while capacity < buffer.length + extra:
        capacity *= 2
    data = <uint8_t*> realloc(buffer.data, capacity)
    if data == NULL:
        buffer.failed = True
        return -1
    buffer.data = data
    buffer.capacity = capacity
    return 0


cdef void buffer_presize(Buffer* buffer, size_t capacity) noexcept nogil:
    """Start an empty buffer at `capacity` bytes when memory allows (a hint:
    without it the buffer grows as usual)."""
    if buffer.data == NULL and capacity > 1024:
        buffer.data = <uint8_t*> malloc(capacity)
        if buffer.data != NULL:
            buffer.capacity = capacity


cdef inline int buffer_write(Buffer* buffer, const uint8_t* data,
                             size_t length) noexcept nogil:
    cdef uint8_t* dest
    cdef size_t i
    if buffer.capacity - buffer.length < length:
        if buffer_grow(buffer, length) != 0:
            return -1
    dest = buffer.data + buffer.length
    if length <= 16:
        # Names and short runs: two overlapping fixed-size copies (one load
        # and one store each, never past either end) beat a call to memcpy.
        if length >= 8:
            memcpy(dest, data, 8)
            memcpy(dest + length - 8, data + length - 8, 8)
        elif length >= 4:
            memcpy(dest, data, 4)
            memcpy(dest + length - 4, data + length - 4, 4)
        else:
            for i in range(length):
                dest[i] = data[i]
    else:
        memcpy(dest, data, length)
    buffer.length += length
    return 0


cdef inline int buffer_write_c(Buffer* buffer, const char* text) noexcept nogil:
    return buffer_write(buffer, <const uint8_t*> text, strlen(text))


cdef inline int buffer_byte(Buffer* buffer, uint8_t byte) noexcept nogil:
    if buffer.length == buffer.capacity:
        if buffer_grow(buffer, 1) != 0:
            return -1
    buffer.data[buffer.length] = byte
    buffer.length += 1
    return 0


cdef inline int buffer_spaces(Buffer* buffer, size_t count) noexcept nogil:
    if buffer.capacity - buffer.length < count:
        if buffer_grow(buffer, count) != 0:
            return -1
    memset(buffer.data + buffer.length, 0x20, count)
    buffer.length += count
    return 0


cdef str buffer_finish(Buffer* buffer):
    """The buffer's text as str; frees the buffer."""
    cdef str result
    try:
        if buffer.failed:
            raise MemoryError()
        if buffer.length >= DECODE_LONG:
            result = decode_long_utf8(buffer.data, buffer.length)
        else:
            result = decode_utf8(buffer.data, buffer.length)
    finally:
        free(buffer.data)
        buffer.data = NULL
        buffer.length = buffer.capacity = 0
    return result


# Subtrees of fewer nodes than this are walked with the GIL held.
cdef enum:
    SMALL_SUBTREE = 16


cdef bint has_fewer_descendants(CNode* root, int limit) noexcept nogil:
    """Whether root has fewer than `limit` descendants (a walk that stops
    at `limit`)."""
    cdef CNode* node = root.first_child
    cdef int count = 0
    while node != NULL:
        count += 1
        if count >= limit:
            return False
        node = next_in_tree(node, root)
    return True


# https://dom.spec.whatwg.org/#concept-descendant-text-content
cdef int write_descendant_text(Buffer* out, CNode* root) noexcept nogil:
    cdef CNode* node = root.first_child
    cdef CCharacterData* text
    while node != NULL:
        prefetch_walk_ahead(node)
        if node.type == TEXT_NODE:
            text = <CCharacterData*> node
            buffer_write(out, text.data, text.length)
        node = next_in_tree(node, root)
    return -1 if out.failed else 0
