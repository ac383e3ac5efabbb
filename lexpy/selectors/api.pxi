# The Python face: compile_selector(), Selector, and the functions behind
# the DOM's query_selector / query_selector_all / matches / closest.

import threading
from collections.abc import Mapping


cdef Program* compile_program(str text, dict namespaces, dict custom) except NULL:
    cdef list tokens = tokenize_css(text)
    cdef ProgramBuilder builder = ProgramBuilder()
    cdef SelectorParser parser
    cdef int root
    cdef CustomSelectors customs = None
    if custom:
        customs = CustomSelectors({ascii_lower(key_text(key)): value
                                   for key, value in custom.items()})
    parser = SelectorParser(builder, tokens, 0, len(tokens) - 1, text, 0,
                            namespaces, customs, False)
    parser.skip_whitespace()
    try:
        root = parser.parse_list(False, False)
    except _NestingTooDeep:
        raise SelectorSyntaxError(u"selectors nested more than %d deep" % MAX_NESTING,
                                  text, 0, u"less nesting") from None
    return builder.build(root)


cdef str key_text(str key):
    """The name of a custom= key (':--name', escapes resolved, without the
    colon)."""
    cdef list tokens
    if not key.startswith(u":"):
        raise SelectorSyntaxError(u"a custom selector name must start with ':--'", key, 0,
                                  u"':--name'")
    tokens = tokenize_css(key[1:])
    if len(tokens) != 2 or (<CssToken> tokens[0]).type != T_IDENT \
            or not (<CssToken> tokens[0]).value.startswith(u"--"):
        raise SelectorSyntaxError(u"invalid custom selector name", key, 0, u"':--name'")
    return (<CssToken> tokens[0]).value


cdef dict check_namespaces(object namespaces):
    if namespaces is None:
        return None
    if not isinstance(namespaces, Mapping):
        raise TypeError("namespaces must be a mapping of prefix to namespace URL, not %s"
                        % type(namespaces).__name__)
    result = {}
    for prefix, uri in namespaces.items():
        if not isinstance(prefix, str) or not isinstance(uri, str):
            raise TypeError("namespaces must map str prefixes to str URLs, not %r: %r"
                            % (prefix, uri))
        result[prefix] = uri
    return result


cdef dict check_custom(object custom):
    if custom is None:
        return None
    if not isinstance(custom, Mapping):
        raise TypeError("custom must be a mapping of ':--name' to selector text, not %s"
                        % type(custom).__name__)
    result = {}
    for name, text in custom.items():
        if not isinstance(name, str) or not isinstance(text, str):
            raise TypeError("custom must map str names to str selectors, not %r: %r"
                            % (name, text))
        result[name] = text
    return result


cdef inline Node check_node(object node, str what):
    if not isinstance(node, Node):
        raise TypeError("%s must be a lexpy Node, not %s" % (what, type(node).__name__))
    if (<Node> node).c_node == NULL:
        raise ValueError("this %s belongs to no document" % type(node).__name__)
    return <Node> node


cdef class Selector:
    """A compiled selector list (Selectors Level 4), reusable and safe to
    share between threads: each match binds its names to the document it
    runs on, in memory of its own.

    Made by lexpy.compile_selector(). `text` is the source."""

    def __cinit__(self):
        self.program = NULL

    def __init__(self, *args, **kwargs):
        raise TypeError("Selector objects are made by lexpy.compile_selector()")

    def __dealloc__(self):
        program_free(self.program)
        self.program = NULL

    def __repr__(self):
        return "Selector(%r)" % self.source

    @property
    def text(self):
        """The selector text it was compiled from."""
        return self.source

    def select(self, node):
        """Every element among node's descendants that matches, in tree
        order (node itself excluded; not into template contents)."""
        return run_query(self, check_node(node, "node"), False)

    def select_first(self, node):
        """The first descendant element of node that matches, or None."""
        cdef list found = run_query(self, check_node(node, "node"), True)
        return found[0] if found else None

    def match(self, element):
        """Whether the element matches."""
        cdef Node c_element = check_node(element, "element")
        if c_element.c_node.type != ELEMENT_NODE:
            raise TypeError("element must be an Element, not %s" % type(element).__name__)
        return run_match(self, c_element, c_element.c_node, False) is not None

    def filter(self, elements):
        """The elements of the iterable that match, in its order (anything
        that is not an Element is left out)."""
        cdef list result = []
        for element in elements:
            if isinstance(element, Node) and (<Node> element).c_node != NULL \
                    and (<Node> element).c_node.type == ELEMENT_NODE \
                    and run_match(self, <Node> element, (<Node> element).c_node, False) is not None:
                result.append(element)
        return result

    def closest(self, element):
        """The element itself or its nearest ancestor that matches, or None."""
        cdef Node c_element = check_node(element, "element")
        if c_element.c_node.type != ELEMENT_NODE:
            raise TypeError("element must be an Element, not %s" % type(element).__name__)
        return run_match(self, c_element, c_element.c_node, True)

    def __reduce__(self):
        return (compile_selector, (self.source, self.namespaces_key and dict(self.namespaces_key),
                                   self.custom_key and dict(self.custom_key)))


