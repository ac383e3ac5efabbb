# The stack of open elements
# https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements
#
# An array of element pointers, index 0 the html element. The element kinds
# the standard names ("special", the scope boundaries, the elements with
# implied end tags) are category bits of names.h, looked up by
# [tag id][namespace], so every test here is an integer comparison.


# The kinds of key of the stack's index (open_elements.pxi), the fields of
# StackLinks.down and .up.
cdef enum:
    LINK_TAG = 0                  # same tag key
    LINK_BOUNDARY = 1             # 1..4: boundary of the same scope
    LINK_SPECIAL = 5              # special element
    LINK_LIST_STOP = 6            # special, other than address, div and p
    LINK_HTML = 7                 # HTML element
    LINK_FIELDS = 8


# The stack's index (not in the standard; open_elements.pxi): for an open
# element, the position + 1 of the previous open element sharing each of
# its keys (0: none), and of the next one above it (kept lazily: valid only
# while that element's `down` points back here).
cdef struct StackLinks:
    uint32_t down[LINK_FIELDS]
    uint32_t up[LINK_FIELDS]


# The stack of open elements (index 0 is the html element), with its index:
# what the standard finds by walking down the stack is looked up instead,
# so deep nesting stays linear.
cdef struct StackOfOpenElements:
    CElement** elements
    size_t count
    size_t capacity
    StackLinks* links             # parallel to elements
    # For each key, the position + 1 of the topmost open element that has
    # it (0: none).
    uint32_t* topmost_tag         # by tag key (tag_key)
    size_t topmost_tag_capacity
    uint32_t topmost_boundary[4]  # default, list item, button, table scope
    uint32_t topmost_special
    uint32_t topmost_list_stop
    uint32_t topmost_html
    size_t indexed                # places 0..indexed-1 are in the index;
                                  # those above are entered lazily
                                  # (index_sync), before the index is read
    size_t removed                # NULL places left by removals in the
                                  # middle (never the topmost; see
                                  # open_elements_remove_at)
    size_t unclosed               # open elements that are unclosed at the
                                  # end of the body (a parse error)
    bint detached                 # an open element left its parent (the
                                  # parser removed it, or a script moved
                                  # it): the stack is no longer the tree's
                                  # ancestry for what goes into it
    # The open HTML p and li elements (kept on every push and pop, index
    # or not): with none open, "has a p element in button scope" and the
    # li start tag's walk are answered without reading the index (which a
    # read would bring up to date: open_elements_counted).
    size_t open_p
    size_t open_li


# Not in the standard: CNode.flags bits the tree builder keeps on elements
# while it parses (the DOM's own bits are below 0x100): "is this element on
# the stack / in the list of active formatting elements" is a bit test.
cdef enum:
    ELEMENT_ON_STACK = 0x100
    ELEMENT_IN_FORMATTING = 0x200


# Not in the standard: the capacity an array grows to, doubling from
# `first` until it holds `needed` items of `item_size` bytes; 0 when that
# many bytes do not fit a size_t (the caller reports out of memory).
cdef size_t grown_capacity(size_t capacity, size_t needed, size_t first,
                           size_t item_size) noexcept nogil:
    cdef size_t limit = (<size_t> -1) // item_size
    if capacity == 0:
        capacity = first
    while capacity < needed:
        if capacity > limit // 2:
            return limit if needed <= limit else 0
        capacity *= 2
    return capacity if capacity <= limit else 0


cdef inline bint is_html_element(CElement* element, lxp_tag_id_t tag) noexcept nogil:
    """Whether `element` is the HTML element `tag` ("a p element")."""
    return element != NULL and element.tag_id == tag and element.ns == NS_HTML


cdef inline uint32_t element_category(CElement* element) noexcept nogil:
    return lxp_tag_category_of(element.tag_id, element.ns)


cdef inline CElement* current_node(TreeBuilder* tb) noexcept nogil:
    if tb.open.count == 0:
        return NULL
    return tb.open.elements[tb.open.count - 1]


# https://html.spec.whatwg.org/multipage/parsing.html#adjusted-current-node
cdef inline CElement* adjusted_current_node(TreeBuilder* tb) noexcept nogil:
    if tb.context_element != NULL and tb.open.count == 1:
        return tb.context_element
    return current_node(tb)


cdef inline bint current_node_is(TreeBuilder* tb, lxp_tag_id_t tag) noexcept nogil:
    return is_html_element(current_node(tb), tag)


