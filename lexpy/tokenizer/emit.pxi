# Building and emitting tokens. Text between markup is one token; a markup
# token is "begun" when its kind is certain (the text before its '<' is
# emitted then), filled with stream offsets while its states scan it, and
# handed to the callback with offsets relative to Token.data.

cdef int call_back(Tokenizer* t, Token* token) noexcept nogil:
    cdef int result = 0
    if t.stop_code != 0:            # memory ran out while the token was built
        return STOP
    t.current_token = token
    if t.callback != NULL:
        result = t.callback(t.context, token)
    t.current_token = NULL
    if result != 0:
        if result == TOKENIZER_PAUSE:
            t.paused = True
        else:
            t.stop_code = result
        return STOP
    return GO_ON


cdef inline int out_of_memory(Tokenizer* t) noexcept nogil:
    t.stop_code = -1
    return STOP


# ---------------------------------------------------------------------------
# Character data
# ---------------------------------------------------------------------------

cdef void text_start(Tokenizer* t, size_t position, uint32_t flags) noexcept nogil:
    """Pending text begins at `position` with these flags."""
    t.text_begin = position
    t.text_flags = flags
    if t.errors != NULL:
        position_of(t, position, &t.text_line, &t.text_column)


cdef inline void ensure_text(Tokenizer* t, uint32_t origin) noexcept nogil:
    """In a text state: the character at t.pos is text (it may follow a
    flush at the end of a chunk)."""
    if t.text_begin == NO_POSITION and t.pos < t.buf_end:
        text_start(t, t.pos, origin)


cdef inline void consume_text_character(Tokenizer* t, int c) noexcept nogil:
    """A single-character text state consumes the byte c."""
    if c == 0x0D:
        t.text_flags |= DATA_HAS_CR
    t.pos += 1


cdef inline uint32_t whitespace_flags(const uint8_t* s, size_t begin, size_t end,
                                      size_t limit) noexcept nogil:
    """DATA_LEADING_WHITESPACE and DATA_WHITESPACE_ONLY of the text
    s[begin:end] (s[begin:limit] may be read)."""
    cdef size_t i
    if begin == end or not byte_class[s[begin]] & CLASS_WHITESPACE:
        return 0
    i = lxp_skip_whitespace(s, begin + 1, end, limit)
    if i == end:
        return DATA_LEADING_WHITESPACE | DATA_WHITESPACE_ONLY
    return DATA_LEADING_WHITESPACE


cdef int emit_text(Tokenizer* t, size_t end) noexcept nogil:
    """Emit the pending text up to the stream offset `end` (none left
    pending afterwards)."""
    cdef size_t begin = t.text_begin
    cdef size_t base = t.buf_abs
    cdef Token* token = &t.text_token
    t.text_begin = NO_POSITION
    if begin == NO_POSITION or begin >= end:
        return GO_ON
    token.tag_id = TAG__TEXT
    token.type = 0
    token.data = t.buf
    token.begin = begin - base
    token.end = end - base
    token.text_begin = token.begin
    token.text_end = token.end
    token.data_flags = t.text_flags | whitespace_flags(t.buf, token.begin, token.end,
                                                       t.buf_end - base)
    token.attrs = NULL
    token.attr_count = 0
    token.line = t.text_line
    token.column = t.text_column
    if t.errors != NULL:
        advance_to(t, end)
    return call_back(t, token)


# ---------------------------------------------------------------------------
# Markup tokens
# ---------------------------------------------------------------------------

cdef inline int begin_token(Tokenizer* t, lxp_tag_id_t kind) noexcept nogil:
    """The token starting at the '<' at t.lt_pos is certain: emit the text
    before it and start building it."""
    cdef Token* token = &t.token
    cdef int result = GO_ON
    token.line = 0
    token.column = 0
    if t.text_begin != NO_POSITION and t.text_begin == t.lt_pos:
        token.line = t.text_line
        token.column = t.text_column
        t.text_begin = NO_POSITION
    else:
        result = emit_text(t, t.lt_pos)
        if t.errors != NULL:
            position_of(t, t.lt_pos, &token.line, &token.column)
    token.tag_id = kind
    token.type = 0
    token.begin = t.lt_pos
    token.end = t.lt_pos
    token.text_begin = t.pos
    token.text_end = t.pos
    token.data_flags = 0
    token.attrs = t.attrs
    token.attr_count = 0
    t.in_token = True
    return result


