# Tag open, end tag open, tag name and self-closing start tag states. A tag
# name is hashed (FNV-1a over its lowercased bytes) while it is scanned, and
# looked up in the static table or interned in the dynamic one when it ends.
#
# Where a state's next state is certain and has input to work on, the state
# calls it directly instead of returning to the dispatcher (data -> tag open
# -> (end tag open ->) tag name -> before attribute name -> attribute name,
# which goes on through the attributes of the usual shape itself): the calls
# only go down that chain, so the C stack holds at most those six frames.

# Tag open state: https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state
cdef int state_tag_open(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    cdef int result
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x21:                                   # '!'
        result = begin_token(t, TAG__COMMENT)       # settled by the next state
        t.pos += 1
        t.state = MARKUP_DECLARATION_OPEN_STATE
        return result
    if c == 0x2F:                                   # '/'
        t.pos += 1
        t.state = END_TAG_OPEN_STATE
        return state_end_tag_open(t)                # (without the dispatcher)
    if is_alpha(c):
        result = begin_tag(t, False, t.pos)
        t.state = TAG_NAME_STATE
        if result != GO_ON:
            return result
        return state_tag_name(t)                    # (without the dispatcher)
    if c == 0x3F:                                   # '?'
        if t.processing_instructions:
            result = begin_token(t, TAG__PROCESSING_INSTRUCTION)
            t.pos += 1
            t.state = PROCESSING_INSTRUCTION_OPEN_STATE
            return result
        result = begin_comment(t, t.pos)
        report(t, "unexpected-question-mark-instead-of-tag-name", t.pos)
        t.state = BOGUS_COMMENT_STATE
        return result
    if c == CHAR_EOF:
        report(t, "eof-before-tag-name", t.pos)
    else:
        report(t, "invalid-first-character-of-tag-name", t.pos)
    t.state = DATA_STATE                            # '<' was text
    return GO_ON


# End tag open state: https://html.spec.whatwg.org/multipage/parsing.html#end-tag-open-state
cdef int state_end_tag_open(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    cdef int result
    if c == CHAR_NEED:
        return NEED_MORE
    if is_alpha(c):
        result = begin_tag(t, True, t.pos)
        t.state = TAG_NAME_STATE
        if result != GO_ON:
            return result
        return state_tag_name(t)                    # (without the dispatcher)
    if c == 0x3E:                                   # '>': "</>" is dropped
        result = emit_text(t, t.lt_pos)
        report(t, "missing-end-tag-name", t.pos)
        t.pos += 1
        t.state = DATA_STATE
        return result
    if c == CHAR_EOF:
        report(t, "eof-before-tag-name", t.pos)
        t.state = DATA_STATE                        # '</' was text
        return GO_ON
    result = begin_comment(t, t.pos)
    report(t, "invalid-first-character-of-tag-name", t.pos)
    t.state = BOGUS_COMMENT_STATE
    return result


# Tag name state: https://html.spec.whatwg.org/multipage/parsing.html#tag-name-state
cdef int state_tag_name(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t hash = t.name_hash
    cdef uint32_t flags = t.name_flags
    cdef uint8_t c, lower
    cdef uint8_t common
    cdef size_t begin
    while True:
        begin = i
        common = 0xFF
        if base + i < t.name_stop:
            # A byte that ends the name lies ahead: no check of the end.
            while True:
                c = s[i]
                lower = tag_name_byte[c]
                if lower == 0:
                    break
                common &= c
                hash = lxp_name_hash_step(hash, lower)
                i += 1
        else:
            while i < n:
                c = s[i]
                lower = tag_name_byte[c]
                if lower == 0:
                    break
                common &= c
                hash = lxp_name_hash_step(hash, lower)
                i += 1
        # (as in scan_attribute_name: only A-Z lack 0x20 and change)
        if not common & 0x20 and lowercasing_changes(s + begin, s + i):
            flags |= DATA_ASCII_LOWERCASE
        t.name_hash = hash
        t.name_flags = flags
        t.pos = base + i
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            report(t, "eof-in-tag", t.pos)
            return emit_eof(t)
        c = s[i]
        if c == 0:
            report(t, "unexpected-null-character", t.pos)
            flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
            hash = lxp_name_hash_step(hash, 0)
            i += 1
            continue
        finish_tag_name(t)
        t.pos += 1
        if c == 0x2F:                               # '/'
            t.state = SELF_CLOSING_START_TAG_STATE
            if i + 1 < n and s[i + 1] == 0x3E:      # '/>'
                t.token.type |= TOKEN_SELF_CLOSING
                t.pos += 1
                return emit_tag(t)
        elif c == 0x3E:                             # '>'
            return emit_tag(t)
        else:                                       # whitespace
            t.state = BEFORE_ATTRIBUTE_NAME_STATE
            return attributes_in_a_row(t)           # (without the dispatcher)
        return GO_ON


# Self-closing start tag state: https://html.spec.whatwg.org/multipage/parsing.html#self-closing-start-tag-state
cdef int state_self_closing_start_tag(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x3E:                                   # '>'
        t.token.type |= TOKEN_SELF_CLOSING
        t.pos += 1
        return emit_tag(t)
    if c == CHAR_EOF:
        report(t, "eof-in-tag", t.pos)
        return emit_eof(t)
    report(t, "unexpected-solidus-in-tag", t.pos)
    t.state = BEFORE_ATTRIBUTE_NAME_STATE
    return GO_ON