# ---------------------------------------------------------------------------
# The stack's index (not in the standard)
#
# Many steps of the standard walk down the stack until they meet an element
# of some kind ("has a p element in button scope", "any other end tag", the
# li start tag, resetting the insertion mode, foster parenting, the foreign
# content end tag). On a deep stack each walk is long, and a document that
# repeats such a step is quadratic. So the stack keeps an index: for each
# key, the position + 1 of the topmost open element that has it (0: none),
# and for each open element the position + 1 of the previous open element
# with each of its keys (StackLinks). A push or a pop updates the index in
# constant time; a walk becomes a comparison of positions. The keys of an
# element:
#   its tag key: HTML elements by tag id, others by their lowercased tag id
#   (the foreign content end tag compares lowercased names);
#   each scope whose boundary it is (default, list item, button, table);
#   special; special other than address, div and p (where the li, dd and dt
#   start tags stop); in the HTML namespace.
# An open element also has the ELEMENT_ON_STACK bit.
#
# The index is kept lazily: a push only stores the element, and the places
# pushed since the index was last read enter it (in stack order, as eager
# pushes would have) when something reads it (index_sync). An element
# pushed and popped with no read of the index in between (a link, an
# inline element, a void element, closed by its own end tag as the current
# node) never enters it.
# ---------------------------------------------------------------------------

cdef uint32_t[4] SCOPE_BOUNDARIES = [CAT_SCOPE, CAT_SCOPE_LIST_ITEM,
                                     CAT_SCOPE_BUTTON, CAT_SCOPE_TABLE]
cdef enum:
    SCOPE_ANY = CAT_SCOPE | CAT_SCOPE_LIST_ITEM | CAT_SCOPE_BUTTON | CAT_SCOPE_TABLE


cdef inline int scope_kind(uint32_t boundary) noexcept nogil:
    """The topmost_boundary slot of a scope's boundary category bit."""
    if boundary == CAT_SCOPE:
        return 0
    if boundary == CAT_SCOPE_LIST_ITEM:
        return 1
    if boundary == CAT_SCOPE_BUTTON:
        return 2
    return 3


cdef inline lxp_tag_id_t lowercase_tag(lxp_tag_id_t tag) noexcept nogil:
    """The id of a tag name converted to ASCII lowercase (the tokenizer's
    names are lowercase already; the case-fixed SVG names are not)."""
    return lxp_tag_lower[tag] if tag < TAG__LAST_STATIC else tag


cdef inline size_t html_tag_key(lxp_tag_id_t tag) noexcept nogil:
    return 2 * <size_t> tag


cdef inline size_t foreign_tag_key(lxp_tag_id_t lowercase) noexcept nogil:
    return 2 * <size_t> lowercase + 1


cdef inline size_t tag_key(CElement* element) noexcept nogil:
    if element.ns == NS_HTML:
        return html_tag_key(element.tag_id)
    return foreign_tag_key(lowercase_tag(element.tag_id))


cdef void index_catch_up(TreeBuilder* tb) noexcept nogil:
    """Enter the places pushed since the index was last read."""
    while tb.open.indexed < tb.open.count:
        if tb.open.elements[tb.open.indexed] != NULL:
            index_enter(tb, tb.open.indexed)
        tb.open.indexed += 1


cdef inline void index_sync(TreeBuilder* tb) noexcept nogil:
    """The index covers the whole stack (before any read of it)."""
    if tb.open.indexed < tb.open.count:
        index_catch_up(tb)


cdef inline uint32_t topmost_of(TreeBuilder* tb, size_t key) noexcept nogil:
    """Position + 1 of the topmost open element with a tag key (0: none)."""
    index_sync(tb)
    return tb.open.topmost_tag[key] if key < tb.open.topmost_tag_capacity else 0


cdef inline uint32_t topmost_html_element(TreeBuilder* tb,
                                          lxp_tag_id_t tag) noexcept nogil:
    return topmost_of(tb, html_tag_key(tag))


cdef int reserve_tag_key(TreeBuilder* tb, size_t key) noexcept nogil:
    cdef size_t capacity = tb.open.topmost_tag_capacity
    cdef uint32_t* grown
    if key < capacity:
        return 0
    capacity = grown_capacity(capacity, key + 1, 2 * <size_t> TAG__LAST_STATIC,
                              sizeof(uint32_t))
    grown = <uint32_t*> realloc(tb.open.topmost_tag, capacity * sizeof(uint32_t)) \
        if capacity != 0 else NULL
    if grown == NULL:
        tb.halt.failed = True
        return -1
    memset(grown + tb.open.topmost_tag_capacity, 0,
           (capacity - tb.open.topmost_tag_capacity) * sizeof(uint32_t))
    tb.open.topmost_tag = grown
    tb.open.topmost_tag_capacity = capacity
    return 0


cdef inline void link_above(TreeBuilder* tb, StackLinks* links, int field,
                            uint32_t* topmost, uint32_t here) noexcept nogil:
    """The element at `here` becomes the topmost with a key: below the
    previous one (which gets its up link)."""
    links.down[field] = topmost[0]
    if topmost[0] != 0:
        tb.open.links[topmost[0] - 1].up[field] = here
    topmost[0] = here


