# Positions (1-based line; column in UTF-16 code units, as the standard's
# tests count: a character beyond U+FFFF takes two) and the errors of the
# input stream's preprocessing, both only when errors are collected.
#
# One cursor walks the input once, behind the tokenizer: report() moves it to
# the position of a parse error, reporting on the way every control
# character, noncharacter and surrogate it passes (and the one at the error's
# own position first, as the standard's tests order them). The states never
# look at those characters themselves, so collecting no errors costs nothing.
# https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream

# (The Cursor struct is declared in tokenizer.pyx, before the Tokenizer.)


cdef void add_error(Tokenizer* t, const char* code, uint32_t line,
                    uint32_t column) noexcept nogil:
    """Append to the caller's ErrorList, counting the record in errors_lost
    (tokenizer_errors_lost) when memory runs out rather than raising in a
    state loop."""
    if t.errors.count >= t.error_limit \
            or error_list_append(t.errors, code, line, column) != 0:
        t.errors_lost += 1


cdef inline void step_position(uint8_t c, uint32_t* line, uint32_t* column,
                               bint* after_cr) noexcept nogil:
    """The position after the byte c: CR, LF and CRLF each end a line;
    columns count UTF-16 code units, as the standard's tests do (a
    character beyond U+FFFF, 4 UTF-8 bytes, takes two)."""
    if c == 0x0A:
        if after_cr[0]:
            after_cr[0] = False
        else:
            line[0] += 1
            column[0] = 1
    elif c == 0x0D:
        line[0] += 1
        column[0] = 1
        after_cr[0] = True
    elif (c & 0xC0) != 0x80:
        column[0] += 2 if c >= 0xF0 else 1
        after_cr[0] = False


cdef bint check_input_character(Tokenizer* t, size_t i) noexcept nogil:
    """Report the input-stream error of the character at buffer index i
    (whose first byte has CLASS_INPUT_CHECK), if it has one. False when the
    buffer ends inside the character (it is checked again later)."""
    cdef const uint8_t* s = t.buf
    cdef size_t n = t.buf_end - t.buf_abs
    cdef uint8_t c = s[i]
    cdef uint32_t cp
    cdef size_t length = 1 if c < 0x80 else 2 if c < 0xE0 else 3 if c < 0xF0 else 4
    cdef const char* code = NULL
    if i + length > n:
        return t.at_eof             # a split sequence: wait for the rest
    if c < 0x80:
        code = "control-character-in-input-stream"
    elif c == 0xC2:
        if 0x80 <= s[i + 1] <= 0x9F:
            code = "control-character-in-input-stream"
    elif c == 0xED:
        if s[i + 1] >= 0xA0:
            code = "surrogate-in-input-stream"
    elif c == 0xEF:
        if ((s[i + 1] == 0xB7 and 0x90 <= s[i + 2] <= 0xAF)
                or (s[i + 1] == 0xBF and s[i + 2] >= 0xBE)):
            code = "noncharacter-in-input-stream"
    else:
        cp = (((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12)
              | ((s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F))
        if (cp & 0xFFFE) == 0xFFFE:
            code = "noncharacter-in-input-stream"
    if code != NULL:
        add_error(t, code, t.cursor.line, t.cursor.column)
    return True


cdef void advance_to(Tokenizer* t, size_t target) noexcept nogil:
    """Move the cursor to the stream offset `target` (a character start in
    the current buffer, or its end), reporting the input-stream errors of
    the characters passed and of the one at `target`."""
    cdef Cursor* cur = &t.cursor
    cdef const uint8_t* s = t.buf
    cdef size_t i, j, stop, n
    cdef uint8_t c
    cdef uint32_t line = cur.line
    cdef uint32_t column = cur.column
    cdef bint after_cr = cur.after_cr
    if target <= cur.offset:
        if target == cur.offset:
            i = target - t.buf_abs
            if (not cur.checked and target < t.buf_end
                    and byte_class[s[i]] & CLASS_INPUT_CHECK):
                cur.checked = check_input_character(t, i)
        return
    i = cur.offset - t.buf_abs
    stop = target - t.buf_abs
    n = t.buf_end - t.buf_abs
    if not cur.checked and byte_class[s[i]] & CLASS_INPUT_CHECK:
        check_input_character(t, i)
    while True:
        c = s[i]
        if 0x20 <= c < 0x7F:
            # A run of printable ASCII: one column each, nothing to check.
            j = lxp_scan_printable(s, i, stop)
            column += <uint32_t> (j - i)
            after_cr = False
            i = j
            if i >= stop:
                break
            if byte_class[s[i]] & CLASS_INPUT_CHECK:
                cur.line = line
                cur.column = column
                check_input_character(t, i)
            continue
        step_position(c, &line, &column, &after_cr)
        i += 1
        if i >= stop:
            break
        if byte_class[s[i]] & CLASS_INPUT_CHECK:
            cur.line = line
            cur.column = column
            check_input_character(t, i)
    cur.offset = target
    cur.line = line
    cur.column = column
    cur.after_cr = after_cr
    cur.checked = False
    if i < n and byte_class[s[i]] & CLASS_INPUT_CHECK:
        cur.checked = check_input_character(t, i)


cdef inline void report(Tokenizer* t, const char* code,
                        size_t position) noexcept nogil:
    """A parse error of the tokenizer at a stream offset."""
    if t.errors == NULL:
        return
    advance_to(t, position)
    add_error(t, code, t.cursor.line, t.cursor.column)


cdef void position_of(Tokenizer* t, size_t position, uint32_t* line,
                      uint32_t* column) noexcept nogil:
    """The line and column of a stream offset at or after the cursor."""
    advance_to(t, position)
    line[0] = t.cursor.line
    column[0] = t.cursor.column
