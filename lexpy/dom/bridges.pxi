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
    """The descendants of `node` in tree order as one list (a template's
    contents as its children): an element is (1, namespace URI or None,
    local name, attributes, has_children) with the attributes None or a
    list of (namespace URI or None, prefix or None, local name, value) as
    attribute_nodes() gives them, and, when it has children, None after
    the last of them; a text node is (3, data), a comment (8, data), a
    processing instruction (7, target, data), a doctype (10, name, public
    identifier, system identifier), a missing identifier None. Names are
    shared str objects. With `xml` true, the characters of data, values,
    targets and identifiers that XML cannot hold are U+FFFD. With
    `attribute_dicts` true, the attributes of an element whose attributes
    all have no namespace (and, with `xml`, ASCII XML names:
    is_plain_xml_name) are a dict of names to values instead of a list.
    Iterative, by parent links: any depth."""
    cdef CNode* root = live(node)
    cdef CDocument* c_doc = root.owner
    cdef CNode* current = bridge_children(root)
    cdef CNode* parent
    cdef CElement* element
    cdef CCharacterData* character_data
    cdef CProcessingInstruction* instruction
    cdef CDocumentType* doctype
    cdef CAttr* attr
    cdef uint32_t i
    cdef size_t length
    cdef const uint8_t* text
    cdef list events = []
    cdef object attributes
    cdef dict plain
    cdef dict element_names = {}
    cdef dict attribute_names = {}
    cdef dict namespaces = {}
    cdef object key, names, namespace, prefix, local_name
    cdef bint has_children
    while current != NULL:
        if current.type == ELEMENT_NODE:
            element = <CElement*> current
            key = (<uint64_t> element.tag_id << 32) | element.ns
            names = element_names.get(key)
            if names is None:
                text = element_local_name(element, &length)
                local_name = decode_utf8(text, length)
                if element.ns == NS__UNDEF:
                    namespace = None
                else:
                    text = namespace_uri_of(c_doc, element.ns, &length)
                    namespace = decode_utf8(text, length)
                names = (namespace, local_name)
                element_names[key] = names
            if element.attr_count == 0:
                attributes = None
            elif attribute_dicts and all_plain_attributes(element, xml):
                plain = {}
                for i in range(element.attr_count):
                    attr = &element.attrs[i]
                    local_name = attribute_names.get(attr.local_name)
                    if local_name is None:
                        text = attribute_name(c_doc, attr.local_name, &length)
                        local_name = decode_utf8(text, length)
                        attribute_names[attr.local_name] = local_name
                    plain[local_name] = event_text(attr.value, attr.value_length, xml)
                attributes = plain
            else:
                attributes = []
                for i in range(element.attr_count):
                    attr = &element.attrs[i]
                    if attr.ns == NS__UNDEF:
                        namespace = None
                    else:
                        namespace = namespaces.get(attr.ns)
                        if namespace is None:
                            text = namespace_uri_of(c_doc, attr.ns, &length)
                            namespace = decode_utf8(text, length)
                            namespaces[attr.ns] = namespace
                    prefix = None
                    if attr.prefix:
                        prefix = attribute_names.get(attr.prefix)
                        if prefix is None:
                            text = attribute_name(c_doc, attr.prefix, &length)
                            prefix = decode_utf8(text, length)
                            attribute_names[attr.prefix] = prefix
                    local_name = attribute_names.get(attr.local_name)
                    if local_name is None:
                        text = attribute_name(c_doc, attr.local_name, &length)
                        local_name = decode_utf8(text, length)
                        attribute_names[attr.local_name] = local_name
                    attributes.append((namespace, prefix, local_name,
                                       event_text(attr.value, attr.value_length, xml)))
            has_children = bridge_children(current) != NULL
            events.append((1, (<tuple> names)[0], (<tuple> names)[1],
                           attributes, has_children))
            if has_children:
                current = bridge_children(current)
                continue
        elif current.type == TEXT_NODE or current.type == COMMENT_NODE:
            character_data = <CCharacterData*> current
            events.append((current.type,
                           event_text(character_data.data, character_data.length, xml)))
        elif current.type == PROCESSING_INSTRUCTION_NODE:
            instruction = <CProcessingInstruction*> current
            events.append((7, event_text(instruction.target, instruction.target_length, xml),
                           event_text(instruction.character_data.data,
                                      instruction.character_data.length, xml)))
        elif current.type == DOCUMENT_TYPE_NODE:
            doctype = <CDocumentType*> current
            events.append((10, decode_utf8(doctype.name, doctype.name_length),
                           optional_text(doctype.public_id, doctype.public_id_length),
                           optional_text(doctype.system_id, doctype.system_id_length)))
        # The next node: a sibling, else an ancestor's (closing each
        # element left on the way up).
        while True:
            if current.next != NULL:
                current = current.next
                break
            if current.parent == root:
                current = NULL
                break
            parent = bridge_parent(current)
            if parent == NULL or parent == root:
                current = NULL
                break
            events.append(None)
            current = parent
    return events
