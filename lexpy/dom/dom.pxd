# The DOM as C structs in a per-document arena (DESIGN.md decision 7), and
# the C API the tree builder builds with. Python node classes (proxies) are
# declared here too so other modules can create and unwrap them.
#
# CONTRACT (for the tree builder): the struct fields and functions declared
# here are the interface; the DOM implementation may add fields and
# functions, but not change these.

from libc.stdint cimport uint8_t, uint32_t, uint64_t, uintptr_t
from libc.string cimport memcmp, memcpy, strlen
from lexpy.core.names cimport (
    TAG_TEMPLATE, NS_HTML, lxp_tag_id_t, lxp_attr_id_t, lxp_ns_id_t, NS__UNDEF, NS__LAST_STATIC, lxp_ns_uri)
from lexpy.core.core cimport NameTable, ErrorList, lxp_prefetch, name_table_get


# Whether UTF-8 bytes are all ASCII (eight at a time). Inline: the DOM's
# strings and the corpus layer's URLs share it.
cdef inline bint is_ascii(const uint8_t* data, size_t length) noexcept nogil:
    cdef size_t i = 0
    cdef uint64_t word
    while i + 8 <= length:
        memcpy(&word, data + i, 8)
        if word & <uint64_t> 0x8080808080808080:
            return False
        i += 8
    while i < length:
        if data[i] & 0x80:
            return False
        i += 1
    return True



# Bytes of the DOM's UTF-8 compared as the standards compare them. Inline:
# the DOM's class matching, the selectors' attribute matching and the
# corpus layer's head fields share them.
# https://infra.spec.whatwg.org/#ascii-whitespace
cdef inline bint is_ascii_whitespace_byte(uint8_t c) noexcept nogil:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


cdef inline uint8_t ascii_lower_byte(uint8_t c) noexcept nogil:
    return c + 32 if 0x41 <= c <= 0x5A else c


# Whether `length` bytes of a and b are equal, ASCII case-insensitively
# with `fold` (https://infra.spec.whatwg.org/#ascii-case-insensitive).
cdef inline bint bytes_equal(const uint8_t* a, const uint8_t* b, size_t length,
                             bint fold) noexcept nogil:
    cdef size_t i
    if not fold:
        return length == 0 or memcmp(a, b, length) == 0
    for i in range(length):
        if ascii_lower_byte(a[i]) != ascii_lower_byte(b[i]):
            return False
    return True


# Whether `token` is one of the ASCII-whitespace-separated tokens of `value`
# (https://infra.spec.whatwg.org/#split-on-ascii-whitespace); an empty token
# is none of them.
cdef inline bint value_has_token(const uint8_t* value, size_t length, const uint8_t* token,
                                 size_t token_length, bint fold) noexcept nogil:
    cdef size_t i = 0
    cdef size_t start
    if token_length == 0:
        return False
    while i < length:
        while i < length and is_ascii_whitespace_byte(value[i]):
            i += 1
        start = i
        while i < length and not is_ascii_whitespace_byte(value[i]):
            i += 1
        if i - start == token_length and bytes_equal(value + start, token, token_length, fold):
            return True
    return False

# node_type values of the DOM standard.
cdef enum NodeType:
    ELEMENT_NODE = 1
    ATTRIBUTE_NODE = 2
    TEXT_NODE = 3
    CDATA_SECTION_NODE = 4
    PROCESSING_INSTRUCTION_NODE = 7
    COMMENT_NODE = 8
    DOCUMENT_NODE = 9
    DOCUMENT_TYPE_NODE = 10
    DOCUMENT_FRAGMENT_NODE = 11

cdef enum QuirksMode:
    NO_QUIRKS = 0
    QUIRKS = 1
    LIMITED_QUIRKS = 2

cdef struct CDocument

# Arena memory (implementation detail of the DOM; declared here because
# CDocument embeds it). Small allocations bump a pointer through blocks that
# grow geometrically; an allocation of BIG_ALLOCATION bytes or more gets a
# block of its own. Everything goes in one step when the document does.
cdef struct ArenaBlock:
    ArenaBlock* next
    size_t size                   # usable bytes after the header

