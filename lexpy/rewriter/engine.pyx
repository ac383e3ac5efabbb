# cython: language_level=3
"""The streaming rewriter's engine: lexpy's tokenizer and tree builder run
over the stream (a TreeConstruction of the driver), watched through the
tree builder's TreeObserver and a wrapper of the tokenizer's token
callback; the output is the input's bytes with edits spliced in at token
boundaries. The design is in lexpy/rewriter/__init__.py's docstring.

The C side records, for one token, what the tree builder did to the stack
of open elements (pushes, pops, the adoption agency's moves); the Python
side (RewriterCore, subclassed by lexpy.rewriter.Rewriter) turns those
events into handler calls and output, with the token still in reach.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, strlen, strcspn

from lexpy.core.names cimport (
    lxp_tag_id_t, TAG__END_OF_FILE, TAG__TEXT, TAG__COMMENT, TAG__DOCTYPE,
    TAG__DOCUMENT_FRAGMENT,
    TAG_IMAGE, TAG_IMG, TAG_TEMPLATE, TAG_BODY, TAG_HTML, TAG_FRAMESET, TAG_HEAD,
    TAG_FORM, TAG_PLAINTEXT, NS_HTML,
    TAG_SCRIPT, TAG_STYLE, TAG_XMP, TAG_IFRAME, TAG_NOEMBED, TAG_NOFRAMES, TAG_NOSCRIPT,
    TAG_TD, TAG_TH, TAG_CAPTION, TAG_TABLE, TAG_TR, TAG_SELECT, TAG_SELECTEDCONTENT,
    TAG_TBODY, TAG_THEAD, TAG_TFOOT, TAG_COLGROUP,
    TAG_A, TAG_B, TAG_BIG, TAG_CODE, TAG_EM, TAG_FONT, TAG_I, TAG_NOBR, TAG_S, TAG_SMALL,
    TAG_STRIKE, TAG_STRONG, TAG_TT, TAG_U, TAG_APPLET, TAG_OBJECT, TAG_MARQUEE,
    TAG__LAST_STATIC)
from lexpy.tokenizer.token cimport (
    Token, TOKEN_END_TAG, TOKEN_SELF_CLOSING, TOKEN_CONTINUATION, DATA_WHITESPACE_ONLY, DATA_HAS_CR,
    DATA_HAS_CHARREF, DATA_ASCII_LOWERCASE, DATA_HAS_NUL, DATA_NUL_DROP,
    DATA_NUL_TO_REPLACEMENT)
from cpython.unicode cimport PyUnicode_DecodeUTF8, PyUnicode_AsUTF8AndSize
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE, PyByteArray_Resize
from cpython.ref cimport Py_REFCNT, PyObject
from cpython.object cimport PyTypeObject
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.list cimport PyList_GET_SIZE
from cpython.tuple cimport PyTuple_GET_SIZE
from lexpy.tokenizer.tokenizer cimport (
    Tokenizer, tokenizer_set_callback, tokenizer_token_offset, convert_text)
from lexpy.treebuilder.treebuilder cimport (
    TreeBuilder, TreeObserver, tree_builder_set_observer, tree_builder_token,
    tree_builder_reconstruction_pending, tree_builder_is_open, tree_builder_held,
    tree_builder_after_body, tree_builder_skip_newline,
    tree_builder_formatting, tree_builder_formatting_all,
    tree_builder_set_text_unread, tree_builder_frameset_ok)
from lexpy.dom.dom cimport (
    CNode, CElement, CAttr, CDocument, Node, Document, node_proxy, node_free_during_build,
    dom_streaming_start,
    ELEMENT_NODE, DOCUMENT_NODE, DOCUMENT_FRAGMENT_NODE)
from lexpy.core.core cimport attr_name_of
from lexpy.core.names cimport NS_SVG, lxp_tag_svg_adjusted
from lexpy.treebuilder.treebuilder cimport tree_builder_form_element
from lexpy.treebuilder.treebuilder cimport tree_builder_current_node
from lexpy.tokenizer.token cimport DATA_CDATA
from lexpy.tokenizer.tokenizer cimport tokenizer_in_cdata_section
from lexpy.driver.driver cimport construction_enter, construction_leave
from lexpy.selectors.selectors cimport (
    COMBINATOR_DESCENDANT, COMBINATOR_NEXT_SIBLING, COMBINATOR_SUBSEQUENT_SIBLING,
    Program, Selector, element_matcher_new, element_matcher_match, element_matcher_free,
    program_reads_beyond_ancestors, program_subject_tags, program_matches_every_element)


cdef enum EventKind:
    EVENT_PUSHED = 1
    EVENT_POPPED = 2
    EVENT_MOVED = 3


cdef struct Event:
    int kind
    CElement* element
    CElement* below
    bint from_top
    bint foster                   # pushed: not a child of the open element below it
    bint fresh                    # pushed: a new element of the document (not the
                                  # head pushed again, not in template contents)
    uint64_t matches              # pushed: bit i, handler i's selector matches it
                                  # (bit 63: some handler from the 63rd on does)
    size_t fostered               # foster-parented elements pushed so far
    size_t forms                  # form elements pushed so far
    bint plaintext                # a plaintext element was pushed


cdef enum Quiet:
    LOUD = 0                      # every pop of the element goes to the owner
    QUIET_OWN_END = 1             # ... unless its own end tag pops it alone
    QUIET = 2                     # no pop of it needs the owner


cdef struct Watched:
    CElement* element
    int quiet


cdef struct Hooks:
    TreeObserver observer
    Tokenizer* tokenizer
    TreeBuilder* builder
    void* owner                   # the RewriterCore (borrowed: it owns the Hooks)
    size_t owner_calls_held       # (how many: RewriterCore._owner_calls_held)
    void* owner_thread            # the thread state that runs its feed (_accept), or
                                  # NULL: on_token calls the owner without taking the
                                  # GIL when that thread holds it (owner_call_held)
    bint watch_elements           # record stack events
    bint watch_tokens             # call the owner for every token
    Event* events
    size_t event_count
    size_t event_capacity
    bint stopped                  # a handler raised: the tokenizer stops
    bint gap                      # a token other than text did not go to the
                                  # owner since its last call
    Token* token                  # the token being handled
    size_t token_offset           # its first byte's stream offset
    bint pending_before           # reconstruction pending before the token
    bint skip_newline_before      # the token's leading newline is to be ignored
    int after_body_before         # tree_builder_after_body before the token
    size_t last_end               # stream offset of the end of the last token
    int last_tag_id               # its tag id (TAG__TEXT, ...)
    size_t last_begin             # stream offset where the token before it ended
    CElement* eof_formatting[64]  # the list of active formatting elements after its
    size_t eof_formatting_count   # last marker before the end-of-file token (which
                                  # empties it)
    CElement* eof_all[64]         # the whole list then (NULL: a marker)
    size_t eof_all_count
    bint last_closed              # its last byte is '>'
    CElement* last_pushed         # the element the last token, a start tag, made and
                                  # pushed last (the current node after that token,
                                  # with nothing inserted into it: a start tag's own
                                  # element is inserted empty and last); NULL when the
                                  # token was anything else or events were not
                                  # recorded. Compared as a key only (the token after
                                  # it cannot free it: sweeps run after the owner).
    size_t text_tokens            # text tokens not all whitespace so far
    bint owner_idle               # the owner has not been called for any token and
                                  # has no document end handler (on_eof_idle)
    # Matching in C: the owner is called for a token only when a handler's
    # selector matches an element it pushed, or while the owner holds
    # state that needs every token (watch_all: an open matched element, a
    # removal in progress, an edited formatting element).
    Program** programs            # the handlers' selectors, in order
    void** matchers               # their element matchers (made at the first element)
    size_t program_count
    uint64_t* gate                # by static tag id: bit i, handler i's selector may
                                  # match an element with it (bit 63: from the 63rd
                                  # on); elements with other ids: every handler
    uint64_t every                # bit i (i < 63): handler i's selector matches every
                                  # element (`*`): its matcher is not run
    bint may_match                # the token pushed a new element the gate lets
                                  # through (match_pushed has work)
    bint static_gate_closed       # no element with a static tag id can match any
                                  # handler's selector (the gate is 0 for all of
                                  # them, no `*`) and the owner need not see every
                                  # token: on_token_gated
    int watch_all                 # 1: every token that moves an element; 2: every token
    Watched* watched              # the owner's open matched elements: a token
    size_t watched_count          # that pops one, or moves nodes, goes to it
    size_t watched_capacity       # (unless the element is quiet)
    size_t* watched_index         # element -> its index in watched, plus one (0:
    size_t watched_index_capacity # empty): open addressing, linear probing
    size_t* silent                # the quiet elements popped by tokens that did
    size_t silent_count           # not go to the owner (their keys), until it
    size_t silent_capacity        # drains them
    size_t template_depth         # HTML template elements on the stack
    CElement* head                # the head element, once pushed
    size_t fostered               # (the counters the events snapshot)
    size_t forms
    bint plaintext
    size_t fostered_before        # their values at the start of the token
    size_t forms_before
    bint plaintext_before
    # Bounded memory: the elements popped since the last sweep (closed),
    # whose subtrees the sweep frees once they are not the last child of
    # an open element and nothing holds them (the tree builder's
    # structures, a Python proxy, an open element inside).
    bint free_closed
    CElement** closed
    size_t closed_count
    size_t closed_capacity
    size_t sweep_at               # the queue's length that starts a sweep
    size_t sweep_min              # ... at least (256; 1 in tests: every token)
    CNode** held                  # scratch: tree_builder_held's answer
    size_t held_capacity
    CNode** held_set              # ... as an open-addressing set
    size_t held_set_capacity
    size_t freed                  # subtrees freed so far
    size_t held_count             # the tree builder's held nodes at the last sweep
    CDocument* document           # the document being built (max_memory)
    size_t open_depth             # elements pushed and not popped (watch_elements):
                                  # the end events close() would hand the owner
    # (Every element of the document is pushed once: with none of these
    # pushed so far, no element has a Context with foreign_in_table,
    # in_selectedcontent or a select, whatever moved since.)
    bint foreign_seen             # a foreign element was pushed
    bint tabular_seen             # ... an HTML td, th, caption, table, tr or template
    bint select_seen              # ... an HTML select or selectedcontent
    # A select holding an edited option whose output the owner holds back
    # (Rewriter._hold_select): a token that pushes a selectedcontent, or
    # pops that select, goes to the owner (select_event).
    CElement* held_select
    bint select_event
    # Late matches (the adoption agency moved an open element after its
    # start: match_moved): the handlers whose selectors read beyond the
    # element (its ancestors, siblings: positional), the positional
    # matches of the open elements (element -> bits: an open-addressing
    # map, linear probing, entries leave at the end of the token that
    # popped their element: forget_popped), and
    # the token's late matches (element, the new bits) for the owner.
    uint64_t positional
    size_t positional_reach       # how many levels of open elements from a moved
                                  # one down its move may change a match of
                                  # (selector_reach)
    bint moved_here               # the token moved an open element (the agency,
                                  # or foster parenting before it)
    CElement** moved              # the open elements each run moved (the furthest
    size_t moved_count            # block and those above it: on_moved), for
    size_t moved_capacity         # match_moved
    CElement** positional_keys
    uint64_t* positional_bits
    size_t positional_capacity
    size_t positional_count
    CElement** late
    uint64_t* late_bits
    size_t late_count
    size_t late_capacity


# The thread state of the thread holding the GIL (NULL while the thread
# runs without it: PyEval_SaveThread clears it, as `with nogil` does).
cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030D0000
    #define lexpy_rewriter_thread_state() ((void*) PyThreadState_GetUnchecked())
    #else
    #define lexpy_rewriter_thread_state() ((void*) _PyThreadState_UncheckedGet())
    #endif
    """
    void* lexpy_rewriter_thread_state() noexcept nogil

ctypedef int (*owner_call)(void* owner) noexcept nogil


cdef int owner_call_held(void* owner) noexcept:
    """RewriterCore._token_done, called by on_token (a nogil callback) as
    an owner_call when the thread that feeds the parse holds the GIL (a
    feed without release_gil, as _accept does with handlers: the tokens
    that reach the owner would each take it again, PyGILState_Ensure and
    Release, about 80 instructions a token). The thread state is compared,
    not a flag: a feed that releases the GIL (the end of input, a pause)
    has none current, and takes the `with gil` path."""
    return (<RewriterCore> owner)._token_done()


cdef void record(Hooks* h, int kind, CElement* element, CElement* below,
                 bint from_top) noexcept nogil:
    cdef Event* grown
    cdef Event* e
    cdef size_t capacity
    cdef bint foster = False
    cdef int tag
    if h.event_count == h.event_capacity:
        capacity = h.event_capacity * 2 if h.event_capacity else 16
        grown = <Event*> realloc(h.events, capacity * sizeof(Event))
        if grown == NULL:
            h.stopped = True
            return
        h.events = grown
        h.event_capacity = capacity
    # (The event through a local pointer, its fields written once: the
    # stores through h.events would otherwise reload h's fields.)
    e = &h.events[h.event_count]
    h.event_count += 1
    e.kind = kind
    e.element = element
    e.below = below
    e.from_top = from_top
    e.matches = 0
    if kind == EVENT_PUSHED:
        h.open_depth += 1
        if below != NULL and element.node.parent != NULL \
                and element.node.parent != &below.node \
                and not (below.tag_id == TAG_TEMPLATE and below.ns == NS_HTML):
            foster = True
            h.fostered += 1
            if h.positional != 0:
                note_inserted_before(h, &element.node)
        e.foster = foster
        e.fresh = h.template_depth == 0
        tag = element.tag_id
        if h.program_count != 0 and (tag >= <int> TAG__LAST_STATIC or h.gate[tag] != 0):
            h.may_match = True      # (a head pushed again: match_pushed skips it)
        if element.ns == NS_HTML:
            if tag == TAG_PLAINTEXT:
                h.plaintext = True
            elif tag == TAG_FORM:
                h.forms += 1
            elif tag == TAG_HEAD:
                # (The head element pushed again after </head>: not new.)
                if h.head == element:
                    e.fresh = False
                h.head = element
            elif tag == TAG_TEMPLATE:
                h.template_depth += 1
                h.tabular_seen = True
            elif tag == TAG_TD or tag == TAG_TH or tag == TAG_CAPTION or tag == TAG_TABLE \
                    or tag == TAG_TR:
                h.tabular_seen = True
            elif tag == TAG_SELECT or tag == TAG_SELECTEDCONTENT:
                h.select_seen = True
                if tag == TAG_SELECTEDCONTENT and h.held_select != NULL:
                    h.select_event = True
        else:
            h.foreign_seen = True
    else:
        e.foster = False
        e.fresh = False
        if kind == EVENT_MOVED:
            h.moved_here = True
        if kind == EVENT_POPPED:
            if h.open_depth > 0:
                h.open_depth -= 1
            if element == h.held_select:
                h.select_event = True
            if element.ns == NS_HTML and element.tag_id == TAG_TEMPLATE \
                    and h.template_depth > 0:
                h.template_depth -= 1
    e.fostered = h.fostered
    e.forms = h.forms
    e.plaintext = h.plaintext


cdef inline size_t pointer_slot(CNode* node, size_t mask) noexcept nogil:
    cdef uint64_t h = (<uint64_t> <size_t> node >> 4) * 0x9E3779B97F4A7C15ULL
    return <size_t> (h ^ (h >> 29)) & mask


cdef bint is_held(Hooks* h, CNode* node) noexcept nogil:
    cdef size_t mask, i
    if h.held_set_capacity == 0:
        return False
    mask = h.held_set_capacity - 1
    i = pointer_slot(node, mask)
    while h.held_set[i] != NULL:
        if h.held_set[i] == node:
            return True
        i = (i + 1) & mask
    return False


cdef int collect_held(Hooks* h) noexcept nogil:
    """The tree builder's held nodes into h.held_set. 0; 1 when it may
    hold others (nothing may go); -1 when out of memory."""
    cdef size_t count, capacity, i, j, mask
    cdef CNode** grown
    while True:
        count = tree_builder_held(h.builder, h.held, h.held_capacity)
        if count == <size_t> -1:
            return 1
        h.held_count = count
        if count <= h.held_capacity:
            break
        grown = <CNode**> realloc(h.held, count * 2 * sizeof(CNode*))
        if grown == NULL:
            return -1
        h.held = grown
        h.held_capacity = count * 2
    capacity = 16
    while capacity < count * 2 + 16:
        capacity *= 2
    if capacity > h.held_set_capacity:
        free(h.held_set)
        h.held_set = <CNode**> malloc(capacity * sizeof(CNode*))
        if h.held_set == NULL:
            h.held_set_capacity = 0
            return -1
        h.held_set_capacity = capacity
    for i in range(h.held_set_capacity):
        h.held_set[i] = NULL
    mask = h.held_set_capacity - 1
    for j in range(count):
        i = pointer_slot(h.held[j], mask)
        while h.held_set[i] != NULL and h.held_set[i] != h.held[j]:
            i = (i + 1) & mask
        h.held_set[i] = h.held[j]
    return 0


cdef bint builder_holds(void* context, CNode* node) noexcept nogil:
    """node_free_during_build's question: whether the tree builder
    references the node (open, or held: collect_held)."""
    cdef Hooks* h = <Hooks*> context
    return is_held(h, node) or (
        node.type == ELEMENT_NODE and tree_builder_is_open(h.builder, <CElement*> node))


