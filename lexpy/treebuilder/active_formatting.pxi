# The list of active formatting elements
# https://html.spec.whatwg.org/multipage/parsing.html#the-list-of-active-formatting-elements
#
# An array of entries, an element or a marker (element NULL). "Create an
# element for the token for which the element was created" is a shallow
# clone (same tag, namespace and attributes) of the element as the parser
# created it: the element itself, as nothing else changes its attributes
# while the parser runs -- unless scripts run during the parse
# (TreeBuilder.scripts_run); then each entry keeps a detached copy made
# when it was added (FormattingEntry.token).


# An entry of the list of active formatting elements; element NULL is a
# marker.
cdef struct FormattingEntry:
    CElement* element
    uint64_t signature            # Noah's Ark key (tag, namespace, attributes,
                                  # marker segment); 0 for a marker and for an
                                  # a element (never in the table: see
                                  # push_active_formatting_element)
    CElement* token               # while scripts may run (they may change the
                                  # element's attributes): a detached copy of
                                  # the element as the parser created it, "the
                                  # token for which it was created"; else NULL
                                  # (the element itself is)


# Slots of the formatting tags (a, b, big, code, em, font, i, nobr, s,
# small, strike, strong, tt, u) in ListOfActiveFormattingElements.segment_counts.
cdef enum:
    FORMATTING_TAG_SLOTS = 16


cdef struct ListOfActiveFormattingElements:
    FormattingEntry* entries
    size_t count
    size_t capacity
    size_t markers                # markers in the list
    # Entries of each formatting tag after the last marker (by the tag's
    # slot), so that a long list without the tag is not walked; what each
    # marker hid, restored when it goes.
    size_t segment_counts[FORMATTING_TAG_SLOTS]
    size_t* marker_saves          # FORMATTING_TAG_SLOTS counts a marker
    size_t marker_saves_capacity  # in markers
    # The Noah's Ark counts: entries of the list by signature (open
    # addressing; a signature leaves when its last entry does).
    uint64_t* noah_counts         # key << 16 | count (0: empty)
    size_t noah_capacity          # power of two (0: no table yet)
    size_t noah_used
    HashKey noah_key              # of the attribute values in signatures


# ---------------------------------------------------------------------------
# Noah's Ark counts (not in the standard): how many entries after the last
# marker equal a new element is looked up by a signature (a hash of the
# tag, the namespace, the attributes in any order, and the number of
# markers before the entry), so the list is searched only when three equal
# entries may be there; a long list of distinct elements stays linear. The
# table holds the signatures of the entries in the list, no others. The
# attribute values are hashed under a key of the tree builder's own: a page
# that could choose values whose signatures collide would make every push
# search the whole list.
# ---------------------------------------------------------------------------

cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """A 64-bit finalizer (splitmix64's)."""
    x ^= x >> 30
    x *= 0xBF58476D1CE4E5B9ULL
    x ^= x >> 27
    x *= 0x94D049BB133111EBULL
    x ^= x >> 31
    return x


cdef uint64_t formatting_signature(TreeBuilder* tb, CElement* element) noexcept nogil:
    """The signature of an element pushed now (after tb.formatting.markers
    markers)."""
    cdef uint64_t attributes = 0
    cdef uint64_t h
    cdef uint32_t i
    cdef CAttr* attr
    for i in range(element.attr_count):
        attr = &element.attrs[i]
        attributes += mix64(keyed_hash(&tb.formatting.noah_key, attr.value, attr.value_length)
                            ^ (<uint64_t> attr.local_name << 32) ^ attr.ns)
    h = mix64(mix64((<uint64_t> element.tag_id << 32) ^ element.ns ^ attributes)
              ^ (<uint64_t> element.attr_count << 48) ^ tb.formatting.markers)
    return h if h != 0 else 1


