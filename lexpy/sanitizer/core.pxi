# The walk: the Sanitizer API's "sanitize core" over a node's children
# (https://wicg.github.io/sanitizer-api/#sanitize-core), iteratively: the
# recursion of the Standard becomes a walk in tree order with a stack of
# template contents still to walk.

cdef struct Counts:
    size_t elements_removed
    size_t elements_unwrapped
    size_t attributes_removed
    size_t others_removed        # comments and processing instructions


cdef inline CNode* following(CNode* node, CNode* root) noexcept nogil:
    """The node after `node`'s subtree in tree order within `root`."""
    while node != NULL and node != root:
        if node.next != NULL:
            return node.next
        node = node.parent
    return NULL


cdef inline void discard(CNode* node) noexcept nogil:
    node_remove(node)
    node_try_reclaim(node)


cdef bint is_data_attribute(CDocument* doc, CAttr* attr) noexcept nogil:
    cdef size_t n
    cdef const uint8_t* name
    if attr.ns != NS__UNDEF:
        return False
    name = attr_name_of(doc.attr_names, attr.local_name, &n)
    return name != NULL and n >= 5 and memcmp(name, b"data-", 5) == 0


# Whether the configuration removes an attribute of a kept element with
# rule `rule` (-1: none). The attribute steps of sanitize core.
cdef bint config_removes_attribute(Tables* t, CDocument* doc, int32_t rule,
                                   CAttr* attr) noexcept nogil:
    cdef uint64_t key
    if attr.ns >= MAX_NS:
        return t.attributes_allow
    key = (<uint64_t> attr.ns << KEY_NS_SHIFT) | attr.local_name
    if rule >= 0 and has_key(t.local_remove, t.local_remove_count,
                             key | ((<uint64_t> rule + 1) << KEY_RULE_SHIFT)):
        return True
    if t.attributes_allow:
        if has_key(t.attributes, t.attribute_count, key):
            return False
        if rule >= 0 and t.rule_has_allow[rule] and has_key(
                t.local_allow, t.local_allow_count,
                key | ((<uint64_t> rule + 1) << KEY_RULE_SHIFT)):
            return False
        if t.data_attributes and is_data_attribute(doc, attr):
            return False
        return True
    if rule >= 0 and t.rule_has_allow[rule]:
        return not has_key(t.local_allow, t.local_allow_count,
                           key | ((<uint64_t> rule + 1) << KEY_RULE_SHIFT))
    return has_key(t.attributes, t.attribute_count, key)


cdef bint pi_listed(Tables* t, CProcessingInstruction* pi) noexcept nogil:
    cdef size_t i
    for i in range(t.pi_count):
        if t.pi_lengths[i] == pi.target_length and (
                pi.target_length == 0 or memcmp(t.pi_targets[i], pi.target,
                                                pi.target_length) == 0):
            return True
    return False


cdef int32_t element_value(Tables* t, CElement* element) noexcept nogil:
    if element.ns >= MAX_NS:
        return t.default_value
    return find_entry(t.elements, t.element_count,
                      (<uint64_t> element.ns << KEY_NS_SHIFT) | element.tag_id,
                      t.default_value)


# Sanitize the children of `root` (and the contents of every kept template
# below it). -1 when out of memory.
cdef int sanitize_children(Tables* t, CNode* start_root, Counts* counts) noexcept nogil:
    cdef CNode** pending = NULL
    cdef size_t pending_count = 0, pending_capacity = 0
    cdef CNode** grown
    cdef CNode* root = start_root
    cdef CNode* node
    cdef CNode* next_node
    cdef CNode* child
    cdef CNode* after_child
    cdef CElement* element
    cdef CDocument* doc = start_root.owner
    cdef int32_t value, action, rule
    cdef uint32_t i
    cdef bint remove
    while root != NULL:
        node = root.first_child
        while node != NULL:
            if node.type == TEXT_NODE:
                node = following(node, root)
                continue
            if node.type == COMMENT_NODE:
                next_node = following(node, root)
                if not t.comments or (t.safe and comment_is_unsafe(<CCharacterData*> node)):
                    discard(node)
                    counts.others_removed += 1
                node = next_node
                continue
            if node.type == PROCESSING_INSTRUCTION_NODE:
                next_node = following(node, root)
                remove = pi_listed(t, <CProcessingInstruction*> node)
                if t.pi_allow:
                    remove = not remove
                if remove or (t.safe and processing_instruction_is_unsafe(
                        <CProcessingInstruction*> node)):
                    discard(node)
                    counts.others_removed += 1
                node = next_node
                continue
            if node.type != ELEMENT_NODE:
                node = following(node, root)    # a doctype
                continue
            element = <CElement*> node
            if t.safe and (baseline_removes_element(element)
                           or style_element_is_dangerous(element)
                           or raw_text_is_unsafe(element)):
                value = ACT_REMOVE
            else:
                value = element_value(t, element)
            action = value & 3
            rule = (value >> RULE_SHIFT) - 1
            if action == ACT_UNWRAP:
                # Its children take its place and are walked next.
                child = node.first_child
                next_node = child if child != NULL else following(node, root)
                while child != NULL:
                    after_child = child.next
                    node_insert_before(node.parent, child, node)
                    child = after_child
                discard(node)
                counts.elements_unwrapped += 1
                node = next_node
                continue
            if action == ACT_REMOVE:
                next_node = following(node, root)
                discard(node)
                counts.elements_removed += 1
                node = next_node
                continue
            i = 0
            while i < element.attr_count:
                if config_removes_attribute(t, doc, rule, &element.attrs[i]) or (
                        t.safe and baseline_removes_attribute(element, &element.attrs[i])):
                    element_remove_attribute_at(element, i)
                    counts.attributes_removed += 1
                else:
                    i += 1
            if element.template_content != NULL:
                if pending_count == pending_capacity:
                    pending_capacity = pending_capacity * 2 + 8
                    grown = <CNode**> realloc(pending, pending_capacity * sizeof(CNode*))
                    if grown == NULL:
                        free(pending)
                        return -1
                    pending = grown
                pending[pending_count] = element.template_content
                pending_count += 1
            node = node.first_child if node.first_child != NULL else following(node, root)
        if pending_count == 0:
            break
        pending_count -= 1
        root = pending[pending_count]
    free(pending)
    return 0


def sanitize_node(Node root not None, Program program not None):
    """Run the walk on `root`'s children (and template contents) in place.
    Returns (elements removed, elements unwrapped, attributes removed,
    comments and processing instructions removed)."""
    cdef CNode* c_root = root.c_node
    cdef CDocument* doc
    cdef Tables t
    cdef Counts counts
    cdef int status
    if c_root == NULL:
        raise ValueError("this node belongs to no document")
    doc = c_root.owner
    if doc.readers != 0:
        raise RuntimeError("the tree is being read by another thread")
    memset(&counts, 0, sizeof(Counts))
    program.resolve(doc, &t)
    with nogil:
        if c_root.type == ELEMENT_NODE and (<CElement*> c_root).template_content != NULL:
            status = sanitize_children(&t, (<CElement*> c_root).template_content, &counts)
        else:
            status = 0
        if status == 0:
            status = sanitize_children(&t, c_root, &counts)
    tables_free(&t)
    if status != 0:
        raise MemoryError()
    return (counts.elements_removed, counts.elements_unwrapped, counts.attributes_removed,
            counts.others_removed)