cdef void sweep(Hooks* h) noexcept nogil:
    """Free the subtrees of the closed elements that have a later sibling
    (the tree builder never looks there again), with the text and comments
    just before each; keep the others queued while their parent is open."""
    cdef size_t i, kept = 0
    cdef CElement* element
    cdef CNode* node
    cdef CNode* parent
    cdef CNode* before
    cdef int status
    status = collect_held(h)
    if status != 0:
        h.sweep_at = h.closed_count * 2 + h.sweep_min
        return
    for i in range(h.closed_count):
        element = h.closed[i]
        node = &element.node
        parent = node.parent
        if parent == NULL or tree_builder_is_open(h.builder, element):
            continue                # (detached: not the parser's; open again)
        if parent.type == ELEMENT_NODE and not tree_builder_is_open(h.builder,
                                                                    <CElement*> parent):
            continue                # (goes with its parent, queued itself)
        if parent.type != ELEMENT_NODE and parent.type != DOCUMENT_NODE:
            continue                # (a template's contents stay with it: their
                                    # first element decides how they parse)
        if parent.last_child == node:
            h.closed[kept] = element
            kept += 1
            continue
        before = node.prev
        if node_free_during_build(node, builder_holds, h) != 0:
            h.closed[kept] = element
            kept += 1
            continue
        # (The text and comments just before it go too.)
        while before != NULL and before.type != ELEMENT_NODE:
            node = before.prev
            if node_free_during_build(before, builder_holds, h) != 0:
                break
            before = node
        h.freed += 1
    h.closed_count = kept
    # (The next sweep waits for as many pops as this one's cost: the kept
    # entries walked again, the held nodes collected again; linear in all.)
    # (sweep_min 1, the tests' sweep after every token, keeps to that.)
    h.sweep_at = kept * 2 + (h.held_count if h.held_count > h.sweep_min > 1
                             else h.sweep_min)


cdef void on_pushed(void* context, CElement* element, CElement* below) noexcept nogil:
    # (The observer has it only when watching elements.)
    record(<Hooks*> context, EVENT_PUSHED, element, below, True)


cdef void on_popped(void* context, CElement* element, bint from_top) noexcept nogil:
    cdef Hooks* h = <Hooks*> context
    cdef CElement** grown
    cdef size_t capacity
    if h.free_closed:
        if h.closed_count == h.closed_capacity:
            capacity = h.closed_capacity * 2 if h.closed_capacity else 256
            grown = <CElement**> realloc(h.closed, capacity * sizeof(CElement*))
            if grown != NULL:
                h.closed = grown
                h.closed_capacity = capacity
        if h.closed_count < h.closed_capacity:
            h.closed[h.closed_count] = element
            h.closed_count += 1
    if h.watch_elements:
        record(h, EVENT_POPPED, element, NULL, from_top)


cdef void on_moved(void* context, CElement* formatting_element,
                   CElement* furthest_block) noexcept nogil:
    # (The observer has it only when watching elements. element: the
    # formatting element, below: the furthest block)
    cdef Hooks* h = <Hooks*> context
    record(h, EVENT_MOVED, formatting_element, furthest_block, False)
    if h.positional != 0:
        # (What moves: the furthest block and the open elements above it,
        # its descendants, which the end of the run puts under the clone of
        # the formatting element; kept for match_moved, since the same
        # token may close them.)
        note_moved(h, furthest_block)


# The most open elements a move has matched again, from the moved one down
# (the selectors whose reach is not bounded: descendant combinators, :lang,
# ...): a bound on the work of each move (a furthest block under a
# thousand open elements, moved at each of a thousand end tags, would
# match them all each time). Deeper ones keep their matches.
cdef size_t LATE_REACH_MAX = 16


cdef void note_moved(Hooks* h, CElement* element) noexcept nogil:
    """The open element's place changed (its ancestors or its earlier
    siblings): it and its open descendants down to h.positional_reach
    levels (the children of each that are open elements: the last ones,
    back to a closed one) go to h.moved, for match_moved at the token's
    end; LATE_REACH_MAX * 4 of them at most."""
    cdef size_t level_start, level_end, i, capacity
    cdef size_t level = 0
    cdef size_t limit = h.moved_count + LATE_REACH_MAX * 4
    cdef CNode* child
    cdef CElement** grown
    if limit > h.moved_capacity:
        capacity = limit * 2
        grown = <CElement**> realloc(h.moved, capacity * sizeof(CElement*))
        if grown == NULL:
            h.stopped = True
            return
        h.moved = grown
        h.moved_capacity = capacity
    level_start = h.moved_count
    h.moved[h.moved_count] = element
    h.moved_count += 1
    h.moved_here = True
    while level + 1 < h.positional_reach and h.moved_count < limit:
        level_end = h.moved_count
        for i in range(level_start, level_end):
            child = h.moved[i].node.last_child
            while child != NULL and h.moved_count < limit:
                if child.type == ELEMENT_NODE:
                    if not tree_builder_is_open(h.builder, <CElement*> child):
                        break
                    h.moved[h.moved_count] = <CElement*> child
                    h.moved_count += 1
                child = child.prev
        if level_end == h.moved_count:
            break
        level_start = level_end
        level += 1


cdef size_t selector_reach(Program* program) noexcept nogil:
    """How many levels of open elements, from one the parser moved down, a
    move may change the program's match of: a descendant j levels below it
    has its ancestors within j - 2 levels unchanged (the moved element's
    descendants go under the clone of the formatting element, with their
    earlier siblings), and a selector of child and
    sibling combinators reads at most max_compounds - 1 levels up: so
    max_compounds + 1 levels of them (note_moved). All of them ((size_t) -1; LATE_REACH_MAX is
    the bound) for a descendant combinator, or what
    program_reads_beyond_ancestors answers for (sibling combinators and
    pseudo-classes that may read further, :lang, form states, ...: taken
    whole)."""
    cdef uint32_t i
    if program_reads_beyond_ancestors(program):
        return <size_t> -1
    for i in range(program.compound_count):
        if program.compounds[i].combinator == COMBINATOR_DESCENDANT:
            return <size_t> -1
    return program.max_compounds + 1


cdef void note_inserted_before(Hooks* h, CNode* node) noexcept nogil:
    """The tree builder put a node right before `node`'s next sibling
    (foster parenting: before the table): when that is an open element its
    earlier siblings changed (note_moved)."""
    cdef CNode* next = node.next
    if next != NULL and next.type == ELEMENT_NODE \
            and tree_builder_is_open(h.builder, <CElement*> next):
        note_moved(h, <CElement*> next)


cdef bint match_pushed(Hooks* h) noexcept nogil:
    """Match the handlers' selectors against the new elements the token
    pushed (after the tree builder handled it, as the owner sees them).
    Whether any matched."""
    cdef size_t i, j
    cdef int result
    cdef bint any_match = False
    cdef Event* e
    cdef uint64_t may
    for i in range(h.event_count):
        e = &h.events[i]
        if e.kind != EVENT_PUSHED or not e.fresh:
            continue
        # (The gate: the handlers whose selectors may match its tag.)
        may = h.gate[e.element.tag_id] if e.element.tag_id < <lxp_tag_id_t> TAG__LAST_STATIC \
            else ~(<uint64_t> 0)
        if may == 0:
            continue
        for j in range(h.program_count):
            if j >= 63 and e.matches & (<uint64_t> 1 << 63):
                break
            if not (may & (<uint64_t> 1 << (j if j < 63 else 63))):
                continue
            if j < 63 and h.every & (<uint64_t> 1 << j):
                e.matches |= <uint64_t> 1 << j
                continue
            if h.matchers[j] == NULL:
                h.matchers[j] = element_matcher_new(h.programs[j], e.element.node.owner)
                if h.matchers[j] == NULL:
                    h.stopped = True
                    return False
            result = element_matcher_match(h.matchers[j], &e.element.node)
            if result < 0:
                h.stopped = True
                return False
            if result:
                e.matches |= <uint64_t> 1 << (j if j < 63 else 63)
        if e.matches:
            any_match = True
            if e.matches & h.positional and tree_builder_is_open(h.builder, e.element):
                if positional_set(h, e.element, e.matches & h.positional) != 0:
                    h.stopped = True
                    return False
    return any_match


cdef ssize_t positional_slot(Hooks* h, CElement* element) noexcept nogil:
    """The slot of the element in the map of positional matches, or -1."""
    cdef size_t mask, i
    if h.positional_count == 0:
        return -1
    mask = h.positional_capacity - 1
    i = pointer_slot(<CNode*> element, mask)
    while h.positional_keys[i] != NULL:
        if h.positional_keys[i] == element:
            return <ssize_t> i
        i = (i + 1) & mask
    return -1


cdef int positional_set(Hooks* h, CElement* element, uint64_t bits) noexcept nogil:
    """The element's positional matches are `bits` (the map grows at half
    full). 0; -1 when out of memory."""
    cdef size_t mask, i, capacity, old_capacity
    cdef CElement** keys
    cdef uint64_t* values
    cdef CElement** old_keys
    cdef uint64_t* old_bits
    cdef ssize_t slot = positional_slot(h, element)
    if slot >= 0:
        h.positional_bits[slot] = bits
        return 0
    if (h.positional_count + 1) * 2 > h.positional_capacity:
        capacity = h.positional_capacity * 2 if h.positional_capacity else 16
        keys = <CElement**> calloc(capacity, sizeof(CElement*))
        values = <uint64_t*> calloc(capacity, sizeof(uint64_t))
        if keys == NULL or values == NULL:
            free(keys)
            free(values)
            return -1
        old_keys = h.positional_keys
        old_bits = h.positional_bits
        old_capacity = h.positional_capacity
        h.positional_keys = keys
        h.positional_bits = values
        h.positional_capacity = capacity
        mask = capacity - 1
        for slot in range(<ssize_t> old_capacity):
            if old_keys[slot] != NULL:
                i = pointer_slot(<CNode*> old_keys[slot], mask)
                while keys[i] != NULL:
                    i = (i + 1) & mask
                keys[i] = old_keys[slot]
                values[i] = old_bits[slot]
        free(old_keys)
        free(old_bits)
    mask = h.positional_capacity - 1
    i = pointer_slot(<CNode*> element, mask)
    while h.positional_keys[i] != NULL:
        i = (i + 1) & mask
    h.positional_keys[i] = element
    h.positional_bits[i] = bits
    h.positional_count += 1
    return 0


cdef void positional_forget(Hooks* h, CElement* element) noexcept nogil:
    """The element left the stack: its entry goes (backward-shift
    deletion: no tombstones)."""
    cdef ssize_t slot = positional_slot(h, element)
    cdef size_t mask, i, j, k
    if slot < 0:
        return
    mask = h.positional_capacity - 1
    i = <size_t> slot
    h.positional_keys[i] = NULL
    h.positional_count -= 1
    j = i
    while True:
        j = (j + 1) & mask
        if h.positional_keys[j] == NULL:
            return
        k = pointer_slot(<CNode*> h.positional_keys[j], mask)
        # (Entry j stays when its home slot k lies cyclically in (i, j].)
        if (i < k <= j) if i <= j else (i < k or k <= j):
            continue
        h.positional_keys[i] = h.positional_keys[j]
        h.positional_bits[i] = h.positional_bits[j]
        h.positional_keys[j] = NULL
        i = j


cdef void forget_popped(Hooks* h) noexcept nogil:
    """The entries of the elements the token popped leave the map of
    positional matches (at the token's end: match_moved reads those of the
    elements the token moved and closed)."""
    cdef size_t i
    for i in range(h.event_count):
        if h.events[i].kind == EVENT_POPPED:
            positional_forget(h, h.events[i].element)


cdef bint in_document_tree(CElement* element) noexcept nogil:
    """Whether the element is in the document (not in a template's
    contents, not taken out of the tree)."""
    cdef CNode* node = &element.node
    while node.parent != NULL:
        node = node.parent
    return node.type == DOCUMENT_NODE


cdef bint pushed_here(Hooks* h, CElement* element) noexcept nogil:
    """Whether the token pushed the element as a new one (match_pushed
    matched it where the token left it)."""
    cdef size_t i
    for i in range(h.event_count):
        if h.events[i].kind == EVENT_PUSHED and h.events[i].element == element:
            return True
    return False


cdef bint match_moved(Hooks* h) noexcept nogil:
    """After a token that ran the adoption agency algorithm: the elements
    each run moved while they were open (h.moved: the furthest block and
    its open descendants, which go under the clone of the formatting
    element), matched again against the handlers' positional selectors,
    those that read the element's ancestors or siblings (a selector of the
    element alone gives the same answer wherever it is), where the token
    left them. The new matches (matched now, not at the element's start nor
    after an earlier move) go to h.late for the owner (a late match);
    elements the token pushed are match_pushed's. Whether there are any.
    (Elements closed before a run moved them are not matched again: their
    output is written.)"""
    cdef size_t i, j, k
    cdef CElement* element
    cdef CElement** grown
    cdef uint64_t* grown_bits
    cdef uint64_t may, now, old, bit
    cdef int result
    cdef bint open_now, seen
    cdef size_t runs = h.event_count
    h.late_count = 0
    for k in range(runs):
        if h.events[k].kind == EVENT_MOVED and h.events[k].below != NULL:
            # (The run's last node (the furthest block, or the topmost of
            # the clones above it: three at most) may have gone before a
            # table, foster-parented.)
            element = h.events[k].below
            for j in range(4):
                note_inserted_before(h, &element.node)
                if element.node.parent == NULL or element.node.parent.type != ELEMENT_NODE:
                    break
                element = <CElement*> element.node.parent
    if h.stopped:
        return False
    for k in range(h.moved_count):
        element = h.moved[k]
        may = h.gate[element.tag_id] if element.tag_id < <lxp_tag_id_t> TAG__LAST_STATIC \
            else ~(<uint64_t> 0)
        may &= h.positional
        # (With no template open every element of the stack is the
        # document's: no walk to the root for each.)
        if may == 0 or pushed_here(h, element) or (
                h.template_depth != 0 and not in_document_tree(element)):
            continue
        open_now = tree_builder_is_open(h.builder, element)
        old = 0
        i = <size_t> positional_slot(h, element)
        if i != <size_t> -1:
            old = h.positional_bits[i]
        if not open_now:
            # (Closed by the same token: its entry leaves at the token's
            # end; its late match, if any, is in h.late already when two
            # runs moved it.)
            seen = False
            for i in range(h.late_count):
                if h.late[i] == element:
                    seen = True
                    break
            if seen:
                continue
        now = 0
        for j in range(h.program_count):
            bit = <uint64_t> 1 << (j if j < 63 else 63)
            if not (may & bit) or now & bit:
                continue
            if h.matchers[j] == NULL:
                h.matchers[j] = element_matcher_new(h.programs[j], element.node.owner)
                if h.matchers[j] == NULL:
                    h.stopped = True
                    return False
            result = element_matcher_match(h.matchers[j], &element.node)
            if result < 0:
                h.stopped = True
                return False
            if result:
                now |= bit
        if not (now & ~old):
            continue
        # (An open element's entry leaves with its pop (forget_popped); a
        # closed one gets none: its address may be a new element's later.)
        if open_now and positional_set(h, element, old | now) != 0:
            h.stopped = True
            return False
        if h.late_count == h.late_capacity:
            j = h.late_capacity * 2 if h.late_capacity else 8
            grown = <CElement**> realloc(h.late, j * sizeof(CElement*))
            if grown == NULL:
                h.stopped = True
                return False
            h.late = grown
            grown_bits = <uint64_t*> realloc(h.late_bits, j * sizeof(uint64_t))
            if grown_bits == NULL:
                h.stopped = True
                return False
            h.late_bits = grown_bits
            h.late_capacity = j
        h.late[h.late_count] = element
        h.late_bits[h.late_count] = now & ~old
        h.late_count += 1
    return h.late_count != 0


cdef ssize_t watched_slot(Hooks* h, CElement* element) noexcept nogil:
    """The slot of h.watched_index that holds the element's index, or -1.
    (A map, not a walk over the watched elements: with a handler on every
    element of a million nested ones, a walk per push and per pop was
    quadratic.)"""
    cdef size_t mask, i
    if h.watched_index_capacity == 0:
        return -1
    mask = h.watched_index_capacity - 1
    i = pointer_slot(<CNode*> element, mask)
    while h.watched_index[i] != 0:
        if h.watched[h.watched_index[i] - 1].element == element:
            return <ssize_t> i
        i = (i + 1) & mask
    return -1


cdef ssize_t find_watched(Hooks* h, CElement* element) noexcept nogil:
    """The index of a watched element in h.watched, or -1."""
    cdef ssize_t slot = watched_slot(h, element)
    return -1 if slot < 0 else <ssize_t> h.watched_index[slot] - 1


