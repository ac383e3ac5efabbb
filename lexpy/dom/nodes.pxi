# Node structs: creation, attributes, character data, DOCTYPE fields and
# names. Everything here is C: no Python objects, no GIL.

# CNode.flags bits (implementation detail).
cdef enum NodeFlags:
    NODE_DATA_BIG = 0x1       # character data lives in a BigBlock of its own
    NODE_DATA_SLACK = 0x2     # the last growth doubled: keep the capacity
    NODE_RECLAIMED = 0x4      # on a free list
    NODE_HAS_SOURCE = 0x8     # its SourceRecord holds a span (positions)
    NODE_SELF_CHANGED = 0x10  # positions: the API changed its attributes,
                              # name or data since the parse (to_source)
    NODE_CHILDREN_CHANGED = 0x20  # ... its children (inserted, removed)
    NODE_SUBTREE_CHANGED = 0x40   # ... something in its subtree
    NODE_SOURCE_GATHERED = 0x80   # its source holds other input between its
                                  # pieces (foster-parented text, ...)
    NODE_REMOVED_INPUT = 0x10000  # positions, set by the API after the parse
                                  # (above the tree builder's bits, which it
                                  # uses while it parses): an element without
                                  # a source whose SourceRecord holds the
                                  # extent of the input of the children the
                                  # API took out of it (note_removed_input)
    NODE_MOVED = 0x20000          # positions, set by the API: inserted where
                                  # the parser did not put it (moved, or
                                  # made by the API); to_source() works out
                                  # regions from the parsed tree without it


# ---------------------------------------------------------------------------
# Source records (positions): in the arena just before the node struct, in
# a document that records sources only.
# ---------------------------------------------------------------------------

cdef inline uint8_t* node_alloc(CDocument* doc, size_t size) noexcept nogil:
    """Arena memory for a node struct (with room for its SourceRecord in
    front when the document records sources: record_sources is that size,
    else 0; node_set_source fills it)."""
    cdef size_t prefix = doc.record_sources
    cdef uint8_t* memory = dom_alloc(doc, size + prefix)
    return memory + prefix if memory != NULL else NULL


cdef inline SourceRecord* record_of(CNode* node) noexcept nogil:
    return <SourceRecord*> ((<uint8_t*> node) - sizeof(SourceRecord))


cdef SourceRecord* node_source(CNode* node) noexcept nogil:
    if node.flags & NODE_HAS_SOURCE:
        return record_of(node)
    return NULL


cdef void node_set_source(CNode* node, size_t start, size_t end) noexcept nogil:
    cdef SourceRecord* record
    if not node.owner.record_sources or end >= SOURCE_NONE or start > end:
        return
    record = record_of(node)
    record.start = <uint32_t> start
    record.end = <uint32_t> end
    record.end_tag_start = record.end_tag_end = SOURCE_NONE
    node.flags |= NODE_HAS_SOURCE


cdef void node_source_extend(CNode* node, size_t start, size_t end) noexcept nogil:
    cdef SourceRecord* record
    if not node.flags & NODE_HAS_SOURCE:
        return
    record = record_of(node)
    if start != record.end:
        node.flags |= NODE_SOURCE_GATHERED
    if end >= SOURCE_NONE:
        node.flags &= ~(<uint32_t> NODE_HAS_SOURCE)
    elif end > record.end:
        record.end = <uint32_t> end


cdef void node_source_mark_gathered(CNode* node) noexcept nogil:
    node.flags |= NODE_SOURCE_GATHERED


cdef void element_set_end_source(CNode* node, size_t start, size_t end) noexcept nogil:
    cdef SourceRecord* record
    if not node.flags & NODE_HAS_SOURCE or end >= SOURCE_NONE:
        return
    record = record_of(node)
    if record.end_tag_start == SOURCE_NONE and start >= record.end:
        record.end_tag_start = <uint32_t> start
        record.end_tag_end = <uint32_t> end


cdef void node_mark_changed(CNode* node, uint32_t what) noexcept nogil:
    """positions: the API changed `node` (NODE_SELF_CHANGED: its own
    attributes, name or data; NODE_CHILDREN_CHANGED: its children); its
    ancestors (a template's contents': the template's too) learn that their
    subtree changed."""
    node.flags |= what | NODE_SUBTREE_CHANGED
    while True:
        if node.parent != NULL:
            node = node.parent
        elif node.type == DOCUMENT_FRAGMENT_NODE and \
                (<CDocumentFragment*> node).host != NULL:
            node = (<CDocumentFragment*> node).host
        else:
            return
        if node.flags & NODE_SUBTREE_CHANGED:
            return
        node.flags |= NODE_SUBTREE_CHANGED


