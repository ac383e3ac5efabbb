# The matcher: right to left over the C tree, no Python objects, no GIL.
#
# Complexity (n elements in the tree, d its depth, s siblings of an element,
# m compounds of a complex selector):
# - a compound: the sum of its simple selectors; type/#id/.class/[attr]
#   compare interned ids, then bytes of one attribute value: O(attributes
#   + value length);
# - a complex selector is matched by the iterative form of Servo's
#   algorithm (MatchResult below): a failure at a descendant combinator
#   that ran out of ancestors fails the whole match, and a failure behind
#   a child or sibling combinator restarts at the nearest descendant
#   combinator, so no ancestor is tried twice for the same compound:
#   O(m * (d + s)) per element, never exponential;
# - :is()/:where()/:not(): the sum of their complex selectors, at the same
#   element; nesting is bounded by MAX_NESTING (parser.pxi), so is the C
#   recursion that follows it;
# - :nth-child(An+B [of S]), :nth-last-child() and the *-of-type forms:
#   the first element asked of a parent indexes all of that parent's
#   element children in one pass (times S), later ones are a table look-up
#   (sibling_index): O(n) per such selector over a whole query, where
#   counting each element's siblings would be O(n * s);
# - :has(R): for an R whose matches are descendants of the anchor (a
#   leading descendant combinator, or a child combinator before more
#   compounds), first whether the anchor's subtree has an element matching
#   R's subject at all (subject_below: O(n) per R for a whole query, however
#   many anchors), which decides ":has(C)" outright and rejects every
#   anchor without one; ":has(> C)" tries the children, O(s); otherwise the
#   elements R can reach from the anchor (the subtree, or the following
#   siblings and their subtrees), each matched as a complex selector:
#   O(subtree * m) per anchor that passed the check;
# - :-soup-contains(): O(text of the subtree);
# - query_selector_all: one walk of the subtree in tree order.

DEF MATCHED = 0
DEF RESTART_FROM_SIBLING = 1      # Servo's NotMatchedAndRestartFromClosestLaterSibling
DEF RESTART_FROM_DESCENDANT = 2   # ... NotMatchedAndRestartFromClosestDescendant
DEF NOT_MATCHED_GLOBALLY = 3      # no ancestor can help: give up


# The result of a descendant combinator's loop over the ancestors, by
# (compound, first candidate): MATCHED or NOT_MATCHED_GLOBALLY depends on
# nothing else in a query, so a later element whose walk reaches the same
# ancestor for the same compound takes it from here instead of walking on
# to the root. Linear probing; not in Servo (whose Bloom filter only
# rejects early), it bounds the descendant walks of a whole-tree query by
# O(n * m) in all.
cdef struct DescendantMemo:
    CNode** nodes
    uint32_t* compounds
    uint8_t* results
    size_t capacity               # a power of two, or 0
    size_t count


# Sibling indexes of :nth-child() and its kin, by (element, key): key is
# the simple selector's index in the program, twice, plus 1 when counted
# from the end. The first element asked of a parent has every element
# child of that parent indexed in one pass, so each parent's children are
# counted once per key in a query: O(n) in all instead of O(s) per element.
# The same layout counts elements per type during an of-type pass (keyed
# by the type, in `counters`).
cdef struct IndexEntry:           # one cache line holds several
    CNode* node                   # NULL: free
    uint32_t key
    uint32_t value
    uint32_t pass_                # counters: the of-type pass it counts for


cdef struct IndexTable:
    IndexEntry* entries
    size_t capacity               # a power of two, or 0
    size_t count


cdef struct MatchContext:
    Program* program
    CDocument* doc
    uint32_t* name_ids            # per name slot: [2i] lowercased, [2i+1] exact
    uint32_t* namespace_ids       # per namespace slot
    CNode** candidates            # per compound: the backtracking position
    CNode* scope                  # the :scope node (an element, a document or a fragment)
    CNode* anchor                 # the element the current :has() is relative to
    bint quirks
    bint html_document
    bint out_of_memory
    CNode** loop_start            # per compound: first candidate of a descendant loop
    DescendantMemo memo
    DescendantMemo has_memo       # (element, :has complex) -> a descendant matches its subject
    IndexTable indexes            # (element, nth key) -> its index among its siblings
    IndexTable counters           # scratch: elements of each type in one of-type pass
    uint32_t counter_pass         # the current of-type pass


cdef inline size_t memo_slot(CNode* node, uint32_t compound, size_t mask) noexcept nogil:
    cdef uint64_t h = (<uint64_t> <size_t> node >> 4) * 0x9E3779B97F4A7C15ULL
    h ^= (<uint64_t> compound) * 0xC2B2AE3D27D4EB4FULL
    return (h ^ (h >> 29)) & mask


