# Creating and inserting nodes
# https://html.spec.whatwg.org/multipage/parsing.html#creating-and-inserting-nodes
#
# Attribute values and comment data are converted here, once, from the
# token's ranges straight into DOM memory (DESIGN.md decision 3).


cdef struct InsertionLocation:
    CNode* parent
    CNode* before                 # NULL: after the parent's last child


cdef inline bint is_foster_parenting_target(CElement* element) noexcept nogil:
    return element.ns == NS_HTML and (element.tag_id == TAG_TABLE
                                      or element.tag_id == TAG_TBODY
                                      or element.tag_id == TAG_TFOOT
                                      or element.tag_id == TAG_THEAD
                                      or element.tag_id == TAG_TR)


cdef inline InsertionLocation inside(TreeBuilder* tb, CElement* target) noexcept nogil:
    """The end of `target`, where a template element's contents (or a
    <template for>'s insertion target) stand in for the template itself
    (the tail of "the appropriate place for inserting a node")."""
    cdef InsertionLocation location
    if target.tag_id == TAG_TEMPLATE and target.ns == NS_HTML:
        return template_insertion_location(tb, target)
    location.parent = &target.node
    location.before = NULL
    return location


# https://html.spec.whatwg.org/multipage/parsing.html#appropriate-place-for-inserting-a-node
cdef inline InsertionLocation appropriate_place(TreeBuilder* tb,
                                                CElement* override_target) noexcept nogil:
    """Inline when there is neither foster parenting nor a template target:
    the end of the target; else appropriate_place_in_general."""
    cdef InsertionLocation location
    cdef CElement* target = override_target if override_target != NULL \
        else current_node(tb)
    if not tb.foster_parenting and target != NULL \
            and not (target.tag_id == TAG_TEMPLATE and target.ns == NS_HTML):
        location.parent = &target.node
        location.before = NULL
        return location
    return appropriate_place_in_general(tb, override_target)


cdef InsertionLocation appropriate_place_in_general(TreeBuilder* tb,
                                                    CElement* override_target) noexcept nogil:
    cdef InsertionLocation location
    cdef CElement* target = override_target if override_target != NULL \
        else current_node(tb)
    cdef ssize_t last_template
    cdef ssize_t last_table
    cdef CElement* node
    location.before = NULL
    if tb.foster_parenting and is_foster_parenting_target(target):
        # Foster parenting (the last template and the last table: from the
        # stack's index). What is inserted here is out of tree order.
        tb.patching.order_unsure = True
        last_template = <ssize_t> topmost_html_element(tb, TAG_TEMPLATE) - 1
        last_table = <ssize_t> topmost_html_element(tb, TAG_TABLE) - 1
        if last_template >= 0 and (last_table < 0 or last_template > last_table):
            return inside(tb, tb.open.elements[last_template])
        if last_table < 0:
            # The fragment case: the html element.
            location.parent = &tb.open.elements[0].node
            return location
        node = tb.open.elements[last_table]
        if tb.positions.on:
            node.node.flags |= NODE_FLAG_SOURCE_GATHERED   # (positions: to_source)
        if node.node.parent != NULL:
            location.parent = node.node.parent
            location.before = &node.node
            return location
        return inside(tb, tb.open.elements[next_open_below(tb, last_table)])
    return inside(tb, target)


cdef inline void insert_at(InsertionLocation location, CNode* node) noexcept nogil:
    if location.before != NULL:
        node_insert_before(location.parent, node, location.before)
    elif node.parent == NULL:
        node_append_new_child(location.parent, node)
    else:
        node_append_child(location.parent, node)


# ---------------------------------------------------------------------------
# Elements
# ---------------------------------------------------------------------------

cdef uint8_t* convert_into_dom(TreeBuilder* tb, const uint8_t* source,
                               size_t length, uint32_t flags,
                               size_t* written) noexcept nogil:
    """Convert a range into fresh DOM memory (attribute values, DOCTYPE
    fields, PI targets); NULL when out of memory."""
    cdef size_t room = conversion_room(length, flags)
    cdef uint8_t* memory = dom_alloc(tb.document, room if room else 1)
    if memory == NULL:
        tb.halt.failed = True
        written[0] = 0
        return NULL
    written[0] = convert_text(source, length, flags, memory) if length else 0
    dom_shrink(tb.document, memory, room if room else 1, written[0])
    return memory


