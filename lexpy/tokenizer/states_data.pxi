# The text states: data, RCDATA, RAWTEXT, PLAINTEXT (script data is in
# states_script.pxi), and the end tag states of RCDATA and RAWTEXT. Text is
# never copied: a text token is the range from its first character to where
# markup begins, with flags saying what convert_text must do.

cdef inline int next_input(Tokenizer* t) noexcept nogil:
    """The byte at t.pos, CHAR_EOF at the end of the input, or CHAR_NEED at
    the end of the available input."""
    if t.pos < t.buf_end:
        return t.buf[t.pos - t.buf_abs]
    if t.at_eof:
        return CHAR_EOF
    return CHAR_NEED


cdef inline int scan_text(Tokenizer* t, uint8_t less_than_sign, uint8_t ampersand,
                          uint32_t origin, TokenizerState less_than_sign_state,
                          TokenizerState self_state) noexcept nogil:
    """The loop of the data, RCDATA, RAWTEXT, script data and PLAINTEXT
    states: text up to '<' (or the end), noting '&', NUL and CR
    (less_than_sign and ampersand are '<' and '&' where they matter, else
    NUL: another stop byte the loop has anyway)."""
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t flags
    cdef uint8_t c
    if i < n and t.text_begin == NO_POSITION:
        text_start(t, base + i, origin)
    flags = t.text_flags
    while True:
        i = scan_run_for(s, i, n, less_than_sign, ampersand, 0, 0x0D)
        if i == n:
            t.text_flags = flags
            t.pos = base + i
            if t.at_eof:
                return emit_eof(t)
            return NEED_MORE
        c = s[i]
        if c == 0x3C:                               # '<' (where it stops)
            # In RCDATA, RAWTEXT and script data, a '<' that the byte after
            # it shows to be text (not '/', nor '!' in script data) stays
            # in the run: its less-than sign state would come back here.
            if origin != 0 and i + 1 < n and s[i + 1] != 0x2F and (
                    s[i + 1] != 0x21 or self_state != SCRIPT_DATA_STATE):
                i += 1
                continue
            t.text_flags = flags
            t.lt_pos = base + i
            t.pos = base + i + 1
            t.state = less_than_sign_state
            return GO_ON
        elif c == 0x26:                             # '&'
            flags |= DATA_HAS_CHARREF
            if t.errors != NULL:
                t.text_flags = flags
                t.charref_begin = base + i
                t.return_state = self_state
                t.pos = base + i + 1
                t.state = CHARACTER_REFERENCE_STATE
                return GO_ON
        elif c == 0:
            flags |= DATA_HAS_NUL
            if origin != 0:
                flags |= DATA_NUL_TO_REPLACEMENT
            report(t, "unexpected-null-character", base + i)
        else:                                       # CR
            flags |= DATA_HAS_CR
        i += 1


# Data state: https://html.spec.whatwg.org/multipage/parsing.html#data-state
cdef int state_data(Tokenizer* t) noexcept nogil:
    # U+0000 stays in the text (with the error): the tree builder decides.
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    # The usual text, up to a '<' with no '&', NUL or CR before it, in line
    # with the stop bytes as constants; anything else goes on in scan_text
    # from the byte that stopped the scan (the text is begun already), and
    # so does text that begins while errors are collected (text_start
    # finds its position). Both ways on are tail calls: nothing is saved.
    if i < n and (t.text_begin != NO_POSITION or t.errors == NULL):
        if t.text_begin == NO_POSITION:
            t.text_begin = base + i                 # (text_start)
            t.text_flags = 0
        i = scan_for(s, i, n, 0x3C, 0x26, 0, 0x0D)
        if i < n and s[i] == 0x3C:                  # '<'
            t.lt_pos = base + i
            t.pos = base + i + 1
            t.state = TAG_OPEN_STATE
            return state_tag_open(t)                # (without the dispatcher)
        t.pos = base + i
    return data_scan_text_out_of_line(t)


cdef int data_scan_text(Tokenizer* t) noexcept nogil:
    """The data state's scan_text (its text from t.pos on)."""
    cdef int result = scan_text(t, 0x3C, 0x26, 0, TAG_OPEN_STATE, DATA_STATE)
    if result == GO_ON and t.state == TAG_OPEN_STATE:
        return state_tag_open(t)                    # (without the dispatcher)
    return result


# state_data calls data_scan_text through this pointer, so that the compiler
# does not inline it (and the registers it needs) into the data state.
cdef int (*data_scan_text_out_of_line)(Tokenizer* t) noexcept nogil
data_scan_text_out_of_line = data_scan_text


# RCDATA state: https://html.spec.whatwg.org/multipage/parsing.html#rcdata-state
cdef int state_rcdata(Tokenizer* t) noexcept nogil:
    return scan_text(t, 0x3C, 0x26, DATA_RCDATA, RCDATA_LESS_THAN_SIGN_STATE,
                     RCDATA_STATE)


# RAWTEXT state: https://html.spec.whatwg.org/multipage/parsing.html#rawtext-state
cdef int state_rawtext(Tokenizer* t) noexcept nogil:
    return scan_text(t, 0x3C, 0, DATA_RAW, RAWTEXT_LESS_THAN_SIGN_STATE,
                     RAWTEXT_STATE)


