# Mutation through the Python API: the DOM standard's checks, insertion,
# replacement, removal and adoption across documents.
# https://dom.spec.whatwg.org/#mutation-algorithms


class HierarchyRequestError(ValueError):
    """The operation would make a tree the DOM does not allow."""


class NotFoundError(ValueError):
    """The reference node is not where the operation expects it."""


class InvalidCharacterError(ValueError):
    """A name has a character the DOM does not allow there."""


class NamespaceError(ValueError):
    """A prefix and a namespace do not go together."""


cdef enum InsertionProblem:
    INSERTION_OK = 0
    PARENT_CANNOT_HAVE_CHILDREN
    NODE_IS_ANCESTOR
    REFERENCE_NOT_A_CHILD
    NODE_CANNOT_BE_INSERTED
    TEXT_IN_DOCUMENT
    DOCTYPE_OUTSIDE_DOCUMENT
    FRAGMENT_TOO_MANY_ELEMENTS
    FRAGMENT_WITH_TEXT
    SECOND_DOCUMENT_ELEMENT
    ELEMENT_BEFORE_DOCTYPE
    SECOND_DOCTYPE
    DOCTYPE_AFTER_ELEMENT


cdef dict INSERTION_MESSAGES = {
    PARENT_CANNOT_HAVE_CHILDREN: "this kind of node cannot have children",
    NODE_IS_ANCESTOR: "a node cannot be inserted into itself or into one "
                      "of its descendants",
    REFERENCE_NOT_A_CHILD: "the reference node is not a child of this node",
    NODE_CANNOT_BE_INSERTED: "a Document cannot be inserted into a tree",
    TEXT_IN_DOCUMENT: "a Document cannot have Text children",
    DOCTYPE_OUTSIDE_DOCUMENT: "a DocumentType can only be a child of a Document",
    FRAGMENT_TOO_MANY_ELEMENTS: "a Document can have only one element child, "
                                "and the DocumentFragment has more",
    FRAGMENT_WITH_TEXT: "a Document cannot have Text children, and the "
                        "DocumentFragment has some",
    SECOND_DOCUMENT_ELEMENT: "the Document already has a document element",
    ELEMENT_BEFORE_DOCTYPE: "the document element cannot go before the doctype",
    SECOND_DOCTYPE: "the Document already has a doctype",
    DOCTYPE_AFTER_ELEMENT: "the doctype cannot go after the document element",
}


cdef int raise_insertion_problem(int problem) except -1:
    message = INSERTION_MESSAGES[problem]
    if problem == REFERENCE_NOT_A_CHILD:
        raise NotFoundError(message)
    raise HierarchyRequestError(message)


cdef inline bint can_have_children(CNode* node) noexcept nogil:
    return node.type == ELEMENT_NODE or node.type == DOCUMENT_NODE \
        or node.type == DOCUMENT_FRAGMENT_NODE


# https://dom.spec.whatwg.org/#concept-tree-host-including-inclusive-ancestor
cdef bint is_host_including_inclusive_ancestor(CNode* ancestor,
                                               CNode* node) noexcept nogil:
    if ancestor == node:
        return True
    # A node with no children and no template contents cannot be an
    # ancestor of anything else: the common case, answered without a walk up.
    if ancestor.first_child == NULL and template_content_of(ancestor) == NULL:
        return False
    while node != NULL:
        if node == ancestor:
            return True
        node = walk_parent(node)
    return False


cdef bint has_element_child(CNode* parent, CNode* except_node) noexcept nogil:
    cdef CNode* child = parent.first_child
    while child != NULL:
        if child.type == ELEMENT_NODE and child != except_node:
            return True
        child = child.next
    return False


cdef bint has_doctype_child(CNode* parent, CNode* except_node) noexcept nogil:
    cdef CNode* child = parent.first_child
    while child != NULL:
        if child.type == DOCUMENT_TYPE_NODE and child != except_node:
            return True
        child = child.next
    return False


cdef bint doctype_follows(CNode* child) noexcept nogil:
    child = child.next
    while child != NULL:
        if child.type == DOCUMENT_TYPE_NODE:
            return True
        child = child.next
    return False


cdef bint element_precedes(CNode* child) noexcept nogil:
    child = child.prev
    while child != NULL:
        if child.type == ELEMENT_NODE:
            return True
        child = child.prev
    return False


