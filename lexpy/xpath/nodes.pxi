# XPath's data model over the arena (https://www.w3.org/TR/1999/REC-xpath-19991116/#data-model):
# the axes as C walkers, node tests against interned ids, node lists and
# their document order. No Python objects, no GIL.
#
# Costs (n nodes in the tree, d its depth, s siblings, a attributes):
# - a walker's next node: O(1) amortized for child, siblings, descendant
#   (one preorder walk), following, preceding (one reverse preorder walk
#   that skips the context's ancestors), attribute; O(1) per ancestor;
# - a node test: integer compares (names are ids bound once per evaluation);
# - document order: a preorder ordinal per node of the context's tree, in a
#   hash table built on the first sort of an evaluation (O(n) once), so it
#   is always true of the tree being read (the document cannot change while
#   it is read: `readers`); a sort of k nodes is then O(k log k). Attributes
#   follow their element, in source order; template contents are not
#   children (they are a tree of their own).

cdef struct Binding:
    CDocument* doc
    uint32_t* tag_lower           # per name slot: the lower-case name's tag id (0: none)
    uint32_t* tag_exact
    uint32_t* attr_lower
    uint32_t* attr_exact
    uint32_t* namespace_ids       # per namespace slot (NO_SUCH_NAMESPACE: not in the document;
                                  # dom.pxd's document_namespace_lookup)
    uint8_t* namespace_is_xhtml
    const uint8_t** string_data   # every string of the program as UTF-8
    size_t* string_length

cdef inline bint in_data_model(CNode* node) noexcept nogil:
    # The document type node is no node of XPath's data model.
    return node.type != DOCUMENT_TYPE_NODE


cdef inline bint is_namespace_declaration(CAttr* attr) noexcept nogil:
    # xmlns and xmlns:* are namespace declarations, not attributes
    # (https://www.w3.org/TR/1999/REC-xpath-19991116/#attribute-nodes).
    return attr.ns == NS_XMLNS


cdef bint node_test(Binding* b, Step* step, NodeRef ref, bint principal_attribute) noexcept nogil:
    """Whether the node passes the step's node test (the principal node
    type is attribute on the attribute axis, element elsewhere)."""
    cdef uint32_t test = step.test
    cdef CNode* node = ref.node
    cdef CElement* element
    cdef CAttr* attr
    cdef CCharacterData* data
    cdef CProcessingInstruction* pi
    cdef uint32_t wanted
    if test == TEST_NODE:
        return True
    if ref.attr:
        if test == TEST_TEXT or test == TEST_COMMENT or test == TEST_PROCESSING_INSTRUCTION \
                or not principal_attribute:
            return False
        element = <CElement*> node
        attr = &element.attrs[ref.attr - 1]
        if test == TEST_ANY_NAME:
            return True
        if test == TEST_NAMESPACE_ANY:
            return attr.ns == b.namespace_ids[step.ns]
        if step.ns < 0:
            # Unprefixed: no namespace; ASCII case-insensitive on HTML elements.
            wanted = b.attr_lower[step.name] if element.ns == NS_HTML else b.attr_exact[step.name]
            return wanted != 0 and attr.ns == NS__UNDEF and attr.local_name == wanted
        wanted = b.attr_exact[step.name]
        return wanted != 0 and attr.ns == b.namespace_ids[step.ns] and attr.local_name == wanted
    if test == TEST_TEXT:
        return node.type == TEXT_NODE or node.type == CDATA_SECTION_NODE
    if test == TEST_COMMENT:
        return node.type == COMMENT_NODE
    if test == TEST_PROCESSING_INSTRUCTION:
        if node.type != PROCESSING_INSTRUCTION_NODE:
            return False
        if step.target < 0:
            return True
        pi = <CProcessingInstruction*> node
        return pi.target_length == b.string_length[step.target] and (
            pi.target_length == 0 or memcmp(pi.target, b.string_data[step.target],
                                            pi.target_length) == 0)
    if principal_attribute or node.type != ELEMENT_NODE:
        return False
    element = <CElement*> node
    if test == TEST_ANY_NAME:
        return True
    if step.ns >= 0 and not b.namespace_is_xhtml[step.ns]:
        if test == TEST_NAMESPACE_ANY:
            return element.ns == b.namespace_ids[step.ns]
        wanted = b.tag_exact[step.name]
        return wanted != 0 and element.ns == b.namespace_ids[step.ns] and element.tag_id == wanted
    # Unprefixed, or the XHTML namespace: HTML elements, ASCII
    # case-insensitively (https://html.spec.whatwg.org/#interactions-with-xpath-and-xslt).
    if test == TEST_NAMESPACE_ANY:
        return element.ns == NS_HTML
    wanted = b.tag_lower[step.name]
    return wanted != 0 and element.ns == NS_HTML and element.tag_id == wanted


