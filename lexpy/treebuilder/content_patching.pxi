# Declarative out-of-order streaming: <template for> (whatwg/html#11818)
# https://html.spec.whatwg.org/multipage/scripting.html#prepare-content-patching
#
# A <template for=NAME> start tag looks among the descendants of the node it
# would be inserted into for a <?marker name="NAME"> or a <?start
# name="NAME"> ... <?end> range ("find markers"). When it finds one, the
# template is only pushed on the stack of open elements, never inserted;
# the nodes of the range are removed, everything parsed inside the template
# goes into the markers' parent before the end marker ("the appropriate
# place for inserting a node"), and the template's end tag removes the
# markers.
#
# Not in the standard: instead of walking the scope for each template, the
# named markers are indexed by (name, tree root) as they are inserted, in
# insertion order, which is tree order unless a node was inserted out of
# order (foster parenting, patching, the adoption agency): then up to
# ORDER_CHECKS further candidates are compared by tree position. A node's
# tree root (the Document, template contents, or a subtree the parser
# removed) comes from a memo with path compression (find_root); the parser
# forgets the memo of each subtree it removes, and the adoption agency's
# moves make it stale.
#
# Cost of a <template for>: amortized O(1) when its scope is the html
# element (a template in the body or the head) or template contents; for an
# element's scope, at most four times the smaller of the walk over the
# scope's subtree and the walk up from the candidates to the scope. The
# range removal and the <?end> search pass nodes that are then removed.


# <template for> (content_patching.pxi): the templates whose markers were
# found, the index of named <?marker>/<?start> processing instructions and
# the memo of each node's root. Not in the standard but for `PatchingTemplate`
# (a template's insertion target and markers).
cdef struct PatchingTemplate:
    CElement* template
    CNode* target                 # the template's insertion target
    CNode* start                  # its insertion start marker
    CNode* end                    # its insertion end marker (NULL: none)

cdef struct MarkerChain:          # the markers of one name in one tree
    uint64_t hash                 # 0: an empty slot
    CNode* root                   # the tree's root when they were inserted
    size_t name_offset            # the name, in ContentPatching.names
    size_t name_length
    size_t first                  # index + 1 in ContentPatching.markers
    size_t last                   # (0: none)

cdef struct MarkerLink:
    CNode* node                   # a <?marker> or <?start> with that name
    size_t next                   # index + 1 of the next of the chain

cdef struct RootMemo:             # find_root's memo: a node's root
    CNode* node                   # NULL: an empty slot
    CNode* root                   # NULL: forgotten (the slot is reusable)
    size_t generation

cdef struct ContentPatching:
    PatchingTemplate* templates   # in stack order
    size_t template_count
    size_t template_capacity
    MarkerChain* chains           # open addressing, power-of-two capacity
    size_t chain_capacity
    size_t chain_count
    MarkerLink* markers
    size_t marker_count
    size_t marker_capacity
    uint8_t* names
    size_t names_length
    size_t names_capacity
    RootMemo* memo                # open addressing, power-of-two capacity
    size_t memo_capacity
    size_t memo_used              # slots ever taken (forgotten ones too)
    size_t generation             # memo entries of older ones are stale
    HashKey key
    bint order_unsure             # a node may have been inserted out of
                                  # tree order (foster parenting, patching,
                                  # the adoption agency)


cdef enum:
    ELEMENT_PATCHING = 0x400      # a <template for> on the stack whose
                                  # markers were found
    ORDER_CHECKS = 16             # candidates compared by tree position
                                  # when insertion order may not be it


cdef inline bint is_xml_space(uint8_t c) noexcept nogil:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0D


cdef inline bint pi_target_is(CNode* node, const char* target, size_t length) noexcept nogil:
    cdef CProcessingInstruction* pi = <CProcessingInstruction*> node
    return node.type == PROCESSING_INSTRUCTION_NODE and pi.target_length == length \
        and memcmp(pi.target, target, length) == 0


cdef inline bint is_marker_or_start(CNode* node) noexcept nogil:
    return pi_target_is(node, b"marker", 6) or pi_target_is(node, b"start", 5)