cdef struct BigBlock:             # a block holding one large allocation
    BigBlock* prev
    BigBlock* next
    size_t size

cdef struct Arena:
    ArenaBlock* blocks            # the current block first
    uint8_t* pos                  # next free byte of the current region
    uint8_t* end                  # end of the current region
    size_t next_block_size
    BigBlock* big                 # large allocations, newest first
    size_t bytes_reserved         # memory taken from malloc (statistics)
    CNode* free_elements          # reclaimed node structs, chained by next
    CNode* free_character_data
    CNode* free_doctypes
    CNode* free_fragments
    # A streaming document's free lists by size class (NULL: not a
    # streaming document; dom_streaming_start, arena.pxi's top).
    uint8_t** recycled
    # The second result of element_create_with_room_slow (the room) and of
    # text_create_with_room_slow (the node): returned here, not through a
    # pointer, so that the inline callers' locals do not escape.
    uint8_t* made_room
    CNode* made_node

# A Python-level walk's memory of where it was (proxies.pxi): the next
# sibling and the parent of the node it last handed out, kept as pointers,
# not proxies. Reclaiming a node clears it from every open walk of its
# document, so a walk never follows a struct that was reused.
cdef struct WalkCursor:
    WalkCursor* prev
    WalkCursor* next
    CNode* sibling
    CNode* parent

cdef struct CNode:
    uint32_t type                 # NodeType
    uint32_t flags                # bits below 0x100: the DOM's; 0x100 and
                                  # up: the tree builder's while it parses
    CNode* parent
    CNode* first_child
    CNode* last_child
    CNode* prev
    CNode* next
    CDocument* owner
    void* proxy                   # the cached Python proxy (borrowed), or NULL

cdef struct CAttr:
    lxp_attr_id_t local_name      # id in the static table or the document's
                                  # dynamic attribute table
    lxp_ns_id_t ns                # NS__UNDEF: no namespace
    lxp_attr_id_t prefix          # 0: no prefix (else the prefix's name id)
    uint8_t* value                # UTF-8, not NUL-terminated
    size_t value_length

cdef struct CElement:
    CNode node
    lxp_tag_id_t tag_id           # id of the local name
    lxp_ns_id_t ns
    CAttr* attrs
    uint32_t attr_count
    uint32_t attr_capacity
    CNode* template_content       # DocumentFragment of an HTML <template>
    lxp_attr_id_t prefix          # 0: no prefix (elements made by
                                  # create_element_ns("x:name"); the parser
                                  # never sets one)

cdef struct CCharacterData:       # Text, Comment, ProcessingInstruction
    CNode node
    uint8_t* data                 # UTF-8, not NUL-terminated
    size_t length
    size_t capacity

cdef struct CProcessingInstruction:   # a CCharacterData with its target (a
    CCharacterData character_data     # Text or Comment has none: 16 bytes
    uint8_t* target                   # less for each)
    size_t target_length

cdef struct CDocumentType:
    CNode node
    uint8_t* name
    size_t name_length
    uint8_t* public_id            # NULL: missing
    size_t public_id_length
    uint8_t* system_id            # NULL: missing
    size_t system_id_length

cdef struct CDocumentFragment:
    CNode node
    CNode* host                   # the template element whose contents this
                                  # is, or NULL

