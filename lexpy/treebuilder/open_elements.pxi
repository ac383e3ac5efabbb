# The stack of open elements
# https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements
#
# An array of element pointers, index 0 the html element. The element kinds
# the standard names ("special", the scope boundaries, the elements with
# implied end tags) are category bits of names.h, looked up by
# [tag id][namespace], so every test here is an integer comparison.


# Not in the standard: CNode.flags bits the tree builder keeps on elements
# while it parses (the DOM's own bits are below 0x100), so that "is this
# element on the stack / in the list of active formatting elements" costs
# nothing when the answer is no (open_elements_index, formatting_index).
cdef enum:
    ELEMENT_ON_STACK = 0x100
    ELEMENT_IN_FORMATTING = 0x200


cdef inline bint is_html_element(CElement* element, lxp_tag_id_t tag) noexcept nogil:
    """Whether `element` is the HTML element `tag` ("a p element")."""
    return element != NULL and element.tag_id == tag and element.ns == NS_HTML


cdef inline uint32_t element_category(CElement* element) noexcept nogil:
    return lxp_tag_category_of(element.tag_id, element.ns)


cdef inline bint is_special(CElement* element) noexcept nogil:
    return (element_category(element) & CAT_SPECIAL) != 0


cdef inline CElement* current_node(TreeBuilder* tb) noexcept nogil:
    if tb.open_count == 0:
        return NULL
    return tb.open_elements[tb.open_count - 1]


# https://html.spec.whatwg.org/multipage/parsing.html#adjusted-current-node
cdef inline CElement* adjusted_current_node(TreeBuilder* tb) noexcept nogil:
    if tb.context_element != NULL and tb.open_count == 1:
        return tb.context_element
    return current_node(tb)


cdef inline bint current_node_is(TreeBuilder* tb, lxp_tag_id_t tag) noexcept nogil:
    return is_html_element(current_node(tb), tag)


cdef inline void count_open(TreeBuilder* tb, CElement* element, int delta) noexcept nogil:
    if element.ns == NS_HTML and element.tag_id < TAG__LAST_STATIC:
        tb.open_html_count[element.tag_id] += delta


cdef inline bint may_be_open(TreeBuilder* tb, lxp_tag_id_t tag) noexcept nogil:
    """False when no HTML element `tag` is open (a dynamic tag: maybe)."""
    return tag >= TAG__LAST_STATIC or tb.open_html_count[tag] != 0


cdef int open_elements_push(TreeBuilder* tb, CElement* element) noexcept nogil:
    cdef size_t capacity
    cdef CElement** items
    if element == NULL:
        return -1
    if tb.open_count == tb.open_capacity:
        capacity = tb.open_capacity * 2 if tb.open_capacity else 64
        items = <CElement**> realloc(tb.open_elements, capacity * sizeof(CElement*))
        if items == NULL:
            tb.failed = True
            return -1
        tb.open_elements = items
        tb.open_capacity = capacity
    tb.open_elements[tb.open_count] = element
    tb.open_count += 1
    element.node.flags |= ELEMENT_ON_STACK
    count_open(tb, element, 1)
    return 0


cdef inline void open_elements_replace(TreeBuilder* tb, size_t index,
                                       CElement* element) noexcept nogil:
    """Put `element` (a clone: the same tag) in a stack entry's place."""
    tb.open_elements[index].node.flags &= ~ELEMENT_ON_STACK
    tb.open_elements[index] = element
    element.node.flags |= ELEMENT_ON_STACK


cdef void open_elements_pop(TreeBuilder* tb) noexcept nogil:
    """Pop the current node (running the steps the standard attaches to an
    element being popped)."""
    cdef CElement* element
    if tb.open_count == 0:
        return
    tb.open_count -= 1
    element = tb.open_elements[tb.open_count]
    element.node.flags &= ~ELEMENT_ON_STACK
    count_open(tb, element, -1)
    element_popped(tb, element)


