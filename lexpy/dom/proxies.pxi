# Python node classes: thin proxies over the C structs (DESIGN.md decision
# 7). A proxy is made on first access (node_proxy) and cached in
# CNode.proxy; it holds its Document, so the arena lives as long as any
# proxy of it does (lxml's model). The Document proxy owns the CDocument.

cimport cython
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF, PyObject


# Readers without the GIL (serialize_html, dump, text_content) walk the
# structs while other threads run. The counter changes only under the GIL;
# every change the Python API makes to a document (links, attributes, data,
# its name tables) first calls check_not_read, so no walk sees a half-made
# change or a freed buffer.
cdef inline void begin_reading(CDocument* c_doc) noexcept:
    c_doc.readers += 1


cdef inline void end_reading(CDocument* c_doc) noexcept:
    c_doc.readers -= 1


cdef int check_not_read(CDocument* c_doc) except -1:
    if c_doc.readers:
        raise RuntimeError("the document is being serialized (to_html, dump or "
                           "text_content) in another thread: change it after "
                           "that returns")
    return 0


# The Selectors API (lexpy.selectors, a layer above the DOM) registers its
# functions here when it is imported; the DOM's query_selector,
# query_selector_all, matches and closest call up through this hook and
# never import that layer (lexpy/__init__.py imports it).
cdef tuple _selector_engine = None


def _register_selector_engine(query_selector, query_selector_all, matches, closest):
    global _selector_engine
    _selector_engine = (query_selector, query_selector_all, matches, closest)


cdef tuple selector_engine():
    if _selector_engine is None:
        raise RuntimeError("no selector engine: import lexpy.selectors")
    return _selector_engine


# The links helper (lexpy.extract.links, a layer above the DOM) is
# registered by lexpy/__init__.py as a function that imports that layer on
# its first call (ada-url, its URL parser, is loaded only then); the DOM's
# make_links_absolute calls up through this hook and imports nothing.
cdef object _links_layer = None


def _register_links_layer(make_links_absolute):
    global _links_layer
    _links_layer = make_links_absolute


# The XPath engine (lexpy.xpath, a layer above the DOM) registers its
# function here when it is imported, as the Selectors API does; the DOM's
# xpath() methods call up through this hook.
cdef object _xpath_engine = None


def _register_xpath_engine(xpath):
    global _xpath_engine
    _xpath_engine = xpath


cdef object xpath_engine():
    if _xpath_engine is None:
        raise RuntimeError("no XPath engine: import lexpy.xpath")
    return _xpath_engine


# The HTML fragment parsing algorithm (lexpy.parser, above the DOM) is
# registered the same way: Element.inner_html's setter parses through it.
cdef object _fragment_parser = None


def _register_fragment_parser(parse_fragment):
    global _fragment_parser
    _fragment_parser = parse_fragment


cdef object fragment_parser():
    if _fragment_parser is None:
        raise RuntimeError("no HTML parser: import lexpy")
    return _fragment_parser


cdef inline CNode* live(Node node) except NULL:
    if node.c_node == NULL:
        raise ValueError("this %s belongs to no document; nodes are made by "
                         "a Document's create_* methods or by parsing"
                         % type(node).__name__)
    return node.c_node


cdef Node as_node(object value, str what):
    if not isinstance(value, Node):
        raise TypeError("%s must be a lexpy Node, not %s"
                        % (what, type(value).__name__))
    live(<Node> value)
    return <Node> value


cdef inline Document document_of(Node node):
    return node.doc if node.doc is not None else <Document> node


# -- making and freeing proxies (not in the standard) -------------------------
# A proxy is made for every node Python code touches, so this is the DOM's
# hottest path after parsing. Node and its subclasses without fields of their
# own (Element, Text, ...) share one C layout, ProxyObject; node_proxy fills
# it straight from a freelist, and proxy_dealloc (installed as their
# tp_dealloc by install_proxy_type) gives it back. Cython's own tp_new and
# tp_dealloc would do the same work plus what a proxy never needs: argument
# tuples, the type test of the result, None placeholders for the fields,
# and saving the thread's exception state around a __dealloc__.

cdef extern from "Python.h":
    ctypedef void (*proxy_destructor)(PyObject*)
    ctypedef struct ProxyType "PyTypeObject":
        Py_ssize_t tp_basicsize
        unsigned long tp_flags
        proxy_destructor tp_dealloc
        void (*tp_free)(void*)
        PyObject* (*tp_alloc)(ProxyType*, Py_ssize_t)
    PyObject* PyObject_Init(PyObject* op, ProxyType* type) noexcept
    void PyObject_GC_Track(void* op) noexcept
    void PyObject_GC_UnTrack(void* op) noexcept
    void PyObject_ClearWeakRefs(PyObject* op) noexcept
    void* PyCapsule_GetPointer(object capsule, const char* name) except? NULL
    void Py_INCREF_raw "Py_INCREF"(PyObject* op) noexcept
    void Py_DECREF_raw "Py_DECREF"(PyObject* op) noexcept
    Py_ssize_t Py_REFCNT_raw "Py_REFCNT"(PyObject* op) noexcept
    ProxyType* Py_TYPE_raw "Py_TYPE"(PyObject* op) noexcept
    unsigned long Py_TPFLAGS_HEAPTYPE


ctypedef struct ProxyObject:      # the C layout of Node (checked on import)
    PyObject ob_base
    void* vtab                    # Cython's table of the type's cdef methods
    CNode* c_node
    PyObject* doc                 # a Document (owned), or NULL
    PyObject* weakrefs            # __weakref__


cdef enum:
    PROXY_TYPE_SLOTS = DOCUMENT_FRAGMENT_NODE + 1
    PROXY_FREELIST_SIZE = 1024    # freed proxies kept for reuse (64 KiB)

# The proxy class and its method table for each node type (NULL: none).
cdef ProxyType* proxy_types[PROXY_TYPE_SLOTS]
cdef void* proxy_vtabs[PROXY_TYPE_SLOTS]
cdef PyObject* proxy_freelist[PROXY_FREELIST_SIZE]
cdef Py_ssize_t proxy_free_count = 0


