# Markup declaration open, bogus comment and comment states. A comment's
# data is always one input range: text_begin up to t.data_end, which the
# states move past every character the standard appends (the "--", "--!" or
# "-" that may close the comment stay outside until they turn out to be
# data).

cdef int prefix_match(const uint8_t* s, size_t available, const char* word,
                      size_t length, bint ignore_case) noexcept nogil:
    """0: s does not start with word; 1: the available bytes are a proper
    prefix of it; 2: s starts with word."""
    cdef size_t k
    cdef uint8_t c
    for k in range(length):
        if k == available:
            return 1
        c = ascii_lower[s[k]] if ignore_case else s[k]
        if c != <uint8_t> word[k]:
            return 0
    return 2


# Markup declaration open state: https://html.spec.whatwg.org/multipage/parsing.html#markup-declaration-open-state
cdef int state_markup_declaration_open(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf + (t.pos - t.buf_abs)
    cdef size_t available = t.buf_end - t.pos
    cdef int dashes = prefix_match(s, available, b"--", 2, False)
    cdef int doctype = prefix_match(s, available, b"doctype", 7, True)
    cdef int cdata = prefix_match(s, available, b"[CDATA[", 7, False)
    if dashes == 2:
        t.pos += 2
        t.token.tag_id = TAG__COMMENT
        t.token.text_begin = t.pos
        t.data_end = t.pos
        t.state = COMMENT_START_STATE
        return GO_ON
    if doctype == 2:
        t.pos += 7
        t.token.tag_id = TAG__DOCTYPE
        t.state = DOCTYPE_STATE
        return GO_ON
    if cdata == 2:
        t.pos += 7
        if t.cdata_allowed:
            t.in_token = False                      # character data follows
            t.state = CDATA_SECTION_STATE
            return GO_ON
        report(t, "cdata-in-html-content", t.pos - 1)
        become_comment(t, t.pos - 7)                # "[CDATA[" is data
        t.state = BOGUS_COMMENT_STATE
        return GO_ON
    if (dashes == 1 or doctype == 1 or cdata == 1) and not t.at_eof:
        return NEED_MORE
    report(t, "incorrectly-opened-comment", t.pos)
    become_comment(t, t.pos)
    t.state = BOGUS_COMMENT_STATE
    return GO_ON


# Bogus comment state: https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state
cdef int state_bogus_comment(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t flags = t.token.data_flags
    cdef uint8_t c
    while True:
        i = scan_for(s, i, n, 0x3E, 0, 0x0D, 0)
        t.token.data_flags = flags
        t.pos = base + i
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            t.data_end = t.pos
            if emit_comment(t) == STOP:
                return STOP
            return emit_eof(t)
        c = s[i]
        if c == 0x3E:                               # '>'
            t.data_end = t.pos
            t.pos += 1
            return emit_comment(t)
        if c == 0:
            report(t, "unexpected-null-character", t.pos)
            flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
        else:                                       # CR
            flags |= DATA_HAS_CR
        i += 1


cdef inline int comment_at_eof(Tokenizer* t) noexcept nogil:
    report(t, "eof-in-comment", t.pos)
    if emit_comment(t) == STOP:
        return STOP
    return emit_eof(t)


# Comment start state: https://html.spec.whatwg.org/multipage/parsing.html#comment-start-state
cdef int state_comment_start(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2D:                                   # '-'
        t.pos += 1
        t.state = COMMENT_START_DASH_STATE
    elif c == 0x3E:                                 # '>'
        report(t, "abrupt-closing-of-empty-comment", t.pos)
        t.pos += 1
        return emit_comment(t)
    else:
        t.state = COMMENT_STATE
    return GO_ON


# Comment start dash state: https://html.spec.whatwg.org/multipage/parsing.html#comment-start-dash-state
cdef int state_comment_start_dash(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2D:                                   # '-'
        t.pos += 1
        t.state = COMMENT_END_STATE
    elif c == 0x3E:                                 # '>'
        report(t, "abrupt-closing-of-empty-comment", t.pos)
        t.pos += 1
        return emit_comment(t)
    elif c == CHAR_EOF:
        return comment_at_eof(t)
    else:
        t.data_end = t.pos                          # the '-' is data
        t.state = COMMENT_STATE
    return GO_ON


# Comment state: https://html.spec.whatwg.org/multipage/parsing.html#comment-state
cdef int state_comment(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t flags = t.token.data_flags
    cdef uint8_t c
    while True:
        i = scan_run_for(s, i, n, 0x2D, 0x3C, 0, 0x0D)
        t.token.data_flags = flags
        t.pos = base + i
        t.data_end = t.pos
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            return comment_at_eof(t)
        c = s[i]
        if c == 0x3C:                               # '<'
            t.pos += 1
            t.data_end = t.pos
            t.state = COMMENT_LESS_THAN_SIGN_STATE
            return GO_ON
        if c == 0x2D:                               # '-'
            t.pos += 1
            t.state = COMMENT_END_DASH_STATE
            return GO_ON
        if c == 0:
            report(t, "unexpected-null-character", t.pos)
            flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
        else:                                       # CR
            flags |= DATA_HAS_CR
        i += 1


# Comment less-than sign state: https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-state
cdef int state_comment_less_than_sign(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x21:                                   # '!'
        t.pos += 1
        t.data_end = t.pos
        t.state = COMMENT_LESS_THAN_SIGN_BANG_STATE
    elif c == 0x3C:                                 # '<'
        t.pos += 1
        t.data_end = t.pos
    else:
        t.state = COMMENT_STATE
    return GO_ON


# Comment less-than sign bang state: https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-state
cdef int state_comment_less_than_sign_bang(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2D:                                   # '-'
        t.pos += 1
        t.state = COMMENT_LESS_THAN_SIGN_BANG_DASH_STATE
    else:
        t.state = COMMENT_STATE
    return GO_ON


# Comment less-than sign bang dash state: https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-dash-state
cdef int state_comment_less_than_sign_bang_dash(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2D:                                   # '-'
        t.pos += 1
        t.state = COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH_STATE
    else:
        t.state = COMMENT_END_DASH_STATE
    return GO_ON


# Comment less-than sign bang dash dash state: https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-dash-dash-state
cdef int state_comment_less_than_sign_bang_dash_dash(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c != 0x3E and c != CHAR_EOF:
        report(t, "nested-comment", t.pos)
    t.state = COMMENT_END_STATE
    return GO_ON


# Comment end dash state: https://html.spec.whatwg.org/multipage/parsing.html#comment-end-dash-state
cdef int state_comment_end_dash(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2D:                                   # '-'
        t.pos += 1
        t.state = COMMENT_END_STATE
    elif c == CHAR_EOF:
        return comment_at_eof(t)
    else:
        t.data_end = t.pos                          # the '-' is data
        t.state = COMMENT_STATE
    return GO_ON


# Comment end state: https://html.spec.whatwg.org/multipage/parsing.html#comment-end-state
cdef int state_comment_end(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x3E:                                   # '>'
        t.pos += 1
        return emit_comment(t)
    if c == 0x21:                                   # '!'
        t.pos += 1
        t.state = COMMENT_END_BANG_STATE
    elif c == 0x2D:                                 # '-': one '-' is data
        t.data_end += 1
        t.pos += 1
    elif c == CHAR_EOF:
        return comment_at_eof(t)
    else:
        t.data_end = t.pos                          # "--" is data
        t.state = COMMENT_STATE
    return GO_ON


# Comment end bang state: https://html.spec.whatwg.org/multipage/parsing.html#comment-end-bang-state
cdef int state_comment_end_bang(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2D:                                   # '-': "--!" is data
        t.data_end = t.pos
        t.pos += 1
        t.state = COMMENT_END_DASH_STATE
    elif c == 0x3E:                                 # '>'
        report(t, "incorrectly-closed-comment", t.pos)
        t.pos += 1
        return emit_comment(t)
    elif c == CHAR_EOF:
        return comment_at_eof(t)
    else:
        t.data_end = t.pos                          # "--!" is data
        t.state = COMMENT_STATE
    return GO_ON
