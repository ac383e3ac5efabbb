# Attribute states. Each attribute is a name range (interned to an id when
# the name ends, duplicates dropped there) and a value range with the flags
# convert_text needs (DATA_IN_ATTRIBUTE for the legacy named-reference
# rule).

cdef inline size_t skip_whitespace(const uint8_t* s, size_t i, size_t n) noexcept nogil:
    while i < n and byte_class[s[i]] & CLASS_WHITESPACE:
        i += 1
    return i


# Before attribute name state: https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-name-state
cdef int state_before_attribute_name(Tokenizer* t) noexcept nogil:
    cdef size_t base = t.buf_abs
    cdef size_t i = skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    cdef uint8_t c
    t.pos = base + i
    if t.pos == t.buf_end:
        if not t.at_eof:
            return NEED_MORE
        t.state = AFTER_ATTRIBUTE_NAME_STATE
        return GO_ON
    c = t.buf[i]
    if c == 0x2F or c == 0x3E:                      # '/' '>'
        t.state = AFTER_ATTRIBUTE_NAME_STATE
        return GO_ON
    if c == 0x3D:                                   # '='
        report(t, "unexpected-equals-sign-before-attribute-name", t.pos)
        if begin_attribute(t) == STOP:
            return STOP
        t.name_hash = lxp_name_hash_step(t.name_hash, c)
        t.pos += 1
    elif begin_attribute(t) == STOP:
        return STOP
    t.state = ATTRIBUTE_NAME_STATE
    return state_attribute_name(t)                  # (without the dispatcher)


cdef enum:
    NEXT_ATTRIBUTE = -1     # quoted_value_in_a_row: an attribute name began


cdef inline int quoted_value_in_a_row(Tokenizer* t) noexcept nogil:
    """After an attribute name's '=' (t.pos after it): the before attribute
    value, attribute value (quoted) and after attribute value (quoted)
    states in a row while the input has the usual shape name="value"
    followed by '>' or by whitespace and the next name, which is begun
    (NEXT_ATTRIBUTE). Anything else is left to the state the input reached
    (t.state set), through the dispatcher. Not in the standard: the same
    states, without a return to the dispatcher between them."""
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t n = t.buf_end - base
    cdef size_t i = t.pos - base
    cdef uint8_t c
    cdef int result
    t.state = BEFORE_ATTRIBUTE_VALUE_STATE
    if i >= n:
        return GO_ON
    c = s[i]
    if c != 0x22 and c != 0x27:                     # '"' "'"
        return GO_ON
    t.pos += 1
    t.attr.value_begin = t.pos
    t.attr.value_end = t.pos
    if c == 0x22:
        t.state = ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE
        result = attribute_value_quoted(t, 0x22, ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE)
    else:
        t.state = ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE
        result = attribute_value_quoted(t, 0x27, ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE)
    if result != GO_ON or t.state != AFTER_ATTRIBUTE_VALUE_QUOTED_STATE:
        return result
    i = t.pos - base
    if i >= n:
        return GO_ON
    c = s[i]
    if c == 0x3E:                                   # '>'
        t.pos += 1
        return emit_tag(t)
    if not byte_class[c] & CLASS_WHITESPACE:
        return GO_ON
    i = skip_whitespace(s, i + 1, n)
    t.pos = base + i
    t.state = BEFORE_ATTRIBUTE_NAME_STATE
    if i >= n or attribute_name_byte[s[i]] == 0:
        return GO_ON
    if begin_attribute(t) == STOP:
        return STOP
    t.state = ATTRIBUTE_NAME_STATE
    return NEXT_ATTRIBUTE


cdef inline const uint8_t* scan_attribute_name(const uint8_t* p, const uint8_t* end,
                                               bint stop_ahead, uint32_t* hash,
                                               uint8_t* changed) noexcept nogil:
    """The attribute name state's run of name bytes from p: each lower-cased
    byte hashed into *hash, the bytes lower-casing changed or-ed into
    *changed; returns where the run stopped (a byte that ends or is not
    plain in a name, or end). `stop_ahead`: a byte that ends every name
    lies between p and end (t.name_stop), so end is not checked."""
    cdef uint8_t c, lower
    cdef uint32_t h = hash[0]
    cdef uint8_t common = 0xFF
    cdef const uint8_t* begin = p
    if stop_ahead:
        while True:
            c = p[0]
            lower = attribute_name_byte[c]
            if lower == 0:
                break
            common &= c
            h = lxp_name_hash_step(h, lower)
            p += 1
    else:
        while p < end:
            c = p[0]
            lower = attribute_name_byte[c]
            if lower == 0:
                break
            common &= c
            h = lxp_name_hash_step(h, lower)
            p += 1
    hash[0] = h
    # Lower-casing changes only bytes without 0x20 (A-Z): one AND a byte
    # in the loop, the bytes looked at again only when a byte lacks it.
    if not common & 0x20:
        changed[0] |= lowercasing_changes(begin, p)
    return p