# https://html.spec.whatwg.org/multipage/parsing.html#create-an-element-for-the-token
cdef CElement* create_element_for_token(TreeBuilder* tb, Token* token,
                                        lxp_ns_id_t ns) noexcept nogil:
    """A new element for a start tag token in namespace `ns`, its attributes
    converted into DOM memory; for SVG and MathML with the tag name and
    attribute adjustments of the standard."""
    cdef lxp_tag_id_t tag = token.tag_id
    cdef CElement* element
    cdef TokenAttr* attr
    cdef CAttr* item
    cdef size_t i, length, extra = 0
    cdef uint32_t flags = 0
    cdef uint8_t* values
    cdef uint8_t* cursor
    cdef lxp_attr_id_t name, local_name, prefix
    cdef lxp_ns_id_t attr_ns
    cdef uint32_t count = <uint32_t> token.attr_count
    cdef bint in_source
    if ns == NS_SVG and tag < TAG__LAST_STATIC:
        tag = lxp_tag_svg_adjusted[tag]          # adjust SVG tag names
    # The element, its attribute array and its values: one allocation (the
    # values are converted one after another into it, the unused tail given
    # back). The room: the values' bytes (disjoint ranges of the token's
    # data), three times that when any value has U+0000 or a reference
    # (conversion_room).
    if token.attr_count > <size_t> UINT32_MAX:
        tb.halt.failed = True
        return NULL
    # (An HTML element's values that need no conversion point into the
    # document's kept input when the tag is in it: no room for them.)
    in_source = ns == NS_HTML and count != 0 and dom_in_source(
        tb.document, token.data + token.begin, token.end - token.begin)
    for i in range(count):
        attr = &token.attrs[i]
        if in_source and not attr.flags & DATA_NEEDS_CONVERSION:
            continue
        extra += attr.value_end - attr.value_begin
        flags |= attr.flags
    extra = conversion_room(extra, flags)
    if extra == <size_t> -1:
        tb.halt.failed = True
        return NULL
    element = element_create_with_room(tb.document, tag, ns, count, extra, &values)
    if element == NULL:
        tb.halt.failed = True
        return NULL
    if tb.positions.on and token.data != NULL and not token.type & TOKEN_END_TAG:
        positions_set_token(tb, &element.node, token)
    cursor = values
    if ns == NS_HTML:
        # (element_append_attribute, each field written once)
        item = element.attrs
        for i in range(count):
            attr = &token.attrs[i]
            length = attr.value_end - attr.value_begin
            item.local_name = attr.name_id
            item.ns = NS__UNDEF
            item.prefix = 0
            if not attr.flags & DATA_NEEDS_CONVERSION and in_source:
                item.value = <uint8_t*> (token.data + attr.value_begin)
                item.value_length = length
                item += 1
                continue
            if attr.flags & DATA_NEEDS_CONVERSION:
                length = convert_text(token.data + attr.value_begin, length,
                                      attr.flags, cursor) if length else 0
            else:
                lxp_copy_run(cursor, token.data + attr.value_begin, length)
            item.value = cursor
            item.value_length = length
            item += 1
            cursor += length
        element.attr_count = count
        dom_shrink_inline(tb.document, values, extra, <size_t> (cursor - values))
        return element
    for i in range(count):
        attr = &token.attrs[i]
        name = attr.name_id
        local_name = name
        prefix = 0
        attr_ns = NS__UNDEF
        if name < ATTR__LAST_STATIC:
            if ns == NS_MATHML:
                local_name = lxp_attr_mathml_adjusted[name]  # adjust MathML attributes
            else:
                local_name = lxp_attr_svg_adjusted[name]     # adjust SVG attributes
            if lxp_attr_foreign_ns[name] != 0:               # adjust foreign attributes
                attr_ns = lxp_attr_foreign_ns[name]
                prefix = lxp_attr_foreign_prefix[name]
                local_name = lxp_attr_foreign_local[name]
        length = attr.value_end - attr.value_begin
        if length:
            if attr.flags & DATA_NEEDS_CONVERSION:
                length = convert_text(token.data + attr.value_begin, length,
                                      attr.flags, cursor)
            else:
                memcpy(cursor, token.data + attr.value_begin, length)
        element_append_attribute(element, local_name, attr_ns, prefix, cursor, length)
        cursor += length
    dom_shrink_inline(tb.document, values, extra, <size_t> (cursor - values))
    return element


