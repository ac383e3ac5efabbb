# Whether two trees are the same tree: the reparse check of issue 34
# (point 3). Node types, namespaces and local names, attribute sets,
# character data and template contents are compared; adjacent Text nodes
# must already be merged (Node.normalize). The trees may be in different
# documents (names are compared as text).

cdef bint same_namespace(CDocument* da, lxp_ns_id_t a, CDocument* db,
                         lxp_ns_id_t b) noexcept nogil:
    cdef size_t la, lb
    cdef const uint8_t* ua
    cdef const uint8_t* ub
    if a < NS__LAST_STATIC or b < NS__LAST_STATIC:
        return a == b
    ua = namespace_uri_of(da, a, &la)
    ub = namespace_uri_of(db, b, &lb)
    return la == lb and memcmp(ua, ub, la) == 0


cdef bint same_attribute_name(CDocument* da, lxp_attr_id_t a, CDocument* db,
                              lxp_attr_id_t b) noexcept nogil:
    cdef size_t la, lb
    cdef const uint8_t* na
    cdef const uint8_t* nb
    if a < ATTR__LAST_STATIC or b < ATTR__LAST_STATIC:
        return a == b
    na = attr_name_of(da.attr_names, a, &la)
    nb = attr_name_of(db.attr_names, b, &lb)
    return na != NULL and nb != NULL and la == lb and memcmp(na, nb, la) == 0


cdef inline bint same_bytes(const uint8_t* a, size_t la, const uint8_t* b,
                            size_t lb) noexcept nogil:
    return la == lb and (la == 0 or memcmp(a, b, la) == 0)


cdef bint same_node(CNode* a, CNode* b) noexcept nogil:
    cdef CElement* ea
    cdef CElement* eb
    cdef CAttr* x
    cdef CAttr* y
    cdef size_t la, lb
    cdef const uint8_t* na
    cdef const uint8_t* nb
    cdef uint32_t i, j
    cdef bint found
    if a.type != b.type:
        return False
    if a.type == ELEMENT_NODE:
        ea = <CElement*> a
        eb = <CElement*> b
        if not same_namespace(a.owner, ea.ns, b.owner, eb.ns):
            return False
        na = element_local_name(ea, &la)
        nb = element_local_name(eb, &lb)
        if not same_bytes(na, la, nb, lb) or ea.attr_count != eb.attr_count:
            return False
        if (ea.template_content == NULL) != (eb.template_content == NULL):
            return False
        for i in range(ea.attr_count):
            x = &ea.attrs[i]
            y = &eb.attrs[i]
            # A reparse keeps the order: the same place first, else a search.
            if same_attribute_name(a.owner, x.local_name, b.owner, y.local_name) \
                    and same_namespace(a.owner, x.ns, b.owner, y.ns):
                if not same_bytes(x.value, x.value_length, y.value, y.value_length):
                    return False
                continue
            found = False
            for j in range(eb.attr_count):
                y = &eb.attrs[j]
                if same_attribute_name(a.owner, x.local_name, b.owner, y.local_name) \
                        and same_namespace(a.owner, x.ns, b.owner, y.ns):
                    found = same_bytes(x.value, x.value_length, y.value, y.value_length)
                    break
            if not found:
                return False
        return True
    if a.type == TEXT_NODE or a.type == COMMENT_NODE:
        return same_bytes((<CCharacterData*> a).data, (<CCharacterData*> a).length,
                          (<CCharacterData*> b).data, (<CCharacterData*> b).length)
    if a.type == PROCESSING_INSTRUCTION_NODE:
        return same_bytes((<CProcessingInstruction*> a).target,
                          (<CProcessingInstruction*> a).target_length,
                          (<CProcessingInstruction*> b).target,
                          (<CProcessingInstruction*> b).target_length) and same_bytes(
            (<CCharacterData*> a).data, (<CCharacterData*> a).length,
            (<CCharacterData*> b).data, (<CCharacterData*> b).length)
    return True


cdef CNode* top_child(CNode* node, CNode* root) noexcept nogil:
    """The child of `root` that holds `node` (through template hosts)."""
    cdef CNode* parent
    while node != NULL:
        parent = node.parent
        if parent == root:
            return node
        if parent == NULL and node.type == DOCUMENT_FRAGMENT_NODE:
            parent = (<CDocumentFragment*> node).host
        node = parent
    return NULL


# The first node of `ra`'s subtree where the two trees differ (NULL: they
# are equal; `ra` itself when a tree ends early or out of memory).
cdef CNode* first_difference_c(CNode* ra, CNode* rb) noexcept nogil:
    cdef CNode** stack = NULL
    cdef CNode** grown
    cdef size_t depth = 0, capacity = 0
    cdef CNode* root_a = ra
    cdef CNode* root_b = rb
    cdef CNode* a
    cdef CNode* b
    cdef CNode* result = NULL
    while True:
        a = root_a.first_child
        b = root_b.first_child
        while a != NULL or b != NULL:
            if a == NULL or b == NULL:
                result = a if a != NULL else root_a
                break
            if not same_node(a, b):
                result = a
                break
            if a.type == ELEMENT_NODE and (<CElement*> a).template_content != NULL:
                if depth + 2 > capacity:
                    capacity = capacity * 2 + 16
                    grown = <CNode**> realloc(stack, capacity * sizeof(CNode*))
                    if grown == NULL:
                        free(stack)
                        return ra
                    stack = grown
                stack[depth] = (<CElement*> a).template_content
                stack[depth + 1] = (<CElement*> b).template_content
                depth += 2
            if a.first_child != NULL or b.first_child != NULL:
                if a.first_child == NULL or b.first_child == NULL:
                    result = a
                    break
                a = a.first_child
                b = b.first_child
                continue
            while True:
                if a.next != NULL or b.next != NULL:
                    if a.next == NULL or b.next == NULL:
                        result = a
                    a = a.next
                    b = b.next
                    break
                a = a.parent
                b = b.parent
                if a == root_a or a == NULL:
                    a = NULL
                    b = NULL
                    break
            if result != NULL:
                break
        if result != NULL or depth == 0:
            break
        depth -= 2
        root_a = stack[depth]
        root_b = stack[depth + 1]
    free(stack)
    return result


def first_difference(Node a not None, Node b not None):
    """-1 when the children of `a` and `b` are the same trees; else the
    index of the child of `a` where they first differ (its number of
    children when `a` has fewer)."""
    cdef CNode* ra = a.c_node
    cdef CNode* rb = b.c_node
    cdef CNode* found
    cdef CNode* top
    cdef long index = 0
    if ra == NULL or rb == NULL:
        raise ValueError("a node of no document")
    with nogil:
        found = first_difference_c(ra, rb)
    if found == NULL:
        return -1
    top = top_child(found, ra)
    if top == NULL:
        top = NULL
        found = ra.first_child
        while found != NULL:
            index += 1
            found = found.next
        return index
    while top.prev != NULL:
        index += 1
        top = top.prev
    return index
