# The adoption agency algorithm
# https://html.spec.whatwg.org/multipage/parsing.html#adoption-agency-algorithm
#
# As currently specified: the inner loop's step 4.3 removes a formatting
# element from the list once the inner loop counter passes three
# (adoption02.dat). Stack positions are indices (0 = the html element, so
# "above" in the standard's wording is a smaller index); the bookmark is
# the element after which the new element goes (NULL: where the formatting
# element is).


cdef bint adoption_agency(TreeBuilder* tb, lxp_tag_id_t subject) noexcept nogil:
    """Run the algorithm for a token with tag name `subject`. Returns False
    when the caller must instead act as for "any other end tag"."""
    cdef CElement* node = current_node(tb)
    cdef CElement* formatting_element
    cdef CElement* furthest_block
    cdef CElement* common_ancestor
    cdef CElement* last_node
    cdef CElement* new_element
    cdef CElement* bookmark_after
    cdef ssize_t formatting_stack_index, furthest_index, node_index, node_list_index
    cdef int outer_loop_counter = 0
    cdef int inner_loop_counter
    cdef InsertionLocation location
    if is_html_element(node, subject) and formatting_index(tb, node) < 0:
        open_elements_pop(tb)
        return True
    while True:
        if outer_loop_counter >= 8:
            return True
        outer_loop_counter += 1
        formatting_element = formatting_last_after_marker(tb, subject)
        if formatting_element == NULL:
            return False
        formatting_stack_index = open_elements_index(tb, formatting_element)
        if formatting_stack_index < 0:
            parse_error(tb, "formatting-element-not-open")
            formatting_remove(tb, formatting_element)
            return True
        if not has_element_in_scope(tb, formatting_element, CAT_SCOPE):
            parse_error(tb, "formatting-element-not-in-scope")
            return True
        if formatting_element != current_node(tb):
            parse_error(tb, "misnested-formatting-element")
        # The furthest block: the topmost special element below the
        # formatting element (in the standard's sense: the lowest position
        # above it). The elements passed on the way are the inner loop's
        # (which takes all but three of them off the stack), or are popped
        # when there is none: the walk up costs what those steps cost.
        furthest_index = -1
        node_index = formatting_stack_index + 1
        while node_index < <ssize_t> tb.open.count:
            if tb.open.elements[node_index] != NULL and \
                    element_category(tb.open.elements[node_index]) & CAT_SPECIAL:
                furthest_index = node_index
                break
            node_index += 1
        if furthest_index < 0:
            while <ssize_t> tb.open.count > formatting_stack_index:
                open_elements_pop(tb)
            formatting_remove(tb, formatting_element)
            return True
        furthest_block = tb.open.elements[furthest_index]
        common_ancestor = tb.open.elements[next_open_below(tb, formatting_stack_index)]
        parser_moved_nodes(tb)
        bookmark_after = NULL
        node_index = furthest_index
        last_node = furthest_block
        inner_loop_counter = 0
        while True:
            inner_loop_counter += 1
            node_index = next_open_below(tb, node_index)
            node = tb.open.elements[node_index]
            if node == formatting_element:
                break
            node_list_index = formatting_index(tb, node)
            if inner_loop_counter > 3 and node_list_index >= 0:
                formatting_remove_at(tb, <size_t> node_list_index)
                node_list_index = -1
            if node_list_index < 0:
                open_elements_remove_at(tb, <size_t> node_index)
                continue
            new_element = <CElement*> node_clone(
                &created_for(&tb.formatting.entries[node_list_index]).node, False)
            if new_element == NULL:
                tb.halt.failed = True
                return True
            formatting_replace(tb, <size_t> node_list_index, new_element)
            open_elements_replace_at(tb, <size_t> node_index, new_element)
            node = new_element
            if last_node == furthest_block:
                bookmark_after = new_element
            node_append_child(&node.node, &last_node.node)
            last_node = node
        if tb.observer != NULL and tb.observer.moved != NULL:
            tb.observer.moved(tb.observer.context, formatting_element, furthest_block)
        location = appropriate_place(tb, common_ancestor)
        if tb.patching.template_count != 0 and \
                is_inclusive_ancestor(&last_node.node, location.parent):
            # A <template for> took open elements out of their place: the
            # last node would go inside itself (the DOM forbids it), and is
            # dropped instead (whatwg/html 57811ef0, 2026-08-20).
            parser_removed(tb, &last_node.node)
        else:
            insert_at(location, &last_node.node)
        new_element = <CElement*> node_clone(
            &created_for(&tb.formatting.entries[formatting_index(tb, formatting_element)]).node, False)
        if new_element == NULL:
            tb.halt.failed = True
            return True
        while furthest_block.node.first_child != NULL:
            node_append_child(&new_element.node, furthest_block.node.first_child)
        node_append_child(&furthest_block.node, &new_element.node)
        if bookmark_after == NULL:
            formatting_replace(tb, <size_t> formatting_index(tb, formatting_element),
                               new_element)
        else:
            formatting_remove(tb, formatting_element)
            formatting_insert_at(tb, <size_t> (formatting_index(tb, bookmark_after) + 1),
                                 new_element)
        # The formatting element leaves the stack and the new element goes
        # right above the furthest block: the new element takes the
        # formatting element's place (the same keys), then moves up past
        # the elements up to the furthest block (at most a few: the inner
        # loop leaves three), so the stack above keeps its positions.
        open_elements_replace_at(tb, <size_t> formatting_stack_index, new_element)
        element_popped(tb, formatting_element)
        node_index = formatting_stack_index
        while node_index < furthest_index:
            open_elements_swap(tb, <size_t> node_index)
            node_index += 1