# PLAINTEXT state: https://html.spec.whatwg.org/multipage/parsing.html#plaintext-state
cdef int state_plaintext(Tokenizer* t) noexcept nogil:
    return scan_text(t, 0, 0, DATA_RAW, PLAINTEXT_STATE, PLAINTEXT_STATE)


# The less-than sign, end tag open and end tag name states have the same
# shape in RCDATA, RAWTEXT, script data and script data escaped: the
# helpers below are each of them, given the states to go to. While they
# run, '<' at t.lt_pos may still start an end tag, so the text before it
# waits (end_of_available_data holds it back at a chunk end).

cdef inline int less_than_sign_in_text(Tokenizer* t,
                                       TokenizerState end_tag_open_state,
                                       TokenizerState text_state) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x2F:                                   # '/'
        t.pos += 1
        t.state = end_tag_open_state
    else:                                           # '<' was text
        t.state = text_state
    return GO_ON


cdef inline int end_tag_open_in_text(Tokenizer* t,
                                     TokenizerState end_tag_name_state,
                                     TokenizerState text_state) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if is_alpha(c):
        t.name_begin = t.pos
        t.state = end_tag_name_state
    else:                                           # '</' was text
        t.state = text_state
    return GO_ON


cdef bint is_appropriate_end_tag(Tokenizer* t, size_t begin, size_t end) noexcept nogil:
    """Whether the (ASCII alpha) name at begin..end is the last start tag's
    name, ASCII case-insensitively."""
    # https://html.spec.whatwg.org/multipage/parsing.html#appropriate-end-tag-token
    cdef size_t length, k
    cdef const uint8_t* expected
    cdef const uint8_t* name = t.buf + (begin - t.buf_abs)
    if t.last_start_tag == 0:
        return False
    expected = tag_name_of(t.tags, t.last_start_tag, &length)
    if expected == NULL or length != end - begin:
        return False
    for k in range(length):
        if ascii_lower[name[k]] != expected[k]:
            return False
    return True


cdef inline int end_tag_name_in_text(Tokenizer* t,
                                     TokenizerState text_state) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint8_t c
    cdef uint32_t flags = 0
    cdef int result
    while i < n and byte_class[s[i]] & CLASS_ALPHA:
        i += 1
    t.pos = base + i
    if i == n:
        if not t.at_eof:
            return NEED_MORE
        t.state = text_state                        # '</name' was text
        return GO_ON
    c = s[i]
    if (c == 0x2F or c == 0x3E or byte_class[c] & CLASS_WHITESPACE) \
            and is_appropriate_end_tag(t, t.name_begin, base + i):
        result = begin_tag(t, True, t.name_begin)
        for i in range(t.name_begin - base, t.pos - base):
            if byte_class[s[i]] & CLASS_UPPER:
                flags = DATA_ASCII_LOWERCASE
        t.token.text_end = t.pos
        t.token.data_flags = flags
        t.token.tag_id = t.last_start_tag
        t.pos += 1
        if c == 0x2F:
            t.state = SELF_CLOSING_START_TAG_STATE
        elif c == 0x3E:
            if result == STOP:
                return STOP
            return emit_tag(t)
        else:
            t.state = BEFORE_ATTRIBUTE_NAME_STATE
        return result
    t.state = text_state
    return GO_ON


# RCDATA less-than sign state: https://html.spec.whatwg.org/multipage/parsing.html#rcdata-less-than-sign-state
cdef int state_rcdata_less_than_sign(Tokenizer* t) noexcept nogil:
    return less_than_sign_in_text(t, RCDATA_END_TAG_OPEN_STATE, RCDATA_STATE)


# RCDATA end tag open state: https://html.spec.whatwg.org/multipage/parsing.html#rcdata-end-tag-open-state
cdef int state_rcdata_end_tag_open(Tokenizer* t) noexcept nogil:
    return end_tag_open_in_text(t, RCDATA_END_TAG_NAME_STATE, RCDATA_STATE)


# RCDATA end tag name state: https://html.spec.whatwg.org/multipage/parsing.html#rcdata-end-tag-name-state
cdef int state_rcdata_end_tag_name(Tokenizer* t) noexcept nogil:
    return end_tag_name_in_text(t, RCDATA_STATE)


# RAWTEXT less-than sign state: https://html.spec.whatwg.org/multipage/parsing.html#rawtext-less-than-sign-state
cdef int state_rawtext_less_than_sign(Tokenizer* t) noexcept nogil:
    return less_than_sign_in_text(t, RAWTEXT_END_TAG_OPEN_STATE, RAWTEXT_STATE)


# RAWTEXT end tag open state: https://html.spec.whatwg.org/multipage/parsing.html#rawtext-end-tag-open-state
cdef int state_rawtext_end_tag_open(Tokenizer* t) noexcept nogil:
    return end_tag_open_in_text(t, RAWTEXT_END_TAG_NAME_STATE, RAWTEXT_STATE)


# RAWTEXT end tag name state: https://html.spec.whatwg.org/multipage/parsing.html#rawtext-end-tag-name-state
cdef int state_rawtext_end_tag_name(Tokenizer* t) noexcept nogil:
    return end_tag_name_in_text(t, RAWTEXT_STATE)
