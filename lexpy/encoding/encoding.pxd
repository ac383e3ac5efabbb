# What other modules may cimport from lexpy/encoding -- labels, the encoding
# sniffing algorithm, "changing the encoding while parsing", UTF-8
# validation and the streaming decoders to UTF-8 (DESIGN.md decision 1).
# Everything here is C: no Python object is made per byte or per chunk.
#
# Encodings are the ints of encoding_ids.pxd (ENCODING_UTF_8, ...,
# ENCODING_X_USER_DEFINED); ENCODING__NONE (-1) is the standard's "failure".
#
# How the parser driver uses it (the input byte stream, at the end):
#   input_byte_stream_init(&s, transport, default, keep_input)
#       transport: encoding_for_label(encoding=) or ENCODING__NONE (an
#       unknown label is the caller's LookupError); keep_input: false for
#       parse(bytes) (the driver holds the bytes), true for Parser.feed.
#   input_byte_stream_set_autodetect(&s, detect_encoding) before the first
#       chunk: whether an undeclared document may turn out to be UTF-8.
#   feed(chunk) / finish() -> UTF-8 to tokenizer_feed (empty while the
#       sniffing algorithm waits: up to 1024 bytes, a BOM, a <meta>);
#       then tokenizer_finish.
#   The tree builder, on a <meta> handled by the "in head" rules while
#       s.confidence is CONFIDENCE_TENTATIVE: new = encoding_for_label(charset
#       value), else (http-equiv is_content_type_pragma and a content value)
#       extract_encoding_from_meta(content); if new != ENCODING__NONE:
#       input_byte_stream_change_encoding(&s, new, input, length):
#         CHANGE_KEPT / CHANGE_SWITCHED: go on;
#         CHANGE_REPARSE: stop the tokenizer (TokenCallback returns non-zero),
#         drop the document, input_byte_stream_restart() and parse its output
#         with a new tokenizer and tree builder (the confidence is certain now,
#         so it happens once).
#   Document.encoding = encoding_name(s.encoding).

from libc.stdint cimport uint8_t, uint32_t
from lexpy.encoding.encoding_ids cimport *


# The confidence of the encoding
# (https://html.spec.whatwg.org/multipage/parsing.html#concept-encoding-confidence).
cdef enum Confidence:
    CONFIDENCE_TENTATIVE
    CONFIDENCE_CERTAIN
    CONFIDENCE_IRRELEVANT


# ---------------------------------------------------------------------------
# Names and labels (https://encoding.spec.whatwg.org/#names-and-labels)
# ---------------------------------------------------------------------------

# Get an encoding: the encoding a label names (ASCII whitespace trimmed, ASCII
# case-insensitive), or ENCODING__NONE.
cdef int encoding_for_label(const uint8_t* label, size_t length) noexcept nogil
# The encoding's name as the standard spells it ("windows-1252", "UTF-8").
cdef const char* encoding_name(int encoding) noexcept nogil


# ---------------------------------------------------------------------------
# Sniffing (https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)
# ---------------------------------------------------------------------------

cdef struct SniffOutcome:
    int encoding
    Confidence confidence
    size_t bom_length         # bytes of byte order mark to skip (0, 2 or 3)
    bint decided              # more input could not change the outcome
    bint from_default         # the encoding is step 9's default (nothing
                              # declared one): autodetection may apply

# BOM sniff: ENCODING_UTF_8 / _UTF_16BE / _UTF_16LE with *bom_length set, or
# ENCODING__NONE. A proper prefix of a BOM is ENCODING__NONE.
cdef int bom_sniff(const uint8_t* data, size_t length,
                   size_t* bom_length) noexcept nogil
# The encoding sniffing algorithm over the bytes available so far: BOM, then
# `transport_encoding` (ENCODING__NONE: none), then the prescan of the first
# `prescan_limit` bytes, then `default_encoding` (ENCODING__NONE:
# windows-1252). `decided` tells a streaming caller whether to wait for more
# bytes (it becomes true at the latest when prescan_limit bytes are there).
cdef SniffOutcome sniff_encoding(const uint8_t* data, size_t length,
                                 int transport_encoding, int default_encoding,
                                 size_t prescan_limit) noexcept nogil
# Prescan a byte stream to determine its encoding, over exactly these bytes
# (with "get an XML encoding" when it runs out): an encoding or ENCODING__NONE.
cdef int prescan_byte_stream(const uint8_t* data, size_t length) noexcept nogil
# The algorithm for extracting a character encoding from a meta element, on a
# content attribute's value (converted, as bytes): an encoding or ENCODING__NONE.
cdef int extract_encoding_from_meta(const uint8_t* content,
                                    size_t length) noexcept nogil
# Whether an http-equiv value is an ASCII case-insensitive "Content-Type".
cdef bint is_content_type_pragma(const uint8_t* value, size_t length) noexcept nogil


# ---------------------------------------------------------------------------
# Changing the encoding while parsing
# (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing)
# ---------------------------------------------------------------------------

