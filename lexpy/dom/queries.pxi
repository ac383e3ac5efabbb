# Finding elements: iter(), get_elements_by_tag_name, get_element_by_id,
# get_elements_by_class_name and class_list. The walks are C loops over the
# node structs in tree order (not into template contents, as the DOM's
# "descendants" are); a proxy is made only for an element that is returned.


# The DOM's "list of elements with qualified name"
# (https://dom.spec.whatwg.org/#concept-getelementsbytagname), as ids: an
# HTML element matches the ASCII-lowercased name, any other element the
# name as it is. Prefixed names are compared as strings.
cdef struct TagNameMatch:
    bint any                      # "*"
    bint by_string                # the name has a ':' (a prefix)
    lxp_tag_id_t html_id          # id of the lowercased name (0: none)
    lxp_tag_id_t other_id         # id of the name as it is (0: none)


cdef TagNameMatch tag_name_match(CDocument* c_doc, object qualified_name) except *:
    cdef TagNameMatch match
    cdef bytes lower, exact
    memset(&match, 0, sizeof(TagNameMatch))
    if not isinstance(qualified_name, str):
        raise TypeError("the tag name must be a str, not %s"
                        % type(qualified_name).__name__)
    if qualified_name == u"*":
        match.any = True
        return match
    if u":" in qualified_name:
        match.by_string = True
        return match
    lower = encode_utf8(ascii_lowercase(qualified_name), "tag name")
    exact = encode_utf8(qualified_name, "tag name")
    match.html_id = tag_id_by_name(c_doc.tag_names, lower, len(lower), False)
    match.other_id = tag_id_by_name(c_doc.tag_names, exact, len(exact), False)
    return match


cdef inline bint tag_name_matches(TagNameMatch* match, CElement* element) noexcept nogil:
    if match.any:
        return True
    if element.prefix != 0:
        return False
    if element.ns == NS_HTML:
        return match.html_id != 0 and element.tag_id == match.html_id
    return match.other_id != 0 and element.tag_id == match.other_id


cdef bint element_matches_name(Element element, TagNameMatch* match,
                               str qualified_name, str lowercase_name) except -1:
    cdef CElement* c_element = <CElement*> element.c_node
    if not match.by_string:
        return tag_name_matches(match, c_element)
    if c_element.ns == NS_HTML:
        return element.qualified_name == lowercase_name
    return element.qualified_name == qualified_name


cdef list elements_by_tag_name(Node root, object qualified_name):
    cdef CNode* c_root = live(root)
    cdef TagNameMatch match = tag_name_match(c_root.owner, qualified_name)
    cdef CNode* node = next_element_in_tree(c_root, c_root)
    cdef list result = []
    cdef str lowercase_name = None
    if match.by_string:
        lowercase_name = ascii_lowercase(qualified_name)
    elif not match.any and match.html_id == 0 and match.other_id == 0:
        return result                   # no element of the document has it
    while node != NULL:
        if match.by_string:
            if element_matches_name(<Element> node_proxy(node), &match,
                                    qualified_name, lowercase_name):
                result.append(node_proxy(node))
        elif tag_name_matches(&match, <CElement*> node):
            result.append(node_proxy(node))
        node = next_element_in_tree(node, c_root)
    return result


cdef Node element_by_id(Node root, object element_id):
    # https://dom.spec.whatwg.org/#dom-nonelementparentnode-getelementbyid
    cdef CNode* c_root = live(root)
    cdef bytes wanted
    cdef const uint8_t* c_wanted
    cdef size_t length
    cdef CNode* node
    cdef CAttr* attr
    if not isinstance(element_id, str):
        raise TypeError("the id must be a str, not %s" % type(element_id).__name__)
    wanted = encode_utf8(element_id, "id")
    c_wanted = wanted
    length = len(wanted)
    if length == 0:
        return None
    node = next_element_in_tree(c_root, c_root)
    while node != NULL:
        attr = element_find_attribute(<CElement*> node, ATTR_ID, NS__UNDEF)
        if attr != NULL and attr.value_length == length \
                and bytes_equal(attr.value, c_wanted, length, False):
            return node_proxy(node)
        node = next_element_in_tree(node, c_root)
    return None