cdef struct CDocument:
    CNode node
    NameTable* tag_names          # dynamic tag ids of this document
    NameTable* attr_names         # dynamic attribute ids of this document
    uint32_t quirks_mode          # QuirksMode
    # Added by the DOM implementation:
    NameTable* namespaces         # namespace URIs beyond the static ones
                                  # (ids from NS__LAST_STATIC; API-made nodes)
    uint32_t scripting            # the scripting flag of the parse: the
                                  # serializer writes <noscript> content raw
                                  # when set (the tree builder sets it)
    uint32_t building             # nonzero while a tree builder holds node
                                  # pointers into this document: detached
                                  # nodes are then never reclaimed
    uint64_t version              # bumped by every insertion and removal
                                  # (lets iterators notice changes)
    size_t source_length          # bytes of UTF-8 the parser read (0: not
                                  # parsed): sizes the serializer's buffer
    Arena arena
    uint32_t readers              # threads reading the tree without the GIL
                                  # (to_html, dump, text_content): while
                                  # nonzero the Python API refuses changes
    WalkCursor* walks             # the open Python-level walks (reclaiming
                                  # a node forgets it in them)
    uint32_t attribute_snapshots  # open attribute iterators (elements.pxi):
                                  # while nonzero no value is overwritten in
                                  # place, so their copies of CAttr stay true
    uint32_t record_sources       # positions=True: sizeof(SourceRecord),
                                  # every node struct has one before it
                                  # (set before the first node is made;
                                  # never changes); else 0
    # The input of a parse from a bytes object (lexpy.parse's fast path),
    # which the Document keeps alive and nothing writes to: the data of a
    # Text node or comment and an attribute value that needed no
    # conversion point into it instead of being copied (the node's
    # capacity is then 0, so that any change copies the data first; an
    # attribute value in it is never overwritten in place: dom_in_source).
    # NULL, NULL: none.
    const uint8_t* source_begin
    const uint8_t* source_end


# Source positions (lexpy.parse(positions=True)): where a node came from,
# as stream offsets (bytes of the UTF-8 the tokenizer read; the driver's
# source map turns them into offsets into the original input, lines and
# columns). The record sits in the arena just before the node's struct, and
# only in a document that records sources: a document that does not pays
# nothing. Offsets past 2**32 - 2 are not recorded (the node has none).
cdef struct SourceRecord:
    uint32_t start                # the start tag, the token, or a text
    uint32_t end                  # node's first to last character
    uint32_t end_tag_start        # an element's end tag, or SOURCE_NONE
    uint32_t end_tag_end

cdef enum:
    SOURCE_NONE = 0xFFFFFFFF

# The node's record, or NULL (made by the API or the parser itself, or a
# document without positions).
cdef SourceRecord* node_source(CNode* node) noexcept nogil
# Give a node made from input its span (no-op when the document does not
# record sources); node_source_extend moves its end (more text from
# start to end appended: a node whose pieces are not contiguous in the input
# is marked, and to_source() serializes it).
cdef void node_set_source(CNode* node, size_t start, size_t end) noexcept nogil
cdef void node_source_extend(CNode* node, size_t start, size_t end) noexcept nogil
# A node whose input holds the input of nodes the parser put elsewhere (a
# table and what was foster-parented out of it): to_source() never copies
# its input whole. The tree builder sets the CNode.flags bit itself.
cdef void node_source_mark_gathered(CNode* node) noexcept nogil
cdef enum:
    NODE_FLAG_SOURCE_GATHERED = 0x80
# An element's end tag (kept only the first time).
cdef void element_set_end_source(CNode* node, size_t start, size_t end) noexcept nogil


# ---------------------------------------------------------------------------
# Building (used by the tree builder; no Python objects, no GIL needed).
# Functions returning a pointer return NULL when out of memory.
# ---------------------------------------------------------------------------

# Raw arena memory of the document (for converted text before it is handed
# to a node). dom_shrink gives back the unused tail of the latest allocation.
cdef uint8_t* dom_alloc(CDocument* doc, size_t size) noexcept nogil
cdef void dom_shrink(CDocument* doc, uint8_t* block, size_t old_size,
                     size_t new_size) noexcept nogil

# An element in a namespace; an HTML <template> gets its content fragment.
cdef CElement* element_create(CDocument* doc, lxp_tag_id_t tag_id,
                              lxp_ns_id_t ns) noexcept nogil
# Append an attribute whose value the caller wrote into dom_alloc memory
# (the attribute owns that memory: the DOM may later overwrite it in place,
# so one value must not be shared by two attributes).
cdef int element_add_attribute(CElement* element, lxp_attr_id_t local_name,
                               lxp_ns_id_t ns, lxp_attr_id_t prefix,
                               uint8_t* value, size_t value_length) noexcept nogil