cdef int index_watched(Hooks* h, size_t index) noexcept nogil:
    """Enter h.watched[index] into the map (rebuilt twice as large when
    it would be more than half full); -1 when out of memory."""
    cdef size_t capacity, mask, i, j
    cdef size_t* table
    if h.watched_count * 2 > h.watched_index_capacity:
        capacity = h.watched_index_capacity * 2 if h.watched_index_capacity else 16
        while capacity < h.watched_count * 2:
            capacity *= 2
        table = <size_t*> calloc(capacity, sizeof(size_t))
        if table == NULL:
            return -1
        free(h.watched_index)
        h.watched_index = table
        h.watched_index_capacity = capacity
        mask = capacity - 1
        for j in range(h.watched_count):
            i = pointer_slot(<CNode*> h.watched[j].element, mask)
            while table[i] != 0:
                i = (i + 1) & mask
            table[i] = j + 1
        return 0
    mask = h.watched_index_capacity - 1
    i = pointer_slot(<CNode*> h.watched[index].element, mask)
    while h.watched_index[i] != 0:
        i = (i + 1) & mask
    h.watched_index[i] = index + 1
    return 0


cdef void unwatch_at(Hooks* h, size_t index) noexcept nogil:
    """Remove h.watched[index]: the last watched element takes its place
    (and its entry in the map is updated); the map's slot is emptied by
    shifting back the entries of the probe run after it."""
    cdef ssize_t slot = watched_slot(h, h.watched[index].element)
    cdef size_t mask, i, j, k, last
    cdef bint inside
    if slot >= 0:
        mask = h.watched_index_capacity - 1
        i = <size_t> slot
        j = i
        while True:
            j = (j + 1) & mask
            if h.watched_index[j] == 0:
                break
            k = pointer_slot(<CNode*> h.watched[h.watched_index[j] - 1].element, mask)
            # (An entry whose home slot is cyclically in (i, j] stays.)
            inside = (i < k and k <= j) if i <= j else (k > i or k <= j)
            if not inside:
                h.watched_index[i] = h.watched_index[j]
                i = j
        h.watched_index[i] = 0
    h.watched_count -= 1
    last = h.watched_count
    if index != last:
        h.watched[index] = h.watched[last]
        slot = watched_slot(h, h.watched[last].element)
        if slot >= 0:
            h.watched_index[slot] = index + 1


cdef bint touches_watched(Hooks* h) noexcept nogil:
    """Whether the token popped a watched element that is not quiet, or
    moved nodes."""
    cdef size_t i
    cdef ssize_t j
    cdef Event* e
    for i in range(h.event_count):
        e = &h.events[i]
        if e.kind == EVENT_MOVED:
            return True
        if e.kind == EVENT_POPPED:
            j = find_watched(h, e.element)
            if j < 0:
                continue
            if h.watched[j].quiet == QUIET:
                continue
            if h.watched[j].quiet == QUIET_OWN_END and h.event_count == 1 \
                    and e.from_top and own_end_tag(h.token, e.element):
                continue
            return True
    return False


cdef bint own_end_tag(Token* t, CElement* element) noexcept nogil:
    """Whether t is an end tag of the HTML element's name (foreign
    elements: never, the owner decides)."""
    return (t.type & TOKEN_END_TAG) != 0 and t.tag_id > TAG__DOCUMENT_FRAGMENT \
        and element.ns == NS_HTML and element.tag_id == t.tag_id


cdef void silence_pops(Hooks* h) noexcept nogil:
    """The token does not go to the owner: the quiet watched elements it
    popped leave the watch, their keys kept for the owner's next call."""
    cdef size_t i, capacity
    cdef ssize_t j
    cdef size_t* grown
    cdef Event* e
    for i in range(h.event_count):
        e = &h.events[i]
        if e.kind != EVENT_POPPED:
            continue
        j = find_watched(h, e.element)
        if j >= 0:
            if h.silent_count == h.silent_capacity:
                capacity = h.silent_capacity * 2 if h.silent_capacity else 16
                grown = <size_t*> realloc(h.silent, capacity * sizeof(size_t))
                if grown == NULL:
                    h.stopped = True
                    return
                h.silent = grown
                h.silent_capacity = capacity
            h.silent[h.silent_count] = <size_t> e.element
            h.silent_count += 1
            unwatch_at(h, <size_t> j)


cdef int on_token(void* context, Token* token) noexcept nogil:
    """The tokenizer's callback: the tree builder's, then the owner's
    handling of what it did (with the token still valid), when a handler
    matched or the owner watches every token."""
    cdef Hooks* h = <Hooks*> context
    cdef int status
    cdef int handled = 0
    cdef bint matched = False
    cdef bint watch_elements = h.watch_elements
    cdef size_t offset, events, begin, end
    # (The token's fields read into locals, again after the tree builder
    # had it: stores through h may alias them.)
    cdef int tag = token.tag_id
    if h.stopped:
        return 1
    h.event_count = 0
    h.may_match = False
    h.select_event = False
    h.moved_here = False
    h.moved_count = 0
    h.late_count = 0
    if watch_elements:
        # (The counters change only with stack events, which are recorded
        # only when watching elements: else they stay at their start.)
        h.fostered_before = h.fostered
        h.forms_before = h.forms
        h.plaintext_before = h.plaintext
        h.pending_before = tree_builder_reconstruction_pending(h.builder)
        h.skip_newline_before = tree_builder_skip_newline(h.builder)
        h.after_body_before = tree_builder_after_body(h.builder)
        if tag == TAG__END_OF_FILE:
            h.eof_formatting_count = tree_builder_formatting(h.builder, h.eof_formatting, 64)
            h.eof_all_count = tree_builder_formatting_all(h.builder, h.eof_all, 64)
    h.token = token
    offset = tokenizer_token_offset(h.tokenizer)
    h.token_offset = offset
    if tag == TAG__TEXT and not (token.data_flags & DATA_WHITESPACE_ONLY):
        h.text_tokens += 1
    status = tree_builder_token(h.builder, token)
    tag = token.tag_id
    begin = token.begin
    end = token.end
    events = h.event_count
    if events != 0:
        if h.may_match:
            matched = match_pushed(h)
            if h.stopped:
                return 1
        if h.moved_here and h.positional != 0:
            if match_moved(h):
                matched = True
            if h.stopped:
                return 1
        if h.positional_count != 0:
            forget_popped(h)
        if not matched and h.watched_count != 0:
            matched = touches_watched(h)
    if matched or (events != 0 and h.watch_all) or h.watch_all == 2 or h.watch_tokens \
            or h.select_event \
            or tag == TAG__END_OF_FILE \
            or (watch_elements and (tag == TAG_BODY or tag == TAG_HTML
                                    or tag == TAG_FRAMESET)):
        if h.owner_thread != NULL and lexpy_rewriter_thread_state() == h.owner_thread:
            # (The GIL is held by this thread: owner_call_held.)
            h.owner_calls_held += 1
            handled = (<owner_call> owner_call_held)(h.owner)
        else:
            with gil:
                handled = (<RewriterCore> h.owner)._token_done()
        h.gap = False
    else:
        if tag != TAG__TEXT:
            h.gap = True
        if events != 0 and h.watched_count != 0:
            silence_pops(h)
    h.token = NULL
    if h.free_closed and h.closed_count >= h.sweep_at and not h.stopped and handled == 0:
        sweep(h)
    if tag != TAG__END_OF_FILE:
        token_passed(h, token, tag, offset, begin, end)
    if handled != 0:
        h.stopped = True
        return 1
    return status


cdef inline void token_passed(Hooks* h, Token* token, int tag, size_t offset, size_t begin,
                              size_t end) noexcept nogil:
    """Where the token (not the end of file) ended, for the owner's checks
    at the end of the input."""
    cdef size_t length = end - begin
    # (where the token before it ended: a comment emitted at the end of
    # input does not span its source, and may be followed by an empty
    # piece of itself; a comment still open at a chunk's end comes in
    # pieces, and its later pieces keep where its first began)
    if (length != 0 or tag != h.last_tag_id) and not (
            tag == TAG__COMMENT and token.type & TOKEN_CONTINUATION):
        h.last_begin = h.last_end
    h.last_end = offset + length
    h.last_tag_id = tag
    h.last_closed = length != 0 and token.data[end - 1] == 0x3E
    h.last_pushed = NULL
    if h.watch_elements and h.event_count != 0 \
            and h.events[h.event_count - 1].kind == EVENT_PUSHED \
            and token_element(token, h.events[h.event_count - 1].element):
        h.last_pushed = h.events[h.event_count - 1].element


cdef inline bint token_element(Token* t, CElement* element) noexcept nogil:
    """Whether `element` is the one made for the start tag token `t` (by
    its tag id: not implied, reconstructed or cloned for it), as
    RewriterCore._is_token_element decides."""
    cdef lxp_tag_id_t tag = t.tag_id
    if t.type & TOKEN_END_TAG or tag <= TAG__DOCUMENT_FRAGMENT:
        return False
    if tag == TAG_IMAGE:
        tag = TAG_IMG
    if element.ns == NS_SVG and tag < TAG__LAST_STATIC:
        tag = lxp_tag_svg_adjusted[tag]     # (the tree builder's case adjustment)
    return element.tag_id == tag


cdef int on_token_gated(void* context, Token* token) noexcept nogil:
    """on_token when static_gate_closed: on_token_dormant for the tokens
    that cannot go to the owner."""
    cdef Hooks* h = <Hooks*> context
    cdef int tag = token.tag_id
    if h.owner_idle and tag < <int> TAG__LAST_STATIC and not h.stopped \
            and not (h.positional != 0 and agency_tag(tag)):
        # (The owner never called: no handler matched, nothing is watched
        # or held; the body, html and frameset tags it always sees matter
        # to it only with edits (a removal in progress, an element open in
        # _open, input dropped): on_token_dormant; the end of file:
        # on_eof_idle.)
        if tag == TAG__END_OF_FILE:
            return on_eof_idle(h, token)
        return on_token_dormant(h, token, tag)
    if tag < <int> TAG__LAST_STATIC and h.watched_count == 0 and h.watch_all == 0 \
            and h.held_select == NULL and not h.stopped and tag != TAG__END_OF_FILE \
            and tag != TAG_BODY and tag != TAG_HTML and tag != TAG_FRAMESET \
            and not (h.positional != 0 and agency_tag(tag)):
        return on_token_dormant(h, token, tag)
    return on_token(context, token)


cdef inline bint agency_tag(int tag) noexcept nogil:
    """Whether a tag token of this id may run the adoption agency
    algorithm (the formatting elements' end tags; <a> and <nobr> start
    tags): its moves may make late matches (match_moved)."""
    return tag == TAG_A or tag == TAG_B or tag == TAG_BIG or tag == TAG_CODE \
        or tag == TAG_EM or tag == TAG_FONT or tag == TAG_I or tag == TAG_NOBR \
        or tag == TAG_S or tag == TAG_SMALL or tag == TAG_STRIKE or tag == TAG_STRONG \
        or tag == TAG_TT or tag == TAG_U


cdef int on_token_dormant(Hooks* h, Token* token, int tag) noexcept nogil:
    """on_token for a token that cannot go to the owner: no handler's
    selector can match an element with a static tag id
    (static_gate_closed), so only an element with a dynamic id could
    match, and the tree builder makes one only for a start tag token of
    that id (implied, reconstructed and adoption agency elements, and the
    SVG name adjustments, all have static ids); nothing is watched, no
    select is held, and the token is not one of those _token_done always
    sees (the end of file, body, html, frameset). Its stack events keep
    the counters they snapshot (record); nothing else of them is read:
    the owner's state before the token is not taken, nothing is matched.
    (Events not written for such a token measured no gain: the test in
    record costs the other tokens as much.)"""
    cdef int status
    cdef size_t offset
    h.event_count = 0
    h.moved_count = 0               # (note_moved's, not read here)
    h.token = token
    offset = tokenizer_token_offset(h.tokenizer)
    h.token_offset = offset
    if tag == TAG__TEXT and not (token.data_flags & DATA_WHITESPACE_ONLY):
        h.text_tokens += 1
    status = tree_builder_token(h.builder, token)
    tag = token.tag_id
    if tag != TAG__TEXT:
        h.gap = True
    if h.positional_count != 0:
        forget_popped(h)
    h.token = NULL
    if h.free_closed and h.closed_count >= h.sweep_at and not h.stopped:
        sweep(h)
    token_passed(h, token, tag, offset, token.begin, token.end)
    return status


cdef int on_eof_idle(Hooks* h, Token* token) noexcept nogil:
    """The end of file while the owner is idle (owner_idle: _token_done
    never ran, so no handler's selector matched an element, nothing was
    edited, nothing is watched or held, and no document end handler is
    registered): _handle_token would only copy the input up to the end
    (_document_end), which close() does after the parse (_copy_to,
    _write_rest) as well; the owner is not called. The tree builder alone
    (the end events it records are read by nobody)."""
    cdef int status
    if h.stopped:
        return 1
    h.event_count = 0
    h.moved_count = 0
    h.token = token
    h.token_offset = tokenizer_token_offset(h.tokenizer)
    status = tree_builder_token(h.builder, token)
    h.token = NULL
    return status


cdef int on_token_unwatched(void* context, Token* token) noexcept nogil:
    """on_token when no handler watches elements or tokens (watch_elements
    and watch_tokens False): no stack events are recorded and only the end
    of file goes to the owner, so a token other than that needs only the
    tree builder, the counts and offsets the owner reads at the end, and
    the sweep. (No handler at all: the end of file does not go to the
    owner either while it is idle: on_eof_idle.)"""
    cdef Hooks* h = <Hooks*> context
    cdef int status
    cdef size_t offset
    cdef int tag = token.tag_id
    if tag == TAG__END_OF_FILE and h.owner_idle and not h.watch_all:
        return on_eof_idle(h, token)
    if tag == TAG__END_OF_FILE or h.watch_all:
        return on_token(context, token)
    if h.stopped:
        return 1
    offset = tokenizer_token_offset(h.tokenizer)
    if tag == TAG__TEXT and not (token.data_flags & DATA_WHITESPACE_ONLY):
        h.text_tokens += 1
    status = tree_builder_token(h.builder, token)
    tag = token.tag_id
    if tag != TAG__TEXT:
        h.gap = True
    if h.free_closed and h.closed_count >= h.sweep_at and not h.stopped:
        sweep(h)
    token_passed(h, token, tag, offset, token.begin, token.end)
    return status


cdef class Context:
    """What the rewriter's checks need of an element's ancestors, computed
    once per element from its parent's (no walk to the root per edit):
    RewriterCore._context."""
    cdef public bint in_head               # it or an ancestor is <head>
    cdef public bint tabular               # ... a table part or a template
    cdef public bint foreign_in_table      # foreign content under such
    cdef public bint in_selectedcontent
    cdef public object select              # the nearest <select> (or None)
    cdef public bint in_template           # in a template's contents

    def __init__(self, bint in_head, bint tabular, bint foreign_in_table,
                 bint in_selectedcontent, select, bint in_template=False):
        self.in_head = in_head
        self.tabular = tabular
        self.foreign_in_table = foreign_in_table
        self.in_selectedcontent = in_selectedcontent
        self.select = select
        self.in_template = in_template


DOCUMENT_CONTEXT = Context(False, False, False, False, None)
cdef object EMPTY_SET = frozenset()
# The formatting elements whose entries the Noah's Ark clause compares by
# their attributes (an <a> start tag takes the earlier <a> off the list
# first, so three never gather): the end of one whose attributes were
# edited comes to the Rewriter, whose _popped checks the elements of its
# name around it and inside it (quiet_level, nothing_at_end).
cdef object NOAHS_ARK_NAMES = frozenset(
    "b big code em font i nobr s small strike strong tt u".split())
cdef tuple EMPTY_TUPLE = ()
TEMPLATE_CONTEXT = Context(False, True, False, False, None, True)


# The Python state of one open element's end event as the owner gets it
# (a tuple and an element proxy; 200,000 elements open at the end of the
# input grew the peak RSS by 69 MB at close()): counted by _state_bytes
# for every open element, matched or not, since close() hands them all
# over at once.
cdef size_t OPEN_EVENT_BYTES = 384
# The written input kept for the end of input checks (Rewriter._LOOKBACK),
# and mapped_from when nothing is mapped (decoding.NO_MAP_OFFSET).
LOOKBACK = 4096
# How far back from the input's end the source of a script still open is
# kept from its start tag (Rewriter._eof_raw_end_tag parses it again at
# the end of input): RewriterCore.input_kept.
SCRIPT_KEPT = 65536
cdef size_t NO_MAP = <size_t> -1


cdef inline list lazy_list(list made):
    """An ElementRecord content list: the one made, or a new one (None:
    not made yet)."""
    return [] if made is None else made