cdef inline int begin_tag(Tokenizer* t, bint end_tag, size_t name_begin) noexcept nogil:
    cdef int result = begin_token(t, TAG__UNDEF)
    if end_tag:
        t.token.type = TOKEN_END_TAG
    t.token.text_begin = name_begin
    t.name_hash = LXP_NAME_HASH_INIT
    t.name_flags = 0
    t.attr = NULL
    t.waiting_names = 0
    t.attr_stamp += 1
    if t.attr_stamp == 0:           # wrapped: forget every stamp
        if t.attr_seen != NULL:
            memset(t.attr_seen, 0, t.attr_seen_capacity * sizeof(uint32_t))
        t.attr_stamp = 1
    return result


cdef int begin_comment(Tokenizer* t, size_t data_begin) noexcept nogil:
    cdef int result = begin_token(t, TAG__COMMENT)
    t.token.text_begin = data_begin
    t.data_end = data_begin
    return result


cdef inline void become_comment(Tokenizer* t, size_t data_begin) noexcept nogil:
    """A token begun as something else (a processing instruction, a CDATA
    section outside foreign content) is a bogus comment after all."""
    t.token.tag_id = TAG__COMMENT
    t.token.type = 0
    t.token.text_begin = data_begin
    t.token.data_flags = 0
    t.data_end = data_begin


cdef inline uint32_t static_name_id(Tokenizer* t, bint tag, size_t begin, size_t end,
                                    uint32_t hash, uint32_t flags) noexcept nogil:
    """The static id of a tag or attribute name scanned at begin..end (hash
    and flags as the scanning loop computed them), or 0 when it has none.
    The usual name, in lower case, is compared as one 8-byte word
    (lxp_*_find_word); the others go out of line."""
    cdef const uint8_t* name = t.buf + (begin - t.buf_abs)
    if flags & (DATA_HAS_NUL | DATA_ASCII_LOWERCASE):
        return static_name_id_out_of_line(t, tag, begin, end, hash, flags)
    if tag:
        return lxp_tag_find_word(name, end - begin, t.buf_end - begin, hash)
    return lxp_attr_find_word(name, end - begin, t.buf_end - begin, hash)


cdef uint32_t static_name_id_with_case(Tokenizer* t, bint tag, size_t begin, size_t end,
                                       uint32_t hash, uint32_t flags) noexcept nogil:
    """static_name_id for a name with upper case or U+0000."""
    cdef const uint8_t* name = t.buf + (begin - t.buf_abs)
    if flags & DATA_HAS_NUL:
        return 0                    # (no static name holds U+FFFD)
    if tag:
        return lxp_tag_find(name, end - begin, hash, True)
    return lxp_attr_find(name, end - begin, hash, True)


# static_name_id calls static_name_id_with_case through this pointer, so
# that the compiler does not inline the byte-by-byte comparison into the
# tag and attribute loops.
cdef uint32_t (*static_name_id_out_of_line)(Tokenizer* t, bint tag, size_t begin,
                                            size_t end, uint32_t hash,
                                            uint32_t flags) noexcept nogil
static_name_id_out_of_line = static_name_id_with_case