# A slot of the table is 0 (empty) or a key and a count, key << 16 | count:
# the key is the signature's upper 48 bits with its top bit set (never 0),
# and its low bits are the slot it belongs in. Eight bytes a slot keep a
# large table twice as dense in the caches. Two signatures that share a key
# share a count, which can then only be too high: the list is searched for
# equal elements more often than needed, never less. A count that reaches
# NOAH_COUNT_MAX stays there (searched always).

cdef enum:
    NOAH_COUNT_BITS = 16
    NOAH_COUNT_MAX = 0xFFFF


cdef inline uint64_t noah_key(uint64_t signature) noexcept nogil:
    return (signature >> NOAH_COUNT_BITS) | (<uint64_t> 1 << (63 - NOAH_COUNT_BITS))


cdef inline size_t noah_count_of(uint64_t* slot) noexcept nogil:
    return <size_t> (slot[0] & NOAH_COUNT_MAX)


cdef uint64_t* noah_find(TreeBuilder* tb, uint64_t key) noexcept nogil:
    """The slot of a key: its count, or the empty slot it would take (the
    table has one: noah_capacity > 0)."""
    cdef size_t mask = tb.formatting.noah_capacity - 1
    cdef size_t slot = key & mask
    while tb.formatting.noah_counts[slot] != 0 and tb.formatting.noah_counts[slot] >> NOAH_COUNT_BITS != key:
        slot = (slot + 1) & mask
    return &tb.formatting.noah_counts[slot]


cdef uint64_t* noah_count(TreeBuilder* tb, uint64_t signature) noexcept nogil:
    """The slot of a signature's count (made at 0 when new); NULL when out
    of memory. The table grows only when a new key comes: the slot of a
    known one stays where it is."""
    cdef uint64_t key = noah_key(signature)
    cdef uint64_t* table
    cdef uint64_t* old = tb.formatting.noah_counts
    cdef size_t old_capacity = tb.formatting.noah_capacity
    cdef size_t i, capacity
    cdef uint64_t* slot
    if old_capacity != 0:
        slot = noah_find(tb, key)
        if slot[0] != 0:
            return slot
    if (tb.formatting.noah_used + 1) * 2 > old_capacity:
        capacity = grown_capacity(old_capacity, old_capacity + 1, 64, sizeof(uint64_t))
        table = <uint64_t*> calloc(capacity, sizeof(uint64_t)) if capacity != 0 else NULL
        if table == NULL:
            tb.halt.failed = True
            return NULL
        tb.formatting.noah_counts = table
        tb.formatting.noah_capacity = capacity
        for i in range(old_capacity):
            if old[i] != 0:
                noah_find(tb, old[i] >> NOAH_COUNT_BITS)[0] = old[i]
        free(old)
    slot = noah_find(tb, key)
    slot[0] = key << NOAH_COUNT_BITS
    tb.formatting.noah_used += 1
    return slot


cdef void noah_delete(TreeBuilder* tb, uint64_t* slot) noexcept nogil:
    """Empty a slot whose count fell to 0, moving back the entries after it
    that would no longer be found (linear probing's deletion): the table
    holds only the keys of entries in the list."""
    cdef size_t mask = tb.formatting.noah_capacity - 1
    cdef size_t hole = <size_t> (slot - tb.formatting.noah_counts)
    cdef size_t probe = hole
    cdef size_t home
    while True:
        probe = (probe + 1) & mask
        if tb.formatting.noah_counts[probe] == 0:
            break
        home = (tb.formatting.noah_counts[probe] >> NOAH_COUNT_BITS) & mask
        # The entry stays when its home lies cyclically in (hole, probe].
        if (hole < probe and hole < home <= probe) or \
                (hole > probe and (home > hole or home <= probe)):
            continue
        tb.formatting.noah_counts[hole] = tb.formatting.noah_counts[probe]
        hole = probe
    tb.formatting.noah_counts[hole] = 0
    tb.formatting.noah_used -= 1