cdef CAttr* element_find_attribute(CElement* element, lxp_attr_id_t local_name,
                                   lxp_ns_id_t ns) noexcept nogil
# Room for `count` attributes in all: a parser that knows how many a token
# has allocates the array once, at its size. 0, or -1 when out of memory.
cdef int element_reserve_attributes(CElement* element,
                                    uint32_t count) noexcept nogil

cdef CCharacterData* text_create(CDocument* doc) noexcept nogil
# element_create_with_room and text_create_with_room when their inline
# path does not apply (a document with nodes to reuse, a streaming
# document, a template, many attributes, big values).
# (Their second result: Arena.made_room, Arena.made_node.)
cdef CElement* element_create_with_room_slow(CDocument* doc, lxp_tag_id_t tag_id,
                                             lxp_ns_id_t ns, uint32_t attr_count,
                                             size_t extra) noexcept nogil
cdef uint8_t* text_create_with_room_slow(CDocument* doc, size_t extra) noexcept nogil
cdef CCharacterData* comment_create(CDocument* doc) noexcept nogil
cdef CCharacterData* processing_instruction_create(CDocument* doc) noexcept nogil
# Room for `extra` more bytes at the end of a node's data: returns where to
# write; character_data_commit then adds the bytes actually written.
cdef uint8_t* character_data_reserve(CCharacterData* node,
                                     size_t extra) noexcept nogil
cdef void character_data_commit(CCharacterData* node,
                                size_t written) noexcept nogil
cdef int processing_instruction_set_target(CCharacterData* node,
                                           const uint8_t* target,
                                           size_t length) noexcept nogil

cdef CDocumentType* doctype_create(CDocument* doc) noexcept nogil

# Tree mutation without the DOM's pre-insertion checks (the tree builder
# knows its operations are valid). A child that has a parent is removed
# from it first.
cdef void node_append_child(CNode* parent, CNode* child) noexcept nogil
cdef void node_insert_before(CNode* parent, CNode* child,
                             CNode* reference) noexcept nogil
cdef void node_remove(CNode* node) noexcept nogil
# Clone (deep: with descendants, iteratively) into the node's document.
cdef CNode* node_clone(CNode* node, bint deep) noexcept nogil

# Added by the DOM implementation.
# An empty DocumentFragment.
cdef CDocumentFragment* document_fragment_create(CDocument* doc) noexcept nogil
# Copy of `length` bytes into arena memory (NULL when out of memory; a
# valid pointer for length 0).
cdef uint8_t* dom_copy(CDocument* doc, const uint8_t* data,
                       size_t length) noexcept nogil
# Set a DOCTYPE's name, public and system identifiers (copied; NULL for a
# missing identifier). 0, or -1 when out of memory.
cdef int doctype_set(CDocumentType* doctype, const uint8_t* name,
                     size_t name_length, const uint8_t* public_id,
                     size_t public_id_length, const uint8_t* system_id,
                     size_t system_id_length) noexcept nogil
# Clone into another document (names re-interned in its tables).
cdef CNode* node_clone_into(CNode* node, CDocument* target,
                            bint deep) noexcept nogil
# The local name of an element as UTF-8 (static or dynamic id).
cdef const uint8_t* element_local_name(CElement* element,
                                       size_t* length) noexcept nogil


# The tree builder's bulk creation (inline: no call per node or attribute
# on the common path). dom_alloc's bump, inline: memory from the current
# block when it has room, else dom_alloc.
cdef enum:
    ARENA_ALIGN = 8
    BIG_ALLOCATION = 16 * 1024        # and larger: a block of its own

cdef inline uint8_t* dom_alloc_inline(CDocument* doc, size_t size) noexcept nogil:
    cdef Arena* arena = &doc.arena
    cdef uint8_t* p = <uint8_t*> ((<uintptr_t> arena.pos + (ARENA_ALIGN - 1))
                                  & ~(<uintptr_t> (ARENA_ALIGN - 1)))
    if size < BIG_ALLOCATION and arena.pos != NULL and p <= arena.end \
            and <size_t> (arena.end - p) >= size:
        arena.pos = p + size
        return p
    return dom_alloc(doc, size)