cdef inline int memo_get(MatchContext* ctx, CNode* node, uint32_t compound) noexcept nogil:
    return table_get(&ctx.memo, node, compound)


cdef inline void memo_put(MatchContext* ctx, CNode* node, uint32_t compound,
                          int result) noexcept nogil:
    table_put(&ctx.memo, node, compound, result)


cdef int table_get(DescendantMemo* memo, CNode* node, uint32_t compound) noexcept nogil:
    cdef size_t mask, i
    if memo.capacity == 0:
        return -1
    mask = memo.capacity - 1
    i = memo_slot(node, compound, mask)
    while memo.nodes[i] != NULL:
        if memo.nodes[i] == node and memo.compounds[i] == compound:
            return memo.results[i]
        i = (i + 1) & mask
    return -1


cdef void table_put(DescendantMemo* memo, CNode* node, uint32_t compound,
                    int result) noexcept nogil:
    cdef DescendantMemo grown
    cdef size_t mask, i, j
    if (memo.count + 1) * 2 > memo.capacity:
        grown.capacity = memo.capacity * 2 if memo.capacity else 1024
        grown.count = 0
        grown.nodes = <CNode**> calloc(grown.capacity, sizeof(CNode*))
        grown.compounds = <uint32_t*> malloc(grown.capacity * sizeof(uint32_t))
        grown.results = <uint8_t*> malloc(grown.capacity)
        if grown.nodes == NULL or grown.compounds == NULL or grown.results == NULL:
            free(grown.nodes)
            free(grown.compounds)
            free(grown.results)
            return                        # no memo: slower, still correct
        mask = grown.capacity - 1
        for j in range(memo.capacity):
            if memo.nodes[j] != NULL:
                i = memo_slot(memo.nodes[j], memo.compounds[j], mask)
                while grown.nodes[i] != NULL:
                    i = (i + 1) & mask
                grown.nodes[i] = memo.nodes[j]
                grown.compounds[i] = memo.compounds[j]
                grown.results[i] = memo.results[j]
                grown.count += 1
        free(memo.nodes)
        free(memo.compounds)
        free(memo.results)
        memo[0] = grown
    mask = memo.capacity - 1
    i = memo_slot(node, compound, mask)
    while memo.nodes[i] != NULL:
        if memo.nodes[i] == node and memo.compounds[i] == compound:
            memo.results[i] = result
            return
        i = (i + 1) & mask
    memo.nodes[i] = node
    memo.compounds[i] = compound
    memo.results[i] = result
    memo.count += 1


cdef void index_table_free(IndexTable* table) noexcept nogil:
    free(table.entries)
    memset(table, 0, sizeof(IndexTable))


cdef IndexEntry* index_slot(IndexTable* table, CNode* node, uint32_t key,
                            bint insert) noexcept nogil:
    """The entry of (node, key); with `insert`, a new zeroed one when there
    is none. NULL: none (or out of memory when inserting)."""
    cdef IndexTable grown
    cdef size_t mask, i, j
    cdef IndexEntry* entry
    if insert and (table.count + 1) * 2 > table.capacity:
        grown.capacity = table.capacity * 2 if table.capacity else 256
        grown.count = table.count
        grown.entries = <IndexEntry*> calloc(grown.capacity, sizeof(IndexEntry))
        if grown.entries == NULL:
            return NULL
        mask = grown.capacity - 1
        for j in range(table.capacity):
            if table.entries[j].node != NULL:
                i = memo_slot(table.entries[j].node, table.entries[j].key, mask)
                while grown.entries[i].node != NULL:
                    i = (i + 1) & mask
                grown.entries[i] = table.entries[j]
        free(table.entries)
        table[0] = grown
    if table.capacity == 0:
        return NULL
    mask = table.capacity - 1
    i = memo_slot(node, key, mask)
    while True:
        entry = &table.entries[i]
        if entry.node == NULL:
            break
        if entry.node == node and entry.key == key:
            return entry
        i = (i + 1) & mask
    if not insert:
        return NULL
    entry.node = node
    entry.key = key
    entry.value = 0
    entry.pass_ = 0
    table.count += 1
    return entry


