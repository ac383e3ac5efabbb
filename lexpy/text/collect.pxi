# The walk shared by inner_text and extract_text: the rendered text
# collection steps over the C tree, in tree order, without recursion (parent
# pointers; the list numbering is a heap stack), writing straight into a
# TextWriter.
#
# https://html.spec.whatwg.org/multipage/dom.html#rendered-text-collection-steps


cdef inline Box element_box(CElement* element, bint scripting) noexcept nogil:
    if element.ns == NS_HTML:
        return html_box(element, scripting)
    return foreign_box(element)


cdef inline bint is_html(CNode* node, lxp_tag_id_t tag) noexcept nogil:
    return node.type == ELEMENT_NODE and (<CElement*> node).ns == NS_HTML \
        and (<CElement*> node).tag_id == tag


cdef inline bint is_svg_text(CElement* element) noexcept nogil:
    return element.ns == NS_SVG and element.tag_id == TAG_TEXT


cdef bint has_later_cell(CNode* cell) noexcept nogil:
    """Whether the cell's box is not the last table-cell box of its row."""
    cdef CNode* sibling = cell.next
    while sibling != NULL:
        if (is_html(sibling, TAG_TD) or is_html(sibling, TAG_TH)) \
                and not has_attribute(<CElement*> sibling, ATTR_HIDDEN):
            return True
        sibling = sibling.next
    return False


cdef bint has_later_row(CNode* row) noexcept nogil:
    """Whether the row's box is not the last table-row box of its table
    (rows of the following row groups count)."""
    cdef CNode* sibling = row.next
    cdef CNode* group
    cdef CNode* child
    while sibling != NULL:
        if is_html(sibling, TAG_TR):
            return True
        sibling = sibling.next
    group = row.parent
    if group == NULL or not (is_html(group, TAG_TBODY) or is_html(group, TAG_THEAD)
                             or is_html(group, TAG_TFOOT)):
        return False
    sibling = group.next
    while sibling != NULL:
        if is_html(sibling, TAG_TBODY) or is_html(sibling, TAG_THEAD) \
                or is_html(sibling, TAG_TFOOT):
            child = sibling.first_child
            while child != NULL:
                if is_html(child, TAG_TR):
                    return True
                child = child.next
        elif is_html(sibling, TAG_TR):
            return True
        sibling = sibling.next
    return False


cdef bint element_being_rendered(CElement* element, bint scripting) noexcept nogil:
    """Whether the element has a box: it is in a document, and neither it
    nor an ancestor is display: none, inside a replaced element, or left
    out of its parent's boxes (child_has_box)."""
    cdef CNode* node = &element.node
    cdef CNode* parent
    cdef Box box
    while node != NULL:
        parent = node.parent
        if node.type == DOCUMENT_NODE:
            return True
        if node.type == ELEMENT_NODE:
            box = element_box(<CElement*> node, scripting)
            if box == BOX_NONE:
                return False
            if box == BOX_REPLACED and node != &element.node:
                return False
            if parent != NULL and not child_has_box(parent, node):
                return False
        node = parent
    return False


cdef inline bint children_rendered(Box box) noexcept nogil:
    return box != BOX_NONE and box != BOX_REPLACED and box != BOX_LINE_BREAK \
        and box != BOX_TABLE_COLUMN


cdef Box walk_box(CElement* element, TextOptions* o) noexcept nogil:
    """The box an element has in this walk: the UA stylesheet's, and for
    extract_text also no box for form controls, embedded content and SVG
    (noise in extracted text; an image's alternative text is an option)."""
    cdef Box box = element_box(element, o.scripting)
    cdef lxp_tag_id_t tag
    if o.mode == MODE_INNER_TEXT or box == BOX_NONE:
        return box
    if element.attr_count and hidden_by_author(element, o):
        return BOX_NONE
    tag = element.tag_id
    if element.ns == NS_SVG:
        return BOX_NONE
    if element.ns != NS_HTML:
        return box
    if box == BOX_REPLACED:
        if tag == TAG_IMG and o.alt_text:
            return BOX_INLINE
        return BOX_NONE
    if tag == TAG_SELECT or tag == TAG_BUTTON or tag == TAG_OPTION \
            or tag == TAG_OPTGROUP:
        return BOX_NONE
    return box


