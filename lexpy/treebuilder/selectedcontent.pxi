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
# the select of an option (and of a selectedcontent, with its disabled
# state) is found through the stack of open elements, so a deep select is
# not walked up for each option either.


# What the tree builder remembers of <selectedcontent>: how many were
# inserted; the select last looked at, whether it has a selectedcontent
# descendant (its first, which may be disabled), its enabled
# selectedcontent and its selected option so far, and its first option not
# disabled that lies outside that selectedcontent (what a clone cannot
# remove).
cdef struct SelectedcontentState:
    size_t count
    CElement* select
    bint found
    CElement* element
    CElement* option
    CElement* first_enabled


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


cdef uint32_t open_html_below(TreeBuilder* tb, lxp_tag_id_t tag,
                              ssize_t position) noexcept nogil:
    """Position + 1 of the topmost open HTML element `tag` below `position`
    on the stack (0: none). Not in the standard."""
    cdef uint32_t found = topmost_html_element(tb, tag)
    while found != 0 and <ssize_t> found - 1 >= position:
        found = tb.open.links[found - 1].down[LINK_TAG]
    return found


cdef inline uint32_t open_html_further_below(TreeBuilder* tb, uint32_t found) noexcept nogil:
    """The next open element with the tag of the one at `found` - 1, below
    it (0: none). Not in the standard."""
    return tb.open.links[found - 1].down[LINK_TAG] if found != 0 else 0


cdef inline bint is_off_the_tree(TreeBuilder* tb, CNode* node) noexcept nogil:
    """Whether `node` is in a subtree the parser took out of the tree while
    it had open elements (a clone into a selectedcontent replaced them, or
    a <template for> range): what is inserted there has no select, and the
    stack no longer says whose descendant an open element is. Not in the
    standard."""
    cdef CNode* root
    if not tb.open.detached:
        return False
    root = find_root(tb, node)
    return root.type != DOCUMENT_NODE and root.type != DOCUMENT_FRAGMENT_NODE


# https://html.spec.whatwg.org/multipage/form-elements.html#option-element-nearest-ancestor-select
cdef CElement* option_nearest_select(TreeBuilder* tb, CElement* option) noexcept nogil:
    """The option's select (NULL: none): the nearest select ancestor, unless
    a datalist, hr or option, or a second optgroup, comes first. Up the tree
    to the first open element, then down the stack: an open element's
    ancestors are the open elements below it, up to a template (the element
    is then in the template's contents)."""
    cdef CNode* node = option.node.parent
    cdef CElement* element = NULL
    cdef size_t optgroups = 0
    cdef ssize_t position
    cdef uint32_t select, barrier, optgroup
    if is_off_the_tree(tb, &option.node):
        return NULL
    while node != NULL:
        if node.type == ELEMENT_NODE:
            element = <CElement*> node
            if is_html_element(element, TAG_DATALIST) or is_html_element(element, TAG_HR) \
                    or is_html_element(element, TAG_OPTION):
                return NULL
            if is_html_element(element, TAG_OPTGROUP):
                optgroups += 1
                if optgroups > 1:
                    return NULL
            if is_html_element(element, TAG_SELECT):
                return element
            if node.flags & ELEMENT_ON_STACK:
                break
        node = node.parent
    if node == NULL:
        return NULL
    position = open_elements_index(tb, element)
    select = open_html_below(tb, TAG_SELECT, position)
    if select == 0:
        return NULL
    barrier = max(max(open_html_below(tb, TAG_TEMPLATE, position),
                      open_html_below(tb, TAG_DATALIST, position)),
                  max(open_html_below(tb, TAG_HR, position),
                      open_html_below(tb, TAG_OPTION, position)))
    if barrier > select:
        return NULL
    optgroup = open_html_below(tb, TAG_OPTGROUP, position)
    while optgroup > select and optgroups < 2:
        optgroups += 1
        optgroup = open_html_further_below(tb, optgroup)
    if optgroups > 1:
        return NULL
    return tb.open.elements[select - 1]


