# The tree as one flat list of events, for the bridges to other libraries'
# trees (lexpy.bs4, lexpy.html5lib, lexpy.etree): one C walk instead of a
# property call per node and field. Not in the DOM standard; lexpy's own.

cdef inline CNode* bridge_children(CNode* node) noexcept:
    """The first child in the bridges' model, where an HTML template's
    contents are its children."""
    cdef CElement* element
    if node.type == ELEMENT_NODE:
        element = <CElement*> node
        if element.template_content != NULL:
            return element.template_content.first_child
    return node.first_child


cdef inline CNode* bridge_parent(CNode* node) noexcept:
    """The parent in the bridges' model: a template's contents fragment
    stands for its template."""
    cdef CNode* parent = node.parent
    cdef CNode* host
    if parent != NULL and parent.type == DOCUMENT_FRAGMENT_NODE:
        host = (<CDocumentFragment*> parent).host
        if host != NULL and (<CElement*> host).template_content == parent:
            return host
    return parent


cdef str optional_text(const uint8_t* data, size_t length):
    return None if data == NULL else decode_utf8(data, length)


cdef bint outside_xml_chars(const uint8_t* data, size_t length) noexcept:
    """Whether UTF-8 `data` holds a character outside XML's Char production:
    a C0 control but tab, LF and CR, U+FFFE, U+FFFF, or a surrogate (which
    a user's str may have put in)."""
    cdef size_t i
    cdef uint8_t byte
    for i in range(length):
        byte = data[i]
        if byte < 0x20:
            if byte != 0x09 and byte != 0x0A and byte != 0x0D:
                return True
        elif byte == 0xEF:
            if i + 2 < length and data[i + 1] == 0xBF and data[i + 2] >= 0xBE:
                return True
        elif byte == 0xED:
            if i + 1 < length and data[i + 1] >= 0xA0:
                return True
    return False


_NOT_XML_CHAR = None