cdef int context_init(MatchContext* ctx, Program* program, CDocument* doc,
                      CNode* scope) noexcept nogil:
    """Bind the program's names to the document's ids. 0, or -1 when out
    of memory."""
    memset(ctx, 0, sizeof(MatchContext))
    ctx.program = program
    ctx.doc = doc
    ctx.scope = scope
    ctx.quirks = doc.quirks_mode == QUIRKS
    ctx.html_document = True
    ctx.name_ids = <uint32_t*> malloc((2 * program.name_count + 1) * sizeof(uint32_t))
    ctx.namespace_ids = <uint32_t*> malloc((program.namespace_count + 1) * sizeof(uint32_t))
    ctx.candidates = <CNode**> calloc(program.compound_count + 1, sizeof(CNode*))
    ctx.loop_start = <CNode**> calloc(program.compound_count + 1, sizeof(CNode*))
    if ctx.name_ids == NULL or ctx.namespace_ids == NULL or ctx.candidates == NULL \
            or ctx.loop_start == NULL:
        context_free(ctx)
        return -1
    context_bind(ctx)
    return 0


cdef void context_bind(MatchContext* ctx) noexcept nogil:
    """(Re)bind the program's names and namespaces to the document's ids
    (names the document has not seen get an id no node has)."""
    cdef uint32_t i
    cdef NameSlot* slot
    cdef StringRef* uri
    cdef Program* program = ctx.program
    cdef CDocument* doc = ctx.doc
    for i in range(program.name_count):
        slot = &program.names[i]
        if slot.is_attribute:
            ctx.name_ids[2 * i] = attr_id_by_name(
                doc.attr_names, program.text + slot.lower.offset, slot.lower.length, False)
            ctx.name_ids[2 * i + 1] = attr_id_by_name(
                doc.attr_names, program.text + slot.exact.offset, slot.exact.length, False)
        else:
            ctx.name_ids[2 * i] = tag_id_by_name(
                doc.tag_names, program.text + slot.lower.offset, slot.lower.length, False)
            ctx.name_ids[2 * i + 1] = tag_id_by_name(
                doc.tag_names, program.text + slot.exact.offset, slot.exact.length, False)
    for i in range(program.namespace_count):
        uri = &program.namespaces[i]
        # (The DOM's lookup, shared with lexpy.xpath: NO_SUCH_NAMESPACE is
        # an id no node has.)
        ctx.namespace_ids[i] = document_namespace_lookup(
            doc, program.text + uri.offset, uri.length)


cdef void context_free(MatchContext* ctx) noexcept nogil:
    free(ctx.name_ids)
    free(ctx.namespace_ids)
    free(ctx.candidates)
    free(ctx.loop_start)
    free(ctx.memo.nodes)
    free(ctx.memo.compounds)
    free(ctx.memo.results)
    memset(&ctx.memo, 0, sizeof(DescendantMemo))
    free(ctx.has_memo.nodes)
    free(ctx.has_memo.compounds)
    free(ctx.has_memo.results)
    memset(&ctx.has_memo, 0, sizeof(DescendantMemo))
    index_table_free(&ctx.indexes)
    index_table_free(&ctx.counters)
    ctx.loop_start = NULL
    ctx.name_ids = NULL
    ctx.namespace_ids = NULL
    ctx.candidates = NULL


# -- tree steps ---------------------------------------------------------------

cdef inline CNode* parent_element(CNode* node) noexcept nogil:
    cdef CNode* parent = node.parent
    if parent != NULL and parent.type == ELEMENT_NODE:
        return parent
    return NULL


cdef inline CNode* previous_element(CNode* node) noexcept nogil:
    node = node.prev
    while node != NULL and node.type != ELEMENT_NODE:
        node = node.prev
    return node


cdef inline CNode* next_element(CNode* node) noexcept nogil:
    node = node.next
    while node != NULL and node.type != ELEMENT_NODE:
        node = node.next
    return node


cdef inline CNode* candidate_for(MatchContext* ctx, CNode* node, uint32_t combinator) noexcept nogil:
    """The first element a combinator leads to from `node` (leftwards)."""
    cdef CNode* parent
    if combinator == COMBINATOR_CHILD or combinator == COMBINATOR_DESCENDANT:
        parent = node.parent
        if parent == NULL:
            return NULL
        if parent.type == ELEMENT_NODE:
            return parent
        # A fragment that is the scope can match ":scope" (":scope > p").
        if parent == ctx.scope and parent.type == DOCUMENT_FRAGMENT_NODE:
            return parent
        return NULL
    if node.type != ELEMENT_NODE:
        return NULL
    return previous_element(node)


# -- complex selectors --------------------------------------------------------

cdef bint match_list(MatchContext* ctx, uint32_t list_index, CNode* node) noexcept nogil:
    cdef SelectorList* selector_list = &ctx.program.lists[list_index]
    cdef uint32_t i
    for i in range(selector_list.first, selector_list.first + selector_list.count):
        if match_complex(ctx, i, node):
            return True
    return False