cdef size_t utf8_encode(uint32_t c, uint8_t* out) noexcept nogil:
    if c < 0x80:
        out[0] = <uint8_t> c
        return 1
    if c < 0x800:
        out[0] = <uint8_t> (0xC0 | (c >> 6))
        out[1] = <uint8_t> (0x80 | (c & 0x3F))
        return 2
    if c < 0x10000:
        out[0] = <uint8_t> (0xE0 | (c >> 12))
        out[1] = <uint8_t> (0x80 | ((c >> 6) & 0x3F))
        out[2] = <uint8_t> (0x80 | (c & 0x3F))
        return 3
    out[0] = <uint8_t> (0xF0 | (c >> 18))
    out[1] = <uint8_t> (0x80 | ((c >> 12) & 0x3F))
    out[2] = <uint8_t> (0x80 | ((c >> 6) & 0x3F))
    out[3] = <uint8_t> (0x80 | (c & 0x3F))
    return 4


cdef size_t pseudo_attribute_reference(const uint8_t* data, size_t length,
                                       uint8_t* out, size_t* written) noexcept nogil:
    """The reference at data[0] == '&' in a pseudo-attribute value: bytes it
    takes (0: not a reference of XML's: a predefined entity or a character
    reference to a character XML allows), its UTF-8 in `out`."""
    cdef size_t i = 1
    cdef uint32_t c = 0
    cdef bint hexadecimal
    if length >= 4 and memcmp(data, b"&lt;", 4) == 0:
        out[0] = b'<'
    elif length >= 4 and memcmp(data, b"&gt;", 4) == 0:
        out[0] = b'>'
    elif length >= 5 and memcmp(data, b"&amp;", 5) == 0:
        out[0] = b'&'
        written[0] = 1
        return 5
    elif length >= 6 and memcmp(data, b"&quot;", 6) == 0:
        out[0] = b'"'
        written[0] = 1
        return 6
    elif length >= 6 and memcmp(data, b"&apos;", 6) == 0:
        out[0] = b"'"
        written[0] = 1
        return 6
    else:
        if length < 4 or data[1] != b'#':
            return 0
        i = 2
        hexadecimal = data[2] == b'x'
        if hexadecimal:
            i = 3
        while i < length and data[i] != b';':
            if 0x30 <= data[i] <= 0x39:                        # 0-9
                c = c * (16 if hexadecimal else 10) + (data[i] - 0x30)
            elif hexadecimal and 0x61 <= (data[i] | 0x20) <= 0x66:   # a-f
                c = c * 16 + ((data[i] | 0x20) - 0x61 + 10)
            else:
                return 0
            if c > 0x10FFFF:
                return 0
            i += 1
        if i == length or i == (3 if hexadecimal else 2):
            return 0
        if not (c == 0x9 or c == 0xA or c == 0xD or 0x20 <= c <= 0xD7FF
                or 0xE000 <= c <= 0xFFFD or 0x10000 <= c <= 0x10FFFF):
            return 0
        written[0] = utf8_encode(c, out)
        return i + 1
    written[0] = 1
    return 4


# https://dom.spec.whatwg.org/#update-attributes-from-data
cdef ssize_t name_pseudo_attribute(const uint8_t* data, size_t length,
                                   uint8_t* out) noexcept nogil:
    """The value of the `name` pseudo-attribute of a processing
    instruction's data, decoded into `out` (room for `length` bytes): its
    length, or -1 when there is none or the data are not pseudo-attributes
    (the rules of "Associating Style Sheets with XML documents": name S?
    '=' S? a quoted value, whitespace between them, references of XML in
    the value; an unquoted value, a '<' or a stray '&' and the data have no
    attributes). Names are case-sensitive; of two `name`s the last counts,
    as the DOM's attribute map keeps it."""
    cdef size_t i = 0
    cdef size_t before, name_begin, name_end, written, taken, n
    cdef ssize_t found = -1
    cdef uint8_t quote, c
    cdef uint8_t discard[4]
    cdef bint is_name
    while True:
        before = i
        while i < length and is_xml_space(data[i]):
            i += 1
        if i == length:
            return found
        if i == before and i != 0:
            return -1                      # no whitespace between two
        name_begin = i
        while i < length and not is_xml_space(data[i]) and data[i] != b'=' \
                and data[i] != b'"' and data[i] != b"'" and data[i] != b'<' \
                and data[i] != b'>' and data[i] != b'&':
            i += 1
        name_end = i
        if name_end == name_begin:
            return -1
        while i < length and is_xml_space(data[i]):
            i += 1
        if i == length or data[i] != b'=':
            return -1
        i += 1
        while i < length and is_xml_space(data[i]):
            i += 1
        if i == length or (data[i] != b'"' and data[i] != b"'"):
            return -1
        quote = data[i]
        i += 1
        is_name = name_end - name_begin == 4 and memcmp(data + name_begin, b"name", 4) == 0
        written = 0
        while True:
            if i == length:
                return -1
            c = data[i]
            if c == quote:
                i += 1
                break
            if c == b'<':
                return -1
            if c == b'&':
                taken = pseudo_attribute_reference(
                    data + i, length - i, out + written if is_name else discard, &n)
                if taken == 0:
                    return -1
                i += taken
                if is_name:
                    written += n
                continue
            if is_name:
                out[written] = c
                written += 1
            i += 1
        if is_name:
            found = <ssize_t> written