# Not in the standard: an element's keys in the index (bit i: LINK field
# i; KEY_UNCLOSED: unclosed at the end of the body), by tag for the HTML
# elements of names.h (init_stack_keys), else worked out.
cdef enum:
    KEY_UNCLOSED = 1 << LINK_FIELDS

cdef uint16_t HTML_STACK_KEYS[TAG__LAST_STATIC]
cdef uint16_t SVG_STACK_KEYS[TAG__LAST_STATIC]
cdef uint16_t MATHML_STACK_KEYS[TAG__LAST_STATIC]


cdef uint32_t stack_keys_of(lxp_tag_id_t tag, lxp_ns_id_t ns) noexcept nogil:
    cdef uint32_t category = lxp_tag_category_of(tag, ns)
    cdef uint32_t keys = 1 << LINK_TAG
    cdef int k
    for k in range(4):
        if category & SCOPE_BOUNDARIES[k]:
            keys |= 1 << (LINK_BOUNDARY + k)
    if category & CAT_SPECIAL:
        keys |= 1 << LINK_SPECIAL
        if not (ns == NS_HTML and (tag == TAG_ADDRESS or tag == TAG_DIV or tag == TAG_P)):
            keys |= 1 << LINK_LIST_STOP        # special, other than address, div and p
    if ns == NS_HTML:
        keys |= 1 << LINK_HTML
        if category & CAT_IMPLIED_END_THOROUGH:
            if tag == TAG_CAPTION or tag == TAG_COLGROUP:
                keys |= KEY_UNCLOSED
        elif tag != TAG_BODY and tag != TAG_HTML:
            keys |= KEY_UNCLOSED
    else:
        keys |= KEY_UNCLOSED
    return keys


cdef void init_stack_keys() noexcept nogil:
    cdef size_t tag
    for tag in range(TAG__LAST_STATIC):
        HTML_STACK_KEYS[tag] = <uint16_t> stack_keys_of(<lxp_tag_id_t> tag, NS_HTML)
        SVG_STACK_KEYS[tag] = <uint16_t> stack_keys_of(<lxp_tag_id_t> tag, NS_SVG)
        MATHML_STACK_KEYS[tag] = <uint16_t> stack_keys_of(<lxp_tag_id_t> tag, NS_MATHML)


cdef inline uint32_t stack_keys(CElement* element) noexcept nogil:
    if element.tag_id < TAG__LAST_STATIC:
        if element.ns == NS_HTML:
            return HTML_STACK_KEYS[element.tag_id]
        if element.ns == NS_SVG:
            return SVG_STACK_KEYS[element.tag_id]
        if element.ns == NS_MATHML:
            return MATHML_STACK_KEYS[element.tag_id]
    return stack_keys_of(element.tag_id, element.ns)


cdef enum:
    KEYS_BOUNDARY = 0xF << LINK_BOUNDARY


cdef inline void index_enter(TreeBuilder* tb, size_t position) noexcept nogil:
    """Add the element at `position` (the topmost one indexed so far) to
    the index. Its tag key has room (reserve_tag_key)."""
    cdef CElement* element = tb.open.elements[position]
    cdef StackLinks* links = &tb.open.links[position]
    cdef uint32_t here = <uint32_t> (position + 1)
    cdef uint32_t keys = stack_keys(element)
    cdef int k
    element.node.flags |= ELEMENT_ON_STACK
    link_above(tb, links, LINK_TAG, &tb.open.topmost_tag[tag_key(element)], here)
    if keys & KEYS_BOUNDARY:
        for k in range(4):
            if keys & (1 << (LINK_BOUNDARY + k)):
                link_above(tb, links, LINK_BOUNDARY + k, &tb.open.topmost_boundary[k], here)
    if keys & (1 << LINK_SPECIAL):
        link_above(tb, links, LINK_SPECIAL, &tb.open.topmost_special, here)
        if keys & (1 << LINK_LIST_STOP):
            link_above(tb, links, LINK_LIST_STOP, &tb.open.topmost_list_stop, here)
    if keys & (1 << LINK_HTML):
        link_above(tb, links, LINK_HTML, &tb.open.topmost_html, here)
    if keys & KEY_UNCLOSED:
        tb.open.unclosed += 1


