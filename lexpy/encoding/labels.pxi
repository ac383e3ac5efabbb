# Names and labels (https://encoding.spec.whatwg.org/#names-and-labels).


cdef inline bint is_ascii_whitespace(uint8_t c) noexcept nogil:
    # TAB, LF, FF, CR, SPACE (https://infra.spec.whatwg.org/#ascii-whitespace)
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


cdef inline uint8_t ascii_lower(uint8_t c) noexcept nogil:
    if 0x41 <= c <= 0x5A:
        return c + 0x20
    return c


cdef inline int label_compare(const char* a, const char* b) noexcept nogil:
    # strcmp over bytes as unsigned values (the generator sorts by bytes).
    cdef const uint8_t* x = <const uint8_t*>a
    cdef const uint8_t* y = <const uint8_t*>b
    while x[0] and x[0] == y[0]:
        x += 1
        y += 1
    return <int>x[0] - <int>y[0]


# get an encoding (https://encoding.spec.whatwg.org/#concept-encoding-get)
cdef int encoding_for_label(const uint8_t* label, size_t length) noexcept nogil:
    cdef uint8_t lowered[32]
    cdef size_t start = 0, end = length, i
    cdef int low, high, middle, order
    while start < end and is_ascii_whitespace(label[start]):
        start += 1
    while end > start and is_ascii_whitespace(label[end - 1]):
        end -= 1
    if end - start > <size_t>LXP_LABEL_MAX_LENGTH or end == start:
        return ENCODING__NONE
    for i in range(start, end):
        if label[i] == 0:
            return ENCODING__NONE       # no label holds NUL
        lowered[i - start] = ascii_lower(label[i])
    lowered[end - start] = 0
    low = 0
    high = LXP_LABEL_COUNT - 1
    while low <= high:
        middle = (low + high) >> 1
        order = label_compare(<const char*>lowered, lxp_labels[middle])
        if order == 0:
            return lxp_label_encodings[middle]
        if order < 0:
            high = middle - 1
        else:
            low = middle + 1
    return ENCODING__NONE


cdef const char* encoding_name(int encoding) noexcept nogil:
    if encoding < 0 or encoding >= LXP_ENCODING_COUNT:
        return NULL
    return lxp_encoding_names[encoding]


cdef inline bint is_utf16(int encoding) noexcept nogil:
    # UTF-16BE/LE (https://encoding.spec.whatwg.org/#utf-16be-le)
    return encoding == ENCODING_UTF_16BE or encoding == ENCODING_UTF_16LE