# https://html.spec.whatwg.org/multipage/form-elements.html#the-selectedcontent-element
cdef CElement* selectedcontent_nearest_select(TreeBuilder* tb, CElement* selectedcontent,
                                              bint* disabled) noexcept nogil:
    """The selectedcontent's nearest select ancestor (NULL: none), and its
    disabled state ("the selectedcontent HTML element insertion steps"): it
    has an option or selectedcontent ancestor, or more than one select
    ancestor. Up the tree and down the stack, as for an option."""
    cdef CNode* node = selectedcontent.node.parent
    cdef CElement* element = NULL
    cdef CElement* select = NULL
    cdef ssize_t position
    cdef uint32_t template, below
    disabled[0] = False
    if is_off_the_tree(tb, &selectedcontent.node):
        return NULL
    while node != NULL:
        if node.type == ELEMENT_NODE:
            element = <CElement*> node
            if is_html_element(element, TAG_OPTION) or \
                    is_html_element(element, TAG_SELECTEDCONTENT):
                disabled[0] = True
            if is_html_element(element, TAG_SELECT):
                if select != NULL:
                    disabled[0] = True
                    return select
                select = element
            if node.flags & ELEMENT_ON_STACK:
                break
        node = node.parent
    if node == NULL:
        return select
    position = open_elements_index(tb, element)
    template = open_html_below(tb, TAG_TEMPLATE, position)
    if open_html_below(tb, TAG_OPTION, position) > template or \
            open_html_below(tb, TAG_SELECTEDCONTENT, position) > template:
        disabled[0] = True
    below = open_html_below(tb, TAG_SELECT, position)
    if below > template:
        if select != NULL:
            disabled[0] = True
        else:
            select = tb.open.elements[below - 1]
            if open_html_further_below(tb, below) > template:
                disabled[0] = True
    return select


# https://html.spec.whatwg.org/multipage/form-elements.html#select-enabled-selectedcontent
cdef void remember_select(TreeBuilder* tb, CElement* select,
                          CElement* skipped_option) noexcept nogil:
    """Find the select's enabled selectedcontent (its first selectedcontent
    descendant in tree order unless that one is disabled; none for a
    multiple select) and its selected option so far (of its list of
    options, the options whose nearest ancestor select it is: the last
    with a selected attribute, else the first one not disabled), leaving
    out `skipped_option`. One walk over the select's descendants, keeping
    the depth of the element whose descendant options are not the select's
    (under a datalist, hr, option or select, or a second optgroup)."""
    cdef CNode* node = select.node.first_child
    cdef CElement* element
    cdef size_t depth = 1
    cdef size_t apart = 0         # depth of that element (0: none)
    cdef size_t optgroup = 0      # depth of the optgroup the walk is in (0: none)
    cdef bint disabled
    tb.selectedcontent.select = select
    tb.selectedcontent.found = False
    tb.selectedcontent.element = NULL
    tb.selectedcontent.option = NULL
    tb.selectedcontent.first_enabled = NULL
    if element_find_attribute(select, ATTR_MULTIPLE, NS__UNDEF) != NULL:
        return
    while node != NULL:
        if node.type == ELEMENT_NODE and (<CElement*> node).ns == NS_HTML:
            element = <CElement*> node
            if element.tag_id == TAG_SELECTEDCONTENT:
                if not tb.selectedcontent.found:
                    tb.selectedcontent.found = True
                    selectedcontent_nearest_select(tb, element, &disabled)
                    if not disabled:
                        tb.selectedcontent.element = element
            elif apart != 0:
                pass
            elif element.tag_id == TAG_OPTION:
                if element != skipped_option:
                    option_selectedness(tb, element)
                apart = depth
            elif element.tag_id == TAG_DATALIST or element.tag_id == TAG_HR \
                    or element.tag_id == TAG_SELECT or \
                    (element.tag_id == TAG_OPTGROUP and optgroup != 0):
                apart = depth
            elif element.tag_id == TAG_OPTGROUP:
                optgroup = depth
        if node.first_child != NULL:
            node = node.first_child
            depth += 1
            continue
        while depth != 0 and node.next == NULL:
            node = node.parent
            depth -= 1
        if depth == 0:
            break
        node = node.next
        if apart >= depth:
            apart = 0
        if optgroup >= depth:
            optgroup = 0


