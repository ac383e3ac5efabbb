# Legacy multi-byte Japanese encodings: EUC-JP, ISO-2022-JP, Shift_JIS
# (handlers as in chinese.pxi).


# EUC-JP decoder (https://encoding.spec.whatwg.org/#euc-jp-decoder)
cdef bint euc_jp_handler(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil:
    cdef uint32_t leading, pointer, code_point
    if d.leading == 0x8E and 0xA1 <= byte <= 0xDF:
        d.leading = 0
        write_code_point(w, 0xFF61 - 0xA1 + byte)
        return True
    if d.leading == 0x8F and 0xA1 <= byte <= 0xFE:
        d.euc_jp_jis0212 = True
        d.leading = byte
        return True
    if d.leading != 0:
        leading = d.leading
        d.leading = 0
        code_point = 0
        if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:
            pointer = (leading - 0xA1) * 94 + byte - 0xA1
            if d.euc_jp_jis0212:
                code_point = index_jis0212_code_point(pointer)
            else:
                code_point = index_jis0208_code_point(pointer)
        d.euc_jp_jis0212 = False
        if code_point != 0:
            write_code_point(w, code_point)
            return True
        write_error(w)
        return byte >= 0x80
    if byte < 0x80:
        write_byte(w, byte)
    elif byte == 0x8E or byte == 0x8F or 0xA1 <= byte <= 0xFE:
        d.leading = byte
    else:
        write_error(w)
    return True


# ISO-2022-JP decoder states (https://encoding.spec.whatwg.org/#iso-2022-jp-decoder-state)
cdef enum Iso2022JpState:
    ISO2022JP_ASCII
    ISO2022JP_ROMAN
    ISO2022JP_KATAKANA
    ISO2022JP_LEADING_BYTE
    ISO2022JP_TRAILING_BYTE
    ISO2022JP_ESCAPE_START
    ISO2022JP_ESCAPE


# ISO-2022-JP decoder (https://encoding.spec.whatwg.org/#iso-2022-jp-decoder)
cdef bint iso_2022_jp_handler(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil:
    cdef uint32_t pointer, code_point, leading
    cdef int state
    cdef bint output
    if d.iso2022jp_state == ISO2022JP_ASCII:
        if byte == 0x1B:
            d.iso2022jp_state = ISO2022JP_ESCAPE_START
            return True
        d.iso2022jp_output = False
        if byte < 0x80 and byte != 0x0E and byte != 0x0F:
            write_byte(w, byte)
        else:
            write_error(w)
        return True
    if d.iso2022jp_state == ISO2022JP_ROMAN:
        if byte == 0x1B:
            d.iso2022jp_state = ISO2022JP_ESCAPE_START
            return True
        d.iso2022jp_output = False
        if byte == 0x5C:
            write_code_point(w, 0x00A5)
        elif byte == 0x7E:
            write_code_point(w, 0x203E)
        elif byte < 0x80 and byte != 0x0E and byte != 0x0F:
            write_byte(w, byte)
        else:
            write_error(w)
        return True
    if d.iso2022jp_state == ISO2022JP_KATAKANA:
        if byte == 0x1B:
            d.iso2022jp_state = ISO2022JP_ESCAPE_START
            return True
        d.iso2022jp_output = False
        if 0x21 <= byte <= 0x5F:
            write_code_point(w, 0xFF61 - 0x21 + byte)
        else:
            write_error(w)
        return True
    if d.iso2022jp_state == ISO2022JP_LEADING_BYTE:
        if byte == 0x1B:
            d.iso2022jp_state = ISO2022JP_ESCAPE_START
            return True
        d.iso2022jp_output = False
        if 0x21 <= byte <= 0x7E:
            d.leading = byte
            d.iso2022jp_state = ISO2022JP_TRAILING_BYTE
        else:
            write_error(w)
        return True
    if d.iso2022jp_state == ISO2022JP_TRAILING_BYTE:
        if byte == 0x1B:
            d.iso2022jp_state = ISO2022JP_ESCAPE_START
            write_error(w)
            return True
        d.iso2022jp_state = ISO2022JP_LEADING_BYTE
        if 0x21 <= byte <= 0x7E:
            pointer = (d.leading - 0x21) * 94 + byte - 0x21
            code_point = index_jis0208_code_point(pointer)
            if code_point != 0:
                write_code_point(w, code_point)
                return True
        write_error(w)
        return True
    if d.iso2022jp_state == ISO2022JP_ESCAPE_START:
        if byte == 0x24 or byte == 0x28:
            d.leading = byte
            d.iso2022jp_state = ISO2022JP_ESCAPE
            return True
        d.iso2022jp_output = False
        d.iso2022jp_state = d.iso2022jp_output_state
        write_error(w)
        return False                # the byte is restored
    # Escape
    leading = d.leading
    d.leading = 0
    state = -1
    if leading == 0x28 and byte == 0x42:
        state = ISO2022JP_ASCII
    elif leading == 0x28 and byte == 0x4A:
        state = ISO2022JP_ROMAN
    elif leading == 0x28 and byte == 0x49:
        state = ISO2022JP_KATAKANA
    elif leading == 0x24 and (byte == 0x40 or byte == 0x42):
        state = ISO2022JP_LEADING_BYTE
    if state != -1:
        d.iso2022jp_state = d.iso2022jp_output_state = state
        output = d.iso2022jp_output
        d.iso2022jp_output = True
        if output:
            write_error(w)
        return True
    restore_byte(d, <uint8_t>leading)
    d.iso2022jp_output = False
    d.iso2022jp_state = d.iso2022jp_output_state
    write_error(w)
    return False


# End-of-queue for ISO-2022-JP; returns true when finished (false: the
# restored bytes are read, then end-of-queue again).
cdef bint iso_2022_jp_end(StreamDecoder* d, Writer* w) noexcept nogil:
    cdef uint8_t state = d.iso2022jp_state
    if state == ISO2022JP_TRAILING_BYTE:
        d.iso2022jp_state = ISO2022JP_LEADING_BYTE
        write_error(w)
        return False
    if state == ISO2022JP_ESCAPE_START:
        d.iso2022jp_output = False
        d.iso2022jp_state = d.iso2022jp_output_state
        write_error(w)
        return False
    if state == ISO2022JP_ESCAPE:
        restore_byte(d, d.leading)
        d.leading = 0
        d.iso2022jp_output = False
        d.iso2022jp_state = d.iso2022jp_output_state
        write_error(w)
        return False
    return True


# Shift_JIS decoder (https://encoding.spec.whatwg.org/#shift_jis-decoder)
cdef bint shift_jis_handler(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil:
    cdef uint32_t leading, pointer, code_point, offset, leading_offset
    cdef bint has_pointer = False
    if d.leading != 0:
        leading = d.leading
        d.leading = 0
        offset = 0x40 if byte < 0x7F else 0x41
        leading_offset = 0x81 if leading < 0xA0 else 0xC1
        if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
            pointer = (leading - leading_offset) * 188 + byte - offset
            has_pointer = True
            if 8836 <= pointer <= 10715:
                # EUDC, interoperable legacy from Windows.
                write_code_point(w, 0xE000 - 8836 + pointer)
                return True
        code_point = index_jis0208_code_point(pointer) if has_pointer else 0
        if code_point != 0:
            write_code_point(w, code_point)
            return True
        write_error(w)
        return byte >= 0x80
    if byte < 0x80:
        write_byte(w, byte)
    elif byte == 0x80:
        write_code_point(w, 0x80)
    elif 0xA1 <= byte <= 0xDF:
        write_code_point(w, 0xFF61 - 0xA1 + byte)
    elif 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC:
        d.leading = byte
    else:
        write_error(w)
    return True
