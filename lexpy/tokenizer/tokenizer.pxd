# What other modules may cimport from the tokenizer: the tokenizer's C API
# and the one data-conversion routine (the name tables and the parse-error
# list it uses are the bottom layer's: lexpy/core/core.pxd). The tree builder
# drives the tokenizer only through these calls.
#
# CONTRACT (for the tree builder and the driver): the function signatures below
# are the interface. The tokenizer's internals (struct fields) may change.

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from lexpy.core.names cimport lxp_tag_id_t, lxp_attr_id_t
from lexpy.core.core cimport NameTable, ErrorList
from libc.string cimport memcpy
from lexpy.tokenizer.token cimport (
    Token, TokenAttr, DATA_HAS_CR, DATA_HAS_CHARREF, DATA_HAS_NUL,
    DATA_ASCII_LOWERCASE)


# Tokenization states, named as in the standard
# (https://html.spec.whatwg.org/multipage/parsing.html#tokenization).
cdef enum TokenizerState:
    # The states the tree builder sets (tokenizer_set_state).
    DATA_STATE
    RCDATA_STATE
    RAWTEXT_STATE
    SCRIPT_DATA_STATE
    PLAINTEXT_STATE
    CDATA_SECTION_STATE
    # Every other state of the standard's tokenization section, in the
    # standard's order (the tokenizer's own business).
    TAG_OPEN_STATE
    END_TAG_OPEN_STATE
    TAG_NAME_STATE
    RCDATA_LESS_THAN_SIGN_STATE
    RCDATA_END_TAG_OPEN_STATE
    RCDATA_END_TAG_NAME_STATE
    RAWTEXT_LESS_THAN_SIGN_STATE
    RAWTEXT_END_TAG_OPEN_STATE
    RAWTEXT_END_TAG_NAME_STATE
    SCRIPT_DATA_LESS_THAN_SIGN_STATE
    SCRIPT_DATA_END_TAG_OPEN_STATE
    SCRIPT_DATA_END_TAG_NAME_STATE
    SCRIPT_DATA_ESCAPE_START_STATE
    SCRIPT_DATA_ESCAPE_START_DASH_STATE
    SCRIPT_DATA_ESCAPED_STATE
    SCRIPT_DATA_ESCAPED_DASH_STATE
    SCRIPT_DATA_ESCAPED_DASH_DASH_STATE
    SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE
    SCRIPT_DATA_ESCAPED_END_TAG_OPEN_STATE
    SCRIPT_DATA_ESCAPED_END_TAG_NAME_STATE
    SCRIPT_DATA_DOUBLE_ESCAPE_START_STATE
    SCRIPT_DATA_DOUBLE_ESCAPED_STATE
    SCRIPT_DATA_DOUBLE_ESCAPED_DASH_STATE
    SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH_STATE
    SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE
    SCRIPT_DATA_DOUBLE_ESCAPE_END_STATE
    BEFORE_ATTRIBUTE_NAME_STATE
    ATTRIBUTE_NAME_STATE
    AFTER_ATTRIBUTE_NAME_STATE
    BEFORE_ATTRIBUTE_VALUE_STATE
    ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE
    ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE
    ATTRIBUTE_VALUE_UNQUOTED_STATE
    AFTER_ATTRIBUTE_VALUE_QUOTED_STATE
    SELF_CLOSING_START_TAG_STATE
    BOGUS_COMMENT_STATE
    MARKUP_DECLARATION_OPEN_STATE
    COMMENT_START_STATE
    COMMENT_START_DASH_STATE
    COMMENT_STATE
    COMMENT_LESS_THAN_SIGN_STATE
    COMMENT_LESS_THAN_SIGN_BANG_STATE
    COMMENT_LESS_THAN_SIGN_BANG_DASH_STATE
    COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH_STATE
    COMMENT_END_DASH_STATE
    COMMENT_END_STATE
    COMMENT_END_BANG_STATE
    DOCTYPE_STATE
    BEFORE_DOCTYPE_NAME_STATE
    DOCTYPE_NAME_STATE
    AFTER_DOCTYPE_NAME_STATE
    AFTER_DOCTYPE_PUBLIC_KEYWORD_STATE
    BEFORE_DOCTYPE_PUBLIC_IDENTIFIER_STATE
    DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED_STATE
    DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED_STATE
    AFTER_DOCTYPE_PUBLIC_IDENTIFIER_STATE
    BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS_STATE
    AFTER_DOCTYPE_SYSTEM_KEYWORD_STATE
    BEFORE_DOCTYPE_SYSTEM_IDENTIFIER_STATE
    DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED_STATE
    DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED_STATE
    AFTER_DOCTYPE_SYSTEM_IDENTIFIER_STATE
    BOGUS_DOCTYPE_STATE
    CDATA_SECTION_BRACKET_STATE
    CDATA_SECTION_END_STATE
    PROCESSING_INSTRUCTION_OPEN_STATE
    PROCESSING_INSTRUCTION_TARGET_STATE
    AFTER_PROCESSING_INSTRUCTION_TARGET_STATE
    PROCESSING_INSTRUCTION_DATA_STATE
    PROCESSING_INSTRUCTION_QUESTIONABLE_STATE
    CHARACTER_REFERENCE_STATE
    NAMED_CHARACTER_REFERENCE_STATE
    AMBIGUOUS_AMPERSAND_STATE
    NUMERIC_CHARACTER_REFERENCE_STATE
    HEXADECIMAL_CHARACTER_REFERENCE_START_STATE
    DECIMAL_CHARACTER_REFERENCE_START_STATE
    HEXADECIMAL_CHARACTER_REFERENCE_STATE
    DECIMAL_CHARACTER_REFERENCE_STATE
    NUMERIC_CHARACTER_REFERENCE_END_STATE
    TOKENIZER_STATE_COUNT


