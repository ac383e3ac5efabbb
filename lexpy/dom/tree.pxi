# Tree structure in C: linking, walking (iteratively, with template
# contents), cloning and reclaiming. No recursion over depth anywhere.

# ---------------------------------------------------------------------------
# Walking. A template element's contents (a DocumentFragment with `host`
# set) are visited as if they were the template's first child; the walk
# then goes on with the template's own children (only API-made templates
# have any). The serializer passes `template_children=False` to skip those,
# as the standard serializes the contents instead of the children.
# ---------------------------------------------------------------------------

cdef inline CNode* template_content_of(CNode* node) noexcept nogil:
    if node.type == ELEMENT_NODE:
        return (<CElement*> node).template_content
    return NULL


cdef inline CNode* fragment_host(CNode* node) noexcept nogil:
    if node.type == DOCUMENT_FRAGMENT_NODE:
        return (<CDocumentFragment*> node).host
    return NULL


cdef inline CNode* walk_first_child(CNode* node) noexcept nogil:
    cdef CNode* content = template_content_of(node)
    return content if content != NULL else node.first_child


cdef inline CNode* walk_parent(CNode* node) noexcept nogil:
    return node.parent if node.parent != NULL else fragment_host(node)


cdef inline CNode* walk_next_sibling(CNode* node,
                                     bint template_children) noexcept nogil:
    cdef CNode* host
    if node.parent == NULL:
        host = fragment_host(node)
        if host != NULL and template_children:
            return host.first_child
        return NULL
    return node.next


cdef CNode* walk_next(CNode* node, CNode* root,
                      bint template_children) noexcept nogil:
    """The node after `node` in tree order within root's subtree, or NULL."""
    cdef CNode* next_node = walk_first_child(node)
    if next_node != NULL:
        return next_node
    while node != root and node != NULL:
        next_node = walk_next_sibling(node, template_children)
        if next_node != NULL:
            return next_node
        node = walk_parent(node)
    return NULL


# next_in_tree (tree order over real children) is defined in dom.pxd, for
# the tree builder too.


# ---------------------------------------------------------------------------
# Linking (no checks: the tree builder knows its operations are valid; the
# Python layer checks the DOM's rules first)
# ---------------------------------------------------------------------------

cdef void node_remove(CNode* node) noexcept nogil:
    cdef CNode* parent = node.parent
    if parent == NULL:
        return
    node.owner.version += 1
    if node.prev != NULL:
        node.prev.next = node.next
    else:
        parent.first_child = node.next
    if node.next != NULL:
        node.next.prev = node.prev
    else:
        parent.last_child = node.prev
    node.parent = NULL
    node.prev = NULL
    node.next = NULL


cdef void node_insert_before(CNode* parent, CNode* child,
                             CNode* reference) noexcept nogil:
    if reference == child:
        reference = child.next
    if child.parent != NULL:
        node_remove(child)
    if reference == NULL:
        node_append_new_child(parent, child)
        return
    parent.owner.version += 1
    child.parent = parent
    child.prev = reference.prev
    child.next = reference
    if reference.prev != NULL:
        reference.prev.next = child
    else:
        parent.first_child = child
    reference.prev = child


cdef void node_append_child(CNode* parent, CNode* child) noexcept nogil:
    node_insert_before(parent, child, NULL)


# The API's linking (mutation.pxi, proxies.pxi): the same, and in a document
# parsed with positions the marks to_source() follows (the parser's linking
# above pays nothing for them).
cdef void api_remove(CNode* node) noexcept nogil:
    if node.parent != NULL:
        source_changed(node.parent, NODE_CHILDREN_CHANGED)
        note_removed_input(node.parent, node)
    node_remove(node)


cdef void api_insert_before(CNode* parent, CNode* child, CNode* reference) noexcept nogil:
    if child.parent != NULL:
        source_changed(child.parent, NODE_CHILDREN_CHANGED)
        note_removed_input(child.parent, child)
    node_insert_before(parent, child, reference)
    if parent.owner.record_sources and not parent.owner.building:
        # (the inserted node is written by the standard's rules)
        child.flags |= NODE_SELF_CHANGED | NODE_SUBTREE_CHANGED | NODE_MOVED
        node_mark_changed(parent, NODE_CHILDREN_CHANGED)


cdef void api_append_child(CNode* parent, CNode* child) noexcept nogil:
    api_insert_before(parent, child, NULL)


# ---------------------------------------------------------------------------
# Cloning: https://dom.spec.whatwg.org/#concept-node-clone (iteratively; a
# template's contents are cloned with it, as the HTML standard's cloning
# steps for template say)
# ---------------------------------------------------------------------------