# Not in the standard: each formatting tag's slot + 1 in segment_counts (0:
# not a formatting element, never in the list).
cdef uint8_t FORMATTING_SLOT[TAG__LAST_STATIC]


cdef void init_formatting_slots() noexcept nogil:
    cdef size_t tag
    cdef uint8_t slot = 0
    for tag in range(TAG__LAST_STATIC):
        FORMATTING_SLOT[tag] = 0
        if lxp_tag_category_of(<lxp_tag_id_t> tag, NS_HTML) & CAT_FORMATTING \
                and slot < FORMATTING_TAG_SLOTS:
            slot += 1
            FORMATTING_SLOT[tag] = slot


cdef inline size_t formatting_slot(lxp_tag_id_t tag) noexcept nogil:
    """The tag's slot + 1 in segment_counts (0: none)."""
    return FORMATTING_SLOT[tag] if tag < TAG__LAST_STATIC else 0


cdef int save_segment_counts(TreeBuilder* tb) noexcept nogil:
    """A marker is coming: it hides the counts of the entries before it."""
    cdef size_t capacity
    cdef size_t* saves
    if tb.formatting.markers == tb.formatting.marker_saves_capacity:
        capacity = grown_capacity(tb.formatting.marker_saves_capacity, tb.formatting.markers + 1, 8,
                                  FORMATTING_TAG_SLOTS * sizeof(size_t))
        saves = <size_t*> realloc(tb.formatting.marker_saves,
                                  capacity * FORMATTING_TAG_SLOTS * sizeof(size_t)) \
            if capacity != 0 else NULL
        if saves == NULL:
            tb.halt.failed = True
            return -1
        tb.formatting.marker_saves = saves
        tb.formatting.marker_saves_capacity = capacity
    memcpy(&tb.formatting.marker_saves[tb.formatting.markers * FORMATTING_TAG_SLOTS],
           tb.formatting.segment_counts, sizeof(tb.formatting.segment_counts))
    memset(tb.formatting.segment_counts, 0, sizeof(tb.formatting.segment_counts))
    return 0


cdef void noah_forget(TreeBuilder* tb, FormattingEntry* entry) noexcept nogil:
    """An entry leaves the list (an element after the last marker, or the
    last marker once the entries after it are gone)."""
    cdef uint64_t* count
    cdef size_t slot
    if entry.element == NULL:
        tb.formatting.markers -= 1
        memcpy(tb.formatting.segment_counts,
               &tb.formatting.marker_saves[tb.formatting.markers * FORMATTING_TAG_SLOTS],
               sizeof(tb.formatting.segment_counts))
        return
    entry.element.node.flags &= ~(<uint32_t> ELEMENT_IN_FORMATTING)
    slot = formatting_slot(entry.element.tag_id)
    if slot != 0 and tb.formatting.segment_counts[slot - 1] != 0:
        tb.formatting.segment_counts[slot - 1] -= 1
    if entry.signature == 0:
        return                    # an a element: not in the table
    count = noah_find(tb, noah_key(entry.signature))
    if count[0] != 0 and noah_count_of(count) != NOAH_COUNT_MAX:
        count[0] -= 1
        if noah_count_of(count) == 0:
            noah_delete(tb, count)