cdef inline void index_leave(TreeBuilder* tb, size_t position) noexcept nogil:
    """Take the element at `position` (the topmost one indexed) out of the
    index (the up link left below it is stale, which link_up tells)."""
    cdef CElement* element = tb.open.elements[position]
    cdef StackLinks* links = &tb.open.links[position]
    cdef uint32_t keys = stack_keys(element)
    cdef int k
    element.node.flags &= ~(<uint32_t> ELEMENT_ON_STACK)
    tb.open.topmost_tag[tag_key(element)] = links.down[LINK_TAG]
    if keys & KEYS_BOUNDARY:
        for k in range(4):
            if keys & (1 << (LINK_BOUNDARY + k)):
                tb.open.topmost_boundary[k] = links.down[LINK_BOUNDARY + k]
    if keys & (1 << LINK_SPECIAL):
        tb.open.topmost_special = links.down[LINK_SPECIAL]
        if keys & (1 << LINK_LIST_STOP):
            tb.open.topmost_list_stop = links.down[LINK_LIST_STOP]
    if keys & (1 << LINK_HTML):
        tb.open.topmost_html = links.down[LINK_HTML]
    if keys & KEY_UNCLOSED:
        tb.open.unclosed -= 1


cdef inline uint32_t link_fields(CElement* element) noexcept nogil:
    """The kinds of key an element has (bit i: LINK field i)."""
    return stack_keys(element) & ((1 << LINK_FIELDS) - 1)


cdef uint32_t* topmost_slot(TreeBuilder* tb, CElement* element, int field) noexcept nogil:
    if field == LINK_TAG:
        return &tb.open.topmost_tag[tag_key(element)]
    if field < LINK_SPECIAL:
        return &tb.open.topmost_boundary[field - LINK_BOUNDARY]
    if field == LINK_SPECIAL:
        return &tb.open.topmost_special
    if field == LINK_LIST_STOP:
        return &tb.open.topmost_list_stop
    return &tb.open.topmost_html


cdef inline bint shares_key(CElement* a, CElement* b, int field) noexcept nogil:
    """Whether `b` has `a`'s key of this kind."""
    if field == LINK_TAG:
        return tag_key(a) == tag_key(b)
    return (link_fields(b) >> field) & 1 != 0


cdef uint32_t link_up(TreeBuilder* tb, size_t position, int field) noexcept nogil:
    """Position + 1 of the next open element above `position` sharing its
    key of this kind (0: none): the up link, when it is still true."""
    cdef uint32_t up = tb.open.links[position].up[field]
    if up == 0 or up > tb.open.count or up - 1 <= position \
            or tb.open.elements[up - 1] == NULL:
        return 0
    if tb.open.links[up - 1].down[field] != position + 1 or not shares_key(
            tb.open.elements[position], tb.open.elements[up - 1], field):
        return 0
    return up


cdef void move_in_chain(TreeBuilder* tb, size_t old, StackLinks* saved,
                        size_t new, int field) noexcept nogil:
    """The element at `old` (whose links were `saved`) now is at `new`,
    with no other element of its key between: its neighbours in the chain
    of this key point to the new place."""
    cdef uint32_t down = saved.down[field]
    cdef uint32_t up = saved.up[field]
    cdef StackLinks* links = &tb.open.links[new]
    links.down[field] = down
    links.up[field] = up
    if down != 0:
        tb.open.links[down - 1].up[field] = <uint32_t> (new + 1)
    if up != 0:
        tb.open.links[up - 1].down[field] = <uint32_t> (new + 1)
    else:
        topmost_slot(tb, tb.open.elements[new], field)[0] = <uint32_t> (new + 1)


cdef void open_elements_swap(TreeBuilder* tb, size_t position) noexcept nogil:
    """Exchange the open elements at `position` and the one above it,
    updating the index in constant time (not in the standard)."""
    cdef CElement* lower = tb.open.elements[position]
    cdef CElement* upper = tb.open.elements[position + 1]
    cdef uint32_t lower_fields = link_fields(lower) if lower != NULL else 0
    cdef uint32_t upper_fields = link_fields(upper) if upper != NULL else 0
    cdef StackLinks lower_links, upper_links
    cdef int field
    cdef bint shared
    index_sync(tb)
    # The links as they are, with the up links made true.
    for field in range(LINK_FIELDS):
        lower_links.down[field] = tb.open.links[position].down[field]
        upper_links.down[field] = tb.open.links[position + 1].down[field]
        lower_links.up[field] = link_up(tb, position, field) \
            if (lower_fields >> field) & 1 else 0
        upper_links.up[field] = link_up(tb, position + 1, field) \
            if (upper_fields >> field) & 1 else 0
    tb.open.elements[position] = upper
    tb.open.elements[position + 1] = lower
    for field in range(LINK_FIELDS):
        if field == LINK_TAG:
            shared = lower != NULL and upper != NULL and tag_key(lower) == tag_key(upper)
        else:
            shared = (lower_fields >> field) & (upper_fields >> field) & 1 != 0
        if shared:
            continue          # both places keep the key: the chain stands
        if (lower_fields >> field) & 1:
            move_in_chain(tb, position, &lower_links, position + 1, field)
        if (upper_fields >> field) & 1:
            move_in_chain(tb, position + 1, &upper_links, position, field)