cdef bint match_complex(MatchContext* ctx, uint32_t complex_index, CNode* node) noexcept nogil:
    """Whether `node` matches the complex selector: Servo's
    matches_complex_selector_internal as a loop over an explicit stack (one
    candidate per compound, in MatchContext.candidates)."""
    cdef ComplexSelector* cx = &ctx.program.complexes[complex_index]
    cdef Compound* compounds = ctx.program.compounds + cx.first
    cdef CNode** candidate = ctx.candidates + cx.first
    cdef CNode** loop_start = ctx.loop_start + cx.first
    cdef int memo
    cdef uint32_t last = cx.count - 1
    cdef uint32_t level = 0
    cdef uint32_t combinator
    cdef int result
    cdef CNode* x = node
    # A :has() argument (its leftmost compound is the anchor): every other
    # compound matches inside the anchor's subtree or its following
    # siblings' subtrees, so a walk that reaches the anchor or its parent
    # for one of them can stop there (not at the root: that keeps a :has()
    # evaluation to the part of the tree it looks at).
    cdef CNode* stop = NULL
    cdef CNode* stop_parent = NULL
    cdef SimpleSelector* leftmost = ctx.program.simples + compounds[last].first
    if compounds[last].count == 1 and leftmost.kind == S_RELATIVE_ANCHOR and ctx.anchor != NULL:
        stop = ctx.anchor
        stop_parent = ctx.anchor.parent
    while True:
        # "Call": does x match compound `level` and everything left of it?
        if not match_compound(ctx, cx.first + level, x):
            result = RESTART_FROM_SIBLING
        elif level == last:
            result = MATCHED
        else:
            combinator = compounds[level].combinator
            candidate[level] = candidate_for(ctx, x, combinator)
            if stop != NULL and level + 1 < last and (
                    candidate[level] == stop or candidate[level] == stop_parent):
                candidate[level] = NULL
            memo = -1
            if combinator == COMBINATOR_DESCENDANT and stop == NULL and candidate[level] != NULL:
                loop_start[level] = candidate[level]
                memo = memo_get(ctx, candidate[level], cx.first + level)
            if memo >= 0:
                result = memo
            elif candidate[level] != NULL:
                x = candidate[level]
                level += 1
                continue
            else:
                result = (RESTART_FROM_DESCENDANT
                          if combinator == COMBINATOR_NEXT_SIBLING
                          or combinator == COMBINATOR_SUBSEQUENT_SIBLING
                          else NOT_MATCHED_GLOBALLY)
        # "Return": the call at `level` gave `result`; hand it to the loop
        # over the candidates of the level below.
        while True:
            if level == 0:
                return result == MATCHED
            level -= 1
            combinator = compounds[level].combinator
            if result == MATCHED or result == NOT_MATCHED_GLOBALLY \
                    or combinator == COMBINATOR_NEXT_SIBLING:
                if combinator == COMBINATOR_DESCENDANT and stop == NULL:
                    memo_put(ctx, loop_start[level], cx.first + level, result)
                continue                                # return it as it is
            if combinator == COMBINATOR_CHILD:
                result = RESTART_FROM_DESCENDANT
                continue
            if result == RESTART_FROM_DESCENDANT \
                    and combinator == COMBINATOR_SUBSEQUENT_SIBLING:
                continue
            # A descendant combinator, or a subsequent-sibling combinator
            # told to restart from a sibling: try the next candidate.
            candidate[level] = candidate_for(ctx, candidate[level], combinator)
            if stop != NULL and level + 1 < last and (
                    candidate[level] == stop or candidate[level] == stop_parent):
                candidate[level] = NULL
            if candidate[level] == NULL:
                result = (RESTART_FROM_DESCENDANT
                          if combinator == COMBINATOR_SUBSEQUENT_SIBLING
                          else NOT_MATCHED_GLOBALLY)
                if combinator == COMBINATOR_DESCENDANT and stop == NULL:
                    memo_put(ctx, loop_start[level], cx.first + level, result)
                continue
            if combinator == COMBINATOR_DESCENDANT and stop == NULL:
                memo = memo_get(ctx, candidate[level], cx.first + level)
                if memo >= 0:
                    result = memo
                    memo_put(ctx, loop_start[level], cx.first + level, result)
                    continue
            x = candidate[level]
            level += 1
            break


