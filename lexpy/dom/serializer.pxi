# The HTML serializer: the standard's "serializing HTML fragments"
# algorithm, over the C structs, into one growing buffer, iteratively.
# https://html.spec.whatwg.org/multipage/parsing.html#serialising-html-fragments
#
# Everything below is `noexcept nogil` C: no Python object is touched until
# the finished buffer is decoded to str once.


cdef extern from "escape.h" nogil:
    enum: LXP_ESCAPE_ROOM
    size_t lxp_escape_copy(const uint8_t* s, size_t i, size_t n, uint8_t* d,
                           int attribute_mode)
    size_t lxp_escape_replace(uint8_t* d, uint8_t c, uint8_t next, size_t* consumed)


# https://html.spec.whatwg.org/multipage/parsing.html#escapingString
# (text mode: &, U+00A0, <, >; attribute mode: &, U+00A0, ", <, >)
cdef int write_escaped(Buffer* out, const uint8_t* data, size_t length,
                       bint attribute_mode) noexcept nogil:
    cdef size_t i = 0
    cdef size_t k, written, consumed
    if out.failed:
        return -1
    while True:
        # Room for the rest as it is and the scan's bytes past it; a
        # replacement (at most 6 bytes for 1 or 2) fits in that room too.
        if out.capacity - out.length < length - i + LXP_ESCAPE_ROOM:
            if buffer_grow(out, length - i + LXP_ESCAPE_ROOM) != 0:
                return -1
        # The runs between the bytes to look at are copied as they are.
        k = lxp_escape_copy(data, i, length, out.data + out.length, attribute_mode)
        out.length += k - i
        if k >= length:
            return 0
        written = lxp_escape_replace(out.data + out.length, data[k],
                                     data[k + 1] if k + 1 < length else 0, &consumed)
        if written == 0:                                # another U+0080..U+00BF
            out.data[out.length] = data[k]
            out.length += 1
        out.length += written
        i = k + consumed


cdef inline bint serializes_as_void(CElement* element) noexcept nogil:
    # https://html.spec.whatwg.org/multipage/parsing.html#serializes-as-void
    return (lxp_tag_category_of(element.tag_id, element.ns) & CAT_VOID) != 0


cdef inline bint text_is_raw(CNode* text) noexcept nogil:
    """Whether the text's parent is an element whose text the standard
    writes without escaping (style, script, xmp, iframe, noembed, noframes,
    plaintext; noscript when scripting is enabled)."""
    cdef CNode* parent = text.parent
    cdef CElement* element
    if parent == NULL or parent.type != ELEMENT_NODE:
        return False
    element = <CElement*> parent
    if lxp_tag_category_of(element.tag_id, element.ns) & CAT_SERIALIZE_RAWTEXT:
        return True
    return element.tag_id == TAG_NOSCRIPT and element.ns == NS_HTML \
        and text.owner.scripting != 0


cdef int write_element_name(Buffer* out, CElement* element) noexcept nogil:
    """The element's tagname: the local name in the HTML, MathML and SVG
    namespaces, the qualified name elsewhere."""
    cdef size_t length
    cdef const uint8_t* name
    if element.prefix != 0 and element.ns != NS_HTML and element.ns != NS_SVG \
            and element.ns != NS_MATHML:
        name = attribute_name(element.node.owner, element.prefix, &length)
        buffer_write(out, name, length)
        buffer_byte(out, 0x3A)
    name = element_local_name(element, &length)
    return buffer_write(out, name, length)


# https://html.spec.whatwg.org/multipage/parsing.html#attribute's-serialized-name
cdef inline int write_attribute_name(Buffer* out, CDocument* doc,
                                     CAttr* attr) noexcept nogil:
    cdef size_t length, prefix_length
    cdef const uint8_t* local_name = attribute_name(doc, attr.local_name, &length)
    cdef const uint8_t* prefix
    if attr.ns == NS__UNDEF:
        pass
    elif attr.ns == NS_XML:
        buffer_write_c(out, "xml:")
    elif attr.ns == NS_XMLNS:
        if not (length == 5 and memcmp(local_name, b"xmlns", 5) == 0):
            buffer_write_c(out, "xmlns:")
    elif attr.ns == NS_XLINK:
        buffer_write_c(out, "xlink:")
    elif attr.prefix != 0:
        prefix = attribute_name(doc, attr.prefix, &prefix_length)
        buffer_write(out, prefix, prefix_length)
        buffer_byte(out, 0x3A)
    return buffer_write(out, local_name, length)