# -- the axes ----------------------------------------------------------------

cdef struct AxisWalk:
    uint32_t axis
    NodeRef start
    CNode* current                # the tree node last handed out (or where to go on)
    CNode* ancestor               # preceding: the next ancestor of the start to skip
    uint32_t index                # attribute: the next attribute
    uint32_t state                # 0: nothing handed out yet


cdef inline void axis_start(AxisWalk* walk, uint32_t axis, NodeRef start) noexcept nogil:
    walk.axis = axis
    walk.start = start
    walk.current = NULL
    walk.ancestor = NULL
    walk.index = 0
    walk.state = 0


cdef inline CNode* skip_doctypes(CNode* node) noexcept nogil:
    while node != NULL and node.type == DOCUMENT_TYPE_NODE:
        node = node.next
    return node


cdef inline CNode* next_in_model(CNode* node, CNode* root) noexcept nogil:
    """The next node of the data model in preorder within root's subtree
    (root NULL: to the end of the tree)."""
    node = next_in_tree(node, root)
    while node != NULL and node.type == DOCUMENT_TYPE_NODE:
        node = next_in_tree(node, root)
    return node


cdef inline bint hand_out(AxisWalk* walk, CNode* node, NodeRef* out) noexcept nogil:
    """The walk's step to `node`, or its end when there is none."""
    if node == NULL:
        walk.state = 2
        return False
    walk.current = node
    out.node = node
    return True


cdef bint axis_next(AxisWalk* walk, NodeRef* out) noexcept nogil:
    """The next node of the axis in its proximity order (reverse document
    order on ancestor, ancestor-or-self, preceding, preceding-sibling),
    or False when there is none."""
    cdef uint32_t axis = walk.axis
    cdef CNode* start = walk.start.node
    cdef CNode* node
    cdef CElement* element
    out.attr = 0
    if axis == AXIS_SELF:
        if walk.state:
            return False
        walk.state = 1
        out[0] = walk.start
        return True
    if axis == AXIS_CHILD:
        if walk.start.attr:
            return False
        if walk.state == 2:
            return False
        node = start.first_child if walk.state == 0 else walk.current.next
        walk.state = 1
        return hand_out(walk, skip_doctypes(node), out)
    if axis == AXIS_DESCENDANT or axis == AXIS_DESCENDANT_OR_SELF:
        if walk.state == 0:
            walk.state = 1
            walk.current = start
            if axis == AXIS_DESCENDANT_OR_SELF:
                out[0] = walk.start
                if walk.start.attr:
                    walk.state = 2
                return True
        if walk.state == 2 or walk.start.attr:
            return False
        return hand_out(walk, next_in_model(walk.current, start), out)
    if axis == AXIS_PARENT:
        if walk.state:
            return False
        walk.state = 1
        node = start if walk.start.attr else start.parent
        if node == NULL:
            return False
        out.node = node
        return True
    if axis == AXIS_ANCESTOR or axis == AXIS_ANCESTOR_OR_SELF:
        if walk.state == 0:
            walk.state = 1
            if axis == AXIS_ANCESTOR_OR_SELF:
                out[0] = walk.start
                walk.current = NULL if walk.start.attr else start
                if walk.start.attr:
                    walk.state = 3            # next: the element itself
                return True
            if walk.start.attr:
                walk.current = start
                out.node = start
                return True
            walk.current = start
        if walk.state == 3:
            walk.state = 1
            walk.current = start
            out.node = start
            return True
        return hand_out(walk, walk.current.parent, out)
    if axis == AXIS_FOLLOWING_SIBLING or axis == AXIS_PRECEDING_SIBLING:
        if walk.start.attr or walk.state == 2:
            return False
        node = walk.current if walk.state else start
        walk.state = 1
        node = node.next if axis == AXIS_FOLLOWING_SIBLING else node.prev
        while node != NULL and node.type == DOCUMENT_TYPE_NODE:
            node = node.next if axis == AXIS_FOLLOWING_SIBLING else node.prev
        return hand_out(walk, node, out)
    if axis == AXIS_FOLLOWING:
        if walk.state == 2:
            return False
        if walk.state == 0:
            walk.state = 1
            # An attribute's following nodes are its element's (libxml2's
            # reading, which the cases follow: the element's children are
            # not among them).
            node = start
            while node != NULL and node.next == NULL:
                node = node.parent
            node = node.next if node != NULL else NULL
            while node != NULL and node.type == DOCUMENT_TYPE_NODE:
                node = next_in_tree(node, NULL)
        else:
            node = next_in_model(walk.current, NULL)
        return hand_out(walk, node, out)
    if axis == AXIS_PRECEDING:
        if walk.state == 2:
            return False
        if walk.state == 0:
            walk.state = 1
            walk.current = start          # an attribute's: those of its element
            walk.ancestor = start.parent
        node = walk.current
        while True:
            if node.prev != NULL:
                node = node.prev
                while node.last_child != NULL:
                    node = node.last_child
            else:
                node = node.parent
                if node == NULL:
                    walk.state = 2
                    return False
                if node == walk.ancestor:
                    walk.ancestor = node.parent
                    continue
            if node.type != DOCUMENT_TYPE_NODE:
                break
        return hand_out(walk, node, out)
    if axis == AXIS_ATTRIBUTE:
        if walk.start.attr or start.type != ELEMENT_NODE:
            return False
        element = <CElement*> start
        while walk.index < element.attr_count:
            walk.index += 1
            if not is_namespace_declaration(&element.attrs[walk.index - 1]):
                out.node = start
                out.attr = walk.index
                return True
        return False
    return False                          # namespace: none in HTML documents