# Give back the unused tail of the latest allocation (dom_shrink, inline
# when it is the bump's tail).
cdef inline void dom_shrink_inline(CDocument* doc, uint8_t* block, size_t old_size,
                                   size_t new_size) noexcept nogil:
    if block != NULL and block + old_size == doc.arena.pos and new_size <= old_size:
        doc.arena.pos = block + new_size
    else:
        dom_shrink(doc, block, old_size, new_size)


cdef inline void node_init(CNode* node, uint32_t node_type,
                           CDocument* doc) noexcept nogil:
    node.type = node_type
    node.flags = 0
    node.parent = NULL
    node.first_child = NULL
    node.last_child = NULL
    node.prev = NULL
    node.next = NULL
    node.owner = doc
    node.proxy = NULL


# A new element's fields (its node's too): no attributes yet, room for
# `capacity` in `attrs`, no template contents (element_create_template_
# contents makes those). The one initialization of element_create_with_room,
# its slow path and element_create.
cdef inline void element_init(CElement* element, CDocument* doc, lxp_tag_id_t tag_id,
                              lxp_ns_id_t ns, CAttr* attrs,
                              uint32_t capacity) noexcept nogil:
    node_init(&element.node, ELEMENT_NODE, doc)
    element.tag_id = tag_id
    element.ns = ns
    element.attrs = attrs
    element.attr_count = 0
    element.attr_capacity = capacity
    element.template_content = NULL
    element.prefix = 0


# Whether data..data+length lies in the document's kept input (CDocument
# source_begin): memory the document must not write to.
cdef inline bint dom_in_source(CDocument* doc, const uint8_t* data,
                               size_t length) noexcept nogil:
    return data >= doc.source_begin and data + length <= doc.source_end \
        and doc.source_begin != NULL


# Make a new Text node or comment's data the bytes at data..data+length of
# its document's kept input (dom_in_source): capacity 0, so that
# character_data_reserve copies them before any change.
cdef inline void character_data_share_source(CCharacterData* node, const uint8_t* data,
                                             size_t length) noexcept nogil:
    node.data = <uint8_t*> data
    node.length = length
    node.capacity = 0


# node_append_child of a child that has no parent, inline.
cdef inline void node_append_new_child(CNode* parent, CNode* child) noexcept nogil:
    parent.owner.version += 1
    child.parent = parent
    child.prev = parent.last_child
    child.next = NULL
    if parent.last_child != NULL:
        parent.last_child.next = child
    else:
        parent.first_child = child
    parent.last_child = child


# An element (element_create's) with an attribute array of capacity
# `attr_count` (none when 0) and `extra` bytes of arena memory for their
# values, in one allocation when it can: room[0] is where the values go;
# dom_shrink_inline(doc, room[0], extra, used) gives back what the caller
# did not use. NULL when out of memory.
cdef inline CElement* element_create_with_room(CDocument* doc, lxp_tag_id_t tag_id,
                                               lxp_ns_id_t ns, uint32_t attr_count,
                                               size_t extra, uint8_t** room) noexcept nogil:
    cdef size_t prefix = doc.record_sources
    cdef size_t attrs_size = <size_t> attr_count * sizeof(CAttr)
    cdef size_t size
    cdef uint8_t* memory
    cdef CElement* element
    if doc.arena.free_elements == NULL and extra < BIG_ALLOCATION \
            and attr_count < 1024 and not (tag_id == TAG_TEMPLATE and ns == NS_HTML):
        size = prefix + sizeof(CElement) + attrs_size + extra
        memory = dom_alloc_inline(doc, size)
        if memory == NULL:
            return NULL
        element = <CElement*> (memory + prefix)
        element_init(element, doc, tag_id, ns,
                     <CAttr*> (memory + prefix + sizeof(CElement)) if attr_count else NULL,
                     attr_count)
        room[0] = memory + prefix + sizeof(CElement) + attrs_size
        return element
    element = element_create_with_room_slow(doc, tag_id, ns, attr_count, extra)
    room[0] = doc.arena.made_room
    return element