cdef uint8_t lowercasing_changes(const uint8_t* p, const uint8_t* end) noexcept nogil:
    """The bytes lower-casing p[0:end - p] changes, or-ed (0: none)."""
    cdef uint8_t diff = 0
    while p < end:
        diff |= ascii_lower[p[0]] ^ p[0]
        p += 1
    return diff


cdef int attributes_in_a_row(Tokenizer* t) noexcept nogil:
    """After a tag name and the whitespace that ends it (t.pos after it, the
    before attribute name state): the attributes of the usual shape, name,
    name="value", name='value' or name=value, each followed by whitespace,
    '>' or '/>', in one loop, the position kept in a register between them.
    Anything else (the end of the buffer, '=' or a quote where a name
    begins, a NUL, whitespace around '=', a missing value...) is left to the
    state the input reached (t.state and t.pos set), through the dispatcher;
    names are begun and finished, and values scanned, by the same helpers as
    in those states, so the token and the parse errors are the same. Not in
    the standard: the before attribute name, attribute name, before
    attribute value, attribute value and after attribute value states in a
    row."""
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t n = t.buf_end - base
    cdef size_t i = t.pos - base
    cdef const uint8_t* p
    cdef const uint8_t* end = s + n
    cdef uint32_t hash
    cdef uint8_t c, changed
    cdef int result
    while True:
        # Before attribute name state
        i = skip_whitespace(s, i, n)
        t.pos = base + i
        t.state = BEFORE_ATTRIBUTE_NAME_STATE
        if i >= n:
            return GO_ON
        c = s[i]
        if c == 0x3E:                               # '>'
            t.pos += 1
            return emit_tag(t)
        if c == 0x2F:                               # '/'
            if i + 1 < n and s[i + 1] == 0x3E:      # '/>'
                t.token.type |= TOKEN_SELF_CLOSING
                t.pos += 2
                return emit_tag(t)
            return GO_ON
        if attribute_name_byte[c] == 0:             # '=' NUL quotes '<'
            return GO_ON
        if begin_attribute(t) == STOP:
            return STOP
        # Attribute name state
        hash = LXP_NAME_HASH_INIT
        changed = 0
        p = scan_attribute_name(s + i, end, base + i < t.name_stop, &hash, &changed)
        i = <size_t> (p - s)
        t.name_hash = hash
        t.name_flags = DATA_ASCII_LOWERCASE if changed else 0
        t.pos = base + i
        t.state = ATTRIBUTE_NAME_STATE
        if i >= n:
            return GO_ON
        c = s[i]
        if c == 0 or c == 0x22 or c == 0x27 or c == 0x3C:   # NUL '"' "'" '<'
            return GO_ON
        finish_static_attribute_name(t)
        if c != 0x3D:                               # whitespace '/' '>'
            t.state = AFTER_ATTRIBUTE_NAME_STATE
            if c == 0x3E:
                t.pos += 1
                return emit_tag(t)
            return GO_ON
        # Before attribute value state
        i += 1
        t.pos = base + i
        t.state = BEFORE_ATTRIBUTE_VALUE_STATE
        if i >= n:
            return GO_ON
        c = s[i]
        if c == 0x22 or c == 0x27:                  # '"' "'"
            i += 1
            t.attr.value_begin = base + i
            t.attr.value_end = base + i
            t.state = (ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE if c == 0x22
                       else ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE)
            # A value without NUL or CR (nor '&' when errors are collected:
            # the character reference state reports them) ends at the
            # quote; at any of them (or the end of the buffer) its state
            # goes on from there.
            while True:
                i = scan_for(s, i, n, c, 0x26, 0, 0x0D)
                if i >= n or s[i] != 0x26 or t.errors != NULL:
                    break
                t.attr.flags |= DATA_HAS_CHARREF
                i += 1
            t.pos = base + i
            if i >= n or s[i] != c:
                return GO_ON
            t.attr.value_end = base + i
            # After attribute value (quoted) state
            i += 1
            t.pos = base + i
            t.state = AFTER_ATTRIBUTE_VALUE_QUOTED_STATE
            if i >= n:
                return GO_ON
            c = s[i]
            if c == 0x3E:                           # '>'
                t.pos += 1
                return emit_tag(t)
            if c == 0x2F and i + 1 < n and s[i + 1] == 0x3E:   # '/>'
                t.token.type |= TOKEN_SELF_CLOSING
                t.pos += 2
                return emit_tag(t)
            if not byte_class[c] & CLASS_WHITESPACE:
                return GO_ON                        # '/' and the errors
            i += 1
        elif c == 0x3E or byte_class[c] & CLASS_WHITESPACE:
            return GO_ON
        else:
            t.attr.value_begin = t.pos
            t.attr.value_end = t.pos
            t.state = ATTRIBUTE_VALUE_UNQUOTED_STATE
            result = state_attribute_value_unquoted(t)
            if result != GO_ON or t.state != BEFORE_ATTRIBUTE_NAME_STATE:
                return result
            i = t.pos - base