cdef bint match_compound(MatchContext* ctx, uint32_t compound_index, CNode* node) noexcept nogil:
    cdef Compound* compound = &ctx.program.compounds[compound_index]
    cdef SimpleSelector* simple = ctx.program.simples + compound.first
    cdef SimpleSelector* end = simple + compound.count
    if node.type != ELEMENT_NODE:
        # Only the scope fragment gets here: it matches ":scope" alone.
        while simple < end:
            if simple.kind != S_SCOPE or node != ctx.scope:
                return False
            simple += 1
        return compound.count != 0
    while simple < end:
        if not match_simple(ctx, simple, <CElement*> node):
            return False
        simple += 1
    return True


# -- simple selectors ---------------------------------------------------------

cdef inline bint namespace_matches(MatchContext* ctx, uint32_t constraint,
                                   uint32_t ns) noexcept nogil:
    if constraint == NS_CONSTRAINT_ANY:
        return True
    if constraint == NS_CONSTRAINT_NONE:
        return ns == NS__UNDEF
    return ctx.namespace_ids[constraint] == ns


cdef inline uint32_t name_id_for(MatchContext* ctx, uint32_t slot, bint html) noexcept nogil:
    # Names match HTML elements of an HTML document lowercased, others as
    # written (https://html.spec.whatwg.org/multipage/semantics-other.html#value_case-sensitivity-of-selectors).
    return ctx.name_ids[2 * slot] if html else ctx.name_ids[2 * slot + 1]


cdef inline bint is_ascii_whitespace(uint8_t c) noexcept nogil:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


cdef bint find_bytes(const uint8_t* haystack, size_t length, const uint8_t* needle,
                     size_t needle_length, bint fold) noexcept nogil:
    cdef size_t i
    if needle_length == 0:
        return True
    if needle_length > length:
        return False
    if not fold:
        return memmem(haystack, length, needle, needle_length) != NULL
    for i in range(length - needle_length + 1):
        if bytes_equal(haystack + i, needle, needle_length, True):
            return True
    return False


cdef bint value_matches(uint32_t op_, const uint8_t* value, size_t length,
                        const uint8_t* wanted, size_t wanted_length, bint fold) noexcept nogil:
    if op_ == A_EQUALS or op_ == A_NOT_EQUAL:
        return length == wanted_length and bytes_equal(value, wanted, length, fold)
    if op_ == A_INCLUDES:
        for i in range(wanted_length):
            if is_ascii_whitespace(wanted[i]):
                return False
        return value_has_token(value, length, wanted, wanted_length, fold)
    if op_ == A_DASH_MATCH:
        if length == wanted_length:
            return bytes_equal(value, wanted, length, fold)
        return length > wanted_length and value[wanted_length] == 0x2D \
            and bytes_equal(value, wanted, wanted_length, fold)
    if wanted_length == 0:
        return False
    if op_ == A_PREFIX:
        return length >= wanted_length and bytes_equal(value, wanted, wanted_length, fold)
    if op_ == A_SUFFIX:
        return length >= wanted_length and bytes_equal(
            value + length - wanted_length, wanted, wanted_length, fold)
    if op_ == A_SUBSTRING:
        return find_bytes(value, length, wanted, wanted_length, fold)
    return False


cdef bint match_attribute(MatchContext* ctx, SimpleSelector* simple,
                          CElement* element) noexcept nogil:
    cdef bint html = element.ns == NS_HTML and ctx.html_document
    cdef uint32_t id = name_id_for(ctx, simple.name, html)
    cdef uint32_t op_ = simple.op & 0xFF
    cdef uint32_t value_case = (simple.op >> 8) & 0xFF
    cdef uint32_t i
    cdef CAttr* attr
    cdef StringRef* wanted
    cdef bint fold
    cdef bint found = False
    if id == 0:
        return op_ == A_NOT_EQUAL
    wanted = &ctx.program.strings[simple.strings]
    for i in range(element.attr_count):
        attr = &element.attrs[i]
        if attr.local_name != id or not namespace_matches(ctx, simple.ns, attr.ns):
            continue
        if op_ == A_EXISTS:
            return True
        if value_case == CASE_INSENSITIVE:
            fold = True
        elif value_case == CASE_SENSITIVE:
            fold = False
        else:
            fold = html and attr.ns == NS__UNDEF \
                and (simple.op & HTML_CASE_INSENSITIVE_NAME) != 0
        if value_matches(op_, attr.value, attr.value_length,
                         ctx.program.text + wanted.offset, wanted.length, fold):
            if op_ == A_NOT_EQUAL:
                return False
            return True
    return op_ == A_NOT_EQUAL


cdef inline bint nth_matches(int64_t a, int64_t b, int64_t index) noexcept nogil:
    """Whether index (1-based) is A*n+B for some n >= 0."""
    cdef int64_t diff = index - b
    if a == 0:
        return diff == 0
    if diff % a != 0:
        return False
    return diff / a >= 0