cdef Node node_proxy(CNode* c_node):
    if c_node == NULL:
        return None
    # Checked before the cache: a reclaimed struct's proxy field chains the
    # free list (arena.pxi), so it is not a proxy. Arena memory stays valid
    # until the document goes, so this is a check, not a crash: reaching a
    # reclaimed node is a bug.
    if c_node.flags & NODE_RECLAIMED:
        raise RuntimeError("internal error: a reclaimed node was reached")
    if c_node.proxy != NULL:
        return <Node> c_node.proxy
    return new_proxy(c_node)


cdef Node new_proxy(CNode* c_node):
    """Make the proxy of a node that has none and cache it in the node."""
    global proxy_free_count
    cdef uint32_t node_type = c_node.type
    cdef ProxyType* type = proxy_types[node_type] \
        if node_type < PROXY_TYPE_SLOTS else NULL
    cdef PyObject* o
    cdef ProxyObject* p
    cdef PyObject* doc
    cdef bint tracked
    cdef Node proxy
    if type == NULL:
        raise RuntimeError("no proxy for a node of type %d" % node_type)
    if proxy_free_count > 0:
        proxy_free_count -= 1
        o = PyObject_Init(proxy_freelist[proxy_free_count], type)
        tracked = False
    else:
        o = type.tp_alloc(type, 0)      # zeroed and tracked by the GC
        if o == NULL:
            raise MemoryError()
        tracked = True
    p = <ProxyObject*> o
    doc = <PyObject*> c_node.owner.node.proxy
    Py_INCREF_raw(doc)
    p.vtab = proxy_vtabs[node_type]
    p.c_node = c_node
    p.doc = doc
    p.weakrefs = NULL
    if not tracked:
        PyObject_GC_Track(o)
    c_node.proxy = <void*> o
    proxy = <Node> o                    # a second reference: the first is
    Py_DECREF_raw(o)                    # the allocation's, given back
    return proxy


cdef void proxy_dealloc(PyObject* o) noexcept:
    """tp_dealloc of every proxy class but Document: forget the proxy in
    its node, reclaim a detached subtree no proxy reaches any more, let the
    Document go, keep the memory for the next proxy."""
    global proxy_free_count
    cdef ProxyObject* p = <ProxyObject*> o
    cdef CNode* c_node = p.c_node
    cdef PyObject* doc = p.doc
    cdef ProxyType* type = Py_TYPE_raw(o)
    PyObject_GC_UnTrack(o)
    if p.weakrefs != NULL:
        PyObject_ClearWeakRefs(o)
    if c_node != NULL:
        if c_node.proxy == <void*> o:
            c_node.proxy = NULL
        # (Only a detached subtree can be reclaimed: a node in a tree, the
        # common case, is let go without a call. Nor when this proxy holds
        # the last reference to the Document: its arena goes next, whole.)
        if doc != NULL and doc != <PyObject*> None \
                and (c_node.parent == NULL or c_node.type == DOCUMENT_FRAGMENT_NODE) \
                and Py_REFCNT_raw(doc) != 1:
            node_try_reclaim(c_node)
    p.c_node = NULL
    p.doc = NULL
    if doc != NULL:
        Py_DECREF_raw(doc)              # may free the document: last
    if proxy_free_count < PROXY_FREELIST_SIZE \
            and type.tp_basicsize == sizeof(ProxyObject) \
            and not (type.tp_flags & Py_TPFLAGS_HEAPTYPE):
        proxy_freelist[proxy_free_count] = o
        proxy_free_count += 1
    else:
        type.tp_free(o)


cdef int install_proxy_type(object cls, uint32_t node_type) except -1:
    """Give a proxy class the C paths above (node_type 0: a base class that
    node_proxy never makes), after checking that its layout is ProxyObject:
    a field added to it, or a Cython that lays classes out differently,
    fails the import here instead of corrupting memory later."""
    cdef ProxyType* type = <ProxyType*> cls
    cdef Node probe
    cdef ProxyObject* p
    cdef void* vtab = PyCapsule_GetPointer(cls.__pyx_vtable__, NULL)
    if type.tp_basicsize != sizeof(ProxyObject) or type.tp_flags & Py_TPFLAGS_HEAPTYPE:
        raise SystemError("%s does not have the proxy layout" % cls.__name__)
    probe = cls.__new__(cls)            # made by Cython's own tp_new
    probe.c_node = <CNode*> &proxy_types    # any recognisable pointer
    p = <ProxyObject*> probe
    if p.vtab != vtab or p.c_node != <CNode*> &proxy_types \
            or p.doc != <PyObject*> None or p.weakrefs != NULL:
        raise SystemError("%s does not have the proxy layout" % cls.__name__)
    probe.c_node = NULL
    del probe
    type.tp_dealloc = proxy_dealloc
    if node_type:
        proxy_types[node_type] = type
        proxy_vtabs[node_type] = vtab
    return 0


cdef list child_list(CNode* parent, bint elements_only):
    """The children (or element children) as a new list, sized once."""
    cdef CNode* child = parent.first_child
    cdef Py_ssize_t count = 0
    cdef list result
    cdef Node proxy
    while child != NULL:
        if not elements_only or child.type == ELEMENT_NODE:
            count += 1
        child = child.next
    result = PyList_New(count)
    child = parent.first_child
    count = 0
    while child != NULL:
        if not elements_only or child.type == ELEMENT_NODE:
            proxy = node_proxy(child)
            Py_INCREF(proxy)
            PyList_SET_ITEM(result, count, proxy)
            count += 1
        child = child.next
    return result


cdef Document document_new():
    return Document.__new__(Document)


cdef void document_take_parse_errors(Document doc, ErrorList* errors) noexcept:
    error_list_clear(&doc.c_parse_errors)
    doc.c_parse_errors = errors[0]
    memset(errors, 0, sizeof(ErrorList))
    doc.parse_errors = None


cdef list document_errors(Document doc):
    """The `errors` list, made from the parse's records the first time."""
    cdef size_t i
    cdef list made
    cdef ParseErrorRecord* record
    if doc.parse_errors is None:
        from lexpy.dom.errors import ParseError
        made = []
        for i in range(doc.c_parse_errors.count):
            record = &doc.c_parse_errors.items[i]
            made.append(ParseError(record.code.decode("ascii"), record.line, record.column))
        doc.parse_errors = made
        error_list_clear(&doc.c_parse_errors)
    return doc.parse_errors