cdef int formatting_append_entry(TreeBuilder* tb, CElement* element,
                                 uint64_t signature) noexcept nogil:
    """Append an entry: an element with its signature (0: an a element, not
    counted in the table), or a marker (NULL, 0)."""
    cdef size_t capacity, slot
    cdef FormattingEntry* items
    cdef uint64_t* count = NULL
    if element == NULL:
        if save_segment_counts(tb) != 0:
            return -1
    elif signature != 0:
        count = noah_count(tb, signature)
        if count == NULL:
            return -1
    if tb.formatting.count == tb.formatting.capacity:
        capacity = grown_capacity(tb.formatting.capacity, tb.formatting.count + 1,
                                  32, sizeof(FormattingEntry))
        items = <FormattingEntry*> realloc(tb.formatting.entries,
                                           capacity * sizeof(FormattingEntry)) \
            if capacity != 0 else NULL
        if items == NULL:
            tb.halt.failed = True
            return -1
        tb.formatting.entries = items
        tb.formatting.capacity = capacity
    tb.formatting.entries[tb.formatting.count].element = element
    tb.formatting.entries[tb.formatting.count].signature = signature
    tb.formatting.entries[tb.formatting.count].token = NULL
    if element != NULL and tb.scripts_run:
        tb.formatting.entries[tb.formatting.count].token = \
            <CElement*> node_clone(&element.node, False)
        if tb.formatting.entries[tb.formatting.count].token == NULL:
            tb.halt.failed = True
            return -1
    tb.formatting.count += 1
    if element == NULL:
        tb.formatting.markers += 1
        return 0
    element.node.flags |= ELEMENT_IN_FORMATTING
    slot = formatting_slot(element.tag_id)
    if slot != 0:
        tb.formatting.segment_counts[slot - 1] += 1
    if count != NULL and noah_count_of(count) != NOAH_COUNT_MAX:
        count[0] += 1
    return 0


cdef inline uint64_t entry_signature(TreeBuilder* tb, CElement* element) noexcept nogil:
    """The signature an element's entry gets: 0 for an HTML a element (see
    push_active_formatting_element), else formatting_signature."""
    if element.tag_id == TAG_A and element.ns == NS_HTML:
        return 0
    return formatting_signature(tb, element)


cdef int formatting_append(TreeBuilder* tb, CElement* element) noexcept nogil:
    """Append an element (or a marker: NULL) to the list."""
    if element == NULL:
        return formatting_append_entry(tb, NULL, 0)
    return formatting_append_entry(tb, element, entry_signature(tb, element))


cdef inline CElement* created_for(FormattingEntry* entry) noexcept nogil:
    """An entry's element as the parser created it (\"the token for which
    the element was created\")."""
    return entry.token if entry.token != NULL else entry.element


cdef inline void formatting_replace(TreeBuilder* tb, size_t index,
                                    CElement* element) noexcept nogil:
    """Put `element` (a clone: the same signature) in an entry's place."""
    tb.formatting.entries[index].element.node.flags &= ~(<uint32_t> ELEMENT_IN_FORMATTING)
    tb.formatting.entries[index].element = element
    element.node.flags |= ELEMENT_IN_FORMATTING


# https://html.spec.whatwg.org/multipage/parsing.html#insert-a-marker-at-the-end-of-the-list-of-active-formatting-elements
cdef inline int insert_marker(TreeBuilder* tb) noexcept nogil:
    return formatting_append(tb, NULL)


cdef int compare_attributes(const void* a, const void* b) noexcept nogil:
    cdef const CAttr* x = <const CAttr*> a
    cdef const CAttr* y = <const CAttr*> b
    if x.ns != y.ns:
        return -1 if x.ns < y.ns else 1
    if x.local_name != y.local_name:
        return -1 if x.local_name < y.local_name else 1
    return 0


cdef inline bint same_value(CAttr* a, CAttr* b) noexcept nogil:
    return a.value_length == b.value_length and (
        a.value_length == 0 or memcmp(a.value, b.value, a.value_length) == 0)


