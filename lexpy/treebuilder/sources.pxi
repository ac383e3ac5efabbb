# Positions (lexpy.parse(positions=True)): not in the standard. Every node
# made from a token gets the token's stream offsets (the tokenizer's
# tokenizer_data_offset + the token's ranges) in the DOM's source record;
# an element gets its end tag when the end tag pops it; a Text node spans
# its first to its last character's input, traced through the decoded
# copies of text the modes make (character references decoded to split off
# whitespace) and the pending table character tokens. Nodes the parser
# makes itself (implied elements, clones) get nothing. Off, the builder
# pays one test per token, node and pop.


cdef struct Positions:
    bint on
    size_t token_base             # stream offset of the token's data[0]
    const uint8_t* token_data
    Token* end_tag                # the end tag token being processed,
                                  # until it pops its element
    # The text the scratch buffer holds was decoded from: raw bytes, their
    # stream offset, conversion flags and decoded length; a walk's memo.
    const uint8_t* scratch_raw
    size_t scratch_raw_length
    size_t scratch_source
    size_t scratch_decoded
    uint32_t scratch_flags
    size_t walk_decoded
    size_t walk_raw
    # The pending table character tokens: from where to where.
    bint pending_valid
    size_t pending_begin
    size_t pending_end


cdef inline void positions_token(TreeBuilder* tb, Token* token) noexcept nogil:
    tb.positions.token_base = tokenizer_data_offset(tb.tokenizer)
    tb.positions.token_data = token.data
    tb.positions.scratch_raw = NULL
    tb.positions.end_tag = token if (token.type & TOKEN_END_TAG
                                     and token.tag_id >= LXP_TAG_FIRST_ELEMENT) else NULL


cdef inline void positions_set_token(TreeBuilder* tb, CNode* node,
                                     Token* token) noexcept nogil:
    node_set_source(node, tb.positions.token_base + token.begin,
                    tb.positions.token_base + token.end)


cdef void positions_popped(TreeBuilder* tb, CElement* element) noexcept nogil:
    """An element popped (or removed from the stack) while an end tag is
    processed: the first one of the end tag's name gets it."""
    cdef Token* token = tb.positions.end_tag
    if element.tag_id == token.tag_id or lowercase_tag(element.tag_id) == token.tag_id:
        element_set_end_source(&element.node, tb.positions.token_base + token.begin,
                               tb.positions.token_base + token.end)
        tb.positions.end_tag = NULL


cdef void positions_end_tag_left(TreeBuilder* tb, Token* token) noexcept nogil:
    """</body> and </html> close nothing (the standard keeps the elements
    open and switches modes); they are still those elements' end tags."""
    cdef CElement* element
    tb.positions.end_tag = NULL
    if token.tag_id == TAG_BODY and tb.mode == AFTER_BODY and tb.open.count > 1:
        element = tb.open.elements[1]
    elif token.tag_id == TAG_HTML and tb.mode == AFTER_AFTER_BODY and tb.open.count > 0:
        element = tb.open.elements[0]
    else:
        return
    if element != NULL and is_html_element(element, token.tag_id):
        element_set_end_source(&element.node, tb.positions.token_base + token.begin,
                               tb.positions.token_base + token.end)


cdef void positions_text_decoded(TreeBuilder* tb, const uint8_t* data, size_t begin,
                                 size_t length, uint32_t flags,
                                 size_t decoded) noexcept nogil:
    """The current run (raw bytes data[begin:begin + length]) was decoded
    into the scratch buffer (`decoded` bytes)."""
    if data != tb.positions.token_data:
        tb.positions.scratch_raw = NULL
        return
    tb.positions.scratch_raw = data + begin
    tb.positions.scratch_raw_length = length
    tb.positions.scratch_source = tb.positions.token_base + begin
    tb.positions.scratch_decoded = decoded
    tb.positions.scratch_flags = flags
    tb.positions.walk_decoded = 0
    tb.positions.walk_raw = 0


