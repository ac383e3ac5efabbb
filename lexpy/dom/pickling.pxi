# Pickling: a compact binary encoding of a tree (not HTML text, so trees
# the serializer cannot round-trip come back identical), written and read
# in C without the GIL, iteratively (no recursion over depth). Not in any
# standard; the format is lexpy's own:
#
#   header   "LXP" 0x01, a flags byte (quirks mode in bits 0-1, the
#            scripting flag in bit 2)
#   a node   one type byte, then the node's fields:
#     ELEMENT  byte 0x01 | ELEMENT_* bits; tag name; [namespace]; [prefix];
#              [attribute count, then each: name << 1 | has namespace or
#              prefix, [namespace, prefix + 1 (0: none)], value]; when
#              ELEMENT_CHILDREN: the child nodes, then END
#     TEXT, COMMENT           data
#     PROCESSING_INSTRUCTION  target, data
#     DOCUMENT_TYPE           a byte of present fields (name 1, public
#                             id 2, system id 4), then those strings
#     DOCUMENT, FRAGMENT      (the root only) the children, then END
#     CONTENT                 a template's contents (the first child of
#                             the template), its children, then END
#   numbers  unsigned LEB128 varints; a string is its length and its UTF-8
#   names    a reference into the pickle's own tables of tag names,
#            attribute names (prefixes too) and namespace URIs: 0 is a new
#            name, whose string follows and which takes the next number
#            (1, 2, ...), so names are spelled once and ids of one lexpy
#            build never leak into a pickle.
#
# The decoder checks every length and reference against the data, so a
# truncated or corrupt pickle raises ValueError; it does not re-validate
# UTF-8 (pickle.loads of untrusted data is unsafe by design anyway).

from cpython.bytes cimport (PyBytes_AS_STRING, PyBytes_FromStringAndSize,
                            PyBytes_GET_SIZE)


cdef enum:
    PICKLE_VERSION = 1
    RECORD_END = 0
    RECORD_CONTENT = 6               # not a node type: template contents
    ELEMENT_OTHER_NAMESPACE = 0x10   # namespace not HTML: a reference follows
    ELEMENT_PREFIX = 0x20
    ELEMENT_ATTRIBUTES = 0x40
    ELEMENT_CHILDREN = 0x80


cdef struct NameMap:                 # id of the document -> pickle reference
    uint32_t* refs
    uint32_t size
    uint32_t next_ref


cdef inline int varint_write(Buffer* out, uint64_t value) noexcept nogil:
    cdef uint8_t bytes_[10]
    cdef int n = 0
    while value >= 0x80:
        bytes_[n] = <uint8_t> (value & 0x7f) | 0x80
        value >>= 7
        n += 1
    bytes_[n] = <uint8_t> value
    return buffer_write(out, bytes_, n + 1)


cdef inline int string_write(Buffer* out, const uint8_t* data,
                             size_t length) noexcept nogil:
    varint_write(out, length)
    return buffer_write(out, data, length)


cdef int name_ref_write(Buffer* out, NameMap* names, uint32_t id,
                        const uint8_t* name, size_t length) noexcept nogil:
    """The reference of a name: its number when written before, else 0 and
    the name (which takes the next number)."""
    if id < names.size and names.refs[id] != 0:
        return varint_write(out, names.refs[id])
    if id < names.size:
        names.next_ref += 1
        names.refs[id] = names.next_ref
    varint_write(out, 0)
    return string_write(out, name, length)


cdef inline int tag_ref_write(Buffer* out, NameMap* names,
                              CElement* element) noexcept nogil:
    cdef size_t length
    cdef const uint8_t* name
    if element.tag_id < names.size and names.refs[element.tag_id] != 0:
        return varint_write(out, names.refs[element.tag_id])
    name = element_local_name(element, &length)
    return name_ref_write(out, names, element.tag_id, name, length)


cdef inline int attr_ref_write(Buffer* out, NameMap* names, CDocument* doc,
                               lxp_attr_id_t id) noexcept nogil:
    cdef size_t length
    cdef const uint8_t* name
    if id < names.size and names.refs[id] != 0:
        return varint_write(out, names.refs[id])
    name = attribute_name(doc, id, &length)
    return name_ref_write(out, names, id, name, length)


