# Legacy multi-byte Korean encodings: EUC-KR (handler as in chinese.pxi).


# EUC-KR decoder (https://encoding.spec.whatwg.org/#euc-kr-decoder)
cdef bint euc_kr_handler(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil:
    cdef uint32_t leading, code_point = 0
    if d.leading != 0:
        leading = d.leading
        d.leading = 0
        if 0x41 <= byte <= 0xFE:
            code_point = index_euc_kr_code_point((leading - 0x81) * 190 + (byte - 0x41))
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
