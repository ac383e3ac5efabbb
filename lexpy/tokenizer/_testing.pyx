# cython: language_level=3
"""Python entry points for the tests and tools (not the public API), built
only by a test build (LEXPY_TEST_BUILD=1; setup.py): tokenize_for_test
gives the html5lib tokenizer-test shape of the tokens and errors;
count_tokens drives the tokenizer to a no-op consumer for the benchmark;
token_records_for_test and convert_for_test are lower-level views for unit
tests. They convert every range with convert_text, as the tree builder
does, and use only the tokenizer's C API (tokenizer.pxd)."""

from libc.stdint cimport uint8_t, uint32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from lexpy.core.names cimport *
from lexpy.core.core cimport (
    NameTable, NameTableImpl, ErrorList, error_list_clear, name_table_create,
    name_table_destroy, tag_id_by_name, tag_name_of, attr_name_of)
from lexpy.tokenizer.token cimport *
from lexpy.tokenizer.tokenizer cimport *


INITIAL_STATES = {
    "Data state": DATA_STATE,
    "PLAINTEXT state": PLAINTEXT_STATE,
    "RCDATA state": RCDATA_STATE,
    "RAWTEXT state": RAWTEXT_STATE,
    "Script data state": SCRIPT_DATA_STATE,
    "CDATA section state": CDATA_SECTION_STATE,
}


cdef bytes range_bytes(const uint8_t* data, size_t begin, size_t end,
                       uint32_t flags):
    """The converted UTF-8 of data[begin:end]."""
    cdef size_t length = end - begin
    cdef size_t written
    cdef uint8_t* out = <uint8_t*> malloc(3 * length + 1)
    if out == NULL:
        raise MemoryError()
    try:
        written = convert_text(data + begin, length, flags, out)
        return PyBytes_FromStringAndSize(<char*> out, written)
    finally:
        free(out)


cdef str range_text(const uint8_t* data, size_t begin, size_t end, uint32_t flags):
    """The converted text of data[begin:end]."""
    return range_bytes(data, begin, end, flags).decode("utf-8", "surrogatepass")


cdef str name_text(NameTable* table, bint tag, uint32_t id):
    cdef size_t length = 0
    cdef const uint8_t* name
    if tag:
        name = tag_name_of(table, id, &length)
    else:
        name = attr_name_of(table, id, &length)
    if name == NULL:
        return "#unknown-%d" % id
    return PyBytes_FromStringAndSize(<const char*> name, length).decode(
        "utf-8", "surrogatepass")


cdef int create_name_tables(NameTable** tags, NameTable** attrs) except -1:
    """The dynamic name tables a test tokenizer interns into (a document's
    in a parse), created by the caller as a parse's are."""
    tags[0] = name_table_create(TAG__LAST_STATIC)
    attrs[0] = name_table_create(ATTR__LAST_STATIC)
    if tags[0] == NULL or attrs[0] == NULL:
        name_table_destroy(tags[0])
        name_table_destroy(attrs[0])
        raise MemoryError()
    return 0


