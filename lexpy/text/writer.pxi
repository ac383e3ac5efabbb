# The text writer: one growing UTF-8 buffer and the state of white-space
# processing between the items written into it. No Python objects; every
# write is a no-op once memory ran out (`failed`).
#
# Items follow innerText's list of strings and required line break counts
# (https://html.spec.whatwg.org/multipage/dom.html#dom-innertext): breaks
# before the first string and after the last are dropped, a run of breaks
# becomes the largest count of newlines. Collapsible white space follows CSS
# Text's white-space processing rules
# (https://drafts.csswg.org/css-text/#white-space-processing): runs collapse
# to one space, also across inline element boundaries, and vanish at the
# start and end of a line.


cdef inline void writer_init(TextWriter* w) noexcept nogil:
    memset(w, 0, sizeof(TextWriter))
    w.line_start = True


cdef int writer_grow(TextWriter* w, size_t extra) noexcept nogil:
    cdef size_t capacity
    cdef uint8_t* data
    if w.failed:
        return -1
    if extra > (<size_t> -1) / 4 - w.length:
        w.failed = True
        return -1
    capacity = w.capacity * 2 if w.capacity else 4096
    while capacity < w.length + extra:
        capacity *= 2
    data = <uint8_t*> realloc(w.data, capacity)
    if data == NULL:
        w.failed = True
        return -1
    w.data = data
    w.capacity = capacity
    return 0


cdef inline void writer_raw(TextWriter* w, const uint8_t* data,
                            size_t length) noexcept nogil:
    if w.capacity - w.length < length and writer_grow(w, length) != 0:
        return
    memcpy(w.data + w.length, data, length)
    w.length += length


cdef inline void writer_raw_byte(TextWriter* w, uint8_t byte) noexcept nogil:
    if w.length == w.capacity and writer_grow(w, 1) != 0:
        return
    w.data[w.length] = byte
    w.length += 1


cdef void writer_newlines(TextWriter* w) noexcept nogil:
    """Write the waiting required line breaks as newlines (none before the
    first string); blank lines get the line prefix without its trailing
    spaces, the new line its prefix when content comes."""
    cdef uint32_t i
    if w.pending_breaks:
        if w.length > w.start:
            for i in range(w.pending_breaks):
                if i and w.prefix_trimmed:
                    writer_raw(w, w.prefix, w.prefix_trimmed)
                writer_raw_byte(w, 0x0A)
            w.need_prefix = True
            w.line_begin = True
            w.line_digits = 0
        w.pending_breaks = 0


cdef void writer_flush_breaks(TextWriter* w) noexcept nogil:
    """Before content: the waiting newlines, then the line's prefix (with
    the markers of containers whose first line this is)."""
    if w.pending_breaks:
        writer_newlines(w)
    if w.marker_length:
        writer_raw(w, w.prefix, w.marker_base)
        writer_raw(w, w.marker, w.marker_length)
        w.marker_length = 0
        w.need_prefix = False
    elif w.need_prefix:
        writer_raw(w, w.prefix, w.prefix_length)
        w.need_prefix = False


cdef inline void writer_break(TextWriter* w, uint32_t count) noexcept nogil:
    """A required line break count (0: only the end of a line)."""
    w.pending_space = False
    w.line_start = True
    if w.marker_length:           # leading breaks of a container: dropped
        return
    if count > w.pending_breaks:
        w.pending_breaks = count


cdef void writer_string(TextWriter* w, const uint8_t* data,
                        size_t length) noexcept nogil:
    """A string item written as is (a <br>'s newline, a cell's tab)."""
    if length == 0:
        return
    writer_flush_breaks(w)
    writer_raw(w, data, length)


cdef inline void writer_c(TextWriter* w, const char* text) noexcept nogil:
    writer_string(w, <const uint8_t*> text, strlen(text))


cdef inline bint is_collapsible(uint8_t c) noexcept nogil:
    # Spaces, tabs, segment breaks; CR counts as a space (CSS Text), and
    # form feed as HTML's ASCII white space.
    return c == 0x20 or c == 0x0A or c == 0x09 or c == 0x0D or c == 0x0C