# For a <meta> met while the confidence is tentative, whose declared
# encoding `new_encoding` is an encoding (not ENCODING__NONE). Returns
# ENCODING__NONE when the parser keeps `current` (the confidence becomes
# certain), or the encoding to re-parse the input with (with the confidence
# certain).
cdef int change_the_encoding(int current, int new_encoding) noexcept nogil
# Step 5: whether the bytes converted so far decode to the same characters in
# both encodings, so the decoder may be switched on the fly without a
# re-parse (conservative: ASCII that both read as ASCII).
cdef bint same_interpretation(int current, int new_encoding,
                              const uint8_t* converted,
                              size_t length) noexcept nogil


# ---------------------------------------------------------------------------
# UTF-8 (https://encoding.spec.whatwg.org/#utf-8-decoder)
# ---------------------------------------------------------------------------

# The length of the longest prefix of `data` made of complete, valid UTF-8
# sequences (all of it when the input is valid UTF-8).
cdef size_t utf8_validate(const uint8_t* data, size_t length) noexcept nogil
# The UTF-8 of a str's storage (PEP 393: `kind` = 1, 2 or 4 bytes a code
# point; lone surrogates become U+FFFD) into `out`, which has room for 2, 3
# or 4 bytes a code point for kind 1, 2 or 4. Returns the bytes written.
cdef size_t utf8_encode_code_points(unsigned int kind, const void* data,
                                    size_t length, uint8_t* out) noexcept nogil


# ---------------------------------------------------------------------------
# Streaming decoders to UTF-8
# ---------------------------------------------------------------------------

# A growable output buffer (owned by the caller, freed with byte_buffer_free).
cdef struct ByteBuffer:
    uint8_t* data
    size_t length
    size_t capacity

cdef void byte_buffer_init(ByteBuffer* buffer) noexcept nogil
cdef void byte_buffer_free(ByteBuffer* buffer) noexcept nogil

# BOM handling at the start of a stream.
cdef enum BomMode:
    BOM_SNIFF         # the standard's "decode": a BOM overrides the encoding
    BOM_IGNORE        # "decode without BOM": the bytes are decoded as they are

# A decoder's state: one struct for every encoding (set up by decoder_init;
# it owns no memory). The fields are the standard's decoder state; the
# driver only reads `encoding`.
cdef struct StreamDecoder:
    int encoding              # in use (a BOM may change it)
    BomMode bom_mode
    uint8_t bom[3]            # bytes that may still be a BOM
    uint8_t bom_count
    bint started              # BOM sniffing is done
    bint finished
    # restored bytes ("restore ... to ioQueue"), read before the next input
    uint8_t replay[8]
    uint8_t replay_count
    # UTF-8
    uint32_t utf8_code_point
    uint8_t utf8_bytes_seen
    uint8_t utf8_bytes_needed
    uint8_t utf8_lower_boundary
    uint8_t utf8_upper_boundary
    # Big5, EUC-JP, EUC-KR, Shift_JIS, ISO-2022-JP leading, gb18030 first
    uint8_t leading
    uint8_t gb18030_second
    uint8_t gb18030_third
    bint euc_jp_jis0212
    # ISO-2022-JP
    uint8_t iso2022jp_state
    uint8_t iso2022jp_output_state
    bint iso2022jp_output
    # UTF-16
    int utf16_leading_byte    # -1: null
    uint32_t utf16_leading_surrogate   # 0: null
    # replacement
    bint replacement_error_returned

cdef void decoder_init(StreamDecoder* decoder, int encoding,
                       BomMode bom_mode) noexcept nogil
# Decode `chunk` (and, when `last`, the end of the input) to UTF-8. On return
# *output / *output_length hold the decoded text: a part of `chunk` itself
# when it needed no conversion (UTF-8 that is valid, with nothing pending from
# the previous chunk: no copy), else `buffer`'s contents (`buffer` is
# overwritten, not appended to). A sequence split at the end of `chunk` is
# held back in the decoder and completed by the next call. Returns 0, or -1
# (with MemoryError set) when out of memory.
cdef int decoder_decode(StreamDecoder* decoder, const uint8_t* chunk,
                        size_t length, bint last, ByteBuffer* buffer,
                        const uint8_t** output,
                        size_t* output_length) except -1 nogil


# ---------------------------------------------------------------------------
# The input byte stream
# (https://html.spec.whatwg.org/multipage/parsing.html#the-input-byte-stream):
# what the parser driver feeds bytes to and tokenizes the UTF-8 of.
# ---------------------------------------------------------------------------

# How many bytes from the first non-ASCII one autodetection looks at.
cdef enum:
    AUTODETECT_WINDOW = 1024

# What changing the encoding asks of the driver.
cdef enum EncodingChange:
    CHANGE_KEPT             # the encoding stays; the confidence is certain
    CHANGE_SWITCHED         # decoder switched on the fly: go on parsing
    CHANGE_REPARSE          # discard the document, then restart the stream