cdef bint is_strict_descendant(CNode* ancestor, CNode* node) noexcept:
    node = node.parent
    while node != NULL:
        if node == ancestor:
            return True
        node = node.parent
    return False


cdef CNode* next_after_subtree(CNode* node, CNode* root) noexcept:
    """The node after node's subtree in tree order within root, or NULL."""
    while node != root and node != NULL:
        if node.next != NULL:
            return node.next
        node = node.parent
    return NULL


cdef int check_nodes_or_strings(tuple nodes) except -1:
    for item in nodes:
        if not isinstance(item, (str, Node)):
            raise TypeError("expected nodes and strings, not %s"
                            % type(item).__name__)
    return 0


cdef CNode* resume_after_change(CNode* c_root, CNode* current, CNode* sibling,
                                CNode* parent) noexcept:
    """Where a walk over root's descendants goes on after the tree changed
    while it stood at `current` (whose next sibling and parent were
    `sibling` and `parent`, NULL when none or reclaimed since): the node
    after `current` if it is still inside root, else `sibling` if that is
    still inside, else the node after `parent`'s subtree if `parent` is
    still inside (or root), else NULL."""
    if is_strict_descendant(c_root, current):
        return next_in_tree(current, c_root)
    if sibling != NULL and is_strict_descendant(c_root, sibling):
        return sibling
    if parent != NULL and parent != c_root \
            and is_strict_descendant(c_root, parent):
        return next_after_subtree(parent, c_root)
    return NULL


cdef inline Node element_proxy_or_none(CNode* c_node):
    return node_proxy(c_node) if c_node != NULL and c_node.type == ELEMENT_NODE \
        else None


cdef CNode* html_document_element(CNode* document) noexcept nogil:
    """The document element if it is an HTML <html>, else NULL."""
    cdef CNode* child = document.first_child
    while child != NULL and child.type != ELEMENT_NODE:
        child = child.next
    if child != NULL and (<CElement*> child).tag_id == TAG_HTML \
            and (<CElement*> child).ns == NS_HTML:
        return child
    return NULL


cdef CNode* document_body(CNode* document) noexcept nogil:
    """https://html.spec.whatwg.org/multipage/dom.html#the-body-element-2:
    the first <body> or <frameset> child of the <html> document element,
    or NULL."""
    cdef CNode* html = html_document_element(document)
    cdef CNode* child = html.first_child if html != NULL else NULL
    while child != NULL:
        if child.type == ELEMENT_NODE and (<CElement*> child).ns == NS_HTML \
                and ((<CElement*> child).tag_id == TAG_BODY
                     or (<CElement*> child).tag_id == TAG_FRAMESET):
            return child
        child = child.next
    return NULL


cdef lxp_ns_id_t document_namespace_id(CDocument* c_doc,
                                       object namespace) except? 0:
    cdef bytes uri
    cdef lxp_ns_id_t ns
    if namespace is None:
        return NS__UNDEF
    uri = encode_utf8(namespace, "namespace")
    ns = namespace_id(c_doc, uri, len(uri), False)
    if ns != 0:
        return ns
    check_not_read(c_doc)               # a new name changes the table
    ns = namespace_id(c_doc, uri, len(uri), True)
    if ns == 0:
        raise MemoryError()
    return ns


cdef lxp_tag_id_t document_tag_id(CDocument* c_doc, bytes name) except 0:
    """The tag id of a UTF-8 name, interned in the document's table when
    new."""
    cdef lxp_tag_id_t id = tag_id_by_name(c_doc.tag_names, name, len(name), False)
    if id != 0:
        return id
    check_not_read(c_doc)               # a new name changes the table
    id = tag_id_by_name(c_doc.tag_names, name, len(name), True)
    if id == 0:
        raise MemoryError()
    return id


cdef lxp_attr_id_t document_attr_id(CDocument* c_doc, str name) except 0:
    return document_attr_id_utf8(c_doc, encode_utf8(name, "name"))


cdef lxp_attr_id_t document_attr_id_utf8(CDocument* c_doc, bytes data) except 0:
    """The attribute id of a UTF-8 name, interned in the document's table
    when new."""
    cdef lxp_attr_id_t id = attr_id_by_name(c_doc.attr_names, data, len(data), False)
    if id != 0:
        return id
    check_not_read(c_doc)               # a new name changes the table
    id = attr_id_by_name(c_doc.attr_names, data, len(data), True)
    if id == 0:
        raise MemoryError()
    return id


cdef CCharacterData* new_character_data(CDocument* c_doc, uint32_t node_type,
                                        object data) except NULL:
    cdef bytes utf8 = encode_utf8(data, "data")
    cdef CCharacterData* node = character_data_create(c_doc, node_type)
    if node == NULL or character_data_set(node, utf8, len(utf8)) != 0:
        raise MemoryError()
    return node


# https://www.w3.org/TR/xml/#NT-Name, with every non-ASCII code point
# allowed (a superset: the exact tables only reject rare symbols).
cdef bint is_xml_name(str name) except -1:
    cdef Py_UCS4 c
    cdef Py_ssize_t i
    if len(name) == 0:
        return False
    c = name[0]
    if not (is_ascii_alpha(c) or c == u'_' or c == u':' or c >= 0x80):
        return False
    for i in range(1, len(name)):
        c = name[i]
        if not (is_ascii_alphanumeric(c) or c == u'-' or c == u'.' or c == u':'
                or c == u'_' or c >= 0x80):
            return False
    return True