cdef Selector make_selector(str text, dict namespaces, dict custom):
    cdef Selector selector = Selector.__new__(Selector)
    selector.program = compile_program(text, namespaces, custom)
    selector.source = text
    selector.namespaces_key = tuple(sorted(namespaces.items())) if namespaces else None
    selector.custom_key = tuple(sorted(custom.items())) if custom else None
    return selector


def compile_selector(selectors, namespaces=None, custom=None):
    """Compile a selector list (Selectors Level 4) once, for reuse.

    `namespaces` maps prefixes to namespace URLs for `prefix|name` type and
    attribute selectors (the "" key: the default namespace); `custom` maps
    `:--name` to selector text (soupsieve's custom=). Raises
    SelectorSyntaxError (a ValueError) for text the grammar rejects.
    Without `custom`, the same text and namespaces give the same Selector
    (immutable, safe to share between threads and documents), from the
    cache the string-taking DOM methods use."""
    if custom is None:
        return cached_selector(selectors, namespaces)
    if not isinstance(selectors, str):
        raise TypeError("selectors must be a str, not %s" % type(selectors).__name__)
    return make_selector(selectors, check_namespaces(namespaces), check_custom(custom))


# The bounded cache of compile_selector and the string-taking DOM methods:
# (text, namespaces) -> Selector, least recently compiled dropped first.
CACHE_SIZE = 512
cdef dict _cache = {}
cdef object _cache_lock = threading.Lock()


cdef Selector cached_selector(object selectors, object namespaces):
    cdef dict checked
    cdef object key
    cdef Selector selector
    if not isinstance(selectors, str):
        raise TypeError("selectors must be a str, not %s" % type(selectors).__name__)
    if namespaces is None:
        key = selectors
    else:
        checked = check_namespaces(namespaces)
        key = (selectors, tuple(sorted(checked.items())))
    found = _cache.get(key)
    if found is not None:
        return <Selector> found
    selector = make_selector(selectors, None if namespaces is None
                             else check_namespaces(namespaces), None)
    with _cache_lock:
        if len(_cache) >= CACHE_SIZE:
            del _cache[next(iter(_cache))]
        _cache[key] = selector
    return selector


cdef list run_query(Selector selector, Node root, bint first_only):
    """select / select_first: the walk runs without the GIL; the document
    counts as read meanwhile (its Python API refuses changes)."""
    cdef CNode* c_root = root.c_node
    cdef CDocument* doc = c_root.owner
    cdef MatchContext ctx
    cdef NodeArray found
    cdef int status
    cdef list result
    cdef size_t i
    if c_root.type != ELEMENT_NODE and c_root.type != DOCUMENT_NODE \
            and c_root.type != DOCUMENT_FRAGMENT_NODE:
        raise TypeError("node must be a Document, DocumentFragment or Element, not %s"
                        % type(root).__name__)
    memset(&found, 0, sizeof(NodeArray))
    doc.readers += 1
    # Everything from binding the names to the last match runs without the
    # GIL; the matches are collected as C pointers, in tree order.
    with nogil:
        status = context_init(&ctx, selector.program, doc, c_root)
        if status == 0:
            status = select_into(&ctx, c_root, &found, first_only)
            if ctx.out_of_memory:
                status = -1
            context_free(&ctx)
    doc.readers -= 1
    if status != 0:
        free(found.items)
        raise MemoryError()
    try:
        result = proxies_of(&found)
    finally:
        free(found.items)
    return result


