# The incoming buffer (DESIGN.md decision 5). The caller's chunk is scanned
# in place. When it runs out, the text scanned so far is emitted, except
# what could still change meaning with the next chunk (a trailing CR, an
# unfinished character reference, a '<' that may open an end tag, a split
# UTF-8 sequence); that part and an unfinished markup token are copied into
# the tokenizer's own buffer. The states resume exactly where they stopped:
# every state can stop at any byte, and lookahead states (markup
# declaration open, after DOCTYPE name, named character reference) stop
# before deciding. The next chunk is appended to the own buffer in growing
# pieces until nothing before the chunk is needed any more; then the chunk
# is scanned in place again.


cdef inline bint is_less_than_sign_pending(TokenizerState state) noexcept nogil:
    """States in which the text ends at t.lt_pos if a tag follows."""
    return (state == TAG_OPEN_STATE or state == END_TAG_OPEN_STATE
            or state == RCDATA_LESS_THAN_SIGN_STATE
            or state == RCDATA_END_TAG_OPEN_STATE
            or state == RCDATA_END_TAG_NAME_STATE
            or state == RAWTEXT_LESS_THAN_SIGN_STATE
            or state == RAWTEXT_END_TAG_OPEN_STATE
            or state == RAWTEXT_END_TAG_NAME_STATE
            or state == SCRIPT_DATA_LESS_THAN_SIGN_STATE
            or state == SCRIPT_DATA_END_TAG_OPEN_STATE
            or state == SCRIPT_DATA_END_TAG_NAME_STATE
            or state == SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN_STATE
            or state == SCRIPT_DATA_ESCAPED_END_TAG_OPEN_STATE
            or state == SCRIPT_DATA_ESCAPED_END_TAG_NAME_STATE)


cdef inline bint is_character_reference_state(TokenizerState state) noexcept nogil:
    """States of an undecided character reference (the ambiguous ampersand
    state has decided: its characters are plain text)."""
    return (CHARACTER_REFERENCE_STATE <= state <= NUMERIC_CHARACTER_REFERENCE_END_STATE
            and state != AMBIGUOUS_AMPERSAND_STATE)


cdef size_t text_tail_hold(Tokenizer* t) noexcept nogil:
    """Where the pending text must stop at the end of the available input:
    before a split UTF-8 sequence, a trailing CR (an LF may follow), or an
    '&' whose character reference may go on in the next chunk."""
    cdef const uint8_t* s = t.buf
    cdef size_t base = t.buf_abs
    cdef size_t low = t.text_begin - base
    cdef size_t i = complete_utf8_end(s, low, t.pos - base)
    cdef size_t j
    cdef TokenizerState state = t.state
    if i > low and s[i - 1] == 0x0D:
        return base + i - 1
    if state == DATA_STATE or state == RCDATA_STATE or (
            state == AMBIGUOUS_AMPERSAND_STATE
            and (t.return_state == DATA_STATE or t.return_state == RCDATA_STATE)):
        # '&' and up to 33 alphanumerics: a name of the table may go on.
        j = i
        while j > low and i - j <= 33 and byte_class[s[j - 1]] & CLASS_ALPHANUMERIC:
            j -= 1
        if j > low and s[j - 1] == 0x26:
            return base + j - 1
        # '&#', then 'x' or 'X', then any number of digits. A long run of
        # digits is held back from chunk to chunk: only the bytes that came
        # since the last time are looked at (linear time).
        if t.tail_begin == t.text_begin and t.tail_checked <= base + i:
            j = t.tail_checked - base
            while j < i and byte_class[s[j]] & (CLASS_DIGIT | CLASS_HEX_LETTER):
                j += 1
            if j == i:
                t.tail_checked = base + i
                return t.text_begin
        j = i
        while j > low and byte_class[s[j - 1]] & (CLASS_DIGIT | CLASS_HEX_LETTER):
            j -= 1
        if j > low and (s[j - 1] | 0x20) == 0x78 and j - 1 > low and s[j - 2] == 0x23:
            j -= 1
        if j - low >= 2 and s[j - 1] == 0x23 and s[j - 2] == 0x26:
            t.tail_begin = base + j - 2
            t.tail_checked = base + i
            return base + j - 2
    return base + i