# Append an attribute to an element that has room for it (the caller
# reserved it: element_create_with_room).
cdef inline void element_append_attribute(CElement* element, lxp_attr_id_t local_name,
                                          lxp_ns_id_t ns, lxp_attr_id_t prefix,
                                          uint8_t* value, size_t value_length) noexcept nogil:
    cdef CAttr* attr = &element.attrs[element.attr_count]
    attr.local_name = local_name
    attr.ns = ns
    attr.prefix = prefix
    attr.value = value
    attr.value_length = value_length
    element.attr_count += 1


# A Text node with room for `extra` bytes of data (text_create's, then
# character_data_reserve's; one allocation when it can): returns where to
# write; character_data_commit_inline then adds the bytes written. NULL
# when out of memory.
cdef inline uint8_t* text_create_with_room(CDocument* doc, size_t extra,
                                           CCharacterData** created) noexcept nogil:
    cdef size_t prefix = doc.record_sources
    cdef uint8_t* memory
    cdef CCharacterData* node
    if doc.arena.free_character_data == NULL and extra < BIG_ALLOCATION:
        memory = dom_alloc_inline(doc, prefix + sizeof(CCharacterData) + extra)
        if memory == NULL:
            return NULL
        node = <CCharacterData*> (memory + prefix)
        node_init(&node.node, TEXT_NODE, doc)
        node.data = memory + prefix + sizeof(CCharacterData)
        node.length = 0
        node.capacity = extra
        created[0] = node
        return node.data
    memory = text_create_with_room_slow(doc, extra)
    created[0] = <CCharacterData*> doc.arena.made_node
    return memory


# character_data_commit, inline when the bytes written fill the capacity
# (the text copied as it was: nothing to give back) or the node's data is
# the bump's tail.
cdef inline void character_data_commit_inline(CCharacterData* node,
                                              size_t written) noexcept nogil:
    cdef Arena* arena
    if written == node.capacity - node.length:
        node.length += written
        return
    arena = &node.node.owner.arena
    # (flags 0x3: NODE_DATA_BIG, NODE_DATA_SLACK)
    if written <= node.capacity - node.length and not (node.node.flags & 0x3) \
            and node.data + node.capacity == arena.pos:
        node.length += written
        arena.pos = node.data + node.length
        node.capacity = node.length
        return
    character_data_commit(node, written)


# The node after `node` in tree order within `root`, over real children
# only (no template contents); no recursion. Inline: the DOM's walks and
# the tree builder's share it.
cdef inline CNode* next_in_tree(CNode* node, CNode* root) noexcept nogil:
    if node.first_child != NULL:
        return node.first_child
    while node != root and node != NULL:
        if node.next != NULL:
            return node.next
        node = node.parent
    return NULL


# A walk over a tree that is not in the cache (text_content, the finding
# of elements) waits for memory at every node: a node's address comes from
# the node before. The arena lays nodes out in about tree order (a node's
# attributes and text between it and the next), so asking at each node
# for the memory a few KiB further on has the lines there when the walk
# comes. A hint: nothing changes but the time.
cdef enum:
    WALK_PREFETCH_DISTANCE = 4096     # bytes ahead of the node
    WALK_PREFETCH_LINES = 4           # 64-byte lines a node (the arena
                                      # holds about 220 bytes a node)

cdef inline void prefetch_walk_ahead(CNode* node) noexcept nogil:
    cdef uintptr_t ahead = <uintptr_t> node + WALK_PREFETCH_DISTANCE
    cdef int k
    for k in range(WALK_PREFETCH_LINES):
        lxp_prefetch(<const void*> (ahead + 64 * k))


# The element after `node` in tree order within `root` (next_in_tree's
# walk, elements only), or NULL; asks for the memory ahead of it. The
# DOM's walks over elements and the selectors' share it.
cdef inline CNode* next_element_in_tree(CNode* node, CNode* root) noexcept nogil:
    node = next_in_tree(node, root)
    while node != NULL and node.type != ELEMENT_NODE:
        node = next_in_tree(node, root)
    if node != NULL:
        prefetch_walk_ahead(node)
    return node