cdef int select_nodes(Program* program, CDocument* doc, CNode* root, bint first_only,
                      CNode*** items, size_t* count) noexcept nogil:
    cdef MatchContext ctx
    cdef NodeArray found
    cdef int status
    memset(&found, 0, sizeof(NodeArray))
    status = context_init(&ctx, program, doc, root)
    if status == 0:
        status = select_into(&ctx, root, &found, first_only)
        if ctx.out_of_memory:
            status = -1
        context_free(&ctx)
    if status != 0:
        free(found.items)
        found.items = NULL
        found.count = 0
    items[0] = found.items
    count[0] = found.count
    return status


cdef struct SelectContext:
    MatchContext ctx
    NodeArray found               # the matches of the latest call
    bint scoped                   # the program uses :scope


cdef void* select_context_new(Program* program, CDocument* doc) noexcept nogil:
    cdef SelectContext* context = <SelectContext*> calloc(1, sizeof(SelectContext))
    cdef uint32_t i
    if context == NULL:
        return NULL
    if context_init(&context.ctx, program, doc, <CNode*> doc) != 0:
        free(context)
        return NULL
    for i in range(program.simple_count):
        if program.simples[i].kind == S_SCOPE:
            context.scoped = True
    return context


cdef void memo_clear(DescendantMemo* memo) noexcept nogil:
    if memo.count:
        memset(memo.nodes, 0, memo.capacity * sizeof(CNode*))
        memo.count = 0


cdef inline void context_scope(SelectContext* select, CNode* root) noexcept nogil:
    cdef MatchContext* ctx = &select.ctx
    if ctx.scope != root:
        # the memos hold what a node's ancestors match, the same for every
        # root, unless :scope or a fragment that is the scope takes part
        if select.scoped or root.type == DOCUMENT_FRAGMENT_NODE \
                or ctx.scope.type == DOCUMENT_FRAGMENT_NODE:
            memo_clear(&ctx.memo)
            memo_clear(&ctx.has_memo)
        ctx.scope = root


cdef int select_matches_in(void* context, CNode* root, CNode* element) noexcept nogil:
    cdef SelectContext* select = <SelectContext*> context
    context_scope(select, root)
    if match_list(&select.ctx, select.ctx.program.root, element):
        return 1
    return -1 if select.ctx.out_of_memory else 0


cdef int select_nodes_in(void* context, CNode* root, bint first_only, CNode*** items,
                         size_t* count) noexcept nogil:
    cdef SelectContext* select = <SelectContext*> context
    cdef MatchContext* ctx = &select.ctx
    cdef int status
    context_scope(select, root)
    select.found.count = 0
    status = select_into(ctx, root, &select.found, first_only)
    if ctx.out_of_memory:
        status = -1
    items[0] = select.found.items
    count[0] = select.found.count if status == 0 else 0
    return status


cdef void select_context_free(void* context) noexcept nogil:
    if context != NULL:
        context_free(&(<SelectContext*> context).ctx)
        free((<SelectContext*> context).found.items)
        free(context)


cdef struct ElementMatcher:
    MatchContext ctx
    uint32_t tag_names            # the document's name table sizes at the
    uint32_t attr_names           # last binding (a name seen later needs
    uint32_t namespaces           # a new one)


cdef inline uint32_t table_count(NameTable* table) noexcept nogil:
    return table.count if table != NULL else 0


cdef void* element_matcher_new(Program* program, CDocument* doc) noexcept nogil:
    cdef ElementMatcher* matcher = <ElementMatcher*> calloc(1, sizeof(ElementMatcher))
    if matcher == NULL:
        return NULL
    if context_init(&matcher.ctx, program, doc, <CNode*> doc) != 0:
        free(matcher)
        return NULL
    matcher.tag_names = table_count(doc.tag_names)
    matcher.attr_names = table_count(doc.attr_names)
    matcher.namespaces = table_count(doc.namespaces)
    return matcher