cdef class _TokenCollector:
    """Receives the tokens of tokenize_for_test (as the callback's context)."""
    cdef list tokens
    cdef NameTable* tags
    cdef NameTable* attribute_names
    cdef object failure

    def __cinit__(self):
        self.tokens = []
        self.failure = None

    cdef void add(self, Token* token) except *:
        cdef list tokens = self.tokens
        cdef uint32_t kind = token.tag_id
        cdef dict attributes
        cdef size_t k
        cdef TokenAttr* attr
        cdef str text
        if kind == TAG__END_OF_FILE:
            return
        if kind == TAG__TEXT:
            text = range_text(token.data, token.text_begin, token.text_end,
                              token.data_flags)
            if tokens and tokens[len(tokens) - 1][0] == "Character":
                tokens[len(tokens) - 1][1] += text
            else:
                tokens.append(["Character", text])
        elif kind == TAG__COMMENT:
            # A long comment comes in pieces (TOKEN_CONTINUATION), which may
            # split a UTF-8 sequence: joined as bytes, decoded at the end.
            data = range_bytes(token.data, token.text_begin, token.text_end,
                               token.data_flags)
            if token.type & TOKEN_CONTINUATION:
                tokens[len(tokens) - 1][1] += data
            else:
                tokens.append(["Comment", data])
        elif kind == TAG__DOCTYPE:
            tokens.append([
                "DOCTYPE",
                range_text(token.data, token.doctype_name_begin,
                           token.doctype_name_end,
                           token.data_flags | DATA_ASCII_LOWERCASE)
                if token.type & TOKEN_DOCTYPE_HAS_NAME else None,
                range_text(token.data, token.public_id_begin, token.public_id_end,
                           token.data_flags)
                if token.type & TOKEN_DOCTYPE_HAS_PUBLIC_ID else None,
                range_text(token.data, token.system_id_begin, token.system_id_end,
                           token.data_flags)
                if token.type & TOKEN_DOCTYPE_HAS_SYSTEM_ID else None,
                not token.type & TOKEN_FORCE_QUIRKS,
            ])
        elif kind == TAG__PROCESSING_INSTRUCTION:
            tokens.append([
                "ProcessingInstruction",
                range_text(token.data, token.pi_target_begin, token.pi_target_end, 0),
                range_text(token.data, token.text_begin, token.text_end,
                           token.data_flags),
            ])
        elif token.type & TOKEN_END_TAG:
            tokens.append(["EndTag", name_text(self.tags, True, kind)])
        else:
            attributes = {}
            for k in range(token.attr_count):
                attr = &token.attrs[k]
                attributes[name_text(self.attribute_names, False, attr.name_id)] = \
                    range_text(token.data, attr.value_begin, attr.value_end, attr.flags)
            if token.type & TOKEN_SELF_CLOSING:
                tokens.append(["StartTag", name_text(self.tags, True, kind),
                               attributes, True])
            else:
                tokens.append(["StartTag", name_text(self.tags, True, kind),
                               attributes])


cdef int collect_token(void* context, Token* token) noexcept with gil:
    cdef _TokenCollector collector = <_TokenCollector> context
    try:
        collector.add(token)
    except BaseException as exc:        # re-raised by tokenize_for_test
        collector.failure = exc
        return -2
    return 0


def _check_bool(value, name):
    if not isinstance(value, bool):
        raise TypeError("%s must be a bool, not %s" % (name, type(value).__name__))


def _input_pieces(data, chunk_sizes):
    """The input as UTF-8 pieces: str is encoded with 'surrogatepass' (lone
    surrogates reach the tokenizer) and cut every chunk_sizes code points;
    bytes (the same form, or decoded with replacement if not in it) are cut
    every chunk_sizes bytes, inside UTF-8 sequences too."""
    if isinstance(data, str):
        text = data
        raw = None
    elif isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        try:
            raw.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            raw = raw.decode("utf-8", "replace").encode("utf-8")
        text = None
    else:
        raise TypeError("data must be str or bytes, not %s" % type(data).__name__)
    if chunk_sizes is None:
        return [raw if raw is not None else text.encode("utf-8", "surrogatepass")]
    try:
        sizes = list(chunk_sizes)
    except TypeError:
        raise TypeError("chunk_sizes must be an iterable of int, not %s"
                        % type(chunk_sizes).__name__) from None
    if not sizes:
        raise ValueError("chunk_sizes must not be empty")
    for size in sizes:
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError("chunk_sizes must hold int, not %s" % type(size).__name__)
        if size < 1:
            raise ValueError("chunk_sizes must be positive, got %d" % size)
    whole = raw if raw is not None else text
    pieces = []
    position = 0
    k = 0
    while position < len(whole):
        piece = whole[position:position + sizes[k % len(sizes)]]
        pieces.append(piece if raw is not None
                      else piece.encode("utf-8", "surrogatepass"))
        position += len(piece)
        k += 1
    return pieces


