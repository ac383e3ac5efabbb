# The list of active formatting elements
# https://html.spec.whatwg.org/multipage/parsing.html#the-list-of-active-formatting-elements
#
# An array of entries, an element or a marker (element NULL). The token an
# element was created for is the element itself: "create an element for the
# token for which the element was created" is a shallow clone (same tag,
# namespace and attributes), as nothing changes a formatting element's
# attributes while the parser runs.


# Not in the standard: elements in the list carry the ELEMENT_IN_FORMATTING
# bit (see open_elements.pxi), so that asking for the index of an element
# that is not there costs nothing; and a table of counts per (signature,
# depth) lets the Noah's Ark clause skip its scan unless three equal
# elements may be after the last marker. Both keep hostile inputs (many
# distinct formatting elements, <a><div> repeated) linear.

cdef uint64_t element_signature(CElement* element) noexcept nogil:
    """A hash of the tag, namespace and attributes (in any order): equal
    elements in the sense of the Noah's Ark clause have equal signatures."""
    cdef uint64_t h = 1469598103934665603ULL ^ element.tag_id
    cdef uint64_t attributes = 0
    cdef uint64_t a
    cdef uint32_t i
    cdef size_t k
    cdef CAttr* attr
    h = (h ^ element.ns) * 1099511628211ULL
    for i in range(element.attr_count):
        attr = &element.attrs[i]
        a = (14695981039346656037ULL ^ attr.local_name) * 1099511628211ULL
        a = (a ^ attr.ns) * 1099511628211ULL
        for k in range(attr.value_length):
            a = (a ^ attr.value[k]) * 1099511628211ULL
        attributes += a ^ (a >> 29)
    return (h ^ attributes) * 1099511628211ULL


cdef inline size_t noah_slot(TreeBuilder* tb, uint64_t signature,
                             uint32_t depth) noexcept nogil:
    cdef uint64_t h = signature ^ (<uint64_t> depth * 0x9E3779B97F4A7C15ULL)
    h ^= h >> 33                          # murmur3's finalizer: every bit
    h *= 0xFF51AFD7ED558CCDULL            # of the signature reaches the
    h ^= h >> 33                          # slot's low bits
    h *= 0xC4CEB9FE1A85EC53ULL
    h ^= h >> 33
    return <size_t> (h & tb.noah_mask)


cdef inline void noah_count(TreeBuilder* tb, FormattingEntry* entry,
                            int delta) noexcept nogil:
    if entry.element != NULL and tb.noah_counts != NULL:
        tb.noah_counts[noah_slot(tb, entry.signature, entry.depth)] += delta


cdef int noah_counts_resize(TreeBuilder* tb, size_t capacity) noexcept nogil:
    """Sixteen slots per entry of the list (so that three unequal entries
    rarely share a slot and force a scan): recount every entry."""
    cdef size_t slots = 64
    cdef size_t i
    cdef uint32_t* counts
    while slots < 16 * capacity:
        slots *= 2
    counts = <uint32_t*> calloc(slots, sizeof(uint32_t))
    if counts == NULL:
        return -1
    free(tb.noah_counts)
    tb.noah_counts = counts
    tb.noah_mask = slots - 1
    for i in range(tb.formatting_count):
        noah_count(tb, &tb.formatting[i], 1)
    return 0


cdef int formatting_append(TreeBuilder* tb, CElement* element) noexcept nogil:
    cdef size_t capacity
    cdef FormattingEntry* items
    cdef FormattingEntry* entry
    if tb.formatting_count == tb.formatting_capacity:
        capacity = tb.formatting_capacity * 2 if tb.formatting_capacity else 32
        items = <FormattingEntry*> realloc(tb.formatting,
                                           capacity * sizeof(FormattingEntry))
        if items == NULL:
            tb.failed = True
            return -1
        tb.formatting = items
        tb.formatting_capacity = capacity
        if noah_counts_resize(tb, capacity) != 0:
            tb.failed = True
            return -1
    entry = &tb.formatting[tb.formatting_count]
    entry.element = element
    entry.depth = tb.marker_count
    if element == NULL:
        entry.signature = 0
        tb.marker_count += 1
    else:
        entry.signature = element_signature(element)
        element.node.flags |= ELEMENT_IN_FORMATTING
        noah_count(tb, entry, 1)
    tb.formatting_count += 1
    return 0


cdef inline void formatting_replace(TreeBuilder* tb, size_t index,
                                    CElement* element) noexcept nogil:
    """Put `element` (a clone: the same signature) in an entry's place."""
    tb.formatting[index].element.node.flags &= ~ELEMENT_IN_FORMATTING
    tb.formatting[index].element = element
    element.node.flags |= ELEMENT_IN_FORMATTING


# https://html.spec.whatwg.org/multipage/parsing.html#insert-a-marker-at-the-end-of-the-list-of-active-formatting-elements
cdef inline int insert_marker(TreeBuilder* tb) noexcept nogil:
    return formatting_append(tb, NULL)