cdef void note_removed_input(CNode* parent, CNode* child) noexcept nogil:
    """positions: the input of child's subtree, which the API takes out of
    parent, kept (merged) in the unused SourceRecord of a parent the parser
    made (an implied tbody, ...: no input of its own, so that to_source()
    finds its content's input when nothing is left in it). A subtree the
    API moved there (NODE_MOVED) is left out: its input was never the
    parent's content (it is where the parser put it); the input of
    children taken out of an element the parser made in the subtree is
    kept (it was in parent too). Iterative."""
    cdef CNode* node = child
    cdef SourceRecord* record
    cdef SourceRecord* own
    cdef uint32_t low = SOURCE_NONE, high = 0
    cdef bint moved
    if not parent.owner.record_sources or parent.owner.building \
            or parent.flags & NODE_HAS_SOURCE or parent.type != ELEMENT_NODE \
            or child.owner != parent.owner:
        return
    while True:
        moved = (node.flags & NODE_MOVED) != 0
        record = node_source(node) if not moved else NULL
        if record == NULL and not moved and node.flags & NODE_REMOVED_INPUT:
            # (an element the parser made that the API had taken children
            # out of: their input was in it; its record holds only their
            # extent, start and end)
            own = record_of(node)
            if own.start < low:
                low = own.start
            if own.end > high:
                high = own.end
        if record != NULL:
            if record.start < low:
                low = record.start
            if record.end > high:
                high = record.end
            if record.end_tag_start != SOURCE_NONE and record.end_tag_end > high:
                high = record.end_tag_end
        if node.first_child != NULL and not moved:
            node = node.first_child
            continue
        while node != child and node.next == NULL:
            node = node.parent
        if node == child:
            break
        node = node.next
    if low == SOURCE_NONE:
        return
    own = record_of(parent)
    if parent.flags & NODE_REMOVED_INPUT:
        if own.start < low:
            low = own.start
        if own.end > high:
            high = own.end
    own.start = low
    own.end = high
    parent.flags |= NODE_REMOVED_INPUT


cdef inline void source_changed(CNode* node, uint32_t what) noexcept nogil:
    """A change the API makes (to_source() serializes what it touched):
    nothing in a document without positions, nor while the parser builds."""
    if node.owner.record_sources and not node.owner.building:
        node_mark_changed(node, what)


# node_init: dom.pxd (the tree builder's bulk creation shares it).


cdef CDocumentFragment* document_fragment_create(CDocument* doc) noexcept nogil:
    cdef CDocumentFragment* fragment = <CDocumentFragment*> arena_take_free(
        &doc.arena.free_fragments)
    if fragment == NULL:
        fragment = <CDocumentFragment*> node_alloc(doc, sizeof(CDocumentFragment))
        if fragment == NULL:
            return NULL
    node_init(&fragment.node, DOCUMENT_FRAGMENT_NODE, doc)
    fragment.host = NULL
    return fragment


# ---------------------------------------------------------------------------
# Elements and attributes
# ---------------------------------------------------------------------------

cdef CElement* element_create(CDocument* doc, lxp_tag_id_t tag_id,
                              lxp_ns_id_t ns) noexcept nogil:
    cdef CElement* element
    if doc.arena.recycled != NULL:
        return element_create_with_room_slow(doc, tag_id, ns, 0, 0)
    element = <CElement*> arena_take_free(&doc.arena.free_elements)
    if element == NULL:
        element = <CElement*> node_alloc(doc, sizeof(CElement))
        if element == NULL:
            return NULL
        element.attrs = NULL
        element.attr_capacity = 0
    # (A recycled struct keeps its attribute array.)
    element_init(element, doc, tag_id, ns, element.attrs, element.attr_capacity)
    if tag_id == TAG_TEMPLATE and ns == NS_HTML \
            and element_create_template_contents(element) != 0:
        return NULL
    return element


cdef int element_create_template_contents(CElement* element) noexcept nogil:
    """A new template element's contents: an empty DocumentFragment of
    its document whose host it is. -1 when out of memory."""
    # https://html.spec.whatwg.org/multipage/scripting.html#template-contents
    cdef CDocumentFragment* content = document_fragment_create(element.node.owner)
    if content == NULL:
        return -1
    content.host = &element.node
    element.template_content = &content.node
    return 0