# ---------------------------------------------------------------------------
# find_root: the root of a node's tree, remembered
# ---------------------------------------------------------------------------

cdef inline size_t pointer_slot(const void* pointer, size_t capacity) noexcept nogil:
    """A slot for a pointer in a table of `capacity` (a power of two)
    slots: the pointer's bits mixed (SplitMix64's finalizer), since nodes
    of an arena lie at regular strides."""
    cdef uint64_t x = <uint64_t> <size_t> pointer
    x = (x ^ (x >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * <uint64_t> 0x94D049BB133111EB
    return <size_t> (x ^ (x >> 31)) & (capacity - 1)


cdef CNode* memo_get(ContentPatching* p, CNode* node) noexcept nogil:
    cdef size_t i
    if p.memo_capacity == 0:
        return NULL
    i = pointer_slot(node, p.memo_capacity)
    while p.memo[i].node != NULL:
        if p.memo[i].node == node:
            if p.memo[i].generation == p.generation:
                return p.memo[i].root
            return NULL
        i = (i + 1) & (p.memo_capacity - 1)
    return NULL


cdef int memo_grow(ContentPatching* p) noexcept nogil:
    """Twice the slots (or the first ones); forgotten and stale entries go."""
    cdef size_t capacity = p.memo_capacity * 2 if p.memo_capacity else 64
    cdef RootMemo* old = p.memo
    cdef size_t old_capacity = p.memo_capacity
    cdef size_t k, i
    cdef RootMemo* grown = <RootMemo*> calloc(capacity, sizeof(RootMemo))
    if grown == NULL:
        return -1
    p.memo = grown
    p.memo_capacity = capacity
    p.memo_used = 0
    for k in range(old_capacity):
        if old[k].node != NULL and old[k].root != NULL \
                and old[k].generation == p.generation:
            i = pointer_slot(old[k].node, capacity)
            while grown[i].node != NULL:
                i = (i + 1) & (capacity - 1)
            grown[i] = old[k]
            p.memo_used += 1
    free(old)
    return 0


cdef void memo_set(TreeBuilder* tb, CNode* node, CNode* root) noexcept nogil:
    cdef ContentPatching* p = &tb.patching
    cdef size_t i
    if (p.memo_used + 1) * 2 > p.memo_capacity and memo_grow(p) != 0:
        tb.halt.failed = True
        return
    i = pointer_slot(node, p.memo_capacity)
    while p.memo[i].node != NULL and p.memo[i].node != node:
        i = (i + 1) & (p.memo_capacity - 1)
    if p.memo[i].node == NULL:
        p.memo_used += 1
        p.memo[i].node = node
    p.memo[i].root = root
    p.memo[i].generation = p.generation


cdef inline CNode* memo_step(ContentPatching* p, CNode* node) noexcept nogil:
    """Where find_root goes from `node`: its remembered root, else its
    parent (NULL: `node` is a root)."""
    cdef CNode* known = memo_get(p, node)
    if known != NULL and known != node:
        return known
    return node.parent


cdef CNode* find_root(TreeBuilder* tb, CNode* node) noexcept nogil:
    """The root of the tree `node` is in (its topmost inclusive ancestor:
    the Document, template contents, or a removed subtree). Not in the
    standard. Path compression: every node passed remembers it."""
    cdef ContentPatching* p = &tb.patching
    cdef CNode* root = node
    cdef CNode* step = memo_step(p, root)
    cdef CNode* next_node
    while step != NULL:
        root = step
        step = memo_step(p, root)
    while node != root:
        next_node = memo_step(p, node)
        memo_set(tb, node, root)
        node = next_node
    return root


cdef void forget_roots(TreeBuilder* tb, CNode* removed) noexcept nogil:
    """The parser removed `removed` from its parent: the memo of its subtree
    (not its template contents, which are trees of their own) is wrong."""
    cdef ContentPatching* p = &tb.patching
    cdef CNode* node = removed
    cdef size_t i
    if p.memo_used == 0:
        return
    while node != NULL:
        i = pointer_slot(node, p.memo_capacity)
        while p.memo[i].node != NULL:
            if p.memo[i].node == node:
                p.memo[i].root = NULL
                break
            i = (i + 1) & (p.memo_capacity - 1)
        if node.first_child != NULL:
            node = node.first_child
            continue
        while node != removed and node.next == NULL:
            node = node.parent
        if node == removed:
            break
        node = node.next


cdef inline void parser_removed(TreeBuilder* tb, CNode* node) noexcept nogil:
    """Remove `node` from its parent, for the tree builder (the memo of
    find_root follows; an open element removed is noted)."""
    if node.flags & ELEMENT_ON_STACK:
        tb.open.detached = True
    node_remove(node)
    if tb.patching.memo_used != 0:
        forget_roots(tb, node)


cdef bint is_inclusive_ancestor(CNode* ancestor, CNode* node) noexcept nogil:
    """Whether `ancestor` is `node` or one of its ancestors (template
    contents have their host as ancestor, as the DOM's host-including
    inclusive ancestor)."""
    while node != NULL:
        if node == ancestor:
            return True
        if node.parent == NULL and node.type == DOCUMENT_FRAGMENT_NODE:
            node = (<CDocumentFragment*> node).host
        else:
            node = node.parent
    return False


cdef inline void parser_moved_nodes(TreeBuilder* tb) noexcept nogil:
    """The adoption agency moved nodes: roots and tree order may have
    changed."""
    if tb.patching.memo_used != 0:
        tb.patching.generation += 1
    tb.patching.order_unsure = True


# ---------------------------------------------------------------------------
# The index of named markers
# ---------------------------------------------------------------------------

cdef inline uint64_t chain_hash(ContentPatching* p, const uint8_t* name, size_t length,
                                CNode* root) noexcept nogil:
    cdef uint64_t h = keyed_hash(&p.key, name, length) ^ \
        ((<uint64_t> <size_t> root) * <uint64_t> 0x9E3779B97F4A7C15)
    return h if h != 0 else 1


cdef MarkerChain* chain_lookup(ContentPatching* p, const uint8_t* name, size_t length,
                               CNode* root, uint64_t h) noexcept nogil:
    """The chain of (name, root), or the empty slot where it goes (NULL: no
    table)."""
    cdef size_t i
    cdef MarkerChain* chain
    if p.chain_capacity == 0:
        return NULL
    i = <size_t> (h >> 7) & (p.chain_capacity - 1)
    while True:
        chain = &p.chains[i]
        if chain.hash == 0 or (chain.hash == h and chain.root == root
                               and chain.name_length == length
                               and memcmp(p.names + chain.name_offset, name, length) == 0):
            return chain
        i = (i + 1) & (p.chain_capacity - 1)


cdef int chains_grow(ContentPatching* p) noexcept nogil:
    cdef size_t capacity = p.chain_capacity * 2 if p.chain_capacity else 16
    cdef MarkerChain* old = p.chains
    cdef size_t old_capacity = p.chain_capacity
    cdef size_t k, i
    cdef MarkerChain* grown = <MarkerChain*> calloc(capacity, sizeof(MarkerChain))
    if grown == NULL:
        return -1
    for k in range(old_capacity):
        if old[k].hash != 0:
            i = <size_t> (old[k].hash >> 7) & (capacity - 1)
            while grown[i].hash != 0:
                i = (i + 1) & (capacity - 1)
            grown[i] = old[k]
    free(old)
    p.chains = grown
    p.chain_capacity = capacity
    return 0


cdef void processing_instruction_inserted(TreeBuilder* tb, CNode* node) noexcept nogil:
    """A <?marker> or <?start> with a name joins the chain of its name in
    its tree."""
    cdef ContentPatching* p = &tb.patching
    cdef CCharacterData* pi = <CCharacterData*> node
    cdef ssize_t length
    cdef CNode* root
    cdef uint64_t h
    cdef MarkerChain* chain
    cdef size_t needed
    if not is_marker_or_start(node):
        return
    if p.chain_capacity == 0:
        p.key = hash_key_for(p)
    needed = p.names_length + pi.length + 1
    if needed > p.names_capacity:
        if ensure_capacity(tb, &p.names, &p.names_capacity, needed) != 0:
            return
    length = name_pseudo_attribute(pi.data, pi.length, p.names + p.names_length)
    if length < 0:
        return
    if p.marker_count == p.marker_capacity:
        if grow_array(<void**> &p.markers, &p.marker_capacity, sizeof(MarkerLink)) != 0:
            tb.halt.failed = True
            return
    if (p.chain_count + 1) * 2 > p.chain_capacity and chains_grow(p) != 0:
        tb.halt.failed = True
        return
    root = find_root(tb, node)
    h = chain_hash(p, p.names + p.names_length, <size_t> length, root)
    chain = chain_lookup(p, p.names + p.names_length, <size_t> length, root, h)
    if chain.hash == 0:
        chain.hash = h
        chain.root = root
        chain.name_offset = p.names_length
        chain.name_length = <size_t> length
        p.names_length += <size_t> length
        p.chain_count += 1
    p.markers[p.marker_count].node = node
    p.markers[p.marker_count].next = 0
    p.marker_count += 1
    if chain.last != 0:
        p.markers[chain.last - 1].next = p.marker_count
    else:
        chain.first = p.marker_count
    chain.last = p.marker_count


cdef int grow_array(void** items, size_t* capacity, size_t item_size) noexcept nogil:
    """Twice the room of a malloc'd array (16 items at first)."""
    cdef size_t grown = grown_capacity(capacity[0], capacity[0] + 1, 16, item_size)
    cdef void* memory
    if grown == 0:
        return -1
    memory = realloc(items[0], grown * item_size)
    if memory == NULL:
        return -1
    items[0] = memory
    capacity[0] = grown
    return 0


# ---------------------------------------------------------------------------
# find markers
# ---------------------------------------------------------------------------

cdef bint tree_order_precedes(CNode* a, CNode* b) noexcept nogil:
    """Whether `a` comes before `b` in tree order (both in one tree; not in
    the standard). Up to the children of their common ancestor, then along
    the siblings from both at once."""
    cdef size_t depth_a = 0
    cdef size_t depth_b = 0
    cdef CNode* x = a
    cdef CNode* y = b
    while x.parent != NULL:
        depth_a += 1
        x = x.parent
    while y.parent != NULL:
        depth_b += 1
        y = y.parent
    x = a
    y = b
    while depth_a > depth_b:
        x = x.parent
        depth_a -= 1
        if x == b:
            return False                    # b is an ancestor of a
    while depth_b > depth_a:
        y = y.parent
        depth_b -= 1
        if y == a:
            return True                     # a is an ancestor of b
    if x == y:
        return False
    while x.parent != y.parent:
        x = x.parent
        y = y.parent
    a = x
    b = y
    while x != NULL and y != NULL:
        x = x.next
        if x == b:
            return True
        y = y.next
        if y == a:
            return False
    return x != NULL


cdef CNode* end_marker_of(CNode* start) noexcept nogil:
    """The <?end> sibling that closes a <?start>'s range ("find markers":
    a <?start> sibling opens one more level, the name of an <?end> does not
    count), or NULL."""
    cdef CNode* sibling = start.next
    cdef size_t nesting = 0
    while sibling != NULL:
        if sibling.type == PROCESSING_INSTRUCTION_NODE:
            if pi_target_is(sibling, b"start", 5):
                nesting += 1
            elif pi_target_is(sibling, b"end", 3):
                if nesting == 0:
                    return sibling
                nesting -= 1
        sibling = sibling.next
    return NULL


cdef inline bint marker_named(TreeBuilder* tb, CNode* node, const uint8_t* name,
                              size_t length) noexcept nogil:
    """Whether `node` is a <?marker> or <?start> named `name` (for the walk
    over a scope)."""
    cdef CCharacterData* pi = <CCharacterData*> node
    cdef ContentPatching* p = &tb.patching
    cdef ssize_t found
    if node.type != PROCESSING_INSTRUCTION_NODE or not is_marker_or_start(node):
        return False
    if p.names_length + pi.length + 1 > p.names_capacity and ensure_capacity(
            tb, &p.names, &p.names_capacity, p.names_length + pi.length + 1) != 0:
        return False
    found = name_pseudo_attribute(pi.data, pi.length, p.names + p.names_length)
    return found == <ssize_t> length and memcmp(p.names + p.names_length, name, length) == 0


cdef CNode* first_candidate(TreeBuilder* tb, MarkerChain* chain, CNode* scope,
                            bint whole_tree, bint scope_is_current, size_t* budget,
                            size_t* cursor, size_t* previous) noexcept nogil:
    """Go on along the chain from `cursor` (index + 1 of the link to look at
    next; `previous`: the link before it, 0 at the chain's start) for at
    most `budget` steps up the tree: the first marker in insertion order
    that is a descendant of `scope` (`whole_tree`: any node of the chain's
    tree but the root's children), with `cursor` at its link. Links of
    markers no longer in that tree are dropped. NULL with `cursor` 0: none;
    NULL with the budget spent: not known yet.

    When `scope` is the current node (`scope_is_current`), the walk up stops
    at the first open element: one that is not the scope is below it on the
    stack, so not a descendant of it, and the scope is not above it in the
    tree."""
    cdef ContentPatching* p = &tb.patching
    cdef size_t k
    cdef CNode* node
    cdef CNode* up
    while cursor[0] != 0:
        k = cursor[0]
        node = p.markers[k - 1].node
        if find_root(tb, node) != chain.root or (node.parent == chain.root
                                                 and chain.root.type == DOCUMENT_NODE):
            # Removed, moved to another tree, or a child of the Document
            # (in no scope): the link goes.
            if previous[0] == 0:
                chain.first = p.markers[k - 1].next
            else:
                p.markers[previous[0] - 1].next = p.markers[k - 1].next
            if chain.last == k:
                chain.last = previous[0]
            cursor[0] = p.markers[k - 1].next
            continue
        if whole_tree:
            return node
        up = node.parent
        while up != NULL and up != scope:
            if scope_is_current and up.flags & ELEMENT_ON_STACK:
                up = NULL
                break
            if budget[0] == 0:
                return NULL
            budget[0] -= 1
            up = up.parent
        if up == scope:
            return node
        previous[0] = k
        cursor[0] = p.markers[k - 1].next
    return NULL


cdef CNode* earliest_candidate(TreeBuilder* tb, MarkerChain* chain, CNode* scope,
                               bint whole_tree, CNode* found, size_t cursor,
                               size_t previous) noexcept nogil:
    """When insertion order may not be tree order: of `found` (at link
    `cursor`) and up to ORDER_CHECKS further markers of the chain in scope,
    the first in tree order."""
    cdef size_t checks = 0
    cdef size_t budget
    cdef CNode* other
    previous = cursor
    cursor = tb.patching.markers[cursor - 1].next
    while cursor != 0 and checks < ORDER_CHECKS:
        budget = <size_t> -1
        other = first_candidate(tb, chain, scope, whole_tree, False, &budget, &cursor,
                                &previous)
        if other == NULL:
            break
        if tree_order_precedes(other, found):
            found = other
        checks += 1
        previous = cursor
        cursor = tb.patching.markers[cursor - 1].next
    return found


cdef CNode* scope_walk(TreeBuilder* tb, CNode* scope, const uint8_t* name,
                       size_t length, CNode** position, size_t* budget) noexcept nogil:
    """The standard's walk: the scope's descendants in tree order (template
    contents are not descendants), from `position` on, for at most `budget`
    nodes. The first named marker, or NULL: with `position` NULL, there is
    none; else the budget is spent."""
    cdef CNode* node = position[0]
    while node != NULL:
        if budget[0] == 0:
            position[0] = node
            return NULL
        budget[0] -= 1
        if marker_named(tb, node, name, length):
            return node
        if node.first_child != NULL:
            node = node.first_child
            continue
        while node != scope and node.next == NULL:
            node = node.parent
        if node == scope:
            break
        node = node.next
    position[0] = NULL
    return NULL


# https://html.spec.whatwg.org/multipage/scripting.html#find-markers
cdef CNode* find_markers(TreeBuilder* tb, CNode* scope, bint scope_is_current,
                         const uint8_t* name, size_t length, CNode** end) noexcept nogil:
    """The start marker (NULL: none) of `name` among the descendants of
    `scope` (`scope_is_current`: the current node when the template came),
    and its end marker in `end` (the start marker itself for a <?marker>;
    NULL for a <?start> with no <?end>)."""
    cdef ContentPatching* p = &tb.patching
    cdef CNode* root
    cdef CNode* found = NULL
    cdef CNode* position
    cdef MarkerChain* chain
    cdef size_t cursor, previous, budget, round_budget
    cdef bint whole_tree
    end[0] = NULL
    if p.chain_count == 0:
        return NULL
    root = find_root(tb, scope)
    chain = chain_lookup(p, name, length, root, chain_hash(p, name, length, root))
    if chain.hash == 0 or chain.first == 0:
        return NULL
    # The html element (its parent the Document) and template contents
    # hold their whole tree (but the Document's own children).
    whole_tree = scope == root or (scope.parent == root and root.type == DOCUMENT_NODE)
    cursor = chain.first
    previous = 0
    if whole_tree:
        budget = <size_t> -1
        found = first_candidate(tb, chain, scope, True, False, &budget, &cursor, &previous)
        if found != NULL and p.order_unsure:
            found = earliest_candidate(tb, chain, scope, True, found, cursor, previous)
    else:
        # The smaller of two walks, in doubling rounds: the standard's over
        # the scope, and up from the candidates (which answers alone while
        # insertion order is tree order, or when none is in scope).
        position = scope.first_child
        round_budget = 16
        while True:
            budget = round_budget
            found = scope_walk(tb, scope, name, length, &position, &budget)
            if found != NULL or position == NULL:
                break
            if cursor != 0:
                budget = round_budget
                found = first_candidate(tb, chain, scope, False, scope_is_current,
                                        &budget, &cursor, &previous)
                if found != NULL and not p.order_unsure:
                    break
                if found != NULL:
                    cursor = 0        # in scope, but maybe not the first
                    found = NULL
                elif cursor == 0:
                    break             # none in scope
            round_budget *= 2
    if found == NULL:
        return NULL
    if pi_target_is(found, b"marker", 6):
        end[0] = found
    else:
        end[0] = end_marker_of(found)
    return found


# ---------------------------------------------------------------------------
# The <template for> element
# ---------------------------------------------------------------------------

cdef bint has_valid_shadowrootmode(CElement* template) noexcept nogil:
    """The template's shadowrootmode attribute is in a state other than
    None ("open" or "closed", ASCII case-insensitively)."""
    cdef CAttr* attr = element_find_attribute(template, ATTR_SHADOWROOTMODE, NS__UNDEF)
    return attr != NULL and (ascii_ci_equals(attr.value, attr.value_length, b"open")
                             or ascii_ci_equals(attr.value, attr.value_length, b"closed"))


cdef CNode* patching_scope(TreeBuilder* tb, CNode* scope) noexcept nogil:
    """The node whose descendants a <template for> searches, from the node
    containing the adjusted insertion location (a template element's
    contents already stand in for it): the body element widens to its
    parent, so a template in the body finds markers in the head."""
    cdef CNode* html = scope.parent
    cdef CNode* child
    if scope.type != ELEMENT_NODE or not is_html_element(<CElement*> scope, TAG_BODY) \
            or html == NULL or html.parent != &tb.document.node \
            or html.type != ELEMENT_NODE or not is_html_element(<CElement*> html, TAG_HTML):
        return scope
    # "The body element": the html element's first body or frameset child.
    child = html.first_child
    while child != scope:
        if child.type == ELEMENT_NODE and (is_html_element(<CElement*> child, TAG_BODY)
                                           or is_html_element(<CElement*> child, TAG_FRAMESET)):
            return scope
        child = child.next
    return html


# https://html.spec.whatwg.org/multipage/scripting.html#prepare-content-patching
cdef bint prepare_content_patching(TreeBuilder* tb, CNode* scope, bint scope_is_current,
                                   CElement* template) noexcept nogil:
    """(`scope_is_current`: the scope was the current node before the
    template was pushed.)"""
    cdef ContentPatching* p = &tb.patching
    cdef CAttr* marker_name = element_find_attribute(template, ATTR_FOR, NS__UNDEF)
    cdef CNode* start
    cdef CNode* end
    cdef CNode* node
    cdef CNode* next_node
    cdef PatchingTemplate* patch
    if marker_name == NULL or marker_name.value_length == 0:
        return False
    start = find_markers(tb, scope, scope_is_current, marker_name.value,
                         marker_name.value_length, &end)
    if start == NULL:
        return False
    if p.template_count == p.template_capacity:
        if grow_array(<void**> &p.templates, &p.template_capacity,
                      sizeof(PatchingTemplate)) != 0:
            tb.halt.failed = True
            return False
    patch = &p.templates[p.template_count]
    p.template_count += 1
    patch.template = template
    patch.target = start.parent
    patch.start = start
    patch.end = end
    template.node.flags |= ELEMENT_PATCHING
    # What the template holds goes in before the end marker: not after
    # everything parsed so far.
    p.order_unsure = True
    if start == end:
        return True
    node = start.next
    while node != NULL and node != end:
        next_node = node.next
        parser_removed(tb, node)
        node = next_node
    return True


cdef PatchingTemplate* patching_template_of(TreeBuilder* tb, CElement* template) noexcept nogil:
    cdef size_t k = tb.patching.template_count
    while k > 0:
        k -= 1
        if tb.patching.templates[k].template == template:
            return &tb.patching.templates[k]
    return NULL


cdef InsertionLocation template_insertion_location(TreeBuilder* tb,
                                                   CElement* template) noexcept nogil:
    """The tail of "the appropriate place for inserting a node" for a
    template element: its contents, or, for a <template for> that found its
    markers, its insertion target before its end marker while that is still
    the target's child."""
    cdef InsertionLocation location
    cdef PatchingTemplate* patch
    location.before = NULL
    if template.node.flags & ELEMENT_PATCHING:
        patch = patching_template_of(tb, template)
        location.parent = patch.target
        if patch.end != NULL and patch.end.parent == patch.target:
            location.before = patch.end
        return location
    location.parent = template.template_content if template.template_content != NULL \
        else &template.node
    return location


cdef void patching_template_done(TreeBuilder* tb, CElement* template) noexcept nogil:
    """The template leaves the stack: it patches no more."""
    cdef ContentPatching* p = &tb.patching
    cdef PatchingTemplate* patch = patching_template_of(tb, template)
    cdef size_t k
    template.node.flags &= ~(<uint32_t> ELEMENT_PATCHING)
    if patch == NULL:
        return
    k = <size_t> (patch - p.templates)
    memmove(patch, patch + 1, (p.template_count - k - 1) * sizeof(PatchingTemplate))
    p.template_count -= 1


cdef void end_content_patching(TreeBuilder* tb, CElement* template) noexcept nogil:
    """The end tag of a <template for> that found its markers: they go."""
    cdef PatchingTemplate* patch = patching_template_of(tb, template)
    if patch == NULL:
        return
    if patch.start.parent != NULL:
        parser_removed(tb, patch.start)
    if patch.end != NULL and patch.end.parent != NULL:
        parser_removed(tb, patch.end)
    patching_template_done(tb, template)


cdef void content_patching_release(ContentPatching* p) noexcept nogil:
    free(p.templates)
    free(p.chains)
    free(p.markers)
    free(p.names)
    free(p.memo)
    memset(p, 0, sizeof(ContentPatching))