cdef bint same_attributes(CElement* a, CElement* b) noexcept nogil:
    """Whether two elements have the same attributes (names, namespaces and
    values, in any order)."""
    cdef uint32_t i, count = a.attr_count
    cdef CAttr* other
    cdef CAttr* sorted_a
    cdef CAttr* sorted_b
    cdef bint same
    if count != b.attr_count:
        return False
    # The same order (the usual case): one pass.
    for i in range(count):
        if a.attrs[i].local_name != b.attrs[i].local_name \
                or a.attrs[i].ns != b.attrs[i].ns:
            break
        if not same_value(&a.attrs[i], &b.attrs[i]):
            return False
    else:
        return True
    if count <= 16:
        for i in range(count):
            other = element_find_attribute(b, a.attrs[i].local_name, a.attrs[i].ns)
            if other == NULL or not same_value(&a.attrs[i], other):
                return False
        return True
    # Many attributes in another order: compare sorted copies (an element's
    # attribute names are unique).
    sorted_a = <CAttr*> malloc(2 * <size_t> count * sizeof(CAttr))
    if sorted_a == NULL:                # out of memory: the slow way
        for i in range(count):
            other = element_find_attribute(b, a.attrs[i].local_name, a.attrs[i].ns)
            if other == NULL or not same_value(&a.attrs[i], other):
                return False
        return True
    sorted_b = sorted_a + count
    memcpy(sorted_a, a.attrs, count * sizeof(CAttr))
    memcpy(sorted_b, b.attrs, count * sizeof(CAttr))
    qsort(sorted_a, count, sizeof(CAttr), compare_attributes)
    qsort(sorted_b, count, sizeof(CAttr), compare_attributes)
    same = True
    for i in range(count):
        if compare_attributes(&sorted_a[i], &sorted_b[i]) != 0 \
                or not same_value(&sorted_a[i], &sorted_b[i]):
            same = False
            break
    free(sorted_a)
    return same


# https://html.spec.whatwg.org/multipage/parsing.html#push-onto-the-list-of-active-formatting-elements
cdef int push_active_formatting_element(TreeBuilder* tb,
                                        CElement* element) noexcept nogil:
    cdef uint64_t signature
    cdef uint64_t* count
    cdef ssize_t i = <ssize_t> tb.formatting.count - 1
    cdef ssize_t earliest = -1
    cdef int matches = 0
    cdef CElement* entry
    if element.tag_id == TAG_A and element.ns == NS_HTML:
        # An a start tag first removes the a after the last marker (start_tag_a):
        # an a never has an equal entry after the marker, so the clause
        # below finds nothing for it, and no other element's clause
        # matches an a. So an a has no signature (0) and is not counted in
        # the table: no hashing, no table insertion or deletion per link.
        return formatting_append_entry(tb, element, 0)
    signature = formatting_signature(tb, element)
    # The Noah's Ark clause: at most three equal elements after the last
    # marker; the earliest goes. Fewer than three entries sharing the
    # signature: nothing to look for.
    if tb.formatting.noah_capacity != 0:
        count = noah_find(tb, noah_key(signature))
        if noah_count_of(count) >= 3:
            while i >= 0 and matches < 3:
                entry = created_for(&tb.formatting.entries[i])
                if entry == NULL:
                    break
                if (tb.formatting.entries[i].signature == signature
                        and entry.tag_id == element.tag_id and entry.ns == element.ns
                        and same_attributes(entry, element)):
                    matches += 1
                    earliest = i
                i -= 1
            if matches >= 3:
                formatting_remove_at(tb, <size_t> earliest)
    return formatting_append_entry(tb, element, signature)


cdef inline int push_active_formatting_a(TreeBuilder* tb,
                                         CElement* element) noexcept nogil:
    """push_active_formatting_element of an HTML a element (no signature,
    not in the Noah's Ark table: see there), inline when the list has room
    and no copy of the element is kept (formatting_append_entry's steps
    for it)."""
    cdef FormattingEntry* entry
    cdef size_t slot
    if tb.formatting.count == tb.formatting.capacity or tb.scripts_run:
        return formatting_append_entry(tb, element, 0)
    entry = &tb.formatting.entries[tb.formatting.count]
    entry.element = element
    entry.signature = 0
    entry.token = NULL
    tb.formatting.count += 1
    element.node.flags |= ELEMENT_IN_FORMATTING
    slot = formatting_slot(TAG_A)
    if slot != 0:
        tb.formatting.segment_counts[slot - 1] += 1
    return 0