cdef class ElementRecord:
    """What the rewriter keeps of a matched element while it is open (the
    fields are lexpy/rewriter/__init__.py's; a C struct of object slots,
    made without Python code for each matched element). The content lists
    (before, prepend, append, after, end_handlers) are made when first
    read: most elements get none."""
    cdef public object node, name, implied, foster
    # (start: its start tag's (begin, end) stream offsets, or None; kept
    # as C fields, the tuple made when read)
    cdef size_t start_begin, start_end
    cdef bint has_start
    cdef list _before, _prepend, _append, _after, _end_handlers
    cdef public object inner, new_name, attributes
    cdef public object handlers, element, implied_with
    cdef public object parent_open, text_handlers
    cdef public object comment_handlers, table_before
    # (The flags and counters as C fields: set and tested for every
    # matched element without an object each.)
    cdef public int mode
    cdef public bint attributes_changed, started, ended, synthesized
    cdef public bint clean_start, ignored_end, loop_stopped
    # (Matched only after the adoption agency moved it: its start tag was
    # written before (Rewriter._late_match).)
    cdef public bint late
    cdef public Py_ssize_t moves          # (-1: moved, see Rewriter._moved)
    cdef public size_t batch, text_count, fostered, forms
    # (Whether its start tag token had the self-closing flag: not the same
    # as its bytes ending in "/>", which <svg a=b/> does with "b/" an
    # unquoted value.)
    cdef public bint self_closing

    def __init__(self, node, implied, foster, start):
        record_init(self, node, node.local_name, implied, foster, start)
        self.implied_with = []
        self.text_handlers = []
        self.comment_handlers = []

    @property
    def start(self):
        return (self.start_begin, self.start_end) if self.has_start else None

    @start.setter
    def start(self, value):
        record_set_start(self, value)

    # (Each content list is made when first read: lazy_list.)
    @property
    def before(self):
        self._before = lazy_list(self._before)
        return self._before

    @property
    def prepend(self):
        self._prepend = lazy_list(self._prepend)
        return self._prepend

    @property
    def append(self):
        self._append = lazy_list(self._append)
        return self._append

    @property
    def after(self):
        self._after = lazy_list(self._after)
        return self._after

    @property
    def end_handlers(self):
        self._end_handlers = lazy_list(self._end_handlers)
        return self._end_handlers

    def _quiet_level(self):
        """See quiet_level."""
        return quiet_level(self)


cdef inline bint has_items(object handlers) except -1:
    """bool(handlers) for a record's text_handlers or comment_handlers (a
    list or a tuple, or None): their length read in C, where the truth test
    of an object field was a PyObject_IsTrue call (two for each matched
    element, in quiet_level)."""
    if handlers is None:
        return False
    if type(handlers) is list:
        return PyList_GET_SIZE(handlers) != 0
    if type(handlers) is tuple:
        return PyTuple_GET_SIZE(handlers) != 0
    return bool(handlers)


cdef int quiet_level(ElementRecord r) except -1:
    """How much of the element's end the owner must see (RewriterCore._quiet):
    a matched element whose end has nothing to write and nothing to check
    (no content or handlers at its end, not removed, renamed or replaced;
    attributes changed only when its own end tag closes it alone from the
    top of the stack, and of no formatting element the Noah's Ark clause
    compares) ends without a call to the owner."""
    if has_items(r.text_handlers) or has_items(r.comment_handlers) or r._end_handlers \
            or r._append or r._after \
            or r.mode or r.new_name is not None or r.table_before is not None:
        # (table_before: content written before a table is checked at its
        # end against what the parser foster-parented there.)
        return LOUD
    if r.attributes_changed and r.name in NOAHS_ARK_NAMES:
        return LOUD         # (_popped's Noah's Ark check: NOAHS_ARK_NAMES)
    return QUIET_OWN_END if r.attributes_changed else QUIET


cdef bint nothing_at_end(ElementRecord r, bint own_from_top) except -1:
    """Whether Rewriter._popped has nothing to write or check at the
    element's end: no content or handlers at its end, not removed,
    renamed or replaced, no content before a table, attributes changed
    only when its own end tag pops it from the top of the stack (the
    quiet levels' test, text and comment handlers aside: they end with
    the record)."""
    if r._end_handlers or r._append or r._after or r.mode or r.new_name is not None \
            or r.table_before is not None:
        return False
    if r.attributes_changed and r.name in NOAHS_ARK_NAMES:
        return False        # (_popped's Noah's Ark check: NOAHS_ARK_NAMES)
    return own_from_top or not r.attributes_changed


cdef int record_set_start(ElementRecord r, object start) except -1:
    if start is None:
        r.has_start = False
    else:
        r.start_begin, r.start_end = start
        r.has_start = True
    return 0


cdef inline int record_init(ElementRecord r, object node, object name, object implied,
                            object foster, object start) except -1:
    r.node = node
    r.name = name
    r.implied = implied
    r.foster = foster
    record_set_start(r, start)
    r.self_closing = False
    r.mode = 0                  # 0 kept, 1 removed, 2 content kept, 3 inner replaced
    r.attributes_changed = False
    r.moves = 0                 # the rewriter's _moves when it was pushed
    r.started = False           # the start handlers have run
    r.ended = False
    r.synthesized = False       # its start tag was written
    r.batch = 0                 # the token that made it
    r.text_count = 0            # text tokens before it
    r.fostered = 0              # foster-parented elements before it
    r.forms = 0                 # form elements before it
    # (None: inner, new_name, attributes, handlers, element, parent_open
    # (its parent element at insertion); implied_with (elements implied at
    # its token before it), text_handlers and comment_handlers (on(...,
    # text=, comments=)) are set by the maker; table_before: a table with
    # content before it, (its previous sibling, that sibling's text
    # length) when the content was asked for.)
    # Its start tag token closed nothing, implied nothing and found no
    # formatting elements to reconstruct; an end tag was ignored while it
    # was open; an <li>/<dd>/<dt> loop stopped at it.
    r.clean_start = False
    r.ignored_end = False
    r.loop_stopped = False
    r.late = False


cdef inline void record_forget(ElementRecord r):
    """A record the fast path forgot, its object fields None as in a new
    one (its C flags and counters are set again by record_init, and what
    _start_fast sets): it holds no node proxy (which would keep the node
    from the sweep)."""
    r.node = None
    r.has_start = False
    # (Most are None already, for an element its handlers did not edit:
    # not stored again, a reference taken and one given back each.)
    if r._before is not None or r._prepend is not None or r._append is not None \
            or r._after is not None or r._end_handlers is not None:
        r._before = r._prepend = r._append = r._after = r._end_handlers = None
    if r.inner is not None or r.new_name is not None or r.attributes is not None \
            or r.handlers is not None or r.parent_open is not None \
            or r.table_before is not None:
        r.inner = r.new_name = r.attributes = r.handlers = r.parent_open = None
        r.table_before = None
    r.implied_with = r.text_handlers = r.comment_handlers = None


cdef class ElementBase:
    """The fields of lexpy.rewriter.Element (made by the engine's fast
    path without Python code), and its attribute methods."""
    cdef public object _rw
    cdef public ElementRecord _record

    def __init__(self, rw, ElementRecord record):
        self._rw = rw
        self._record = record

    cdef list attrs(self):
        """The record's attribute pairs, read from the DOM when first asked."""
        cdef ElementRecord r = self._record
        if r.attributes is None:
            r.attributes = (<RewriterCore> self._rw).attribute_pairs(r.node)
        return r.attributes

    def _attrs(self):
        return self.attrs()

    def get_attribute(self, name):
        cdef str key
        if type(name) is not str or not plain_name(<str> name):
            # (A plain name is its own lower case: not made again, a method
            # call for each read.)
            name = name.lower()
        for key, value in self.attrs():
            if key == name:
                return value
        return None

    def set_attribute(self, name, value):
        """Element.set_attribute; its checks in C for the common case (a
        lower-case ASCII name, a str value, an element with a start tag of
        its own in no table, template or select), the rest in
        Element._set_attribute."""
        cdef ElementRecord r = self._record
        cdef Context context
        cdef list attrs
        cdef Py_ssize_t i
        cdef Hooks* h = (<RewriterCore> self._rw).hooks
        if type(value) is not str or type(name) is not str or not plain_name(<str> name) \
                or r.started or r.implied or r.foster or "\x00" in <str> value:
            return self._set_attribute(name, value)
        # (No foreign element in a table part, selectedcontent or select
        # pushed so far: no element has such a Context.)
        if (h.foreign_seen and h.tabular_seen) or h.select_seen:
            context = (<RewriterCore> self._rw).context_of(r.node)
            if context.foreign_in_table or context.in_selectedcontent \
                    or context.select is not None:
                return self._set_attribute(name, value)
        attrs = self.attrs()
        for i in range(len(attrs)):
            if (<tuple> attrs[i])[0] == name:
                attrs[i] = (name, value)
                break
        else:
            attrs.append((name, value))
        r.attributes_changed = True
        if r.name in NOAHS_ARK_NAMES:
            # (The adoption agency algorithm's copies of a formatting
            # element carry its attributes: Rewriter._watch_agency_copy;
            # not an <a>'s, whose end is quiet.)
            self._rw._watch_agency_copy(r)

    def _remove_fast(self):
        """Element.remove in C for the common case, where none of its
        checks can refuse: an HTML element in its start handlers, with a
        start tag of its own that implied nothing, not foster-parented, not
        html, head, body, template or a table container, whose parent is
        neither a table container nor a template's contents, in no table
        with foreign content, select or selectedcontent. Its state set as
        Element.remove sets it (_note_form_pointer, the mode). False:
        not such an element (nothing done; Element.remove decides)."""
        cdef ElementRecord r = self._record
        cdef RewriterCore rw = <RewriterCore> self._rw
        cdef Hooks* h = rw.hooks
        cdef Context context
        cdef CElement* element
        cdef CNode* parent
        cdef int tag
        if r.started or r.implied or r.foster or r.implied_with or r.node is None:
            return False
        if h.after_body_before:
            return False        # (after </body>: Element._check_removable)
        element = <CElement*> (<Node?> r.node).c_node
        if element == NULL or element.node.type != ELEMENT_NODE or element.ns != NS_HTML:
            return False
        tag = element.tag_id
        if table_container_tag(tag) or tag == TAG_TEMPLATE or tag == TAG_HTML \
                or tag == TAG_HEAD or tag == TAG_BODY:
            return False
        parent = element.node.parent
        if parent != NULL and (parent.type == DOCUMENT_FRAGMENT_NODE or (
                parent.type == ELEMENT_NODE and (<CElement*> parent).ns == NS_HTML
                and table_container_tag((<CElement*> parent).tag_id))):
            return False
        # (No foreign element in a table part, selectedcontent or select
        # pushed so far: no element has such a Context.)
        if (h.foreign_seen and h.tabular_seen) or h.select_seen:
            context = rw.context_of(r.node)
            if context.foreign_in_table or context.in_selectedcontent \
                    or context.select is not None:
                return False
        # (Element._note_form_pointer)
        if h.forms == rw._forms:
            (<object> rw)._form_starts[r] = <size_t> tree_builder_form_element(h.builder)
        r.mode = 1
        return True


cdef extern from "Python.h":
    ctypedef struct PyByteArrayObject:
        Py_ssize_t ob_alloc             # bytes allocated at ob_bytes
        char* ob_bytes
        char* ob_start                  # the first byte in use


cdef int grow_bytes(bytearray out, Py_ssize_t size) except -1:
    """Resize out to size bytes, its room doubled when it must grow. (A
    bytearray grows by an eighth at a time, each step a realloc that may
    copy it all: the output, made of many small appends, was copied about
    eight times over. CPython resizes a bytearray grown by more than an
    eighth to the exact size, and keeps the room of one shrunk to half its
    room or more: grown to twice the size and shrunk back, it has room for
    as much again.)"""
    cdef PyByteArrayObject* o = <PyByteArrayObject*> out
    cdef Py_ssize_t room = o.ob_alloc - (o.ob_start - o.ob_bytes) - 1
    if size > room and 2 * size > o.ob_alloc + (o.ob_alloc >> 3) + 1:
        if PyByteArray_Resize(out, 2 * size) < 0:
            return -1
    return PyByteArray_Resize(out, size)


cdef int append_bytes(bytearray out, const char* data, Py_ssize_t length) except -1:
    """out += data[:length] (without a bytes object for the data)."""
    cdef Py_ssize_t size = PyByteArray_GET_SIZE(out)
    if length <= 0:
        return 0
    if grow_bytes(out, size + length) < 0:
        return -1
    memcpy(PyByteArray_AS_STRING(out) + size, data, <size_t> length)
    return 0


cdef const char* ESCAPED = b"&\"<>\xa0\r"   # (and C2 before A0: U+00A0)


cdef Py_ssize_t escaped_length(const char* data, Py_ssize_t length) noexcept:
    """The length of UTF-8 data (NUL-terminated, as Python makes it)
    escaped as start_tag_text escapes a value (& " < > U+00A0 CR, whose UTF-8
    is C2 A0)."""
    cdef Py_ssize_t i = 0, total = length
    cdef unsigned char c
    while True:
        i += <Py_ssize_t> strcspn(data + i, ESCAPED)
        if i >= length:
            return total
        c = <unsigned char> data[i]
        if c == 0x26:
            total += 4
        elif c == 0x22:
            total += 5
        elif c == 0x3C or c == 0x3E:
            total += 3
        elif c == 0xA0 and i > 0 and <unsigned char> data[i - 1] == 0xC2:
            total += 4
        elif c == 0x0D:           # (&#13;: a CR written as is reads as LF)
            total += 4
        i += 1                    # (also past a NUL inside the value)


cdef char* put_bytes(char* p, str text, bint attribute) noexcept:
    """text's UTF-8 (already made: escaped_length's caller asked for it)
    written at p, escaped as a value when attribute; the end."""
    cdef Py_ssize_t length, i = 0, run = 0, copied
    cdef const char* data = PyUnicode_AsUTF8AndSize(text, &length)
    cdef unsigned char c
    cdef const char* entity
    cdef size_t entity_length
    if not attribute:
        memcpy(p, data, <size_t> length)
        return p + length
    while True:
        i += <Py_ssize_t> strcspn(data + i, ESCAPED)
        if i >= length:
            break
        c = <unsigned char> data[i]
        copied = i
        if c == 0x26:
            entity = "&amp;"
        elif c == 0x22:
            entity = "&quot;"
        elif c == 0x3C:
            entity = "&lt;"
        elif c == 0x3E:
            entity = "&gt;"
        elif c == 0xA0 and i > 0 and <unsigned char> data[i - 1] == 0xC2:
            entity = "&nbsp;"
            copied = i - 1        # (the C2 before it is not copied)
        elif c == 0x0D:
            entity = "&#13;"
        else:
            i += 1                # (a NUL inside the value, or a lone A0 byte)
            continue
        entity_length = strlen(entity)
        memcpy(p, data + run, <size_t> (copied - run))
        p += copied - run
        memcpy(p, entity, entity_length)
        p += entity_length
        i += 1
        run = i
    memcpy(p, data + run, <size_t> (length - run))
    return p + (length - run)


cdef bint plain_name(str name):
    """Whether an attribute name is lower-case ASCII letters, digits and
    '-', a letter first (valid and lowered as it is)."""
    cdef Py_UCS4 c
    cdef Py_ssize_t i = 0
    for c in name:
        if not (0x61 <= c <= 0x7A or (i > 0 and (0x30 <= c <= 0x39 or c == 0x2D))):
            return False
        i += 1
    return i > 0


cdef class UnitBase:
    """The fields of lexpy.rewriter._Unit (a comment, text chunk or
    doctype handed to a handler)."""
    cdef public object _span, _before, _after, _replacement, _removed


cdef class TextChunkBase(UnitBase):
    """The fields of lexpy.rewriter.TextChunk (made by the engine's fast
    path without Python code)."""
    cdef public object text, last_in_text_node, _raw_text


cdef bint needs_escape(str value):
    """Whether an attribute value holds a character _escape_attribute
    changes (& " < > U+00A0 CR)."""
    cdef Py_UCS4 c
    for c in value:
        if c == 0x26 or c == 0x22 or c == 0x3C or c == 0x3E or c == 0xA0 or c == 0x0D:
            return True
    return False


cdef str start_tag_text(ElementRecord r, bint self_closing_foreign):
    """Rewriter._start_tag for an element whose start tag is its own
    token's (foreign, with a "/>": self_closing_foreign): the name, the
    attributes (values escaped as lexpy.rewriter._escape_attribute does),
    " /" for a foreign "/>"."""
    cdef list parts = ["<", r.new_name or r.name]
    cdef str value
    for key, value in r.attributes or ():
        if needs_escape(value):
            value = (value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
                     .replace(">", "&gt;").replace("\u00a0", "&nbsp;").replace("\r", "&#13;"))
        parts.append(" ")
        parts.append(key)
        parts.append('="')
        parts.append(value)
        parts.append('"')
    if self_closing_foreign:
        parts.append(" /")
    parts.append(">")
    return "".join(parts)


cdef inline bint raw_text_tag(CElement* element, bint scripting) noexcept nogil:
    """Whether the HTML element's text is raw text (script, style, ...,
    plaintext; noscript when scripting)."""
    cdef int tag = element.tag_id
    if element.ns != NS_HTML:
        return False
    return tag == TAG_SCRIPT or tag == TAG_STYLE or tag == TAG_XMP or tag == TAG_IFRAME \
        or tag == TAG_NOEMBED or tag == TAG_NOFRAMES or tag == TAG_PLAINTEXT \
        or (tag == TAG_NOSCRIPT and scripting)


cdef inline bint table_container_tag(int tag) noexcept nogil:
    """Whether an HTML element's tag is one of lexpy.rewriter's
    _TABLE_CONTAINERS (text inside it is foster-parented)."""
    return tag == TAG_TABLE or tag == TAG_TBODY or tag == TAG_THEAD or tag == TAG_TFOOT \
        or tag == TAG_TR or tag == TAG_COLGROUP or tag == TAG_FRAMESET


