# Character tokens
#
# The tokenizer emits the text between two tags as one token (DESIGN.md
# decision 2); the standard processes it one character at a time. Every
# insertion mode treats all characters of a token alike except that some
# treat ASCII whitespace and U+0000 differently, so a token is handled as a
# run of bytes from which a mode takes the leading whitespace, and the rest
# is reprocessed. Bytes are scanned with C loops; the text is converted
# exactly once, straight into the Text node's storage.
#
# https://html.spec.whatwg.org/multipage/parsing.html#insert-a-character


# Character data still to be inserted: a byte range that is either the
# token's raw text (`flags` = the conversion still to apply) or text already
# decoded into the tree builder's scratch buffer (flags only DATA_HAS_NUL).
cdef struct TextRun:
    const uint8_t* data
    size_t begin
    size_t end
    uint32_t flags


# The pending table character tokens (decoded, NUL removed).
cdef struct PendingTableCharacterTokens:
    uint8_t* data
    size_t length
    size_t capacity
    bint has_non_whitespace


cdef inline bint is_ascii_whitespace(uint8_t c) noexcept nogil:
    """TAB, LF, FF, CR, SPACE: the whitespace of the insertion modes."""
    return c == 0x20 or c == 0x0A or c == 0x09 or c == 0x0C or c == 0x0D


cdef inline bint text_is_empty(TreeBuilder* tb) noexcept nogil:
    return tb.text.begin >= tb.text.end


cdef inline bint run_has_real_nul(TextRun* run) noexcept nogil:
    """Whether the run holds U+0000 characters (the tokenizer replaced none
    of them)."""
    return (run.flags & DATA_HAS_NUL) != 0 and \
        (run.flags & DATA_NUL_TO_REPLACEMENT) == 0


cdef int ensure_capacity(TreeBuilder* tb, uint8_t** buffer, size_t* capacity,
                         size_t needed) noexcept nogil:
    cdef size_t size
    cdef uint8_t* grown
    if needed <= capacity[0]:
        return 0
    size = grown_capacity(capacity[0], needed, 256, 1)
    grown = <uint8_t*> realloc(buffer[0], size) if size != 0 else NULL
    if grown == NULL:
        tb.halt.failed = True
        return -1
    buffer[0] = grown
    capacity[0] = size
    return 0


cdef inline size_t conversion_room(size_t length, uint32_t flags) noexcept nogil:
    """Bytes a conversion of `length` bytes may write (U+FFFD and decoded
    references are longer than their source); (size_t) -1, which no
    allocation gets, when that does not fit a size_t."""
    if not flags & (DATA_HAS_NUL | DATA_HAS_CHARREF):
        return length
    return length * 3 if length <= (<size_t> -1) // 3 else <size_t> -1


cdef inline void begin_text(TreeBuilder* tb, Token* token) noexcept nogil:
    """Make the token's raw text the current run. Its conversion (character
    references too) happens once, straight into the DOM, when the run is
    inserted whole (DESIGN.md decision 3); a mode that must see the
    characters a reference stands for (&#32; is a space) decodes it first
    (decode_text_run)."""
    tb.text.data = token.data
    tb.text.begin = token.text_begin
    tb.text.end = token.text_end
    tb.text.flags = token.data_flags


cdef int decode_text_run(TreeBuilder* tb) noexcept nogil:
    """Decode the current run's character references into the scratch
    buffer (its U+0000 characters stay for the mode to drop or replace), so
    that a mode splitting off whitespace sees decoded characters. Not in the
    standard. Returns -1 when out of memory."""
    cdef TextRun* run = &tb.text
    cdef size_t length = run.end - run.begin
    cdef uint32_t flags = run.flags
    if not flags & DATA_HAS_CHARREF:
        return 0
    if ensure_capacity(tb, &tb.scratch, &tb.scratch_capacity,
                       conversion_room(length, flags)) != 0:
        run.begin = run.end
        return -1
    run.end = convert_text(run.data + run.begin, length,
                           flags & ~(<uint32_t> DATA_NUL_DROP), tb.scratch)
    if tb.positions.on:
        positions_text_decoded(tb, run.data, run.begin, length, flags, run.end)
    run.data = tb.scratch
    run.begin = 0
    run.flags = DATA_HAS_NUL if (flags & DATA_HAS_NUL and not
                                 flags & DATA_NUL_TO_REPLACEMENT) else 0
    return 0


cdef void skip_leading_newline(TreeBuilder* tb) noexcept nogil:
    """Drop a leading LF (the token right after <pre>, <listing> or
    <textarea>): a raw CR, CR LF or LF, or a decoded LF."""
    cdef TextRun* run = &tb.text
    if run.begin >= run.end:
        return
    if run.data[run.begin] == 0x26 and decode_text_run(tb) != 0:   # '&'
        return
    if run.data[run.begin] == 0x0A:
        run.begin += 1
    elif run.data[run.begin] == 0x0D and run.flags & DATA_HAS_CR:
        run.begin += 1
        if run.begin < run.end and run.data[run.begin] == 0x0A:
            run.begin += 1


