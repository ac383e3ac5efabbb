# Legacy single-byte encodings (https://encoding.spec.whatwg.org/#legacy-single-byte-encodings)
# They have no state, so a chunk is decoded on its own.


# single-byte decoder (https://encoding.spec.whatwg.org/#single-byte-decoder)
cdef void single_byte_decode(int encoding, const uint8_t* data, size_t length,
                             Writer* w) noexcept nogil:
    cdef const uint16_t* index = lxp_index_single_byte[lxp_single_byte_row[encoding]]
    cdef size_t i = 0
    cdef uint32_t code_point
    while i < length:
        i += copy_ascii(w, data + i, length - i)
        while i < length and data[i] >= 0x80:
            code_point = index[data[i] - 0x80]
            if code_point == 0:
                write_error(w)
            else:
                write_code_point(w, code_point)
            i += 1