cdef inline bint axis_is_reverse(uint32_t axis) noexcept nogil:
    return axis == AXIS_ANCESTOR or axis == AXIS_ANCESTOR_OR_SELF \
        or axis == AXIS_PRECEDING or axis == AXIS_PRECEDING_SIBLING


# -- node lists ----------------------------------------------------------------

cdef int node_list_push(NodeList* nodes, NodeRef ref) noexcept nogil:
    """0, or -1 when out of memory."""
    cdef size_t capacity
    cdef NodeRef* grown
    if nodes.count == nodes.capacity:
        capacity = nodes.capacity * 2 if nodes.capacity else 8
        grown = <NodeRef*> realloc(nodes.items, capacity * sizeof(NodeRef))
        if grown == NULL:
            return -1
        nodes.items = grown
        nodes.capacity = capacity
    nodes.items[nodes.count] = ref
    nodes.count += 1
    return 0


cdef void node_list_reverse(NodeList* nodes) noexcept nogil:
    cdef size_t i = 0, j
    cdef NodeRef swap
    if nodes.count < 2:
        return
    j = nodes.count - 1
    while i < j:
        swap = nodes.items[i]
        nodes.items[i] = nodes.items[j]
        nodes.items[j] = swap
        i += 1
        j -= 1


cdef CNode* tree_root(CNode* node) noexcept nogil:
    while node.parent != NULL:
        node = node.parent
    return node


# -- document order ---------------------------------------------------------

cdef struct OrderMap:
    CNode** keys
    size_t* ordinals
    size_t capacity               # a power of two, or 0 (not built)
    size_t count                  # nodes in it
    size_t next                   # the ordinal the next tree added starts at


cdef inline size_t order_slot(CNode* node, size_t mask) noexcept nogil:
    cdef uint64_t h = (<uint64_t> <size_t> node >> 4) * 0x9E3779B97F4A7C15ULL
    return (h ^ (h >> 29)) & mask