cdef CElement* element_create_with_room_slow(CDocument* doc, lxp_tag_id_t tag_id,
                                             lxp_ns_id_t ns, uint32_t attr_count,
                                             size_t extra) noexcept nogil:
    cdef uint8_t** room = &doc.arena.made_room
    cdef size_t prefix = doc.record_sources
    cdef size_t attrs_size = <size_t> attr_count * sizeof(CAttr)
    cdef uint8_t* memory
    cdef CElement* element
    if doc.arena.recycled == NULL:
        # (A document with reclaimed elements to reuse, or an element the
        # inline path leaves out: a template, many attributes, big values.)
        element = element_create(doc, tag_id, ns)
        if element == NULL:
            return NULL
        if attr_count and element_reserve_attributes(element, attr_count) != 0:
            return NULL
        room[0] = dom_alloc(doc, extra if extra else 1)
        if room[0] == NULL:
            return NULL
        return element
    # A streaming document: one block (arena.pxi).
    if extra > (<size_t> -1) / 2 or attrs_size / sizeof(CAttr) != attr_count:
        return NULL
    memory = arena_stream_block(doc, prefix + sizeof(CElement) + attrs_size + extra)
    if memory == NULL:
        return NULL
    element = <CElement*> (memory + prefix)
    element_init(element, doc, tag_id, ns,
                 <CAttr*> (memory + prefix + sizeof(CElement)) if attr_count else NULL,
                 attr_count)
    room[0] = memory + prefix + sizeof(CElement) + attrs_size
    if tag_id == TAG_TEMPLATE and ns == NS_HTML \
            and element_create_template_contents(element) != 0:
        return NULL
    return element


cdef uint8_t* text_create_with_room_slow(CDocument* doc, size_t extra) noexcept nogil:
    cdef CCharacterData** created = <CCharacterData**> &doc.arena.made_node
    cdef size_t prefix = doc.record_sources
    cdef uint8_t* memory
    cdef CCharacterData* node
    if doc.arena.recycled == NULL:
        node = text_create(doc)
        if node == NULL:
            return NULL
        created[0] = node
        return character_data_reserve(node, extra)
    # A streaming document: one block (arena.pxi).
    if extra > (<size_t> -1) / 2:
        return NULL
    memory = arena_stream_block(doc, prefix + sizeof(CCharacterData) + extra)
    if memory == NULL:
        return NULL
    node = <CCharacterData*> (memory + prefix)
    node_init(&node.node, TEXT_NODE, doc)
    node.data = memory + prefix + sizeof(CCharacterData)
    node.length = 0
    node.capacity = extra
    created[0] = node
    return node.data


cdef uint32_t attribute_capacity(uint32_t capacity,
                                 uint32_t count) noexcept nogil:
    """The capacity an attribute array grows to from `capacity` to hold
    `count`: exactly `count` the first time (a parsed element gets all its
    attributes at once), then doubling, capped at 2**32 - 1 entries and at
    what a size_t can count in bytes; 0 when `count` is past either cap."""
    cdef uint32_t grown
    cdef size_t limit = (<size_t> -1) // sizeof(CAttr)
    grown = capacity * 2 if capacity <= UINT32_MAX / 2 else UINT32_MAX
    if grown < count:
        grown = count
    if <size_t> grown > limit:
        if <size_t> count > limit:
            return 0
        grown = <uint32_t> limit
    return grown


cdef int element_reserve_attributes(CElement* element,
                                    uint32_t count) noexcept nogil:
    """Room for `count` attributes in all."""
    cdef uint32_t capacity
    cdef CAttr* attrs
    if count <= element.attr_capacity:
        return 0
    capacity = attribute_capacity(element.attr_capacity, count)
    if capacity == 0:
        return -1
    if element.node.owner.arena.recycled != NULL:
        # (A streaming document: the array is a piece of its own, the old
        # one given back unless it is in the element's block.)
        attrs = <CAttr*> arena_stream_take(element.node.owner, capacity * sizeof(CAttr))
        if attrs == NULL:
            return -1
        if element.attr_count:
            memcpy(attrs, element.attrs, element.attr_count * sizeof(CAttr))
        if element.attrs != NULL and not stream_block_holds(&element.node,
                                                            <uint8_t*> element.attrs):
            arena_stream_give(&element.node.owner.arena, <uint8_t*> element.attrs,
                              <size_t> element.attr_capacity * sizeof(CAttr))
        element.attrs = attrs
        element.attr_capacity = capacity
        return 0
    attrs = <CAttr*> dom_alloc(element.node.owner, capacity * sizeof(CAttr))
    if attrs == NULL:
        return -1
    if element.attr_count:
        memcpy(attrs, element.attrs, element.attr_count * sizeof(CAttr))
    element.attrs = attrs
    element.attr_capacity = capacity
    return 0