cdef size_t scratch_source_offset(TreeBuilder* tb, size_t decoded) noexcept nogil:
    """The stream offset of the raw character a decoded offset of the scratch
    buffer came from (a reference counts as its decoded characters)."""
    cdef Positions* p = &tb.positions
    cdef size_t d, r, q, n = p.scratch_raw_length
    cdef const uint8_t* raw = p.scratch_raw
    cdef uint8_t c
    cdef uint8_t buffer[160]
    if decoded >= p.scratch_decoded:
        return p.scratch_source + n
    if decoded >= p.walk_decoded:
        d = p.walk_decoded
        r = p.walk_raw
    else:
        d = r = 0
    while d < decoded and r < n:
        c = raw[r]
        if c == 0x26 and p.scratch_flags & DATA_HAS_CHARREF:     # '&'
            q = r + 1
            while q < n and q - r < 48 and is_reference_character(raw[q]):
                q += 1
            if q < n and raw[q] == 0x3B:
                q += 1
            d += convert_text(raw + r, q - r,
                              p.scratch_flags & ~(<uint32_t> DATA_NUL_DROP), buffer)
            r = q
        elif c == 0x0D:
            d += 1
            r += 1
            if r < n and raw[r] == 0x0A:
                r += 1
        elif c == 0 and p.scratch_flags & DATA_NUL_TO_REPLACEMENT:
            d += 3
            r += 1
        else:
            d += 1
            r += 1
    p.walk_decoded = d
    p.walk_raw = r
    return p.scratch_source + r


cdef bint run_source(TreeBuilder* tb, TextRun* run, size_t* start,
                     size_t* end) noexcept nogil:
    """The stream offsets of a run's first and last character's input."""
    if run.data == tb.positions.token_data and run.data != NULL:
        start[0] = tb.positions.token_base + run.begin
        end[0] = tb.positions.token_base + run.end
        return True
    if run.data == tb.scratch and tb.positions.scratch_raw != NULL:
        start[0] = scratch_source_offset(tb, run.begin)
        end[0] = scratch_source_offset(tb, run.end)
        return True
    if run.data == tb.pending_table_text.data and tb.positions.pending_valid:
        start[0] = tb.positions.pending_begin
        end[0] = tb.positions.pending_end
        return True
    return False


cdef void positions_text_inserted(TreeBuilder* tb, TextRun* run, uint32_t flags,
                                  CNode* text, bint new_node) noexcept nogil:
    """A run went into a Text node. U+0000 characters the mode drops at
    either end are not its input (the same nodes in any chunking)."""
    cdef size_t start, end
    cdef TextRun kept = run[0]
    if flags & DATA_NUL_DROP and run_has_real_nul(run):
        while kept.begin < kept.end and kept.data[kept.begin] == 0:
            kept.begin += 1
        while kept.end > kept.begin and kept.data[kept.end - 1] == 0:
            kept.end -= 1
    if not run_source(tb, &kept, &start, &end):
        return
    if new_node:
        node_set_source(text, start, end)
    else:
        node_source_extend(text, start, end)


cdef void positions_table_text(TreeBuilder* tb, TextRun* run) noexcept nogil:
    """A run joins the pending table character tokens (without the U+0000
    characters they drop at its ends)."""
    cdef size_t start, end
    cdef TextRun kept = run[0]
    if run_has_real_nul(run):
        while kept.begin < kept.end and kept.data[kept.begin] == 0:
            kept.begin += 1
        while kept.end > kept.begin and kept.data[kept.end - 1] == 0:
            kept.end -= 1
        if kept.begin == kept.end:
            return
    if not run_source(tb, &kept, &start, &end):
        if tb.pending_table_text.length == 0:
            tb.positions.pending_valid = False
        return
    if tb.pending_table_text.length == 0:
        tb.positions.pending_valid = True
        tb.positions.pending_begin = start
    tb.positions.pending_end = end