cdef inline int ns_ref_write(Buffer* out, NameMap* names, CDocument* doc,
                             lxp_ns_id_t ns) noexcept nogil:
    cdef size_t length
    cdef const uint8_t* uri
    if ns < names.size and names.refs[ns] != 0:
        return varint_write(out, names.refs[ns])
    uri = namespace_uri_of(doc, ns, &length)
    return name_ref_write(out, names, ns, uri, length)


cdef int name_map_init(NameMap* names, uint32_t size) noexcept nogil:
    names.size = size
    names.next_ref = 0
    names.refs = <uint32_t*> calloc(size if size else 1, sizeof(uint32_t))
    return 0 if names.refs != NULL else -1


cdef struct TreeEncoder:
    Buffer* out
    CDocument* doc
    NameMap tags
    NameMap attrs
    NameMap namespaces


cdef int node_record_write(TreeEncoder* encoder, CNode* node,
                           CNode* root) noexcept nogil:
    """One node's record (without its children)."""
    cdef Buffer* out = encoder.out
    cdef CElement* element
    cdef CAttr* attr
    cdef CCharacterData* data
    cdef CProcessingInstruction* pi
    cdef CDocumentType* doctype
    cdef uint8_t kind
    cdef uint32_t i
    if node.type == ELEMENT_NODE:
        element = <CElement*> node
        kind = ELEMENT_NODE
        if element.ns != NS_HTML:
            kind |= ELEMENT_OTHER_NAMESPACE
        if element.prefix:
            kind |= ELEMENT_PREFIX
        if element.attr_count:
            kind |= ELEMENT_ATTRIBUTES
        if walk_first_child(node) != NULL:
            kind |= ELEMENT_CHILDREN
        buffer_byte(out, kind)
        tag_ref_write(out, &encoder.tags, element)
        if kind & ELEMENT_OTHER_NAMESPACE:
            ns_ref_write(out, &encoder.namespaces, encoder.doc, element.ns)
        if kind & ELEMENT_PREFIX:
            attr_ref_write(out, &encoder.attrs, encoder.doc, element.prefix)
        if kind & ELEMENT_ATTRIBUTES:
            varint_write(out, element.attr_count)
            for i in range(element.attr_count):
                attr = &element.attrs[i]
                # The reference and the flag share a varint: (ref << 1) | flag.
                if attr.local_name < encoder.attrs.size \
                        and encoder.attrs.refs[attr.local_name] != 0:
                    varint_write(out, (<uint64_t> encoder.attrs.refs[attr.local_name] << 1)
                                 | (attr.ns != 0 or attr.prefix != 0))
                else:
                    varint_write(out, <uint64_t> (attr.ns != 0 or attr.prefix != 0))
                    attr_new_name_write(encoder, attr.local_name)
                if attr.ns != 0 or attr.prefix != 0:
                    ns_ref_write(out, &encoder.namespaces, encoder.doc, attr.ns)
                    if attr.prefix:
                        varint_write(out, 1)  # "a prefix": its reference follows
                        attr_ref_write(out, &encoder.attrs, encoder.doc, attr.prefix)
                    else:
                        varint_write(out, 0)
                string_write(out, attr.value, attr.value_length)
        return -1 if out.failed else 0
    if node.type == TEXT_NODE or node.type == COMMENT_NODE:
        data = <CCharacterData*> node
        buffer_byte(out, <uint8_t> node.type)
        return string_write(out, data.data, data.length)
    if node.type == PROCESSING_INSTRUCTION_NODE:
        pi = <CProcessingInstruction*> node
        buffer_byte(out, PROCESSING_INSTRUCTION_NODE)
        string_write(out, pi.target, pi.target_length)
        return string_write(out, pi.character_data.data, pi.character_data.length)
    if node.type == DOCUMENT_TYPE_NODE:
        doctype = <CDocumentType*> node
        buffer_byte(out, DOCUMENT_TYPE_NODE)
        buffer_byte(out, (1 if doctype.name != NULL else 0)
                    | (2 if doctype.public_id != NULL else 0)
                    | (4 if doctype.system_id != NULL else 0))
        if doctype.name != NULL:
            string_write(out, doctype.name, doctype.name_length)
        if doctype.public_id != NULL:
            string_write(out, doctype.public_id, doctype.public_id_length)
        if doctype.system_id != NULL:
            string_write(out, doctype.system_id, doctype.system_id_length)
        return -1 if out.failed else 0
    if node.type == DOCUMENT_FRAGMENT_NODE:
        if node != root and fragment_host(node) != NULL:
            return buffer_byte(out, RECORD_CONTENT)
        return buffer_byte(out, DOCUMENT_FRAGMENT_NODE)
    if node.type == DOCUMENT_NODE:
        return buffer_byte(out, DOCUMENT_NODE)
    return -1


