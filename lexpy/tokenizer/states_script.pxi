# Script data states. Everything they consume is text (one range with
# DATA_RAW); they only decide where an end tag may close the script.

cdef inline bint temp_is_script(Tokenizer* t) noexcept nogil:
    return t.temp_length == 6 and memcmp(t.temp, b"script", 6) == 0


cdef inline void temp_append(Tokenizer* t, int c) noexcept nogil:
    if t.temp_length < 8:
        t.temp[t.temp_length] = ascii_lower[c]
    t.temp_length += 1


# Script data state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-state
cdef int state_script_data(Tokenizer* t) noexcept nogil:
    return scan_text(t, 0x3C, 0, DATA_RAW, SCRIPT_DATA_LESS_THAN_SIGN_STATE,
                     SCRIPT_DATA_STATE)


# Script data less-than sign state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-less-than-sign-state
cdef int state_script_data_less_than_sign(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2F:                                   # '/'
        t.pos += 1
        t.state = SCRIPT_DATA_END_TAG_OPEN_STATE
    elif c == 0x21:                                 # '!'
        t.pos += 1
        t.state = SCRIPT_DATA_ESCAPE_START_STATE
    else:
        t.state = SCRIPT_DATA_STATE
    return GO_ON


# Script data end tag open state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-end-tag-open-state
cdef int state_script_data_end_tag_open(Tokenizer* t) noexcept nogil:
    return end_tag_open_in_text(t, SCRIPT_DATA_END_TAG_NAME_STATE, SCRIPT_DATA_STATE)


# Script data end tag name state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-end-tag-name-state
cdef int state_script_data_end_tag_name(Tokenizer* t) noexcept nogil:
    return end_tag_name_in_text(t, SCRIPT_DATA_STATE)


# Script data escape start state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-escape-start-state
cdef int state_script_data_escape_start(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    ensure_text(t, DATA_RAW)
    if c == 0x2D:                                   # '-'
        t.pos += 1
        t.state = SCRIPT_DATA_ESCAPE_START_DASH_STATE
    else:
        t.state = SCRIPT_DATA_STATE
    return GO_ON


# Script data escape start dash state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-escape-start-dash-state
cdef int state_script_data_escape_start_dash(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    ensure_text(t, DATA_RAW)
    if c == 0x2D:                                   # '-'
        t.pos += 1
        t.state = SCRIPT_DATA_ESCAPED_DASH_DASH_STATE
    else:
        t.state = SCRIPT_DATA_STATE
    return GO_ON


cdef inline int script_comment_like_text_at_eof(Tokenizer* t) noexcept nogil:
    report(t, "eof-in-script-html-comment-like-text", t.pos)
    return emit_eof(t)


cdef inline int escaped_text(Tokenizer* t, TokenizerState dash_state,
                             TokenizerState less_than_sign_state,
                             bint double_escaped) noexcept nogil:
    """The loop of the script data escaped and double escaped states."""
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t flags
    cdef uint8_t c
    if i < n and t.text_begin == NO_POSITION:
        text_start(t, base + i, DATA_RAW)
    flags = t.text_flags
    while True:
        i = scan_run_for(s, i, n, 0x2D, 0x3C, 0, 0x0D)
        t.text_flags = flags
        t.pos = base + i
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            return script_comment_like_text_at_eof(t)
        c = s[i]
        if c == 0x2D:                               # '-'
            t.pos += 1
            t.state = dash_state
            return GO_ON
        if c == 0x3C:                               # '<'
            if not double_escaped:
                t.lt_pos = t.pos
            t.pos += 1
            t.state = less_than_sign_state
            return GO_ON
        if c == 0:
            report(t, "unexpected-null-character", t.pos)
            flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
        else:                                       # CR
            flags |= DATA_HAS_CR
        i += 1


cdef inline int escaped_dash(Tokenizer* t, TokenizerState dash_dash_state,
                             TokenizerState less_than_sign_state,
                             TokenizerState escaped_state,
                             bint double_escaped) noexcept nogil:
    """The script data (double) escaped dash and dash dash states (the dash
    dash ones stay on '-' and leave the escape on '>')."""
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == CHAR_EOF:
        return script_comment_like_text_at_eof(t)
    ensure_text(t, DATA_RAW)
    if c == 0x2D:                                   # '-'
        t.pos += 1
        t.state = dash_dash_state
    elif c == 0x3C:                                 # '<'
        if not double_escaped:
            t.lt_pos = t.pos
        t.pos += 1
        t.state = less_than_sign_state
    elif c == 0x3E and t.state == dash_dash_state:  # '>' after "--"
        t.pos += 1
        t.state = SCRIPT_DATA_STATE
    else:
        if c == 0:
            report(t, "unexpected-null-character", t.pos)
            t.text_flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
        consume_text_character(t, c)
        t.state = escaped_state
    return GO_ON


# Script data escaped state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-state
cdef int state_script_data_escaped(Tokenizer* t) noexcept nogil:
    return escaped_text(t, SCRIPT_DATA_ESCAPED_DASH_STATE,
                        SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE, False)


# Script data escaped dash state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-dash-state
cdef int state_script_data_escaped_dash(Tokenizer* t) noexcept nogil:
    return escaped_dash(t, SCRIPT_DATA_ESCAPED_DASH_DASH_STATE,
                        SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE,
                        SCRIPT_DATA_ESCAPED_STATE, False)


# Script data escaped dash dash state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-dash-dash-state
cdef int state_script_data_escaped_dash_dash(Tokenizer* t) noexcept nogil:
    return escaped_dash(t, SCRIPT_DATA_ESCAPED_DASH_DASH_STATE,
                        SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE,
                        SCRIPT_DATA_ESCAPED_STATE, False)


# Script data escaped less-than sign state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-less-than-sign-state
cdef int state_script_data_escaped_less_than_sign(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2F:                                   # '/'
        t.pos += 1
        t.state = SCRIPT_DATA_ESCAPED_END_TAG_OPEN_STATE
    elif is_alpha(c):
        t.temp_length = 0
        t.state = SCRIPT_DATA_DOUBLE_ESCAPE_START_STATE
    else:
        t.state = SCRIPT_DATA_ESCAPED_STATE
    return GO_ON


# Script data escaped end tag open state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-end-tag-open-state
cdef int state_script_data_escaped_end_tag_open(Tokenizer* t) noexcept nogil:
    return end_tag_open_in_text(t, SCRIPT_DATA_ESCAPED_END_TAG_NAME_STATE,
                                SCRIPT_DATA_ESCAPED_STATE)


# Script data escaped end tag name state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-end-tag-name-state
cdef int state_script_data_escaped_end_tag_name(Tokenizer* t) noexcept nogil:
    return end_tag_name_in_text(t, SCRIPT_DATA_ESCAPED_STATE)


cdef inline int double_escape_boundary(Tokenizer* t, TokenizerState if_script,
                                       TokenizerState otherwise) noexcept nogil:
    """The script data double escape start and end states: letters go to the
    temporary buffer; whitespace, '/' or '>' switch when it says "script"."""
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c != CHAR_EOF:
        ensure_text(t, DATA_RAW)
    if c == 0x2F or c == 0x3E or is_whitespace(c):  # '/' '>' whitespace
        t.state = if_script if temp_is_script(t) else otherwise
        consume_text_character(t, c)
    elif is_alpha(c):
        temp_append(t, c)
        t.pos += 1
    else:
        t.state = otherwise
    return GO_ON


# Script data double escape start state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escape-start-state
cdef int state_script_data_double_escape_start(Tokenizer* t) noexcept nogil:
    return double_escape_boundary(t, SCRIPT_DATA_DOUBLE_ESCAPED_STATE,
                                  SCRIPT_DATA_ESCAPED_STATE)


# Script data double escaped state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-state
cdef int state_script_data_double_escaped(Tokenizer* t) noexcept nogil:
    return escaped_text(t, SCRIPT_DATA_DOUBLE_ESCAPED_DASH_STATE,
                        SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE, True)


# Script data double escaped dash state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-dash-state
cdef int state_script_data_double_escaped_dash(Tokenizer* t) noexcept nogil:
    return escaped_dash(t, SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH_STATE,
                        SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE,
                        SCRIPT_DATA_DOUBLE_ESCAPED_STATE, True)


# Script data double escaped dash dash state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-dash-dash-state
cdef int state_script_data_double_escaped_dash_dash(Tokenizer* t) noexcept nogil:
    return escaped_dash(t, SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH_STATE,
                        SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN_STATE,
                        SCRIPT_DATA_DOUBLE_ESCAPED_STATE, True)


# Script data double escaped less-than sign state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-less-than-sign-state
cdef int state_script_data_double_escaped_less_than_sign(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2F:                                   # '/'
        ensure_text(t, DATA_RAW)
        t.temp_length = 0
        t.pos += 1
        t.state = SCRIPT_DATA_DOUBLE_ESCAPE_END_STATE
    else:
        t.state = SCRIPT_DATA_DOUBLE_ESCAPED_STATE
    return GO_ON


# Script data double escape end state: https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escape-end-state
cdef int state_script_data_double_escape_end(Tokenizer* t) noexcept nogil:
    return double_escape_boundary(t, SCRIPT_DATA_ESCAPED_STATE,
                                  SCRIPT_DATA_DOUBLE_ESCAPED_STATE)