cdef list split_on_ascii_whitespace(str value):
    # https://infra.spec.whatwg.org/#split-on-ascii-whitespace
    return value.translate(ASCII_WHITESPACE_TO_SPACE).split(u" ") \
        if value else []


cdef dict ASCII_WHITESPACE_TO_SPACE = {0x09: u" ", 0x0A: u" ", 0x0C: u" ",
                                       0x0D: u" "}


cdef list class_tokens(str value):
    """The ordered set of tokens of a class attribute value
    (https://dom.spec.whatwg.org/#concept-ordered-set-parser)."""
    cdef list tokens = []
    cdef set seen = set()
    for token in split_on_ascii_whitespace(value):
        if token and token not in seen:
            seen.add(token)
            tokens.append(token)
    return tokens


cdef bint element_has_class(CElement* element, const uint8_t* token,
                            size_t length, bint ascii_case_insensitive) noexcept nogil:
    cdef CAttr* attr = element_find_attribute(element, ATTR_CLASS, NS__UNDEF)
    return attr != NULL and value_has_token(attr.value, attr.value_length, token,
                                            length, ascii_case_insensitive)


cdef list elements_by_class_name(Node root, object class_names):
    # https://dom.spec.whatwg.org/#concept-getelementsbyclassname
    cdef CNode* c_root = live(root)
    cdef CNode* node
    cdef list wanted
    cdef list result = []
    cdef bint quirks
    cdef Py_ssize_t count, i
    cdef const uint8_t** tokens
    cdef size_t* lengths
    cdef bytes token
    if not isinstance(class_names, str):
        raise TypeError("class_names must be a str, not %s"
                        % type(class_names).__name__)
    wanted = [encode_utf8(name, "class_names") for name in class_tokens(class_names)]
    count = len(wanted)
    if count == 0:
        return result
    # In quirks mode classes match ASCII case-insensitively.
    quirks = c_root.owner.quirks_mode == QUIRKS
    tokens = <const uint8_t**> malloc(count * sizeof(uint8_t*))
    lengths = <size_t*> malloc(count * sizeof(size_t))
    if tokens == NULL or lengths == NULL:
        free(tokens)
        free(lengths)
        raise MemoryError()
    try:
        for i in range(count):
            token = wanted[i]
            tokens[i] = token
            lengths[i] = len(token)
        node = next_element_in_tree(c_root, c_root)
        while node != NULL:
            i = 0
            while i < count and element_has_class(<CElement*> node, tokens[i],
                                                  lengths[i], quirks):
                i += 1
            if i == count:
                result.append(node_proxy(node))
            node = next_element_in_tree(node, c_root)
    finally:
        free(tokens)
        free(lengths)
    return result


# Python-level walks: Node.__iter__, Node.descendants() and Node.iter().

cdef enum WalkKind:
    WALK_CHILDREN = 0             # Node.__iter__
    WALK_NODES = 1                # Node.descendants()
    WALK_ELEMENTS = 2             # Node.iter(tag)


