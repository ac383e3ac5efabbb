# Offsets into the original input (encoding.pxd: OffsetMap). Not in the
# standard: the parser's positions (lexpy.parse(positions=True)) count in
# the input as given, while the tokenizer counts in the UTF-8 the decoder
# made of it. The map decodes the input again, a character at a time where
# it must (valid UTF-8 goes in runs), and records where the delta between
# the two changes.


cdef void offset_map_init(OffsetMap* m, int encoding) noexcept nogil:
    memset(m, 0, sizeof(OffsetMap))
    decoder_init(&m.decoder, encoding, BOM_SNIFF)
    byte_buffer_init(&m.scratch)


cdef void offset_map_free(OffsetMap* m) noexcept nogil:
    free(m.points)
    m.points = NULL
    m.count = m.capacity = 0
    byte_buffer_free(&m.scratch)


cdef int offset_map_record(OffsetMap* m, size_t stream_offset,
                           size_t original) except -1 nogil:
    """A character at `stream_offset` came from `original`: a checkpoint
    when that is not where the last delta puts it."""
    cdef size_t* grown
    cdef size_t capacity
    if m.count:
        if m.points[2 * m.count - 1] + (stream_offset - m.points[2 * m.count - 2]) \
                == original:
            return 0
    elif stream_offset == original:
        return 0
    if m.count == m.capacity:
        capacity = m.capacity * 2 if m.capacity else 64
        grown = <size_t*> realloc(m.points, capacity * 2 * sizeof(size_t))
        if grown == NULL:
            with gil:
                raise MemoryError()
        m.points = grown
        m.capacity = capacity
    m.points[2 * m.count] = stream_offset
    m.points[2 * m.count + 1] = original
    m.count += 1
    return 0


cdef int offset_map_output(OffsetMap* m, const uint8_t* output, size_t length,
                           size_t current, ByteBuffer* stream) except -1 nogil:
    """Record the characters of one decoding step's output: the first came
    from the bytes since `pending`, any later one (restored bytes) from the
    byte at `current`."""
    cdef size_t j
    cdef bint first = True
    for j in range(length):
        if (output[j] & 0xC0) != 0x80:
            offset_map_record(m, m.produced + j, m.pending if first else current)
            first = False
    if stream != NULL and length:
        byte_buffer_append(stream, output, length)
    m.produced += length
    return 0


cdef int offset_map_feed(OffsetMap* m, const uint8_t* chunk, size_t length,
                         bint last, ByteBuffer* stream) except -1 nogil:
    cdef size_t i = 0, valid
    cdef const uint8_t* output
    cdef size_t output_length
    cdef bint started
    cdef StreamDecoder* d = &m.decoder
    while i < length:
        if d.encoding == ENCODING_UTF_8 and d.started and d.utf8_bytes_needed == 0 \
                and d.replay_count == 0:
            # A run of valid UTF-8 is its own output, character for character.
            valid = utf8_validate(chunk + i, length - i)
            if valid:
                offset_map_record(m, m.produced, m.consumed + i)
                if stream != NULL:
                    byte_buffer_append(stream, chunk + i, valid)
                m.produced += valid
                i += valid
                m.pending = m.consumed + i
                continue
        started = d.started
        decoder_decode(d, chunk + i, 1, last and i + 1 == length, &m.scratch,
                       &output, &output_length)
        if output_length:
            offset_map_output(m, output, output_length, m.consumed + i, stream)
            m.pending = m.consumed + i + 1
        elif d.started and not started:
            m.pending = m.consumed + i + 1       # a byte order mark
        i += 1
    m.consumed += length
    if last:
        if not d.finished:
            decoder_decode(d, NULL, 0, True, &m.scratch, &output, &output_length)
            if output_length:
                offset_map_output(m, output, output_length, m.pending, stream)
        offset_map_record(m, m.produced, m.consumed)
    return 0


cdef size_t offset_map_original(OffsetMap* m, size_t stream_offset) noexcept nogil:
    cdef size_t low = 0, high = m.count, middle, original
    while low < high:
        middle = (low + high) // 2
        if m.points[2 * middle] <= stream_offset:
            low = middle + 1
        else:
            high = middle
    if low == 0:
        original = stream_offset
    else:
        original = m.points[2 * low - 1] + (stream_offset - m.points[2 * low - 2])
    return original if original < m.consumed else m.consumed