# https://html.spec.whatwg.org/multipage/parsing.html#insert-a-foreign-element
cdef CElement* insert_foreign_element(TreeBuilder* tb, Token* token,
                                      lxp_ns_id_t ns) noexcept nogil:
    cdef InsertionLocation location = appropriate_place(tb, NULL)
    cdef CElement* element = create_element_for_token(tb, token, ns)
    if element == NULL:
        return NULL
    insert_at(location, &element.node)
    if open_elements_push(tb, element) != 0:
        return NULL
    if element.tag_id == TAG_SELECTEDCONTENT and ns == NS_HTML:
        selectedcontent_inserted(tb, element)
    return element


# https://html.spec.whatwg.org/multipage/parsing.html#insert-an-html-element
cdef inline CElement* insert_html_element(TreeBuilder* tb, Token* token) noexcept nogil:
    return insert_foreign_element(tb, token, NS_HTML)


cdef inline CElement* insert_html_element_at_current_node(TreeBuilder* tb,
                                                         Token* token) noexcept nogil:
    """insert_html_element for a token that is not selectedcontent, inline
    when the appropriate place is the end of the current node (an element
    other than template; no foster parenting)."""
    cdef CElement* parent = tb.open.elements[tb.open.count - 1] \
        if tb.open.count > 0 else NULL
    cdef CElement* element
    if parent == NULL or tb.foster_parenting \
            or (parent.tag_id == TAG_TEMPLATE and parent.ns == NS_HTML):
        return insert_html_element(tb, token)
    element = create_element_for_token(tb, token, NS_HTML)
    if element == NULL:
        return NULL
    node_append_new_child(&parent.node, &element.node)
    if open_elements_push(tb, element) != 0:
        return NULL
    return element


cdef CElement* insert_html_element_named(TreeBuilder* tb,
                                         lxp_tag_id_t tag) noexcept nogil:
    """Insert an HTML element for a start tag token `tag` with no attributes
    (the elements the parser implies: html, head, body, tbody, tr, colgroup,
    p)."""
    cdef Token token
    memset(&token, 0, sizeof(Token))
    token.tag_id = tag
    return insert_html_element(tb, &token)


cdef void insert_void_html_element(TreeBuilder* tb, Token* token) noexcept nogil:
    """Insert an HTML element, immediately pop it and acknowledge the token's
    self-closing flag."""
    if insert_html_element(tb, token) != NULL:
        open_elements_pop(tb)
    tb.self_closing_acknowledged = True


cdef CElement* insert_clone_of_element(TreeBuilder* tb, CElement* original) noexcept nogil:
    """Insert an HTML element for the token `original` was created for (the
    reconstruction of active formatting elements)."""
    cdef InsertionLocation location = appropriate_place(tb, NULL)
    cdef CElement* element = <CElement*> node_clone(&original.node, False)
    if element == NULL:
        tb.halt.failed = True
        return NULL
    insert_at(location, &element.node)
    if open_elements_push(tb, element) != 0:
        return NULL
    return element


cdef void add_missing_attributes(TreeBuilder* tb, CElement* element,
                                 Token* token) noexcept nogil:
    """The attributes of a second <html> or <body> start tag that the
    element does not have yet."""
    cdef size_t i, length
    cdef TokenAttr* attr
    cdef uint8_t* value
    for i in range(token.attr_count):
        attr = &token.attrs[i]
        if element_find_attribute(element, attr.name_id, NS__UNDEF) != NULL:
            continue
        value = convert_into_dom(tb, token.data + attr.value_begin,
                                 attr.value_end - attr.value_begin,
                                 attr.flags, &length)
        if value == NULL:
            return
        if element_add_attribute(element, attr.name_id, NS__UNDEF, 0,
                                 value, length) != 0:
            tb.halt.failed = True
            return


cdef ssize_t token_attribute_index(Token* token, lxp_attr_id_t name) noexcept nogil:
    cdef size_t i
    for i in range(token.attr_count):
        if token.attrs[i].name_id == name:
            return <ssize_t> i
    return -1


# ASCII case-insensitive comparison with a lowercase C string
# https://infra.spec.whatwg.org/#ascii-case-insensitive
cdef bint ascii_ci_starts_with(const uint8_t* value, size_t length,
                               const char* lowercase_prefix) noexcept nogil:
    cdef size_t i = 0
    cdef uint8_t c
    while lowercase_prefix[i] != 0:
        if i >= length:
            return False
        c = value[i]
        if 0x41 <= c <= 0x5A:
            c += 0x20
        if c != <uint8_t> lowercase_prefix[i]:
            return False
        i += 1
    return True