cdef const uint8_t* converted_name(Tokenizer* t, size_t begin, size_t end,
                                   uint32_t flags, size_t* length) noexcept nogil:
    """The bytes of a name scanned at begin..end as the dynamic tables hold
    it (lowercased, NUL as U+FFFD): in the input, or converted into
    t.scratch. NULL when memory runs out."""
    cdef const uint8_t* name = t.buf + (begin - t.buf_abs)
    cdef size_t n = end - begin
    cdef uint8_t* scratch
    length[0] = n
    if not flags & (DATA_HAS_NUL | DATA_ASCII_LOWERCASE):
        return name
    if t.scratch_capacity < 3 * n + 1:
        scratch = <uint8_t*> realloc(t.scratch, 3 * n + 1)
        if scratch == NULL:
            return NULL
        t.scratch = scratch
        t.scratch_capacity = 3 * n + 1
    length[0] = convert_text(name, n, flags | DATA_NUL_TO_REPLACEMENT, t.scratch)
    return t.scratch


cdef enum:
    NAME_CACHE_SIZE = 256           # entries of each name cache (a power of two)
    NAME_CACHE_LENGTH = 24          # the longest name a cache entry holds


cdef inline uint32_t cached_name_id(NameCacheEntry* cache, const uint8_t* name,
                                    size_t length, uint32_t hash,
                                    uint32_t flags) noexcept nogil:
    """The id of a dynamic name scanned at name[0:length] (hash and flags as
    the scanning loop computed them) when the cache holds it, else 0.

    Not in the standard: a name that is in no static table is looked up in
    the document's dynamic table under a keyed hash, which costs a hash of
    its bytes and a probe each time it occurs (data-* attributes, custom
    elements). The cache maps the scan hash, computed anyway, to the id the
    table gave; an entry only ever holds a name the table has, so a hit is
    the table's answer, and a miss (an empty slot, another name, a name with
    U+0000, a long one) just goes to the table. A page that makes its names
    collide on the scan hash gets misses, never longer work."""
    cdef NameCacheEntry* entry
    cdef const uint8_t* held
    cdef size_t k
    if cache == NULL or flags & DATA_HAS_NUL:
        return 0
    entry = &cache[hash & (NAME_CACHE_SIZE - 1)]
    if entry.id == 0 or entry.hash != hash or entry.length != length:
        return 0
    if flags & DATA_ASCII_LOWERCASE:
        held = <const uint8_t*> entry.words
        for k in range(length):
            if ascii_lower[name[k]] != held[k]:
                return 0
        return entry.id
    k = 0
    while k + 8 <= length:
        if lxp_load_le64(name + k) != entry.words[k >> 3]:
            return 0
        k += 8
    if k < length and lxp_load_le_tail(name + k, length - k) != entry.words[k >> 3]:
        return 0
    return entry.id


cdef void cache_name(NameCacheEntry** cache, NameTable* table, uint32_t hash,
                     uint32_t flags, uint32_t id) noexcept nogil:
    """Remember that the dynamic name of this scan hash has `id`. Nothing
    is cached when the name is longer than an entry holds, or when memory
    runs out (the cache is only a shortcut), or when it holds U+FFFD: the
    same name scanned with U+0000 (which always misses: its scan hash is
    not of the table's bytes) would wait for the end of its tag while this
    one hit, and of the two in one tag the later would be kept."""
    cdef NameCacheEntry* entry
    cdef const uint8_t* name
    cdef size_t length, k
    if flags & DATA_HAS_NUL:
        return
    name = name_table_get(table, id, &length)
    if name == NULL or length > NAME_CACHE_LENGTH:
        return
    for k in range(length):
        if name[k] == 0xEF:             # (the first byte of U+FFFD)
            return
    if cache[0] == NULL:
        cache[0] = <NameCacheEntry*> malloc(NAME_CACHE_SIZE * sizeof(NameCacheEntry))
        if cache[0] == NULL:
            return
        for k in range(NAME_CACHE_SIZE):
            cache[0][k].id = 0          # (only the ids: an entry is empty)
    entry = &cache[0][hash & (NAME_CACHE_SIZE - 1)]
    entry.hash = hash
    entry.id = id
    entry.length = <uint32_t> length
    entry.words[0] = 0
    entry.words[1] = 0
    entry.words[2] = 0
    k = 0
    while k + 8 <= length:
        entry.words[k >> 3] = lxp_load_le64(name + k)
        k += 8
    if k < length:
        entry.words[k >> 3] = lxp_load_le_tail(name + k, length - k)