cdef ssize_t open_elements_index(TreeBuilder* tb, CElement* element) noexcept nogil:
    """Position of `element` in the stack (searched from the top), or -1."""
    cdef ssize_t i = <ssize_t> tb.open_count - 1
    if element == NULL or not element.node.flags & ELEMENT_ON_STACK:
        return -1
    while i >= 0:
        if tb.open_elements[i] == element:
            return i
        i -= 1
    return -1


cdef inline bint open_elements_contains(TreeBuilder* tb, CElement* element) noexcept nogil:
    return element != NULL and (element.node.flags & ELEMENT_ON_STACK) != 0


cdef void open_elements_remove_at(TreeBuilder* tb, size_t index) noexcept nogil:
    cdef CElement* element = tb.open_elements[index]
    cdef size_t i
    for i in range(index, tb.open_count - 1):
        tb.open_elements[i] = tb.open_elements[i + 1]
    tb.open_count -= 1
    element.node.flags &= ~ELEMENT_ON_STACK
    count_open(tb, element, -1)
    element_popped(tb, element)


cdef void open_elements_remove(TreeBuilder* tb, CElement* element) noexcept nogil:
    cdef ssize_t index = open_elements_index(tb, element)
    if index >= 0:
        open_elements_remove_at(tb, <size_t> index)


cdef int open_elements_insert_at(TreeBuilder* tb, size_t index,
                                 CElement* element) noexcept nogil:
    cdef size_t i
    if open_elements_push(tb, element) != 0:
        return -1
    i = tb.open_count - 1
    while i > index:
        tb.open_elements[i] = tb.open_elements[i - 1]
        i -= 1
    tb.open_elements[index] = element
    return 0


cdef void pop_until_tag(TreeBuilder* tb, lxp_tag_id_t tag) noexcept nogil:
    """Pop elements until an HTML element `tag` has been popped."""
    cdef CElement* element
    while tb.open_count > 0:
        element = current_node(tb)
        open_elements_pop(tb)
        if is_html_element(element, tag):
            return


cdef void pop_until_one_of(TreeBuilder* tb, lxp_tag_id_t first,
                           lxp_tag_id_t second) noexcept nogil:
    """Pop elements until an HTML element `first` or `second` has been popped."""
    cdef CElement* element
    while tb.open_count > 0:
        element = current_node(tb)
        open_elements_pop(tb)
        if is_html_element(element, first) or is_html_element(element, second):
            return


cdef void pop_until_category(TreeBuilder* tb, uint32_t category) noexcept nogil:
    """Pop elements until one of a category (e.g. a heading) has been popped."""
    cdef CElement* element
    while tb.open_count > 0:
        element = current_node(tb)
        open_elements_pop(tb)
        if element_category(element) & category:
            return


cdef void pop_until_element(TreeBuilder* tb, CElement* target) noexcept nogil:
    cdef CElement* element
    while tb.open_count > 0:
        element = current_node(tb)
        open_elements_pop(tb)
        if element == target:
            return


cdef bint has_template_on_stack(TreeBuilder* tb) noexcept nogil:
    """"There is a template element on the stack of open elements"."""
    return tb.open_html_count[TAG_TEMPLATE] != 0


# https://html.spec.whatwg.org/multipage/parsing.html#parsing-template-contents
cdef inline bint parsing_template_contents(TreeBuilder* tb) noexcept nogil:
    """A template element is open, or the fragment case has a template
    context element: the form element pointer is not used
    (whatwg/html#12911)."""
    return has_template_on_stack(tb) or (
        tb.context_element != NULL and is_html_element(tb.context_element, TAG_TEMPLATE))


# https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-the-specific-scope
# `boundary` is one of the scope category bits: CAT_SCOPE (default scope),
# CAT_SCOPE_LIST_ITEM, CAT_SCOPE_BUTTON, CAT_SCOPE_TABLE.

cdef bint has_in_scope(TreeBuilder* tb, lxp_tag_id_t tag,
                       uint32_t boundary) noexcept nogil:
    """Whether the stack has an HTML element `tag` in the given scope."""
    cdef ssize_t i = <ssize_t> tb.open_count - 1
    cdef CElement* node
    if not may_be_open(tb, tag):
        return False
    while i >= 0:
        node = tb.open_elements[i]
        if node.tag_id == tag and node.ns == NS_HTML:
            return True
        if element_category(node) & boundary:
            return False
        i -= 1
    return False


