# Processing instruction states (the standard's June 2026 change; with
# processing_instructions off, '<?' opens a bogus comment as before).
# A target is ASCII alpha or '_' then ASCII alphanumerics, '-' and '_';
# anything else, or a target "xml" / "xml-stylesheet" in any case, turns
# what was read into a bogus comment ("?" + the temporary buffer). The
# target keeps its case; '>' always ends the instruction, "?>" too.

cdef inline int processing_instruction_at_eof(Tokenizer* t) noexcept nogil:
    report(t, "eof-in-processing-instruction", t.pos)
    return emit_eof(t)                              # nothing is emitted for it


cdef inline void convert_to_comment(Tokenizer* t, const char* code) noexcept nogil:
    """"Convert the temporary buffer to a comment": the data starts at the
    '?' after '<'; the current character is reconsumed in the bogus comment
    state."""
    report(t, code, t.pos)
    become_comment(t, t.token.begin + 1)
    t.state = BOGUS_COMMENT_STATE


cdef inline bint is_target_character(uint8_t c) noexcept nogil:
    return (byte_class[c] & CLASS_ALPHANUMERIC) != 0 or c == 0x2D or c == 0x5F


# Processing instruction open state: https://html.spec.whatwg.org/multipage/parsing.html#processing-instruction-open-state
cdef int state_processing_instruction_open(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == CHAR_EOF:
        return processing_instruction_at_eof(t)
    if is_alpha(c) or c == 0x5F:                    # '_'
        t.token.pi_target_begin = t.pos
        t.token.pi_target_end = t.pos
        t.state = PROCESSING_INSTRUCTION_TARGET_STATE
    else:
        convert_to_comment(t, "invalid-first-character-of-processing-instruction-target")
    return GO_ON


# Processing instruction target state: https://html.spec.whatwg.org/multipage/parsing.html#processing-instruction-target-state
cdef int state_processing_instruction_target(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef size_t begin = t.token.pi_target_begin - base
    cdef uint8_t c
    while i < n and is_target_character(s[i]):
        i += 1
    t.pos = base + i
    if i == n:
        if not t.at_eof:
            return NEED_MORE
        return processing_instruction_at_eof(t)
    c = s[i]
    if c == 0x3F or c == 0x3E or byte_class[c] & CLASS_WHITESPACE:
        if (prefix_match(s + begin, i - begin, b"xml", 3, True) == 2 and i - begin == 3) \
                or (prefix_match(s + begin, i - begin, b"xml-stylesheet", 14, True) == 2
                    and i - begin == 14):
            convert_to_comment(t, "disallowed-processing-instruction-target")
        else:
            t.token.pi_target_end = t.pos
            t.state = AFTER_PROCESSING_INSTRUCTION_TARGET_STATE
    else:
        convert_to_comment(t, "invalid-processing-instruction-target")
    return GO_ON


# After processing instruction target state: https://html.spec.whatwg.org/multipage/parsing.html#after-processing-instruction-target-state
cdef int state_after_processing_instruction_target(Tokenizer* t) noexcept nogil:
    cdef size_t base = t.buf_abs
    t.pos = base + skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    if t.pos == t.buf_end and not t.at_eof:
        return NEED_MORE
    t.token.text_begin = t.pos
    t.data_end = t.pos
    t.state = PROCESSING_INSTRUCTION_DATA_STATE
    return GO_ON


# Processing instruction data state: https://html.spec.whatwg.org/multipage/parsing.html#processing-instruction-data-state
cdef int state_processing_instruction_data(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t flags = t.token.data_flags
    cdef uint8_t c
    while True:
        i = scan_for(s, i, n, 0x3F, 0x3E, 0, 0x0D)
        t.token.data_flags = flags
        t.pos = base + i
        t.data_end = t.pos
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            return processing_instruction_at_eof(t)
        c = s[i]
        if c == 0x3F:                               # '?'
            t.pos += 1
            t.state = PROCESSING_INSTRUCTION_QUESTIONABLE_STATE
            return GO_ON
        if c == 0x3E:                               # '>'
            t.pos += 1
            return emit_processing_instruction(t)
        if c == 0:                                  # kept, no error
            flags |= DATA_HAS_NUL
        else:                                       # CR
            flags |= DATA_HAS_CR
        i += 1


# Processing instruction questionable state: https://html.spec.whatwg.org/multipage/parsing.html#processing-instruction-questionable-state
cdef int state_processing_instruction_questionable(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x3E:                                   # '>': "?>" ends it
        t.pos += 1
        return emit_processing_instruction(t)
    if c == CHAR_EOF:
        return processing_instruction_at_eof(t)
    t.state = PROCESSING_INSTRUCTION_DATA_STATE     # the '?' is data
    return GO_ON