cdef int end_of_available_data(Tokenizer* t) noexcept nogil:
    """A state ran out of input (more may come): emit the text that is
    settled and set t.keep, the first byte still needed."""
    cdef TokenizerState state = t.state
    cdef size_t hold = t.pos
    cdef uint32_t flags
    if t.in_token:
        if t.token.tag_id == TAG__COMMENT and is_comment_data_state(state):
            if emit_comment_piece(t) == STOP:
                return STOP
        hold = t.token.begin
    elif is_less_than_sign_pending(state):
        hold = t.lt_pos
    elif is_character_reference_state(state):
        hold = t.charref_begin
    elif state == CDATA_SECTION_BRACKET_STATE:
        hold = t.pos - 1
    elif state == CDATA_SECTION_END_STATE:
        hold = t.pos - 2
    elif t.text_begin != NO_POSITION:
        hold = text_tail_hold(t)
    if t.text_begin != NO_POSITION and t.text_begin < hold:
        flags = t.text_flags
        if emit_text(t, hold) == STOP:
            return STOP
        if hold < t.pos:
            text_start(t, hold, flags)
    t.keep = hold
    if t.text_begin != NO_POSITION and t.text_begin < hold:
        t.keep = t.text_begin
    if t.errors != NULL:
        advance_to(t, t.keep)
    return NEED_MORE


cdef enum:
    NAME_STOP_LOOKBACK = 64     # bytes set_buffer looks at for t.name_stop


cdef inline void set_buffer(Tokenizer* t, const uint8_t* buf, size_t buf_abs,
                            size_t buf_end, bint at_eof) noexcept nogil:
    cdef size_t i = buf_end - buf_abs
    cdef size_t low = i - NAME_STOP_LOOKBACK if i > NAME_STOP_LOOKBACK else 0
    t.buf = buf
    t.buf_abs = buf_abs
    t.buf_end = buf_end
    t.at_eof = at_eof
    # The last byte of the buffer's tail that ends every name: a name that
    # starts before it ends by it, so its scan needs no check of the end.
    t.name_stop = 0
    while i > low:
        i -= 1
        if byte_stops[buf[i]] & STOP_TAG_NAME:
            t.name_stop = buf_abs + i
            break


cdef int own_append(Tokenizer* t, const uint8_t* data, size_t length) noexcept nogil:
    cdef size_t capacity
    cdef uint8_t* own
    if t.own_len + length > t.own_capacity:
        capacity = t.own_capacity * 2 if t.own_capacity else 4096
        while capacity < t.own_len + length:
            capacity *= 2
        own = <uint8_t*> realloc(t.own, capacity)
        if own == NULL:
            return -1
        t.own = own
        t.own_capacity = capacity
    memcpy(t.own + t.own_len, data, length)
    t.own_len += length
    return 0


cdef void own_drop_before(Tokenizer* t, size_t offset) noexcept nogil:
    """Forget the own buffer's bytes before the stream offset `offset`."""
    cdef size_t drop = offset - t.own_abs
    if drop == 0:
        return
    memmove(t.own, t.own + drop, t.own_len - drop)
    t.own_len -= drop
    t.own_abs = offset


cdef void own_shrink(Tokenizer* t) noexcept nogil:
    """Give back the memory of a long token that is done: the own buffer
    keeps at most twice what it holds (and 64 KiB at least)."""
    cdef size_t capacity = 65536
    cdef uint8_t* own
    if t.own_capacity <= capacity:
        return
    while capacity < 2 * t.own_len:
        capacity *= 2
    if capacity >= t.own_capacity:
        return
    own = <uint8_t*> realloc(t.own, capacity)
    if own != NULL:
        t.own = own
        t.own_capacity = capacity


cdef size_t tokenizer_buffered(Tokenizer* t, size_t* capacity) noexcept nogil:
    capacity[0] = t.own_capacity
    return t.own_len


cdef size_t tokenizer_input_length(Tokenizer* t) noexcept nogil:
    return t.stream_end