cdef bint has_one_of_in_scope(TreeBuilder* tb, lxp_tag_id_t first,
                              lxp_tag_id_t second, lxp_tag_id_t third,
                              uint32_t boundary) noexcept nogil:
    """Whether the stack has an HTML element of one of up to three tags (0:
    unused) in the given scope."""
    cdef ssize_t i = <ssize_t> tb.open_count - 1
    cdef CElement* node
    if not may_be_open(tb, first) and not may_be_open(tb, second) and \
            (third == 0 or not may_be_open(tb, third)):
        return False
    while i >= 0:
        node = tb.open_elements[i]
        if node.ns == NS_HTML and (node.tag_id == first or node.tag_id == second
                                   or (third != 0 and node.tag_id == third)):
            return True
        if element_category(node) & boundary:
            return False
        i -= 1
    return False


cdef bint has_category_in_scope(TreeBuilder* tb, uint32_t category,
                                uint32_t boundary) noexcept nogil:
    """Whether the stack has an element of a category (e.g. "an h1, h2, h3,
    h4, h5, or h6 element") in the given scope."""
    cdef ssize_t i = <ssize_t> tb.open_count - 1
    cdef CElement* node
    cdef uint32_t bits
    while i >= 0:
        node = tb.open_elements[i]
        bits = element_category(node)
        if bits & category:
            return True
        if bits & boundary:
            return False
        i -= 1
    return False


cdef bint has_element_in_scope(TreeBuilder* tb, CElement* target,
                               uint32_t boundary) noexcept nogil:
    """Whether the stack has this very element in the given scope."""
    cdef ssize_t i = <ssize_t> tb.open_count - 1
    cdef CElement* node
    if target.ns == NS_HTML and not may_be_open(tb, target.tag_id):
        return False
    while i >= 0:
        node = tb.open_elements[i]
        if node == target:
            return True
        if element_category(node) & boundary:
            return False
        i -= 1
    return False


# https://html.spec.whatwg.org/multipage/parsing.html#generate-implied-end-tags

cdef void generate_implied_end_tags(TreeBuilder* tb,
                                    lxp_tag_id_t exception) noexcept nogil:
    """Pop while the current node has an implied end tag, except an HTML
    element `exception` (0: none)."""
    cdef CElement* node
    while tb.open_count > 0:
        node = current_node(tb)
        if not (element_category(node) & CAT_IMPLIED_END):
            return
        if exception != 0 and node.tag_id == exception:
            return
        open_elements_pop(tb)


cdef void generate_all_implied_end_tags_thoroughly(TreeBuilder* tb) noexcept nogil:
    while tb.open_count > 0 and (element_category(current_node(tb))
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
    if has_in_scope(tb, TAG_P, CAT_SCOPE_BUTTON):
        close_p_element(tb)


# https://html.spec.whatwg.org/multipage/parsing.html#clear-the-stack-back-to-a-table-context
cdef void clear_stack_back_to_table_context(TreeBuilder* tb) noexcept nogil:
    cdef CElement* node
    while tb.open_count > 0:
        node = current_node(tb)
        if node.ns == NS_HTML and (node.tag_id == TAG_TABLE
                                   or node.tag_id == TAG_TEMPLATE
                                   or node.tag_id == TAG_HTML):
            return
        open_elements_pop(tb)


# https://html.spec.whatwg.org/multipage/parsing.html#clear-the-stack-back-to-a-table-body-context
cdef void clear_stack_back_to_table_body_context(TreeBuilder* tb) noexcept nogil:
    cdef CElement* node
    while tb.open_count > 0:
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
    while tb.open_count > 0:
        node = current_node(tb)
        if node.ns == NS_HTML and (node.tag_id == TAG_TR
                                   or node.tag_id == TAG_TEMPLATE
                                   or node.tag_id == TAG_HTML):
            return
        open_elements_pop(tb)