cdef int element_add_attribute(CElement* element, lxp_attr_id_t local_name,
                               lxp_ns_id_t ns, lxp_attr_id_t prefix,
                               uint8_t* value, size_t value_length) noexcept nogil:
    if element.attr_count == UINT32_MAX:       # attr_count + 1 would wrap
        return -1
    if element_reserve_attributes(element, element.attr_count + 1) != 0:
        return -1
    element_append_attribute(element, local_name, ns, prefix, value, value_length)
    return 0


cdef CAttr* element_find_attribute(CElement* element, lxp_attr_id_t local_name,
                                   lxp_ns_id_t ns) noexcept nogil:
    cdef uint32_t i
    for i in range(element.attr_count):
        if element.attrs[i].local_name == local_name and element.attrs[i].ns == ns:
            return &element.attrs[i]
    return NULL


cdef void element_remove_attribute_at(CElement* element,
                                      uint32_t index) noexcept nogil:
    if index >= element.attr_count:
        return
    source_changed(&element.node, NODE_SELF_CHANGED)
    memmove(&element.attrs[index], &element.attrs[index + 1],
            (element.attr_count - index - 1) * sizeof(CAttr))
    element.attr_count -= 1


cdef int attribute_set_value(CDocument* doc, CAttr* attr, const uint8_t* value,
                             size_t length) noexcept nogil:
    """Replace an attribute's value (in place when it fits, no attribute
    iterator of the document holds a copy of the old one's pointer and the
    old one is not in the document's kept input)."""
    cdef uint8_t* copy
    if length <= attr.value_length and attr.value != NULL \
            and doc.attribute_snapshots == 0 \
            and not dom_in_source(doc, attr.value, attr.value_length):
        if length:
            memmove(attr.value, value, length)
        attr.value_length = length
        return 0
    copy = dom_copy(doc, value, length)
    if copy == NULL:
        return -1
    attr.value = copy
    attr.value_length = length
    return 0


# ---------------------------------------------------------------------------
# Character data: Text, Comment, ProcessingInstruction
# ---------------------------------------------------------------------------

cdef CCharacterData* character_data_create(CDocument* doc,
                                           uint32_t node_type) noexcept nogil:
    # A ProcessingInstruction is a larger struct (CProcessingInstruction):
    # it is never made from a recycled one, which may be a smaller Text or
    # Comment (a recycled PI serves as a Text or Comment).
    cdef CCharacterData* node = NULL
    cdef uint8_t* memory
    if doc.arena.recycled != NULL:
        # A streaming document: one block (arena.pxi), its data a piece.
        memory = arena_stream_block(doc, doc.record_sources + (
            sizeof(CProcessingInstruction) if node_type == PROCESSING_INSTRUCTION_NODE
            else sizeof(CCharacterData)))
        if memory == NULL:
            return NULL
        node = <CCharacterData*> (memory + doc.record_sources)
        node.data = NULL
        node.length = 0
        node.capacity = 0
    elif node_type != PROCESSING_INSTRUCTION_NODE:
        node = <CCharacterData*> arena_take_free(&doc.arena.free_character_data)
    if node != NULL:
        node.length = 0                 # a recycled struct keeps its buffer
    else:
        node = <CCharacterData*> node_alloc(
            doc, sizeof(CProcessingInstruction)
            if node_type == PROCESSING_INSTRUCTION_NODE else sizeof(CCharacterData))
        if node == NULL:
            return NULL
        node.data = NULL
        node.length = 0
        node.capacity = 0
    node_init(&node.node, node_type, doc)
    if node_type == PROCESSING_INSTRUCTION_NODE:
        (<CProcessingInstruction*> node).target = NULL
        (<CProcessingInstruction*> node).target_length = 0
    return node


cdef CCharacterData* text_create(CDocument* doc) noexcept nogil:
    return character_data_create(doc, TEXT_NODE)


cdef CCharacterData* comment_create(CDocument* doc) noexcept nogil:
    return character_data_create(doc, COMMENT_NODE)


cdef CCharacterData* processing_instruction_create(CDocument* doc) noexcept nogil:
    return character_data_create(doc, PROCESSING_INSTRUCTION_NODE)