cdef bint style_hides(CAttr* style) noexcept nogil:
    """Whether an inline style says display: none or visibility: hidden
    (extract_text's noise heuristic: not CSS, a search for the two
    declarations, white space and case ignored)."""
    cdef uint8_t squeezed[512]
    cdef size_t length = 0
    cdef size_t i
    cdef uint8_t c
    for i in range(style.value_length):
        c = style.value[i]
        if is_collapsible(c):
            continue
        if length == sizeof(squeezed):
            break
        squeezed[length] = c + 0x20 if 0x41 <= c <= 0x5A else c
        length += 1
    for i in range(length):
        if (i == 0 or squeezed[i - 1] == 0x3B or squeezed[i - 1] == 0x7B) and (
                (i + 12 <= length and memcmp(squeezed + i, b"display:none", 12) == 0
                 and (i + 12 == length or squeezed[i + 12] == 0x3B or squeezed[i + 12] == 0x21))
                or (i + 17 <= length and memcmp(squeezed + i, b"visibility:hidden", 17) == 0)):
            return True
    return False


cdef bint hidden_by_author(CElement* element, TextOptions* o) noexcept nogil:
    """extract_text and to_markdown also leave out what the page hides
    itself: aria-hidden="true" and inline display: none / visibility:
    hidden (inner_text does not: it applies no author CSS)."""
    cdef CAttr* style = element_find_attribute(element, ATTR_STYLE, NS__UNDEF)
    if style != NULL and style_hides(style):
        return True
    if o.aria_hidden and attribute_equals(element, o.aria_hidden, "true"):
        return True
    return False


# -- extract_text's block structure --------------------------------------------

cdef uint32_t plain_breaks(CElement* element, Box box, Walk* walk) noexcept nogil:
    """Line breaks around a block in extract_text: a blank line around
    paragraphs, headings, preformatted text, quotations, tables, figures and
    outermost lists; one line break around other blocks and list items."""
    cdef lxp_tag_id_t tag = element.tag_id
    if element.ns != NS_HTML:
        return 1
    if box == BOX_PARAGRAPH or box == BOX_TABLE:
        return 2
    if tag == TAG_UL or tag == TAG_OL or tag == TAG_DL or tag == TAG_MENU \
            or tag == TAG_DIR:
        return 1 if walk.lists_length > 1 else 2
    if tag == TAG_H1 or tag == TAG_H2 or tag == TAG_H3 or tag == TAG_H4 \
            or tag == TAG_H5 or tag == TAG_H6 or tag == TAG_PRE \
            or tag == TAG_BLOCKQUOTE or tag == TAG_FIGURE or tag == TAG_HR \
            or tag == TAG_ADDRESS or tag == TAG_LISTING or tag == TAG_XMP \
            or tag == TAG_PLAINTEXT or tag == TAG_FIELDSET or tag == TAG_DETAILS:
        return 2
    return 1


cdef inline bint is_list(CElement* element) noexcept nogil:
    cdef lxp_tag_id_t tag = element.tag_id
    return element.ns == NS_HTML and (tag == TAG_UL or tag == TAG_OL
                                      or tag == TAG_MENU or tag == TAG_DIR)


cdef int64_t attribute_integer(CElement* element, lxp_attr_id_t name,
                               int64_t fallback) noexcept nogil:
    """The rules for parsing integers (leading white space, a sign, digits),
    https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#rules-for-parsing-integers"""
    cdef CAttr* attr = element_find_attribute(element, name, NS__UNDEF)
    cdef size_t i = 0
    cdef int64_t value = 0
    cdef bint negative = False
    cdef bint digits = False
    if attr == NULL:
        return fallback
    while i < attr.value_length and is_collapsible(attr.value[i]):
        i += 1
    if i < attr.value_length and (attr.value[i] == 0x2D or attr.value[i] == 0x2B):
        negative = attr.value[i] == 0x2D
        i += 1
    while i < attr.value_length and 0x30 <= attr.value[i] <= 0x39:
        if value < 1000000000:
            value = value * 10 + (attr.value[i] - 0x30)
        digits = True
        i += 1
    if not digits:
        return fallback
    return -value if negative else value


cdef int walk_push_list(Walk* walk, CElement* element) noexcept nogil:
    cdef int64_t* grown
    cdef size_t capacity
    if walk.lists_length == walk.lists_capacity:
        capacity = walk.lists_capacity * 2 if walk.lists_capacity else 16
        grown = <int64_t*> realloc(walk.lists, capacity * sizeof(int64_t))
        if grown == NULL:
            return -1
        walk.lists = grown
        walk.lists_capacity = capacity
    # An ordered list keeps its next number; an unordered one -1 (a bullet).
    walk.lists[walk.lists_length] = attribute_integer(element, ATTR_START, 1) \
        if element.tag_id == TAG_OL else -1
    walk.lists_length += 1
    return 0


