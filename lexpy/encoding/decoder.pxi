# The streaming decoder: one StreamDecoder for any encoding, fed chunk by
# chunk. It does the standard's "decode"
# (https://encoding.spec.whatwg.org/#decode) over a stream that arrives in
# pieces: BOM sniffing that waits for three bytes, the encoding's decoder with
# its state kept between chunks, end-of-queue at the last chunk.

ctypedef bint (*ByteHandler)(StreamDecoder* d, uint8_t byte, Writer* w) noexcept nogil
ctypedef bint (*EndHandler)(StreamDecoder* d, Writer* w) noexcept nogil


cdef void decoder_init(StreamDecoder* d, int encoding, BomMode bom_mode) noexcept nogil:
    d.encoding = encoding
    d.bom_mode = bom_mode
    d.bom_count = 0
    d.started = bom_mode == BOM_IGNORE
    d.finished = False
    decoder_reset_state(d)


# The state of a new decoder instance for d.encoding. Helper of lexpy.
cdef void decoder_reset_state(StreamDecoder* d) noexcept nogil:
    d.replay_count = 0
    utf8_reset(d)
    d.leading = 0
    d.gb18030_second = 0
    d.gb18030_third = 0
    d.euc_jp_jis0212 = False
    d.iso2022jp_state = ISO2022JP_ASCII
    d.iso2022jp_output_state = ISO2022JP_ASCII
    d.iso2022jp_output = False
    d.utf16_leading_byte = -1
    d.utf16_leading_surrogate = 0
    d.replacement_error_returned = False


# The handler of a decoder that reads byte by byte (NULL for those that
# decode a chunk in one loop of their own).
cdef inline ByteHandler byte_handler(int encoding) noexcept nogil:
    if encoding == ENCODING_GBK or encoding == ENCODING_GB18030:
        return gb18030_handler
    if encoding == ENCODING_BIG5:
        return big5_handler
    if encoding == ENCODING_EUC_JP:
        return euc_jp_handler
    if encoding == ENCODING_ISO_2022_JP:
        return iso_2022_jp_handler
    if encoding == ENCODING_SHIFT_JIS:
        return shift_jis_handler
    if encoding == ENCODING_EUC_KR:
        return euc_kr_handler
    if is_utf16(encoding):
        return utf16_handler
    return NULL


cdef inline EndHandler end_handler(int encoding) noexcept nogil:
    if encoding == ENCODING_GBK or encoding == ENCODING_GB18030:
        return gb18030_end
    if encoding == ENCODING_ISO_2022_JP:
        return iso_2022_jp_end
    if is_utf16(encoding):
        return utf16_end
    return leading_byte_end


# The code point of a two-byte sequence that the encoding's decoder maps, or
# 0 to leave the pair to the handler (invalid pairs, the special pointers,
# gb18030's four-byte sequences). A shortcut of lexpy's for the common case:
# its result is the handler's for the same two bytes.
cdef inline uint32_t pair_code_point(int encoding, uint32_t leading,
                                     uint32_t trailing) noexcept nogil:
    cdef uint32_t pointer
    if encoding == ENCODING_SHIFT_JIS:
        if (0x81 <= leading <= 0x9F or 0xE0 <= leading <= 0xFC) and (
                0x40 <= trailing <= 0x7E or 0x80 <= trailing <= 0xFC):
            pointer = ((leading - (0x81 if leading < 0xA0 else 0xC1)) * 188
                       + trailing - (0x40 if trailing < 0x7F else 0x41))
            if pointer < 8836 or pointer > 10715:
                return index_jis0208_code_point(pointer)
        return 0
    if encoding == ENCODING_EUC_KR:
        if 0x81 <= leading <= 0xFE and 0x41 <= trailing <= 0xFE:
            return index_euc_kr_code_point((leading - 0x81) * 190 + trailing - 0x41)
        return 0
    if encoding == ENCODING_EUC_JP:
        if 0xA1 <= leading <= 0xFE and 0xA1 <= trailing <= 0xFE:
            return index_jis0208_code_point((leading - 0xA1) * 94 + trailing - 0xA1)
        return 0
    if encoding == ENCODING_BIG5:
        if 0x81 <= leading <= 0xFE and (0x40 <= trailing <= 0x7E or 0xA1 <= trailing <= 0xFE):
            pointer = (leading - 0x81) * 157 + trailing - (0x40 if trailing < 0x7F else 0x62)
            if pointer != 1133 and pointer != 1135 and pointer != 1164 and pointer != 1166:
                return index_big5_code_point(pointer)
        return 0
    if encoding == ENCODING_GB18030 or encoding == ENCODING_GBK:
        if 0x81 <= leading <= 0xFE and (0x40 <= trailing <= 0x7E or 0x80 <= trailing <= 0xFE):
            return index_gb18030_code_point(
                (leading - 0x81) * 190 + trailing - (0x40 if trailing < 0x7F else 0x41))
        return 0
    return 0