# ---------------------------------------------------------------------------
# Data conversion (DESIGN.md decision 3): the one routine that turns a
# token's range into DOM text. `dest` must have room for 3 * length bytes.
# Returns the number of bytes written. CR/CRLF -> LF; NUL kept, replaced by
# U+FFFD or dropped as the flags say; character references decoded when
# DATA_HAS_CHARREF (with the attribute-value rule when DATA_IN_ATTRIBUTE);
# ASCII lowercased when DATA_ASCII_LOWERCASE.
# ---------------------------------------------------------------------------

#
# convert_text is inline in every module that cimports it: a range with no
# work to do (no CR, NUL, '&' or upper case: most text and attribute values)
# is one memcpy at the call site, without the cross-module call and the
# general routine's frame; the rest goes to convert_text_general.
# ---------------------------------------------------------------------------

cdef size_t convert_text_general(const uint8_t* src, size_t length,
                                 uint32_t flags, uint8_t* dest) noexcept nogil

cdef inline size_t convert_text(const uint8_t* src, size_t length, uint32_t flags,
                                uint8_t* dest) noexcept nogil:
    if not flags & (DATA_HAS_CR | DATA_HAS_CHARREF | DATA_HAS_NUL
                    | DATA_ASCII_LOWERCASE):
        if length:
            memcpy(dest, src, length)
        return length
    return convert_text_general(src, length, flags, dest)


# ---------------------------------------------------------------------------
# The tokenizer
# ---------------------------------------------------------------------------

# Called for every token. Return 0 to go on; TOKENIZER_PAUSE to pause after
# this token (a script end tag: the tokenizer can go on, tokenizer_resume);
# anything else stops the tokenizer for good (tokenizer_feed/tokenizer_finish
# return that value), e.g. when an encoding change asks for a re-parse.
ctypedef int (*TokenCallback)(void* context, Token* token) noexcept nogil

cdef enum:
    TOKENIZER_PAUSE = 3

cdef struct Tokenizer   # opaque to other modules

cdef Tokenizer* tokenizer_create(NameTable* tags, NameTable* attrs,
                                 bint processing_instructions,
                                 ErrorList* errors) noexcept nogil
                                 # errors: NULL = don't collect
cdef void tokenizer_destroy(Tokenizer* tokenizer) noexcept nogil
cdef void tokenizer_set_callback(Tokenizer* tokenizer, TokenCallback callback,
                                 void* context) noexcept nogil
# Tokenize a chunk of UTF-8 (complete sequences; the decoder holds back a
# split one). The chunk may end anywhere else; the caller may reuse it after
# the call returns.
cdef int tokenizer_feed(Tokenizer* tokenizer, const uint8_t* chunk,
                        size_t length) noexcept nogil
# End of input: flush, emit the EOF token.
cdef int tokenizer_finish(Tokenizer* tokenizer) noexcept nogil

# Script execution (https://html.spec.whatwg.org/multipage/parsing.html#the-insertion-point).
# When the callback returned TOKENIZER_PAUSE, tokenizer_feed/tokenizer_finish
# return it with every byte from the next input character on copied into
# the tokenizer's own buffer (the caller's chunk is no longer needed).
# While paused, or after a resume stopped at an insertion point:
# The stream offset of the next input character (an insertion point "just
# before the next input character").
cdef size_t tokenizer_next_offset(Tokenizer* tokenizer) noexcept nogil
# Insert UTF-8 at stream offset `at` (document.write at the insertion
# point), between the next input character and the end of the input held;
# the bytes after it move up by `length`. 0; -1 when out of memory (the
# tokenizer stops); -2 when `at` is not in that range (nothing is done).
cdef int tokenizer_insert(Tokenizer* tokenizer, size_t at, const uint8_t* data,
                          size_t length) noexcept nogil
