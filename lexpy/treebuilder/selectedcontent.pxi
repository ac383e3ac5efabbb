# <selectedcontent>: when the parser pops an option element, the content of
# the select's selected option is cloned into the select's enabled
# selectedcontent element ("maybe clone an option into selectedcontent",
# webkit02.dat).
# https://html.spec.whatwg.org/multipage/form-elements.html#the-selectedcontent-element
#
# Nothing is done until a selectedcontent element exists. The select last
# looked at is remembered with its selectedcontent and what its options so
# far were, so a long select is not searched again for each option.


cdef inline void selectedcontent_created(TreeBuilder* tb) noexcept nogil:
    tb.selectedcontent_count += 1
    tb.selectedcontent_select = NULL      # searched again on the next option


cdef CNode* next_in_tree_order(CNode* node, CNode* root) noexcept nogil:
    """The node after `node` in tree order within `root` (no recursion)."""
    if node.first_child != NULL:
        return node.first_child
    while node != root:
        if node.next != NULL:
            return node.next
        node = node.parent
    return NULL


cdef inline bint is_html_node(CNode* node, lxp_tag_id_t tag) noexcept nogil:
    return node.type == ELEMENT_NODE and is_html_element(<CElement*> node, tag)


cdef void remember_select(TreeBuilder* tb, CElement* select,
                          CElement* popped_option) noexcept nogil:
    """Find the select's enabled selectedcontent (the first in tree order,
    none for a multiple select) and what its other options say."""
    cdef CNode* node = next_in_tree_order(&select.node, &select.node)
    tb.selectedcontent_select = select
    tb.selectedcontent_element = NULL
    tb.selectedcontent_saw_selected = False
    tb.selectedcontent_saw_option = False
    if element_find_attribute(select, ATTR_MULTIPLE, NS__UNDEF) != NULL:
        return
    while node != NULL:
        if node.type == ELEMENT_NODE:
            if is_html_node(node, TAG_SELECTEDCONTENT) and tb.selectedcontent_element == NULL:
                tb.selectedcontent_element = <CElement*> node
            elif is_html_node(node, TAG_OPTION) and node != &popped_option.node:
                tb.selectedcontent_saw_option = True
                if element_find_attribute(<CElement*> node, ATTR_SELECTED,
                                          NS__UNDEF) != NULL:
                    tb.selectedcontent_saw_selected = True
        node = next_in_tree_order(node, &select.node)


cdef void clone_option_into_selectedcontent(TreeBuilder* tb, CElement* option,
                                            CElement* selectedcontent) noexcept nogil:
    cdef CNode* child
    cdef CNode* copy
    while selectedcontent.node.first_child != NULL:
        node_remove(selectedcontent.node.first_child)
    child = option.node.first_child
    while child != NULL:
        copy = node_clone(child, True)
        if copy == NULL:
            tb.failed = True
            return
        node_append_child(&selectedcontent.node, copy)
        child = child.next


cdef void option_popped(TreeBuilder* tb, CElement* option) noexcept nogil:
    cdef CNode* ancestor = option.node.parent
    cdef bint selected
    while ancestor != NULL and not is_html_node(ancestor, TAG_SELECT):
        ancestor = ancestor.parent
    if ancestor == NULL:
        return
    if <CElement*> ancestor != tb.selectedcontent_select:
        remember_select(tb, <CElement*> ancestor, option)
    if element_find_attribute(option, ATTR_SELECTED, NS__UNDEF) != NULL:
        selected = True
        tb.selectedcontent_saw_selected = True
    else:
        # Without a selected attribute anywhere, the first option is the
        # selected one.
        selected = not tb.selectedcontent_saw_selected and \
            not tb.selectedcontent_saw_option
    tb.selectedcontent_saw_option = True
    if selected and tb.selectedcontent_element != NULL:
        clone_option_into_selectedcontent(tb, option, tb.selectedcontent_element)


cdef inline void element_popped(TreeBuilder* tb, CElement* element) noexcept nogil:
    """What happens when an element leaves the stack of open elements."""
    if tb.selectedcontent_count != 0 and element.tag_id == TAG_OPTION \
            and element.ns == NS_HTML:
        option_popped(tb, element)