@cython.no_gc_clear
cdef class Node:
    """A node of a lexpy tree (DOM standard names, in snake_case).

    Node objects are made by parsing or by a Document's create_* methods,
    never directly. Each keeps its Document alive.
    """

    ELEMENT_NODE = 1
    ATTRIBUTE_NODE = 2
    TEXT_NODE = 3
    CDATA_SECTION_NODE = 4
    PROCESSING_INSTRUCTION_NODE = 7
    COMMENT_NODE = 8
    DOCUMENT_NODE = 9
    DOCUMENT_TYPE_NODE = 10
    DOCUMENT_FRAGMENT_NODE = 11

    def __init__(self, *args, **kwargs):
        raise TypeError("%s objects cannot be made directly: use a Document's "
                        "create_* methods or lexpy.parse()" % type(self).__name__)

    cdef CNode* _node(self) except NULL:
        return live(self)

    # -- navigation ---------------------------------------------------------

    @property
    def node_type(self):
        """The DOM node type (Node.ELEMENT_NODE, Node.TEXT_NODE, ...)."""
        return live(self).type

    @property
    def node_name(self):
        """The DOM nodeName: the upper-cased tag name of an HTML element,
        '#text', '#comment', '#document', a PI's target, a doctype's name."""
        raise NotImplementedError  # every subclass overrides it

    @property
    def owner_document(self):
        """The Document this node belongs to (None for a Document)."""
        live(self)
        return self.doc

    @property
    def parent(self):
        """The parent node, or None: the Pythonic alias of parent_node."""
        return node_proxy(live(self).parent)

    @property
    def parent_node(self):
        """The parent node, or None (a template's contents have none; the
        DOM's parentNode, also spelled `parent`)."""
        return node_proxy(live(self).parent)

    @property
    def parent_element(self):
        """The parent if it is an element, else None."""
        return element_proxy_or_none(live(self).parent)

    @property
    def first_child(self):
        """The first child, or None."""
        return node_proxy(live(self).first_child)

    @property
    def last_child(self):
        """The last child, or None."""
        return node_proxy(live(self).last_child)

    @property
    def next_sibling(self):
        """The node after this one in its parent, or None."""
        return node_proxy(live(self).next)

    @property
    def previous_sibling(self):
        """The node before this one in its parent, or None."""
        return node_proxy(live(self).prev)

    @property
    def child_nodes(self):
        """The children, as a new list (changing the tree does not change
        the list)."""
        return child_list(live(self), False)

    @property
    def children(self):
        """The element children, as a new list."""
        return child_list(live(self), True)

    @property
    def first_element_child(self):
        """The first child that is an element, or None."""
        cdef CNode* child = live(self).first_child
        while child != NULL and child.type != ELEMENT_NODE:
            child = child.next
        return node_proxy(child)

    @property
    def last_element_child(self):
        """The last child that is an element, or None."""
        cdef CNode* child = live(self).last_child
        while child != NULL and child.type != ELEMENT_NODE:
            child = child.prev
        return node_proxy(child)

    def __iter__(self):
        """Iterate over the children. Safe while the tree changes: a child
        the loop body removes is followed by its former next sibling."""
        return tree_walk(self, WALK_CHILDREN)

    def descendants(self):
        """Iterate over the descendants in tree order (not into template
        contents). Safe while the tree changes: after a change, the walk
        goes on from the current node if it is still inside this node, else
        from its former next sibling if that is still inside, else after its
        former parent (if that is still inside), else it ends."""
        return tree_walk(self, WALK_NODES)

    def make_links_absolute(self, base_url=None):
        """Rewrite every URL of the URL-bearing attributes at and below this
        node (lexpy.iter_links's list) as its absolute URL, resolved by the
        URL Standard's parser against the document base URL (<base href>
        against `base_url`); URLs that do not resolve stay as written.
        lxml.html's make_links_absolute; needs the extract extra (ada-url)."""
        if _links_layer is None:
            raise RuntimeError("make_links_absolute needs lexpy.extract (import lexpy)")
        _links_layer(self, base_url)

    def iter(self, tag=None):
        """Iterate over the descendant elements in tree order (not into
        template contents), or only those named `tag` (matched as
        get_elements_by_tag_name() matches; "*" or None: all). Safe while
        the tree changes, as descendants() is."""
        return iter_elements(self, tag)

    def get_elements_by_tag_name(self, qualified_name):
        """The descendant elements named `qualified_name`, in tree order, as
        a new list: HTML elements match it ASCII case-insensitively, others
        exactly; "*" matches every element."""
        return elements_by_tag_name(self, qualified_name)

    def get_elements_by_class_name(self, class_names):
        """The descendant elements that have every class of the
        space-separated `class_names`, in tree order, as a new list (ASCII
        case-insensitive in a quirks-mode document)."""
        return elements_by_class_name(self, class_names)

    def get_element_by_id(self, element_id):
        """The first descendant element, in tree order, whose id is
        `element_id`, or None."""
        return element_by_id(self, element_id)

    def has_child_nodes(self):
        """Whether the node has children."""
        return live(self).first_child != NULL

    def contains(self, other):
        """Whether `other` is this node or one of its descendants."""
        cdef CNode* node
        if other is None:
            return False
        node = as_node(other, "other").c_node
        live(self)
        while node != NULL:
            if node == self.c_node:
                return True
            node = node.parent
        return False

    # -- text ---------------------------------------------------------------

    @property
    def text_content(self):
        """The text of the node: the concatenated Text descendants of an
        element or fragment, the data of character data, None for a
        Document or DocumentType. Setting it on an element or fragment
        replaces all children with one Text node."""
        cdef Buffer out
        cdef CNode* c_node = live(self)
        if c_node.type == ELEMENT_NODE or c_node.type == DOCUMENT_FRAGMENT_NODE:
            memset(&out, 0, sizeof(Buffer))
            if has_fewer_descendants(c_node, SMALL_SUBTREE):
                # (a <title>, a link's text: the walk takes less time than
                # letting the GIL go and waiting to get it back)
                write_descendant_text(&out, c_node)
                return buffer_finish(&out)
            begin_reading(c_node.owner)     # (as serialize_html does)
            with nogil:
                write_descendant_text(&out, c_node)
            end_reading(c_node.owner)
            return buffer_finish(&out)
        if c_node.type == TEXT_NODE or c_node.type == COMMENT_NODE \
                or c_node.type == PROCESSING_INSTRUCTION_NODE:
            return decode_utf8((<CCharacterData*> c_node).data,
                               (<CCharacterData*> c_node).length)
        return None

    @text_content.setter
    def text_content(self, value):
        cdef CNode* c_node = live(self)
        cdef bytes data
        if c_node.type == ELEMENT_NODE or c_node.type == DOCUMENT_FRAGMENT_NODE:
            replace_all_with_text(self, value)
        elif c_node.type == TEXT_NODE or c_node.type == COMMENT_NODE \
                or c_node.type == PROCESSING_INSTRUCTION_NODE:
            data = encode_utf8(value if value is not None else "", "text_content")
            check_not_read(c_node.owner)
            if character_data_set(<CCharacterData*> c_node, data, len(data)) != 0:
                raise MemoryError()
        elif value is not None and not isinstance(value, str):
            raise TypeError("text_content must be a str or None")

    def normalize(self):
        """Remove empty Text descendants and merge adjacent ones
        (https://dom.spec.whatwg.org/#dom-node-normalize)."""
        cdef CNode* root = live(self)
        cdef CNode* node = root.first_child
        cdef CNode* following
        cdef CNode* after
        cdef CCharacterData* text
        check_not_read(root.owner)
        while node != NULL:
            if node.type != TEXT_NODE:
                node = next_in_tree(node, root)
                continue
            text = <CCharacterData*> node
            following = node.next
            while following != NULL and following.type == TEXT_NODE:
                if character_data_append(text, (<CCharacterData*> following).data,
                                         (<CCharacterData*> following).length) != 0:
                    raise MemoryError()
                after = following.next
                api_remove(following)
                node_try_reclaim(following)
                following = after
            after = next_in_tree(node, root)
            if text.length == 0:
                api_remove(node)
                node_try_reclaim(node)
            node = after

    # -- mutation -----------------------------------------------------------

    def append_child(self, node):
        """Append `node` (moving it from where it was; a DocumentFragment
        moves its children). Returns `node`."""
        return pre_insert(self, node, None)

    def insert_before(self, node, child):
        """Insert `node` before the child `child` (at the end when None)."""
        return pre_insert(self, node, child)

    def remove_child(self, child):
        """Take `child` out of this node. Returns it."""
        return remove_child(self, child)

    def replace_child(self, node, child):
        """Put `node` where the child `child` is. Returns `child`."""
        return replace_child(self, node, child)

    def append(self, *nodes):
        """Append nodes and strings (as Text) after the last child."""
        pre_insert(self, convert_nodes_into_a_node(document_of(self), nodes), None)

    def prepend(self, *nodes):
        """Insert nodes and strings (as Text) before the first child."""
        pre_insert(self, convert_nodes_into_a_node(document_of(self), nodes),
                   self.first_child)

    def remove(self):
        """Take this node out of its parent (nothing when it has none)."""
        cdef CNode* c_node = live(self)
        if c_node.parent != NULL:
            check_not_read(c_node.owner)
        api_remove(c_node)

    def before(self, *nodes):
        """Insert nodes and strings (as Text) before this node."""
        cdef Node parent = self.parent
        cdef Node viable
        check_nodes_or_strings(nodes)
        if parent is None:
            return
        viable = self._viable_sibling(nodes, False)
        node = convert_nodes_into_a_node(document_of(self), nodes)
        pre_insert(parent, node, viable.next_sibling if viable is not None
                   else parent.first_child)

    def after(self, *nodes):
        """Insert nodes and strings (as Text) after this node."""
        cdef Node parent = self.parent
        check_nodes_or_strings(nodes)
        if parent is None:
            return
        viable = self._viable_sibling(nodes, True)
        node = convert_nodes_into_a_node(document_of(self), nodes)
        pre_insert(parent, node, viable)

    def replace_with(self, *nodes):
        """Put nodes and strings (as Text) where this node is."""
        cdef Node parent = self.parent
        check_nodes_or_strings(nodes)
        if parent is None:
            return
        viable = self._viable_sibling(nodes, True)
        node = convert_nodes_into_a_node(document_of(self), nodes)
        if (<Node> self).c_node.parent == parent.c_node:
            replace_child(parent, node, self)
        else:
            pre_insert(parent, node, viable)

    def _viable_sibling(self, tuple nodes, bint following):
        # https://dom.spec.whatwg.org/#dom-childnode-before (viable sibling)
        cdef set excluded = {id(n) for n in nodes if isinstance(n, Node)}
        sibling = self.next_sibling if following else self.previous_sibling
        while sibling is not None and id(sibling) in excluded:
            sibling = sibling.next_sibling if following else sibling.previous_sibling
        return sibling

    def clone_node(self, deep=False):
        """A copy of this node in the same document (with its descendants
        when `deep`)."""
        cdef CNode* c_node = live(self)
        cdef CNode* copy
        if c_node.type == DOCUMENT_NODE:
            return (<Document> self)._clone_document(deep)
        copy = node_clone(c_node, bool(deep))
        if copy == NULL:
            raise MemoryError()
        return node_proxy(copy)

    def __copy__(self):
        return self.clone_node(False)

    def __reduce__(self):
        # pickling.pxi: a binary encoding of the subtree, not HTML text
        return node_reduce(self)

    def __deepcopy__(self, memo):
        return self.clone_node(True)

    # -- serialization --------------------------------------------------------

    def to_html(self, *, minify=False, indent=None, **options):
        """The standard's HTML serialization: of the children for a Document
        or DocumentFragment, of the node itself for any other node.

        minify=True: the minified HTML (serializer_modes.pxi has the exact
        rules), whose reparse is this tree after the documented whitespace
        collapse; `options` are minify-html's names: keep_closing_tags,
        keep_comments, keep_conditional_comments,
        keep_html_and_head_opening_tags,
        allow_removing_spaces_between_attributes (or its older inverse
        keep_spaces_between_attributes), remove_processing_instructions
        (all False by default); minify_js and minify_css: callables (str to
        str) that rewrite the text of JavaScript script and CSS style
        elements (a result holding "</script", "<!--" or "</style" is not
        used).
        indent=N (a non-negative int): pretty-printed, block-level structure
        indented N spaces a level; only whitespace in text changes."""
        cdef CNode* c_node = live(self)
        cdef bint include_self = not (c_node.type == DOCUMENT_NODE
                                      or c_node.type == DOCUMENT_FRAGMENT_NODE)
        if minify is False and indent is None and not options:
            return serialize_html(c_node, include_self)
        return serialize_with_options(c_node, include_self, bool(minify),
                                      indent, options)

    # -- positions ----------------------------------------------------------

    @property
    def source(self):
        """Where the node came from in the input (a lexpy.SourceSpan), for
        a document parsed with positions=True: an element's start tag, a
        text node's first to last character, a comment's, DOCTYPE's or
        processing instruction's token. None for nodes the parser made
        itself (implied elements, reconstructed formatting elements) or
        the API made, and in a document parsed without positions."""
        return source_span_of(self, False)

    def to_source(self, encoding=None):
        """The node as the input wrote it (a document parsed with
        positions=True): what the API has not changed since the parse is
        the input's own text, what it changed is serialized by the
        standard's algorithm (inside the original tags around it); the
        output parses to the current tree. A whole edited Document (or the
        DocumentFragment of parse_fragment) checks this by parsing its
        output: where the parser would move or merge what the edits put
        there (foster parenting, attributes a later <html> tag adds, ...),
        the smallest region around the edits that parses back is written
        by the standard's algorithm. An untouched Document gives the input
        byte for byte; an edited one its input with only the edited nodes'
        spans rewritten (an element's start tag where its attributes
        changed, a text's input where its data did, an element's content
        where its children did: implied end tags stay implied), unless
        that would parse otherwise (see to_source_edits()).

        encoding: None for the input's own form (str for str input; bytes
        in the document's encoding for bytes input), "unicode" for str, or
        an encoding label for bytes in that encoding. A character the
        encoding has not is a character reference in text and attribute
        values; in a comment, a DOCTYPE, a processing instruction or raw
        text (script, style, ...) U+FFFD is written as U+0000 (the
        tokenizer makes U+FFFD of it there), any other raises
        UnicodeEncodeError (no output in that encoding parses to the
        tree), as in a tag or attribute name.

        Raises ValueError for a document parsed without positions."""
        return node_to_source(self, encoding)

    def to_source_edits(self, encoding=None, checked=True):
        """What to_source() rewrote: [(start, end, text)] with offsets into
        the input as given (as node.source's), sorted and apart, such that
        the input with each [start, end) replaced by its text is
        to_source(encoding)'s output (for a node other than the Document,
        the input outside its own is among them, replaced by nothing).
        Every byte of the input outside these ranges is in the output,
        unchanged and in order. [] for an untouched document.

        The first writing rewrites only the edited nodes' spans (the start
        tag of an element whose attributes changed, a text's own input, the
        content of an element whose children the API inserted, removed or
        moved: see the README's "Source positions and lossless output");
        where its output would parse to another tree, to_source() writes a
        wider region (the smallest around the edits that parses back).
        checked=False gives the first writing's edits, without that check:
        the ranges outside the edited nodes' spans in to_source_edits()
        and not in to_source_edits(checked=False) are the widening."""
        return node_to_source_edits(self, encoding, checked)