cdef int attr_new_name_write(TreeEncoder* encoder, lxp_attr_id_t id) noexcept nogil:
    # The string of a new attribute name (its 0 reference is already out).
    cdef size_t length
    cdef const uint8_t* name = attribute_name(encoder.doc, id, &length)
    if id < encoder.attrs.size:
        encoder.attrs.next_ref += 1
        encoder.attrs.refs[id] = encoder.attrs.next_ref
    return string_write(encoder.out, name, length)


cdef inline bint record_has_end(CNode* node) noexcept nogil:
    """Whether a record is closed by END: containers always, elements when
    they have children (or template contents)."""
    if node.type == ELEMENT_NODE:
        return walk_first_child(node) != NULL
    return node.type == DOCUMENT_NODE or node.type == DOCUMENT_FRAGMENT_NODE


cdef int tree_encode(CNode* root, Buffer* out) noexcept nogil:
    """The pickle of root's subtree (template contents included)."""
    cdef TreeEncoder encoder
    cdef CDocument* doc = root.owner
    cdef CNode* node = root
    cdef CNode* child
    cdef int status = -1
    encoder.out = out
    encoder.doc = doc
    encoder.tags.refs = encoder.attrs.refs = encoder.namespaces.refs = NULL
    if name_map_init(&encoder.tags, doc.tag_names.first_id + doc.tag_names.count) == 0 \
            and name_map_init(&encoder.attrs, doc.attr_names.first_id
                              + doc.attr_names.count) == 0 \
            and name_map_init(&encoder.namespaces, NS__LAST_STATIC + (
                doc.namespaces.count if doc.namespaces != NULL else 0)) == 0:
        buffer_write(out, <const uint8_t*> b"LXP", 3)
        buffer_byte(out, PICKLE_VERSION)
        buffer_byte(out, <uint8_t> ((doc.quirks_mode & 3) | ((doc.scripting != 0) << 2)))
        node_record_write(&encoder, root, root)
        while not out.failed:
            child = walk_first_child(node) if node.type == ELEMENT_NODE \
                or node.type == DOCUMENT_NODE or node.type == DOCUMENT_FRAGMENT_NODE \
                else NULL
            if child != NULL:
                node = child
                node_record_write(&encoder, node, root)
                continue
            if node.type == DOCUMENT_NODE or node.type == DOCUMENT_FRAGMENT_NODE:
                buffer_byte(out, RECORD_END)      # an empty container
            # Up to the next node after this subtree, closing parents.
            while node != root:
                child = walk_next_sibling(node, True)
                if child != NULL:
                    node = child
                    node_record_write(&encoder, node, root)
                    break
                node = walk_parent(node)
                buffer_byte(out, RECORD_END)
            else:
                status = 0 if not out.failed else -1
                break
    free(encoder.tags.refs)
    free(encoder.attrs.refs)
    free(encoder.namespaces.refs)
    return status


# -- decoding ---------------------------------------------------------------

cdef struct RefTable:                # pickle reference -> id of the document
    uint32_t* ids
    uint32_t count
    uint32_t capacity


cdef struct TreeDecoder:
    const uint8_t* pos
    const uint8_t* end
    CDocument* doc
    RefTable tags
    RefTable attrs
    RefTable namespaces
    const char* error               # what is wrong with the data


cdef inline int decode_fail(TreeDecoder* d, const char* message) noexcept nogil:
    if d.error == NULL:
        d.error = message
    return -1


