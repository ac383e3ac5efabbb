# The decoders' I/O queues (https://encoding.spec.whatwg.org/#concept-stream):
# on the output side a growable byte buffer and a writer that appends UTF-8
# to room reserved beforehand (the decoders reserve the worst case for a
# chunk up front, so the inner loops write without checks); on the input side
# the bytes a handler restores, read again before the rest of the input.


cdef void byte_buffer_init(ByteBuffer* buffer) noexcept nogil:
    buffer.data = NULL
    buffer.length = 0
    buffer.capacity = 0


cdef void byte_buffer_free(ByteBuffer* buffer) noexcept nogil:
    free(buffer.data)
    byte_buffer_init(buffer)


# Make room for `capacity` bytes (the contents are not kept). Helper of
# lexpy, not of the standard.
cdef int byte_buffer_reserve(ByteBuffer* buffer, size_t capacity) except -1 nogil:
    cdef uint8_t* data
    if capacity <= buffer.capacity:
        return 0
    if capacity < 2 * buffer.capacity:
        capacity = 2 * buffer.capacity
    free(buffer.data)
    buffer.data = NULL
    buffer.capacity = 0
    data = <uint8_t*>malloc(capacity)
    if data == NULL:
        with gil:
            raise MemoryError("lexpy.encoding: cannot allocate %d bytes" % capacity)
    buffer.data = data
    buffer.capacity = capacity
    return 0


# Append data[0:length], keeping the contents. Helper of lexpy.
cdef int byte_buffer_append(ByteBuffer* buffer, const uint8_t* data,
                            size_t length) except -1 nogil:
    cdef size_t capacity
    cdef uint8_t* grown
    if length == 0:
        return 0
    if buffer.length + length > buffer.capacity:
        capacity = 2 * buffer.capacity
        if capacity < buffer.length + length:
            capacity = buffer.length + length
        if capacity < 256:
            capacity = 256
        grown = <uint8_t*>realloc(buffer.data, capacity)
        if grown == NULL:
            with gil:
                raise MemoryError("lexpy.encoding: cannot allocate %d bytes" % capacity)
        buffer.data = grown
        buffer.capacity = capacity
    memcpy(buffer.data + buffer.length, data, length)
    buffer.length += length
    return 0


cdef struct Writer:
    uint8_t* position


# The UTF-8 bytes of a scalar value.
from lexpy.core.utf8 cimport lxp_utf8_write


cdef inline void write_code_point(Writer* w, uint32_t code_point) noexcept nogil:
    w.position += lxp_utf8_write(code_point, w.position)


# A decoder error in error mode "replacement": U+FFFD.
cdef inline void write_error(Writer* w) noexcept nogil:
    cdef uint8_t* p = w.position
    p[0] = 0xEF
    p[1] = 0xBF
    p[2] = 0xBD
    w.position = p + 3


cdef inline void write_byte(Writer* w, uint8_t byte) noexcept nogil:
    w.position[0] = byte
    w.position += 1


# Copy the run of ASCII bytes at the start of data[0:length] (8 at a time
# while they last); returns how many were copied.
cdef inline size_t copy_ascii(Writer* w, const uint8_t* data,
                              size_t length) noexcept nogil:
    cdef size_t i = 0
    cdef uint64_t word
    while i + 8 <= length:
        memcpy(&word, data + i, 8)
        if word & 0x8080808080808080ULL:
            break
        memcpy(w.position + i, &word, 8)
        i += 8
    while i < length and data[i] < 0x80:
        w.position[i] = data[i]
        i += 1
    w.position += i
    return i


# Restore bytes to the input (https://encoding.spec.whatwg.org/#concept-stream-prepend):
# they are read before the byte being handled, which the handler restores
# too by returning false ("not consumed").
cdef inline void restore_byte(StreamDecoder* d, uint8_t byte) noexcept nogil:
    cdef int i = d.replay_count
    while i > 0:
        d.replay[i] = d.replay[i - 1]
        i -= 1
    d.replay[0] = byte
    d.replay_count += 1


cdef inline void restore_two_bytes(StreamDecoder* d, uint8_t first,
                                   uint8_t second) noexcept nogil:
    restore_byte(d, second)
    restore_byte(d, first)


cdef inline void replay_pop(StreamDecoder* d) noexcept nogil:
    cdef int i
    d.replay_count -= 1
    for i in range(d.replay_count):
        d.replay[i] = d.replay[i + 1]