cdef int order_map_add_tree(OrderMap* order, CNode* root) noexcept nogil:
    """Numbers every node of the tree at `root` in preorder, after every
    node already in the map (grown to twice its nodes): O(n + the map). 0,
    or -1 when out of memory."""
    cdef size_t count = 0, capacity = order.capacity if order.capacity else 16, i, j, mask
    cdef CNode** keys
    cdef size_t* ordinals
    cdef CNode* node = root
    while node != NULL:
        count += 1
        node = next_in_tree(node, root)
    while capacity < 2 * (order.count + count):
        capacity *= 2
    if capacity != order.capacity:
        keys = <CNode**> calloc(capacity, sizeof(CNode*))
        ordinals = <size_t*> malloc(capacity * sizeof(size_t))
        if keys == NULL or ordinals == NULL:
            free(keys)
            free(ordinals)
            return -1
        mask = capacity - 1
        for j in range(order.capacity):
            if order.keys[j] != NULL:
                i = order_slot(order.keys[j], mask)
                while keys[i] != NULL:
                    i = (i + 1) & mask
                keys[i] = order.keys[j]
                ordinals[i] = order.ordinals[j]
        free(order.keys)
        free(order.ordinals)
        order.keys = keys
        order.ordinals = ordinals
        order.capacity = capacity
    mask = order.capacity - 1
    node = root
    while node != NULL:
        i = order_slot(node, mask)
        while order.keys[i] != NULL:
            i = (i + 1) & mask
        order.keys[i] = node
        order.ordinals[i] = order.next
        order.next += 1
        node = next_in_tree(node, root)
    order.count += count
    return 0


cdef int order_map_build(OrderMap* order, CNode* root) noexcept nogil:
    """Preorder ordinals of every node of the tree at `root`: O(n). 0, or
    -1 when out of memory."""
    return order_map_add_tree(order, root)


cdef inline size_t order_lookup(OrderMap* order, CNode* node) noexcept nogil:
    cdef size_t mask = order.capacity - 1
    cdef size_t i = order_slot(node, mask)
    while order.keys[i] != NULL:
        if order.keys[i] == node:
            return order.ordinals[i]
        i = (i + 1) & mask
    return <size_t> -1


cdef size_t order_of(OrderMap* order, CNode* node) noexcept nogil:
    cdef size_t ordinal = order_lookup(order, node)
    cdef CNode* root = node
    if ordinal != <size_t> -1:
        return ordinal
    # A node of another tree of the document (re:match()'s results, a
    # detached node an extension function gave, template contents): its
    # whole tree is numbered after the trees met before, once.
    while root.parent != NULL:
        root = root.parent
    if order_map_add_tree(order, root) != 0:
        return <size_t> -1                # out of memory: last
    return order_lookup(order, node)


cdef struct SortItem:
    size_t ordinal
    NodeRef ref


cdef int compare_sort_items(const void* a, const void* b) noexcept nogil:
    cdef const SortItem* x = <const SortItem*> a
    cdef const SortItem* y = <const SortItem*> b
    if x.ordinal != y.ordinal:
        return -1 if x.ordinal < y.ordinal else 1
    if x.ref.attr != y.ref.attr:
        return -1 if x.ref.attr < y.ref.attr else 1
    return 0


cdef int sort_node_list(NodeList* nodes, OrderMap* order) noexcept nogil:
    """Document order without duplicates: O(k log k) for k nodes. 0, or -1
    when out of memory."""
    cdef SortItem* items
    cdef size_t i, kept = 0
    if nodes.count < 2:
        return 0
    items = <SortItem*> malloc(nodes.count * sizeof(SortItem))
    if items == NULL:
        return -1
    for i in range(nodes.count):
        items[i].ordinal = order_of(order, nodes.items[i].node)
        items[i].ref = nodes.items[i]
    qsort(items, nodes.count, sizeof(SortItem), compare_sort_items)
    for i in range(nodes.count):
        if kept and items[i].ref.node == nodes.items[kept - 1].node \
                and items[i].ref.attr == nodes.items[kept - 1].attr:
            continue
        nodes.items[kept] = items[i].ref
        kept += 1
    nodes.count = kept
    free(items)
    return 0


# -- string-values -----------------------------------------------------------

cdef int text_of_subtree(CNode* root, lxp_byte_buffer* buffer) noexcept nogil:
    """The string-value of an element, document or fragment: its text
    descendants in document order (O(subtree)). 0, or -1 when out of memory."""
    cdef CNode* node = root.first_child
    cdef CCharacterData* data
    if node == NULL:
        return 0
    node = root
    while node != NULL:
        if node.type == TEXT_NODE or node.type == CDATA_SECTION_NODE:
            data = <CCharacterData*> node
            if lxp_byte_buffer_append(buffer, data.data, data.length) != 0:
                return -1
        node = next_in_tree(node, root)
    return 0
