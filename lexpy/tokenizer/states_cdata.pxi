# CDATA section states (only in foreign content: tokenizer_set_cdata_allowed).
# The section is one text token with DATA_CDATA, emitted at "]]>".

# CDATA section state: https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state
cdef int state_cdata_section(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t flags
    if i < n and t.text_begin == NO_POSITION:
        text_start(t, base + i, DATA_CDATA)
    flags = t.text_flags
    while True:
        i = scan_for(s, i, n, 0x5D, 0, 0x0D, 0)
        t.text_flags = flags
        t.pos = base + i
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            report(t, "eof-in-cdata", t.pos)
            return emit_eof(t)
        if s[i] == 0x5D:                            # ']'
            t.pos += 1
            t.state = CDATA_SECTION_BRACKET_STATE
            return GO_ON
        if s[i] == 0:                               # kept as it is
            flags |= DATA_HAS_NUL
        else:                                       # CR
            flags |= DATA_HAS_CR
        i += 1


# CDATA section bracket state: https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-bracket-state
cdef int state_cdata_section_bracket(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x5D:                                   # ']'
        t.pos += 1
        t.state = CDATA_SECTION_END_STATE
    else:                                           # the ']' was text
        t.state = CDATA_SECTION_STATE
    return GO_ON


# CDATA section end state: https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-end-state
cdef int state_cdata_section_end(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    cdef int result
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x5D:                                   # ']': one ']' is text
        t.pos += 1
    elif c == 0x3E:                                 # '>'
        t.pos += 1
        result = emit_text(t, t.pos - 3)
        t.state = DATA_STATE
        return result
    else:                                           # "]]" was text
        t.state = CDATA_SECTION_STATE
    return GO_ON