# Process the queue: restored bytes first, then data[0:length], through a
# handler. ASCII passes straight through while no sequence is open, for the
# decoders that map ASCII to itself outside sequences (all but ISO-2022-JP
# and UTF-16).
cdef void run_handler(StreamDecoder* d, ByteHandler handler,
                      const uint8_t* data, size_t length, Writer* w) noexcept nogil:
    cdef size_t i = 0, run
    cdef uint32_t code_point
    cdef int encoding = d.encoding
    cdef bint utf16 = handler == utf16_handler
    cdef bint ascii_transparent = handler != iso_2022_jp_handler and not utf16
    while True:
        if d.replay_count:
            if handler(d, d.replay[0], w):
                replay_pop(d)
            continue
        if i >= length:
            return
        if ascii_transparent and d.leading == 0:
            if data[i] < 0x80:
                i += copy_ascii(w, data + i, length - i)
                continue
            if i + 1 < length:
                code_point = pair_code_point(encoding, data[i], data[i + 1])
                if code_point:
                    write_code_point(w, code_point)
                    i += 2
                    continue
        if utf16 and d.utf16_leading_byte < 0 and d.utf16_leading_surrogate == 0:
            run = utf16_decode_run(d, data + i, length - i, w)
            if run:
                i += run
                continue
        if handler(d, data[i], w):
            i += 1


# End-of-queue: the restored bytes, then the end handler until finished.
cdef void run_end(StreamDecoder* d, ByteHandler handler, EndHandler end,
                  Writer* w) noexcept nogil:
    while True:
        if d.replay_count:
            if handler(d, d.replay[0], w):
                replay_pop(d)
            continue
        if end(d, w):
            return


# Decode data[0:length] with d's decoder into w (no end-of-queue).
cdef void decode_into(StreamDecoder* d, const uint8_t* data, size_t length,
                      Writer* w) noexcept nogil:
    cdef int encoding = d.encoding
    cdef ByteHandler handler
    if encoding == ENCODING_UTF_8:
        utf8_decode(d, data, length, w)
    elif encoding == ENCODING_REPLACEMENT:
        replacement_decode(d, length, w)
    elif encoding == ENCODING_X_USER_DEFINED:
        x_user_defined_decode(data, length, w)
    elif lxp_single_byte_row[encoding] != 255:
        single_byte_decode(encoding, data, length, w)
    else:
        run_handler(d, byte_handler(encoding), data, length, w)


cdef void decode_end(StreamDecoder* d, Writer* w) noexcept nogil:
    cdef int encoding = d.encoding
    cdef ByteHandler handler
    if encoding == ENCODING_UTF_8:
        utf8_end(d, w)
        return
    handler = byte_handler(encoding)
    if handler != NULL:
        run_end(d, handler, end_handler(encoding), w)


# Whether data[0:length] (1 or 2 bytes) could still grow into a BOM.
cdef inline bint is_bom_prefix(const uint8_t* data, size_t length) noexcept nogil:
    if length == 1:
        return data[0] == 0xEF or data[0] == 0xFE or data[0] == 0xFF
    if length == 2:
        return data[0] == 0xEF and data[1] == 0xBB
    return False


cdef int decoder_decode(StreamDecoder* d, const uint8_t* chunk, size_t length,
                        bint last, ByteBuffer* buffer, const uint8_t** output,
                        size_t* output_length) except -1 nogil:
    cdef uint8_t held[3]
    cdef uint8_t scratch[32]
    cdef size_t held_count = 0, take, bom_length, valid
    cdef int bom_encoding
    cdef StreamDecoder saved
    cdef Writer w
    output[0] = chunk
    output_length[0] = 0
    if d.finished:
        return 0
    if not d.started:
        # BOM sniffing over the first three bytes of the stream, which may
        # come in several chunks.
        take = 3 - d.bom_count
        if take > length:
            take = length
        if d.bom_count + take == 0 and not last:
            return 0
        memcpy(held, d.bom, d.bom_count)
        memcpy(held + d.bom_count, chunk, take)
        bom_encoding = bom_sniff(held, d.bom_count + take, &bom_length)
        if bom_encoding != ENCODING__NONE:
            d.encoding = bom_encoding
            decoder_reset_state(d)
            chunk += bom_length - d.bom_count
            length -= bom_length - d.bom_count
            d.bom_count = 0
            d.started = True
        elif not last and is_bom_prefix(held, d.bom_count + take):
            memcpy(d.bom, held, d.bom_count + take)
            d.bom_count += take
            return 0
        else:
            # Not a BOM: the bytes held from earlier chunks are input.
            held_count = d.bom_count
            d.bom_count = 0
            d.started = True

    if d.encoding == ENCODING_UTF_8 and held_count == 0 and d.utf8_bytes_needed == 0:
        # Valid UTF-8 is its own output: validate in place.
        output[0] = chunk
        valid = utf8_validate(chunk, length)
        if valid == length:
            output_length[0] = length
            if last:
                d.finished = True
            return 0
        if not last and length - valid <= 3:
            # The chunk may end in a sequence that the next one completes.
            saved = d[0]
            w.position = scratch   # a sequence in progress writes nothing
            utf8_decode(d, chunk + valid, length - valid, &w)
            if w.position == scratch and d.utf8_bytes_needed != 0:
                output_length[0] = valid
                return 0
            d[0] = saved

    # Conversion into the buffer: at most 3 bytes out per byte in (U+FFFD for
    # each invalid byte), plus what the state and restored bytes hold.
    byte_buffer_reserve(buffer, 3 * (held_count + length + 16) + 16)
    w.position = buffer.data
    if held_count:
        decode_into(d, held, held_count, &w)
    decode_into(d, chunk, length, &w)
    if last:
        decode_end(d, &w)
        d.finished = True
    buffer.length = w.position - buffer.data
    output[0] = buffer.data
    output_length[0] = buffer.length
    return 0