# Go on tokenizing all the input held (then the end of the input too when
# tokenizer_finish has been called). Returns 0, TOKENIZER_PAUSE, or the stop
# code.
cdef int tokenizer_resume(Tokenizer* tokenizer) noexcept nogil
# The same up to stream offset `end` only, an insertion point: the
# tokenizer stops there as at the end of a chunk.
cdef int tokenizer_run_to(Tokenizer* tokenizer, size_t end) noexcept nogil
# Switch state (the tree builder after <title>, <script>, <plaintext>, ...).
cdef void tokenizer_set_state(Tokenizer* tokenizer,
                              TokenizerState state) noexcept nogil
# The "last start tag" for the appropriate-end-tag check (fragment parsing).
cdef void tokenizer_set_last_start_tag(Tokenizer* tokenizer,
                                       lxp_tag_id_t tag) noexcept nogil
# Whether <![CDATA[ opens a CDATA section: the adjusted current node is not
# an element in the HTML namespace.
cdef void tokenizer_set_cdata_allowed(Tokenizer* tokenizer,
                                      bint allowed) noexcept nogil
# Position (1-based line, column in UTF-16 code units) of a byte offset of the
# token being handled, for tree-construction errors.
cdef void tokenizer_position(Tokenizer* tokenizer, size_t offset,
                             uint32_t* line, uint32_t* column) noexcept nogil

# What the incoming buffer holds between feeds: the bytes of input kept (an
# unfinished token, text that may still change meaning); *capacity is set to
# the bytes allocated for them.
cdef size_t tokenizer_buffered(Tokenizer* tokenizer,
                               size_t* capacity) noexcept nogil
# Bytes of UTF-8 input fed so far (the stream offset of its end).
cdef size_t tokenizer_input_length(Tokenizer* tokenizer) noexcept nogil
# Whether the tokenizer is in the CDATA section state (or one of its bracket
# states) now: read-only, for the rewriter at the end of input.
cdef bint tokenizer_in_cdata_section(Tokenizer* tokenizer) noexcept nogil
# At most `limit` records in the ErrorList (SIZE_MAX, the default: no
# limit); the tests lower it to play out of memory.
cdef void tokenizer_set_error_limit(Tokenizer* tokenizer, size_t limit) noexcept nogil
# Parse errors the tokenizer found but could not record in its ErrorList
# for lack of memory (0 normally): the list is incomplete when nonzero.
cdef size_t tokenizer_errors_lost(Tokenizer* tokenizer) noexcept nogil
# Whether the long runs (text, raw text, comments, escaped script text,
# attribute values) are scanned with AVX2:
# `allowed` 0 keeps SSE2, 1 uses AVX2 where the CPU has it (the default).
# Returns the choice; for the tests, which compare the two.
cdef int tokenizer_scan_with_avx2(int allowed) noexcept nogil
# Stream offsets (bytes of UTF-8 fed so far count from 0): of the first byte
# of the token the callback is handling, and of the first byte the tokenizer
# still holds between feeds (every token that starts before it has been
# emitted).
cdef size_t tokenizer_token_offset(Tokenizer* tokenizer) noexcept nogil
cdef size_t tokenizer_settled_offset(Tokenizer* tokenizer) noexcept nogil

# Source offsets of a token, for positions (lexpy.parse(positions=True)) and
# any other consumer that needs them (a streaming rewriter): every range of
# the Token (begin/end, text_begin/text_end, an attribute's name_begin ...
# value_end) is an index into token.data; token.data[0] is at this stream
# offset (bytes of UTF-8 fed so far, counted from 0; document.write text
# inserted by tokenizer_insert counts too). So the token spans the stream
# offsets [base + token.begin, base + token.end). Valid during the callback.
# Stream offsets become offsets into the original input (bytes in their own
# encoding, or code points of a str) through lexpy.encoding's OffsetMap
# (encoding.pxd).
cdef size_t tokenizer_data_offset(Tokenizer* tokenizer) noexcept nogil
# The stream offsets of the token being handled: its first byte and one past
# its last (tokenizer_data_offset + token.begin / token.end).
cdef void tokenizer_token_span(Tokenizer* tokenizer, size_t* start,
                               size_t* end) noexcept nogil