cdef inline lxp_tag_id_t map_tag_id(CDocument* source, CDocument* target,
                                    lxp_tag_id_t id) noexcept nogil:
    cdef size_t length
    cdef const uint8_t* name
    if source == target or id < TAG__LAST_STATIC:
        return id
    name = tag_name_of(source.tag_names, id, &length)
    if name == NULL:
        return 0
    return tag_id_by_name(target.tag_names, name, length, True)


cdef inline lxp_attr_id_t map_attr_id(CDocument* source, CDocument* target,
                                      lxp_attr_id_t id) noexcept nogil:
    cdef size_t length
    cdef const uint8_t* name
    if source == target or id < ATTR__LAST_STATIC:
        return id
    name = attr_name_of(source.attr_names, id, &length)
    if name == NULL:
        return 0
    return attr_id_by_name(target.attr_names, name, length, True)


cdef inline lxp_ns_id_t map_ns_id(CDocument* source, CDocument* target,
                                  lxp_ns_id_t id) noexcept nogil:
    cdef size_t length
    cdef const uint8_t* uri
    if source == target or id < NS__LAST_STATIC:
        return id
    uri = namespace_uri_of(source, id, &length)
    return namespace_id(target, uri, length, True)


cdef CNode* node_clone_shallow(CNode* node, CDocument* target) noexcept nogil:
    """A copy of one node (no children) in `target`; NULL when out of memory
    or for a Document."""
    cdef CDocument* source = node.owner
    cdef CElement* element
    cdef CElement* copy
    cdef CAttr* attr
    cdef CCharacterData* data
    cdef CCharacterData* data_copy
    cdef CDocumentType* doctype
    cdef CDocumentType* doctype_copy
    cdef CDocumentFragment* fragment
    cdef uint8_t* value
    cdef lxp_tag_id_t tag_id
    cdef lxp_ns_id_t ns
    cdef lxp_attr_id_t local_name, prefix
    cdef uint32_t i
    if node.type == ELEMENT_NODE:
        element = <CElement*> node
        tag_id = map_tag_id(source, target, element.tag_id)
        ns = map_ns_id(source, target, element.ns)
        if tag_id == 0 or (ns == 0 and element.ns != 0):
            return NULL
        copy = element_create(target, tag_id, ns)
        if copy == NULL:
            return NULL
        if element.prefix:
            copy.prefix = map_attr_id(source, target, element.prefix)
            if copy.prefix == 0:
                return NULL
        if element_reserve_attributes(copy, element.attr_count) != 0:
            return NULL
        for i in range(element.attr_count):
            attr = &element.attrs[i]
            local_name = map_attr_id(source, target, attr.local_name)
            ns = map_ns_id(source, target, attr.ns)
            prefix = map_attr_id(source, target, attr.prefix) if attr.prefix else 0
            value = dom_copy(target, attr.value, attr.value_length)
            if local_name == 0 or (ns == 0 and attr.ns != 0) \
                    or (prefix == 0 and attr.prefix != 0) or value == NULL:
                return NULL
            element_add_attribute(copy, local_name, ns, prefix, value,
                                  attr.value_length)
        return &copy.node
    if node.type == TEXT_NODE or node.type == COMMENT_NODE \
            or node.type == PROCESSING_INSTRUCTION_NODE:
        data = <CCharacterData*> node
        data_copy = character_data_create(target, node.type)
        if data_copy == NULL:
            return NULL
        if character_data_set(data_copy, data.data, data.length) != 0:
            return NULL
        if node.type == PROCESSING_INSTRUCTION_NODE:
            if processing_instruction_set_target(
                    data_copy, (<CProcessingInstruction*> data).target,
                    (<CProcessingInstruction*> data).target_length) != 0:
                return NULL
        return &data_copy.node
    if node.type == DOCUMENT_TYPE_NODE:
        doctype = <CDocumentType*> node
        doctype_copy = doctype_create(target)
        if doctype_copy == NULL:
            return NULL
        if doctype_set(doctype_copy, doctype.name, doctype.name_length,
                       doctype.public_id, doctype.public_id_length,
                       doctype.system_id, doctype.system_id_length) != 0:
            return NULL
        return &doctype_copy.node
    if node.type == DOCUMENT_FRAGMENT_NODE:
        fragment = document_fragment_create(target)
        return &fragment.node if fragment != NULL else NULL
    return NULL


cdef inline CNode* clone_child_into(CNode* source_child, CNode* copy_parent,
                                    CDocument* target) noexcept nogil:
    """The copy of source_child under copy_parent: a template's contents map
    to the contents the copied template already has."""
    cdef CNode* copy
    if source_child.parent == NULL:       # a template's contents
        return template_content_of(copy_parent)
    copy = node_clone_shallow(source_child, target)
    if copy != NULL:
        node_append_child(copy_parent, copy)
    return copy