cdef inline void formatting_remove_last(TreeBuilder* tb) noexcept nogil:
    """formatting_remove_at of the last entry, inline for an element with
    no signature (an a element: noah_forget's steps for it)."""
    cdef FormattingEntry* entry = &tb.formatting.entries[tb.formatting.count - 1]
    cdef size_t slot
    if entry.signature != 0 or entry.element == NULL:
        formatting_remove_at(tb, tb.formatting.count - 1)
        return
    entry.element.node.flags &= ~(<uint32_t> ELEMENT_IN_FORMATTING)
    slot = formatting_slot(entry.element.tag_id)
    if slot != 0 and tb.formatting.segment_counts[slot - 1] != 0:
        tb.formatting.segment_counts[slot - 1] -= 1
    tb.formatting.count -= 1


cdef ssize_t formatting_index(TreeBuilder* tb, CElement* element) noexcept nogil:
    cdef ssize_t i = <ssize_t> tb.formatting.count - 1
    if element == NULL or not (element.node.flags & ELEMENT_IN_FORMATTING):
        return -1
    while i >= 0:
        if tb.formatting.entries[i].element == element:
            return i
        i -= 1
    return -1


cdef void formatting_remove_at(TreeBuilder* tb, size_t index) noexcept nogil:
    noah_forget(tb, &tb.formatting.entries[index])
    if index + 1 < tb.formatting.count:       # (the last entry: nothing to move)
        memmove(&tb.formatting.entries[index], &tb.formatting.entries[index + 1],
                (tb.formatting.count - index - 1) * sizeof(FormattingEntry))
    tb.formatting.count -= 1


cdef void formatting_remove(TreeBuilder* tb, CElement* element) noexcept nogil:
    cdef ssize_t index = formatting_index(tb, element)
    if index >= 0:
        formatting_remove_at(tb, <size_t> index)


cdef int formatting_insert_at(TreeBuilder* tb, size_t index,
                              CElement* element) noexcept nogil:
    """Insert an element at `index` (after the last marker: the adoption
    agency's bookmark)."""
    cdef FormattingEntry entry
    if formatting_append(tb, element) != 0:
        return -1
    entry = tb.formatting.entries[tb.formatting.count - 1]
    memmove(&tb.formatting.entries[index + 1], &tb.formatting.entries[index],
            (tb.formatting.count - 1 - index) * sizeof(FormattingEntry))
    tb.formatting.entries[index] = entry
    return 0


cdef CElement* formatting_last_after_marker(TreeBuilder* tb,
                                            lxp_tag_id_t tag) noexcept nogil:
    """The last HTML element `tag` between the end of the list and the last
    marker (or the start of the list), or NULL."""
    cdef ssize_t i = <ssize_t> tb.formatting.count - 1
    cdef CElement* entry
    cdef size_t slot = formatting_slot(tag)
    if slot == 0 or tb.formatting.segment_counts[slot - 1] == 0:
        return NULL           # (a long list without the tag is not walked)
    while i >= 0:
        entry = tb.formatting.entries[i].element
        if entry == NULL:
            return NULL
        if entry.tag_id == tag and entry.ns == NS_HTML:
            return entry
        i -= 1
    return NULL