cdef size_t leading_whitespace_length(TextRun* run) noexcept nogil:
    cdef size_t i = run.begin
    while i < run.end and is_ascii_whitespace(run.data[i]):
        i += 1
    return i - run.begin


cdef TextRun take_leading_whitespace(TreeBuilder* tb) noexcept nogil:
    """Split the current run: return its leading whitespace and keep the
    rest (which starts with another character, or is empty)."""
    cdef TextRun whitespace
    decode_text_run(tb)
    whitespace = tb.text
    whitespace.end = tb.text.begin + leading_whitespace_length(&tb.text)
    tb.text.begin = whitespace.end
    return whitespace


cdef void skip_non_whitespace_characters(TreeBuilder* tb,
                                        const char* error) noexcept nogil:
    """Drop the characters up to the next whitespace from the current run,
    one parse error for each."""
    cdef TextRun* run = &tb.text
    decode_text_run(tb)
    while run.begin < run.end and not is_ascii_whitespace(run.data[run.begin]):
        if (run.data[run.begin] & 0xC0) != 0x80:
            parse_error(tb, error)
        run.begin += 1


cdef bint run_has_non_whitespace(TextRun* run) noexcept nogil:
    """Whether the run has a character that is neither whitespace nor a
    U+0000 the mode ignores (what turns frameset-ok off)."""
    cdef bint real_nul = run_has_real_nul(run)
    cdef size_t i
    cdef uint8_t c
    for i in range(run.begin, run.end):
        c = run.data[i]
        if not is_ascii_whitespace(c) and not (c == 0 and real_nul):
            return True
    return False


cdef inline bint is_reference_character(uint8_t c) noexcept nogil:
    """What a character reference is made of after its '&' (not in the
    standard: a superset, for a conservative scan)."""
    return (0x30 <= c <= 0x39) or (0x61 <= (c | 0x20) <= 0x7A) or c == 0x23


cdef bint raw_run_has_plain_non_whitespace(TextRun* run) noexcept nogil:
    """Whether the raw run has a character that is neither whitespace nor
    U+0000 outside anything that may be a character reference: such a
    character stays as it is in the decoded text."""
    cdef size_t i = run.begin
    cdef uint8_t c
    while i < run.end:
        c = run.data[i]
        i += 1
        if c == 0x26:                           # '&': skip a reference's shape
            while i < run.end and is_reference_character(run.data[i]):
                i += 1
            if i < run.end and run.data[i] == 0x3B:
                i += 1
        elif c != 0 and not is_ascii_whitespace(c):
            return True
    return False


cdef bint text_has_non_whitespace(TreeBuilder* tb) noexcept nogil:
    """Whether the current run has a character that is neither whitespace
    nor a U+0000 the mode drops or replaces (frameset-ok goes off). Its
    raw bytes tell unless all its other characters may be references; then
    it is decoded first."""
    if tb.text.flags & DATA_HAS_CHARREF:
        if raw_run_has_plain_non_whitespace(&tb.text):
            return True
        decode_text_run(tb)
    return run_has_non_whitespace(&tb.text)


cdef size_t run_count_nul(TextRun* run) noexcept nogil:
    cdef size_t i, count = 0
    if not run_has_real_nul(run):
        return 0
    for i in range(run.begin, run.end):
        if run.data[i] == 0:
            count += 1
    return count


cdef void report_nul_characters(TreeBuilder* tb, TextRun* run) noexcept nogil:
    """One parse error per U+0000 the mode drops or replaces."""
    cdef size_t count
    if tb.errors == NULL:
        return
    count = run_count_nul(run)
    while count > 0:
        parse_error(tb, "unexpected-null-character-in-tree")
        count -= 1


# Whether U+0000 is kept, dropped or replaced by U+FFFD when a run is
# inserted (DataFlags bits of the conversion).
cdef enum NulHandling:
    NUL_KEEP = 0
    NUL_DROP = DATA_NUL_DROP
    NUL_REPLACE = DATA_NUL_TO_REPLACEMENT


cdef inline size_t write_converted(uint8_t* destination, const uint8_t* source,
                                   size_t length, uint32_t flags) noexcept nogil:
    """Write the converted range to `destination` (room for
    conversion_room(length, flags) bytes); the bytes written."""
    if flags & DATA_NEEDS_CONVERSION:
        return convert_text(source, length, flags, destination)
    lxp_copy_run(destination, source, length)
    return length