@cython.final
@cython.no_gc_clear
cdef class TreeWalk:
    """An iterator over the children or the descendants of a node
    (Node.__iter__, Node.descendants(), Node.iter()). It holds only the
    proxy it last handed out; where to go on after a change comes from the
    document's version counter and the cursor (next sibling and parent of
    that node as pointers, which reclaiming forgets), so a step makes no
    proxy it does not return."""

    cdef Node root
    cdef Node current             # the node last handed out, or None
    cdef uint64_t version         # the document's version at the hand-out
    cdef WalkCursor cursor
    cdef Document registered      # the document whose walks list holds
                                  # the cursor (kept alive while it does)
    cdef uint32_t kind            # WalkKind
    cdef TagNameMatch match       # WALK_ELEMENTS
    cdef str tag                  # WALK_ELEMENTS with a prefixed name
    cdef str lowercase_tag
    cdef bint finished

    def __init__(self, *args, **kwargs):
        raise TypeError("TreeWalk objects are made by Node.descendants(), "
                        "Node.iter() and iter(node)")

    def __dealloc__(self):
        self._unregister()

    cdef void _register(self, CDocument* c_doc) noexcept:
        cdef WalkCursor* cursor = &self.cursor
        self.registered = <Document> c_doc.node.proxy
        cursor.prev = NULL
        cursor.next = c_doc.walks
        if c_doc.walks != NULL:
            c_doc.walks.prev = cursor
        c_doc.walks = cursor

    cdef void _unregister(self) noexcept:
        cdef WalkCursor* cursor = &self.cursor
        cdef CDocument* c_doc
        if self.registered is None:
            return
        c_doc = self.registered.c_doc
        if cursor.prev != NULL:
            cursor.prev.next = cursor.next
        else:
            c_doc.walks = cursor.next
        if cursor.next != NULL:
            cursor.next.prev = cursor.prev
        cursor.prev = cursor.next = NULL
        cursor.sibling = cursor.parent = NULL
        self.registered = None

    def __iter__(self):
        return self

    def __next__(self):
        cdef CNode* c_root = self.root.c_node
        cdef CDocument* c_doc = c_root.owner
        cdef CNode* node
        cdef Node proxy
        if self.finished:
            raise StopIteration
        if self.current is None:
            node = c_root.first_child
        elif self.kind == WALK_CHILDREN:
            node = self.current.c_node
            if node.parent == c_root:
                node = node.next
            elif self.cursor.sibling != NULL and self.cursor.sibling.parent == c_root:
                node = self.cursor.sibling
            else:
                node = NULL
        elif c_doc.version == self.version and self.registered.c_doc == c_doc:
            node = next_in_tree(self.current.c_node, c_root)
            if node != NULL:
                prefetch_walk_ahead(node)
        else:
            if self.registered.c_doc != c_doc:
                # root was adopted into another document: the cursor's
                # pointers are the old document's
                self._unregister()
                self._register(c_doc)
            node = resume_after_change(c_root, self.current.c_node,
                                       self.cursor.sibling, self.cursor.parent)
        if self.kind == WALK_ELEMENTS:
            node = self._next_element(node, c_root)
        if node == NULL:
            self.finished = True
            self.current = None
            self._unregister()
            raise StopIteration
        proxy = node_proxy(node)
        self.current = proxy
        self.cursor.sibling = node.next
        self.cursor.parent = node.parent
        self.version = c_doc.version
        return proxy

    cdef CNode* _next_element(self, CNode* node, CNode* c_root) except? NULL:
        """The first element from `node` on (node included) that the walk
        hands out."""
        if node != NULL and node.type != ELEMENT_NODE:
            node = next_element_in_tree(node, c_root)
        if self.tag is None:
            while node != NULL and not tag_name_matches(&self.match,
                                                        <CElement*> node):
                node = next_element_in_tree(node, c_root)
            return node
        while node != NULL and not element_matches_name(
                <Element> node_proxy(node), &self.match, self.tag,
                self.lowercase_tag):
            node = next_element_in_tree(node, c_root)
        return node


cdef TreeWalk tree_walk(Node root, uint32_t kind):
    cdef CNode* c_root = live(root)
    cdef TreeWalk walk = TreeWalk.__new__(TreeWalk)
    walk.root = root
    walk.kind = kind
    walk._register(c_root.owner)
    return walk


cdef TreeWalk iter_elements(Node root, object tag):
    """The iterator behind Node.iter(): elements in tree order, safe while
    the tree changes (as Node.descendants() is)."""
    cdef TreeWalk walk = tree_walk(root, WALK_ELEMENTS)
    if tag is None:
        tag = u"*"
    walk.match = tag_name_match(root.c_node.owner, tag)
    if walk.match.by_string:
        walk.tag = tag
        walk.lowercase_tag = ascii_lowercase(tag)
    elif not walk.match.any and walk.match.html_id == 0 \
            and walk.match.other_id == 0:
        walk.finished = True            # no element of the document has it
        walk._unregister()
    return walk


