# DOCTYPE states. The name and the identifiers are ranges; the token's
# data_flags say what convert_text must do to them (NUL, CR), and the name
# is always converted with DATA_ASCII_LOWERCASE as well (the flag is not in
# data_flags: the identifiers keep their case).

cdef inline int doctype_at_eof(Tokenizer* t) noexcept nogil:
    report(t, "eof-in-doctype", t.pos)
    t.token.type |= TOKEN_FORCE_QUIRKS
    if emit_doctype(t) == STOP:
        return STOP
    return emit_eof(t)


cdef inline int doctype_missing(Tokenizer* t, const char* code) noexcept nogil:
    """'>' where a name or identifier should be: emit with force-quirks."""
    report(t, code, t.pos)
    t.token.type |= TOKEN_FORCE_QUIRKS
    t.pos += 1
    return emit_doctype(t)


cdef inline void doctype_to_bogus(Tokenizer* t, const char* code,
                                  bint force_quirks) noexcept nogil:
    report(t, code, t.pos)
    if force_quirks:
        t.token.type |= TOKEN_FORCE_QUIRKS
    t.state = BOGUS_DOCTYPE_STATE


# DOCTYPE state: https://html.spec.whatwg.org/multipage/parsing.html#doctype-state
cdef int state_doctype(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    t.token.type = 0
    t.token.data_flags = 0
    t.token.doctype_name_begin = t.token.doctype_name_end = t.pos
    t.token.public_id_begin = t.token.public_id_end = t.pos
    t.token.system_id_begin = t.token.system_id_end = t.pos
    if is_whitespace(c):
        t.pos += 1
    elif c == CHAR_EOF:
        return doctype_at_eof(t)
    elif c != 0x3E:
        report(t, "missing-whitespace-before-doctype-name", t.pos)
    t.state = BEFORE_DOCTYPE_NAME_STATE
    return GO_ON


# Before DOCTYPE name state: https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-name-state
cdef int state_before_doctype_name(Tokenizer* t) noexcept nogil:
    cdef size_t base = t.buf_abs
    cdef int c
    t.pos = base + skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x3E:                                   # '>'
        return doctype_missing(t, "missing-doctype-name")
    if c == CHAR_EOF:
        return doctype_at_eof(t)
    t.token.type |= TOKEN_DOCTYPE_HAS_NAME
    t.token.doctype_name_begin = t.pos
    t.state = DOCTYPE_NAME_STATE
    return GO_ON


# DOCTYPE name state: https://html.spec.whatwg.org/multipage/parsing.html#doctype-name-state
cdef int state_doctype_name(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t flags = t.token.data_flags
    cdef uint8_t c
    while True:
        while i < n and not byte_stops[s[i]] & STOP_DOCTYPE_NAME:
            i += 1
        t.token.data_flags = flags
        t.pos = base + i
        t.token.doctype_name_end = t.pos
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            return doctype_at_eof(t)
        c = s[i]
        if c == 0:
            report(t, "unexpected-null-character", t.pos)
            flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
            i += 1
            continue
        t.pos += 1
        if c == 0x3E:                               # '>'
            return emit_doctype(t)
        t.state = AFTER_DOCTYPE_NAME_STATE          # whitespace
        return GO_ON


# After DOCTYPE name state: https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-name-state
cdef int state_after_doctype_name(Tokenizer* t) noexcept nogil:
    cdef size_t base = t.buf_abs
    cdef int c, public, system
    cdef const uint8_t* s
    cdef size_t available
    t.pos = base + skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x3E:                                   # '>'
        t.pos += 1
        return emit_doctype(t)
    if c == CHAR_EOF:
        return doctype_at_eof(t)
    s = t.buf + (t.pos - base)
    available = t.buf_end - t.pos
    public = prefix_match(s, available, b"public", 6, True)
    system = prefix_match(s, available, b"system", 6, True)
    if public == 2:
        t.pos += 6
        t.state = AFTER_DOCTYPE_PUBLIC_KEYWORD_STATE
    elif system == 2:
        t.pos += 6
        t.state = AFTER_DOCTYPE_SYSTEM_KEYWORD_STATE
    elif (public == 1 or system == 1) and not t.at_eof:
        return NEED_MORE
    else:
        doctype_to_bogus(t, "invalid-character-sequence-after-doctype-name", True)
    return GO_ON


cdef inline int after_doctype_keyword(Tokenizer* t, bint public) noexcept nogil:
    """The after DOCTYPE public/system keyword states."""
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if is_whitespace(c):
        t.pos += 1
        t.state = (BEFORE_DOCTYPE_PUBLIC_IDENTIFIER_STATE if public
                   else BEFORE_DOCTYPE_SYSTEM_IDENTIFIER_STATE)
    elif c == 0x22 or c == 0x27:                    # '"' "'"
        report(t, "missing-whitespace-after-doctype-public-keyword" if public
               else "missing-whitespace-after-doctype-system-keyword", t.pos)
        begin_doctype_identifier(t, public, c)
    elif c == 0x3E:                                 # '>'
        return doctype_missing(t, "missing-doctype-public-identifier" if public
                               else "missing-doctype-system-identifier")
    elif c == CHAR_EOF:
        return doctype_at_eof(t)
    else:
        doctype_to_bogus(t, "missing-quote-before-doctype-public-identifier"
                         if public else
                         "missing-quote-before-doctype-system-identifier", True)
    return GO_ON


cdef inline int before_doctype_identifier(Tokenizer* t, bint public) noexcept nogil:
    """The before DOCTYPE public/system identifier states."""
    cdef size_t base = t.buf_abs
    cdef int c
    t.pos = base + skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x22 or c == 0x27:                      # '"' "'"
        begin_doctype_identifier(t, public, c)
    elif c == 0x3E:                                 # '>'
        return doctype_missing(t, "missing-doctype-public-identifier" if public
                               else "missing-doctype-system-identifier")
    elif c == CHAR_EOF:
        return doctype_at_eof(t)
    else:
        doctype_to_bogus(t, "missing-quote-before-doctype-public-identifier"
                         if public else
                         "missing-quote-before-doctype-system-identifier", True)
    return GO_ON


cdef inline void begin_doctype_identifier(Tokenizer* t, bint public,
                                          int quote) noexcept nogil:
    """The quote at t.pos opens the (empty so far) identifier."""
    t.pos += 1
    if public:
        t.token.type |= TOKEN_DOCTYPE_HAS_PUBLIC_ID
        t.token.public_id_begin = t.token.public_id_end = t.pos
        t.state = (DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED_STATE if quote == 0x22
                   else DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED_STATE)
    else:
        t.token.type |= TOKEN_DOCTYPE_HAS_SYSTEM_ID
        t.token.system_id_begin = t.token.system_id_end = t.pos
        t.state = (DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED_STATE if quote == 0x22
                   else DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED_STATE)


cdef inline int doctype_identifier(Tokenizer* t, bint public,
                                   uint8_t quote) noexcept nogil:
    """The DOCTYPE public/system identifier (double/single-quoted) states."""
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t flags = t.token.data_flags
    cdef uint8_t c
    while True:
        i = scan_for(s, i, n, quote, 0x3E, 0, 0x0D)
        t.token.data_flags = flags
        t.pos = base + i
        if public:
            t.token.public_id_end = t.pos
        else:
            t.token.system_id_end = t.pos
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            return doctype_at_eof(t)
        c = s[i]
        if c == quote:
            t.pos += 1
            t.state = (AFTER_DOCTYPE_PUBLIC_IDENTIFIER_STATE if public
                       else AFTER_DOCTYPE_SYSTEM_IDENTIFIER_STATE)
            return GO_ON
        if c == 0x3E:                               # '>'
            return doctype_missing(t, "abrupt-doctype-public-identifier" if public
                                   else "abrupt-doctype-system-identifier")
        if c == 0:
            report(t, "unexpected-null-character", t.pos)
            flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
        else:                                       # CR
            flags |= DATA_HAS_CR
        i += 1


# After DOCTYPE public keyword state: https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-public-keyword-state
cdef int state_after_doctype_public_keyword(Tokenizer* t) noexcept nogil:
    return after_doctype_keyword(t, True)


# Before DOCTYPE public identifier state: https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-public-identifier-state
cdef int state_before_doctype_public_identifier(Tokenizer* t) noexcept nogil:
    return before_doctype_identifier(t, True)


# DOCTYPE public identifier (double-quoted) state: https://html.spec.whatwg.org/multipage/parsing.html#doctype-public-identifier-(double-quoted)-state
cdef int state_doctype_public_identifier_double_quoted(Tokenizer* t) noexcept nogil:
    return doctype_identifier(t, True, 0x22)


# DOCTYPE public identifier (single-quoted) state: https://html.spec.whatwg.org/multipage/parsing.html#doctype-public-identifier-(single-quoted)-state
cdef int state_doctype_public_identifier_single_quoted(Tokenizer* t) noexcept nogil:
    return doctype_identifier(t, True, 0x27)


# After DOCTYPE public identifier state: https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-public-identifier-state
cdef int state_after_doctype_public_identifier(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if is_whitespace(c):
        t.pos += 1
        t.state = BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS_STATE
    elif c == 0x3E:                                 # '>'
        t.pos += 1
        return emit_doctype(t)
    elif c == 0x22 or c == 0x27:                    # '"' "'"
        report(t, "missing-whitespace-between-doctype-public-and-system-identifiers",
               t.pos)
        begin_doctype_identifier(t, False, c)
    elif c == CHAR_EOF:
        return doctype_at_eof(t)
    else:
        doctype_to_bogus(t, "missing-quote-before-doctype-system-identifier", True)
    return GO_ON


# Between DOCTYPE public and system identifiers state: https://html.spec.whatwg.org/multipage/parsing.html#between-doctype-public-and-system-identifiers-state
cdef int state_between_doctype_public_and_system_identifiers(Tokenizer* t) noexcept nogil:
    cdef size_t base = t.buf_abs
    cdef int c
    t.pos = base + skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x3E:                                   # '>'
        t.pos += 1
        return emit_doctype(t)
    if c == 0x22 or c == 0x27:                      # '"' "'"
        begin_doctype_identifier(t, False, c)
    elif c == CHAR_EOF:
        return doctype_at_eof(t)
    else:
        doctype_to_bogus(t, "missing-quote-before-doctype-system-identifier", True)
    return GO_ON


# After DOCTYPE system keyword state: https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-system-keyword-state
cdef int state_after_doctype_system_keyword(Tokenizer* t) noexcept nogil:
    return after_doctype_keyword(t, False)


# Before DOCTYPE system identifier state: https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-system-identifier-state
cdef int state_before_doctype_system_identifier(Tokenizer* t) noexcept nogil:
    return before_doctype_identifier(t, False)


# DOCTYPE system identifier (double-quoted) state: https://html.spec.whatwg.org/multipage/parsing.html#doctype-system-identifier-(double-quoted)-state
cdef int state_doctype_system_identifier_double_quoted(Tokenizer* t) noexcept nogil:
    return doctype_identifier(t, False, 0x22)


# DOCTYPE system identifier (single-quoted) state: https://html.spec.whatwg.org/multipage/parsing.html#doctype-system-identifier-(single-quoted)-state
cdef int state_doctype_system_identifier_single_quoted(Tokenizer* t) noexcept nogil:
    return doctype_identifier(t, False, 0x27)


# After DOCTYPE system identifier state: https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-system-identifier-state
cdef int state_after_doctype_system_identifier(Tokenizer* t) noexcept nogil:
    cdef size_t base = t.buf_abs
    cdef int c
    t.pos = base + skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x3E:                                   # '>'
        t.pos += 1
        return emit_doctype(t)
    if c == CHAR_EOF:
        return doctype_at_eof(t)
    doctype_to_bogus(t, "unexpected-character-after-doctype-system-identifier", False)
    return GO_ON


# Bogus DOCTYPE state: https://html.spec.whatwg.org/multipage/parsing.html#bogus-doctype-state
cdef int state_bogus_doctype(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    while True:
        i = scan_for(s, i, n, 0x3E, 0, 0x3E, 0)
        t.pos = base + i
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            if emit_doctype(t) == STOP:
                return STOP
            return emit_eof(t)
        if s[i] == 0x3E:                            # '>'
            t.pos += 1
            return emit_doctype(t)
        report(t, "unexpected-null-character", t.pos)
        i += 1