cdef inline int varint_read(TreeDecoder* d, uint64_t* value) noexcept nogil:
    cdef uint64_t result = 0
    cdef int shift = 0
    cdef uint8_t byte
    while True:
        if d.pos >= d.end:
            return decode_fail(d, "the data ends inside a number")
        byte = d.pos[0]
        d.pos += 1
        if shift == 63 and byte > 1:
            return decode_fail(d, "a number is too large")
        result |= (<uint64_t> (byte & 0x7f)) << shift
        if byte < 0x80:
            value[0] = result
            return 0
        shift += 7
        if shift > 63:
            return decode_fail(d, "a number is too large")


cdef inline int string_read(TreeDecoder* d, const uint8_t** data,
                            size_t* length) noexcept nogil:
    cdef uint64_t n
    if varint_read(d, &n) != 0:
        return -1
    if n > <uint64_t> (d.end - d.pos):
        return decode_fail(d, "a string runs past the end of the data")
    data[0] = d.pos
    length[0] = <size_t> n
    d.pos += n
    return 0


cdef int ref_table_add(TreeDecoder* d, RefTable* table, uint32_t id) noexcept nogil:
    cdef uint32_t capacity
    cdef uint32_t* ids
    if table.count == table.capacity:
        capacity = table.capacity * 2 if table.capacity else 64
        ids = <uint32_t*> realloc(table.ids, capacity * sizeof(uint32_t))
        if ids == NULL:
            return decode_fail(d, "out of memory")
        table.ids = ids
        table.capacity = capacity
    table.ids[table.count] = id
    table.count += 1
    return 0


cdef enum NameKind:
    NAME_TAG
    NAME_ATTR
    NAME_NAMESPACE


cdef int name_read(TreeDecoder* d, NameKind kind, uint64_t ref,
                   uint32_t* id) noexcept nogil:
    """The document id of a reference already read (0: a new name, read
    here)."""
    cdef RefTable* table = &d.tags if kind == NAME_TAG else (
        &d.attrs if kind == NAME_ATTR else &d.namespaces)
    cdef const uint8_t* name
    cdef size_t length
    cdef uint32_t new_id
    if ref != 0:
        if ref > table.count:
            return decode_fail(d, "a name reference points past its table")
        id[0] = table.ids[ref - 1]
        return 0
    if string_read(d, &name, &length) != 0:
        return -1
    if kind == NAME_TAG:
        new_id = tag_id_by_name(d.doc.tag_names, name, length, True)
    elif kind == NAME_ATTR:
        new_id = attr_id_by_name(d.doc.attr_names, name, length, True)
    elif length == 0:
        new_id = NS__UNDEF
    else:
        new_id = namespace_id(d.doc, name, length, True)
    if new_id == 0 and not (kind == NAME_NAMESPACE and length == 0):
        return decode_fail(d, "out of memory")
    id[0] = new_id
    return ref_table_add(d, table, new_id)


cdef inline int name_ref_read(TreeDecoder* d, NameKind kind,
                              uint32_t* id) noexcept nogil:
    cdef uint64_t ref
    if varint_read(d, &ref) != 0:
        return -1
    return name_read(d, kind, ref, id)


cdef CNode* element_record_read(TreeDecoder* d, uint8_t kind) noexcept nogil:
    cdef uint32_t tag_id, ns = NS_HTML, prefix = 0, local_name, attr_ns, attr_prefix
    cdef uint64_t count, word, has_prefix
    cdef uint64_t i
    cdef CElement* element
    cdef const uint8_t* value
    cdef size_t length
    cdef uint8_t* copy
    if name_ref_read(d, NAME_TAG, &tag_id) != 0:
        return NULL
    if kind & ELEMENT_OTHER_NAMESPACE and name_ref_read(d, NAME_NAMESPACE, &ns) != 0:
        return NULL
    if kind & ELEMENT_PREFIX and name_ref_read(d, NAME_ATTR, &prefix) != 0:
        return NULL
    element = element_create(d.doc, tag_id, ns)
    if element == NULL:
        decode_fail(d, "out of memory")
        return NULL
    element.prefix = prefix
    if kind & ELEMENT_ATTRIBUTES:
        if varint_read(d, &count) != 0:
            return NULL
        # Each attribute takes at least two bytes: a larger count is corrupt
        # (and must not size an allocation).
        if count == 0 or count > <uint64_t> (d.end - d.pos) // 2:
            decode_fail(d, "a bad attribute count")
            return NULL
        if element_reserve_attributes(element, <uint32_t> count) != 0:
            decode_fail(d, "out of memory")
            return NULL
        for i in range(count):
            if varint_read(d, &word) != 0 \
                    or name_read(d, NAME_ATTR, word >> 1, &local_name) != 0:
                return NULL
            attr_ns = attr_prefix = 0
            if word & 1:
                if name_ref_read(d, NAME_NAMESPACE, &attr_ns) != 0 \
                        or varint_read(d, &has_prefix) != 0:
                    return NULL
                if has_prefix > 1:
                    decode_fail(d, "a bad attribute prefix flag")
                    return NULL
                if has_prefix and name_ref_read(d, NAME_ATTR, &attr_prefix) != 0:
                    return NULL
            if string_read(d, &value, &length) != 0:
                return NULL
            copy = dom_copy(d.doc, value, length)
            if copy == NULL or element_add_attribute(
                    element, local_name, attr_ns, attr_prefix, copy, length) != 0:
                decode_fail(d, "out of memory")
                return NULL
    return &element.node


