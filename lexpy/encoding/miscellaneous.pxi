# Legacy miscellaneous encodings (https://encoding.spec.whatwg.org/#legacy-miscellaneous-encodings)
# replacement, UTF-16BE/LE, x-user-defined.


# replacement decoder (https://encoding.spec.whatwg.org/#replacement-decoder):
# one U+FFFD for any input that is not empty, then finished.
cdef void replacement_decode(StreamDecoder* d, size_t length, Writer* w) noexcept nogil:
    if length and not d.replacement_error_returned:
        d.replacement_error_returned = True
        write_error(w)


# shared UTF-16 decoder (https://encoding.spec.whatwg.org/#shared-utf-16-decoder)
cdef bint utf16_handler(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil:
    cdef uint32_t code_unit, leading_surrogate
    if d.utf16_leading_byte < 0:
        d.utf16_leading_byte = byte
        return True
    if d.encoding == ENCODING_UTF_16BE:
        code_unit = (<uint32_t>d.utf16_leading_byte << 8) + byte
    else:
        code_unit = (<uint32_t>byte << 8) + <uint32_t>d.utf16_leading_byte
    d.utf16_leading_byte = -1
    if d.utf16_leading_surrogate != 0:
        leading_surrogate = d.utf16_leading_surrogate
        d.utf16_leading_surrogate = 0
        if 0xDC00 <= code_unit <= 0xDFFF:
            write_code_point(w, 0x10000 + ((leading_surrogate - 0xD800) << 10)
                             + (code_unit - 0xDC00))
            return True
        # Restore the code unit's two bytes: the first is read again, then
        # this byte (not consumed).
        if d.encoding == ENCODING_UTF_16BE:
            restore_byte(d, <uint8_t>(code_unit >> 8))
        else:
            restore_byte(d, <uint8_t>(code_unit & 0xFF))
        write_error(w)
        return False
    if 0xD800 <= code_unit <= 0xDBFF:
        d.utf16_leading_surrogate = code_unit
        return True
    if 0xDC00 <= code_unit <= 0xDFFF:
        write_error(w)
        return True
    write_code_point(w, code_unit)
    return True


# The run of code units at data[0:length] that are not surrogates, while the
# decoder holds nothing: written directly. Returns the bytes consumed.
# Helper of lexpy (the handler does the rest).
cdef size_t utf16_decode_run(StreamDecoder* d, const uint8_t* data, size_t length,
                             Writer* w) noexcept nogil:
    cdef size_t i = 0
    cdef uint32_t code_unit
    cdef bint big_endian = d.encoding == ENCODING_UTF_16BE
    while i + 1 < length:
        if big_endian:
            code_unit = (<uint32_t>data[i] << 8) | data[i + 1]
        else:
            code_unit = (<uint32_t>data[i + 1] << 8) | data[i]
        if 0xD800 <= code_unit <= 0xDFFF:
            break
        write_code_point(w, code_unit)
        i += 2
    return i


cdef bint utf16_end(StreamDecoder* d, Writer* w) noexcept nogil:
    if d.utf16_leading_byte >= 0 or d.utf16_leading_surrogate != 0:
        d.utf16_leading_byte = -1
        d.utf16_leading_surrogate = 0
        write_error(w)
    return True


# x-user-defined decoder (https://encoding.spec.whatwg.org/#x-user-defined-decoder)
cdef void x_user_defined_decode(const uint8_t* data, size_t length,
                                Writer* w) noexcept nogil:
    cdef size_t i = 0
    while i < length:
        i += copy_ascii(w, data + i, length - i)
        while i < length and data[i] >= 0x80:
            write_code_point(w, 0xF780 + data[i] - 0x80)
            i += 1