cdef inline bint same_type(CElement* a, CElement* b) noexcept nogil:
    return a.tag_id == b.tag_id and a.ns == b.ns


cdef int64_t sibling_index_direct(MatchContext* ctx, SimpleSelector* simple, CNode* node,
                                  bint backwards, bint of_type) noexcept nogil:
    """node's 1-based index among the siblings that count (all elements,
    those of its type, or those matching S), counted by walking them."""
    cdef int64_t index = 1
    cdef CNode* sibling = next_element(node) if backwards else previous_element(node)
    while sibling != NULL:
        if of_type:
            if same_type(<CElement*> sibling, <CElement*> node):
                index += 1
        elif simple.list >= 0:
            if match_list(ctx, simple.list, sibling):
                index += 1
        else:
            index += 1
        sibling = next_element(sibling) if backwards else previous_element(sibling)
    return index


cdef int index_siblings(MatchContext* ctx, SimpleSelector* simple, uint32_t key,
                        CNode* parent, bint backwards, bint of_type) noexcept nogil:
    """Store the index of every element child of parent under key, in one
    pass (ctx.indexes). 0, or -1 when out of memory."""
    cdef CNode* child = parent.last_child if backwards else parent.first_child
    cdef uint32_t count = 0
    cdef IndexEntry* slot
    cdef IndexEntry* counter
    cdef CElement* element
    # Counters of an earlier pass are stale: each carries the pass it
    # counts for (no clearing, so a pass costs only its own children).
    if of_type:
        ctx.counter_pass += 1
    while child != NULL:
        if child.type == ELEMENT_NODE:
            if of_type:
                # Counted per type: the counter's key is the type itself.
                element = <CElement*> child
                counter = index_slot(&ctx.counters, <CNode*> <size_t> (element.tag_id + 1),
                                     element.ns, True)
                if counter == NULL:
                    return -1
                if counter.pass_ != ctx.counter_pass:
                    counter.pass_ = ctx.counter_pass
                    counter.value = 0
                counter.value += 1
                count = counter.value
            elif simple.list < 0 or match_list(ctx, simple.list, child):
                count += 1
            # (an element that S rejects gets its position: never read)
            slot = index_slot(&ctx.indexes, child, key, True)
            if slot == NULL:
                return -1
            slot.value = count
        child = child.prev if backwards else child.next
    return 0


cdef int64_t sibling_index(MatchContext* ctx, SimpleSelector* simple, CNode* node,
                           bint backwards, bint of_type) noexcept nogil:
    """node's 1-based index among the siblings that count, from the end
    when `backwards`: from ctx.indexes, filled for all of node's siblings
    at the first question about one of them."""
    cdef uint32_t key = <uint32_t> ((simple - ctx.program.simples) * 2 + backwards)
    cdef IndexEntry* slot = index_slot(&ctx.indexes, node, key, False)
    if slot != NULL:
        return slot.value
    if node.parent != NULL and index_siblings(ctx, simple, key, node.parent,
                                              backwards, of_type) == 0:
        slot = index_slot(&ctx.indexes, node, key, False)
        if slot != NULL:
            return slot.value
    # No parent, or out of memory: count by walking (slower, still right).
    return sibling_index_direct(ctx, simple, node, backwards, of_type)


cdef bint match_nth(MatchContext* ctx, SimpleSelector* simple, CElement* element) noexcept nogil:
    cdef CNode* node = &element.node
    cdef int64_t index
    cdef uint32_t kind = simple.kind
    cdef bint backwards = kind == S_NTH_LAST_CHILD or kind == S_NTH_LAST_OF_TYPE \
        or kind == S_LAST_CHILD or kind == S_LAST_OF_TYPE
    cdef bint of_type = kind == S_NTH_OF_TYPE or kind == S_NTH_LAST_OF_TYPE \
        or kind == S_FIRST_OF_TYPE or kind == S_LAST_OF_TYPE or kind == S_ONLY_OF_TYPE
    if simple.list >= 0 and not match_list(ctx, simple.list, node):
        return False
    if kind == S_ONLY_OF_TYPE:
        return sibling_index(ctx, simple, node, False, True) == 1 \
            and sibling_index(ctx, simple, node, True, True) == 1
    index = sibling_index(ctx, simple, node, backwards, of_type)
    if kind == S_FIRST_CHILD or kind == S_LAST_CHILD or kind == S_FIRST_OF_TYPE \
            or kind == S_LAST_OF_TYPE:
        return index == 1
    return nth_matches(simple.a, simple.b, index)


