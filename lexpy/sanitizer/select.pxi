# The elements the server options' Python pass (options.apply) looks at,
# found in C: walking the tree with Python proxies for every node cost more
# than the rest of a sanitize call.

cdef bint has_attribute_in(CElement* element, lxp_attr_id_t* ids, size_t count) noexcept nogil:
    cdef uint32_t i
    cdef size_t k
    for i in range(element.attr_count):
        for k in range(count):
            if element.attrs[i].local_name == ids[k]:
                return True
    return False


def elements_below(Node root not None, names=None):
    """The elements below `root`, template contents included (each
    container's elements in tree order; no recursion); with `names` (a
    collection of attribute local names, as str), only the elements that
    carry an attribute of one of those local names (in any namespace: a
    superset for the caller to check)."""
    cdef CNode* c_root = root.c_node
    cdef CDocument* doc
    cdef CNode* node
    cdef CNode* container
    cdef CNode** pending = NULL
    cdef CNode** grown
    cdef size_t pending_count = 0, pending_capacity = 0
    cdef lxp_attr_id_t ids[64]
    cdef size_t id_count = 0
    cdef lxp_attr_id_t id
    cdef bint every = names is None
    cdef bytes encoded
    cdef list found = []
    if c_root == NULL:
        raise ValueError("this node belongs to no document")
    doc = c_root.owner
    if not every:
        for name in names:
            encoded = (<str> name).encode("utf-8", "surrogatepass")
            id = attr_id_by_name(doc.attr_names, <const uint8_t*> encoded, len(encoded),
                                 False)
            if id != 0:
                if id_count == 64:
                    raise ValueError("elements_below takes at most 64 names")
                ids[id_count] = id
                id_count += 1
        if id_count == 0:
            return found
    try:
        container = c_root
        if c_root.type == ELEMENT_NODE and (<CElement*> c_root).template_content != NULL:
            pending = <CNode**> malloc(16 * sizeof(CNode*))
            if pending == NULL:
                raise MemoryError()
            pending_capacity = 16
            pending[0] = (<CElement*> c_root).template_content
            pending_count = 1
        while container != NULL:
            node = next_in_tree(container, container)
            while node != NULL:
                if node.type == ELEMENT_NODE:
                    if every or has_attribute_in(<CElement*> node, ids, id_count):
                        found.append(node_proxy(node))
                    if (<CElement*> node).template_content != NULL:
                        if pending_count == pending_capacity:
                            pending_capacity = pending_capacity * 2 + 16
                            grown = <CNode**> realloc(pending,
                                                      pending_capacity * sizeof(CNode*))
                            if grown == NULL:
                                raise MemoryError()
                            pending = grown
                        pending[pending_count] = (<CElement*> node).template_content
                        pending_count += 1
                node = next_in_tree(node, container)
            if pending_count == 0:
                break
            pending_count -= 1
            container = pending[pending_count]
    finally:
        free(pending)
    return found