cdef bint stack_index_is_consistent(TreeBuilder* tb) noexcept nogil:
    """For the tests (quadratic): the index as a walk over the stack finds
    it; every open element has the ELEMENT_ON_STACK bit."""
    cdef size_t position, other
    cdef uint32_t fields, below, above
    cdef CElement* element
    cdef int field
    cdef size_t empty = 0
    cdef size_t open_p = 0
    cdef size_t open_li = 0
    if tb.open.count > 0 and tb.open.elements[tb.open.count - 1] == NULL:
        return False
    index_sync(tb)
    for position in range(tb.open.count):
        element = tb.open.elements[position]
        if element == NULL:
            empty += 1
            continue
        if is_html_element(element, TAG_P):
            open_p += 1
        elif is_html_element(element, TAG_LI):
            open_li += 1
        if not element.node.flags & ELEMENT_ON_STACK:
            return False
        fields = link_fields(element)
        for field in range(LINK_FIELDS):
            if not (fields >> field) & 1:
                continue
            below = above = 0
            other = position
            while other > 0:
                other -= 1
                if tb.open.elements[other] != NULL and \
                        shares_key(element, tb.open.elements[other], field):
                    below = <uint32_t> (other + 1)
                    break
            for other in range(position + 1, tb.open.count):
                if tb.open.elements[other] != NULL and \
                        shares_key(element, tb.open.elements[other], field):
                    above = <uint32_t> (other + 1)
                    break
            if tb.open.links[position].down[field] != below \
                    or link_up(tb, position, field) != above:
                return False
            if above == 0 and topmost_slot(tb, element, field)[0] != position + 1:
                return False
    return empty == tb.open.removed and open_p == tb.open.open_p \
        and open_li == tb.open.open_li


cdef int open_elements_reserve(TreeBuilder* tb, CElement* element) noexcept nogil:
    """Room for one more element (and its tag key in the index)."""
    cdef size_t capacity
    cdef CElement** items
    cdef StackLinks* links
    if reserve_tag_key(tb, tag_key(element)) != 0:
        return -1
    if tb.open.count < tb.open.capacity:
        return 0
    if tb.open.count >= <size_t> 0xFFFFFFFEU:  # positions are 32-bit
        tb.halt.failed = True
        return -1
    capacity = grown_capacity(tb.open.capacity, tb.open.count + 1, 16, sizeof(StackLinks))
    if capacity == 0:
        tb.halt.failed = True
        return -1
    items = <CElement**> realloc(tb.open.elements, capacity * sizeof(CElement*))
    if items == NULL:
        tb.halt.failed = True
        return -1
    tb.open.elements = items
    links = <StackLinks*> realloc(tb.open.links, capacity * sizeof(StackLinks))
    if links == NULL:
        tb.halt.failed = True
        return -1
    # (Up links are written lazily and checked against the down link before
    # use; zeroed, a read of one never written is still of defined memory.)
    memset(links + tb.open.capacity, 0, (capacity - tb.open.capacity) * sizeof(StackLinks))
    tb.open.links = links
    tb.open.capacity = capacity
    return 0


cdef inline int open_elements_push(TreeBuilder* tb, CElement* element) noexcept nogil:
    """Push an element (inline: the common case stores it and sets its
    ELEMENT_ON_STACK bit; open_elements_push_general does the rest)."""
    if element == NULL:
        return -1
    if tb.open.count < tb.open.capacity and tb.open.removed == 0 and not tb.observe_pushes \
            and element.ns == NS_HTML \
            and html_tag_key(element.tag_id) < tb.open.topmost_tag_capacity:
        tb.open.elements[tb.open.count] = element
        element.node.flags |= ELEMENT_ON_STACK     # (the index: lazily, index_sync)
        tb.open.count += 1
        open_elements_counted(tb, element, 1)
        return 0
    return open_elements_push_general(tb, element)


cdef int open_elements_push_general(TreeBuilder* tb, CElement* element) noexcept nogil:
    if tb.open.removed * 2 > tb.open.count:
        open_elements_compact(tb)
    if (tb.open.count >= tb.open.capacity or tag_key(element) >= tb.open.topmost_tag_capacity) \
            and open_elements_reserve(tb, element) != 0:
        return -1
    tb.open.elements[tb.open.count] = element
    element.node.flags |= ELEMENT_ON_STACK     # (the index: lazily, index_sync)
    tb.open.count += 1
    open_elements_counted(tb, element, 1)
    if tb.observe_pushes:
        tb.observer.pushed(tb.observer.context, element,
                           tb.open.elements[next_open_below(tb, tb.open.count - 1)]
                           if tb.open.count > 1 and next_open_below(tb, tb.open.count - 1) >= 0
                           else NULL)
    return 0