cdef uint32_t dynamic_name_id(Tokenizer* t, bint tag, size_t begin,
                              size_t end) noexcept nogil:
    """The id of the name just scanned at begin..end (t.name_hash and
    t.name_flags as the scanning loop left them) that has no static one,
    interned in the document's dynamic table (the name cache first). Out
    of memory: 0, and the tokenizer stops with out_of_memory (the token is
    not emitted)."""
    cdef uint32_t hash = t.name_hash
    cdef uint32_t flags = t.name_flags
    cdef size_t length
    cdef const uint8_t* name
    cdef NameTable* table = t.tags if tag else t.attribute_names
    cdef uint32_t id = cached_name_id(t.tag_cache if tag else t.attr_cache,
                                      t.buf + (begin - t.buf_abs), end - begin,
                                      hash, flags)
    if id != 0:
        return id
    name = converted_name(t, begin, end, flags, &length)
    if name != NULL:
        id = name_table_intern(table, name, length)
    if id == 0:
        out_of_memory(t)
    else:
        cache_name(&t.tag_cache if tag else &t.attr_cache, table, hash, flags, id)
    return id


cdef void finish_tag_name(Tokenizer* t) noexcept nogil:
    """The tag name ends at t.pos: its id, from the static table, else the
    dynamic one (out of memory: 0, see dynamic_name_id)."""
    cdef uint32_t id = static_name_id(t, True, t.token.text_begin, t.pos,
                                      t.name_hash, t.name_flags)
    t.token.text_end = t.pos
    t.token.data_flags = t.name_flags
    if id == 0:
        id = dynamic_name_id(t, True, t.token.text_begin, t.pos)
    t.token.tag_id = id


cdef int grow_attributes(Tokenizer* t) noexcept nogil:
    """Room for one more attribute in t.attrs: GO_ON, or STOP when memory
    runs out."""
    cdef size_t capacity = t.attr_capacity * 2
    cdef TokenAttr* attrs = <TokenAttr*> realloc(t.attrs, capacity * sizeof(TokenAttr))
    if attrs == NULL:
        return out_of_memory(t)
    t.attrs = attrs
    t.attr_capacity = capacity
    t.token.attrs = attrs
    return GO_ON


cdef inline int begin_attribute(Tokenizer* t) noexcept nogil:
    """A new attribute whose name starts at t.pos."""
    cdef TokenAttr* attr
    if t.token.attr_count == t.attr_capacity and grow_attributes(t) == STOP:
        return STOP
    attr = &t.attrs[t.token.attr_count]
    t.token.attr_count += 1
    attr.name_id = 0
    attr.name_flags = 0
    attr.name_begin = t.pos
    attr.name_end = t.pos
    attr.value_begin = t.pos
    attr.value_end = t.pos
    attr.flags = DATA_IN_ATTRIBUTE
    attr.line = 0
    attr.column = 0
    if t.errors != NULL:
        position_of(t, t.pos, &attr.line, &attr.column)
    t.attr = attr
    t.name_hash = LXP_NAME_HASH_INIT
    t.name_flags = 0
    return GO_ON


cdef int grow_attribute_marks(Tokenizer* t, uint32_t id) noexcept nogil:
    """Room in t.attr_seen for `id`: 0; -1 when memory runs out (the
    tokenizer stops)."""
    cdef uint32_t* seen
    cdef size_t capacity = 2 * id + 64
    seen = <uint32_t*> realloc(t.attr_seen, capacity * sizeof(uint32_t))
    if seen == NULL:
        out_of_memory(t)            # (the tag is not emitted)
        return -1
    memset(seen + t.attr_seen_capacity, 0,
           (capacity - t.attr_seen_capacity) * sizeof(uint32_t))
    t.attr_seen = seen
    t.attr_seen_capacity = capacity
    return 0