cdef CNode* leaf_record_read(TreeDecoder* d, uint8_t kind) noexcept nogil:
    """A Text, Comment, ProcessingInstruction or DocumentType record."""
    cdef const uint8_t* data
    cdef size_t length
    cdef const uint8_t* target
    cdef size_t target_length
    cdef const uint8_t* strings[3]
    cdef size_t lengths[3]
    cdef uint8_t present
    cdef int i
    cdef CCharacterData* character_data
    cdef CDocumentType* doctype
    if kind == TEXT_NODE or kind == COMMENT_NODE or kind == PROCESSING_INSTRUCTION_NODE:
        if kind == PROCESSING_INSTRUCTION_NODE \
                and string_read(d, &target, &target_length) != 0:
            return NULL
        if string_read(d, &data, &length) != 0:
            return NULL
        character_data = character_data_create(d.doc, kind)
        if character_data == NULL or character_data_set(character_data, data,
                                                        length) != 0 \
                or (kind == PROCESSING_INSTRUCTION_NODE
                    and processing_instruction_set_target(
                        character_data, target, target_length) != 0):
            decode_fail(d, "out of memory")
            return NULL
        return &character_data.node
    if kind == DOCUMENT_TYPE_NODE:
        if d.pos >= d.end:
            decode_fail(d, "the data ends inside a doctype")
            return NULL
        present = d.pos[0]
        d.pos += 1
        if present > 7:
            decode_fail(d, "a bad doctype record")
            return NULL
        for i in range(3):
            strings[i] = NULL
            lengths[i] = 0
            if present & (1 << i) and string_read(d, &strings[i], &lengths[i]) != 0:
                return NULL
        doctype = doctype_create(d.doc)
        if doctype == NULL or doctype_set(doctype, strings[0], lengths[0], strings[1],
                                          lengths[1], strings[2], lengths[2]) != 0:
            decode_fail(d, "out of memory")
            return NULL
        return &doctype.node
    decode_fail(d, "an unknown record type")
    return NULL