cdef inline CNode* next_skipping_children(CNode* node, CNode* root) noexcept nogil:
    """The node after `node`'s subtree in tree order, within root's."""
    while node != root:
        if node.next != NULL:
            return node.next
        node = node.parent
    return NULL


cdef bint subject_below(MatchContext* ctx, uint32_t complex_index, CNode* anchor) noexcept nogil:
    """Whether some descendant of `anchor` matches the subject (rightmost)
    compound of complex selector `complex_index`: a necessary condition
    for a :has() argument whose matches lie in the anchor's subtree.

    Linear over a query: one walk of the anchor's subtree records the
    answer for every element in it (ctx.has_memo: false when the walk
    visits an element, true for the ancestors of each element that
    matches, climbing until one already true), and a later walk skips the
    subtree of any element already recorded. So each element is visited
    once per :has() argument in a query, O(n) in all however the anchors
    nest. The subject compound never refers to the anchor (only the
    leftmost compound of a relative selector does), so the records hold
    for every anchor. A failed allocation only loses records: the answer
    is computed by the walk itself."""
    cdef uint32_t subject = ctx.program.complexes[complex_index].first
    cdef DescendantMemo* memo = &ctx.has_memo
    cdef int known = table_get(memo, anchor, complex_index)
    cdef CNode* node
    cdef CNode* up
    cdef bint found = False
    cdef bint hit
    if known >= 0:
        return known == 1
    table_put(memo, anchor, complex_index, 0)
    node = next_in_tree(anchor, anchor)
    while node != NULL:
        if node.type != ELEMENT_NODE:
            node = next_in_tree(node, anchor)
            continue
        known = table_get(memo, node, complex_index)
        if known < 0:
            table_put(memo, node, complex_index, 0)
        # The record of a node is about its proper descendants: the node
        # itself is matched in any case.
        hit = known == 1 or match_compound(ctx, subject, node)
        if hit:
            found = True
            up = node.parent
            while up != NULL and table_get(memo, up, complex_index) != 1:
                table_put(memo, up, complex_index, 1)
                if up == anchor:
                    break
                up = up.parent
        if known >= 0:
            node = next_skipping_children(node, anchor)
        else:
            node = next_in_tree(node, anchor)
    return found


cdef bint match_has(MatchContext* ctx, SimpleSelector* simple, CElement* element) noexcept nogil:
    """:has(R): some element that R, relative to `element`, reaches."""
    cdef SelectorList* relative = &ctx.program.lists[simple.list]
    cdef CNode* saved_anchor = ctx.anchor
    cdef CNode* anchor = &element.node
    cdef CNode* node
    cdef CNode* start
    cdef ComplexSelector* cx
    cdef uint32_t leading
    cdef bint descends
    cdef bint found = False
    cdef uint32_t i, j
    ctx.anchor = anchor
    for i in range(relative.first, relative.first + relative.count):
        cx = &ctx.program.complexes[i]
        # compounds run subject first; the last is the anchor, and the one
        # before it holds the leading combinator.
        leading = ctx.program.compounds[cx.first + cx.count - 2].combinator
        descends = False
        for j in range(cx.count - 1):
            if ctx.program.compounds[cx.first + j].combinator == COMBINATOR_DESCENDANT \
                    or ctx.program.compounds[cx.first + j].combinator == COMBINATOR_CHILD:
                descends = True
        if (leading == COMBINATOR_CHILD and cx.count > 2) or leading == COMBINATOR_DESCENDANT:
            # Every match of the argument is a descendant of the anchor.
            if not subject_below(ctx, i, anchor):
                continue
            if leading == COMBINATOR_DESCENDANT and cx.count == 2:
                found = True                # ":has(C)": exactly that
                break
        if leading == COMBINATOR_CHILD and cx.count == 2:
            node = anchor.first_child
            while node != NULL and not found:
                if node.type == ELEMENT_NODE and match_complex(ctx, i, node):
                    found = True
                node = node.next
        elif leading == COMBINATOR_CHILD or leading == COMBINATOR_DESCENDANT:
            node = next_element_in_tree(anchor, anchor)
            while node != NULL and not found:
                if match_complex(ctx, i, node):
                    found = True
                node = next_element_in_tree(node, anchor)
        else:
            start = next_element(anchor)
            if leading == COMBINATOR_NEXT_SIBLING and not descends and cx.count == 2:
                found = start != NULL and match_complex(ctx, i, start)
            else:
                while start != NULL and not found:
                    if match_complex(ctx, i, start):
                        found = True
                    elif descends:
                        node = next_element_in_tree(start, start)
                        while node != NULL and not found:
                            if match_complex(ctx, i, node):
                                found = True
                            node = next_element_in_tree(node, start)
                    start = next_element(start)
        if found:
            break
    ctx.anchor = saved_anchor
    return found