cdef uint8_t* character_data_reserve(CCharacterData* node,
                                     size_t extra) noexcept nogil:
    # Amortized growth: extend in place at the arena's tail, else move to a
    # block at least twice as large (a big one past BIG_ALLOCATION).
    cdef CDocument* doc = node.node.owner
    cdef Arena* arena = &doc.arena
    cdef size_t need, capacity
    cdef uint8_t* data
    cdef BigBlock* big
    if extra > (<size_t> -1) - node.length:
        return NULL
    need = node.length + extra
    if need <= node.capacity and node.data != NULL:
        return node.data + node.length
    capacity = node.capacity * 2 if node.capacity <= (<size_t> -1) / 2 else need
    if capacity < need:
        capacity = need
    if node.node.flags & NODE_DATA_BIG:
        data = arena_big_resize(arena, node.data, capacity)
        if data == NULL:
            return NULL
    elif node.data != NULL and arena_is_tail(arena, node.data, node.capacity) \
            and <size_t> (arena.end - node.data) >= need:
        arena.pos = node.data + need
        node.capacity = need
        node.node.flags &= ~NODE_DATA_SLACK
        return node.data + node.length
    elif capacity >= BIG_ALLOCATION:
        big = arena_big_alloc(arena, capacity)
        if big == NULL:
            return NULL
        data = big_block_data(big)
        if node.length:
            memcpy(data, node.data, node.length)
        if arena.recycled != NULL and node.data != NULL \
                and not stream_block_holds(&node.node, node.data):
            arena_stream_give(arena, node.data, node.capacity)
        node.node.flags |= NODE_DATA_BIG
    elif arena.recycled != NULL:
        # (A streaming document: the data becomes a piece of its own, the
        # old one given back unless it is in the node's block.)
        data = arena_stream_take(doc, capacity)
        if data == NULL:
            return NULL
        if node.length:
            memcpy(data, node.data, node.length)
        if node.data != NULL and not stream_block_holds(&node.node, node.data):
            arena_stream_give(arena, node.data, node.capacity)
    else:
        data = dom_alloc(doc, capacity)
        if data == NULL:
            return NULL
        if node.length:
            memcpy(data, node.data, node.length)
    if capacity > need:
        node.node.flags |= NODE_DATA_SLACK
    else:
        node.node.flags &= ~NODE_DATA_SLACK
    node.data = data
    node.capacity = capacity
    return data + node.length


cdef void character_data_commit(CCharacterData* node,
                                size_t written) noexcept nogil:
    cdef Arena* arena = &node.node.owner.arena
    cdef uint8_t* data
    if written > node.capacity - node.length:
        written = node.capacity - node.length
    node.length += written
    if node.node.flags & NODE_DATA_SLACK or node.capacity == node.length:
        return
    # Give back what the writer reserved but did not use.
    if node.node.flags & NODE_DATA_BIG:
        data = arena_big_resize(arena, node.data, node.length if node.length else 1)
        if data != NULL:
            node.data = data
            node.capacity = node.length if node.length else 1
    elif arena_is_tail(arena, node.data, node.capacity):
        arena.pos = node.data + node.length
        node.capacity = node.length


cdef int character_data_set(CCharacterData* node, const uint8_t* data,
                            size_t length) noexcept nogil:
    """Replace a node's data."""
    cdef uint8_t* dest
    source_changed(&node.node, NODE_SELF_CHANGED)
    node.length = 0
    dest = character_data_reserve(node, length)
    if dest == NULL:
        return -1
    if length:
        memcpy(dest, data, length)
    character_data_commit(node, length)
    return 0


cdef int character_data_append(CCharacterData* node, const uint8_t* data,
                               size_t length) noexcept nogil:
    cdef uint8_t* dest
    source_changed(&node.node, NODE_SELF_CHANGED)
    dest = character_data_reserve(node, length)
    if dest == NULL:
        return -1
    if length:
        memcpy(dest, data, length)
    character_data_commit(node, length)
    return 0


cdef int processing_instruction_set_target(CCharacterData* node,
                                           const uint8_t* target,
                                           size_t length) noexcept nogil:
    cdef uint8_t* copy = dom_copy(node.node.owner, target, length)
    if copy == NULL:
        return -1
    (<CProcessingInstruction*> node).target = copy
    (<CProcessingInstruction*> node).target_length = length
    return 0


# ---------------------------------------------------------------------------
# DocumentType
# ---------------------------------------------------------------------------