cdef bint tokenizer_in_cdata_section(Tokenizer* t) noexcept nogil:
    return t.state == CDATA_SECTION_STATE or t.state == CDATA_SECTION_BRACKET_STATE or \
        t.state == CDATA_SECTION_END_STATE


cdef size_t tokenizer_errors_lost(Tokenizer* t) noexcept nogil:
    return t.errors_lost


cdef void tokenizer_set_error_limit(Tokenizer* t, size_t limit) noexcept nogil:
    t.error_limit = limit


cdef size_t tokenizer_token_offset(Tokenizer* t) noexcept nogil:
    if t.current_token == NULL:
        return t.pos
    return t.buf_abs + t.current_token.begin


cdef size_t tokenizer_data_offset(Tokenizer* t) noexcept nogil:
    return t.buf_abs


cdef void tokenizer_token_span(Tokenizer* t, size_t* start,
                               size_t* end) noexcept nogil:
    if t.current_token == NULL:
        start[0] = end[0] = t.pos
        return
    start[0] = t.buf_abs + t.current_token.begin
    end[0] = t.buf_abs + t.current_token.end


cdef size_t tokenizer_settled_offset(Tokenizer* t) noexcept nogil:
    return t.own_abs if t.own_len > 0 else t.stream_end


cdef int tokenizer_feed(Tokenizer* t, const uint8_t* chunk,
                        size_t length) noexcept nogil:
    cdef size_t chunk_abs, appended, take, piece
    cdef int result
    if t.stop_code != 0:
        return t.stop_code
    if t.finished or length == 0:
        return 0
    chunk_abs = t.stream_end
    t.stream_end += length
    if t.own_len > 0:
        # The unfinished part first, followed by as much of the chunk as it
        # needs (in growing pieces, so a long token costs linear time).
        appended = 0
        piece = 256
        while True:
            take = length - appended
            if take > piece:
                take = piece
            piece *= 2
            if own_append(t, chunk + appended, take) != 0:
                out_of_memory(t)
                return t.stop_code
            appended += take
            set_buffer(t, t.own, t.own_abs, t.own_abs + t.own_len, False)
            result = run(t)
            if result != NEED_MORE:
                if t.paused:
                    return pause_keeping(t, chunk + appended, length - appended)
                return t.stop_code
            if t.keep >= chunk_abs:
                break
            own_drop_before(t, t.keep)
            if appended == length:
                return t.stop_code
        t.own_len = 0
    set_buffer(t, chunk, chunk_abs, chunk_abs + length, False)
    result = run(t)
    if result != NEED_MORE:
        if t.paused:
            return pause_keeping(t, NULL, 0)
        return t.stop_code
    t.own_len = 0
    t.own_abs = t.keep
    if t.keep < t.buf_end:
        if own_append(t, chunk + (t.keep - chunk_abs), t.buf_end - t.keep) != 0:
            out_of_memory(t)
            return t.stop_code
    own_shrink(t)
    # The state machine goes on from the copy (after own_shrink moved it).
    if t.own_len > 0:
        set_buffer(t, t.own, t.own_abs, t.own_abs + t.own_len, False)
    else:
        set_buffer(t, empty_input, t.buf_end, t.buf_end, False)
    return t.stop_code              # nonzero when memory ran out in a token


cdef int tokenizer_finish(Tokenizer* t) noexcept nogil:
    cdef int result
    if t.stop_code != 0:
        return t.stop_code
    if t.finished:
        return 0
    t.input_ended = True
    if t.own_len > 0:
        set_buffer(t, t.own, t.own_abs, t.own_abs + t.own_len, True)
    else:
        set_buffer(t, empty_input, t.stream_end, t.stream_end, True)
    return run_to_end_of_input(t)


cdef int run_to_end_of_input(Tokenizer* t) noexcept nogil:
    """Run over the rest of the input, which has ended (the buffer is set):
    0 when the end-of-file token is out, else TOKENIZER_PAUSE or the stop
    code."""
    cdef int result = run(t)
    if result == STOP and t.paused:
        return pause_keeping(t, NULL, 0)
    t.own_len = 0
    set_buffer(t, empty_input, t.stream_end, t.stream_end, True)
    if result == STOP:
        return t.stop_code
    return 0