# https://dom.spec.whatwg.org/#concept-node-ensure-pre-insertion-validity
# and the checks of https://dom.spec.whatwg.org/#concept-node-replace
# (`replacing`: child is the node being replaced).
cdef int insertion_problem(CNode* parent, CNode* node, CNode* child,
                           bint replacing) noexcept nogil:
    cdef CNode* c
    cdef size_t elements = 0
    if not can_have_children(parent):
        return PARENT_CANNOT_HAVE_CHILDREN
    if is_host_including_inclusive_ancestor(node, parent):
        return NODE_IS_ANCESTOR
    if child != NULL and child.parent != parent:
        return REFERENCE_NOT_A_CHILD
    if node.type == DOCUMENT_NODE:
        return NODE_CANNOT_BE_INSERTED
    if node.type == TEXT_NODE and parent.type == DOCUMENT_NODE:
        return TEXT_IN_DOCUMENT
    if node.type == DOCUMENT_TYPE_NODE and parent.type != DOCUMENT_NODE:
        return DOCTYPE_OUTSIDE_DOCUMENT
    if parent.type != DOCUMENT_NODE:
        return INSERTION_OK
    if node.type == DOCUMENT_FRAGMENT_NODE:
        c = node.first_child
        while c != NULL:
            if c.type == ELEMENT_NODE:
                elements += 1
                if elements > 1:
                    return FRAGMENT_TOO_MANY_ELEMENTS
            elif c.type == TEXT_NODE:
                return FRAGMENT_WITH_TEXT
            c = c.next
        if elements > 1:
            return FRAGMENT_TOO_MANY_ELEMENTS
        if elements == 1:
            if has_element_child(parent, child if replacing else NULL):
                return SECOND_DOCUMENT_ELEMENT
            if child != NULL and (doctype_follows(child) or (
                    not replacing and child.type == DOCUMENT_TYPE_NODE)):
                return ELEMENT_BEFORE_DOCTYPE
    elif node.type == ELEMENT_NODE:
        if has_element_child(parent, child if replacing else NULL):
            return SECOND_DOCUMENT_ELEMENT
        if child != NULL and (doctype_follows(child) or (
                not replacing and child.type == DOCUMENT_TYPE_NODE)):
            return ELEMENT_BEFORE_DOCTYPE
    elif node.type == DOCUMENT_TYPE_NODE:
        if has_doctype_child(parent, child if replacing else NULL):
            return SECOND_DOCTYPE
        if child != NULL and element_precedes(child):
            return DOCTYPE_AFTER_ELEMENT
        if child == NULL and has_element_child(parent, NULL):
            return DOCTYPE_AFTER_ELEMENT
    return INSERTION_OK


cdef CNode* adopt_node(CNode* c_node, Document target) except NULL:
    """https://dom.spec.whatwg.org/#concept-node-adopt across arenas: copy
    the subtree into the target document, hand every live proxy over to its
    copy, then take the original out and reclaim it."""
    cdef Document source = <Document> c_node.owner.node.proxy   # kept alive
    cdef CNode* copy
    cdef CNode* old_node
    cdef CNode* new_node
    cdef Node proxy
    if c_node.owner == target.c_doc:
        return c_node
    check_not_read(c_node.owner)
    check_not_read(target.c_doc)
    copy = node_clone_into(c_node, target.c_doc, True)
    if copy == NULL:
        raise MemoryError()
    old_node = c_node
    new_node = copy
    while old_node != NULL and new_node != NULL:
        if old_node.proxy != NULL:
            proxy = <Node> old_node.proxy
            old_node.proxy = NULL
            new_node.proxy = <void*> proxy
            proxy.c_node = new_node
            proxy.doc = target
        old_node = walk_next(old_node, c_node, True)
        new_node = walk_next(new_node, copy, True)
    api_remove(c_node)
    node_try_reclaim(c_node)
    return copy


cdef CNode* copy_fragment_children(Node fragment, Document target) except NULL:
    """A detached DocumentFragment of `target` holding copies of the
    children of `fragment` (a fresh parse in a document of its own, which
    goes with it). The copies reuse target's reclaimed structs, so setting
    inner_html again and again keeps the document's memory flat; moving the
    parse's nodes in with its arena instead (no copy) would add each
    parse's blocks to the document until it goes (4 KiB for '<b>x</b>').
    Nothing in target changes when this raises MemoryError."""
    cdef CNode* child = fragment.c_node.first_child
    cdef CNode* copy
    cdef CDocumentFragment* holder
    check_not_read(target.c_doc)        # names join target's tables
    holder = document_fragment_create(target.c_doc)
    if holder == NULL:
        raise MemoryError()
    while child != NULL:
        copy = node_clone_into(child, target.c_doc, True)
        if copy == NULL:
            node_try_reclaim(&holder.node)
            raise MemoryError()
        api_append_child(&holder.node, copy)
        child = child.next
    return &holder.node