cdef inline int mark_attribute_name(Tokenizer* t, uint32_t id) noexcept nogil:
    """The tag being built has an attribute named `id`: 1 when it had one
    already (a duplicate), else 0; -1 when memory runs out (the tokenizer
    stops)."""
    if id >= t.attr_seen_capacity and grow_attribute_marks(t, id) != 0:
        return -1
    if t.attr_seen[id] == t.attr_stamp:
        return 1
    t.attr_seen[id] = t.attr_stamp
    return 0


cdef int wait_for_name(Tokenizer* t, TokenAttr* attr) noexcept nogil:
    """finish_attribute_name's path for a name in no static table and not
    in the cache, without an error list: the name waits for the end of the
    tag (resolve_waiting_names), with its table hash computed and its slot
    asked for. 0; -1 when memory ran out (the tokenizer stops)."""
    cdef size_t length
    cdef const uint8_t* name = converted_name(t, attr.name_begin, t.pos,
                                              t.name_flags, &length)
    if name == NULL:
        out_of_memory(t)
        return -1
    attr.name_flags = t.name_flags
    attr.scan_hash = t.name_hash
    attr.name_hash = name_table_hash(t.attribute_names, name, length)
    name_table_prefetch(t.attribute_names, attr.name_hash)
    t.waiting_names += 1
    return 0


# finish_attribute_name calls wait_for_name through this pointer, so that
# the compiler does not inline it (and the keyed hash in it): inlined, its
# registers are saved and restored at every attribute.
cdef int (*wait_for_name_out_of_line)(Tokenizer* t, TokenAttr* attr) noexcept nogil
wait_for_name_out_of_line = wait_for_name


cdef void finish_attribute_name(Tokenizer* t) noexcept nogil:
    """Leaving the attribute name state at t.pos. A name in the static
    table gets its id here, and the attribute is dropped when the tag has
    one of that name already. Any other name waits for the end of the tag
    (resolve_waiting_names), unless errors are collected: a duplicate's
    error must then be reported here, in stream order."""
    finish_attribute_name_from(t, static_name_id(t, False, t.attr.name_begin, t.pos,
                                                 t.name_hash, t.name_flags))


cdef inline void finish_static_attribute_name(Tokenizer* t) noexcept nogil:
    """finish_attribute_name, inline for the usual case: a name in the
    static table that the tag does not have yet (attributes_in_a_row, where
    the call and its register saves cost about a third of an attribute's
    name)."""
    cdef TokenAttr* attr = t.attr
    cdef uint32_t id = static_name_id(t, False, attr.name_begin, t.pos,
                                      t.name_hash, t.name_flags)
    if id == 0 or id >= t.attr_seen_capacity or t.attr_seen[id] == t.attr_stamp \
            or t.name_flags & DATA_HAS_NUL:
        finish_attribute_name_from(t, id)
        return
    t.attr_seen[id] = t.attr_stamp
    attr.name_id = id
    attr.name_end = t.pos
    attr.value_begin = t.pos
    attr.value_end = t.pos


cdef void finish_attribute_name_from(Tokenizer* t, uint32_t id) noexcept nogil:
    """finish_attribute_name once the name's static id (0: none) is
    known."""
    cdef TokenAttr* attr = t.attr
    cdef int seen
    attr.name_end = t.pos
    attr.value_begin = t.pos
    attr.value_end = t.pos
    if t.name_flags & DATA_HAS_NUL:
        attr.flags |= DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT
    if id == 0:
        id = cached_name_id(t.attr_cache, t.buf + (attr.name_begin - t.buf_abs),
                            t.pos - attr.name_begin, t.name_hash, t.name_flags)
    if id == 0:
        if t.errors == NULL:
            wait_for_name_out_of_line(t, attr)
            return
        id = dynamic_name_id(t, False, attr.name_begin, t.pos)
        if id == 0:
            return
    attr.name_id = id
    seen = mark_attribute_name(t, id)
    if seen == 1:
        report(t, "duplicate-attribute", t.pos)
        t.token.attr_count -= 1
        t.dropped_attr = attr[0]
        t.attr = &t.dropped_attr


