# Character reference states. Decoding is convert_text's job; these states
# run only when errors are collected, to report each error where the
# standard's tokenizer meets it. They consume exactly what the standard's
# states consume, and the consumed characters stay in the range of the
# text or attribute value they return to.

cdef inline bint in_attribute_value(TokenizerState state) noexcept nogil:
    return (state == ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE
            or state == ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE
            or state == ATTRIBUTE_VALUE_UNQUOTED_STATE)


# Character reference state: https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state
cdef int state_character_reference(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if is_alphanumeric(c):
        t.state = NAMED_CHARACTER_REFERENCE_STATE
    elif c == 0x23:                                 # '#'
        t.pos += 1
        t.charref_value = 0
        t.state = NUMERIC_CHARACTER_REFERENCE_STATE
    else:
        t.state = t.return_state
    return GO_ON


# Named character reference state: https://html.spec.whatwg.org/multipage/parsing.html#named-character-reference-state
cdef int state_named_character_reference(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf + (t.pos - t.buf_abs)
    cdef size_t available = t.buf_end - t.pos
    cdef size_t length
    cdef int32_t value
    cdef uint8_t next_character
    if match_named_reference(s, available, &length, &value) \
            == NAMED_MATCH_INCOMPLETE and not t.at_eof:
        return NEED_MORE
    if length == 0:
        t.state = AMBIGUOUS_AMPERSAND_STATE
        return GO_ON
    if s[length - 1] != 0x3B:                       # not ending with ';'
        if in_attribute_value(t.return_state):
            if length == available and not t.at_eof:
                return NEED_MORE
            if length < available:
                next_character = s[length]
                if next_character == 0x3D or byte_class[next_character] & CLASS_ALPHANUMERIC:
                    t.pos += length                 # not a reference, for
                    t.state = t.return_state        # historical reasons
                    return GO_ON
        report(t, "missing-semicolon-after-character-reference", t.pos + length)
    t.pos += length
    t.state = t.return_state
    return GO_ON


# Ambiguous ampersand state: https://html.spec.whatwg.org/multipage/parsing.html#ambiguous-ampersand-state
cdef int state_ambiguous_ampersand(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    # The alphanumerics are text (or the value): after a flush at a chunk
    # end the text goes on here.
    if t.return_state == DATA_STATE:
        ensure_text(t, 0)
    elif t.return_state == RCDATA_STATE:
        ensure_text(t, DATA_RCDATA)
    while i < n and byte_class[s[i]] & CLASS_ALPHANUMERIC:
        i += 1
    t.pos = base + i
    if i == n and not t.at_eof:
        return NEED_MORE
    if i < n and s[i] == 0x3B:                      # ';'
        report(t, "unknown-named-character-reference", t.pos)
    t.state = t.return_state
    return GO_ON


# Numeric character reference state: https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-state
cdef int state_numeric_character_reference(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x78 or c == 0x58:                      # 'x' 'X'
        t.pos += 1
        t.state = HEXADECIMAL_CHARACTER_REFERENCE_START_STATE
    else:
        t.state = DECIMAL_CHARACTER_REFERENCE_START_STATE
    return GO_ON


cdef inline int numeric_reference_start(Tokenizer* t, uint8_t digit_classes,
                                        TokenizerState digits_state) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c >= 0 and byte_class[c] & digit_classes:
        t.state = digits_state
    else:
        report(t, "absence-of-digits-in-numeric-character-reference", t.pos)
        t.state = t.return_state
    return GO_ON


# Hexadecimal character reference start state: https://html.spec.whatwg.org/multipage/parsing.html#hexadecimal-character-reference-start-state
cdef int state_hexadecimal_character_reference_start(Tokenizer* t) noexcept nogil:
    return numeric_reference_start(t, CLASS_DIGIT | CLASS_HEX_LETTER,
                                   HEXADECIMAL_CHARACTER_REFERENCE_STATE)


# Decimal character reference start state: https://html.spec.whatwg.org/multipage/parsing.html#decimal-character-reference-start-state
cdef int state_decimal_character_reference_start(Tokenizer* t) noexcept nogil:
    return numeric_reference_start(t, CLASS_DIGIT,
                                   DECIMAL_CHARACTER_REFERENCE_STATE)


cdef inline int numeric_reference_digits(Tokenizer* t, bint hexadecimal) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t value = t.charref_value
    cdef uint8_t classes = (CLASS_DIGIT | CLASS_HEX_LETTER) if hexadecimal else CLASS_DIGIT
    while i < n and byte_class[s[i]] & classes:
        if hexadecimal:
            value = accumulate_digit(value, hex_digit_value(s[i]), 16)
        else:
            value = accumulate_digit(value, s[i] - 0x30, 10)
        i += 1
    t.charref_value = value
    t.pos = base + i
    if i == n and not t.at_eof:
        return NEED_MORE
    if i < n and s[i] == 0x3B:                      # ';'
        t.pos += 1
    else:
        report(t, "missing-semicolon-after-character-reference", t.pos)
    t.state = NUMERIC_CHARACTER_REFERENCE_END_STATE
    return GO_ON


# Hexadecimal character reference state: https://html.spec.whatwg.org/multipage/parsing.html#hexadecimal-character-reference-state
cdef int state_hexadecimal_character_reference(Tokenizer* t) noexcept nogil:
    return numeric_reference_digits(t, True)


# Decimal character reference state: https://html.spec.whatwg.org/multipage/parsing.html#decimal-character-reference-state
cdef int state_decimal_character_reference(Tokenizer* t) noexcept nogil:
    return numeric_reference_digits(t, False)


# Numeric character reference end state: https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state
cdef int state_numeric_character_reference_end(Tokenizer* t) noexcept nogil:
    cdef const char* code = numeric_reference_error(t.charref_value)
    if code != NULL:
        report(t, code, t.pos)
    t.state = t.return_state
    return GO_ON