cdef inline bint type_matches(MatchContext* ctx, SimpleSelector* simple,
                              CElement* element) noexcept nogil:
    """A type selector (S_TYPE)."""
    return element.tag_id == name_id_for(ctx, simple.name,
                                         element.ns == NS_HTML and ctx.html_document) \
        and element.tag_id != 0 and namespace_matches(ctx, simple.ns, element.ns)


cdef bint match_simple(MatchContext* ctx, SimpleSelector* simple, CElement* element) noexcept nogil:
    cdef uint32_t kind = simple.kind
    cdef CAttr* attr
    cdef StringRef* wanted
    cdef CNode* node = &element.node
    cdef CNode* child
    if kind == S_TYPE:
        return type_matches(ctx, simple, element)
    if kind == S_UNIVERSAL:
        return namespace_matches(ctx, simple.ns, element.ns)
    if kind == S_ID:
        attr = element_find_attribute(element, ATTR_ID, NS__UNDEF)
        if attr == NULL:
            return False
        wanted = &ctx.program.strings[simple.strings]
        return attr.value_length == wanted.length and wanted.length != 0 and bytes_equal(
            attr.value, ctx.program.text + wanted.offset, wanted.length, ctx.quirks)
    if kind == S_CLASS:
        attr = element_find_attribute(element, ATTR_CLASS, NS__UNDEF)
        if attr == NULL:
            return False
        wanted = &ctx.program.strings[simple.strings]
        return value_has_token(attr.value, attr.value_length, ctx.program.text + wanted.offset,
                              wanted.length, ctx.quirks)
    if kind == S_ATTRIBUTE:
        return match_attribute(ctx, simple, element)
    if kind == S_IS:
        return match_list(ctx, simple.list, node)
    if kind == S_NOT:
        return not match_list(ctx, simple.list, node)
    if kind == S_HAS:
        return match_has(ctx, simple, element)
    if kind == S_RELATIVE_ANCHOR:
        return node == ctx.anchor
    if kind == S_SCOPE:
        if ctx.scope.type == DOCUMENT_NODE:
            return node.parent == ctx.scope
        return node == ctx.scope
    if kind == S_ROOT:
        return node.parent != NULL and node.parent.type == DOCUMENT_NODE
    if kind == S_EMPTY:
        child = node.first_child
        while child != NULL:
            if child.type == ELEMENT_NODE or (
                    (child.type == TEXT_NODE or child.type == CDATA_SECTION_NODE)
                    and (<CCharacterData*> child).length != 0):
                return False
            child = child.next
        return True
    if kind == S_FIRST_CHILD:
        return previous_element(node) == NULL
    if kind == S_LAST_CHILD:
        return next_element(node) == NULL
    if kind == S_ONLY_CHILD:
        return previous_element(node) == NULL and next_element(node) == NULL
    if kind == S_NTH_CHILD or kind == S_NTH_LAST_CHILD or kind == S_NTH_OF_TYPE \
            or kind == S_NTH_LAST_OF_TYPE or kind == S_FIRST_OF_TYPE or kind == S_LAST_OF_TYPE:
        return match_nth(ctx, simple, element)
    if kind == S_ONLY_OF_TYPE:
        return match_nth(ctx, simple, element)
    if kind == S_NEVER:
        return False
    return match_html_pseudo_class(ctx, simple, element)


# -- whole-subtree queries ----------------------------------------------------

cdef struct NodeArray:
    CNode** items
    size_t count
    size_t capacity


cdef int node_array_push(NodeArray* array, CNode* node) noexcept nogil:
    cdef size_t capacity
    cdef CNode** items
    if array.count == array.capacity:
        capacity = array.capacity * 2 if array.capacity else 64
        items = <CNode**> realloc(array.items, capacity * sizeof(CNode*))
        if items == NULL:
            return -1
        array.items = items
        array.capacity = capacity
    array.items[array.count] = node
    array.count += 1
    return 0


cdef int select_into(MatchContext* ctx, CNode* root, NodeArray* out,
                     bint first_only) noexcept nogil:
    """Every element of root's subtree (root excluded) that matches, in tree
    order. 0, or -1 when out of memory."""
    cdef CNode* node = next_element_in_tree(root, root)
    cdef uint32_t list_index = ctx.program.root
    while node != NULL:
        if match_list(ctx, list_index, node):
            if node_array_push(out, node) != 0:
                return -1
            if first_only:
                return 0
        node = next_element_in_tree(node, root)
    return 0