cdef enum:
    NAME_PREFETCH_DISTANCE = 8      # waiting names looked ahead of the lookup


cdef int resolve_waiting_names(Tokenizer* t) noexcept nogil:
    """At the end of a start tag: the ids of the attribute names that
    waited (those not in the static table), interned in the tag's order,
    and the duplicates among them dropped, as finish_attribute_name would
    have done one by one (not in the standard).

    A name new to a large table costs a wait for memory at its lookup:
    finish_attribute_name hashed each name and asked for its table slot,
    and each lookup here asks for the slot of the name
    NAME_PREFETCH_DISTANCE places ahead, so that a tag with many new names
    overlaps those waits instead of taking them in turn."""
    cdef Token* token = &t.token
    cdef TokenAttr* attrs = token.attrs
    cdef NameTable* table = t.attribute_names
    cdef size_t count = token.attr_count
    cdef size_t i, kept = 0
    cdef const uint8_t* name
    cdef size_t length
    cdef uint32_t id
    cdef int seen
    t.waiting_names = 0
    for i in range(count):
        if i + NAME_PREFETCH_DISTANCE < count \
                and attrs[i + NAME_PREFETCH_DISTANCE].name_id == 0:
            name_table_prefetch(table, attrs[i + NAME_PREFETCH_DISTANCE].name_hash)
        if attrs[i].name_id == 0:
            name = converted_name(t, attrs[i].name_begin, attrs[i].name_end,
                                  attrs[i].name_flags, &length)
            if name == NULL:
                return out_of_memory(t)
            id = name_table_intern_hashed(table, name, length, attrs[i].name_hash)
            if id == 0:
                return out_of_memory(t)
            attrs[i].name_id = id
            cache_name(&t.attr_cache, table, attrs[i].scan_hash, attrs[i].name_flags, id)
            seen = mark_attribute_name(t, id)
            if seen == -1:
                return STOP
            if seen == 1:
                continue                # a duplicate: dropped
        if kept != i:
            attrs[kept] = attrs[i]
        kept += 1
    token.attr_count = kept
    return GO_ON


# emit_tag calls resolve_waiting_names through this pointer, so that the
# compiler does not inline it: inlined, its loop's registers are saved and
# restored at every tag, waiting names or not.
cdef int (*resolve_waiting_names_out_of_line)(Tokenizer* t) noexcept nogil
resolve_waiting_names_out_of_line = resolve_waiting_names


cdef inline void to_relative(Tokenizer* t, Token* token) noexcept nogil:
    """Stream offsets -> offsets relative to the current buffer."""
    token.data = t.buf
    if t.buf_abs != 0:              # (0: the usual case, one whole input)
        shift_to_relative(t, token)


cdef void shift_to_relative(Tokenizer* t, Token* token) noexcept nogil:
    cdef size_t base = t.buf_abs
    cdef size_t k
    cdef TokenAttr* attr
    token.begin -= base
    token.end -= base
    token.text_begin -= base
    token.text_end -= base
    for k in range(token.attr_count):
        attr = &token.attrs[k]
        attr.name_begin -= base
        attr.name_end -= base
        attr.value_begin -= base
        attr.value_end -= base
    if token.tag_id == TAG__DOCTYPE:
        token.doctype_name_begin -= base
        token.doctype_name_end -= base
        token.public_id_begin -= base
        token.public_id_end -= base
        token.system_id_begin -= base
        token.system_id_end -= base
    elif token.tag_id == TAG__PROCESSING_INSTRUCTION:
        token.pi_target_begin -= base
        token.pi_target_end -= base


cdef inline int emit_markup(Tokenizer* t) noexcept nogil:
    """Emit the markup token that ends at t.pos (the state is data unless
    the callback changes it)."""
    t.token.end = t.pos
    t.in_token = False
    t.state = DATA_STATE
    if t.errors != NULL:
        advance_to(t, t.pos)
    to_relative(t, &t.token)
    return call_back(t, &t.token)


