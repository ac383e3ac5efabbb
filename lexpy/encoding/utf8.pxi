# UTF-8: validation of valid input in place, and the standard's decoder
# for the rest (https://encoding.spec.whatwg.org/#utf-8-decoder).


cdef extern from "utf8_encode.h" nogil:
    size_t lxp_utf8_encode(unsigned int kind, const void* data, size_t length,
                           uint8_t* out)


# UTF-8 of a str's code points (PEP 393 storage: `kind` bytes a code point),
# lone surrogates as U+FFFD (they cannot be UTF-8): utf8_encode.h. Helper of
# lexpy.
cdef size_t utf8_encode_code_points(unsigned int kind, const void* data,
                                    size_t length, uint8_t* out) noexcept nogil:
    return lxp_utf8_encode(kind, data, length, out)


cdef extern from "ascii_scan.h" nogil:
    size_t lxp_ascii_prefix_length(const uint8_t* s, size_t n)
    int lxp_ascii_scan_init(int allowed)


lxp_ascii_scan_init(1)


# The number of bytes below 0x80 at the start of data[0:length]
# (ascii_scan.h). Helper of lexpy.
cdef inline size_t ascii_prefix_length(const uint8_t* data, size_t length) noexcept nogil:
    return lxp_ascii_prefix_length(data, length)


# The length of the longest prefix made of complete, valid UTF-8 sequences.
# The byte ranges are those of the UTF-8 decoder's boundaries (no overlongs,
# no surrogates, nothing above U+10FFFF). Helper of lexpy.
cdef size_t utf8_validate(const uint8_t* data, size_t length) noexcept nogil:
    cdef size_t i = 0
    cdef uint8_t lead, second
    while True:
        i += ascii_prefix_length(data + i, length - i)
        # Multi-byte sequences, one after the other while they last.
        while i < length:
            lead = data[i]
            if lead < 0x80:
                break
            if lead < 0xC2:
                return i
            if lead < 0xE0:
                if i + 1 >= length or (data[i + 1] & 0xC0) != 0x80:
                    return i
                i += 2
            elif lead < 0xF0:
                if i + 2 >= length:
                    return i
                second = data[i + 1]
                if lead == 0xE0:
                    if second < 0xA0 or second > 0xBF:
                        return i
                elif lead == 0xED:
                    if second < 0x80 or second > 0x9F:
                        return i
                elif (second & 0xC0) != 0x80:
                    return i
                if (data[i + 2] & 0xC0) != 0x80:
                    return i
                i += 3
            elif lead < 0xF5:
                if i + 3 >= length:
                    return i
                second = data[i + 1]
                if lead == 0xF0:
                    if second < 0x90 or second > 0xBF:
                        return i
                elif lead == 0xF4:
                    if second < 0x80 or second > 0x8F:
                        return i
                elif (second & 0xC0) != 0x80:
                    return i
                if (data[i + 2] & 0xC0) != 0x80 or (data[i + 3] & 0xC0) != 0x80:
                    return i
                i += 4
            else:
                return i
        if i >= length:
            return length


cdef inline void utf8_reset(StreamDecoder* d) noexcept nogil:
    d.utf8_code_point = 0
    d.utf8_bytes_needed = 0
    d.utf8_bytes_seen = 0
    d.utf8_lower_boundary = 0x80
    d.utf8_upper_boundary = 0xBF


# UTF-8 decoder's handler for one byte. Returns whether the byte was
# consumed (false: "restore byte to ioQueue", it is read again).
cdef bint utf8_handler(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil:
    cdef uint32_t code_point
    if d.utf8_bytes_needed == 0:
        if byte < 0x80:
            write_byte(w, byte)
        elif 0xC2 <= byte <= 0xDF:
            d.utf8_bytes_needed = 1
            d.utf8_code_point = byte & 0x1F
        elif 0xE0 <= byte <= 0xEF:
            if byte == 0xE0:
                d.utf8_lower_boundary = 0xA0
            if byte == 0xED:
                d.utf8_upper_boundary = 0x9F
            d.utf8_bytes_needed = 2
            d.utf8_code_point = byte & 0xF
        elif 0xF0 <= byte <= 0xF4:
            if byte == 0xF0:
                d.utf8_lower_boundary = 0x90
            if byte == 0xF4:
                d.utf8_upper_boundary = 0x8F
            d.utf8_bytes_needed = 3
            d.utf8_code_point = byte & 0x7
        else:
            write_error(w)
        return True
    if byte < d.utf8_lower_boundary or byte > d.utf8_upper_boundary:
        utf8_reset(d)
        write_error(w)
        return False
    d.utf8_lower_boundary = 0x80
    d.utf8_upper_boundary = 0xBF
    d.utf8_code_point = (d.utf8_code_point << 6) | (byte & 0x3F)
    d.utf8_bytes_seen += 1
    if d.utf8_bytes_seen != d.utf8_bytes_needed:
        return True
    code_point = d.utf8_code_point
    utf8_reset(d)
    write_code_point(w, code_point)
    return True


# The UTF-8 sequence that starts at data[0] (a byte 0x80 or above): its
# length when it is a complete, valid multi-byte sequence, 0 when it is
# invalid, -1 when data[0:length] is a valid beginning that more bytes may
# complete -- as the UTF-8 decoder's handler decides it. Helper of lexpy.
cdef int utf8_sequence_length(const uint8_t* data, size_t length) noexcept nogil:
    cdef StreamDecoder d
    cdef uint8_t output[8]
    cdef Writer w
    cdef size_t i
    w.position = output
    utf8_reset(&d)
    for i in range(length if length < 4 else 4):
        if not utf8_handler(&d, data[i], &w):
            return 0                # a byte outside the boundaries
        if d.utf8_bytes_needed == 0:
            # The lead byte was an error, or the last byte came.
            return 0 if i == 0 else <int> i + 1
    return -1


cdef void utf8_end(StreamDecoder* d, Writer* w) noexcept nogil:
    if d.utf8_bytes_needed != 0:
        utf8_reset(d)
        write_error(w)


# Decode data[0:length] into w: valid runs are copied, the rest goes through
# the handler, and a sequence left open at the end stays in the state.
cdef void utf8_decode(StreamDecoder* d, const uint8_t* data, size_t length,
                      Writer* w) noexcept nogil:
    cdef size_t i = 0, valid
    while i < length:
        if d.utf8_bytes_needed == 0:
            valid = utf8_validate(data + i, length - i)
            memcpy(w.position, data + i, valid)
            w.position += valid
            i += valid
            if i >= length:
                break
        # One sequence through the handler (an invalid one, or one that the
        # chunk splits).
        if utf8_handler(d, data[i], w):
            i += 1
        while d.utf8_bytes_needed != 0 and i < length:
            if utf8_handler(d, data[i], w):
                i += 1