# Attribute name state: https://html.spec.whatwg.org/multipage/parsing.html#attribute-name-state
cdef int state_attribute_name(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef uint32_t hash = t.name_hash
    cdef uint32_t flags = t.name_flags
    cdef uint8_t c
    cdef uint8_t changed = 0
    cdef const uint8_t* p
    cdef const uint8_t* end = s + n
    cdef int result
    while True:
        # One pointer, no index: the loop's only induction variable.
        p = scan_attribute_name(s + i, end, base + i < t.name_stop, &hash, &changed)
        i = <size_t> (p - s)
        if changed:
            flags |= DATA_ASCII_LOWERCASE
        t.name_hash = hash
        t.name_flags = flags
        t.pos = base + i
        if i == n:
            if not t.at_eof:
                return NEED_MORE
            finish_attribute_name(t)
            t.state = AFTER_ATTRIBUTE_NAME_STATE
            return GO_ON
        c = s[i]
        if c == 0:
            report(t, "unexpected-null-character", t.pos)
            flags |= DATA_HAS_NUL
        elif c == 0x22 or c == 0x27 or c == 0x3C:   # '"' "'" '<'
            report(t, "unexpected-character-in-attribute-name", t.pos)
        else:
            finish_attribute_name(t)
            if c == 0x3D:                           # '='
                t.pos += 1
                result = quoted_value_in_a_row(t)
                if result != NEXT_ATTRIBUTE:
                    return result
                # The next attribute's name starts at t.pos.
                i = t.pos - base
                hash = t.name_hash
                flags = t.name_flags
                changed = 0
                continue
            else:                                   # whitespace '/' '>'
                t.state = AFTER_ATTRIBUTE_NAME_STATE
            return GO_ON
        hash = lxp_name_hash_step(hash, c)
        i += 1


# After attribute name state: https://html.spec.whatwg.org/multipage/parsing.html#after-attribute-name-state
cdef int state_after_attribute_name(Tokenizer* t) noexcept nogil:
    cdef size_t base = t.buf_abs
    cdef size_t i = skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    cdef uint8_t c
    t.pos = base + i
    if t.pos == t.buf_end:
        if not t.at_eof:
            return NEED_MORE
        report(t, "eof-in-tag", t.pos)
        return emit_eof(t)
    c = t.buf[i]
    if c == 0x2F:                                   # '/'
        t.pos += 1
        t.state = SELF_CLOSING_START_TAG_STATE
    elif c == 0x3D:                                 # '='
        t.pos += 1
        t.state = BEFORE_ATTRIBUTE_VALUE_STATE
    elif c == 0x3E:                                 # '>'
        t.pos += 1
        return emit_tag(t)
    else:
        if begin_attribute(t) == STOP:
            return STOP
        t.state = ATTRIBUTE_NAME_STATE
    return GO_ON


# Before attribute value state: https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-value-state
cdef int state_before_attribute_value(Tokenizer* t) noexcept nogil:
    cdef size_t base = t.buf_abs
    cdef size_t i = skip_whitespace(t.buf, t.pos - base, t.buf_end - base)
    cdef int c
    t.pos = base + i
    c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if c == 0x22 or c == 0x27:                      # '"' "'"
        t.pos += 1
        t.attr.value_begin = t.pos
        t.attr.value_end = t.pos
        t.state = (ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE if c == 0x22
                   else ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE)
    elif c == 0x3E:                                 # '>'
        report(t, "missing-attribute-value", t.pos)
        t.pos += 1
        return emit_tag(t)
    else:
        t.attr.value_begin = t.pos
        t.attr.value_end = t.pos
        t.state = ATTRIBUTE_VALUE_UNQUOTED_STATE
    return GO_ON


cdef inline int attribute_value_quoted(Tokenizer* t, uint8_t quote,
                                       TokenizerState self_state) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef TokenAttr* attr = t.attr
    cdef uint32_t flags = attr.flags
    cdef uint8_t c
    while True:
        i = scan_run_for(s, i, n, quote, 0x26, 0, 0x0D)
        if i == n:
            attr.flags = flags
            t.pos = base + i
            if not t.at_eof:
                return NEED_MORE
            report(t, "eof-in-tag", t.pos)
            return emit_eof(t)
        c = s[i]
        if c == quote:
            attr.flags = flags
            attr.value_end = base + i
            t.pos = base + i + 1
            t.state = AFTER_ATTRIBUTE_VALUE_QUOTED_STATE
            return GO_ON
        if c == 0x26:                               # '&'
            flags |= DATA_HAS_CHARREF
            if t.errors != NULL:
                attr.flags = flags
                t.charref_begin = base + i
                t.return_state = self_state
                t.pos = base + i + 1
                t.state = CHARACTER_REFERENCE_STATE
                return GO_ON
        elif c == 0:
            flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
            report(t, "unexpected-null-character", base + i)
        else:                                       # CR
            flags |= DATA_HAS_CR
        i += 1


# Attribute value (double-quoted) state: https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(double-quoted)-state
cdef int state_attribute_value_double_quoted(Tokenizer* t) noexcept nogil:
    return attribute_value_quoted(t, 0x22, ATTRIBUTE_VALUE_DOUBLE_QUOTED_STATE)


# Attribute value (single-quoted) state: https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(single-quoted)-state
cdef int state_attribute_value_single_quoted(Tokenizer* t) noexcept nogil:
    return attribute_value_quoted(t, 0x27, ATTRIBUTE_VALUE_SINGLE_QUOTED_STATE)


# Attribute value (unquoted) state: https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(unquoted)-state
cdef int state_attribute_value_unquoted(Tokenizer* t) noexcept nogil:
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t i = t.pos - base
    cdef size_t n = t.buf_end - base
    cdef TokenAttr* attr = t.attr
    cdef uint32_t flags = attr.flags
    cdef uint8_t c
    while True:
        i = scan_until(s, i, n, STOP_VALUE_UNQUOTED)
        if i == n:
            attr.flags = flags
            t.pos = base + i
            if not t.at_eof:
                return NEED_MORE
            report(t, "eof-in-tag", t.pos)
            return emit_eof(t)
        c = s[i]
        if c == 0x3E or byte_class[c] & CLASS_WHITESPACE:
            attr.flags = flags
            attr.value_end = base + i
            t.pos = base + i + 1
            if c == 0x3E:
                return emit_tag(t)
            t.state = BEFORE_ATTRIBUTE_NAME_STATE
            return GO_ON
        if c == 0x26:                               # '&'
            flags |= DATA_HAS_CHARREF
            if t.errors != NULL:
                attr.flags = flags
                t.charref_begin = base + i
                t.return_state = ATTRIBUTE_VALUE_UNQUOTED_STATE
                t.pos = base + i + 1
                t.state = CHARACTER_REFERENCE_STATE
                return GO_ON
        elif c == 0:
            flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
            report(t, "unexpected-null-character", base + i)
        else:                                       # '"' "'" '<' '=' '`'
            report(t, "unexpected-character-in-unquoted-attribute-value", base + i)
        i += 1


# After attribute value (quoted) state: https://html.spec.whatwg.org/multipage/parsing.html#after-attribute-value-(quoted)-state
cdef int state_after_attribute_value_quoted(Tokenizer* t) noexcept nogil:
    cdef int c = next_input(t)
    if c == CHAR_NEED:
        return NEED_MORE
    if is_whitespace(c):
        t.pos += 1
        t.state = BEFORE_ATTRIBUTE_NAME_STATE
    elif c == 0x2F:                                 # '/'
        t.pos += 1
        t.state = SELF_CLOSING_START_TAG_STATE
    elif c == 0x3E:                                 # '>'
        t.pos += 1
        return emit_tag(t)
    elif c == CHAR_EOF:
        report(t, "eof-in-tag", t.pos)
        return emit_eof(t)
    else:
        report(t, "missing-whitespace-between-attributes", t.pos)
        t.state = BEFORE_ATTRIBUTE_NAME_STATE
    return GO_ON