cdef int emit_tag(Tokenizer* t) noexcept nogil:
    """Emit the tag token whose '>' was just consumed."""
    cdef Token* token = &t.token
    if token.type & TOKEN_END_TAG:
        if token.attr_count:
            report(t, "end-tag-with-attributes", t.pos - 1)
            token.attr_count = 0
        if token.type & TOKEN_SELF_CLOSING:
            report(t, "end-tag-with-trailing-solidus", t.pos - 1)
    else:
        if t.waiting_names and resolve_waiting_names_out_of_line(t) == STOP:
            return STOP
        t.last_start_tag = token.tag_id
    return emit_markup(t)


cdef inline int emit_comment(Tokenizer* t) noexcept nogil:
    t.token.text_end = t.data_end
    return emit_markup(t)


cdef inline bint is_comment_data_state(TokenizerState state) noexcept nogil:
    """States inside a comment's data, where t.data_end (t.pos in the bogus
    comment state) ends the data that is settled."""
    return COMMENT_START_STATE <= state <= COMMENT_END_BANG_STATE \
        or state == BOGUS_COMMENT_STATE


cdef size_t complete_utf8_end(const uint8_t* s, size_t low,
                              size_t end) noexcept nogil:
    """Where s[low:end] ends without a UTF-8 sequence the end splits (that
    one waits for its other bytes). Not in the standard."""
    cdef size_t lead = end
    while lead > low and end - lead < 3 and (s[lead - 1] & 0xC0) == 0x80:
        lead -= 1
    if lead > low and s[lead - 1] >= 0xC0 and end - (lead - 1) < (
            2 if s[lead - 1] < 0xE0 else 3 if s[lead - 1] < 0xF0 else 4):
        return lead - 1
    return end


cdef int emit_comment_piece(Tokenizer* t) noexcept nogil:
    """The input ran out inside a comment: emit the data settled so far (a
    trailing CR waits, an LF may follow; so does a split UTF-8 sequence) as
    a comment token -- the first piece, or a TOKEN_CONTINUATION of the one
    before -- and go on with a token that begins after it. Not in the
    standard: it keeps the incoming buffer small when a comment is longer
    than the chunks (the tree gets the same comment)."""
    cdef Token* token = &t.token
    cdef size_t begin = token.text_begin
    cdef size_t end = t.pos if t.state == BOGUS_COMMENT_STATE else t.data_end
    cdef const uint8_t* s = t.buf - t.buf_abs        # indexed by stream offset
    cdef int result
    end = complete_utf8_end(s, begin, end)
    if end > begin and s[end - 1] == 0x0D:
        end -= 1
    if end <= begin:
        return GO_ON
    token.end = end
    token.text_end = end
    to_relative(t, token)
    result = call_back(t, token)
    token.type = TOKEN_CONTINUATION
    token.begin = end
    token.end = end
    token.text_begin = end
    token.text_end = end
    return result


cdef inline int emit_doctype(Tokenizer* t) noexcept nogil:
    return emit_markup(t)


cdef inline int emit_processing_instruction(Tokenizer* t) noexcept nogil:
    t.token.text_end = t.data_end
    return emit_markup(t)


cdef int emit_eof(Tokenizer* t) noexcept nogil:
    """The end of the input: pending text, then the end-of-file token. A
    token in progress is dropped (its state reported the error)."""
    cdef Token* token = &t.text_token
    cdef size_t end = t.buf_end
    t.in_token = False
    if t.text_begin != NO_POSITION:
        if emit_text(t, end) == STOP:
            return STOP
    token.tag_id = TAG__END_OF_FILE
    token.type = 0
    token.data = t.buf
    token.begin = end - t.buf_abs
    token.end = token.begin
    token.text_begin = token.begin
    token.text_end = token.begin
    token.data_flags = 0
    token.attrs = NULL
    token.attr_count = 0
    token.line = 0
    token.column = 0
    if t.errors != NULL:
        position_of(t, end, &token.line, &token.column)
    t.finished = True
    t.pos = end
    if call_back(t, token) == STOP:
        return STOP
    return DONE