cdef inline int write_start_tag(Buffer* out, CElement* element) noexcept nogil:
    """An element's start tag, as the algorithm writes it."""
    cdef uint32_t i
    buffer_byte(out, 0x3C)
    write_element_name(out, element)
    for i in range(element.attr_count):
        buffer_byte(out, 0x20)
        write_attribute_name(out, element.node.owner, &element.attrs[i])
        buffer_write(out, <const uint8_t*> b'="', 2)
        write_escaped(out, element.attrs[i].value,
                      element.attrs[i].value_length, True)
        buffer_byte(out, 0x22)
    return buffer_byte(out, 0x3E)


cdef inline int write_text(Buffer* out, CNode* node) noexcept nogil:
    """A text node: as it is in raw text, else escaped."""
    cdef CCharacterData* data = <CCharacterData*> node
    if text_is_raw(node):
        return buffer_write(out, data.data, data.length)
    return write_escaped(out, data.data, data.length, False)


cdef inline int write_comment_or_pi(Buffer* out, CNode* node) noexcept nogil:
    """A comment or a processing instruction (other nodes: nothing)."""
    cdef CCharacterData* data = <CCharacterData*> node
    if node.type == COMMENT_NODE:
        buffer_write_c(out, "<!--")
        buffer_write(out, data.data, data.length)
        buffer_write_c(out, "-->")
    elif node.type == PROCESSING_INSTRUCTION_NODE:
        buffer_write_c(out, "<?")
        buffer_write(out, (<CProcessingInstruction*> data).target,
                     (<CProcessingInstruction*> data).target_length)
        buffer_byte(out, 0x20)
        buffer_write(out, data.data, data.length)
        buffer_write_c(out, "?>")
    return 0


cdef int write_start(Buffer* out, CNode* node) noexcept nogil:
    """What the algorithm writes for a node before its children. (Its
    parts are inline: the modes of serializer_modes.pxi write nodes with
    them too, and to_html() walks as fast.)"""
    cdef CDocumentType* doctype
    if node.type == ELEMENT_NODE:
        write_start_tag(out, <CElement*> node)
    elif node.type == TEXT_NODE:
        write_text(out, node)
    elif node.type == DOCUMENT_TYPE_NODE:
        doctype = <CDocumentType*> node
        buffer_write_c(out, "<!DOCTYPE ")
        buffer_write(out, doctype.name, doctype.name_length)
        buffer_byte(out, 0x3E)
    else:
        write_comment_or_pi(out, node)
    return -1 if out.failed else 0


cdef inline bint has_serialized_children(CNode* node) noexcept nogil:
    if node.type == ELEMENT_NODE:
        return not serializes_as_void(<CElement*> node)
    return node.type == DOCUMENT_NODE or node.type == DOCUMENT_FRAGMENT_NODE


cdef inline int write_end(Buffer* out, CNode* node) noexcept nogil:
    if node.type == ELEMENT_NODE and not serializes_as_void(<CElement*> node):
        buffer_write(out, <const uint8_t*> b"</", 2)
        write_element_name(out, <CElement*> node)
        buffer_byte(out, 0x3E)
    return -1 if out.failed else 0