cdef inline bint subject_types_reject(MatchContext* ctx, CElement* element) noexcept nogil:
    """Whether every complex selector of the program's list starts its
    subject compound with a type selector the element fails (then nothing
    matches it: the streaming rewriter's common case, a handler on a
    name the element does not have, in a few instructions)."""
    cdef SelectorList* selector_list = &ctx.program.lists[ctx.program.root]
    cdef Compound* compound
    cdef SimpleSelector* simple
    cdef uint32_t i
    for i in range(selector_list.first, selector_list.first + selector_list.count):
        compound = &ctx.program.compounds[ctx.program.complexes[i].first]
        if compound.count == 0:
            return False
        simple = &ctx.program.simples[compound.first]
        if simple.kind != S_TYPE:
            return False
        if type_matches(ctx, simple, element):
            return False
    return True


cdef int element_matcher_match(void* matcher, CNode* element) noexcept nogil:
    cdef ElementMatcher* m = <ElementMatcher*> matcher
    cdef MatchContext* ctx = &m.ctx
    cdef CDocument* doc = ctx.doc
    cdef int result
    if m.tag_names != table_count(doc.tag_names) or m.attr_names != table_count(doc.attr_names) \
            or m.namespaces != table_count(doc.namespaces):
        context_bind(ctx)
        m.tag_names = table_count(doc.tag_names)
        m.attr_names = table_count(doc.attr_names)
        m.namespaces = table_count(doc.namespaces)
    if element.type == ELEMENT_NODE and subject_types_reject(ctx, <CElement*> element):
        return 0
    # (The tree changed since the last call: nothing remembered holds.)
    memo_clear(&ctx.memo)
    memo_clear(&ctx.has_memo)
    if ctx.indexes.count:
        index_table_free(&ctx.indexes)
    if ctx.counters.count:
        index_table_free(&ctx.counters)
    ctx.quirks = doc.quirks_mode == QUIRKS
    ctx.scope = element
    ctx.out_of_memory = False
    result = 1 if match_list(ctx, ctx.program.root, element) else 0
    if ctx.out_of_memory:
        result = -1
    return result


cdef void element_matcher_free(void* matcher) noexcept nogil:
    if matcher != NULL:
        context_free(&(<ElementMatcher*> matcher).ctx)
        free(matcher)


cdef int match_element(Program* program, CNode* element) noexcept nogil:
    cdef MatchContext ctx
    cdef int result
    if context_init(&ctx, program, element.owner, element) != 0:
        return -1
    result = 1 if match_list(&ctx, ctx.program.root, element) else 0
    if ctx.out_of_memory:
        result = -1
    context_free(&ctx)
    return result


cdef bint program_reads_beyond_ancestors(Program* program) noexcept nogil:
    cdef uint32_t i, kind
    for i in range(program.compound_count):
        if program.compounds[i].combinator == COMBINATOR_NEXT_SIBLING \
                or program.compounds[i].combinator == COMBINATOR_SUBSEQUENT_SIBLING:
            return True
    for i in range(program.simple_count):
        kind = program.simples[i].kind
        if not (kind == S_TYPE or kind == S_UNIVERSAL or kind == S_ID or kind == S_CLASS
                or kind == S_ATTRIBUTE or kind == S_NEVER or kind == S_ROOT or kind == S_IS
                or kind == S_NOT or kind == S_LINK or kind == S_DEFINED):
            return True
    return False


cdef bint list_subject_tags(Program* program, uint32_t list_index, uint8_t* table,
                            size_t size, uint32_t depth) noexcept nogil:
    """program_subject_tags for one selector list: True when every complex
    selector's subject compound has a type selector (or an :is() list
    that does), their names' static ids marked in table."""
    cdef SelectorList* selector_list = &program.lists[list_index]
    cdef Compound* compound
    cdef SimpleSelector* simple
    cdef NameSlot* slot
    cdef uint32_t i, k
    cdef lxp_tag_id_t id
    cdef bint gated
    for i in range(selector_list.first, selector_list.first + selector_list.count):
        compound = &program.compounds[program.complexes[i].first]
        gated = False
        for k in range(compound.first, compound.first + compound.count):
            simple = &program.simples[k]
            if simple.kind == S_TYPE:
                # (A type selector matches an element whose tag id is the
                # id of its name lowercased or as written: type_matches.)
                slot = &program.names[simple.name]
                id = tag_id_by_name(NULL, program.text + slot.lower.offset, slot.lower.length,
                                    False)
                if id != 0 and id < size:
                    table[id] = 1
                id = tag_id_by_name(NULL, program.text + slot.exact.offset, slot.exact.length,
                                    False)
                if id != 0 and id < size:
                    table[id] = 1
                gated = True
                break
            if simple.kind == S_IS and simple.list >= 0 and depth < MAX_NESTING \
                    and list_subject_tags(program, <uint32_t> simple.list, table, size,
                                          depth + 1):
                gated = True
                break
        if not gated:
            return False
    return True


