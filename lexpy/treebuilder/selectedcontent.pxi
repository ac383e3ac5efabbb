# <selectedcontent>: the select's enabled selectedcontent holds a clone of
# the content of its selected option. The parser clones when an option is
# popped ("maybe clone an option into selectedcontent", webkit02.dat) and
# when a selectedcontent is inserted into a select that already has a
# selected option (its insertion steps: "update a select's selectedcontent").
# https://html.spec.whatwg.org/multipage/form-elements.html#the-selectedcontent-element
#
# Nothing is done until a selectedcontent element exists. The select last
# looked at is remembered with its enabled selectedcontent and its selected
# option so far, so a long select is not searched again for each option;
# the select of an option is found through the stack of open elements, so
# a deep select is not walked up for each option either.


cdef inline bint is_html_node(CNode* node, lxp_tag_id_t tag) noexcept nogil:
    return node.type == ELEMENT_NODE and is_html_element(<CElement*> node, tag)


# https://html.spec.whatwg.org/multipage/form-elements.html#concept-option-disabled
cdef bint option_is_disabled(CElement* option) noexcept nogil:
    """The option has a disabled attribute, or is a child of an optgroup
    that has one."""
    cdef CNode* parent = option.node.parent
    if element_find_attribute(option, ATTR_DISABLED, NS__UNDEF) != NULL:
        return True
    return parent != NULL and is_html_node(parent, TAG_OPTGROUP) and \
        element_find_attribute(<CElement*> parent, ATTR_DISABLED, NS__UNDEF) != NULL


cdef CElement* open_select_below(TreeBuilder* tb, CElement* element) noexcept nogil:
    """The nearest select ancestor of an open element: the topmost open
    select below it on the stack, unless a template lies between (the
    element is then in the template's contents). Not in the standard,
    which walks the ancestors: an open element's ancestors are open
    elements below it."""
    cdef ssize_t position = open_elements_index(tb, element)
    cdef uint32_t select = topmost_html_element(tb, TAG_SELECT)
    cdef uint32_t template = topmost_html_element(tb, TAG_TEMPLATE)
    while select != 0 and <ssize_t> select - 1 >= position:
        select = tb.open_links[select - 1].down[LINK_TAG]
    while template != 0 and <ssize_t> template - 1 >= position:
        template = tb.open_links[template - 1].down[LINK_TAG]
    if select == 0 or template > select:
        return NULL
    return tb.open_elements[select - 1]


cdef CElement* select_ancestor(TreeBuilder* tb, CNode* node) noexcept nogil:
    """The nearest select among `node`'s inclusive ancestors (NULL: none):
    up the tree to the first open element, then down the stack."""
    while node != NULL:
        if node.type == ELEMENT_NODE:
            if is_html_element(<CElement*> node, TAG_SELECT):
                return <CElement*> node
            if node.flags & ELEMENT_ON_STACK:
                return open_select_below(tb, <CElement*> node)
        node = node.parent
    return NULL


cdef void remember_select(TreeBuilder* tb, CElement* select,
                          CElement* skipped_option) noexcept nogil:
    """Find the select's enabled selectedcontent (the first in tree order,
    none for a multiple select) and its selected option so far (the last
    with a selected attribute, else the first one not disabled), leaving
    out `skipped_option`."""
    cdef CNode* node = next_in_tree(&select.node, &select.node)
    tb.selectedcontent_select = select
    tb.selectedcontent_element = NULL
    tb.selectedcontent_option = NULL
    tb.selectedcontent_by_attribute = False
    if element_find_attribute(select, ATTR_MULTIPLE, NS__UNDEF) != NULL:
        return
    while node != NULL:
        if node.type == ELEMENT_NODE:
            if is_html_node(node, TAG_SELECTEDCONTENT) and tb.selectedcontent_element == NULL:
                tb.selectedcontent_element = <CElement*> node
            elif is_html_node(node, TAG_OPTION) and node != &skipped_option.node:
                option_selectedness(tb, <CElement*> node)
        node = next_in_tree(node, &select.node)


cdef bint option_selectedness(TreeBuilder* tb, CElement* option) noexcept nogil:
    """The remembered select's next option in tree order: whether it is the
    selected option now ("the selectedness setting algorithm")."""
    if element_find_attribute(option, ATTR_SELECTED, NS__UNDEF) != NULL:
        tb.selectedcontent_option = option
        tb.selectedcontent_by_attribute = True
        return True
    if tb.selectedcontent_option == NULL and not option_is_disabled(option):
        tb.selectedcontent_option = option
        return True
    return False


# https://html.spec.whatwg.org/multipage/form-elements.html#clone-an-option-into-a-selectedcontent
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


cdef void selectedcontent_inserted(TreeBuilder* tb, CElement* selectedcontent) noexcept nogil:
    """A selectedcontent element was inserted: when it is its select's
    enabled one and the select has a selected option, it gets a clone of
    the option's content."""
    cdef CElement* select
    tb.selectedcontent_count += 1
    select = select_ancestor(tb, selectedcontent.node.parent)
    if select == NULL:
        return
    if select != tb.selectedcontent_select:
        remember_select(tb, select, NULL)
    elif tb.selectedcontent_element == NULL and \
            element_find_attribute(select, ATTR_MULTIPLE, NS__UNDEF) == NULL:
        # (Inserted at the end of an open element: after the select's
        # other content in tree order, so the first one is found already.)
        tb.selectedcontent_element = selectedcontent
    if tb.selectedcontent_element == selectedcontent and tb.selectedcontent_option != NULL:
        clone_option_into_selectedcontent(tb, tb.selectedcontent_option, selectedcontent)


cdef void option_popped(TreeBuilder* tb, CElement* option) noexcept nogil:
    cdef CElement* select = select_ancestor(tb, option.node.parent)
    if select == NULL:
        return
    if select != tb.selectedcontent_select:
        remember_select(tb, select, option)
    if option_selectedness(tb, option) and tb.selectedcontent_element != NULL:
        clone_option_into_selectedcontent(tb, option, tb.selectedcontent_element)


cdef inline void element_popped(TreeBuilder* tb, CElement* element) noexcept nogil:
    """What happens when an element leaves the stack of open elements."""
    if tb.selectedcontent_count != 0 and element.tag_id == TAG_OPTION \
            and element.ns == NS_HTML:
        option_popped(tb, element)
