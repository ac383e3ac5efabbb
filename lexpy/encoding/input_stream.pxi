# The input byte stream
# (https://html.spec.whatwg.org/multipage/parsing.html#the-input-byte-stream)
# as the parser driver sees it: bytes in (in chunks, split anywhere), UTF-8
# out. It holds the first bytes back until the encoding sniffing algorithm
# has decided (a BOM, the transport encoding, a complete <meta>, or 1024
# bytes, or the end of the input), decodes with the sniffed encoding, keeps
# the bytes while the confidence is tentative, and carries out "changing the
# encoding while parsing": on the fly when the bytes so far read the same in
# both encodings, else by a restart that decodes everything again.


cdef void input_byte_stream_init(InputByteStream* s, int transport_encoding,
                                 int default_encoding, bint keep_input) noexcept nogil:
    s.encoding = ENCODING_WINDOWS_1252
    s.confidence = CONFIDENCE_TENTATIVE
    s.transport_encoding = transport_encoding
    s.default_encoding = default_encoding
    s.keep_input = keep_input
    s.sniffed = False
    s.finished = False
    s.fed = 0
    decoder_init(&s.decoder, ENCODING_WINDOWS_1252, BOM_SNIFF)
    byte_buffer_init(&s.held)
    byte_buffer_init(&s.kept)
    byte_buffer_init(&s.converted)


cdef void input_byte_stream_free(InputByteStream* s) noexcept nogil:
    byte_buffer_free(&s.held)
    byte_buffer_free(&s.kept)
    byte_buffer_free(&s.converted)


# Run the sniffing algorithm on data[0:length]; when it has decided (or
# `last`), take its outcome and set up the decoder. Returns whether it did.
cdef bint input_byte_stream_sniff(InputByteStream* s, const uint8_t* data,
                                  size_t length, bint last) noexcept nogil:
    cdef SniffOutcome outcome = sniff_encoding(data, length, s.transport_encoding,
                                               s.default_encoding, 1024)
    if not outcome.decided and not last:
        return False
    s.sniffed = True
    s.encoding = outcome.encoding
    s.confidence = outcome.confidence
    if s.confidence == CONFIDENCE_CERTAIN:
        byte_buffer_free(&s.kept)        # no change of encoding can come
    decoder_init(&s.decoder, s.encoding, BOM_SNIFF)
    return True


cdef int input_byte_stream_feed(InputByteStream* s, const uint8_t* chunk,
                                size_t length, const uint8_t** output,
                                size_t* output_length) except -1 nogil:
    output[0] = chunk
    output_length[0] = 0
    if s.finished:
        return 0
    s.fed += length
    if s.keep_input and s.confidence == CONFIDENCE_TENTATIVE:
        byte_buffer_append(&s.kept, chunk, length)
    if not s.sniffed:
        if s.held.length == 0 and input_byte_stream_sniff(s, chunk, length, False):
            return decoder_decode(&s.decoder, chunk, length, False, &s.converted,
                                  output, output_length)
        byte_buffer_append(&s.held, chunk, length)
        if not input_byte_stream_sniff(s, s.held.data, s.held.length, False):
            return 0
        # The output may point into `held`, which stays until free.
        return decoder_decode(&s.decoder, s.held.data, s.held.length, False,
                              &s.converted, output, output_length)
    return decoder_decode(&s.decoder, chunk, length, False, &s.converted,
                          output, output_length)


cdef int input_byte_stream_finish(InputByteStream* s, const uint8_t** output,
                                  size_t* output_length) except -1 nogil:
    output[0] = NULL
    output_length[0] = 0
    if s.finished:
        return 0
    s.finished = True
    if not s.sniffed:
        input_byte_stream_sniff(s, s.held.data, s.held.length, True)
        return decoder_decode(&s.decoder, s.held.data, s.held.length, True,
                              &s.converted, output, output_length)
    return decoder_decode(&s.decoder, NULL, 0, True, &s.converted,
                          output, output_length)


cdef EncodingChange input_byte_stream_change_encoding(
        InputByteStream* s, int new_encoding, const uint8_t* input,
        size_t length) noexcept nogil:
    cdef int target
    if s.confidence != CONFIDENCE_TENTATIVE or new_encoding == ENCODING__NONE:
        return CHANGE_KEPT
    target = change_the_encoding(s.encoding, new_encoding)
    s.confidence = CONFIDENCE_CERTAIN
    if target == ENCODING__NONE:
        byte_buffer_free(&s.kept)
        return CHANGE_KEPT
    if input == NULL:
        input = s.kept.data
        length = s.kept.length
    if length == s.fed and same_interpretation(s.encoding, target, input, length):
        # Step 5: switch the decoder on the fly. The bytes so far were ASCII
        # (or decode the same way), so the old decoder holds nothing.
        s.encoding = target
        decoder_init(&s.decoder, target, BOM_IGNORE)
        s.decoder.finished = s.finished
        byte_buffer_free(&s.kept)
        return CHANGE_SWITCHED
    # Step 6: the document is parsed again from its first byte, with the new
    # encoding and the confidence certain.
    s.encoding = target
    return CHANGE_REPARSE


cdef int input_byte_stream_restart(InputByteStream* s, const uint8_t* input,
                                   size_t length, const uint8_t** output,
                                   size_t* output_length) except -1 nogil:
    if input == NULL:
        input = s.kept.data
        length = s.kept.length
    s.sniffed = True
    decoder_init(&s.decoder, s.encoding, BOM_SNIFF)
    # (`kept` stays until free: the output may point into it.)
    return decoder_decode(&s.decoder, input, length, s.finished, &s.converted,
                          output, output_length)