cdef bint program_subject_tags(Program* program, uint8_t* table, size_t size) noexcept nogil:
    # (Nested lists recurse at most MAX_NESTING deep, as the parser allows.)
    memset(table, 0, size)
    if list_subject_tags(program, program.root, table, size, 0):
        return True
    memset(table, 1, size)
    return False


cdef bint program_matches_every_element(Program* program) noexcept nogil:
    cdef SelectorList* selector_list = &program.lists[program.root]
    cdef ComplexSelector* complex_selector
    cdef Compound* compound
    cdef SimpleSelector* simple
    cdef uint32_t i, k
    cdef bint universal
    for i in range(selector_list.first, selector_list.first + selector_list.count):
        complex_selector = &program.complexes[i]
        if complex_selector.count != 1:
            continue
        compound = &program.compounds[complex_selector.first]
        universal = compound.count != 0
        for k in range(compound.first, compound.first + compound.count):
            simple = &program.simples[k]
            if simple.kind != S_UNIVERSAL or simple.ns != NS_CONSTRAINT_ANY:
                universal = False
                break
        if universal:
            return True
    return False


cdef list proxies_of(NodeArray* found):
    """The proxies of the collected matches, in one pass into a list made
    at its final size."""
    cdef list result = PyList_New(<Py_ssize_t> found.count)
    cdef object proxy
    cdef size_t i
    for i in range(found.count):
        proxy = node_proxy(found.items[i])
        Py_INCREF(proxy)
        PyList_SET_ITEM(result, <Py_ssize_t> i, proxy)
    return result


cdef Node run_match(Selector selector, Node owner, CNode* element, bint climb):
    """match (climb false: the element or None) and closest (climb: the
    nearest inclusive ancestor that matches, or None)."""
    cdef CDocument* doc = element.owner
    cdef MatchContext ctx
    cdef CNode* node = element
    cdef CNode* hit = NULL
    cdef bint oom
    doc.readers += 1
    with nogil:
        oom = context_init(&ctx, selector.program, doc, element) != 0
        if not oom:
            while node != NULL and node.type == ELEMENT_NODE:
                if match_list(&ctx, ctx.program.root, node):
                    hit = node
                    break
                if not climb:
                    break
                node = node.parent
            oom = ctx.out_of_memory
            context_free(&ctx)
    doc.readers -= 1
    if oom:
        raise MemoryError()
    return node_proxy(hit) if hit != NULL else None


# -- the DOM's methods (registered with lexpy.dom on import) --------------------

def query_selector(node, selectors, namespaces=None):
    """node.query_selector(): the first matching descendant element, or None."""
    cdef Selector selector = cached_selector(selectors, namespaces)
    cdef list found = run_query(selector, check_node(node, "node"), True)
    return found[0] if found else None


def query_selector_all(node, selectors, namespaces=None):
    """node.query_selector_all(): every matching descendant element, in tree order."""
    return run_query(cached_selector(selectors, namespaces), check_node(node, "node"), False)


def matches(element, selectors, namespaces=None):
    """element.matches(): whether the element matches."""
    cdef Selector selector = cached_selector(selectors, namespaces)
    cdef Node c_element = check_node(element, "element")
    return run_match(selector, c_element, c_element.c_node, False) is not None


def closest(element, selectors, namespaces=None):
    """element.closest(): the element or its nearest ancestor that matches."""
    cdef Selector selector = cached_selector(selectors, namespaces)
    cdef Node c_element = check_node(element, "element")
    return run_match(selector, c_element, c_element.c_node, True)