cdef CDocumentType* doctype_create(CDocument* doc) noexcept nogil:
    cdef CDocumentType* doctype = <CDocumentType*> arena_take_free(
        &doc.arena.free_doctypes)
    if doctype == NULL:
        doctype = <CDocumentType*> node_alloc(doc, sizeof(CDocumentType))
        if doctype == NULL:
            return NULL
    node_init(&doctype.node, DOCUMENT_TYPE_NODE, doc)
    doctype.name = NULL
    doctype.name_length = 0
    doctype.public_id = NULL
    doctype.public_id_length = 0
    doctype.system_id = NULL
    doctype.system_id_length = 0
    return doctype


cdef int doctype_set(CDocumentType* doctype, const uint8_t* name,
                     size_t name_length, const uint8_t* public_id,
                     size_t public_id_length, const uint8_t* system_id,
                     size_t system_id_length) noexcept nogil:
    cdef CDocument* doc = doctype.node.owner
    doctype.name = dom_copy(doc, name, name_length) if name != NULL else NULL
    doctype.name_length = name_length if name != NULL else 0
    doctype.public_id = (dom_copy(doc, public_id, public_id_length)
                         if public_id != NULL else NULL)
    doctype.public_id_length = public_id_length if public_id != NULL else 0
    doctype.system_id = (dom_copy(doc, system_id, system_id_length)
                         if system_id != NULL else NULL)
    doctype.system_id_length = system_id_length if system_id != NULL else 0
    if (name != NULL and doctype.name == NULL) \
            or (public_id != NULL and doctype.public_id == NULL) \
            or (system_id != NULL and doctype.system_id == NULL):
        return -1
    return 0


# ---------------------------------------------------------------------------
# Names: the bytes behind tag, attribute and namespace ids
# ---------------------------------------------------------------------------

cdef const uint8_t* element_local_name(CElement* element,
                                       size_t* length) noexcept nogil:
    cdef const uint8_t* name
    if element.tag_id < TAG__LAST_STATIC:           # the common case, inline
        length[0] = lxp_tag_name_len[element.tag_id]
        return <const uint8_t*> lxp_tag_name[element.tag_id]
    name = tag_name_of(element.node.owner.tag_names, element.tag_id, length)
    if name == NULL:
        length[0] = 0
        return <const uint8_t*> b""
    return name


cdef inline const uint8_t* attribute_name(CDocument* doc, lxp_attr_id_t id,
                                          size_t* length) noexcept nogil:
    cdef const uint8_t* name = attr_name_of(doc.attr_names, id, length)
    if name == NULL:
        length[0] = 0
        return <const uint8_t*> b""
    return name


cdef const uint8_t* namespace_uri_of(CDocument* doc, lxp_ns_id_t ns,
                                     size_t* length) noexcept nogil:
    """The URI of a namespace id ("" for NS__UNDEF)."""
    cdef const uint8_t* uri
    if ns < NS__LAST_STATIC:
        uri = <const uint8_t*> lxp_ns_uri[ns]
        length[0] = strlen(lxp_ns_uri[ns])
        return uri
    uri = name_table_get(doc.namespaces, ns, length)
    if uri == NULL:
        length[0] = 0
        return <const uint8_t*> b""
    return uri


cdef lxp_ns_id_t namespace_id(CDocument* doc, const uint8_t* uri,
                              size_t length, bint intern) noexcept nogil:
    """The id of a namespace URI (0 for the empty URI; 0 when absent and not
    interned, or out of memory)."""
    cdef lxp_ns_id_t ns
    if length == 0:
        return NS__UNDEF
    for ns in range(1, NS__LAST_STATIC):
        if strlen(lxp_ns_uri[ns]) == length \
                and memcmp(lxp_ns_uri[ns], uri, length) == 0:
            return ns
    if doc.namespaces == NULL:
        if not intern:
            return 0
        doc.namespaces = name_table_create(NS__LAST_STATIC)
        if doc.namespaces == NULL:
            return 0
    if intern:
        return name_table_intern(doc.namespaces, uri, length)
    return namespace_find(doc.namespaces, uri, length)


cdef lxp_ns_id_t namespace_find(NameTable* table, const uint8_t* uri,
                                size_t length) noexcept nogil:
    # The name table has no public find; its entries are few (namespaces of
    # API-made nodes), so a scan is fine.
    cdef uint32_t id
    cdef size_t n
    cdef const uint8_t* name
    for id in range(table.first_id, table.first_id + table.count):
        name = name_table_get(table, id, &n)
        if n == length and memcmp(name, uri, length) == 0:
            return id
    return 0
