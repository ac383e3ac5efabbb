# cython: language_level=3
"""The HTML tokenizer: every state of the standard's tokenization section
over UTF-8 bytes, one unified token at a time (DESIGN.md decisions 1-5).
https://html.spec.whatwg.org/multipage/parsing.html#tokenization

A state is a C function over the bytes it has: it loops (scanning runs of
ordinary bytes with one table lookup each) until it switches state, emits a
token or runs out of input, and returns GO_ON, NEED_MORE, STOP or DONE to
the dispatcher. Positions are stream offsets (bytes since the start of the
input), so ranges survive the move of an unfinished token into the
tokenizer's own buffer (incoming_buffer.pxi).
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t, SIZE_MAX
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memmove, memcmp, memset
from lexpy.core.names cimport *
from lexpy.core.core cimport (
    lxp_copy_run,
    NameTable, NameTableImpl, ErrorList, error_list_append, error_list_clear,
    name_table_create, name_table_destroy, name_table_intern,
    name_table_intern_hashed, name_table_hash, name_table_prefetch,
    name_table_get, tag_id_by_name, lxp_load_le64, lxp_load_le_tail, tag_name_of, attr_name_of)
from lexpy.tokenizer.entities cimport *
from lexpy.tokenizer.token cimport *


# What a state function returns to the dispatcher.
cdef enum:
    GO_ON = 0          # the state changed (or a token was emitted): go on
    NEED_MORE = 1      # the available input is used up; more may come
    STOP = 2           # the callback asked to stop, or memory ran out
    DONE = 3           # the end-of-file token was emitted

# next_input() results besides a byte.
cdef enum:
    CHAR_EOF = -1      # the end of the input
    CHAR_NEED = -2     # the end of the available input; more may come

# A stream offset that marks "none" (no pending text): a constant of the C
# code (a module variable would be loaded from memory at every use).
cdef extern from *:
    const size_t NO_POSITION "SIZE_MAX"

# Given as the buffer when the input ends with nothing left to scan.
cdef uint8_t empty_input[1]


cdef struct Cursor:
    size_t offset          # stream offset of the next character not passed
    uint32_t line          # position of the character at `offset`
    uint32_t column
    bint after_cr          # the byte before `offset` was CR: an LF at
                           # `offset` is the second half of a CRLF
    bint checked           # the character at `offset` was checked already


cdef struct NameCacheEntry:
    uint32_t hash                    # the name's scan hash (FNV-1a of its
                                     # lowercased bytes, names.h's hash)
    uint32_t id                      # 0: an empty entry
    uint32_t length                  # at most NAME_CACHE_LENGTH
    uint64_t words[3]                # the name's bytes as the dynamic table
                                     # holds them, little-endian, 0-padded


cdef struct Tokenizer:
    # Configuration: tokenizer_create and the setters.
    NameTable* tags
    NameTable* attribute_names
    NameTable* owned_tags            # created when the caller passes NULL
    NameTable* owned_attribute_names
    ErrorList* errors                # NULL: collect no errors
    size_t errors_lost               # records dropped for lack of memory
    size_t error_limit               # SIZE_MAX; tests lower it to play
                                     # out of memory
    bint processing_instructions
    bint cdata_allowed
    TokenCallback callback
    void* context
    lxp_tag_id_t last_start_tag      # 0: none

    # The state machine.
    TokenizerState state
    TokenizerState return_state      # of the character reference states
    int stop_code                    # nonzero once stopped
    bint finished                    # the end-of-file token was emitted
    bint paused                      # the callback asked for a pause
    bint input_ended                 # tokenizer_finish was called

    # The input being scanned: buf[0] is at stream offset buf_abs and
    # buf_end is one past the last available byte.
    const uint8_t* buf
    size_t buf_abs
    size_t buf_end
    size_t pos                       # the next input character
    bint at_eof                      # no input comes after buf_end
    size_t name_stop                 # a stream offset in [buf_abs, buf_end)
                                     # whose byte ends every tag and
                                     # attribute name (whitespace, '/',
                                     # '>'), 0: none found (set_buffer)
    size_t stream_end                # bytes fed so far

    # The incoming buffer: the unfinished part of the input, stream offsets
    # own_abs .. own_abs + own_len (incoming_buffer.pxi).
    uint8_t* own
    size_t own_abs
    size_t own_len
    size_t own_capacity
    size_t keep                      # first byte still needed after a run

    # Pending character data (one text token in the making).
    size_t text_begin                # NO_POSITION when none
    uint32_t text_flags
    uint32_t text_line
    uint32_t text_column
    size_t lt_pos                    # the '<' that may start a tag
    size_t tail_begin                # text_tail_hold's last '&#...' hold
    size_t tail_checked              # ... known to go on up to here

    # The token being built (stream offsets until it is emitted).
    Token token
    Token text_token                 # text and end-of-file tokens
    Token* current_token             # the one the callback is handling
    bint in_token                    # `token` holds a token in progress
    TokenAttr* attrs
    size_t attr_capacity
    TokenAttr* attr                  # the attribute being built
    TokenAttr dropped_attr           # where a duplicate attribute goes
    uint32_t name_hash               # FNV-1a of the lowercased name so far
    uint32_t name_flags              # DataFlags of the name so far
    size_t name_begin                # end tag name in RCDATA/RAWTEXT/script
    uint32_t* attr_seen              # attribute id -> attr_stamp when seen
    size_t attr_seen_capacity
    uint32_t attr_stamp              # one per tag token
    size_t waiting_names             # attribute names whose lookup waits for
                                     # the tag's end (resolve_waiting_names)
    size_t data_end                  # comment/PI data so far ends here
    uint8_t temp[8]                  # the temporary buffer of the script
    size_t temp_length               # data double escape states
    size_t charref_begin             # the '&' of a character reference
    uint32_t charref_value
    uint8_t* scratch                 # converted names for interning
    size_t scratch_capacity
    # The dynamic names met last, by scan hash (emit.pxi: cached_name_id),
    # allocated at the first dynamic name of each kind.
    NameCacheEntry* tag_cache
    NameCacheEntry* attr_cache

    Cursor cursor                    # positions.pxi


include "byte_classes.pxi"           # byte class and stop tables of the loops
include "positions.pxi"              # line/column cursor, input stream errors
include "character_references.pxi"   # named/numeric matching, shared
include "convert.pxi"                # convert_text: the one conversion
include "emit.pxi"                   # building and emitting tokens
include "incoming_buffer.pxi"        # chunks, the own buffer, end of input

# The states, grouped by family as the standard lists them.
include "states_data.pxi"            # data, RCDATA, RAWTEXT, PLAINTEXT
include "states_tag.pxi"             # tag open, end tag open, tag name, self-closing
include "states_attribute.pxi"       # attribute names and values
include "states_script.pxi"          # script data and its escape states
include "states_comment.pxi"         # markup declaration, comments
include "states_doctype.pxi"         # DOCTYPE
include "states_cdata.pxi"           # CDATA sections
include "states_processing_instruction.pxi"   # <?target data> (2026)
include "states_character_reference.pxi"      # errors of char refs


ctypedef int (*StateFunction)(Tokenizer* t) noexcept nogil

# The state functions by TokenizerState: the dispatcher calls through this
# table (as Lexbor keeps the state as a function pointer), so no state is
# inlined into a big switch.
cdef StateFunction state_functions[<int> TOKENIZER_STATE_COUNT]


cdef int impossible_state(Tokenizer* t) noexcept nogil:
    t.stop_code = -1                # stop rather than loop
    return STOP


cdef void init_state_functions() noexcept nogil:
    cdef int k
    for k in range(<int> TOKENIZER_STATE_COUNT):
        state_functions[k] = impossible_state
    state_functions[<int> DATA_STATE] = state_data
    state_functions[<int> RCDATA_STATE] = state_rcdata
    state_functions[<int> RAWTEXT_STATE] = state_rawtext
    state_functions[<int> SCRIPT_DATA_STATE] = state_script_data
    state_functions[<int> PLAINTEXT_STATE] = state_plaintext
    state_functions[<int> CDATA_SECTION_STATE] = state_cdata_section
    state_functions[<int> TAG_OPEN_STATE] = state_tag_open
    state_functions[<int> END_TAG_OPEN_STATE] = state_end_tag_open
    state_functions[<int> TAG_NAME_STATE] = state_tag_name
    state_functions[<int> RCDATA_LESS_THAN_SIGN_STATE] = state_rcdata_less_than_sign
    state_functions[<int> RCDATA_END_TAG_OPEN_STATE] = state_rcdata_end_tag_open
    state_functions[<int> RCDATA_END_TAG_NAME_STATE] = state_rcdata_end_tag_name
    state_functions[<int> RAWTEXT_LESS_THAN_SIGN_STATE] = state_rawtext_less_than_sign
    state_functions[<int> RAWTEXT_END_TAG_OPEN_STATE] = state_rawtext_end_tag_open
    state_functions[<int> RAWTEXT_END_TAG_NAME_STATE] = state_rawtext_end_tag_name
    state_functions[<int> SCRIPT_DATA_LESS_THAN_SIGN_STATE] = state_script_data_less_than_sign
    state_functions[<int> SCRIPT_DATA_END_TAG_OPEN_STATE] = state_script_data_end_tag_open
    state_functions[<int> SCRIPT_DATA_END_TAG_NAME_STATE] = state_script_data_end_tag_name
    state_functions[<int> SCRIPT_DATA_ESCAPE_START_STATE] = state_script_data_escape_start
    state_functions[<int> SCRIPT_DATA_ESCAPE_START_DASH_STATE] = state_script_data_escape_start_dash
    state_functions[<int> SCRIPT_DATA_ESCAPED_STATE] = state_script_data_escaped
    state_functions[<int> SCRIPT_DATA_ESCAPED_DASH_STATE] = state_script_data_escaped_dash
    state_functions[<int> SCRIPT_DATA_ESCAPED_DASH_DASH_STATE] = state_script_data_escaped_dash_dash
    state_functions[<int> SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE] = state_script_data_escaped_less_than_sign
    state_functions[<int> SCRIPT_DATA_ESCAPED_END_TAG_OPEN_STATE] = state_script_data_escaped_end_tag_open
    state_functions[<int> SCRIPT_DATA_ESCAPED_END_TAG_NAME_STATE] = state_script_data_escaped_end_tag_name
    state_functions[<int> SCRIPT_DATA_DOUBLE_ESCAPE_START_STATE] = state_script_data_double_escape_start
    state_functions[<int> SCRIPT_DATA_DOUBLE_ESCAPED_STATE] = state_script_data_double_escaped
    state_functions[<int> SCRIPT_DATA_DOUBLE_ESCAPED_DASH_STATE] = state_script_data_double_escaped_dash
    state_functions[<int> SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH_STATE] = state_script_data_double_escaped_dash_dash
    state_functions[<int> SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE] = state_script_data_double_escaped_less_than_sign
    state_functions[<int> SCRIPT_DATA_DOUBLE_ESCAPE_END_STATE] = state_script_data_double_escape_end
    state_functions[<int> BEFORE_ATTRIBUTE_NAME_STATE] = state_before_attribute_name
    state_functions[<int> ATTRIBUTE_NAME_STATE] = state_attribute_name
    state_functions[<int> AFTER_ATTRIBUTE_NAME_STATE] = state_after_attribute_name
    state_functions[<int> BEFORE_ATTRIBUTE_VALUE_STATE] = state_before_attribute_value
    state_functions[<int> ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE] = state_attribute_value_double_quoted
    state_functions[<int> ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE] = state_attribute_value_single_quoted
    state_functions[<int> ATTRIBUTE_VALUE_UNQUOTED_STATE] = state_attribute_value_unquoted
    state_functions[<int> AFTER_ATTRIBUTE_VALUE_QUOTED_STATE] = state_after_attribute_value_quoted
    state_functions[<int> SELF_CLOSING_START_TAG_STATE] = state_self_closing_start_tag
    state_functions[<int> BOGUS_COMMENT_STATE] = state_bogus_comment
    state_functions[<int> MARKUP_DECLARATION_OPEN_STATE] = state_markup_declaration_open
    state_functions[<int> COMMENT_START_STATE] = state_comment_start
    state_functions[<int> COMMENT_START_DASH_STATE] = state_comment_start_dash
    state_functions[<int> COMMENT_STATE] = state_comment
    state_functions[<int> COMMENT_LESS_THAN_SIGN_STATE] = state_comment_less_than_sign
    state_functions[<int> COMMENT_LESS_THAN_SIGN_BANG_STATE] = state_comment_less_than_sign_bang
    state_functions[<int> COMMENT_LESS_THAN_SIGN_BANG_DASH_STATE] = state_comment_less_than_sign_bang_dash
    state_functions[<int> COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH_STATE] = state_comment_less_than_sign_bang_dash_dash
    state_functions[<int> COMMENT_END_DASH_STATE] = state_comment_end_dash
    state_functions[<int> COMMENT_END_STATE] = state_comment_end
    state_functions[<int> COMMENT_END_BANG_STATE] = state_comment_end_bang
    state_functions[<int> DOCTYPE_STATE] = state_doctype
    state_functions[<int> BEFORE_DOCTYPE_NAME_STATE] = state_before_doctype_name
    state_functions[<int> DOCTYPE_NAME_STATE] = state_doctype_name
    state_functions[<int> AFTER_DOCTYPE_NAME_STATE] = state_after_doctype_name
    state_functions[<int> AFTER_DOCTYPE_PUBLIC_KEYWORD_STATE] = state_after_doctype_public_keyword
    state_functions[<int> BEFORE_DOCTYPE_PUBLIC_IDENTIFIER_STATE] = state_before_doctype_public_identifier
    state_functions[<int> DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED_STATE] = state_doctype_public_identifier_double_quoted
    state_functions[<int> DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED_STATE] = state_doctype_public_identifier_single_quoted
    state_functions[<int> AFTER_DOCTYPE_PUBLIC_IDENTIFIER_STATE] = state_after_doctype_public_identifier
    state_functions[<int> BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS_STATE] = state_between_doctype_public_and_system_identifiers
    state_functions[<int> AFTER_DOCTYPE_SYSTEM_KEYWORD_STATE] = state_after_doctype_system_keyword
    state_functions[<int> BEFORE_DOCTYPE_SYSTEM_IDENTIFIER_STATE] = state_before_doctype_system_identifier
    state_functions[<int> DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED_STATE] = state_doctype_system_identifier_double_quoted
    state_functions[<int> DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED_STATE] = state_doctype_system_identifier_single_quoted
    state_functions[<int> AFTER_DOCTYPE_SYSTEM_IDENTIFIER_STATE] = state_after_doctype_system_identifier
    state_functions[<int> BOGUS_DOCTYPE_STATE] = state_bogus_doctype
    state_functions[<int> CDATA_SECTION_BRACKET_STATE] = state_cdata_section_bracket
    state_functions[<int> CDATA_SECTION_END_STATE] = state_cdata_section_end
    state_functions[<int> PROCESSING_INSTRUCTION_OPEN_STATE] = state_processing_instruction_open
    state_functions[<int> PROCESSING_INSTRUCTION_TARGET_STATE] = state_processing_instruction_target
    state_functions[<int> AFTER_PROCESSING_INSTRUCTION_TARGET_STATE] = state_after_processing_instruction_target
    state_functions[<int> PROCESSING_INSTRUCTION_DATA_STATE] = state_processing_instruction_data
    state_functions[<int> PROCESSING_INSTRUCTION_QUESTIONABLE_STATE] = state_processing_instruction_questionable
    state_functions[<int> CHARACTER_REFERENCE_STATE] = state_character_reference
    state_functions[<int> NAMED_CHARACTER_REFERENCE_STATE] = state_named_character_reference
    state_functions[<int> AMBIGUOUS_AMPERSAND_STATE] = state_ambiguous_ampersand
    state_functions[<int> NUMERIC_CHARACTER_REFERENCE_STATE] = state_numeric_character_reference
    state_functions[<int> HEXADECIMAL_CHARACTER_REFERENCE_START_STATE] = state_hexadecimal_character_reference_start
    state_functions[<int> DECIMAL_CHARACTER_REFERENCE_START_STATE] = state_decimal_character_reference_start
    state_functions[<int> HEXADECIMAL_CHARACTER_REFERENCE_STATE] = state_hexadecimal_character_reference
    state_functions[<int> DECIMAL_CHARACTER_REFERENCE_STATE] = state_decimal_character_reference
    state_functions[<int> NUMERIC_CHARACTER_REFERENCE_END_STATE] = state_numeric_character_reference_end


init_state_functions()


cdef int run(Tokenizer* t) noexcept nogil:
    """Run the states over the available input: NEED_MORE (with the
    unfinished part settled, see end_of_available_data), STOP or DONE."""
    cdef int result
    while True:
        if <unsigned int> t.state >= <unsigned int> TOKENIZER_STATE_COUNT:
            return impossible_state(t)
        result = state_functions[<int> t.state](t)
        if result == GO_ON:
            continue
        if result == NEED_MORE:
            return end_of_available_data(t)
        return result


# ---------------------------------------------------------------------------
# The C API of tokenizer.pxd
# ---------------------------------------------------------------------------

cdef Tokenizer* tokenizer_create(NameTable* tags, NameTable* attrs,
                                 bint processing_instructions,
                                 ErrorList* errors) noexcept nogil:
    cdef Tokenizer* t = <Tokenizer*> calloc(1, sizeof(Tokenizer))
    if t == NULL:
        return NULL
    if tags == NULL:
        t.owned_tags = name_table_create(TAG__LAST_STATIC)
        tags = t.owned_tags
    if attrs == NULL:
        t.owned_attribute_names = name_table_create(ATTR__LAST_STATIC)
        attrs = t.owned_attribute_names
    t.tags = tags
    t.attribute_names = attrs
    t.processing_instructions = processing_instructions
    t.errors = errors
    t.error_limit = SIZE_MAX
    t.state = DATA_STATE
    t.text_begin = NO_POSITION
    t.tail_begin = NO_POSITION
    t.attr_stamp = 1
    t.buf = empty_input
    t.cursor.line = 1
    t.cursor.column = 1
    t.attr_capacity = 16
    t.attrs = <TokenAttr*> malloc(t.attr_capacity * sizeof(TokenAttr))
    if t.attrs == NULL or tags == NULL or attrs == NULL:
        tokenizer_destroy(t)
        return NULL
    return t


cdef void tokenizer_destroy(Tokenizer* tokenizer) noexcept nogil:
    if tokenizer == NULL:
        return
    name_table_destroy(tokenizer.owned_tags)
    name_table_destroy(tokenizer.owned_attribute_names)
    free(tokenizer.attrs)
    free(tokenizer.attr_seen)
    free(tokenizer.own)
    free(tokenizer.scratch)
    free(tokenizer.tag_cache)
    free(tokenizer.attr_cache)
    free(tokenizer)


cdef void tokenizer_set_callback(Tokenizer* tokenizer, TokenCallback callback,
                                 void* context) noexcept nogil:
    tokenizer.callback = callback
    tokenizer.context = context


cdef void tokenizer_set_state(Tokenizer* tokenizer,
                              TokenizerState state) noexcept nogil:
    tokenizer.state = state


cdef void tokenizer_set_last_start_tag(Tokenizer* tokenizer,
                                       lxp_tag_id_t tag) noexcept nogil:
    tokenizer.last_start_tag = tag


cdef void tokenizer_set_cdata_allowed(Tokenizer* tokenizer,
                                      bint allowed) noexcept nogil:
    tokenizer.cdata_allowed = allowed


cdef void tokenizer_position(Tokenizer* tokenizer, size_t offset,
                             uint32_t* line, uint32_t* column) noexcept nogil:
    """Counts from the handled token's own start, so it never moves the
    cursor the tokenizer reports its errors with."""
    cdef Token* token = tokenizer.current_token
    cdef size_t i
    cdef bint after_cr = False
    line[0] = 0
    column[0] = 0
    if token == NULL or token.line == 0:
        return
    line[0] = token.line
    column[0] = token.column
    i = token.begin
    while i < offset and i < token.end:
        step_position(token.data[i], line, column, &after_cr)
        i += 1