cdef bint same_attributes(CElement* a, CElement* b) noexcept nogil:
    """Whether two elements have the same attributes (names, namespaces and
    values, in any order)."""
    cdef uint32_t i
    cdef CAttr* attr
    cdef CAttr* other
    if a.attr_count != b.attr_count:
        return False
    for i in range(a.attr_count):
        attr = &a.attrs[i]
        other = element_find_attribute(b, attr.local_name, attr.ns)
        if other == NULL or other.value_length != attr.value_length:
            return False
        if attr.value_length and memcmp(other.value, attr.value,
                                        attr.value_length) != 0:
            return False
    return True


# https://html.spec.whatwg.org/multipage/parsing.html#push-onto-the-list-of-active-formatting-elements
cdef int push_active_formatting_element(TreeBuilder* tb,
                                        CElement* element) noexcept nogil:
    cdef ssize_t i = <ssize_t> tb.formatting_count - 1
    cdef ssize_t earliest = -1
    cdef int matches = 0
    cdef CElement* entry
    cdef uint64_t signature = element_signature(element)
    # The Noah's Ark clause: at most three equal elements after the last
    # marker; the earliest goes. (There are never more than three, so the
    # scan ends at the third.)
    if tb.noah_counts == NULL or \
            tb.noah_counts[noah_slot(tb, signature, tb.marker_count)] < 3:
        return formatting_append(tb, element)
    while i >= 0 and matches < 3:
        entry = tb.formatting[i].element
        if entry == NULL:
            break
        if (tb.formatting[i].signature == signature and entry.tag_id == element.tag_id
                and entry.ns == element.ns and same_attributes(entry, element)):
            matches += 1
            earliest = i
        i -= 1
    if matches >= 3:
        formatting_remove_at(tb, <size_t> earliest)
    return formatting_append(tb, element)


cdef ssize_t formatting_index(TreeBuilder* tb, CElement* element) noexcept nogil:
    cdef ssize_t i = <ssize_t> tb.formatting_count - 1
    if element == NULL or not element.node.flags & ELEMENT_IN_FORMATTING:
        return -1
    while i >= 0:
        if tb.formatting[i].element == element:
            return i
        i -= 1
    return -1


cdef void formatting_remove_at(TreeBuilder* tb, size_t index) noexcept nogil:
    cdef size_t i
    cdef FormattingEntry* entry = &tb.formatting[index]
    if entry.element == NULL:
        tb.marker_count -= 1
    else:
        noah_count(tb, entry, -1)
        entry.element.node.flags &= ~ELEMENT_IN_FORMATTING
    for i in range(index, tb.formatting_count - 1):
        tb.formatting[i] = tb.formatting[i + 1]
    tb.formatting_count -= 1


cdef void formatting_remove(TreeBuilder* tb, CElement* element) noexcept nogil:
    cdef ssize_t index = formatting_index(tb, element)
    if index >= 0:
        formatting_remove_at(tb, <size_t> index)


cdef int formatting_insert_at(TreeBuilder* tb, size_t index,
                              CElement* element) noexcept nogil:
    cdef size_t i
    cdef FormattingEntry entry
    if formatting_append(tb, element) != 0:
        return -1
    entry = tb.formatting[tb.formatting_count - 1]
    i = tb.formatting_count - 1
    while i > index:
        tb.formatting[i] = tb.formatting[i - 1]
        i -= 1
    tb.formatting[index] = entry
    return 0


cdef CElement* formatting_last_after_marker(TreeBuilder* tb,
                                            lxp_tag_id_t tag) noexcept nogil:
    """The last HTML element `tag` between the end of the list and the last
    marker (or the start of the list), or NULL."""
    cdef ssize_t i = <ssize_t> tb.formatting_count - 1
    cdef CElement* entry
    while i >= 0:
        entry = tb.formatting[i].element
        if entry == NULL:
            return NULL
        if entry.tag_id == tag and entry.ns == NS_HTML:
            return entry
        i -= 1
    return NULL


# https://html.spec.whatwg.org/multipage/parsing.html#clear-the-list-of-active-formatting-elements-up-to-the-last-marker
cdef void clear_active_formatting_to_last_marker(TreeBuilder* tb) noexcept nogil:
    cdef CElement* entry
    while tb.formatting_count > 0:
        tb.formatting_count -= 1
        entry = tb.formatting[tb.formatting_count].element
        if entry == NULL:
            tb.marker_count -= 1
            return
        noah_count(tb, &tb.formatting[tb.formatting_count], -1)
        entry.node.flags &= ~ELEMENT_IN_FORMATTING


# https://html.spec.whatwg.org/multipage/parsing.html#reconstruct-the-active-formatting-elements
cdef void reconstruct_active_formatting_elements(TreeBuilder* tb) noexcept nogil:
    cdef size_t index
    cdef CElement* entry
    cdef CElement* element
    if tb.formatting_count == 0:
        return
    index = tb.formatting_count - 1
    entry = tb.formatting[index].element
    if entry == NULL or open_elements_contains(tb, entry):
        return
    # Rewind: back to the entry after the last marker or element that is
    # still open.
    while index > 0:
        entry = tb.formatting[index - 1].element
        if entry == NULL or open_elements_contains(tb, entry):
            break
        index -= 1
    # Create and advance.
    while index < tb.formatting_count:
        entry = tb.formatting[index].element
        element = insert_clone_of_element(tb, entry)
        if element == NULL:
            return
        formatting_replace(tb, index, element)
        index += 1