cdef CNode* tree_decode(TreeDecoder* d) noexcept nogil:
    """The root of the tree the data encodes, built in d.doc (the Document
    itself for a document's pickle; otherwise a detached node). NULL with
    d.error set when the data is not a whole, valid pickle."""
    cdef uint8_t kind
    cdef CNode* root
    cdef CNode* parent
    cdef CNode* node
    if d.end - d.pos < 6 or memcmp(d.pos, b"LXP", 3) != 0:
        decode_fail(d, "not a lexpy tree pickle")
        return NULL
    if d.pos[3] != PICKLE_VERSION:
        decode_fail(d, "a pickle of another format version")
        return NULL
    if (d.pos[4] & 3) > LIMITED_QUIRKS or d.pos[4] > 7:
        decode_fail(d, "a bad header")
        return NULL
    d.doc.quirks_mode = d.pos[4] & 3
    d.doc.scripting = (d.pos[4] >> 2) & 1
    d.pos += 5
    kind = d.pos[0]
    d.pos += 1
    if kind == DOCUMENT_NODE:
        root = &d.doc.node
    elif kind == DOCUMENT_FRAGMENT_NODE:
        root = <CNode*> document_fragment_create(d.doc)
        if root == NULL:
            decode_fail(d, "out of memory")
            return NULL
    elif kind & 0x0f == ELEMENT_NODE:
        root = element_record_read(d, kind)
    else:
        root = leaf_record_read(d, kind)
    if root == NULL:
        return NULL
    parent = root if record_read_has_children(kind) else NULL
    while parent != NULL:
        if d.pos >= d.end:
            decode_fail(d, "the data ends inside the tree")
            return NULL
        kind = d.pos[0]
        d.pos += 1
        if kind == RECORD_END:
            if parent == root:
                break
            parent = walk_parent(parent)
            continue
        if kind == RECORD_CONTENT:
            node = template_content_of(parent)
            if node == NULL or node.first_child != NULL:
                decode_fail(d, "template contents outside a template")
                return NULL
            parent = node
            continue
        if kind & 0x0f == ELEMENT_NODE:
            node = element_record_read(d, kind)
        elif kind == DOCUMENT_TYPE_NODE and parent.type != DOCUMENT_NODE:
            decode_fail(d, "a doctype outside a document")
            return NULL
        else:
            node = leaf_record_read(d, kind)
        if node == NULL:
            return NULL
        node_append_child(parent, node)
        if kind & 0x0f == ELEMENT_NODE and kind & ELEMENT_CHILDREN:
            parent = node
    if d.pos != d.end:
        decode_fail(d, "data after the end of the tree")
        return NULL
    return root


cdef inline bint record_read_has_children(uint8_t kind) noexcept nogil:
    if kind == DOCUMENT_NODE or kind == DOCUMENT_FRAGMENT_NODE:
        return True
    return kind & 0x0f == ELEMENT_NODE and (kind & ELEMENT_CHILDREN) != 0


# -- the Python side --------------------------------------------------------

cdef bytes tree_to_bytes(Node node):
    """The pickle data of a node's subtree (see the top of this file)."""
    cdef CNode* c_node = live(node)
    cdef Buffer out
    cdef int status
    cdef bytes result
    memset(&out, 0, sizeof(Buffer))
    begin_reading(c_node.owner)
    with nogil:
        status = tree_encode(c_node, &out)
    end_reading(c_node.owner)
    try:
        if status != 0:
            raise MemoryError()
        result = PyBytes_FromStringAndSize(<const char*> out.data, out.length)
    finally:
        free(out.data)
    return result


def _tree_from_bytes(data, encoding="UTF-8", errors=()):
    """The node a pickle's data encodes, in a new Document (the Document
    itself for a document's pickle): what pickle.loads calls. ValueError
    when `data` is not valid pickle data."""
    cdef Document doc = Document.__new__(Document)
    cdef TreeDecoder d
    cdef CNode* root
    if not isinstance(data, bytes):
        raise TypeError("data must be bytes, not %s" % type(data).__name__)
    if not isinstance(encoding, str):
        raise TypeError("encoding must be a str, not %s" % type(encoding).__name__)
    memset(&d, 0, sizeof(TreeDecoder))
    d.doc = doc.c_doc
    if len(<bytes> data) == 0:
        raise ValueError("corrupt lexpy pickle: no data")
    d.pos = <const uint8_t*> PyBytes_AS_STRING(data)
    d.end = d.pos + PyBytes_GET_SIZE(data)
    doc.c_doc.building += 1              # no reclaiming while nodes are loose
    with nogil:
        root = tree_decode(&d)
    doc.c_doc.building -= 1
    free(d.tags.ids)
    free(d.attrs.ids)
    free(d.namespaces.ids)
    if root == NULL:
        raise ValueError("corrupt lexpy pickle: %s"
                         % (d.error.decode("ascii") if d.error != NULL else "unknown error"))
    doc.encoding_name = encoding
    doc.parse_errors = list(errors)
    return node_proxy(root)


cdef tuple node_reduce(Node node):
    """__reduce__ of every node class: a Document keeps its encoding and
    parse errors; any other node comes back detached, in a Document of its
    own with the quirks mode and scripting flag of its document."""
    cdef Document doc
    if node.c_node != NULL and node.c_node.type == DOCUMENT_NODE:
        doc = <Document> node
        return (_tree_from_bytes, (tree_to_bytes(node), doc.encoding_name,
                                   tuple(document_errors(doc))))
    return (_tree_from_bytes, (tree_to_bytes(node),))