# One step of a walk in tree order that also sees where each node ends:
# from `node` just entered (entering[0] true) or just left (false), the
# next node entered, or the next node left (entering[0] set to say which);
# NULL once `root` is left. Over real children only; no recursion. The
# walks that keep state per open element (extract's scans) share it:
#     node = root; entering = True
#     while node != NULL: (enter or leave node); node = next_walk_event(node, root, &entering)
cdef inline CNode* next_walk_event(CNode* node, CNode* root, bint* entering) noexcept nogil:
    if entering[0]:
        if node.first_child != NULL:
            return node.first_child
        entering[0] = False
        return node
    if node == root:
        return NULL
    if node.next != NULL:
        entering[0] = True
        return node.next
    return node.parent


# Whether an element has the attribute `name` in no namespace, and whether
# its value is `lower`, ASCII case-insensitively (an enumerated attribute's
# keyword). The text layer's, the selectors' and the corpus layer's.
cdef inline bint element_has_attribute(CElement* element, lxp_attr_id_t name) noexcept nogil:
    return element_find_attribute(element, name, NS__UNDEF) != NULL


cdef inline bint element_attribute_is(CElement* element, lxp_attr_id_t name,
                                      const char* lower) noexcept nogil:
    cdef CAttr* attr = element_find_attribute(element, name, NS__UNDEF)
    cdef size_t length = strlen(lower)
    return attr != NULL and attr.value_length == length and bytes_equal(
        attr.value, <const uint8_t*> lower, length, True)


# The document's id of a namespace URI (static ids first, then the ones
# API-made nodes added), or NO_SUCH_NAMESPACE when no node of the document
# can be in it; "" is NS__UNDEF. Inline: the query layers (xpath and the
# selectors) bind prefixes with it.
cdef enum:
    NO_SUCH_NAMESPACE = 0xFFFFFFFF

cdef inline lxp_ns_id_t document_namespace_lookup(CDocument* doc, const uint8_t* uri,
                                                  size_t length) noexcept nogil:
    cdef lxp_ns_id_t ns
    cdef const uint8_t* name
    cdef size_t n
    cdef NameTable* table
    if length == 0:
        return NS__UNDEF
    for ns in range(1, NS__LAST_STATIC):
        if strlen(lxp_ns_uri[ns]) == length and memcmp(lxp_ns_uri[ns], uri, length) == 0:
            return ns
    table = doc.namespaces
    if table != NULL:
        for ns in range(table.first_id, table.first_id + table.count):
            name = name_table_get(table, ns, &n)
            if name != NULL and n == length and memcmp(name, uri, length) == 0:
                return ns
    return NO_SUCH_NAMESPACE


# ---------------------------------------------------------------------------
# Python side
# ---------------------------------------------------------------------------

cdef class Node:
    cdef CNode* c_node
    cdef Document doc             # keeps the arena alive (None in a Document)
    cdef object __weakref__
    # The node's struct, or ValueError for a node of no document. (A cdef
    # method here also puts the vtable pointer in Node, so every proxy class
    # without fields of its own has Node's size and shares its freelist.)
    cdef CNode* _node(self) except NULL

cdef class Document(Node):
    cdef CDocument* c_doc
    cdef list parse_errors        # the `errors` property; None while the
                                  # parse's records are still in
                                  # c_parse_errors (made on first use)
    cdef ErrorList c_parse_errors
    cdef str encoding_name        # the `encoding` property
    cdef public object _source_info  # positions=True: the parse's source map
                                  # (lexpy.driver: span(start, end) ->
                                  # SourceSpan, the input...), else None
    cdef object source_bytes      # the bytes c_doc.source_begin points into
                                  # (kept as long as the nodes), or None
    cdef list attr_name_strs      # the str of each dynamic attribute name
                                  # id read so far (index: id minus
                                  # ATTR__LAST_STATIC; None: not yet)