cdef bint option_selectedness(TreeBuilder* tb, CElement* option) noexcept nogil:
    """The remembered select's next option in tree order: whether it is the
    selected option now ("the selectedness setting algorithm"). Also keeps
    the select's first option that is not disabled, of those outside its
    enabled selectedcontent (while that one is open, the select's options
    are inside it: a clone may remove them)."""
    cdef CElement* selectedcontent = tb.selectedcontent.element
    cdef bint enabled = not option_is_disabled(option)
    if option == tb.selectedcontent.option:
        # Counted already: a walk over the select (remember_select) met it
        # while it was open.
        return True
    if enabled and tb.selectedcontent.first_enabled == NULL and (
            selectedcontent == NULL or not (selectedcontent.node.flags & ELEMENT_ON_STACK)):
        tb.selectedcontent.first_enabled = option
    if element_find_attribute(option, ATTR_SELECTED, NS__UNDEF) != NULL:
        tb.selectedcontent.option = option
        return True
    if tb.selectedcontent.option == NULL and enabled:
        tb.selectedcontent.option = option
        return True
    return False


# https://html.spec.whatwg.org/multipage/form-elements.html#clone-an-option-into-a-selectedcontent
cdef void clone_option_into_selectedcontent(TreeBuilder* tb, CElement* option,
                                            CElement* selectedcontent) noexcept nogil:
    cdef CNode* child
    cdef CNode* copy
    while selectedcontent.node.first_child != NULL:
        parser_removed(tb, selectedcontent.node.first_child)
    child = option.node.first_child
    while child != NULL:
        copy = node_clone(child, True)
        if copy == NULL:
            tb.halt.failed = True
            return
        node_append_child(&selectedcontent.node, copy)
        child = child.next


cdef void selectedcontent_inserted(TreeBuilder* tb, CElement* selectedcontent) noexcept nogil:
    """A selectedcontent element was inserted: when it is its select's
    enabled one and the select has a selected option, it gets a clone of
    the option's content."""
    cdef CElement* select
    cdef bint disabled
    tb.selectedcontent.count += 1
    select = selectedcontent_nearest_select(tb, selectedcontent, &disabled)
    if select == NULL:
        return
    if select != tb.selectedcontent.select:
        remember_select(tb, select, NULL)
    elif not tb.selectedcontent.found and \
            element_find_attribute(select, ATTR_MULTIPLE, NS__UNDEF) == NULL:
        # (Inserted at the end of an open element: after the select's
        # other content in tree order, so the first one is found already.)
        tb.selectedcontent.found = True
        if not disabled:
            tb.selectedcontent.element = selectedcontent
    if tb.selectedcontent.element == selectedcontent and tb.selectedcontent.option != NULL:
        clone_option_into_selectedcontent(tb, tb.selectedcontent.option, selectedcontent)


# https://html.spec.whatwg.org/multipage/form-elements.html#maybe-clone-an-option-into-selectedcontent
cdef void option_popped(TreeBuilder* tb, CElement* option) noexcept nogil:
    cdef CElement* select = option_nearest_select(tb, option)
    if select == NULL:
        return
    if select != tb.selectedcontent.select:
        remember_select(tb, select, option)
    if option_selectedness(tb, option) and tb.selectedcontent.element != NULL:
        clone_option_into_selectedcontent(tb, option, tb.selectedcontent.element)
        if tb.selectedcontent.element.node.flags & ELEMENT_ON_STACK:
            # The option was pushed after the open selectedcontent (else
            # the selectedcontent would be its descendant, so disabled):
            # it is in the selectedcontent, one of the children the clone
            # replaced. It left the tree and its select's list of options;
            # "the option element removing steps" run the selectedness
            # setting algorithm, which selects the first option left that
            # is not disabled. Those left are the ones before the
            # selectedcontent: an open element's content is the end of the
            # tree so far.
            tb.selectedcontent.option = tb.selectedcontent.first_enabled


cdef inline void element_popped(TreeBuilder* tb, CElement* element) noexcept nogil:
    """What happens when an element leaves the stack of open elements."""
    if tb.selectedcontent.count != 0 and element.tag_id == TAG_OPTION \
            and element.ns == NS_HTML:
        option_popped(tb, element)
    if element.node.flags & ELEMENT_PATCHING:
        patching_template_done(tb, element)