@cython.no_gc_clear
cdef class Document(Node):
    """An HTML document: lexpy.parse() returns one; Document() makes an
    empty one to build with (`scripting`: its scripting flag, which the
    serializer follows for <noscript>; off, as for a document the DOM
    makes without a browsing context)."""

    def __cinit__(self):
        cdef CDocument* c_doc = <CDocument*> calloc(1, sizeof(CDocument))
        if c_doc == NULL:
            raise MemoryError()
        node_init(&c_doc.node, DOCUMENT_NODE, c_doc)
        arena_init(&c_doc.arena)
        c_doc.tag_names = name_table_create(TAG__LAST_STATIC)
        c_doc.attr_names = name_table_create(ATTR__LAST_STATIC)
        if c_doc.tag_names == NULL or c_doc.attr_names == NULL:
            name_table_destroy(c_doc.tag_names)
            name_table_destroy(c_doc.attr_names)
            free(c_doc)
            raise MemoryError()
        c_doc.node.proxy = <void*> self
        self.c_doc = c_doc
        self.c_node = &c_doc.node
        self.parse_errors = []
        self.encoding_name = u"UTF-8"

    def __init__(self, *, scripting=False):
        if not isinstance(scripting, bool):
            raise TypeError("scripting must be a bool, not %s" % type(scripting).__name__)
        self.c_doc.scripting = 1 if scripting else 0

    def __dealloc__(self):
        cdef CDocument* c_doc = self.c_doc
        if c_doc == NULL:
            return
        name_table_destroy(c_doc.tag_names)
        name_table_destroy(c_doc.attr_names)
        name_table_destroy(c_doc.namespaces)
        arena_destroy(&c_doc.arena)
        free(c_doc)
        error_list_clear(&self.c_parse_errors)
        self.c_doc = NULL
        self.c_node = NULL

    def __repr__(self):
        return "<Document>"

    def query_selector(self, selectors, namespaces=None):
        """The first descendant element, in tree order, that matches the
        selector list `selectors` (CSS Selectors Level 4), or None.
        `namespaces` maps prefixes to namespace URLs for `prefix|name`."""
        return selector_engine()[0](self, selectors, namespaces)

    def query_selector_all(self, selectors, namespaces=None):
        """Every descendant element that matches `selectors`, in tree order,
        as a new list."""
        return selector_engine()[1](self, selectors, namespaces)

    def xpath(self, expr, *, namespaces=None, **variables):
        """The value of the XPath 1.0 expression `expr` with this node as
        the context: a list of nodes in document order (attribute and text
        nodes as lexpy.XPathString), a float, a bool or a str.
        `namespaces` maps prefixes to namespace URIs; keyword arguments
        are the expression's $variables."""
        return xpath_engine()(self, expr, namespaces, variables)

    @property
    def node_name(self):
        """'#document'."""
        return "#document"

    @property
    def owner_document(self):
        """None: a Document belongs to no document."""
        return None

    @property
    def document_element(self):
        """The root element (normally <html>), or None."""
        return self.first_element_child

    @property
    def head(self):
        """The first <head> child of the <html> document element, or None."""
        cdef CNode* html = html_document_element(self.c_node)
        cdef CNode* child = html.first_child if html != NULL else NULL
        while child != NULL:
            if child.type == ELEMENT_NODE and (<CElement*> child).tag_id == TAG_HEAD \
                    and (<CElement*> child).ns == NS_HTML:
                return node_proxy(child)
            child = child.next
        return None

    @property
    def body(self):
        """The first <body> or <frameset> child of the <html> document
        element, or None."""
        cdef CNode* body = document_body(self.c_node)
        return node_proxy(body) if body != NULL else None

    @property
    def doctype(self):
        """The DocumentType child, or None."""
        cdef CNode* child = self.c_node.first_child
        while child != NULL:
            if child.type == DOCUMENT_TYPE_NODE:
                return node_proxy(child)
            child = child.next
        return None

    @property
    def errors(self):
        """The parse errors (lexpy.ParseError: code, line, column) when
        the document was parsed with collect_errors=True, else [].
        Read-only: the parser sets it."""
        return document_errors(self)

    @property
    def error_count(self):
        """len(errors), without making the ParseErrors (they are made when
        `errors` is first read)."""
        if self.parse_errors is None:
            return self.c_parse_errors.count
        return len(self.parse_errors)

    @property
    def encoding(self):
        """The name of the encoding the document was decoded from, as the
        Encoding Standard spells it ('UTF-8', 'windows-1252', 'Shift_JIS');
        'UTF-8' for str input and for documents made with Document().
        Read-only: the parser sets it."""
        return self.encoding_name

    @property
    def quirks_mode(self):
        """'no-quirks', 'quirks' or 'limited-quirks' (set by the parser from
        the DOCTYPE)."""
        return QUIRKS_MODE_NAMES[self.c_doc.quirks_mode]

    @quirks_mode.setter
    def quirks_mode(self, value):
        if value not in QUIRKS_MODE_NAMES:
            raise ValueError("quirks_mode must be one of %s, not %r"
                             % (", ".join(QUIRKS_MODE_NAMES), value))
        self.c_doc.quirks_mode = QUIRKS_MODE_NAMES.index(value)

    @property
    def scripting(self):
        """Whether scripting was enabled for the parse: then <noscript>
        holds raw text, and the serializer writes it unescaped. Read-only:
        set by the parse, or by Document(scripting=...)."""
        return self.c_doc.scripting != 0

    # -- making nodes -------------------------------------------------------

    def create_element(self, local_name):
        """A new <local_name> element in the HTML namespace (the name is
        ASCII-lowercased, as in an HTML document)."""
        cdef bytes name
        cdef lxp_tag_id_t tag_id
        cdef CElement* element
        if not isinstance(local_name, str):
            raise TypeError("local_name must be a str, not %s"
                            % type(local_name).__name__)
        if not is_valid_element_local_name(local_name):
            raise InvalidCharacterError("invalid element name %r" % local_name)
        name = encode_utf8(ascii_lowercase(local_name), "local_name")
        tag_id = document_tag_id(self.c_doc, name)
        element = element_create(self.c_doc, tag_id, NS_HTML)
        if element == NULL:
            raise MemoryError()
        return node_proxy(&element.node)

    def create_element_ns(self, namespace, qualified_name):
        """A new element in `namespace` (a URI, or None) named
        `qualified_name` ('prefix:local' or 'local'; case kept)."""
        cdef str prefix, local_name
        cdef bytes name
        cdef lxp_tag_id_t tag_id
        cdef lxp_ns_id_t ns
        cdef CElement* element
        namespace, prefix, local_name = validate_and_extract(
            namespace, qualified_name, True)
        ns = document_namespace_id(self.c_doc, namespace)
        name = encode_utf8(local_name, "local name")
        tag_id = document_tag_id(self.c_doc, name)
        element = element_create(self.c_doc, tag_id, ns)
        if element == NULL:
            raise MemoryError()
        if prefix is not None:
            element.prefix = document_attr_id(self.c_doc, prefix)
        return node_proxy(&element.node)

    def create_text_node(self, data):
        """A new Text node."""
        return node_proxy(&new_character_data(self.c_doc, TEXT_NODE, data).node)

    def create_comment(self, data):
        """A new Comment node."""
        return node_proxy(&new_character_data(self.c_doc, COMMENT_NODE, data).node)

    def create_processing_instruction(self, target, data):
        """A new ProcessingInstruction `<?target data?>`. The target must be
        a valid name and the data must not contain '?>'."""
        cdef bytes name
        cdef CCharacterData* node
        if not isinstance(target, str):
            raise TypeError("target must be a str, not %s" % type(target).__name__)
        if not isinstance(data, str):
            raise TypeError("data must be a str, not %s" % type(data).__name__)
        if not is_xml_name(target):
            # https://dom.spec.whatwg.org/#dom-document-createprocessinginstruction
            raise InvalidCharacterError("invalid processing instruction target %r"
                                        % target)
        if u"?>" in data:
            raise InvalidCharacterError("processing instruction data cannot "
                                        "contain '?>'")
        node = new_character_data(self.c_doc, PROCESSING_INSTRUCTION_NODE, data)
        name = encode_utf8(target, "target")
        if processing_instruction_set_target(node, name, len(name)) != 0:
            raise MemoryError()
        return node_proxy(&node.node)

    def create_document_fragment(self):
        """A new, empty DocumentFragment."""
        cdef CDocumentFragment* fragment = document_fragment_create(self.c_doc)
        if fragment == NULL:
            raise MemoryError()
        return node_proxy(&fragment.node)

    def create_document_type(self, name, public_id="", system_id=""):
        """A new DocumentType `<!DOCTYPE name ...>` (the DOM's
        DOMImplementation.createDocumentType)."""
        cdef bytes name_data, public_data, system_data
        cdef CDocumentType* doctype
        name_data = encode_utf8(name, "name")
        public_data = encode_utf8(public_id, "public_id")
        system_data = encode_utf8(system_id, "system_id")
        if not is_valid_doctype_name(name):
            raise InvalidCharacterError("invalid doctype name %r" % name)
        doctype = doctype_create(self.c_doc)
        if doctype == NULL or doctype_set(
                doctype, name_data, len(name_data), public_data, len(public_data),
                system_data, len(system_data)) != 0:
            raise MemoryError()
        return node_proxy(&doctype.node)

    def import_node(self, node, deep=False):
        """A copy of a node of any document, in this document."""
        cdef Node source = as_node(node, "node")
        cdef CNode* copy
        if source.c_node.type == DOCUMENT_NODE:
            raise NotSupportedError("a Document cannot be imported")
        check_not_read(self.c_doc)          # names join this document's tables
        copy = node_clone_into(source.c_node, self.c_doc, bool(deep))
        if copy == NULL:
            raise MemoryError()
        return node_proxy(copy)

    def adopt_node(self, node):
        """Move a node (with its descendants) from wherever it is into this
        document, detached. Returns the node."""
        cdef Node source = as_node(node, "node")
        if source.c_node.type == DOCUMENT_NODE:
            raise NotSupportedError("a Document cannot be adopted")
        if fragment_host(source.c_node) != NULL:
            raise HierarchyRequestError("a template's contents cannot be adopted")
        check_not_read(source.c_node.owner)
        check_not_read(self.c_doc)
        api_remove(source.c_node)
        adopt_node(source.c_node, self)
        return source

    def __deepcopy__(self, memo):
        # clone_node(True) as for any node, with the parse's results too
        cdef Document copy = self._clone_document(True)
        copy.parse_errors = list(document_errors(self))
        return copy

    def _clone_document(self, deep):
        cdef Document copy = Document.__new__(Document)
        cdef CNode* child
        cdef CNode* child_copy
        copy.c_doc.quirks_mode = self.c_doc.quirks_mode
        copy.c_doc.scripting = self.c_doc.scripting
        copy.encoding_name = self.encoding_name
        if deep:
            child = self.c_node.first_child
            while child != NULL:
                child_copy = node_clone_into(child, copy.c_doc, True)
                if child_copy == NULL:
                    raise MemoryError()
                api_append_child(copy.c_node, child_copy)
                child = child.next
        return copy