cdef inline bint ascii_ci_equals(const uint8_t* value, size_t length,
                                 const char* lowercase) noexcept nogil:
    return length == strlen(lowercase) and ascii_ci_starts_with(value, length, lowercase)


cdef bint token_attribute_equals(Token* token, lxp_attr_id_t name,
                                 const char* lowercase_value) noexcept nogil:
    """Whether the token's attribute `name` is, ASCII case-insensitively,
    `lowercase_value` (after conversion: references decoded)."""
    cdef ssize_t index = token_attribute_index(token, name)
    cdef TokenAttr* attr
    cdef size_t length
    cdef uint8_t buffer[64]
    if index < 0:
        return False
    attr = &token.attrs[index]
    length = attr.value_end - attr.value_begin
    if length > 20:
        return False            # longer than any value asked about, even encoded
    length = convert_text(token.data + attr.value_begin, length, attr.flags, buffer)
    return ascii_ci_equals(buffer, length, lowercase_value)


cdef bint attribute_value_equals(CAttr* attr, const char* lowercase_value) noexcept nogil:
    """Whether a DOM attribute's value is, ASCII case-insensitively,
    `lowercase_value`."""
    return attr != NULL and ascii_ci_equals(attr.value, attr.value_length, lowercase_value)


# ---------------------------------------------------------------------------
# Comments and processing instructions
# ---------------------------------------------------------------------------

# https://html.spec.whatwg.org/multipage/parsing.html#insert-a-comment
cdef void insert_comment(TreeBuilder* tb, Token* token, CNode* parent) noexcept nogil:
    """Insert a comment (or a processing instruction: the standard inserts
    one wherever it would insert a comment) as the last child of `parent`,
    or at the appropriate place when `parent` is NULL."""
    cdef InsertionLocation location
    cdef CCharacterData* node
    cdef size_t length = token.text_end - token.text_begin
    cdef size_t room, written
    cdef uint8_t* destination
    cdef uint8_t* target
    if parent != NULL:
        location.parent = parent
        location.before = NULL
    else:
        location = appropriate_place(tb, NULL)
    if token.tag_id == TAG__PROCESSING_INSTRUCTION:
        node = processing_instruction_create(tb.document)
    else:
        node = comment_create(tb.document)
    if node == NULL:
        tb.halt.failed = True
        return
    if token.tag_id == TAG__PROCESSING_INSTRUCTION:
        target = convert_into_dom(tb, token.data + token.pi_target_begin,
                                  token.pi_target_end - token.pi_target_begin,
                                  DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT, &written)
        if target == NULL or processing_instruction_set_target(
                node, target, written) != 0:
            tb.halt.failed = True
            return
    if length and not token.data_flags & DATA_NEEDS_CONVERSION \
            and dom_in_source(tb.document, token.data + token.text_begin, length):
        # (as a Text node's: the data stays in the document's kept input)
        character_data_share_source(node, token.data + token.text_begin, length)
    elif length:
        room = conversion_room(length, token.data_flags)
        destination = character_data_reserve(node, room)
        if destination == NULL:
            tb.halt.failed = True
            return
        character_data_commit(node, convert_text(token.data + token.text_begin,
                                                 length, token.data_flags,
                                                 destination))
    if tb.positions.on:
        positions_set_token(tb, &node.node, token)
    insert_at(location, &node.node)
    tb.last_comment = node if token.tag_id == TAG__COMMENT else NULL
    if token.tag_id == TAG__PROCESSING_INSTRUCTION:
        processing_instruction_inserted(tb, &node.node)


cdef void append_to_comment(TreeBuilder* tb, Token* token) noexcept nogil:
    """A TOKEN_CONTINUATION comment token: more data of the comment last
    inserted (the tokenizer emits a comment longer than its input chunks in
    pieces; not in the standard, the tree is the same)."""
    cdef CCharacterData* node = tb.last_comment
    cdef size_t length = token.text_end - token.text_begin
    cdef size_t room
    cdef uint8_t* destination
    if node == NULL:
        return
    if tb.positions.on:
        node_source_extend(&node.node, tb.positions.token_base + token.begin,
                           tb.positions.token_base + token.end)
    if length == 0:
        return
    room = conversion_room(length, token.data_flags)
    destination = character_data_reserve(node, room)
    if destination == NULL:
        tb.halt.failed = True
        return
    character_data_commit(node, convert_text(token.data + token.text_begin,
                                             length, token.data_flags,
                                             destination))