cdef inline bint formatting_or_marker_tag(int tag) noexcept nogil:
    """Whether an HTML element's tag is one of lexpy.rewriter's
    _FORMATTING or _MARKER_ELEMENTS (its start tag changes the list of
    active formatting elements)."""
    return tag == TAG_A or tag == TAG_B or tag == TAG_BIG or tag == TAG_CODE \
        or tag == TAG_EM or tag == TAG_FONT or tag == TAG_I or tag == TAG_NOBR \
        or tag == TAG_S or tag == TAG_SMALL or tag == TAG_STRIKE or tag == TAG_STRONG \
        or tag == TAG_TT or tag == TAG_U or tag == TAG_APPLET or tag == TAG_OBJECT \
        or tag == TAG_MARQUEE or tag == TAG_TEMPLATE or tag == TAG_TD or tag == TAG_TH \
        or tag == TAG_CAPTION


cdef class RewriterCore:
    """One rewrite's parse and its event plumbing (internal: see
    lexpy.rewriter.Rewriter)."""
    cdef Hooks* hooks
    cdef object construction
    cdef list selectors                 # (keeps the programs of Hooks alive)
    cdef public object failure          # the handler exception that stopped it
    cdef dict attr_names                # attribute name ids -> str (qualified)
    cdef list plain_attr_names          # ... without a prefix, by id (None: not met)
    cdef dict matching_cache            # matches bit set -> (element, text, comment handlers)
    cdef uint64_t last_matches          # ... the last one looked up (last_cached: its
    cdef tuple last_cached              # entry, None: none yet)
    cdef object element_class           # the owner's Element class
    cdef ElementBase spare_element       # an Element (with its record) the fast path
                                        # forgot and nobody kept: made again from it
    cdef object text_chunk_class        # ... and TextChunk class
    cdef int frameset_handlers          # frameset_never: 0 not known yet, 1 no, 2 yes
    cdef object doc_text                # doc_text_handlers (doc_text_read: read)
    cdef bint doc_text_read
    cdef list html_names                # HTML elements' local names by tag id (None: not met)
    # The owner's state that the fast path of a start tag reads and sets
    # (lexpy.rewriter.Rewriter's attributes, described there; C fields
    # here).
    cdef public object _skip, _form_dirty, _raw_text_name, _raw_tail, _after_body
    cdef public object _head_appended, _dropped, _at_eof, _reconstructed_here
    cdef public object _token_ignored, _raw_tail_edited, _scripting
    cdef public Py_ssize_t _contexts_limit
    # (The counters as C fields: the fast paths set them for every token
    # they handle without an int object each.)
    cdef public size_t _batch, _foster_count, _forms
    cdef public bint _plaintext
    cdef public list _tracked, _scoped_text, _scoped_comments, _element_handlers
    cdef public dict _open, _scoped_open, _contexts, _afe_edited, _start_edited
    cdef public object _moves
    cdef public object _script_start     # (the last script's element and start offset)
    cdef public object _frameset_written     # (Rewriter._frameset_token)
    cdef public object _frameset_settled     # (Rewriter._frameset_watch)
    cdef public object _frameset_hold        # (Rewriter._frameset_watch: input_kept)
    cdef public object _unlisted     # (Rewriter._unlist_for_copies)
    # (The output state _copy_to and _emit read and set: copy_to and emit.)
    cdef public object _emitted, _skip_newline_at, _ready, _mapped_from, _out, _raw
    cdef public object _raw_base, _out_encoding
    # (The chunk being parsed while it is not in _raw yet: _accept, take_chunk.)
    cdef bytes pending_chunk
    # (Lists and sets per token: the fast paths set empty tuples and
    # frozensets, which nothing changes: the slow path makes its own
    # before it adds to them.)
    cdef public object _implied_pops, _pushed_here, _popped_nodes
    cdef public object _reconstructed_nodes, _explicit
    cdef public object _reconstructed_names, _popped_here

    def __cinit__(self):
        self.hooks = <Hooks*> malloc(sizeof(Hooks))
        if self.hooks == NULL:
            raise MemoryError()
        self._batch = 0
        self._raw_tail = ""
        self._raw_tail_edited = False
        self.hooks.events = NULL
        self.hooks.event_count = 0
        self.hooks.event_capacity = 0
        self.hooks.stopped = False
        self.hooks.gap = False
        self.hooks.token = NULL
        self.hooks.watch_elements = False
        self.hooks.watch_tokens = False
        self.hooks.owner_thread = NULL
        self.hooks.owner_calls_held = 0
        self.hooks.builder = NULL
        self.hooks.tokenizer = NULL
        self.hooks.last_end = 0
        self.hooks.last_begin = 0
        self.hooks.eof_formatting_count = 0
        self.hooks.eof_all_count = 0
        self.hooks.last_tag_id = 0
        self.hooks.last_closed = True
        self.hooks.last_pushed = NULL
        self.hooks.text_tokens = 0
        self.hooks.owner_idle = False
        self.hooks.programs = NULL
        self.hooks.matchers = NULL
        self.hooks.gate = NULL
        self.hooks.every = 0
        self.hooks.watched = NULL
        self.hooks.watched_index = NULL
        self.hooks.watched_index_capacity = 0
        self.hooks.silent = NULL
        self.hooks.silent_count = 0
        self.hooks.silent_capacity = 0
        self.hooks.free_closed = False
        self.hooks.closed = NULL
        self.hooks.closed_count = 0
        self.hooks.closed_capacity = 0
        self.hooks.sweep_at = 256
        self.hooks.sweep_min = 256
        self.hooks.held = NULL
        self.hooks.held_capacity = 0
        self.hooks.held_set = NULL
        self.hooks.held_set_capacity = 0
        self.hooks.freed = 0
        self.hooks.held_count = 0
        self.hooks.document = NULL
        self.hooks.open_depth = 0
        self.hooks.foreign_seen = False
        self.hooks.tabular_seen = False
        self.hooks.select_seen = False
        self.hooks.held_select = NULL
        self.hooks.select_event = False
        self.hooks.positional = 0
        self.hooks.positional_reach = 0
        self.hooks.moved_here = False
        self.hooks.moved = NULL
        self.hooks.moved_count = 0
        self.hooks.moved_capacity = 0
        self.hooks.positional_keys = NULL
        self.hooks.positional_bits = NULL
        self.hooks.positional_capacity = 0
        self.hooks.positional_count = 0
        self.hooks.late = NULL
        self.hooks.late_bits = NULL
        self.hooks.late_count = 0
        self.hooks.late_capacity = 0
        self.hooks.watched_count = 0
        self.hooks.watched_capacity = 0
        self.hooks.program_count = 0
        self.hooks.watch_all = 0
        self.hooks.may_match = False
        self.hooks.static_gate_closed = False
        self.hooks.template_depth = 0
        self.hooks.head = NULL
        self.hooks.fostered = 0
        self.hooks.forms = 0
        self.hooks.plaintext = False
        self.hooks.fostered_before = 0
        self.hooks.forms_before = 0
        self.hooks.plaintext_before = False

    def __dealloc__(self):
        cdef size_t i
        if self.hooks != NULL:
            if self.hooks.builder != NULL and self.construction is not None:
                tree_builder_set_observer(self.hooks.builder, NULL)
            free(self.hooks.events)
            if self.hooks.matchers != NULL:
                for i in range(self.hooks.program_count):
                    element_matcher_free(self.hooks.matchers[i])
                free(self.hooks.matchers)
            free(self.hooks.programs)
            free(self.hooks.gate)
            free(self.hooks.watched)
            free(self.hooks.watched_index)
            free(self.hooks.silent)
            free(self.hooks.closed)
            free(self.hooks.held)
            free(self.hooks.held_set)
            free(self.hooks.moved)
            free(self.hooks.positional_keys)
            free(self.hooks.positional_bits)
            free(self.hooks.late)
            free(self.hooks.late_bits)
            free(self.hooks)
            self.hooks = NULL

    def _attach(self, construction, bint watch_elements, bint watch_tokens,
                list selectors=None, bint bounded=True, size_t sweep_min=256,
                bint text_unread=False, bint end_handlers=True):
        """Watch `construction` (a fresh TreeConstruction over UTF-8):
        element events matched against `selectors` (lexpy.selectors
        Selector objects, one per handler), every token with
        watch_tokens; with bounded, the subtrees of closed elements are
        freed as the parse goes; with text_unread (no text handler) and
        closed subtrees freed (no selector reads beyond the ancestors),
        the Text nodes nobody reads are not made; without end_handlers
        (no document end handler), the owner is idle until its first call
        (owner_idle: on_eof_idle)."""
        cdef Tokenizer* tokenizer
        cdef TreeBuilder* builder
        cdef CDocument* c_doc
        cdef size_t i
        self.selectors = list(selectors or ())
        if self.selectors:
            self.hooks.programs = <Program**> malloc(len(self.selectors) * sizeof(Program*))
            if self.hooks.programs == NULL:
                raise MemoryError()
            self.hooks.matchers = <void**> calloc(len(self.selectors), sizeof(void*))
            if self.hooks.matchers == NULL:
                raise MemoryError()
            for i in range(len(self.selectors)):
                self.hooks.programs[i] = (<Selector?> self.selectors[i]).program
            self.hooks.program_count = len(self.selectors)
            self._make_gate()
        # (The document being built: a streaming one when closed subtrees
        # are freed; dom_streaming_start refuses a document that has nodes.)
        c_doc = (<Document?> construction.document_object()).c_doc
        self.hooks.document = c_doc
        construction_enter(construction, &tokenizer, &builder)
        try:
            self.construction = construction
            self.hooks.tokenizer = tokenizer
            self.hooks.builder = builder
            self.hooks.owner = <void*> self
            self.hooks.watch_elements = watch_elements
            self.hooks.watch_tokens = watch_tokens
            self.hooks.owner_idle = not watch_tokens and not end_handlers
            # (on_token_dormant: only while not every token goes to the
            # owner.)
            if watch_tokens:
                self.hooks.static_gate_closed = False
            self.hooks.observer.context = self.hooks
            # (Without element events, only the pops matter (the queue of
            # closed elements): pushes keep the tree builder's inline path.)
            self.hooks.observer.pushed = NULL
            self.hooks.observer.popped = on_popped
            self.hooks.observer.moved = NULL
            if watch_elements:
                self.hooks.observer.pushed = on_pushed
                self.hooks.observer.moved = on_moved
            # No DOM is retained: closed subtrees are freed, unless a
            # handler's selector reads siblings (or more) of the elements
            # it matches.
            self.hooks.free_closed = bounded
            self.hooks.sweep_min = sweep_min if sweep_min else 1
            self.hooks.sweep_at = self.hooks.sweep_min
            for i in range(self.hooks.program_count):
                if program_reads_beyond_ancestors(self.hooks.programs[i]):
                    self.hooks.free_closed = False
            if self.hooks.free_closed and dom_streaming_start(c_doc) != 0:
                self.hooks.free_closed = False
            # (Text nodes: only the selectors and text handlers would read
            # them, and the table check of foster-parented text, which
            # the tree builder keeps: tree_builder_set_text_unread.)
            tree_builder_set_text_unread(builder, text_unread and self.hooks.free_closed)
            if watch_elements or self.hooks.free_closed:
                tree_builder_set_observer(builder, &self.hooks.observer)
            if self.hooks.static_gate_closed and watch_elements:
                tokenizer_set_callback(tokenizer, on_token_gated, self.hooks)
            elif watch_elements or watch_tokens:
                tokenizer_set_callback(tokenizer, on_token, self.hooks)
            else:
                tokenizer_set_callback(tokenizer, on_token_unwatched, self.hooks)
        finally:
            construction_leave(construction)

    cdef int _make_gate(self) except -1:
        """hooks.gate from the selectors' subject type selectors: an element
        whose tag no handler's selector names is matched against none; and
        hooks.every: the selectors that match every element, whose matchers
        are not run."""
        cdef Hooks* h = self.hooks
        cdef uint8_t table[<int> TAG__LAST_STATIC]
        cdef size_t i, j, reach
        cdef uint64_t bit
        h.gate = <uint64_t*> calloc(<size_t> TAG__LAST_STATIC, sizeof(uint64_t))
        if h.gate == NULL:
            raise MemoryError()
        for i in range(h.program_count):
            bit = <uint64_t> 1 << (i if i < 63 else 63)
            program_subject_tags(h.programs[i], table, <size_t> TAG__LAST_STATIC)
            if i < 63 and program_matches_every_element(h.programs[i]):
                h.every |= bit
            # (Combinators, or a pseudo-class that reads more than the
            # element: match_moved matches it again where the adoption
            # agency moved it.)
            if h.programs[i].max_compounds > 1 or program_reads_beyond_ancestors(h.programs[i]):
                h.positional |= bit
                reach = selector_reach(h.programs[i])
                if reach > LATE_REACH_MAX:
                    reach = LATE_REACH_MAX
                if reach > h.positional_reach:
                    h.positional_reach = reach
            for j in range(<size_t> TAG__LAST_STATIC):
                if table[j]:
                    h.gate[j] |= bit
        h.static_gate_closed = h.every == 0
        for j in range(<size_t> TAG__LAST_STATIC):
            if h.gate[j] != 0:
                h.static_gate_closed = False
                break
        return 0

    cdef int _token_done(self) noexcept:
        self.hooks.owner_idle = False       # (on_eof_idle, on_token_gated)
        if self.failure is not None:
            return 1
        try:
            self.take_chunk()
            # (A token of the select watched by _hold_select: its events
            # are read by _handle_token.)
            if self.hooks.select_event or self.hooks.late_count or not (
                    self._start_fast() or self._text_fast() or self._end_fast()):
                self._handle_token()
        except BaseException as error:
            self.failure = error
            return 1
        return 0

    cdef bint _start_fast(self) except -1:
        """_handle_token for a start tag that pushed its own new element
        and nothing else (the most common token with element handlers),
        while no refusal state needs the whole of _handle_token (the
        `plain` test of _start_alone, and nothing dropped): the same state
        and calls as _start_alone and _pushed, the event read in C and the
        record made here. False: not such a token (nothing done)."""
        cdef Hooks* h = self.hooks
        cdef Token* t = h.token
        cdef Event* e
        cdef Event* e_pop = NULL
        cdef lxp_tag_id_t tag = t.tag_id
        cdef size_t begin, end, key, i
        cdef CNode* parent
        cdef ElementRecord r
        cdef ElementRecord found
        cdef tuple cached
        cdef list handlers, text_handlers, comment_handlers
        cdef ElementBase element
        cdef const uint8_t* raw
        cdef size_t batch
        if h.event_count == 0 or h.event_count > 2 or t.type & TOKEN_END_TAG \
                or tag <= TAG__DOCUMENT_FRAGMENT:
            return False
        e = &h.events[0]
        if e.kind != EVENT_PUSHED or not e.fresh:
            return False
        if h.event_count == 2:
            # A void element (or a self-closing foreign one): its start tag
            # pushes and pops it.
            e_pop = &h.events[1]
            if e_pop.kind != EVENT_POPPED or e_pop.element != e.element or not e_pop.from_top:
                return False
        if tag == TAG_IMAGE:
            tag = TAG_IMG
        if e.element.tag_id != tag:
            return False                # (not the token's own element)
        if e.foster and (<object> self)._tables_before:
            # (Rewriter._fostered_inside_tables notes where it went.)
            return False
        # (The gate of _handle_token's fast path: no refusal state.)
        if self._skip is not None or self._tracked or self._after_body \
                or self._form_dirty is not None or self._head_appended:
            return False
        if self._dropped or self._frameset_written:
            # (A <frameset> start tag after dropped input: _handle_token
            # refuses it.)
            raw = t.data + t.begin
            if t.end - t.begin >= 9 and (raw[1] | 0x20) == c'f' and (raw[2] | 0x20) == c'r' \
                    and (raw[3] | 0x20) == c'a' and (raw[4] | 0x20) == c'm' \
                    and (raw[5] | 0x20) == c'e' and (raw[6] | 0x20) == c's' \
                    and (raw[7] | 0x20) == c'e' and (raw[8] | 0x20) == c't':
                return False
        self.silent_ends()
        begin = h.token_offset
        end = begin + (t.end - t.begin)
        key = <size_t> e.element
        # (The key as an int when needed: not for a matched element that
        # is forgotten after its handlers ran.)
        key_object = key if e_pop != NULL or not e.matches else None
        node = node_proxy(&e.element.node)
        name = self.local_name(e.element, node)
        # (_fast_token_state(True))
        self._implied_pops = ()
        self._at_eof = False
        batch = self._batch + 1
        self._batch = batch
        self._pushed_here = ()
        self._reconstructed_here = False
        self._reconstructed_nodes = EMPTY_TUPLE
        self._explicit = EMPTY_TUPLE
        self._reconstructed_names = EMPTY_SET
        self._token_ignored = False
        if e_pop == NULL:
            self._popped_here = EMPTY_SET
            self._popped_nodes = ()
        else:
            self._popped_here = {key_object}
            self._popped_nodes = [node]
        # (raw_text_tag with the scripting flag read only for a noscript,
        # and an HTML script found by its tag id: no Python test per element)
        if raw_text_tag(e.element, True) and (e.element.tag_id != TAG_NOSCRIPT
                                              or self._scripting):
            self._raw_text_name = name
            if e.element.tag_id == TAG_SCRIPT:
                self._script_start = (node, begin)
        else:
            self._raw_text_name = None
        self._raw_tail = ""
        self._raw_tail_edited = False
        self._foster_count = e.fostered
        self._forms = e.forms
        self._plaintext = e.plaintext
        if e.matches:
            # (_pushed, for the token's own element.)
            if self.matching_cache is None:
                self.matching_cache = {}
            if e.matches == self.last_matches and self.last_cached is not None:
                # (The same handlers as the last matched element's.)
                cached = self.last_cached
            else:
                cached = self.matching_cache.get(e.matches)
                if cached is not None:
                    self.last_matches = e.matches
                    self.last_cached = cached
            if cached is None:
                matches = e.matches
                handlers = self._matching(node, matches)
                cached = (handlers, self._scoped_text, self._scoped_comments)
                if len(self._element_handlers) < 63:
                    self.matching_cache[matches] = cached
                    self.last_matches = e.matches
                    self.last_cached = cached
            else:
                self._scoped_text = cached[1]
                self._scoped_comments = cached[2]
            handlers = cached[0]
            text_handlers = cached[1]
            comment_handlers = cached[2]
            if handlers or text_handlers or comment_handlers:
                element = self.spare_element
                if element is not None:
                    # (The last Element forgotten, which no handler kept:
                    # its record cleared (record_forget) and made again.)
                    self.spare_element = None
                    r = element._record
                    if Py_REFCNT(element) == 1 and Py_REFCNT(r) == 2:
                        element._rw = self
                    else:
                        element = None
                if element is None:
                    r = ElementRecord.__new__(ElementRecord)
                    if self.element_class is None:
                        self.element_class = getattr(self, "_element_class")
                    # (The owner's Element class adds methods only: made
                    # without a call to it.)
                    element = (<PyTypeObject*> self.element_class).tp_new(
                        <type> self.element_class, <PyObject*> EMPTY_TUPLE, NULL)
                    element._rw = self
                    element._record = r
                record_init(r, node, name, False, e.foster, None)
                r.start_begin = begin
                r.start_end = end
                r.has_start = True
                r.self_closing = (t.type & TOKEN_SELF_CLOSING) != 0
                r.moves = self._moves
                r.text_handlers = text_handlers
                r.comment_handlers = comment_handlers
                if text_handlers or comment_handlers:
                    self._scoped_open[key] = None
                r.element = element
                r.implied_with = ()
                r.fostered = e.fostered
                r.forms = e.forms
                r.batch = batch
                # (Nothing was implied or closed at this token.)
                r.clean_start = not h.pending_before
                # (Rewriter._frameset_watch returns False, and changes
                # nothing, where no body is open: not called then.)
                watched = not self._frameset_settled and not self.frameset_never() \
                    and self.open_body() != NULL and self._frameset_watch(node)
                for handler in handlers:
                    handler(element)
                r.started = True
                if watched:
                    self._frameset_unwatch(r)
                if not (text_handlers or comment_handlers or r._before or r._prepend
                        or r.mode or r.new_name is not None or r.attributes_changed) \
                        and quiet_level(r) == QUIET:
                    r.element = None
                    if Py_REFCNT(element) == 1:
                        # Its handlers changed nothing and nobody kept its
                        # Element (the one way to edit it later, before its
                        # end): forgotten, as an element no handler matched.
                        # (Nothing is written at its end; no check reads it.)
                        r.ended = True
                        if Py_REFCNT(r) == 2:
                            # (Only the Element has its record: both kept
                            # for the next matched element.)
                            # (Without its rewriter: no cycle through it.)
                            record_forget(r)
                            element._rw = None
                            self.spare_element = element
                        return self.start_done(e_pop, key, key_object, node, end, None)
                    r.element = element
                if key_object is None:
                    key_object = key
                # (Its parent when it was inserted: made now that the record
                # is kept; nothing moves while its handlers run.)
                parent = e.element.node.parent
                r.parent_open = node_proxy(parent) if parent != NULL \
                    and parent.type == ELEMENT_NODE else None
                self._open[key_object] = r
                self.watch_key(key)
                if r._before or r._prepend or r.mode or r.new_name or r.attributes_changed:
                    self._start_edited[key_object] = r
                if r.mode == 1 and not (r._before or r._prepend) and self._skip is None:
                    # (_pushed_written for a removed element, nothing
                    # implied or closed at this token: its source is
                    # skipped from its start tag on.)
                    self.copy_to(begin)
                    if h.skip_newline_before:
                        self._newline_first()     # (right after a <pre>'s start tag)
                    r.text_count = h.text_tokens
                    self._skip = r
                    self._dropped = True
                    self.formatting_before_drop(r, e.element)
                elif r._before or r._prepend or r.mode or r.new_name is not None:
                    self._pushed_written(r, key_object, node, (begin, end), begin)
                elif r.attributes_changed:
                    # (_pushed_written for attributes changed and nothing
                    # else, nothing implied or closed at this token: the
                    # start tag written in place of its source.)
                    self.copy_to(begin)
                    r.text_count = h.text_tokens
                    self.emit_start_tag(r, e.element.ns != NS_HTML and r.self_closing)
                    if self._skip is None:
                        self._emitted = end
                    self.copy_to(end)
                else:
                    r.text_count = h.text_tokens
                # (The record does not keep its Element: no cycle, so it
                # goes with its last reference, not the cycle collector;
                # Rewriter._check_end makes another when one is needed.)
                r.element = None
                self.quiet_key(key, quiet_level(r))
                return self.start_done(e_pop, key, key_object, node, end, r)
        if key_object is None:
            key_object = key
        found = self._open.get(key_object)
        if found is not None:
            self.quiet_key(key, quiet_level(found))
        return self.start_done(e_pop, key, key_object, node, end, found)

    cdef int copy_to(self, size_t position) except -1:
        """Rewriter._copy_to; in C for input bytes copied as they are
        (UTF-8 input, no newline to skip, nothing cut at the last flush;
        a span of any length: appended from the input kept, without the
        bytes object or memoryview _copy_to makes), the rest there."""
        cdef size_t emitted = self._emitted
        cdef size_t base
        if position <= emitted:
            return 0
        if self._skip_newline_at is not None or self._ready is not None \
                or self._skip_lf_only_at is not None:
            self._copy_to(position)
            return 0
        if self._skip is None:
            if position > <size_t> self._mapped_from:
                self._copy_to(position)
                return 0
            base = self._raw_base
            if emitted < base or position - base > <size_t> PyByteArray_GET_SIZE(
                    <bytearray?> self._raw):
                self._copy_to(position)
                return 0
            append_bytes(<bytearray?> self._out,
                         PyByteArray_AS_STRING(<bytearray?> self._raw) + (emitted - base),
                         <Py_ssize_t> (position - emitted))
        self._emitted = position
        return 0

    def _run(self, call, *args):
        """call(*args), which runs the parse over the stream: the first
        error a handler or a check raised inside it (self.failure, which
        stopped the parse) is raised instead of the MemoryError that ended
        the call, or after the call."""
        try:
            call(*args)
        except MemoryError:
            if self.failure is not None:
                raise self.failure from None
            raise
        if self.failure is not None:
            raise self.failure

    def _accept(self, bytes data):
        """Rewriter._accept: tokenize a chunk of the (UTF-8) stream, then
        flush what is settled. Here in C: the parse's feed, the chunk
        appended to the input kept (when the owner is first called inside
        the parse: take_chunk; else after it), and the common flush (the
        input passes through: the bytes out cut from the input at once,
        the written input dropped but the last LOOKBACK bytes);
        Rewriter._flush_settled for the rest."""
        cdef bytearray raw
        cdef size_t settled, emitted, base, start, end, drop, length
        cdef const char* chunk
        cdef char* p
        if not data:
            return
        raw = <bytearray?> self._raw
        # (Nothing reads the input kept until the owner is called: the
        # chunk joins it then, or after the parse, where only the part the
        # flush keeps is copied into it.)
        self.pending_chunk = data
        try:
            # (With handlers, the GIL stays held through the parse: the
            # tokens that reach the owner would each take it back; and
            # on_token does not take it again where this thread holds it:
            # owner_call_held.)
            self.hooks.owner_thread = lexpy_rewriter_thread_state()
            self._run(self._construction.feed, data,
                      not (self.hooks.watch_elements or self.hooks.watch_tokens))
        except BaseException:
            self.hooks.owner_thread = NULL
            self.take_chunk()
            raise
        self.hooks.owner_thread = NULL
        if self.pending_chunk is None or self._max_memory is not None or self._comment_parts:
            self.take_chunk()
            self.flush_kept()
            return
        self.pending_chunk = None
        chunk = <const char*> data
        length = <size_t> len(data)
        base = self._raw_base
        start = base + <size_t> PyByteArray_GET_SIZE(raw)
        end = start + length
        settled = end - <size_t> self._construction.buffered()[0]
        emitted = self._emitted
        if settled <= emitted or not self.cut_at_once(settled, emitted, base):
            append_bytes(raw, chunk, <Py_ssize_t> length)
            self.flush_kept()
            return
        # (flush_kept's common case, the output made from the input kept
        # and the chunk: the bytes from emitted to settled.)
        ready = PyBytes_FromStringAndSize(NULL, <Py_ssize_t> (settled - emitted))
        p = <char*> (<bytes> ready)
        if emitted < start:
            # (A token that began in an earlier chunk may end in this one,
            # or not: settled may be before the chunk.)
            memcpy(p, PyByteArray_AS_STRING(raw) + (emitted - base),
                   (settled if settled < start else start) - emitted)
            if settled > start:
                memcpy(p + (start - emitted), chunk, settled - start)
        else:
            memcpy(p, chunk + (emitted - start), settled - emitted)
        self._ready = ready
        self._emitted = settled
        # (The input kept: as flush_kept keeps it, from the same base on.)
        drop = 0
        if settled - base > 2 * LOOKBACK:
            drop = self.input_kept(base, settled - base - LOOKBACK, end)
        if drop > <size_t> PyByteArray_GET_SIZE(raw):
            raw.clear()
            append_bytes(raw, chunk + (base + drop - start), <Py_ssize_t> (end - base - drop))
        else:
            if drop:
                del raw[:drop]
            append_bytes(raw, chunk, <Py_ssize_t> length)
        if drop:
            self._raw_base = base + drop
            if <size_t> self._mapped_from != NO_MAP and self._frameset_hold is None:
                self._input.release(settled)

    cdef bint cut_at_once(self, size_t settled, size_t emitted, size_t base) except -1:
        """Whether the settled input (from emitted to settled) is the
        output as it is: nothing in the output buffer or cut at the last
        flush, nothing mapped from another encoding, skipped or to skip,
        and all of it still kept (base)."""
        return not (PyByteArray_GET_SIZE(<bytearray?> self._out) != 0
                    or self._ready is not None or settled > <size_t> self._mapped_from
                    or self._skip is not None or self._skip_newline_at is not None
                    or self._skip_lf_only_at is not None or emitted < base)

    cpdef size_t input_kept(self, size_t base, size_t drop, size_t length) except? 0:
        """How much of the input kept (from base) to drop, at most drop: not
        the input from where output is held for a <frameset> on
        (_frameset_hold: written again from the input if the parser takes
        the <frameset>, Rewriter._frameset_rewind), nor the source of a
        script still open from its start tag on (_script_start) while that
        is within SCRIPT_KEPT bytes of the input's end (length). The end of
        input checks then find it kept whatever the chunking was (it stays
        within SCRIPT_KEPT of the end at every earlier drop too); past
        SCRIPT_KEPT they refuse."""
        cdef size_t start
        hold = self._frameset_hold
        if hold is not None and drop:
            start = <size_t> hold[1]
            if start < base + drop:
                drop = start - base if start > base else 0
        script = self._script_start
        if script is None or drop == 0:
            return drop
        start = <size_t> script[1]
        if start >= base + drop or start < base or length - start > <size_t> SCRIPT_KEPT:
            return drop
        if not self._is_open(script[0]):
            self._script_start = None       # (ended: no check reads it again)
            return drop
        return start - base

    cdef int take_chunk(self) except -1:
        """The chunk being parsed joins the input kept (_raw), once."""
        cdef bytes chunk = self.pending_chunk
        if chunk is not None:
            self.pending_chunk = None
            append_bytes(<bytearray?> self._raw, <const char*> chunk, len(chunk))
        return 0

    cdef int flush_kept(self) except -1:
        """_accept's flush, the chunk in the input kept."""
        cdef bytearray raw = <bytearray?> self._raw
        cdef size_t settled, emitted, base, drop
        if self._max_memory is not None or self._comment_parts:
            self._flush_settled()
            return 0
        base = self._raw_base
        settled = base + <size_t> PyByteArray_GET_SIZE(raw) \
            - <size_t> self._construction.buffered()[0]
        emitted = self._emitted
        if settled > emitted:
            if not self.cut_at_once(settled, emitted, base):
                if emitted < base:
                    self._flush_settled()
                    return 0
                # (_flush_settled's other case, once output is in the
                # output buffer (after an edit): _copy_to(settled), in C for
                # the input copied as it is (copy_to); then the same drop
                # of the input written as below.)
                self.copy_to(settled)
                emitted = self._emitted
                base = self._raw_base
            else:
                # (_flush_settled's common case: the bytes out are cut from
                # the input, without the output buffer.)
                self._ready = PyBytes_FromStringAndSize(
                    PyByteArray_AS_STRING(raw) + (emitted - base),
                    <Py_ssize_t> (settled - emitted))
                self._emitted = settled
                emitted = settled
        if emitted > base and emitted - base > 2 * LOOKBACK:
            drop = self.input_kept(base, emitted - base - LOOKBACK,
                                    base + <size_t> PyByteArray_GET_SIZE(raw))
            if drop:
                del raw[:drop]
                self._raw_base = base + drop
                if <size_t> self._mapped_from != NO_MAP and self._frameset_hold is None:
                    self._input.release(emitted)
        return 0

    cdef int emit(self, str content) except -1:
        """Rewriter._emit of markup; in C for UTF-8 output with nothing cut
        at the last flush."""
        cdef const char* data
        cdef Py_ssize_t length
        if self._ready is not None or self._out_encoding is not None:
            self._emit(content)
        elif self._skip is None:
            # (content.encode("utf-8") appended, without the bytes object)
            data = PyUnicode_AsUTF8AndSize(content, &length)
            append_bytes(<bytearray?> self._out, data, length)
        return 0

    cdef int emit_start_tag(self, ElementRecord r, bint self_closing_foreign) except -1:
        """emit(start_tag_text(r, ...)); for UTF-8 output with nothing cut at
        the last flush, written into the output in one growth (its length
        counted first: nothing is written when a name or value is not
        str or has a lone surrogate, as before)."""
        cdef bytearray out
        cdef const char* data
        cdef Py_ssize_t length, total, size, i, count
        cdef char* p
        if self._ready is not None or self._out_encoding is not None or self._skip is not None:
            return self.emit(start_tag_text(r, self_closing_foreign))
        out = <bytearray?> self._out
        name = <str?> (r.new_name or r.name)
        data = PyUnicode_AsUTF8AndSize(name, &length)
        total = 2 + length + (2 if self_closing_foreign else 0)
        attributes = r.attributes
        if attributes is None:
            attributes = []
        if type(attributes) is not list:
            return self.emit(start_tag_text(r, self_closing_foreign))
        count = len(<list> attributes)
        for i in range(count):
            item = (<list> attributes)[i]
            if type(item) is not tuple or len(<tuple> item) != 2 \
                    or type((<tuple> item)[0]) is not str or type((<tuple> item)[1]) is not str:
                return self.emit(start_tag_text(r, self_closing_foreign))
            data = PyUnicode_AsUTF8AndSize(<str> (<tuple> item)[0], &length)
            total += 4 + length
            data = PyUnicode_AsUTF8AndSize(<str> (<tuple> item)[1], &length)
            total += escaped_length(data, length)
        size = PyByteArray_GET_SIZE(out)
        if grow_bytes(out, size + total) < 0:
            return -1
        p = PyByteArray_AS_STRING(out) + size
        p[0] = c'<'
        p = put_bytes(p + 1, name, False)
        for i in range(count):
            item = (<list> attributes)[i]
            p[0] = c' '
            p = put_bytes(p + 1, <str> (<tuple> item)[0], False)
            p[0] = c'='
            p[1] = c'"'
            p = put_bytes(p + 2, <str> (<tuple> item)[1], True)
            p[0] = c'"'
            p += 1
        if self_closing_foreign:
            p[0] = c' '
            p[1] = c'/'
            p += 2
        p[0] = c'>'
        return 0

    cdef bint start_done(self, Event* e_pop, size_t key, object key_object, object node,
                         size_t end, ElementRecord found) except -1:
        """The rest of _start_fast: the end of a void element, the counters."""
        cdef Hooks* h = self.hooks
        if e_pop != NULL:
            # (_handle_token's popped event: its own start tag ends it.)
            self._foster_count = e_pop.fostered
            self._forms = e_pop.forms
            self._plaintext = e_pop.plaintext
            # (The dicts looked up only when not empty: most void elements
            # have no record.)
            found = self._open.pop(key_object, None) if self._open else None
            if self._start_edited:
                self._start_edited.pop(key_object, None)
            if found is not None:
                self.unwatch_key(key)
            if self._scoped_open:
                self._scoped_open.pop(key_object, None)
            if found is not None:
                if quiet_level(found) == LOUD:
                    self._popped(found, True, (end, end), True)
                else:
                    # (Nothing at its end: _popped would only close it.)
                    found.ended = True
            if self._tracked:
                self._track_token("start", 2, self._events())
        self._foster_count = h.fostered
        self._forms = h.forms
        self._plaintext = h.plaintext
        if len(self._contexts) > self._contexts_limit:
            self._prune_contexts()
        h.watch_all = self.watch_level()
        return True

    cdef bint frameset_never(self) except -1:
        """Whether Rewriter._frameset_watch returns False for every element
        of this rewrite (its test of the handlers, here once): with text,
        comment or doctype handlers (on_document's, or an on() entry's text
        or comments), which are fixed from the first feed on
        (on() and on_document() refuse handlers then). With a text handler
        on `p`, it was a Python call for every <p> in the body, that
        returned False (about 6,000 instructions each)."""
        if self.frameset_handlers == 0:
            owner = <object> self
            self.frameset_handlers = 2 if (
                owner._doc_text or owner._doc_comments or owner._doctype
                or any(entry[2] or entry[3] for entry in self._element_handlers)) else 1
        return self.frameset_handlers == 2

    def _frameset_never(self):
        """frameset_never (for Rewriter._pushed)."""
        return self.frameset_never()

    def _open_body_element(self):
        """Rewriter._open_body: the HTML body that is a child of the HTML
        html document element and is open, or None."""
        cdef CElement* body = self.open_body()
        return node_proxy(&body.node) if body != NULL else None

    cdef CElement* open_body(self) noexcept:
        """The HTML body that is a child of the HTML html document element
        (the document's first element child) and is open, or NULL: the
        first HTML body child of that html element, when it is on the
        stack of open elements (not a later one)."""
        cdef CNode* child
        cdef CElement* element
        if self.hooks.document == NULL or self.hooks.builder == NULL:
            return NULL
        child = self.hooks.document.node.first_child
        while child != NULL and child.type != ELEMENT_NODE:
            child = child.next
        if child == NULL or (<CElement*> child).tag_id != TAG_HTML \
                or (<CElement*> child).ns != NS_HTML:
            return NULL
        child = child.first_child
        while child != NULL:
            element = <CElement*> child
            if child.type == ELEMENT_NODE and element.tag_id == TAG_BODY \
                    and element.ns == NS_HTML:
                return element if tree_builder_is_open(self.hooks.builder, element) else NULL
            child = child.next
        return NULL

    cdef object local_name(self, CElement* element, object node):
        """node.local_name; an HTML element's from a cache by tag id (the
        document's tag ids name one name each)."""
        cdef size_t tag = element.tag_id
        if element.ns != NS_HTML:
            return node.local_name
        if self.html_names is None:
            self.html_names = []
        if tag < <size_t> len(self.html_names):
            name = self.html_names[tag]
            if name is not None:
                return name
        elif tag < 4096:
            self.html_names.extend([None] * (tag + 1 - len(self.html_names)))
        name = node.local_name
        if tag < <size_t> len(self.html_names):
            self.html_names[tag] = name
        return name

    cdef int silent_ends(self) except -1:
        """_handle_token's _drain_silent and _silent_ends: the records of
        the quiet elements popped by tokens that did not come here end."""
        cdef Hooks* h = self.hooks
        cdef ElementRecord found
        cdef size_t i
        if h.silent_count:
            for i in range(h.silent_count):
                key_object = h.silent[i]
                found = self._open.pop(key_object, None)
                if self._start_edited:
                    self._start_edited.pop(key_object, None)
                if found is not None:
                    found.ended = True
                if self._scoped_open:
                    self._scoped_open.pop(key_object, None)
            h.silent_count = 0
        return 0

    cdef bint _text_fast(self) except -1:
        """_handle_token for a text token that moved no element (the most
        common token inside elements with text handlers), as _text_alone.
        False: not such a token (nothing done)."""
        cdef Hooks* h = self.hooks
        cdef Token* t = h.token
        cdef size_t begin
        if t.tag_id != TAG__TEXT or h.event_count != 0 or self._tracked or self._after_body:
            return False
        self.silent_ends()
        begin = h.token_offset
        if h.gap:
            # (As _handle_token: text after tokens not seen here is not a
            # raw text element's that one of them started.)
            self._raw_text_name = None
            self._raw_tail = ""
            self._raw_tail_edited = False
        # (_fast_token_state(False))
        self._implied_pops = ()
        self._at_eof = False
        self._batch = self._batch + 1
        self._pushed_here = ()
        self._reconstructed_here = False
        self._reconstructed_nodes = EMPTY_TUPLE
        self._explicit = EMPTY_TUPLE
        self._reconstructed_names = EMPTY_SET
        self._token_ignored = False
        self._popped_here = EMPTY_SET
        self._popped_nodes = ()
        self._foster_count = h.fostered
        self._forms = h.forms
        self._plaintext = h.plaintext
        if self._scoped_open:
            handlers = self.scoped_text_handlers()
            doc_text = self.doc_text_handlers()
            if doc_text:
                handlers = doc_text + handlers
        else:
            handlers = self.doc_text_handlers()
        if handlers:
            self.text_chunk(begin, begin + (t.end - t.begin), handlers)
        self._foster_count = h.fostered
        self._forms = h.forms
        self._plaintext = h.plaintext
        h.watch_all = self.watch_level()
        return True

    cdef object doc_text_handlers(self):
        """self._doc_text (on_document's text handlers), kept in C from its
        first read: the list is made once (Rewriter.__init__) and fixed from
        the first feed on (on_document refuses handlers then); it was an
        instance dict lookup for each text token."""
        if not self.doc_text_read:
            self.doc_text = (<object> self)._doc_text
            self.doc_text_read = True
        return self.doc_text

    cdef list scoped_text_handlers(self):
        """Rewriter._scoped("text_handlers"): the text handlers of the
        matched elements open now (the innermost last)."""
        cdef list found = []
        cdef ElementRecord r
        if len(self._scoped_open) == 1:
            # (One element with such handlers open, the common case: its
            # list as it is, not copied; text_chunk only reads it, and a
            # record's text_handlers are replaced, never changed in place.)
            for key in self._scoped_open:
                r = self._open.get(key)
                if r is not None and not r.ended and type(r.text_handlers) is list:
                    return <list> r.text_handlers
        for key in self._scoped_open:
            r = self._open.get(key)
            if r is not None and not r.ended:
                found.extend(r.text_handlers)
        return found

    cdef int text_chunk(self, size_t begin, size_t end, list handlers) except -1:
        """Rewriter._text: the chunk made and handed to the handlers here;
        Rewriter._text_rest only for a chunk in raw text or edited."""
        if self.text_chunk_class is None:
            self.text_chunk_class = getattr(self, "_text_chunk_class")
        # (The owner's TextChunk class adds methods only: made without a
        # call to it, its fields set as its __init__ sets them.)
        cdef TextChunkBase chunk = (<PyTypeObject*> self.text_chunk_class).tp_new(
            <type> self.text_chunk_class, <PyObject*> EMPTY_TUPLE, NULL)
        chunk._span = (begin, end)
        chunk._before = EMPTY_TUPLE
        chunk._after = EMPTY_TUPLE
        chunk._replacement = None
        chunk._removed = False
        chunk.text = self.token_text()
        if self.hooks.skip_newline_before and (<str> chunk.text)[:1] == "\n":
            chunk.text = (<str> chunk.text)[1:]       # (the parser ignores it)
        if "\x00" in <str> chunk.text:
            chunk.text = self._text_without_nul(chunk.text)
        chunk.last_in_text_node = True
        chunk._raw_text = self._raw_text_name
        for handler in handlers:
            handler(chunk)
        if chunk._raw_text is not None or chunk._before or chunk._after or chunk._removed:
            self._text_rest(chunk, begin, end)
        return 0

    cdef bint _end_fast(self) except -1:
        """_handle_token for an end tag that popped one element, while no
        refusal state needs the whole of _handle_token: as _end_alone, and
        _handle_token's popped event when a handler matched the element.
        False: not such a token (nothing done)."""
        cdef Hooks* h = self.hooks
        cdef Token* t = h.token
        cdef Event* e
        if h.event_count != 1 or not (t.type & TOKEN_END_TAG) \
                or t.tag_id <= TAG__DOCUMENT_FRAGMENT:
            return False
        e = &h.events[0]
        if e.kind != EVENT_POPPED:
            return False
        # (The gate of _handle_token's fast path: no refusal state. While
        # a removed element's source is skipped, _handle_token's own
        # checks of an end tag read only </body> and </html>.)
        if self._tracked or self._after_body \
                or self._form_dirty is not None or self._head_appended:
            return False
        if self._skip is not None and (t.tag_id == TAG_BODY or t.tag_id == TAG_HTML):
            return False
        self.silent_ends()
        key = <size_t> e.element
        found = self._open.pop(key, None)
        self._start_edited.pop(key, None)
        node = node_proxy(&e.element.node)
        # (_fast_token_state(True))
        implied_pops = []
        self._implied_pops = implied_pops
        self._at_eof = False
        self._batch = self._batch + 1
        self._pushed_here = ()
        self._reconstructed_here = False
        self._reconstructed_nodes = EMPTY_TUPLE
        self._explicit = EMPTY_TUPLE
        self._reconstructed_names = EMPTY_SET
        self._token_ignored = False
        self._raw_text_name = None
        self._raw_tail = ""
        self._raw_tail_edited = False
        own = e.from_top and self._own_name(e.element)
        self._popped_here = {key}
        self._popped_nodes = [node]
        self._foster_count = e.fostered
        self._forms = e.forms
        self._plaintext = e.plaintext
        state = "open"
        if found is not None:
            # (A matched element: _handle_token's popped event.)
            self.unwatch_key(key)
            self._scoped_open.pop(key, None)
            if nothing_at_end(found, own):
                # (_popped would only close it.)
                found.ended = True
                state = "closed" if own else "open"
            elif own and self.removed_end(found, e, h.token_offset + (t.end - t.begin)):
                state = "closed"
            else:
                state = self._popped(found, own, (h.token_offset,
                                                  h.token_offset + (t.end - t.begin)), e.from_top)
        else:
            self._scoped_open.pop(key, None)
        if not own and state != "closed":
            self._implied_pops.append(None if state == "dirty" else
                                      (node.local_name, e.element.ns == NS_HTML))
        self._foster_count = h.fostered
        self._forms = h.forms
        self._plaintext = h.plaintext
        if found is not None:
            if len(self._contexts) > self._contexts_limit:
                self._prune_contexts()
            if self._tracked:
                self._track_token("end", 1, self._events())
        h.watch_all = self.watch_level()
        return True

    cdef int formatting_before_drop(self, ElementRecord r, CElement* element) except -1:
        """Rewriter._formatting_before_drop; in C for a removed HTML
        element whose start tag does not change the list of active
        formatting elements (formatting_or_marker_tag), the rest there."""
        if r.mode != 1 or element.ns != NS_HTML or formatting_or_marker_tag(element.tag_id):
            self._formatting_before_drop(r)
            return 0
        if (<object> self)._reconstructed_nodes:
            return 0
        entries = self.formatting_now()
        if entries is not None:
            (<object> self)._formatting_at_drop[id(r)] = entries
            if entries:
                (<object> self)._note_closed_entries(r, entries)
        return 0

    cdef bint removed_end(self, ElementRecord r, Event* e, size_t end) except -1:
        """Rewriter._popped for a removed element that its own end tag
        pops alone from the top of the stack (e), when none of its checks
        can refuse: an HTML element, not a form or table container,
        nothing else to write at its end (no end handlers, content, rename
        or attribute edits, not implied, nothing written before a table),
        no adoption agency clone or furthest block of it, not an empty
        unwrap (Element._unwrap_as_removal), nothing
        foster-parented and no formatting element to reconstruct since its
        start, the form element pointer where it was at its start. The
        source is skipped to the end tag's end; True. False: not such an
        element (nothing done; _popped decides)."""
        cdef Hooks* h = self.hooks
        cdef CElement* element = e.element
        cdef size_t now
        cdef bint moved
        if r.mode != 1 or r._end_handlers or r._append or r._after \
                or r.new_name is not None or r.attributes_changed \
                or r.table_before is not None or r.implied:
            return False
        if element.ns != NS_HTML or element.tag_id == TAG_FORM \
                or table_container_tag(element.tag_id):
            return False
        if e.fostered != r.fostered or h.pending_before \
                or tree_builder_reconstruction_pending(h.builder) or self._reconstructed_here:
            return False
        owner = <object> self
        key = id(r)
        if key in owner._clones_after or key in owner._furthest_dropped \
                or key in owner._empty_unwraps:
            return False
        # (Rewriter._drop_took_closed: the dropped content took an entry
        # that was not open off the list of active formatting elements.)
        if key in owner._closed_at_drop:
            return False
        # (_form_pointer_moved for a token the fast path took: not a form tag.)
        start = owner._form_starts.get(r)
        if start is None:
            moved = e.forms != r.forms
        else:
            now = <size_t> tree_builder_form_element(h.builder)
            moved = now != <size_t> start or (now != 0 and e.forms != r.forms)
        if moved:
            return False
        r.ended = True
        if start is not None:
            del owner._form_starts[r]
        owner._form_check_token = False
        if owner._form_kept is not None and owner._form_kept[0] is r:
            owner._form_kept = None
        owner._formatting_at_drop.pop(key, None)
        self.copy_to(end)
        if self._skip is r:
            self._skip = None
        self._implied_pops = []
        return True

    def _watch_level(self):
        """_set_watch_all's level after a token: 2 every token comes to
        the owner, 1 every token that pushes or pops, 0 only the watched
        elements'."""
        return self.watch_level()

    cdef int watch_level(self) except -1:
        if self._scoped_open or self._tracked or self._after_body \
                or self._form_dirty is not None or self._unlisted is not None:
            return 2
        if self._skip is not None or self._afe_edited or self._head_appended:
            return 1
        return 0

    def _handle_token(self):
        raise NotImplementedError

    def _context(self, Node node):
        """See context_of."""
        return self.context_of(node)

    cdef Context context_of(self, Node node):
        """The Context of an element (from its parent's, cached in
        _contexts by the element's address, with its proxy, which keeps
        the address its own; _prune_contexts drops the closed ones)."""
        cdef CNode* c
        cdef CElement* element
        cdef Context context = None
        cdef Context made
        cdef list chain = []
        cdef Py_ssize_t i
        cdef bint html
        cdef int tag
        if node is None:
            return DOCUMENT_CONTEXT
        c = node.c_node
        while c != NULL and c.type == ELEMENT_NODE:
            entry = self._contexts.get(<size_t> c)
            if entry is not None:
                context = <Context?> (<tuple?> entry)[1]
                break
            chain.append(<size_t> c)
            c = c.parent
        if context is None:
            context = TEMPLATE_CONTEXT if c != NULL and c.type == DOCUMENT_FRAGMENT_NODE \
                else DOCUMENT_CONTEXT
        for i in range(len(chain) - 1, -1, -1):
            element = <CElement*> <size_t> chain[i]
            html = element.ns == NS_HTML
            tag = element.tag_id
            made = Context.__new__(Context)
            made.in_head = (html and tag == TAG_HEAD) or (
                context.in_head and not (html and tag == TAG_TEMPLATE))
            made.tabular = context.tabular or (html and (
                tag == TAG_TD or tag == TAG_TH or tag == TAG_CAPTION or tag == TAG_TABLE
                or tag == TAG_TR or tag == TAG_TEMPLATE))
            made.foreign_in_table = context.foreign_in_table or (not html and context.tabular)
            made.in_selectedcontent = (html and tag == TAG_SELECTEDCONTENT) or (
                context.in_selectedcontent and not (html and tag == TAG_SELECT))
            proxy = node_proxy(&element.node)
            made.select = proxy if html and tag == TAG_SELECT else context.select
            made.in_template = context.in_template
            self._contexts[<size_t> element] = (proxy, made)
            context = made
        return context

    # -- what _handle_token reads (valid only while it runs) ---------------

    def _token_self_closing(self):
        """Whether the token is a tag with the self-closing flag."""
        return (self.hooks.token.type & TOKEN_SELF_CLOSING) != 0

    def _token_cdata(self):
        """Whether the token is text of a CDATA section."""
        return (self.hooks.token.data_flags & DATA_CDATA) != 0

    def _in_cdata_section(self):
        """Whether the tokenizer is inside a CDATA section now."""
        return tokenizer_in_cdata_section(self.hooks.tokenizer)

    def _token_kind(self):
        """'start', 'end', 'text', 'comment', 'doctype', 'eof', 'pi'."""
        cdef Token* t = self.hooks.token
        if t.tag_id == TAG__END_OF_FILE:
            return "eof"
        if t.tag_id == TAG__TEXT:
            return "text"
        if t.tag_id == TAG__COMMENT:
            return "comment-continued" if t.type & TOKEN_CONTINUATION else "comment"
        if t.tag_id == TAG__DOCTYPE:
            return "doctype"
        if t.tag_id <= TAG__DOCUMENT_FRAGMENT:
            return "pi"
        return "end" if t.type & TOKEN_END_TAG else "start"

    def _token_state(self):
        """What _handle_token reads first, in one call: (kind as
        _token_kind, begin, end, event count, the offset after a text
        token's leading whitespace (begin for other tokens), foster-parented
        elements, form elements and whether a plaintext element was pushed
        before the token, whether a token other than text did not come to
        the owner since its last call)."""
        cdef Token* t = self.hooks.token
        cdef size_t begin = self.hooks.token_offset
        cdef size_t skip = 0
        cdef uint8_t c
        kind = self._token_kind()
        if t.tag_id == TAG__TEXT:
            while t.begin + skip < t.end:
                c = t.data[t.begin + skip]
                if c != 0x20 and c != 0x0A and c != 0x09 and c != 0x0C and c != 0x0D:
                    break
                skip += 1
        return (kind, begin, begin + (t.end - t.begin), self.hooks.event_count, begin + skip,
                self.hooks.fostered_before, self.hooks.forms_before,
                self.hooks.plaintext_before, self.hooks.gap)

    def _events(self):
        """Every event of the token, in one call: a list of (kind
        ("pushed", "popped", "moved"), element proxy or None, from_top,
        foster, key (_event_key), fresh, matches (_event_matches), the
        counters after it (_counters(i): three items), whether it pushed
        the token's own element (_is_token_element), whether an end tag
        token popped an element of its own name from the top (the name
        test of an element's own end tag))."""
        cdef Event* e
        cdef Token* t = self.hooks.token
        cdef size_t i
        cdef list result = []
        cdef bint end_tag = (t.type & TOKEN_END_TAG) != 0 and t.tag_id > TAG__DOCUMENT_FRAGMENT
        for i in range(self.hooks.event_count):
            e = &self.hooks.events[i]
            if e.kind == EVENT_MOVED:
                # (the formatting element and its key; in matches' place
                # the furthest block's key)
                result.append(("moved", node_proxy(&e.element.node), False, False,
                               <size_t> e.element, False,
                               <size_t> e.below, e.fostered, e.forms, e.plaintext, False,
                               False))
                continue
            result.append((
                "pushed" if e.kind == EVENT_PUSHED else "popped",
                node_proxy(&e.element.node), e.from_top, e.foster, <size_t> e.element,
                e.fresh, e.matches, e.fostered, e.forms, e.plaintext,
                e.kind == EVENT_PUSHED and self._is_token_element(i),
                e.kind == EVENT_POPPED and end_tag and e.from_top
                and self._own_name(e.element)))
        return result

    cdef bint _own_name(self, CElement* element):
        """Whether the end tag token's name is the element's local name
        (ASCII case-insensitively)."""
        cdef Token* t = self.hooks.token
        cdef const uint8_t* raw = t.data + t.begin
        cdef size_t length = t.end - t.begin
        cdef size_t i = 2, n = 0
        cdef uint8_t c
        if element.ns == NS_HTML and element.tag_id == t.tag_id:
            return True
        # (Foreign names keep their case in the DOM: compare the bytes.)
        name = node_proxy(&element.node).local_name.encode("utf-8")
        while i < length:
            c = raw[i]
            if c == 0x3E or c == 0x2F or c == 0x20 or c == 0x0A or c == 0x09 or c == 0x0C \
                    or c == 0x0D:
                break
            i += 1
        return raw[2:i].lower() == name.lower()

    def _token_span(self):
        """The token's stream offsets (begin, end)."""
        cdef Token* t = self.hooks.token
        return (self.hooks.token_offset,
                self.hooks.token_offset + (t.end - t.begin))

    def _token_text(self):
        """The token's text range, decoded as its flags say (str)."""
        return self.token_text()

    cdef object token_text(self):
        cdef Token* t = self.hooks.token
        cdef size_t length = t.text_end - t.text_begin
        cdef uint32_t flags = t.data_flags
        cdef uint8_t* buffer
        cdef size_t written
        if not (flags & (DATA_HAS_CR | DATA_HAS_CHARREF | DATA_ASCII_LOWERCASE)) and not (
                flags & DATA_HAS_NUL and flags & (DATA_NUL_DROP | DATA_NUL_TO_REPLACEMENT)):
            # (Nothing to convert: decoded from the token's bytes.)
            return PyUnicode_DecodeUTF8(<const char*> (t.data + t.text_begin),
                                        <Py_ssize_t> length, "replace")
        buffer = <uint8_t*> malloc(3 * length + 1)
        if buffer == NULL:
            raise MemoryError()
        try:
            written = convert_text(t.data + t.text_begin, length, t.data_flags, buffer)
            return PyUnicode_DecodeUTF8(<const char*> buffer, <Py_ssize_t> written, "replace")
        finally:
            free(buffer)

    def _token_text_span(self):
        cdef Token* t = self.hooks.token
        return (self.hooks.token_offset + (t.text_begin - t.begin),
                self.hooks.token_offset + (t.text_end - t.begin))

    def _token_tag_id(self):
        return self.hooks.token.tag_id

    def _reconstruction_pending(self, bint before_token=False):
        """Whether content written now (or, with before_token, at the start
        of the token being handled) would be wrapped in reconstructed
        formatting elements."""
        if before_token:
            return self.hooks.pending_before
        return tree_builder_reconstruction_pending(self.hooks.builder)

    def _at_newline_point(self, size_t position):
        """Whether `position` (a stream offset) is where the parser ignores
        a newline that comes first: right after the start tag of pre,
        listing or textarea, before any other token. 1: the start of the
        token being handled; 2: the end of the last token handled (the
        next token not known yet); 0: not there."""
        cdef Token* t = self.hooks.token
        if t == NULL:
            return 2 if position == self.hooks.last_end \
                and tree_builder_skip_newline(self.hooks.builder) else 0
        if self.hooks.skip_newline_before and position == self.hooks.token_offset:
            return 1
        return 2 if tree_builder_skip_newline(self.hooks.builder) \
            and position == self.hooks.token_offset + (t.end - t.begin) else 0

    def _parser_frameset_ok(self):
        """The parser's frameset-ok flag now (True: "ok")."""
        return tree_builder_frameset_ok(self.hooks.builder)

    def _after_body_mode(self, bint before_token=False):
        """1 after </body> ("after body"), 2 after </html> ("after after
        body"): where a comment goes outside the current node; else 0
        (now, or with before_token at the start of the token being
        handled)."""
        if before_token:
            return self.hooks.after_body_before
        return tree_builder_after_body(self.hooks.builder)

    def _last_token_end(self):
        """The stream offset where the last token before this one ended."""
        return self.hooks.last_end

    def _last_token_pushed(self):
        """The key (_event_key) of the element the last token before this
        one made for its start tag and pushed last, with nothing after it:
        the current node at the start of this token, empty; 0 when that
        token was anything else (or its events were not recorded)."""
        return <size_t> self.hooks.last_pushed

    def _formatting_list(self):
        """The list of active formatting elements after its last marker
        before the end-of-file token, oldest first, as (key, local name);
        None when longer than 64."""
        cdef CElement** out = self.hooks.eof_formatting
        cdef size_t n = self.hooks.eof_formatting_count
        cdef size_t i
        if n > 64:
            return None
        return [(<size_t> out[i], node_proxy(&out[i].node).local_name) for i in range(n)]

    def _formatting_now(self):
        """The list of active formatting elements after its last marker
        now, oldest first, as element proxies; None when longer than 64."""
        return self.formatting_now()

    cdef object formatting_now(self):
        cdef CElement* out[64]
        cdef size_t n = tree_builder_formatting(self.hooks.builder, out, 64)
        cdef size_t i
        if n > 64:
            return None
        return [node_proxy(&out[i].node) for i in range(n)]

    def _formatting_all(self, bint before_eof=False):
        """The whole list of active formatting elements now (before_eof:
        before the end-of-file token, which empties it), oldest first, as
        element proxies and None for each marker; None when longer than
        64."""
        cdef CElement* now[64]
        cdef CElement** out = &now[0]
        cdef size_t n, i
        if before_eof:
            out = &self.hooks.eof_all[0]
            n = self.hooks.eof_all_count
        else:
            n = tree_builder_formatting_all(self.hooks.builder, out, 64)
        if n > 64:
            return None
        return [None if out[i] == NULL else node_proxy(&out[i].node) for i in range(n)]

    def _last_token_comment(self):
        """When the last token before this one was a comment, the stream
        offset where the token before that ended (where the comment began,
        unless something the tokenizer emits nothing for came between);
        else -1."""
        if self.hooks.last_tag_id == TAG__COMMENT:
            return <ssize_t> self.hooks.last_begin
        return -1

    def _last_token_closed(self):
        """Whether the last token before this one was text, or ends with '>'
        (else it ran into the end of the input unterminated)."""
        return self.hooks.last_tag_id == TAG__TEXT or self.hooks.last_closed

    def _text_token_count(self):
        return self.hooks.text_tokens

    def _current_node(self):
        """The tree builder's current node now (None: the stack of open
        elements is empty)."""
        cdef CElement* element = tree_builder_current_node(self.hooks.builder)
        return node_proxy(&element.node) if element != NULL else None

    def _is_open(self, Node element):
        """Whether the element is on the stack of open elements."""
        if element.c_node == NULL or element.c_node.type != ELEMENT_NODE:
            return False
        return tree_builder_is_open(self.hooks.builder, <CElement*> element.c_node)

    def _event_count(self):
        return self.hooks.event_count

    def _freed_count(self):
        """How many closed subtrees were freed so far; -1 when freeing is
        off (a selector reads siblings)."""
        return self.hooks.freed if self.hooks.free_closed else -1

    def _state_bytes(self):
        """The memory the rewrite's state holds (max_memory): the
        document's arena (the open elements and what the tree builder or a
        handler keeps, the free lists of a streaming document), the end
        events of the open elements (OPEN_EVENT_BYTES) and the sweep's
        queues."""
        if self.hooks == NULL or self.hooks.document == NULL:
            return 0
        return (self.hooks.document.arena.bytes_reserved
                + self.hooks.open_depth * OPEN_EVENT_BYTES
                + self.hooks.closed_capacity * sizeof(CElement*)
                + (self.hooks.held_capacity + self.hooks.held_set_capacity) * sizeof(CNode*))

    def _hold_select(self, Node select):
        """Hand the owner every token that pushes a selectedcontent or
        pops `select` (None: no select watched)."""
        self.hooks.held_select = NULL if select is None else <CElement*> select.c_node
        self.hooks.select_event = False

    def _set_watch_all(self, int watch):
        """What the owner needs to see: 0 tokens whose elements a
        handler matches, 1 also every token that moves an element, 2
        every token."""
        self.hooks.watch_all = watch

    def _watch(self, size_t key):
        """Hand the owner every token that pops the element `key` (an
        _event_key) or moves nodes, until _unwatch(key)."""
        self.watch_key(key)

    cdef int watch_key(self, size_t key) except -1:
        cdef Watched* grown
        cdef size_t capacity
        if self.hooks.watched_count == self.hooks.watched_capacity:
            capacity = self.hooks.watched_capacity * 2 if self.hooks.watched_capacity else 8
            grown = <Watched*> realloc(self.hooks.watched, capacity * sizeof(Watched))
            if grown == NULL:
                raise MemoryError()
            self.hooks.watched = grown
            self.hooks.watched_capacity = capacity
        self.hooks.watched[self.hooks.watched_count].element = <CElement*> key
        self.hooks.watched[self.hooks.watched_count].quiet = LOUD
        self.hooks.watched_count += 1
        if index_watched(self.hooks, self.hooks.watched_count - 1) != 0:
            self.hooks.watched_count -= 1
            raise MemoryError()
        return 0

    def _quiet(self, size_t key, int quiet):
        """How much the owner needs to see of the watched element `key`'s
        end: 0 every pop, 1 none when its own end tag pops it alone from
        the top of the stack, 2 none (its key is kept for _drain_silent
        when the token does not go to the owner)."""
        self.quiet_key(key, quiet)

    cdef void quiet_key(self, size_t key, int quiet) noexcept:
        cdef ssize_t i = find_watched(self.hooks, <CElement*> key)
        if i >= 0:
            self.hooks.watched[i].quiet = quiet

    def _drain_silent(self):
        """The keys of the quiet elements popped since the last call by
        tokens that did not come to the owner (or None)."""
        cdef size_t i
        if self.hooks.silent_count == 0:
            return None
        keys = [self.hooks.silent[i] for i in range(self.hooks.silent_count)]
        self.hooks.silent_count = 0
        return keys

    def _attribute_pairs(self, Node node):
        """See attribute_pairs."""
        return self.attribute_pairs(node)

    cdef list attribute_pairs(self, Node node):
        """The element's attributes as a list of (qualified name, value),
        read from the DOM in one call."""
        cdef CElement* element = <CElement*> node.c_node
        cdef CDocument* doc
        cdef CAttr* attr
        cdef uint32_t i
        cdef list result = []
        if element == NULL or element.node.type != ELEMENT_NODE:
            raise ValueError("not an element")
        doc = element.node.owner
        if self.attr_names is None:
            self.attr_names = {}
        if self.plain_attr_names is None:
            self.plain_attr_names = []
        for i in range(element.attr_count):
            attr = &element.attrs[i]
            name = None
            if attr.prefix == 0 and attr.local_name < <size_t> len(self.plain_attr_names):
                name = self.plain_attr_names[attr.local_name]
            if name is None:
                key = (<uint64_t> attr.prefix << 32) | attr.local_name
                name = self.attr_names.get(key)
                if name is None:
                    name = self._attr_name(doc, attr.local_name)
                    if attr.prefix != 0:
                        name = self._attr_name(doc, attr.prefix) + ":" + name
                    self.attr_names[key] = name
                if attr.prefix == 0 and attr.local_name < 4096:
                    if attr.local_name >= <size_t> len(self.plain_attr_names):
                        self.plain_attr_names.extend(
                            [None] * (attr.local_name + 1 - len(self.plain_attr_names)))
                    self.plain_attr_names[attr.local_name] = name
            result.append((name, PyUnicode_DecodeUTF8(
                <const char*> attr.value, <Py_ssize_t> attr.value_length, "surrogatepass")))
        return result

    cdef str _attr_name(self, CDocument* doc, uint32_t id):
        cdef size_t length = 0
        cdef const uint8_t* name = attr_name_of(doc.attr_names, id, &length)
        if name == NULL:
            return ""
        return PyUnicode_DecodeUTF8(<const char*> name, <Py_ssize_t> length, "surrogatepass")

    def _node_key(self, Node node):
        """The _event_key of an element proxy."""
        return <size_t> node.c_node

    def _form_pointer(self):
        """The parser's form element pointer now: the _event_key of the
        element (0: none)."""
        return <size_t> tree_builder_form_element(self.hooks.builder)

    def _unwatch(self, size_t key):
        self.unwatch_key(key)

    cdef void unwatch_key(self, size_t key) noexcept:
        cdef ssize_t i = find_watched(self.hooks, <CElement*> key)
        if i >= 0:
            unwatch_at(self.hooks, <size_t> i)

    def _owner_calls_held(self):
        """How many tokens on_token handed to the owner without taking the
        GIL again (owner_call_held)."""
        return self.hooks.owner_calls_held

    def _counters(self, i=None):
        """(foster-parented elements pushed, form elements pushed, whether
        a plaintext element was) after event i; before the token with
        i = -1; now with None."""
        cdef Event* e
        if i is None:
            return (self.hooks.fostered, self.hooks.forms, self.hooks.plaintext)
        if i < 0:
            return (self.hooks.fostered_before, self.hooks.forms_before,
                    self.hooks.plaintext_before)
        e = &self.hooks.events[<size_t> i]
        return (e.fostered, e.forms, e.plaintext)

    def _every(self):
        """The bit set of the handlers whose selectors match every element
        (their matchers are not run)."""
        return self.hooks.every

    def _static_gate_closed(self):
        """Whether no element with a static tag id can match a handler's
        selector and the owner need not see every token: the tokens that
        cannot go to the owner take on_token_dormant."""
        return self.hooks.static_gate_closed

    def _event_matches(self, size_t i):
        """(whether the pushed element of event i is a new element of the
        document, the bit set of the handlers whose selectors match it)."""
        cdef Event* e = &self.hooks.events[i]
        return (e.fresh, e.matches)

    def _event(self, size_t i):
        """(kind, element proxy or None, from_top, foster, element tag id)."""
        cdef Event* e = &self.hooks.events[i]
        if e.kind == EVENT_MOVED:
            return ("moved", None, False, False, 0)
        return ("pushed" if e.kind == EVENT_PUSHED else "popped",
                node_proxy(&e.element.node), e.from_top, e.foster,
                e.element.tag_id)

    def _has_late_matches(self):
        return self.hooks.late_count != 0

    def _late_matches(self):
        """The token's late matches (match_moved): a list of (element
        proxy, key (_event_key), the bit set of the handlers whose
        selectors match it now and did not before, whether it is open)."""
        cdef size_t i
        return [(node_proxy(&self.hooks.late[i].node), <size_t> self.hooks.late[i],
                 self.hooks.late_bits[i],
                 tree_builder_is_open(self.hooks.builder, self.hooks.late[i]))
                for i in range(self.hooks.late_count)]

    def _event_key(self, size_t i):
        """An identity for the event's element (its address)."""
        return <size_t> self.hooks.events[i].element

    def _is_token_element(self, size_t i):
        """Whether the pushed element of event i was made for the start tag
        being handled (rather than implied, reconstructed or cloned)."""
        cdef Event* e = &self.hooks.events[i]
        cdef Token* t = self.hooks.token
        cdef lxp_tag_id_t tag = t.tag_id
        if t.type & TOKEN_END_TAG or tag <= TAG__DOCUMENT_FRAGMENT:
            return False
        if tag == TAG_IMAGE:
            tag = TAG_IMG
        if e.element.ns == NS_SVG and tag < TAG__LAST_STATIC:
            tag = lxp_tag_svg_adjusted[tag]     # (the tree builder's case adjustment)
        return e.element.tag_id == tag