cdef bint formatting_counts_are_consistent(TreeBuilder* tb) noexcept nogil:
    """For the tests (quadratic): the counts after the last marker and the
    Noah's Ark counts are what a walk over the list finds."""
    cdef size_t counts[FORMATTING_TAG_SLOTS]
    cdef size_t i, j, same, signatures = 0
    cdef ssize_t k = <ssize_t> tb.formatting.count - 1
    cdef size_t markers = 0
    cdef uint64_t* count
    memset(counts, 0, sizeof(counts))
    while k >= 0 and tb.formatting.entries[k].element != NULL:
        if formatting_slot(tb.formatting.entries[k].element.tag_id) != 0:
            counts[formatting_slot(tb.formatting.entries[k].element.tag_id) - 1] += 1
        k -= 1
    if memcmp(counts, tb.formatting.segment_counts, sizeof(counts)) != 0:
        return False
    for i in range(tb.formatting.count):
        if tb.formatting.entries[i].element == NULL:
            markers += 1
            continue
        if tb.formatting.entries[i].signature == 0:
            # an a element, never in the table
            if not is_html_element(tb.formatting.entries[i].element, TAG_A):
                return False
            continue
        same = 0
        for j in range(tb.formatting.count):
            if tb.formatting.entries[j].element != NULL \
                    and tb.formatting.entries[j].signature == tb.formatting.entries[i].signature:
                if j < i:
                    break          # counted at its first entry
                same += 1
        else:
            signatures += 1
            count = noah_find(tb, noah_key(tb.formatting.entries[i].signature))
            if noah_count_of(count) != same:
                return False
    return markers == tb.formatting.markers and signatures == tb.formatting.noah_used


# https://html.spec.whatwg.org/multipage/parsing.html#clear-the-list-of-active-formatting-elements-up-to-the-last-marker
cdef void clear_active_formatting_to_last_marker(TreeBuilder* tb) noexcept nogil:
    cdef CElement* entry
    while tb.formatting.count > 0:
        tb.formatting.count -= 1
        entry = tb.formatting.entries[tb.formatting.count].element
        noah_forget(tb, &tb.formatting.entries[tb.formatting.count])
        if entry == NULL:
            return


cdef void formatting_release(TreeBuilder* tb) noexcept nogil:
    """Empty the whole list at once (when parsing stops; not in the
    standard, which drops the parser): the elements lose their
    ELEMENT_IN_FORMATTING bit, and the counts start over without a lookup
    per entry."""
    cdef size_t i
    for i in range(tb.formatting.count):
        if tb.formatting.entries[i].element != NULL:
            tb.formatting.entries[i].element.node.flags &= ~(<uint32_t> ELEMENT_IN_FORMATTING)
    tb.formatting.count = 0
    tb.formatting.markers = 0
    memset(tb.formatting.segment_counts, 0, sizeof(tb.formatting.segment_counts))
    free(tb.formatting.noah_counts)
    tb.formatting.noah_counts = NULL
    tb.formatting.noah_capacity = 0
    tb.formatting.noah_used = 0


# https://html.spec.whatwg.org/multipage/parsing.html#reconstruct-the-active-formatting-elements
cdef inline bint reconstruction_needed(TreeBuilder* tb) noexcept nogil:
    """Not steps 1 and 2's "stop": the list has entries, and its last is
    neither a marker nor an open element."""
    cdef CElement* entry
    if tb.formatting.count == 0:
        return False
    entry = tb.formatting.entries[tb.formatting.count - 1].element
    return not (entry == NULL or open_elements_contains(tb, entry))


cdef inline void reconstruct_active_formatting_elements(TreeBuilder* tb) noexcept nogil:
    """Steps 1 and 2 inline (nothing to do: the list is empty, or its last
    entry is a marker or an open element); the rest in reconstruct_from."""
    if reconstruction_needed(tb):
        reconstruct_from(tb, tb.formatting.count - 1)


cdef void reconstruct_from(TreeBuilder* tb, size_t index) noexcept nogil:
    cdef CElement* entry
    cdef CElement* element
    # Rewind: back to the entry after the last marker or element that is
    # still open.
    while index > 0:
        entry = tb.formatting.entries[index - 1].element
        if entry == NULL or open_elements_contains(tb, entry):
            break
        index -= 1
    # Create and advance.
    while index < tb.formatting.count:
        entry = created_for(&tb.formatting.entries[index])
        element = insert_clone_of_element(tb, entry)
        if element == NULL:
            return
        formatting_replace(tb, index, element)
        index += 1