cdef void open_elements_pop(TreeBuilder* tb) noexcept nogil:
    """Pop the current node (running the steps the standard attaches to an
    element being popped)."""
    cdef CElement* element
    if tb.open.count == 0:
        return
    tb.open.count -= 1
    element = tb.open.elements[tb.open.count]
    open_elements_counted(tb, element, <size_t> -1)
    if tb.open.count < tb.open.indexed:
        index_leave(tb, tb.open.count)
        tb.open.indexed = tb.open.count
    else:
        element.node.flags &= ~(<uint32_t> ELEMENT_ON_STACK)   # never indexed
    drop_removed_places_on_top(tb)
    if tb.positions.end_tag != NULL:
        positions_popped(tb, element)
    element_popped(tb, element)
    if tb.observer != NULL:
        tb.observer.popped(tb.observer.context, element, True)


cdef inline void open_elements_pop_unindexed(TreeBuilder* tb) noexcept nogil:
    """open_elements_pop (the stack has more than one element), inline when
    the current node never entered the index and nothing watches a pop:
    no positions, no observer, no selectedcontent, no <template for>, no
    empty place below."""
    cdef CElement* element = tb.open.elements[tb.open.count - 1]
    if tb.open.count > tb.open.indexed and tb.open.removed == 0 \
            and tb.positions.end_tag == NULL and tb.observer == NULL \
            and tb.selectedcontent.count == 0 \
            and not (element.node.flags & ELEMENT_PATCHING):
        tb.open.count -= 1
        element.node.flags &= ~(<uint32_t> ELEMENT_ON_STACK)
        open_elements_counted(tb, element, <size_t> -1)
        return
    open_elements_pop(tb)


cdef inline void open_elements_counted(TreeBuilder* tb, CElement* element,
                                       size_t pushed) noexcept nogil:
    """Keep the counts of open p and li elements: `pushed` is 1 for a
    push, (size_t) -1 for a pop or removal."""
    if element.ns == NS_HTML:
        if element.tag_id == TAG_P:
            tb.open.open_p += pushed
        elif element.tag_id == TAG_LI:
            tb.open.open_li += pushed


cdef inline bint open_elements_contains(TreeBuilder* tb, CElement* element) noexcept nogil:
    return (element.node.flags & ELEMENT_ON_STACK) != 0


cdef ssize_t open_elements_index(TreeBuilder* tb, CElement* element) noexcept nogil:
    """Position of `element` in the stack, or -1 (a walk over the open
    elements with its tag key, from the top)."""
    cdef uint32_t position
    if element == NULL or not open_elements_contains(tb, element):
        return -1
    position = topmost_of(tb, tag_key(element))
    while position != 0:
        if tb.open.elements[position - 1] == element:
            return position - 1
        position = tb.open.links[position - 1].down[LINK_TAG]
    return -1


# ---------------------------------------------------------------------------
# Removal from the middle (not in the standard's terms): the element leaves
# its place empty (NULL) and the chains of its keys in constant time, so
# the positions above it stay and nothing is reindexed; a walk over the
# stack by position skips the empty places (next_open_below, ...above).
# The topmost place is never empty: a pop drops the empty places it
# uncovers. When half the places are empty, a push compacts the stack.
# ---------------------------------------------------------------------------

cdef inline void drop_removed_places_on_top(TreeBuilder* tb) noexcept nogil:
    while tb.open.count > 0 and tb.open.elements[tb.open.count - 1] == NULL:
        tb.open.count -= 1
        tb.open.removed -= 1
    if tb.open.indexed > tb.open.count:
        tb.open.indexed = tb.open.count


cdef inline ssize_t next_open_below(TreeBuilder* tb, ssize_t position) noexcept nogil:
    """The position of the open element right below `position` (-1: none)."""
    position -= 1
    while position >= 0 and tb.open.elements[position] == NULL:
        position -= 1
    return position


cdef void index_unlink(TreeBuilder* tb, size_t position) noexcept nogil:
    """Take the element at `position` out of the chains of its keys."""
    cdef CElement* element = tb.open.elements[position]
    cdef uint32_t fields = link_fields(element)
    cdef uint32_t down, up
    cdef int field
    index_sync(tb)
    for field in range(LINK_FIELDS):
        if not (fields >> field) & 1:
            continue
        down = tb.open.links[position].down[field]
        up = link_up(tb, position, field)
        if up != 0:
            tb.open.links[up - 1].down[field] = down
        else:
            topmost_slot(tb, element, field)[0] = down
        if down != 0:
            tb.open.links[down - 1].up[field] = up
    element.node.flags &= ~(<uint32_t> ELEMENT_ON_STACK)
    if stack_keys(element) & KEY_UNCLOSED:
        tb.open.unclosed -= 1


cdef void open_elements_remove_at(TreeBuilder* tb, size_t index) noexcept nogil:
    cdef CElement* element = tb.open.elements[index]
    if index + 1 == tb.open.count:
        open_elements_pop(tb)
        return
    index_unlink(tb, index)
    open_elements_counted(tb, element, <size_t> -1)
    tb.open.elements[index] = NULL
    tb.open.removed += 1
    if tb.positions.end_tag != NULL:
        positions_popped(tb, element)
    element_popped(tb, element)
    if tb.observer != NULL:
        tb.observer.popped(tb.observer.context, element, False)