class NotSupportedError(ValueError):
    """The operation is not supported for this kind of node."""


cdef tuple QUIRKS_MODE_NAMES = ("no-quirks", "quirks", "limited-quirks")


@cython.no_gc_clear
cdef class DocumentFragment(Node):
    """A DocumentFragment: a parentless list of nodes (parse_fragment's
    result, a template's contents)."""

    def __repr__(self):
        return "<DocumentFragment>"

    def query_selector(self, selectors, namespaces=None):
        """The first descendant element, in tree order, that matches the
        selector list `selectors` (CSS Selectors Level 4), or None.
        `namespaces` maps prefixes to namespace URLs for `prefix|name`."""
        return selector_engine()[0](self, selectors, namespaces)

    def query_selector_all(self, selectors, namespaces=None):
        """Every descendant element that matches `selectors`, in tree order,
        as a new list."""
        return selector_engine()[1](self, selectors, namespaces)

    def xpath(self, expr, *, namespaces=None, **variables):
        """The value of the XPath 1.0 expression `expr` with this node as
        the context: a list of nodes in document order (attribute and text
        nodes as lexpy.XPathString), a float, a bool or a str.
        `namespaces` maps prefixes to namespace URIs; keyword arguments
        are the expression's $variables."""
        return xpath_engine()(self, expr, namespaces, variables)

    @property
    def node_name(self):
        """'#document-fragment'."""
        return "#document-fragment"

    @property
    def host(self):
        """The template element whose contents this is, or None."""
        return node_proxy(fragment_host(live(self)))