cdef int move_children(CNode* holder, Node parent) except -1:
    """Append the children of `holder`, a detached DocumentFragment of
    parent's document (copy_fragment_children), to `parent`; the emptied
    holder is reclaimed."""
    cdef CNode* child
    check_not_read(parent.c_node.owner)
    while holder.first_child != NULL:
        child = holder.first_child
        api_remove(child)
        api_append_child(parent.c_node, child)
    node_try_reclaim(holder)
    return 0


cdef int insert_node(Node parent, Node node, CNode* reference) except -1:
    """https://dom.spec.whatwg.org/#concept-node-insert after the checks:
    the children of a DocumentFragment move, other nodes move themselves;
    nodes of another document are adopted first."""
    cdef Document target = document_of(parent)
    cdef CNode* c_parent = parent.c_node
    cdef CNode* c_node = node.c_node
    cdef CNode* child
    cdef CNode* next_child
    if c_node.type == DOCUMENT_FRAGMENT_NODE:
        child = c_node.first_child
        while child != NULL:
            next_child = child.next
            if child.owner != target.c_doc:
                child = adopt_node(child, target)
            api_insert_before(c_parent, child, reference)
            child = next_child
        return 0
    if c_node.owner != target.c_doc:
        c_node = adopt_node(c_node, target)
    api_insert_before(c_parent, c_node, reference)
    return 0


# https://dom.spec.whatwg.org/#concept-node-pre-insert
cdef Node pre_insert(Node parent, object node_object, object child_object):
    cdef Node node = as_node(node_object, "node")
    cdef Node child = None
    cdef CNode* reference = NULL
    cdef int problem
    live(parent)
    if child_object is not None:
        child = as_node(child_object, "reference child")
        reference = child.c_node
    problem = insertion_problem(parent.c_node, node.c_node, reference, False)
    if problem:
        raise_insertion_problem(problem)
    check_not_read(parent.c_node.owner)
    check_not_read(node.c_node.owner)
    if reference == node.c_node:
        reference = node.c_node.next
    insert_node(parent, node, reference)
    return node


# https://dom.spec.whatwg.org/#concept-node-replace
cdef Node replace_child(Node parent, object node_object, object child_object):
    cdef Node node = as_node(node_object, "node")
    cdef Node child = as_node(child_object, "child")
    cdef CNode* reference
    cdef int problem
    live(parent)
    problem = insertion_problem(parent.c_node, node.c_node, child.c_node, True)
    if problem:
        raise_insertion_problem(problem)
    check_not_read(parent.c_node.owner)
    check_not_read(node.c_node.owner)
    reference = child.c_node.next
    if reference == node.c_node:
        reference = node.c_node.next
    if child.c_node != node.c_node:
        api_remove(child.c_node)
    insert_node(parent, node, reference)
    return child


# https://dom.spec.whatwg.org/#concept-node-pre-remove
cdef Node remove_child(Node parent, object child_object):
    cdef Node child = as_node(child_object, "child")
    live(parent)
    if child.c_node.parent != parent.c_node:
        raise NotFoundError("the node is not a child of this node")
    check_not_read(child.c_node.owner)
    api_remove(child.c_node)
    return child


# https://dom.spec.whatwg.org/#string-replace-all
cdef int replace_all_with_text(Node parent, object value) except -1:
    cdef bytes data = encode_utf8(value, "text") if value is not None else b""
    cdef CNode* c_parent = live(parent)
    cdef CNode* child = c_parent.first_child
    cdef CNode* next_child
    cdef CCharacterData* text
    check_not_read(c_parent.owner)
    while child != NULL:
        next_child = child.next
        api_remove(child)
        node_try_reclaim(child)
        child = next_child
    if len(data):
        text = text_create(c_parent.owner)
        if text == NULL or character_data_set(text, data, len(data)) != 0:
            raise MemoryError()
        api_append_child(c_parent, &text.node)
    return 0


# https://dom.spec.whatwg.org/#converting-nodes-into-a-node
cdef Node convert_nodes_into_a_node(Document doc, tuple nodes):
    cdef list converted = []
    cdef Node fragment
    cdef object item
    for item in nodes:
        if isinstance(item, str):
            converted.append(doc.create_text_node(item))
        else:
            converted.append(as_node(item, "node"))
    if len(converted) == 1:
        return converted[0]
    fragment = doc.create_document_fragment()
    for item in converted:
        pre_insert(fragment, item, None)
    return fragment