def tokenize_for_test(data, initial_state="Data state", last_start_tag=None,
                      processing_instructions=True, chunk_sizes=None):
    """Tokenize `data` (str or UTF-8 bytes) for the html5lib tokenizer
    tests: returns (tokens, errors), the tokens in the tests' shape with
    adjacent Character tokens coalesced, the errors as
    [{"code", "line", "col"}]. `initial_state` is one of the tests' state
    names; `chunk_sizes` feeds the input in pieces of those sizes (cycled)."""
    if not isinstance(initial_state, str):
        raise TypeError("initial_state must be a str, not %s"
                        % type(initial_state).__name__)
    if initial_state not in INITIAL_STATES:
        raise ValueError("initial_state must be one of %s, not %r"
                         % (", ".join(sorted(INITIAL_STATES)), initial_state))
    if last_start_tag is not None and not isinstance(last_start_tag, str):
        raise TypeError("last_start_tag must be a str or None, not %s"
                        % type(last_start_tag).__name__)
    _check_bool(processing_instructions, "processing_instructions")
    pieces = _input_pieces(data, chunk_sizes)

    cdef ErrorList errors
    cdef Tokenizer* t
    cdef NameTable* tags
    cdef NameTable* attrs
    cdef _TokenCollector collector = _TokenCollector()
    cdef bytes piece, name
    cdef int result = 0
    cdef size_t k
    memset(&errors, 0, sizeof(ErrorList))
    create_name_tables(&tags, &attrs)
    t = tokenizer_create(tags, attrs, processing_instructions, &errors)
    try:
        if t == NULL:
            raise MemoryError()
        collector.tags = tags
        collector.attribute_names = attrs
        tokenizer_set_callback(t, collect_token, <void*> collector)
        tokenizer_set_state(t, INITIAL_STATES[initial_state])
        if last_start_tag is not None:
            name = last_start_tag.lower().encode("utf-8", "surrogatepass")
            tokenizer_set_last_start_tag(
                t, tag_id_by_name(tags, name, len(name), True))
        for piece in pieces:
            result = tokenizer_feed(t, piece, len(piece))
            if result != 0:
                break
        if result == 0:
            result = tokenizer_finish(t)
        if collector.failure is not None:
            raise collector.failure
        if result != 0:
            raise MemoryError("the tokenizer stopped (%d)" % result)
        error_records = [
            {"code": errors.items[k].code.decode("ascii"),
             "line": errors.items[k].line, "col": errors.items[k].column}
            for k in range(errors.count)]
    finally:
        tokenizer_destroy(t)
        name_table_destroy(tags)
        name_table_destroy(attrs)
        error_list_clear(&errors)
    tokens = collector.tokens
    for token in tokens:
        if token[0] == "Comment":
            token[1] = token[1].decode("utf-8", "surrogatepass")
    return tokens, error_records


cdef void switch_after_start_tag(Tokenizer* t, Token* token) noexcept nogil:
    """What a tree builder does after these start tags in HTML content (a
    stand-in for the tests and the benchmark; the tree builder decides for
    real)."""
    cdef lxp_tag_id_t tag = token.tag_id
    if token.tag_id >= TAG__LAST_STATIC or token.type & TOKEN_END_TAG:
        return
    if tag == TAG_TITLE or tag == TAG_TEXTAREA:
        tokenizer_set_state(t, RCDATA_STATE)
    elif (tag == TAG_STYLE or tag == TAG_XMP or tag == TAG_IFRAME
          or tag == TAG_NOEMBED or tag == TAG_NOFRAMES):
        tokenizer_set_state(t, RAWTEXT_STATE)
    elif tag == TAG_SCRIPT:
        tokenizer_set_state(t, SCRIPT_DATA_STATE)
    elif tag == TAG_PLAINTEXT:
        tokenizer_set_state(t, PLAINTEXT_STATE)


cdef struct Counter:
    size_t count
    Tokenizer* tokenizer
    bint switch_states