cdef CNode* node_clone_into(CNode* node, CDocument* target,
                            bint deep) noexcept nogil:
    cdef CNode* root_copy = node_clone_shallow(node, target)
    cdef CNode* source = node
    cdef CNode* copy = root_copy
    cdef CNode* child
    cdef CNode* copy_parent
    if root_copy == NULL or not deep:
        return root_copy
    while True:
        child = walk_first_child(source)
        if child != NULL:
            copy = clone_child_into(child, copy, target)
            if copy == NULL:
                return NULL
            source = child
            continue
        while True:
            if source == node:
                return root_copy
            child = walk_next_sibling(source, True)
            copy_parent = walk_parent(copy)
            if child != NULL:
                copy = clone_child_into(child, copy_parent, target)
                if copy == NULL:
                    return NULL
                source = child
                break
            source = walk_parent(source)
            copy = copy_parent


cdef CNode* node_clone(CNode* node, bint deep) noexcept nogil:
    return node_clone_into(node, node.owner, deep)


# ---------------------------------------------------------------------------
# Reclaiming detached subtrees that no proxy can reach (not in the standard)
# ---------------------------------------------------------------------------

cdef bint subtree_has_proxy(CNode* root) noexcept nogil:
    cdef CNode* node = root
    while node != NULL:
        if node.proxy != NULL:
            return True
        node = walk_next(node, root, True)
    return False


cdef void walks_forget(WalkCursor* cursor, CNode* node) noexcept nogil:
    """A reclaimed node is no longer a place an open walk can resume at: it
    was detached and unreachable, so it is never inside the walk's root
    again (its struct may be reused for a new node)."""
    while cursor != NULL:
        if cursor.sibling == node:
            cursor.sibling = NULL
        if cursor.parent == node:
            cursor.parent = NULL
        cursor = cursor.next


cdef void subtree_reclaim(CNode* root) noexcept nogil:
    """Put every node of a detached, proxy-less subtree on its free list.
    Free-list links go through CNode.proxy, so the walk can still read the
    other links of nodes it has already put on a list."""
    cdef CDocument* doc = root.owner
    cdef Arena* arena = &doc.arena
    cdef CNode* node = root
    cdef CNode* next_node
    cdef CCharacterData* data
    while node != NULL:
        next_node = walk_next(node, root, True)
        if doc.walks != NULL:
            walks_forget(doc.walks, node)
        node.flags |= NODE_RECLAIMED
        if arena.recycled != NULL and (
                node.type == ELEMENT_NODE or node.type == TEXT_NODE
                or node.type == COMMENT_NODE or node.type == PROCESSING_INSTRUCTION_NODE):
            arena_stream_free_node(node)    # (a streaming document: arena.pxi)
        elif node.type == ELEMENT_NODE:
            arena_put_free(&arena.free_elements, node)
        elif node.type == TEXT_NODE or node.type == COMMENT_NODE \
                or node.type == PROCESSING_INSTRUCTION_NODE:
            data = <CCharacterData*> node
            if node.flags & NODE_DATA_BIG:
                arena_big_free(arena, data.data)
                data.data = NULL
                data.capacity = 0
                node.flags &= ~NODE_DATA_BIG
            arena_put_free(&arena.free_character_data, node)
        elif node.type == DOCUMENT_TYPE_NODE:
            arena_put_free(&arena.free_doctypes, node)
        elif node.type == DOCUMENT_FRAGMENT_NODE:
            arena_put_free(&arena.free_fragments, node)
        node = next_node


cdef bint node_is_detached_root(CNode* node) noexcept nogil:
    return node.parent == NULL and node.type != DOCUMENT_NODE \
        and fragment_host(node) == NULL


cdef void node_try_reclaim(CNode* node) noexcept nogil:
    """Reclaim node's subtree when it is a detached root no proxy reaches and
    no tree builder is working on its document. For a template's contents,
    try their template."""
    cdef CNode* host = fragment_host(node)
    if host != NULL:
        node = host
    if node.owner.building == 0 and node_is_detached_root(node) \
            and not subtree_has_proxy(node):
        subtree_reclaim(node)


cdef int node_free_during_build(CNode* node, NodeQuery held,
                                void* context) noexcept nogil:
    """Detach and free a subtree while a tree builder is still building
    the document (node_try_reclaim refuses then: the builder may hold
    pointers into it). The caller answers for the builder: `held(context,
    n)` is true for a node the builder references (open, in its lists, a
    pointer of its). 1 (nothing done) when a node of the subtree, template
    contents included, is held or reached by a proxy; else 0."""
    cdef CNode* walk = node
    if node.type == DOCUMENT_NODE or node.type == DOCUMENT_FRAGMENT_NODE:
        return 1
    while walk != NULL:
        if walk.proxy != NULL or held(context, walk):
            return 1
        walk = walk_next(walk, node, True)
    node_remove(node)
    subtree_reclaim(node)
    return 0
