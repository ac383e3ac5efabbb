# Legacy multi-byte Chinese encodings: gb18030 (GBK's decoder is gb18030's)
# and Big5. Each handler takes one byte and returns whether it was consumed
# (false: the byte was restored to the input and is read again); an end
# handler handles end-of-queue. The state lives in StreamDecoder: `leading`
# is "gb18030 first" / "Big5 leading".


# gb18030 decoder (https://encoding.spec.whatwg.org/#gb18030-decoder)
cdef bint gb18030_handler(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil:
    cdef uint32_t leading, pointer, code_point, offset
    if d.gb18030_third != 0:
        if byte < 0x30 or byte > 0x39:
            restore_two_bytes(d, d.gb18030_second, d.gb18030_third)
            d.leading = d.gb18030_second = d.gb18030_third = 0
            write_error(w)
            return False
        code_point = index_gb18030_ranges_code_point(
            (d.leading - 0x81) * (10 * 126 * 10)
            + (d.gb18030_second - 0x30) * (10 * 126)
            + (d.gb18030_third - 0x81) * 10 + byte - 0x30)
        d.leading = d.gb18030_second = d.gb18030_third = 0
        if code_point == 0:
            write_error(w)
        else:
            write_code_point(w, code_point)
        return True
    if d.gb18030_second != 0:
        if 0x81 <= byte <= 0xFE:
            d.gb18030_third = byte
            return True
        restore_byte(d, d.gb18030_second)
        d.leading = d.gb18030_second = 0
        write_error(w)
        return False
    if d.leading != 0:
        if 0x30 <= byte <= 0x39:
            d.gb18030_second = byte
            return True
        leading = d.leading
        d.leading = 0
        code_point = 0
        offset = 0x40 if byte < 0x7F else 0x41
        if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:
            pointer = (leading - 0x81) * 190 + (byte - offset)
            code_point = index_gb18030_code_point(pointer)
        if code_point != 0:
            write_code_point(w, code_point)
            return True
        write_error(w)
        return byte >= 0x80      # an ASCII byte is restored
    if byte < 0x80:
        write_byte(w, byte)
    elif byte == 0x80:
        write_code_point(w, 0x20AC)
    elif byte <= 0xFE:
        d.leading = byte
    else:
        write_error(w)
    return True


cdef bint gb18030_end(StreamDecoder* d, Writer* w) noexcept nogil:
    if d.leading != 0 or d.gb18030_second != 0 or d.gb18030_third != 0:
        d.leading = d.gb18030_second = d.gb18030_third = 0
        write_error(w)
    return True


# Big5 decoder (https://encoding.spec.whatwg.org/#big5-decoder)
cdef bint big5_handler(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil:
    cdef uint32_t leading, pointer, code_point, offset
    cdef bint has_pointer = False
    if d.leading != 0:
        leading = d.leading
        d.leading = 0
        offset = 0x40 if byte < 0x7F else 0x62
        if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
            pointer = (leading - 0x81) * 157 + (byte - offset)
            has_pointer = True
            # Pointers whose code points are two (an index holds one).
            if pointer == 1133:
                write_code_point(w, 0x00CA)
                write_code_point(w, 0x0304)
                return True
            if pointer == 1135:
                write_code_point(w, 0x00CA)
                write_code_point(w, 0x030C)
                return True
            if pointer == 1164:
                write_code_point(w, 0x00EA)
                write_code_point(w, 0x0304)
                return True
            if pointer == 1166:
                write_code_point(w, 0x00EA)
                write_code_point(w, 0x030C)
                return True
        code_point = index_big5_code_point(pointer) if has_pointer else 0
        if code_point != 0:
            write_code_point(w, code_point)
            return True
        write_error(w)
        return byte >= 0x80
    if byte < 0x80:
        write_byte(w, byte)
    elif 0x81 <= byte <= 0xFE:
        d.leading = byte
    else:
        write_error(w)
    return True


# The end-of-queue step shared by the decoders whose only state is a
# leading byte (Big5, EUC-JP, Shift_JIS, EUC-KR).
cdef bint leading_byte_end(StreamDecoder* d, Writer* w) noexcept nogil:
    if d.leading != 0:
        d.leading = 0
        write_error(w)
    return True