cdef int count_token(void* context, Token* token) noexcept nogil:
    cdef Counter* counter = <Counter*> context
    counter.count += 1
    if counter.switch_states:
        switch_after_start_tag(counter.tokenizer, token)
    return 0


def scan_with_avx2(allowed):
    """Scan the long runs (raw text, attribute values) with AVX2 where the
    CPU has it (allowed True, the default) or with SSE2; returns whether
    AVX2 is used."""
    return bool(tokenizer_scan_with_avx2(1 if allowed else 0))


def count_tokens(data, chunk_size=None, collect_errors=False, switch_states=True):
    """Tokenize UTF-8 `data` (bytes) to a consumer that only counts the
    tokens, with the GIL released: returns (tokens, errors). With
    `switch_states` the consumer switches the tokenizer after title,
    textarea, style, xmp, iframe, noembed, noframes, script and plaintext
    start tags, as a tree builder does. For the tokenizer benchmark."""
    if not isinstance(data, bytes):
        raise TypeError("data must be bytes, not %s" % type(data).__name__)
    if chunk_size is not None and (not isinstance(chunk_size, int)
                                   or isinstance(chunk_size, bool)):
        raise TypeError("chunk_size must be an int or None, not %s"
                        % type(chunk_size).__name__)
    if chunk_size is not None and chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    _check_bool(collect_errors, "collect_errors")
    _check_bool(switch_states, "switch_states")
    cdef const uint8_t* c_data = data
    cdef size_t length = len(data)
    cdef size_t size = chunk_size if chunk_size is not None else length
    cdef size_t position = 0, piece
    cdef Counter counter
    cdef ErrorList errors
    cdef Tokenizer* t
    memset(&errors, 0, sizeof(ErrorList))
    t = tokenizer_create(NULL, NULL, True, &errors if collect_errors else NULL)
    if t == NULL:
        raise MemoryError()
    counter.count = 0
    counter.tokenizer = t
    counter.switch_states = switch_states
    tokenizer_set_callback(t, count_token, &counter)
    with nogil:
        while position < length:
            piece = length - position if length - position < size else size
            tokenizer_feed(t, c_data + position, piece)
            position += piece
        tokenizer_finish(t)
        tokenizer_destroy(t)
    error_count = errors.count
    error_list_clear(&errors)
    return counter.count, error_count


# ---------------------------------------------------------------------------
# Lower-level views for unit tests: convert_text itself, and the tokens as
# the tree builder sees them (ranges as stream offsets, flags, positions).
# ---------------------------------------------------------------------------

DATA_FLAGS = {
    "HAS_NUL": DATA_HAS_NUL, "HAS_CR": DATA_HAS_CR,
    "HAS_CHARREF": DATA_HAS_CHARREF, "IN_ATTRIBUTE": DATA_IN_ATTRIBUTE,
    "NUL_TO_REPLACEMENT": DATA_NUL_TO_REPLACEMENT, "NUL_DROP": DATA_NUL_DROP,
    "ASCII_LOWERCASE": DATA_ASCII_LOWERCASE, "CDATA": DATA_CDATA,
    "RAW": DATA_RAW, "RCDATA": DATA_RCDATA,
    "WHITESPACE_ONLY": DATA_WHITESPACE_ONLY,
    "LEADING_WHITESPACE": DATA_LEADING_WHITESPACE,
}

STATE_IDS = {
    "DATA_STATE": DATA_STATE, "RCDATA_STATE": RCDATA_STATE,
    "RAWTEXT_STATE": RAWTEXT_STATE, "SCRIPT_DATA_STATE": SCRIPT_DATA_STATE,
    "PLAINTEXT_STATE": PLAINTEXT_STATE, "CDATA_SECTION_STATE": CDATA_SECTION_STATE,
    "STATE_COUNT": TOKENIZER_STATE_COUNT,
}

