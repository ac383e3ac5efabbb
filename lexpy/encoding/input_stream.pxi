# The input byte stream (https://html.spec.whatwg.org/multipage/parsing.html#the-input-byte-stream)
# As the parser driver sees it: bytes in (in chunks, split anywhere), UTF-8
# out. It holds the first bytes back until the encoding sniffing algorithm
# has decided (a BOM, the transport encoding, a complete <meta>, or 1024
# bytes, or the end of the input), autodetects UTF-8 when the sniffing
# ended at the default (autodetection.pxi), decodes with the encoding found,
# keeps the bytes while the confidence is tentative, and carries out
# "changing the encoding while parsing": on the fly when the bytes so far
# read the same in both encodings, else by a restart that decodes everything
# again.


cdef void input_byte_stream_init(InputByteStream* s, int transport_encoding,
                                 int default_encoding, bint keep_input) noexcept nogil:
    s.encoding = ENCODING_WINDOWS_1252
    s.confidence = CONFIDENCE_TENTATIVE
    s.transport_encoding = transport_encoding
    s.default_encoding = default_encoding
    s.keep_input = keep_input
    s.autodetect = False
    s.detecting = False
    s.sniffed = False
    s.finished = False
    s.fed = 0
    s.waiting_length = <size_t> -1
    s.sniff_runs = 0
    decoder_init(&s.decoder, ENCODING_WINDOWS_1252, BOM_SNIFF)
    byte_buffer_init(&s.held)
    byte_buffer_init(&s.kept)
    byte_buffer_init(&s.undecided)
    byte_buffer_init(&s.converted)


cdef void input_byte_stream_free(InputByteStream* s) noexcept nogil:
    byte_buffer_free(&s.held)
    byte_buffer_free(&s.kept)
    byte_buffer_free(&s.undecided)
    byte_buffer_free(&s.converted)


cdef void input_byte_stream_set_autodetect(InputByteStream* s,
                                           bint enabled) noexcept nogil:
    s.autodetect = enabled


# Run the sniffing algorithm on data[0:length]; when it has decided (or
# `last`), take its outcome and set up the decoder. Returns whether it did.
# An undecided outcome over the held bytes is kept: the end of the input
# takes it instead of running the algorithm again over the same bytes (its
# outcome does not depend on `last`, only whether it is taken does).
cdef bint input_byte_stream_sniff(InputByteStream* s, const uint8_t* data,
                                  size_t length, bint last) noexcept nogil:
    cdef SniffOutcome outcome
    if last and s.waiting_length == length:
        outcome = s.waiting
    else:
        s.sniff_runs += 1
        outcome = sniff_encoding(data, length, s.transport_encoding,
                                 s.default_encoding, 1024)
    if not outcome.decided and not last:
        s.waiting = outcome
        s.waiting_length = length
        return False
    s.sniffed = True
    s.encoding = outcome.encoding
    s.confidence = outcome.confidence
    if s.confidence == CONFIDENCE_CERTAIN:
        byte_buffer_free(&s.kept)        # no change of encoding can come
    s.detecting = (s.autodetect and outcome.from_default
                   and autodetection_applies(s.encoding))
    # (Without a BOM at the start, which the sniffing would have found, a
    # decoder that starts later in the stream must not look for one.)
    decoder_init(&s.decoder, s.encoding, BOM_IGNORE if s.detecting else BOM_SNIFF)
    return True


# The UTF-8 of data[0:length], the next bytes after sniffing: through
# autodetection while it has not decided, else through the decoder (after
# the bytes that waited for autodetection, when a <meta> ended it).
cdef int input_byte_stream_decode(InputByteStream* s, const uint8_t* data,
                                  size_t length, bint last, const uint8_t** output,
                                  size_t* output_length) except -1 nogil:
    if s.detecting:
        return input_byte_stream_autodetect(s, data, length, last, output,
                                            output_length)
    if s.undecided.length:
        byte_buffer_append(&s.undecided, data, length)
        data = s.undecided.data
        length = s.undecided.length
        s.undecided.length = 0      # (freed at the next call: output points here)
    elif s.undecided.data != NULL:
        byte_buffer_free(&s.undecided)
    return decoder_decode(&s.decoder, data, length, last, &s.converted,
                          output, output_length)