cdef void open_elements_remove(TreeBuilder* tb, CElement* element) noexcept nogil:
    cdef ssize_t index = open_elements_index(tb, element)
    if index >= 0:
        open_elements_remove_at(tb, <size_t> index)


cdef void open_elements_compact(TreeBuilder* tb) noexcept nogil:
    """Close the empty places: the elements above the first one are taken
    out of the index, moved down and indexed again (linear, once per as
    many removals as there are elements left)."""
    cdef size_t start = 0
    cdef size_t position, kept
    index_sync(tb)
    while start < tb.open.count and tb.open.elements[start] != NULL:
        start += 1
    if start == tb.open.count:
        tb.open.removed = 0
        return
    position = tb.open.count
    while position > start:
        position -= 1
        if tb.open.elements[position] != NULL:
            index_leave(tb, position)
    kept = start
    for position in range(start, tb.open.count):
        if tb.open.elements[position] != NULL:
            tb.open.elements[kept] = tb.open.elements[position]
            kept += 1
    tb.open.count = kept
    tb.open.removed = 0
    for position in range(start, kept):
        index_enter(tb, position)
    tb.open.indexed = kept


cdef void open_elements_replace_at(TreeBuilder* tb, size_t index,
                                   CElement* element) noexcept nogil:
    """Put `element` (a clone of the one at `index`: the same keys) in its
    place."""
    cdef CElement* replaced = tb.open.elements[index]
    replaced.node.flags &= ~(<uint32_t> ELEMENT_ON_STACK)
    tb.open.elements[index] = element
    element.node.flags |= ELEMENT_ON_STACK
    if tb.observer != NULL:
        tb.observer.popped(tb.observer.context, replaced, False)
        if tb.observe_pushes:
            tb.observer.pushed(tb.observer.context, element, NULL)


cdef void pop_until_tag(TreeBuilder* tb, lxp_tag_id_t tag) noexcept nogil:
    """Pop elements until an HTML element `tag` has been popped."""
    cdef CElement* element
    while tb.open.count > 0:
        element = current_node(tb)
        open_elements_pop(tb)
        if is_html_element(element, tag):
            return


cdef void pop_until_one_of(TreeBuilder* tb, lxp_tag_id_t first,
                           lxp_tag_id_t second) noexcept nogil:
    """Pop elements until an HTML element `first` or `second` has been popped."""
    cdef CElement* element
    while tb.open.count > 0:
        element = current_node(tb)
        open_elements_pop(tb)
        if is_html_element(element, first) or is_html_element(element, second):
            return


cdef void pop_until_category(TreeBuilder* tb, uint32_t category) noexcept nogil:
    """Pop elements until one of a category (e.g. a heading) has been popped."""
    cdef CElement* element
    while tb.open.count > 0:
        element = current_node(tb)
        open_elements_pop(tb)
        if element_category(element) & category:
            return


cdef void pop_until_element(TreeBuilder* tb, CElement* target) noexcept nogil:
    cdef CElement* element
    while tb.open.count > 0:
        element = current_node(tb)
        open_elements_pop(tb)
        if element == target:
            return


cdef bint has_template_on_stack(TreeBuilder* tb) noexcept nogil:
    """"There is a template element on the stack of open elements"."""
    return topmost_html_element(tb, TAG_TEMPLATE) != 0


# https://html.spec.whatwg.org/multipage/parsing.html#parsing-template-contents
cdef inline bint parsing_template_contents(TreeBuilder* tb) noexcept nogil:
    """A template element is open, or the fragment case has a template
    context element: the form element pointer is not used
    (whatwg/html#12911)."""
    return has_template_on_stack(tb) or (
        tb.context_element != NULL and is_html_element(tb.context_element, TAG_TEMPLATE))


# https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-the-specific-scope
# `boundary` is one of the scope category bits: CAT_SCOPE (default scope),
# CAT_SCOPE_LIST_ITEM, CAT_SCOPE_BUTTON, CAT_SCOPE_TABLE. Walking down from
# the current node, the target is met before any boundary when its position
# is at least the topmost boundary's (an element can be both).

cdef inline bint in_scope_at(TreeBuilder* tb, uint32_t position,
                             uint32_t boundary) noexcept nogil:
    index_sync(tb)
    return position != 0 and position >= tb.open.topmost_boundary[scope_kind(boundary)]


cdef bint has_in_scope(TreeBuilder* tb, lxp_tag_id_t tag,
                       uint32_t boundary) noexcept nogil:
    """Whether the stack has an HTML element `tag` in the given scope."""
    return in_scope_at(tb, topmost_html_element(tb, tag), boundary)