# A new empty Document (the tree builder fills c_doc).
cdef Document document_new()
# The body element of a Document's node (Document.body), or NULL.
cdef CNode* document_body(CNode* document) noexcept nogil
# The parse's error records become the Document's (moved: `errors` is left
# empty); its `errors` property makes the ParseErrors on first use.
cdef void document_take_parse_errors(Document doc, ErrorList* errors) noexcept
# The proxy of a node (created on first access, then cached).
cdef Node node_proxy(CNode* c_node)
# UTF-8 to str in two passes (strings.pxi): utf8_measure (callable without
# the GIL) finds the code point count and the largest code point, then
# measured_utf8_str writes the str (lone surrogates read as
# "surrogatepass" reads them; Python's decoder judges anything else that is
# not UTF-8). With `release`, the writing lets the GIL go.
cdef void utf8_measure(const uint8_t* data, size_t length, size_t* code_points,
                       uint32_t* max_char) noexcept nogil
cdef str measured_utf8_str(const uint8_t* data, size_t length, size_t code_points,
                           uint32_t max_char, bint release)


# ---------------------------------------------------------------------------
# For lexpy.dom._testing (built by test builds only): what the DOM's methods
# use to turn their arguments into ids, and the growth of attribute arrays.
# ---------------------------------------------------------------------------

cdef bytes encode_utf8(object value, str what)
# The id of a namespace URI (None: none), interned when new.
cdef lxp_ns_id_t document_namespace_id(CDocument* c_doc,
                                       object namespace) except? 0
# The id of an attribute name, interned when new.
cdef lxp_attr_id_t document_attr_id(CDocument* c_doc, str name) except 0
# The capacity an attribute array grows to from `capacity` to hold `count`.
cdef uint32_t attribute_capacity(uint32_t capacity, uint32_t count) noexcept nogil


# ---------------------------------------------------------------------------
# For lexpy.sanitizer (a layer above): removing an attribute in place,
# reclaiming a removed subtree, and a namespace URI's id in a document
# (0 when absent and not interned).
# ---------------------------------------------------------------------------

cdef void element_remove_attribute_at(CElement* element, uint32_t index) noexcept nogil
cdef void node_try_reclaim(CNode* node) noexcept nogil
# Make the document a streaming one (arena.pxi's top: every element and
# character-data node one block, given back whole by size class when
# freed, so that a parse that frees what it has finished with stays
# bounded; lexpy.rewriter). Only for a document with no node made yet:
# 0, or -1 (nodes exist, or out of memory).
cdef int dom_streaming_start(CDocument* doc) noexcept nogil
# Free a subtree during a build (a streaming parse frees each subtree it
# has finished with): detached and freed unless a node of it (template
# contents included) is reached by a proxy or `held(context, node)` says
# the tree builder references it (the caller asks the builder:
# tree_builder_is_open, tree_builder_held). 0 freed, 1 kept.
ctypedef bint (*NodeQuery)(void* context, CNode* node) noexcept nogil
cdef int node_free_during_build(CNode* node, NodeQuery held,
                                void* context) noexcept nogil
cdef lxp_ns_id_t namespace_id(CDocument* doc, const uint8_t* uri, size_t length,
                              bint intern) noexcept nogil
cdef const uint8_t* namespace_uri_of(CDocument* doc, lxp_ns_id_t ns,
                                     size_t* length) noexcept nogil

# The HTML serialization of a node's children (as to_html() of a fragment
# writes it) into a malloc'ed UTF-8 buffer, without the GIL: 0 and
# *data, *length, with its code points and largest one measured (free()
# the data), or -1 when out of memory. The caller keeps other threads out
# of the tree meanwhile (a tree only it holds, or readers).
# serialized_str makes the str of it (and frees it).
cdef int serialize_children_utf8(CNode* node, uint8_t** data, size_t* length,
                                 size_t* code_points, uint32_t* max_char) noexcept nogil
cdef str serialized_str(uint8_t* data, size_t length, size_t code_points, uint32_t max_char)