TAG_IDS = {"LAST_STATIC": TAG__LAST_STATIC, "TEXT": TAG__TEXT,
           "COMMENT": TAG__COMMENT, "DOCTYPE": TAG__DOCTYPE,
           "PROCESSING_INSTRUCTION": TAG__PROCESSING_INSTRUCTION,
           "END_OF_FILE": TAG__END_OF_FILE}


def convert_for_test(data, flags):
    """convert_text over bytes with DataFlags `flags`."""
    if not isinstance(data, bytes):
        raise TypeError("data must be bytes, not %s" % type(data).__name__)
    if not isinstance(flags, int) or isinstance(flags, bool):
        raise TypeError("flags must be an int, not %s" % type(flags).__name__)
    cdef const uint8_t* c_data = data
    cdef size_t length = len(data)
    cdef uint8_t* out = <uint8_t*> malloc(3 * length + 1)
    cdef size_t written
    if out == NULL:
        raise MemoryError()
    try:
        written = convert_text(c_data, length, <uint32_t> flags, out)
        return PyBytes_FromStringAndSize(<char*> out, written)
    finally:
        free(out)


cdef class _RecordCollector:
    cdef list records
    cdef Tokenizer* t
    cdef NameTable* tags
    cdef NameTable* attribute_names
    cdef size_t base                 # the stream offset of token.data[0]
    cdef bint switch_states
    cdef Py_ssize_t stop_after
    cdef object failure

    cdef tuple span(self, size_t begin, size_t end):
        return (begin + self.base, end + self.base)

    cdef void add(self, Token* token) except *:
        cdef Tokenizer* t = self.t
        cdef uint32_t kind = token.tag_id
        cdef size_t k
        cdef TokenAttr* attr
        cdef uint32_t end_line, end_column
        self.base = tokenizer_token_offset(t) - token.begin
        record = {
            "tag_id": kind,
            "span": self.span(token.begin, token.end),
            "text": self.span(token.text_begin, token.text_end),
            "flags": token.data_flags,
            "line": token.line, "column": token.column,
            "raw": PyBytes_FromStringAndSize(<const char*> token.data + token.begin,
                                             token.end - token.begin),
        }
        tokenizer_position(t, token.end, &end_line, &end_column)
        record["end_position"] = (end_line, end_column)
        if kind == TAG__TEXT:
            record["kind"] = "text"
        elif kind == TAG__END_OF_FILE:
            record["kind"] = "eof"
        elif kind == TAG__COMMENT:
            record["kind"] = "comment"
            record["type"] = token.type
        elif kind == TAG__DOCTYPE:
            record["kind"] = "doctype"
            record["type"] = token.type
            record["doctype"] = (self.span(token.doctype_name_begin, token.doctype_name_end),
                                 self.span(token.public_id_begin, token.public_id_end),
                                 self.span(token.system_id_begin, token.system_id_end))
        elif kind == TAG__PROCESSING_INSTRUCTION:
            record["kind"] = "pi"
            record["target"] = self.span(token.pi_target_begin, token.pi_target_end)
        else:
            record["kind"] = "end" if token.type & TOKEN_END_TAG else "start"
            record["type"] = token.type
            record["name"] = name_text(self.tags, True, kind)
            record["attrs"] = [
                {"name_id": token.attrs[k].name_id,
                 "name": name_text(self.attribute_names, False, token.attrs[k].name_id),
                 "name_span": self.span(token.attrs[k].name_begin, token.attrs[k].name_end),
                 "value_span": self.span(token.attrs[k].value_begin, token.attrs[k].value_end),
                 "value": range_text(token.data, token.attrs[k].value_begin,
                                     token.attrs[k].value_end, token.attrs[k].flags),
                 "flags": token.attrs[k].flags,
                 "line": token.attrs[k].line, "column": token.attrs[k].column}
                for k in range(token.attr_count)]
            if self.switch_states:
                switch_after_start_tag(t, token)
        if kind == TAG__TEXT or kind == TAG__COMMENT or kind == TAG__PROCESSING_INSTRUCTION:
            record["data"] = range_text(token.data, token.text_begin, token.text_end,
                                        token.data_flags)
        self.records.append(record)