cdef bint has_one_of_in_scope(TreeBuilder* tb, lxp_tag_id_t first,
                              lxp_tag_id_t second, lxp_tag_id_t third,
                              uint32_t boundary) noexcept nogil:
    """Whether the stack has an HTML element of one of up to three tags (0:
    unused) in the given scope."""
    cdef uint32_t position = topmost_html_element(tb, first)
    cdef uint32_t other = topmost_html_element(tb, second)
    if other > position:
        position = other
    if third != 0:
        other = topmost_html_element(tb, third)
        if other > position:
            position = other
    return in_scope_at(tb, position, boundary)


cdef lxp_tag_id_t[6] HEADINGS = [TAG_H1, TAG_H2, TAG_H3, TAG_H4, TAG_H5, TAG_H6]


cdef bint has_heading_in_scope(TreeBuilder* tb, uint32_t boundary) noexcept nogil:
    """Whether the stack has "an h1, h2, h3, h4, h5, or h6 element" in the
    given scope."""
    cdef uint32_t position = 0
    cdef uint32_t other
    cdef int i
    for i in range(6):
        other = topmost_html_element(tb, HEADINGS[i])
        if other > position:
            position = other
    return in_scope_at(tb, position, boundary)


cdef bint has_element_in_scope(TreeBuilder* tb, CElement* target,
                               uint32_t boundary) noexcept nogil:
    """Whether the stack has this very element in the given scope."""
    return in_scope_at(tb, <uint32_t> (open_elements_index(tb, target) + 1), boundary)


# https://html.spec.whatwg.org/multipage/parsing.html#generate-implied-end-tags

cdef void generate_implied_end_tags(TreeBuilder* tb,
                                    lxp_tag_id_t exception) noexcept nogil:
    """Pop while the current node has an implied end tag, except an HTML
    element `exception` (0: none)."""
    cdef CElement* node
    while tb.open.count > 0:
        node = current_node(tb)
        if not (element_category(node) & CAT_IMPLIED_END):
            return
        if exception != 0 and node.tag_id == exception:
            return
        open_elements_pop(tb)


cdef void generate_all_implied_end_tags_thoroughly(TreeBuilder* tb) noexcept nogil:
    while tb.open.count > 0 and (element_category(current_node(tb))
                                 & CAT_IMPLIED_END_THOROUGH):
        open_elements_pop(tb)


# https://html.spec.whatwg.org/multipage/parsing.html#close-a-p-element
cdef void close_p_element(TreeBuilder* tb) noexcept nogil:
    generate_implied_end_tags(tb, TAG_P)
    if not current_node_is(tb, TAG_P):
        parse_error(tb, "unclosed-elements-before-p-end")
    pop_until_tag(tb, TAG_P)


cdef inline void close_p_element_in_button_scope(TreeBuilder* tb) noexcept nogil:
    """"If the stack of open elements has a p element in button scope, then
    close a p element" (the opening step of many start tags)."""
    if tb.open.open_p != 0 and has_in_scope(tb, TAG_P, CAT_SCOPE_BUTTON):
        close_p_element(tb)


# https://html.spec.whatwg.org/multipage/parsing.html#clear-the-stack-back-to-a-table-context
cdef void clear_stack_back_to_table_context(TreeBuilder* tb) noexcept nogil:
    cdef CElement* node
    while tb.open.count > 0:
        node = current_node(tb)
        if node.ns == NS_HTML and (node.tag_id == TAG_TABLE
                                   or node.tag_id == TAG_TEMPLATE
                                   or node.tag_id == TAG_HTML):
            return
        open_elements_pop(tb)


# https://html.spec.whatwg.org/multipage/parsing.html#clear-the-stack-back-to-a-table-body-context
cdef void clear_stack_back_to_table_body_context(TreeBuilder* tb) noexcept nogil:
    cdef CElement* node
    while tb.open.count > 0:
        node = current_node(tb)
        if node.ns == NS_HTML and (node.tag_id == TAG_TBODY
                                   or node.tag_id == TAG_TFOOT
                                   or node.tag_id == TAG_THEAD
                                   or node.tag_id == TAG_TEMPLATE
                                   or node.tag_id == TAG_HTML):
            return
        open_elements_pop(tb)


# https://html.spec.whatwg.org/multipage/parsing.html#clear-the-stack-back-to-a-table-row-context
cdef void clear_stack_back_to_table_row_context(TreeBuilder* tb) noexcept nogil:
    cdef CElement* node
    while tb.open.count > 0:
        node = current_node(tb)
        if node.ns == NS_HTML and (node.tag_id == TAG_TR
                                   or node.tag_id == TAG_TEMPLATE
                                   or node.tag_id == TAG_HTML):
            return
        open_elements_pop(tb)