cdef inline bint insert_token_text_at_current_node(TreeBuilder* tb,
                                                   Token* token) noexcept nogil:
    """insert_characters for a text token's whole raw text (non-empty, no
    U+0000) when the appropriate place is the end of the current node, an
    element other than template, whose last child is not a Text node (no
    foster parenting, no positions): a new Text node appended there, in
    one step. False (nothing done) when the text goes by insert_characters
    instead."""
    cdef CElement* parent = tb.open.elements[tb.open.count - 1]
    cdef CCharacterData* text
    cdef uint8_t* destination
    cdef size_t length = token.text_end - token.text_begin
    cdef uint32_t flags = token.data_flags
    if tb.foster_parenting or tb.positions.on \
            or (parent.tag_id == TAG_TEMPLATE and parent.ns == NS_HTML) \
            or (parent.node.last_child != NULL
                and parent.node.last_child.type == TEXT_NODE) \
            or tb.document.arena.free_character_data != NULL:
        return False
    if not flags & DATA_NEEDS_CONVERSION \
            and dom_in_source(tb.document, token.data + token.text_begin, length):
        # The text as the document's kept input has it: the node points
        # there, nothing is copied (CDocument.source_begin).
        if text_create_with_room(tb.document, 0, &text) == NULL:
            tb.halt.failed = True
            return True
        character_data_share_source(text, token.data + token.text_begin, length)
        node_append_new_child(&parent.node, &text.node)
        return True
    destination = text_create_with_room(tb.document, conversion_room(length, flags), &text)
    if destination == NULL:
        tb.halt.failed = True
        return True
    length = write_converted(destination, token.data + token.text_begin, length, flags)
    character_data_commit_inline(text, length)
    node_append_new_child(&parent.node, &text.node)
    return True


cdef void insert_characters(TreeBuilder* tb, TextRun* run,
                            uint32_t nul_handling) noexcept nogil:
    """Insert the run's characters at the appropriate place: appended to
    the Text node right before it, or as a new Text node."""
    cdef uint32_t flags = run.flags
    cdef size_t length = run.end - run.begin
    cdef size_t i, room
    cdef InsertionLocation location
    cdef CNode* previous
    cdef CCharacterData* text
    cdef bint new_node = False
    cdef uint8_t* destination
    if length == 0:
        return
    if run_has_real_nul(run):
        flags |= nul_handling
        if nul_handling == NUL_DROP:
            i = run.begin
            while i < run.end and run.data[i] == 0:
                i += 1
            if i == run.end:
                return           # nothing but U+0000: nothing to insert
    location = appropriate_place(tb, NULL)
    if location.parent.type == DOCUMENT_NODE:
        return                   # no Text node in a Document
    previous = location.before.prev if location.before != NULL \
        else location.parent.last_child
    room = conversion_room(length, flags)
    if previous != NULL and previous.type == TEXT_NODE:
        text = <CCharacterData*> previous
        destination = character_data_reserve(text, room)
    else:
        # (Nobody reads it: tree_builder_set_text_unread. Only a document
        # with nodes to reuse can ask, a streaming one among them: behind
        # the test text_create_with_room makes first, the DOM path's is
        # that one test.)
        if tb.document.arena.free_character_data != NULL and tb.text_unread \
                and location.before == NULL and not tb.foster_parenting:
            return
        destination = text_create_with_room(tb.document, room, &text)
        new_node = True
    if destination == NULL:
        tb.halt.failed = True
        return
    length = write_converted(destination, run.data + run.begin, length, flags)
    character_data_commit_inline(text, length)
    if tb.positions.on:
        positions_text_inserted(tb, run, flags, &text.node, new_node)
    if new_node:
        insert_at(location, &text.node)


cdef void insert_whitespace_characters(TreeBuilder* tb, TextRun* run) noexcept nogil:
    """Insert only the run's whitespace characters, each other character
    being a parse error that is ignored ("in frameset" and "after
    frameset")."""
    cdef TextRun piece = run[0]
    cdef size_t i = run.begin
    cdef size_t start
    while i < run.end:
        start = i
        while i < run.end and is_ascii_whitespace(run.data[i]):
            i += 1
        if i > start:
            piece.begin = start
            piece.end = i
            insert_characters(tb, &piece, NUL_KEEP)
        while i < run.end and not is_ascii_whitespace(run.data[i]):
            if (run.data[i] & 0xC0) != 0x80:   # one error per character
                parse_error(tb, "unexpected-character-in-frameset")
            i += 1


# ---------------------------------------------------------------------------
# The pending table character tokens
# https://html.spec.whatwg.org/multipage/parsing.html#concept-pending-table-char-tokens
# ---------------------------------------------------------------------------

cdef void append_pending_table_text(TreeBuilder* tb, TextRun* run) noexcept nogil:
    """Append the run ("in table text": U+0000 is a parse error and is
    ignored), decoded, to the pending table character tokens."""
    cdef size_t length = run.end - run.begin
    cdef size_t start = tb.pending_table_text.length
    cdef size_t i, room
    if length == 0:
        return
    report_nul_characters(tb, run)
    if tb.positions.on:
        positions_table_text(tb, run)
    room = conversion_room(length, run.flags)
    if ensure_capacity(tb, &tb.pending_table_text.data, &tb.pending_table_text.capacity,
                       tb.pending_table_text.length + room if room <= (<size_t> -1) - tb.pending_table_text.length
                       else <size_t> -1) != 0:
        return
    tb.pending_table_text.length += convert_text(
        run.data + run.begin, length,
        run.flags | (NUL_DROP if run_has_real_nul(run) else 0),
        tb.pending_table_text.data + tb.pending_table_text.length)
    if not tb.pending_table_text.has_non_whitespace:
        for i in range(start, tb.pending_table_text.length):
            if not is_ascii_whitespace(tb.pending_table_text.data[i]):
                tb.pending_table_text.has_non_whitespace = True
                break