cdef int record_token(void* context, Token* token) noexcept with gil:
    cdef _RecordCollector collector = <_RecordCollector> context
    try:
        collector.add(token)
    except BaseException as exc:
        collector.failure = exc
        return -2
    if collector.stop_after >= 0 and len(collector.records) >= collector.stop_after:
        return 7
    return 0


def token_records_for_test(data, initial_state="Data state", *, chunk_sizes=None,
                           collect_errors=True, processing_instructions=True,
                           cdata_allowed=False, last_start_tag=None,
                           switch_states=False, stop_after=None,
                           dynamic_name_limit=None, error_limit=None):
    """The tokens as the callback sees them, one dict each: kind, tag_id,
    name, span / text / attribute spans as stream offsets, flags, line and
    column, the raw bytes, converted data and values, and the position of
    the token's end per tokenizer_position. `switch_states` switches after
    title, textarea, style, xmp, iframe, noembed, noframes, script and
    plaintext start tags as a tree builder would; `stop_after` makes the
    callback return 7 after that many tokens. `dynamic_name_limit` and
    `error_limit` play out of memory: the dynamic name tables take at most
    that many names, the error list that many records. Returns (records,
    errors, result, errors_lost) where result is what tokenizer_feed/finish
    returned and errors_lost is tokenizer_errors_lost."""
    _check_bool(collect_errors, "collect_errors")
    _check_bool(processing_instructions, "processing_instructions")
    _check_bool(cdata_allowed, "cdata_allowed")
    _check_bool(switch_states, "switch_states")
    if initial_state not in INITIAL_STATES:
        raise ValueError("unknown initial_state %r" % (initial_state,))
    pieces = _input_pieces(data, chunk_sizes)
    cdef ErrorList errors
    cdef Tokenizer* t
    cdef NameTable* tags
    cdef NameTable* attrs
    cdef _RecordCollector collector = _RecordCollector()
    cdef bytes piece, name
    cdef int result = 0
    cdef size_t k
    memset(&errors, 0, sizeof(ErrorList))
    create_name_tables(&tags, &attrs)
    if dynamic_name_limit is not None:
        (<NameTableImpl*> tags).limit = dynamic_name_limit
        (<NameTableImpl*> attrs).limit = dynamic_name_limit
    t = tokenizer_create(tags, attrs, processing_instructions,
                         &errors if collect_errors else NULL)
    try:
        if t == NULL:
            raise MemoryError()
        collector.records = []
        collector.t = t
        collector.tags = tags
        collector.attribute_names = attrs
        collector.switch_states = switch_states
        collector.stop_after = -1 if stop_after is None else stop_after
        if error_limit is not None:
            tokenizer_set_error_limit(t, error_limit)
        tokenizer_set_callback(t, record_token, <void*> collector)
        tokenizer_set_state(t, INITIAL_STATES[initial_state])
        tokenizer_set_cdata_allowed(t, cdata_allowed)
        if last_start_tag is not None:
            name = last_start_tag.encode("utf-8")
            tokenizer_set_last_start_tag(t, tag_id_by_name(tags, name, len(name), True))
        for piece in pieces:
            result = tokenizer_feed(t, piece, len(piece))
            if result != 0:
                break
        if result == 0:
            result = tokenizer_finish(t)
        if collector.failure is not None:
            raise collector.failure
        error_records = [
            {"code": errors.items[k].code.decode("ascii"),
             "line": errors.items[k].line, "col": errors.items[k].column}
            for k in range(errors.count)]
        # After stopping, feeding and finishing only repeat the stop.
        if result != 0:
            assert tokenizer_feed(t, b"x", 1) == result
            assert tokenizer_finish(t) == result
        errors_lost = tokenizer_errors_lost(t)
    finally:
        tokenizer_destroy(t)
        name_table_destroy(tags)
        name_table_destroy(attrs)
        error_list_clear(&errors)
    return collector.records, error_records, result, errors_lost