cdef inline void writer_space_if_pending(TextWriter* w) noexcept nogil:
    if w.pending_space:
        w.pending_space = False
        writer_flush_breaks(w)
        writer_raw_byte(w, 0x20)


cdef void writer_text(TextWriter* w, const uint8_t* data, size_t length,
                      bint preformatted) noexcept nogil:
    """Text of a Text node (white-space: normal, or pre when preformatted)."""
    cdef size_t i = 0
    cdef size_t run
    if preformatted:
        if length == 0:
            return
        writer_space_if_pending(w)
        writer_flush_breaks(w)
        if w.prefix_length == 0:
            writer_raw(w, data, length)
        else:
            for i in range(length):
                if w.need_prefix:
                    writer_raw(w, w.prefix, w.prefix_length)
                    w.need_prefix = False
                writer_raw_byte(w, data[i])
                if data[i] == 0x0A:
                    w.need_prefix = True
        w.line_start = data[length - 1] == 0x0A
        return
    while i < length:
        if is_collapsible(data[i]):
            if not w.line_start:
                w.pending_space = True
            i += 1
            continue
        run = i
        while i < length and not is_collapsible(data[i]):
            i += 1
        writer_space_if_pending(w)
        writer_flush_breaks(w)
        writer_raw(w, data + run, i - run)
        w.line_start = False


cdef inline void writer_atomic(TextWriter* w) noexcept nogil:
    """An atomic inline (a replaced element, an inline-block's outside): it
    holds the line, so the spaces on both its sides stay."""
    writer_space_if_pending(w)
    w.line_start = False


cdef void writer_prefix_truncate(TextWriter* w, size_t length) noexcept nogil:
    """Cut the line prefix back to `length` bytes (leaving a container)."""
    if length < w.prefix_length:
        w.prefix_length = length
    w.prefix_trimmed = w.prefix_length
    while w.prefix_trimmed and w.prefix[w.prefix_trimmed - 1] == 0x20:
        w.prefix_trimmed -= 1


cdef void writer_prefix_push(TextWriter* w, const uint8_t* text,
                             size_t length) noexcept nogil:
    """Add to the text that starts every new line (Markdown's block quote
    marks and list indentation). Nesting deeper than the prefix's room is
    flattened."""
    if length > sizeof(w.prefix) - w.prefix_length:
        length = sizeof(w.prefix) - w.prefix_length
    memcpy(w.prefix + w.prefix_length, text, length)
    w.prefix_length += length
    writer_prefix_truncate(w, w.prefix_length)


cdef void writer_marker_push(TextWriter* w, const uint8_t* text,
                             size_t length) noexcept nogil:
    """A container's marker for its first line ("> ", "- ", "1. ")."""
    if w.marker_length == 0:
        w.marker_base = w.prefix_length
    if length > sizeof(w.marker) - w.marker_length:
        length = sizeof(w.marker) - w.marker_length
    memcpy(w.marker + w.marker_length, text, length)
    w.marker_length += length


cdef void writer_measure(TextWriter* w) noexcept nogil:
    """The first pass of making the text's str, at the end of a walk
    without the GIL (the second, with it, only writes the code points)."""
    if not w.failed and w.length:
        utf8_measure(w.data, w.length, &w.code_points, &w.max_char)
        w.measured = True


cdef str writer_finish(TextWriter* w):
    """The text written, as str (lone surrogates pass, as in the DOM); frees
    the buffer."""
    cdef str result
    try:
        if w.failed:
            raise MemoryError()
        if w.length == 0:
            result = ""
        elif w.measured:
            result = measured_utf8_str(w.data, w.length, w.code_points, w.max_char,
                                       False)
        else:
            result = PyUnicode_DecodeUTF8(<const char*> w.data,
                                          <Py_ssize_t> w.length, "surrogatepass")
    finally:
        free(w.data)
        w.data = NULL
        w.length = w.capacity = 0
    return result