# ---------------------------------------------------------------------------
# Pauses and the insertion point (script execution): while paused, the own
# buffer holds all the input from the next input character on, so that
# document.write can insert before any of it.
# https://html.spec.whatwg.org/multipage/parsing.html#the-insertion-point
# ---------------------------------------------------------------------------

cdef int pause_keeping(Tokenizer* t, const uint8_t* rest, size_t rest_length) noexcept nogil:
    """The callback paused the tokenizer after a token: keep the input from
    the next input character on in the own buffer, followed by `rest` (what
    the caller's chunk has that was not appended to it yet)."""
    cdef size_t hold = t.pos
    if t.text_begin != NO_POSITION and t.text_begin < hold:
        hold = t.text_begin
    if t.errors != NULL:
        advance_to(t, hold)
    if t.buf == t.own and t.own_len > 0:
        own_drop_before(t, hold)
    else:
        # (The caller's chunk, scanned in place, or nothing.)
        t.own_len = 0
        t.own_abs = hold
        if own_append(t, t.buf + (hold - t.buf_abs), t.buf_end - hold) != 0:
            return out_of_memory_code(t)
    if rest_length and own_append(t, rest, rest_length) != 0:
        return out_of_memory_code(t)
    hold_own_buffer(t)
    return TOKENIZER_PAUSE


cdef inline int out_of_memory_code(Tokenizer* t) noexcept nogil:
    out_of_memory(t)
    return t.stop_code


cdef inline void hold_own_buffer(Tokenizer* t) noexcept nogil:
    """The states go on from the own buffer (or from nothing)."""
    if t.own_len > 0:
        set_buffer(t, t.own, t.own_abs, t.own_abs + t.own_len, False)
    else:
        t.own_abs = t.pos
        set_buffer(t, empty_input, t.pos, t.pos, False)


cdef size_t tokenizer_next_offset(Tokenizer* t) noexcept nogil:
    return t.pos


cdef int tokenizer_insert(Tokenizer* t, size_t at, const uint8_t* data,
                          size_t length) noexcept nogil:
    cdef size_t offset, tail
    if t.stop_code != 0:
        return t.stop_code
    if length == 0 or t.finished:
        return 0
    if t.own_len == 0:
        t.own_abs = t.pos
    if at < t.pos or at < t.own_abs or at > t.own_abs + t.own_len:
        return -2                   # not between the next input character
                                    # and the end of the input held
    offset = at - t.own_abs
    tail = t.own_len - offset
    if own_append(t, data, length) != 0:           # (room for it)
        return out_of_memory_code(t)
    memmove(t.own + offset + length, t.own + offset, tail)
    memcpy(t.own + offset, data, length)
    t.stream_end += length
    hold_own_buffer(t)
    return 0


cdef int run_held(Tokenizer* t, size_t end, bint at_eof) noexcept nogil:
    """Run the states over the own buffer up to stream offset `end`."""
    cdef int result
    if t.stop_code != 0:
        return t.stop_code
    t.paused = False
    if t.finished:
        return 0
    if t.own_len > 0:
        set_buffer(t, t.own, t.own_abs, end, at_eof)
    else:
        set_buffer(t, empty_input, t.pos, t.pos, at_eof)
    if at_eof:
        return run_to_end_of_input(t)
    result = run(t)
    if result != NEED_MORE:
        if t.paused:
            return pause_keeping(t, NULL, 0)
        return t.stop_code
    if t.own_len > 0:
        own_drop_before(t, t.keep)
    hold_own_buffer(t)
    return 0


cdef int tokenizer_resume(Tokenizer* t) noexcept nogil:
    return run_held(t, t.own_abs + t.own_len, t.input_ended)


cdef int tokenizer_run_to(Tokenizer* t, size_t end) noexcept nogil:
    if end > t.own_abs + t.own_len:
        end = t.own_abs + t.own_len
    return run_held(t, end, False)