cdef void write_list_marker(TextWriter* w, Walk* walk) noexcept nogil:
    cdef char marker[32]
    cdef size_t depth = walk.lists_length
    cdef size_t i
    cdef int64_t number
    writer_flush_breaks(w)
    # Two spaces per level of nesting, up to ten levels (deeper lists would
    # make the text quadratic in their depth).
    for i in range(1, depth if depth < 11 else 11):
        writer_raw(w, <const uint8_t*> "  ", 2)
    if depth == 0 or walk.lists[depth - 1] < 0:
        writer_raw(w, <const uint8_t*> "- ", 2)
    else:
        number = walk.lists[depth - 1]
        walk.lists[depth - 1] += 1
        snprintf(marker, sizeof(marker), "%lld. ", <long long> number)
        writer_raw(w, <const uint8_t*> marker, strlen(marker))
    w.line_start = True


cdef void write_link_target(TextWriter* w, CElement* element) noexcept nogil:
    """ ` (href)` after a link's text (extract_text's links option); page
    anchors and javascript: links are left out."""
    cdef CAttr* href = element_find_attribute(element, ATTR_HREF, NS__UNDEF)
    if href == NULL or href.value_length == 0 or href.value[0] == 0x23:
        return
    if href.value_length >= 11 and memcmp(href.value, b"javascript:", 11) == 0:
        return
    w.pending_space = False
    writer_string(w, <const uint8_t*> " (", 2)
    writer_raw(w, href.value, href.value_length)
    writer_raw_byte(w, 0x29)
    w.line_start = False


# -- entering and leaving an element -----------------------------------------

cdef void enter_element(TextWriter* w, CElement* element, Box box, Walk* walk,
                        TextOptions* o) noexcept nogil:
    cdef CAttr* alt
    if box == BOX_BLOCK or box == BOX_LIST_ITEM or box == BOX_TABLE \
            or box == BOX_TABLE_CAPTION or box == BOX_PARAGRAPH:
        if o.mode == MODE_INNER_TEXT:
            writer_break(w, 2 if box == BOX_PARAGRAPH else 1)
        else:
            if is_list(element):
                walk_push_list(walk, element)
            writer_break(w, plain_breaks(element, box, walk))
            if box == BOX_LIST_ITEM and element.tag_id == TAG_LI \
                    and o.list_bullets:
                write_list_marker(w, walk)
    elif box == BOX_TABLE_CELL or box == BOX_TABLE_ROW or box == BOX_TABLE_ROW_GROUP:
        writer_break(w, 0)
    elif box == BOX_INLINE_BLOCK:
        writer_atomic(w)
        w.line_start = True
    elif box == BOX_REPLACED:
        writer_atomic(w)
    elif box == BOX_LINE_BREAK:
        w.pending_space = False
        if o.mode == MODE_INNER_TEXT:
            writer_string(w, <const uint8_t*> "\n", 1)
        else:
            # extract_text: a line break; runs of <br> make at most a blank line
            w.pending_breaks = 2 if w.pending_breaks else 1
        w.line_start = True
    elif o.alt_text and element.tag_id == TAG_IMG and element.ns == NS_HTML:
        alt = element_find_attribute(element, ATTR_ALT, NS__UNDEF)
        if alt != NULL:
            writer_text(w, alt.value, alt.value_length, False)
    if is_preformatted(element):
        walk.preformatted += 1
    elif is_svg_text(element):
        walk.svg_text += 1


cdef void leave_element(TextWriter* w, CElement* element, Box box, Walk* walk,
                        TextOptions* o) noexcept nogil:
    if box == BOX_BLOCK or box == BOX_LIST_ITEM or box == BOX_TABLE \
            or box == BOX_TABLE_CAPTION or box == BOX_PARAGRAPH:
        if o.mode == MODE_INNER_TEXT:
            writer_break(w, 2 if box == BOX_PARAGRAPH else 1)
        else:
            writer_break(w, plain_breaks(element, box, walk))
            if is_list(element) and walk.lists_length:
                walk.lists_length -= 1
    elif box == BOX_TABLE_CELL:
        writer_break(w, 0)
        if has_later_cell(&element.node):
            writer_string(w, <const uint8_t*> "\t", 1)
    elif box == BOX_TABLE_ROW:
        writer_break(w, 0)
        if o.mode == MODE_INNER_TEXT:
            if has_later_row(&element.node):
                writer_string(w, <const uint8_t*> "\n", 1)
        else:
            writer_break(w, 1)
    elif box == BOX_TABLE_ROW_GROUP:
        writer_break(w, 0)
    elif box == BOX_INLINE_BLOCK:
        w.pending_space = False
        w.line_start = False
    elif o.links and element.tag_id == TAG_A and element.ns == NS_HTML:
        write_link_target(w, element)
    if is_preformatted(element):
        walk.preformatted -= 1
    elif is_svg_text(element):
        walk.svg_text -= 1