# Autodetection over the next bytes: the ASCII before the first non-ASCII
# byte is output as it is; from that byte on the bytes wait in `undecided`
# until autodetect_utf8 decides, then all go through the decoder it chose.
cdef int input_byte_stream_autodetect(InputByteStream* s, const uint8_t* data,
                                      size_t length, bint last,
                                      const uint8_t** output,
                                      size_t* output_length) except -1 nogil:
    cdef size_t ascii = 0
    cdef AutodetectResult result
    output[0] = data
    output_length[0] = 0
    if s.undecided.length == 0:
        result = autodetect_utf8_from_start(data, length, last, &ascii)
        if ascii == length:
            output_length[0] = length      # ASCII reads the same in both
            return 0
        if result == AUTODETECT_MORE:
            byte_buffer_append(&s.undecided, data + ascii, length - ascii)
            output_length[0] = ascii
            return 0
    else:
        byte_buffer_append(&s.undecided, data, length)
        result = autodetect_utf8(s.undecided.data, s.undecided.length, last)
        if result == AUTODETECT_MORE:
            return 0
        data = s.undecided.data
        length = s.undecided.length
        s.undecided.length = 0      # (freed at the next call: output points here)
    s.detecting = False
    if result == AUTODETECT_UTF_8:
        s.encoding = ENCODING_UTF_8
        decoder_init(&s.decoder, ENCODING_UTF_8, BOM_IGNORE)
    # The decoder has seen nothing yet: what went before was ASCII, passed on.
    return decoder_decode(&s.decoder, data, length, last, &s.converted,
                          output, output_length)


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
        if s.held.length == 0:
            if input_byte_stream_sniff(s, chunk, length, False):
                return input_byte_stream_decode(s, chunk, length, False, output,
                                                output_length)
            # (The held bytes are the chunk: its outcome stays the one waiting.)
            byte_buffer_append(&s.held, chunk, length)
            return 0
        byte_buffer_append(&s.held, chunk, length)
        if not input_byte_stream_sniff(s, s.held.data, s.held.length, False):
            return 0
        # The output may point into `held`, which stays until free.
        return input_byte_stream_decode(s, s.held.data, s.held.length, False,
                                        output, output_length)
    return input_byte_stream_decode(s, chunk, length, False, output, output_length)


cdef int input_byte_stream_finish(InputByteStream* s, const uint8_t** output,
                                  size_t* output_length) except -1 nogil:
    output[0] = NULL
    output_length[0] = 0
    if s.finished:
        return 0
    s.finished = True
    if not s.sniffed:
        input_byte_stream_sniff(s, s.held.data, s.held.length, True)
        return input_byte_stream_decode(s, s.held.data, s.held.length, True,
                                        output, output_length)
    return input_byte_stream_decode(s, NULL, 0, True, output, output_length)


cdef EncodingChange input_byte_stream_change_encoding(
        InputByteStream* s, int new_encoding, const uint8_t* input,
        size_t length) noexcept nogil:
    cdef int target
    if s.confidence != CONFIDENCE_TENTATIVE or new_encoding == ENCODING__NONE:
        return CHANGE_KEPT
    target = change_the_encoding(s.encoding, new_encoding)
    s.confidence = CONFIDENCE_CERTAIN
    # A <meta> decides before autodetection does; bytes that waited for it
    # go to the decoder in use (kept, or switched to on the fly) or are
    # decoded again by the restart.
    s.detecting = False
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
    s.detecting = False
    s.undecided.length = 0          # (in the input again)
    decoder_init(&s.decoder, s.encoding, BOM_SNIFF)
    # (`kept` stays until free: the output may point into it.)
    return decoder_decode(&s.decoder, input, length, s.finished, &s.converted,
                          output, output_length)