cdef int serialize_tree(Buffer* out, CNode* root, bint include_root) noexcept nogil:
    """Serialize root's children (include_root false) or root itself. A
    template contributes its contents, not its own children."""
    cdef CNode* node
    cdef CNode* child
    if include_root:
        node = root
    else:
        if not has_serialized_children(root):
            return 0
        node = walk_first_child(root)
        if node == NULL:
            return 0
    while not out.failed:
        write_start(out, node)
        child = walk_first_child(node) if has_serialized_children(node) else NULL
        if child != NULL:
            node = child
            continue
        write_end(out, node)
        while True:
            if node == root:
                return -1 if out.failed else 0
            child = walk_next_sibling(node, False)
            if child != NULL:
                node = child
                break
            node = walk_parent(node)
            if node == NULL or (node == root and not include_root):
                return -1 if out.failed else 0
            write_end(out, node)
    return -1


cdef inline size_t presize_for_source(size_t source_length) noexcept nogil:
    """The source length and a sixteenth, or 0 (no hint) when that does not
    fit a size_t (a 32-bit size_t past 3.7 GiB)."""
    if source_length > (<size_t> -1) - source_length // 16:
        return 0
    return source_length + source_length // 16


cdef str serialize_html(CNode* node, bint include_self):
    cdef Buffer out
    cdef CDocument* c_doc = node.owner
    memset(&out, 0, sizeof(Buffer))
    # The walk is C over the structs: other threads run meanwhile (DESIGN.md
    # decision 8); the caller's proxy keeps the document alive, and
    # begin_reading makes the API refuse changes to it until the walk ends.
    begin_reading(c_doc)
    with nogil:
        if node.type == DOCUMENT_NODE:
            # A parsed document's HTML is about as long as its source: the
            # buffer is made once at that size (and a bit) instead of being
            # copied as it doubles.
            buffer_presize(&out, presize_for_source(c_doc.source_length))
        serialize_tree(&out, node, include_self)
    end_reading(c_doc)
    return buffer_finish(&out)


# The rules above for lexpy.dom.options_serializer (lexpy.serialize with
# html5lib's options), so that its output follows the same tables and the
# same escaping as to_html(): the rules live here once.
SERIALIZES_AS_VOID = 1      # no end tag, no children
RAW_TEXT = 2                # child text written as it is


def _serialization_rules(local_name, bint scripting):
    """SERIALIZES_AS_VOID and RAW_TEXT bits of an HTML element named
    `local_name` (noscript is RAW_TEXT when `scripting`)."""
    cdef bytes name = encode_utf8(local_name, "local_name")
    cdef lxp_tag_id_t tag_id = tag_id_by_name(NULL, name, len(name), False)
    cdef uint32_t category
    cdef int rules = 0
    if tag_id == 0:
        return 0
    category = lxp_tag_category_of(tag_id, NS_HTML)
    if category & CAT_VOID:
        rules |= SERIALIZES_AS_VOID
    if category & CAT_SERIALIZE_RAWTEXT or (tag_id == TAG_NOSCRIPT and scripting):
        rules |= RAW_TEXT
    return rules


def _escape(data, bint attribute_mode):
    """The standard's "escaping a string": &, U+00A0, < and > (and " in
    attribute mode), as to_html() writes text and attribute values."""
    cdef bytes utf8 = encode_utf8(data, "data")
    cdef Buffer out
    memset(&out, 0, sizeof(Buffer))
    write_escaped(&out, utf8, len(utf8), attribute_mode)
    return buffer_finish(&out)


cdef int serialize_children_utf8(CNode* node, uint8_t** data, size_t* length,
                                 size_t* code_points, uint32_t* max_char) noexcept nogil:
    cdef Buffer out
    memset(&out, 0, sizeof(Buffer))
    data[0] = NULL
    length[0] = 0
    # (about as long as the source: one buffer, no copies as it grows)
    buffer_presize(&out, presize_for_source(node.owner.source_length))
    if serialize_tree(&out, node, False) != 0 or out.failed:
        free(out.data)
        return -1
    utf8_measure(out.data, out.length, code_points, max_char)
    data[0] = out.data
    length[0] = out.length
    return 0


cdef str serialized_str(uint8_t* data, size_t length, size_t code_points, uint32_t max_char):
    try:
        # (a long one written without the GIL, as to_html() does)
        return measured_utf8_str(data, length, code_points, max_char,
                                 length >= DECODE_WITHOUT_GIL)
    finally:
        free(data)