cdef struct InputByteStream:
    int encoding              # in use (its name: encoding_name)
    Confidence confidence
    int transport_encoding    # ENCODING__NONE: none
    int default_encoding      # ENCODING__NONE: windows-1252
    bint keep_input           # keep the bytes while tentative (for a restart)
    bint autodetect           # autodetect UTF-8 when the sniffing ends at the default
    bint detecting            # ... and autodetection has not decided yet
    bint sniffed              # the sniffing algorithm has decided
    bint finished             # input_byte_stream_finish was called
    size_t fed                # bytes fed so far
    SniffOutcome waiting      # the undecided outcome over the `held` bytes
    size_t waiting_length     # ... (how many; SIZE_MAX: none), which the
                              # end of the input takes as it is
    size_t sniff_runs         # runs of the sniffing algorithm (for tests)
    StreamDecoder decoder
    ByteBuffer held           # bytes waiting for the sniffing algorithm
    ByteBuffer kept           # bytes fed while tentative (keep_input)
    ByteBuffer undecided      # from the first non-ASCII byte, while detecting
    ByteBuffer converted      # the decoder's output buffer

# keep_input: true when the driver does not keep the input itself
# (Parser.feed); false when it does (parse(bytes): it passes the input to
# change_encoding and restart).
cdef void input_byte_stream_init(InputByteStream* stream, int transport_encoding,
                                 int default_encoding, bint keep_input) noexcept nogil
cdef void input_byte_stream_free(InputByteStream* stream) noexcept nogil
# Before the first chunk: whether to autodetect UTF-8 (autodetection.pxi)
# when the sniffing algorithm ends at the default (off after init). The
# bytes before the first non-ASCII one are passed on as they come; from it
# on, the stream holds up to AUTODETECT_WINDOW + 3 bytes until it decides.
cdef void input_byte_stream_set_autodetect(InputByteStream* stream,
                                           bint enabled) noexcept nogil
# Feed a chunk; *output / *output_length: the UTF-8 to tokenize now (valid
# until the next call; empty while the sniffing algorithm waits for bytes).
cdef int input_byte_stream_feed(InputByteStream* stream, const uint8_t* chunk,
                                size_t length, const uint8_t** output,
                                size_t* output_length) except -1 nogil
# End of input: the rest of the UTF-8 (then the tokenizer's EOF).
cdef int input_byte_stream_finish(InputByteStream* stream, const uint8_t** output,
                                  size_t* output_length) except -1 nogil
# The tree builder met a <meta> declaring `new_encoding` (already resolved:
# encoding_for_label of its charset, or extract_encoding_from_meta of its
# content with http-equiv Content-Type) while the confidence is tentative.
# `input`/`length`: every byte fed so far, or NULL/0 when keep_input.
cdef EncodingChange input_byte_stream_change_encoding(
        InputByteStream* stream, int new_encoding, const uint8_t* input,
        size_t length) noexcept nogil
# After CHANGE_REPARSE: decode all the input again with the new encoding
# (`input` as for change_encoding), as the first output of the new parse;
# the stream then goes on as before (feed / finish).
cdef int input_byte_stream_restart(InputByteStream* stream, const uint8_t* input,
                                   size_t length, const uint8_t** output,
                                   size_t* output_length) except -1 nogil


# ---------------------------------------------------------------------------
# Offsets into the original input (positions: lexpy.parse(positions=True),
# and any consumer of the tokenizer's stream offsets, e.g. a rewriter)
# ---------------------------------------------------------------------------

# The tokenizer counts offsets in the UTF-8 it reads (the decoder's output);
# an OffsetMap decodes the same bytes again and records where each decoded
# character came from: the original offset of a stream offset is
# `stream + delta`, the delta changing only at checkpoints (a BOM, a
# character whose encoded length differs from its UTF-8 length, U+FFFD for
# invalid bytes). Valid UTF-8 records no checkpoint and is not copied byte
# by byte. Feed it the input as given (chunks split anywhere) with the
# encoding the parse ended with: it decodes with a BOM sniff, as a parse
# from the first byte does.
cdef struct OffsetMap:
    StreamDecoder decoder
    size_t consumed           # original bytes fed so far
    size_t produced           # UTF-8 bytes out so far
    size_t pending            # original offset of the next character's first byte
    size_t* points            # checkpoints: pairs (stream offset, original
    size_t count              # offset) in order; count pairs
    size_t capacity
    ByteBuffer scratch

cdef void offset_map_init(OffsetMap* map, int encoding) noexcept nogil
cdef void offset_map_free(OffsetMap* map) noexcept nogil
# Decode a chunk (the end of the input when `last`), appending its UTF-8 to
# `stream` (NULL: not kept). 0, or -1 when out of memory.
cdef int offset_map_feed(OffsetMap* map, const uint8_t* chunk, size_t length,
                         bint last, ByteBuffer* stream) except -1 nogil
# The original offset of a stream offset (a character boundary of the
# output so far, or its end); never past the input fed.
cdef size_t offset_map_original(OffsetMap* map, size_t stream_offset) noexcept nogil