@cython.no_gc_clear
cdef class DocumentType(Node):
    """A DOCTYPE."""

    def __repr__(self):
        return "<DocumentType %s>" % self.name

    cdef CDocumentType* _c(self) except NULL:
        return <CDocumentType*> live(self)

    @property
    def node_name(self):
        """The doctype's name."""
        return self.name

    @property
    def name(self):
        """The name ('html'; '' when missing)."""
        cdef CDocumentType* doctype = self._c()
        return decode_utf8(doctype.name, doctype.name_length)

    @property
    def public_id(self):
        """The public identifier ('' when missing)."""
        cdef CDocumentType* doctype = self._c()
        return decode_utf8(doctype.public_id, doctype.public_id_length)

    @property
    def system_id(self):
        """The system identifier ('' when missing)."""
        cdef CDocumentType* doctype = self._c()
        return decode_utf8(doctype.system_id, doctype.system_id_length)


@cython.no_gc_clear
cdef class CharacterData(Node):
    """Text, Comment and ProcessingInstruction: nodes holding a string."""

    cdef CCharacterData* _c(self) except NULL:
        return <CCharacterData*> live(self)

    @property
    def data(self):
        """The node's text (settable)."""
        cdef CCharacterData* node = self._c()
        return decode_utf8(node.data, node.length)

    @data.setter
    def data(self, value):
        cdef CCharacterData* node = self._c()
        cdef bytes utf8 = encode_utf8(value, "data")
        check_not_read(node.node.owner)
        if character_data_set(node, utf8, len(utf8)) != 0:
            raise MemoryError()

    @property
    def length(self):
        """The length of the data in code points."""
        return len(self.data)

    def append_data(self, data):
        """Add `data` at the end of the node's text."""
        cdef CCharacterData* node = self._c()
        cdef bytes utf8 = encode_utf8(data, "data")
        check_not_read(node.node.owner)
        if character_data_append(node, utf8, len(utf8)) != 0:
            raise MemoryError()

    def __repr__(self):
        data = self.data
        if len(data) > 40:
            data = data[:37] + "..."
        return "<%s %r>" % (type(self).__name__, data)


@cython.no_gc_clear
cdef class Text(CharacterData):
    """A Text node."""

    @property
    def node_name(self):
        """'#text'."""
        return "#text"


@cython.no_gc_clear
cdef class Comment(CharacterData):
    """A Comment node."""

    @property
    def node_name(self):
        """'#comment'."""
        return "#comment"


@cython.no_gc_clear
cdef class ProcessingInstruction(CharacterData):
    """A ProcessingInstruction `<?target data?>`."""

    @property
    def target(self):
        """The target: 'xml-stylesheet' of <?xml-stylesheet ...?>."""
        cdef CProcessingInstruction* node = <CProcessingInstruction*> self._c()
        return decode_utf8(node.target, node.target_length)

    @property
    def node_name(self):
        """The target."""
        return self.target

    def __repr__(self):
        return "<ProcessingInstruction %s %r>" % (self.target, self.data)