cdef str xml_chars(const uint8_t* data, size_t length):
    """The text of `data` with each character outside XML's Char
    production as U+FFFD."""
    global _NOT_XML_CHAR
    cdef str text = decode_utf8(data, length)
    if not outside_xml_chars(data, length):
        return text
    if _NOT_XML_CHAR is None:
        import re
        _NOT_XML_CHAR = re.compile(
            u"[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
    return _NOT_XML_CHAR.sub(u"\ufffd", text)


cdef bint is_plain_xml_name(const uint8_t* name, size_t length) noexcept:
    """Whether an attribute name is an ASCII XML name as it stands (letters,
    digits, '_', '-', '.'; not starting with a digit, '-' or '.'; not
    "xmlns"): such a name needs no coercion."""
    cdef size_t i
    cdef uint8_t byte
    if length == 0:
        return False
    for i in range(length):
        byte = name[i]
        if (0x61 <= byte <= 0x7A) or (0x41 <= byte <= 0x5A) or byte == 0x5F:
            continue
        if i > 0 and ((0x30 <= byte <= 0x39) or byte == 0x2D or byte == 0x2E):
            continue
        return False
    return not (length == 5 and memcmp(name, b"xmlns", 5) == 0)


cdef inline str event_text(const uint8_t* data, size_t length, bint xml):
    return xml_chars(data, length) if xml else decode_utf8(data, length)


cdef bint all_plain_attributes(CElement* element, bint xml) noexcept:
    """Whether no attribute of the element has a namespace (and, for `xml`,
    each has a plain XML name)."""
    cdef CDocument* c_doc = element.node.owner
    cdef const uint8_t* name
    cdef size_t length
    cdef uint32_t i
    for i in range(element.attr_count):
        if element.attrs[i].ns != NS__UNDEF or element.attrs[i].prefix:
            return False
        if xml:
            name = attribute_name(c_doc, element.attrs[i].local_name, &length)
            if not is_plain_xml_name(name, length):
                return False
    return True


def _tree_events(Node node not None, bint xml=False, bint attribute_dicts=False):
    """The descendants of `node` in tree order as a stream of events (a
    template's contents as its children): an element is (1, namespace URI
    or None, local name, attributes, has_children) with the attributes None
    or a list of (namespace URI or None, prefix or None, local name, value)
    as attribute_nodes() gives them, and, when it has children, None after
    the last of them; a text node is (3, data), a comment (8, data), a
    processing instruction (7, target, data), a doctype (10, name, public
    identifier, system identifier), a missing identifier None. Names are
    shared str objects. With `xml` true, the characters of data, values,
    targets and identifiers that XML cannot hold are U+FFFD. With
    `attribute_dicts` true, the attributes of an element whose attributes
    all have no namespace (and, with `xml`, ASCII XML names:
    is_plain_xml_name) are a dict of names to values instead of a list.

    An iterator, made one event at a time (a converter's garbage collector
    sees only what it keeps), walking by parent links: any depth. Changing
    the tree while it runs raises RuntimeError on the next event."""
    return _TreeEvents.create(node, xml, attribute_dicts)


@cython.final
cdef class _TreeEvents:
    """The iterator of _tree_events."""
    cdef Node owner              # keeps the document (and its arena) alive
    cdef CNode* root
    cdef CNode* current          # the next node to report, or NULL
    cdef Py_ssize_t pending_ends # None events due before `current`
    cdef uint64_t version
    cdef bint xml
    cdef bint attribute_dicts
    cdef dict element_names
    cdef dict attribute_names
    cdef dict namespaces

    @staticmethod
    cdef _TreeEvents create(Node node, bint xml, bint attribute_dicts):
        cdef _TreeEvents events = _TreeEvents.__new__(_TreeEvents)
        events.owner = node
        events.root = live(node)
        events.current = bridge_children(events.root)
        events.pending_ends = 0
        events.version = events.root.owner.version
        events.xml = xml
        events.attribute_dicts = attribute_dicts
        events.element_names = {}
        events.attribute_names = {}
        events.namespaces = {}
        return events

    def __iter__(self):
        return self

    cdef str attribute_name_text(self, CDocument* c_doc, lxp_attr_id_t id):
        cdef size_t length
        cdef const uint8_t* text
        cdef object name = self.attribute_names.get(id)
        if name is None:
            text = attribute_name(c_doc, id, &length)
            name = decode_utf8(text, length)
            self.attribute_names[id] = name
        return <str> name

    cdef object attributes_of(self, CElement* element):
        cdef CDocument* c_doc = element.node.owner
        cdef CAttr* attr
        cdef uint32_t i
        cdef size_t length
        cdef const uint8_t* text
        cdef dict plain
        cdef list attributes
        cdef object namespace, prefix
        if element.attr_count == 0:
            return None
        if self.attribute_dicts and all_plain_attributes(element, self.xml):
            plain = {}
            for i in range(element.attr_count):
                attr = &element.attrs[i]
                plain[self.attribute_name_text(c_doc, attr.local_name)] = \
                    event_text(attr.value, attr.value_length, self.xml)
            return plain
        attributes = []
        for i in range(element.attr_count):
            attr = &element.attrs[i]
            if attr.ns == NS__UNDEF:
                namespace = None
            else:
                namespace = self.namespaces.get(attr.ns)
                if namespace is None:
                    text = namespace_uri_of(c_doc, attr.ns, &length)
                    namespace = decode_utf8(text, length)
                    self.namespaces[attr.ns] = namespace
            prefix = self.attribute_name_text(c_doc, attr.prefix) if attr.prefix else None
            attributes.append((namespace, prefix,
                               self.attribute_name_text(c_doc, attr.local_name),
                               event_text(attr.value, attr.value_length, self.xml)))
        return attributes

    cdef tuple element_event(self, CElement* element, bint has_children):
        cdef size_t length
        cdef const uint8_t* text
        cdef object key = (<uint64_t> element.tag_id << 32) | element.ns
        cdef object names = self.element_names.get(key)
        if names is None:
            text = element_local_name(element, &length)
            local_name = decode_utf8(text, length)
            if element.ns == NS__UNDEF:
                namespace = None
            else:
                text = namespace_uri_of(element.node.owner, element.ns, &length)
                namespace = decode_utf8(text, length)
            names = (namespace, local_name)
            self.element_names[key] = names
        return (1, (<tuple> names)[0], (<tuple> names)[1],
                self.attributes_of(element), has_children)

    def __next__(self):
        cdef CNode* node
        cdef CNode* parent
        cdef CCharacterData* character_data
        cdef CProcessingInstruction* instruction
        cdef CDocumentType* doctype
        cdef object event
        cdef bint has_children = False
        if self.root.owner.version != self.version:
            raise RuntimeError("the tree changed while its events were read")
        if self.pending_ends:
            self.pending_ends -= 1
            return None
        node = self.current
        if node == NULL:
            raise StopIteration
        if node.type == ELEMENT_NODE:
            has_children = bridge_children(node) != NULL
            event = self.element_event(<CElement*> node, has_children)
        elif node.type == TEXT_NODE or node.type == COMMENT_NODE:
            character_data = <CCharacterData*> node
            event = (node.type, event_text(character_data.data,
                                           character_data.length, self.xml))
        elif node.type == PROCESSING_INSTRUCTION_NODE:
            instruction = <CProcessingInstruction*> node
            event = (7, event_text(instruction.target, instruction.target_length, self.xml),
                     event_text(instruction.character_data.data,
                                instruction.character_data.length, self.xml))
        elif node.type == DOCUMENT_TYPE_NODE:
            doctype = <CDocumentType*> node
            event = (10, decode_utf8(doctype.name, doctype.name_length),
                     optional_text(doctype.public_id, doctype.public_id_length),
                     optional_text(doctype.system_id, doctype.system_id_length))
        else:
            event = (node.type,)
        # The next node: the first child, else a sibling, else an
        # ancestor's (one None for each element left on the way up).
        if has_children:
            self.current = bridge_children(node)
            return event
        while True:
            if node.next != NULL:
                self.current = node.next
                break
            if node.parent == self.root:
                self.current = NULL
                break
            parent = bridge_parent(node)
            if parent == NULL or parent == self.root:
                self.current = NULL
                break
            self.pending_ends += 1
            node = parent
        return event