cdef void walk_start(Walk* walk, CNode* root) noexcept nogil:
    """The inherited state at the root: white-space: pre from a
    preformatted ancestor, SVG text from an SVG <text> ancestor."""
    cdef CNode* node = root
    memset(walk, 0, sizeof(Walk))
    while node != NULL:
        if node.type == ELEMENT_NODE:
            if is_preformatted(<CElement*> node):
                walk.preformatted = 1
            if is_svg_text(<CElement*> node):
                walk.svg_text = 1
        node = node.parent


cdef inline bint text_rendered(CNode* text, Walk* walk) noexcept nogil:
    cdef CNode* parent = text.parent
    if parent != NULL and parent.type == ELEMENT_NODE:
        if (<CElement*> parent).ns == NS_SVG:
            return walk.svg_text > 0
        if (<CElement*> parent).ns == NS_HTML:
            return child_has_box(parent, text)
    return True


cdef int collect_text(TextWriter* w, CNode* root, TextOptions* o) noexcept nogil:
    """Write the rendered text of root's children (root's own box is not
    considered: the caller decides about it). Elements flagged in
    o.removed (pre-order element indexes) are left out with their
    subtrees."""
    cdef Walk walk
    cdef CNode* node = root.first_child
    cdef CCharacterData* text
    cdef CElement* element
    cdef Box box
    cdef bint descend
    cdef size_t index = 0
    cdef CNode* kept = NULL               # the kept part (main content) we are in
    walk_start(&walk, root)
    while node != NULL:
        descend = False
        if node.type == TEXT_NODE:
            if (o.removed == NULL or kept != NULL) and text_rendered(node, &walk):
                text = <CCharacterData*> node
                writer_text(w, text.data, text.length, walk.preformatted > 0)
        elif node.type == ELEMENT_NODE:
            element = <CElement*> node
            if o.removed != NULL and o.removed[index] == 1:
                box = BOX_NONE
            elif not child_has_box(node.parent, node):
                box = BOX_NONE
            else:
                box = walk_box(element, o)
            if o.removed != NULL:
                if kept == NULL and o.removed[index] == 2 and box != BOX_NONE:
                    kept = node
                index += 1 if box != BOX_NONE and children_rendered(box) \
                    else o.subtree[index]
            if box != BOX_NONE:
                enter_element(w, element, box, &walk, o)
                if children_rendered(box) and node.first_child != NULL:
                    descend = True
                else:
                    leave_element(w, element, box, &walk, o)
                    if kept == node:
                        kept = NULL
        if descend:
            # The open element's box, for its leaving (a heap stack, one
            # byte per level).
            if walk.boxes_length == walk.boxes_capacity and grow_bytes(
                    &walk.boxes, &walk.boxes_capacity) != 0:
                w.failed = True
                break
            walk.boxes[walk.boxes_length] = <uint8_t> box
            walk.boxes_length += 1
            node = node.first_child
            continue
        while node.next == NULL:
            node = node.parent
            if node == root or node == NULL:
                node = NULL
                break
            walk.boxes_length -= 1
            element = <CElement*> node
            leave_element(w, element, <Box> walk.boxes[walk.boxes_length], &walk, o)
            if kept == node:
                kept = NULL
        if node == NULL:
            break
        node = node.next
    free(walk.lists)
    free(walk.boxes)
    return -1 if w.failed else 0


cdef int grow_bytes(uint8_t** array, size_t* capacity) noexcept nogil:
    cdef size_t new_capacity = capacity[0] * 2 if capacity[0] else 256
    cdef uint8_t* grown = <uint8_t*> realloc(array[0], new_capacity)
    if grown == NULL:
        return -1
    array[0] = grown
    capacity[0] = new_capacity
    return 0