@cython.final
@cython.freelist(16)
cdef class ClassList:
    """The classes of an element as an ordered set of strings, kept in its
    class attribute (the DOM's DOMTokenList for classList): `in`, iteration,
    len(), add(), remove(), toggle(), replace(); `value` is the attribute's
    text."""

    cdef Element _element

    def __init__(self, element):
        if not isinstance(element, Element):
            raise TypeError("ClassList needs an Element, not %s"
                            % type(element).__name__)
        self._element = element

    def _tokens(self):
        value = self._element.get_attribute(u"class")
        return class_tokens(value) if value else []

    def _set(self, tokens):
        # https://dom.spec.whatwg.org/#concept-dtl-update
        if not tokens and not self._element.has_attribute(u"class"):
            return
        self._element.set_attribute(u"class", u" ".join(tokens))

    @staticmethod
    def _check(token):
        # https://dom.spec.whatwg.org/#dom-domtokenlist-add (steps 1.1-1.2)
        if not isinstance(token, str):
            raise TypeError("a class must be a str, not %s" % type(token).__name__)
        if not token:
            raise ValueError("a class must not be empty")
        if any(c in token for c in u"\t\n\x0c\r "):
            raise InvalidCharacterError("a class must not contain ASCII "
                                        "whitespace: %r" % token)
        return token

    @property
    def value(self):
        """The class attribute's value ('' when there is none)."""
        return self._element.get_attribute(u"class") or u""

    @value.setter
    def value(self, value):
        if not isinstance(value, str):
            raise TypeError("value must be a str, not %s" % type(value).__name__)
        self._element.set_attribute(u"class", value)

    def __contains__(self, token):
        # https://dom.spec.whatwg.org/#dom-domtokenlist-contains: the exact
        # token, looked for in the attribute's bytes (no list is made).
        cdef const uint8_t* data
        cdef Py_ssize_t length
        cdef bytes encoded
        if not isinstance(token, str):
            return False
        data = utf8_or_null(<str> token, &length)
        if data == NULL:
            encoded = encode_utf8(token, "token")
            data = encoded
            length = len(encoded)
        return element_has_class(self._element._c(), data, <size_t> length, False)

    def contains(self, token):
        """Whether the element has the class `token`."""
        return token in self

    def __iter__(self):
        return iter(self._tokens())

    def __len__(self):
        return len(self._tokens())

    def __getitem__(self, index):
        return self._tokens()[index]

    def add(self, *tokens):
        """Add each class that is not there yet (at the end)."""
        for token in tokens:
            self._check(token)
        current = self._tokens()
        for token in tokens:
            if token not in current:
                current.append(token)
        self._set(current)

    def remove(self, *tokens):
        """Remove each of the classes (no error when one is missing: the
        DOM's remove(), not set.remove())."""
        for token in tokens:
            self._check(token)
        self._set([t for t in self._tokens() if t not in tokens])

    def discard(self, *tokens):
        """Same as remove()."""
        self.remove(*tokens)

    def toggle(self, token, force=None):
        """Add the class when it is missing, remove it when it is there
        (force=True only adds, force=False only removes). Returns whether
        the class is there afterwards."""
        self._check(token)
        current = self._tokens()
        if token in current:
            if force is None or not force:
                current.remove(token)
                self._set(current)
                return False
            return True
        if force is None or force:
            current.append(token)
            self._set(current)
            return True
        return False

    def replace(self, token, new_token):
        """Put `new_token` where `token` is. Returns whether `token` was
        there."""
        self._check(token)
        self._check(new_token)
        current = self._tokens()
        if token not in current:
            return False
        index = current.index(token)
        if new_token in current:
            # The first of the two becomes new_token; the other goes.
            index = min(index, current.index(new_token))
            current = [t for t in current if t != token and t != new_token]
            current.insert(index, new_token)
        else:
            current[index] = new_token
        self._set(current)
        return True

    def __eq__(self, other):
        if isinstance(other, ClassList):
            return self._tokens() == (<ClassList> other)._tokens()
        return NotImplemented

    def __str__(self):
        return self.value

    def __repr__(self):
        return "ClassList(%r)" % self._tokens()
