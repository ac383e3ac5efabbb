# The tree dump: the format of the "#document" blocks of html5lib-tests'
# tree-construction .dat files (see their README), byte for byte, built
# iteratively in one C buffer. Not in the standard.
#
#   | <html>                   element: "<" designator local-name ">"
#   |   <svg svg>              designators: "svg ", "math ", none for HTML
#   |     xlink href="v"       attributes on their own lines, sorted
#   |   "text"
#   |   <!-- comment -->
#   |   <?target data?>
#   |   content                a template's contents

from libc.stdlib cimport qsort


cdef struct SortedAttribute:
    const uint8_t* name           # the "attribute name string" (in scratch)
    size_t name_length
    uint32_t index                # position on the element (ties: stable)


cdef inline uint32_t decode_code_point(const uint8_t* s, size_t length) noexcept nogil:
    """The code point at s (lenient: a broken sequence gives its first byte)."""
    cdef uint8_t c = s[0]
    if c < 0x80 or length < 2:
        return c
    if c < 0xE0:
        return ((c & 0x1F) << 6) | (s[1] & 0x3F)
    if c < 0xF0 or length < 4:
        if length < 3:
            return c
        return ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F)
    return ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) \
        | (s[3] & 0x3F)


cdef inline uint32_t utf16_first_unit(uint32_t code_point) noexcept nogil:
    if code_point < 0x10000:
        return code_point
    return 0xD800 + ((code_point - 0x10000) >> 10)


cdef int compare_utf16(const uint8_t* a, size_t a_length, const uint8_t* b,
                       size_t b_length) noexcept nogil:
    """Order of two UTF-8 strings by UTF-16 code units (the .dat README's
    order for attribute names)."""
    cdef size_t n = a_length if a_length < b_length else b_length
    cdef size_t i = 0
    cdef uint32_t ca, cb, ua, ub
    while i < n and a[i] == b[i]:
        i += 1
    if i == n:
        return (a_length > b_length) - (a_length < b_length)
    while i > 0 and (a[i] & 0xC0) == 0x80:      # back to the character's start
        i -= 1
    ca = decode_code_point(a + i, a_length - i)
    cb = decode_code_point(b + i, b_length - i)
    ua = utf16_first_unit(ca)
    ub = utf16_first_unit(cb)
    if ua != ub:
        return -1 if ua < ub else 1
    return (ca > cb) - (ca < cb)


cdef int compare_sorted_attributes(const void* left,
                                   const void* right) noexcept nogil:
    cdef const SortedAttribute* a = <const SortedAttribute*> left
    cdef const SortedAttribute* b = <const SortedAttribute*> right
    cdef int order = compare_utf16(a.name, a.name_length, b.name, b.name_length)
    if order != 0:
        return order
    return (a.index > b.index) - (a.index < b.index)


cdef inline int write_line_start(Buffer* out, size_t depth) noexcept nogil:
    if out.length:
        buffer_byte(out, 0x0A)
    buffer_write(out, <const uint8_t*> b"| ", 2)
    return buffer_spaces(out, depth * 2)


cdef int write_attribute_name_string(Buffer* out, CDocument* doc,
                                     CAttr* attr) noexcept nogil:
    """The .dat README's "attribute name string": "xlink href", "xml lang",
    "xmlns xlink", or the plain (possibly prefixed) name."""
    cdef size_t length, prefix_length
    cdef const uint8_t* local_name = attribute_name(doc, attr.local_name, &length)
    cdef const uint8_t* prefix
    if attr.ns == NS_XLINK:
        buffer_write_c(out, "xlink ")
    elif attr.ns == NS_XML:
        buffer_write_c(out, "xml ")
    elif attr.ns == NS_XMLNS:
        buffer_write_c(out, "xmlns ")
    elif attr.ns != NS__UNDEF and attr.prefix != 0:
        prefix = attribute_name(doc, attr.prefix, &prefix_length)
        buffer_write(out, prefix, prefix_length)
        buffer_byte(out, 0x3A)
    return buffer_write(out, local_name, length)


cdef int dump_attributes(Buffer* out, CElement* element, size_t depth,
                         Buffer* scratch) noexcept nogil:
    cdef CDocument* doc = element.node.owner
    cdef SortedAttribute* sorted_attributes
    cdef size_t* offsets
    cdef uint32_t i, count = element.attr_count
    cdef CAttr* attr
    if count == 0:
        return 0
    sorted_attributes = <SortedAttribute*> malloc(count * sizeof(SortedAttribute))
    offsets = <size_t*> malloc((count + 1) * sizeof(size_t))
    if sorted_attributes == NULL or offsets == NULL:
        free(sorted_attributes)
        free(offsets)
        out.failed = True
        return -1
    scratch.length = 0
    for i in range(count):
        offsets[i] = scratch.length
        write_attribute_name_string(scratch, doc, &element.attrs[i])
    offsets[count] = scratch.length
    if scratch.failed:
        out.failed = True
    else:
        for i in range(count):
            sorted_attributes[i].name = scratch.data + offsets[i]
            sorted_attributes[i].name_length = offsets[i + 1] - offsets[i]
            sorted_attributes[i].index = i
        qsort(sorted_attributes, count, sizeof(SortedAttribute),
              compare_sorted_attributes)
        for i in range(count):
            attr = &element.attrs[sorted_attributes[i].index]
            write_line_start(out, depth)
            buffer_write(out, sorted_attributes[i].name,
                         sorted_attributes[i].name_length)
            buffer_write(out, <const uint8_t*> b'="', 2)
            buffer_write(out, attr.value, attr.value_length)
            buffer_byte(out, 0x22)
    free(sorted_attributes)
    free(offsets)
    return -1 if out.failed else 0


cdef int dump_node(Buffer* out, CNode* node, size_t depth,
                   Buffer* scratch) noexcept nogil:
    cdef CElement* element
    cdef CCharacterData* data
    cdef CDocumentType* doctype
    cdef size_t length
    cdef const uint8_t* name
    write_line_start(out, depth)
    if node.type == ELEMENT_NODE:
        element = <CElement*> node
        buffer_byte(out, 0x3C)
        if element.ns == NS_SVG:
            buffer_write_c(out, "svg ")
        elif element.ns == NS_MATHML:
            buffer_write_c(out, "math ")
        elif element.ns != NS_HTML and element.prefix != 0:
            name = attribute_name(node.owner, element.prefix, &length)
            buffer_write(out, name, length)
            buffer_byte(out, 0x3A)
        name = element_local_name(element, &length)
        buffer_write(out, name, length)
        buffer_byte(out, 0x3E)
        dump_attributes(out, element, depth + 1, scratch)
    elif node.type == TEXT_NODE:
        data = <CCharacterData*> node
        buffer_byte(out, 0x22)
        buffer_write(out, data.data, data.length)
        buffer_byte(out, 0x22)
    elif node.type == COMMENT_NODE:
        data = <CCharacterData*> node
        buffer_write_c(out, "<!-- ")
        buffer_write(out, data.data, data.length)
        buffer_write_c(out, " -->")
    elif node.type == PROCESSING_INSTRUCTION_NODE:
        data = <CCharacterData*> node
        buffer_write_c(out, "<?")
        buffer_write(out, (<CProcessingInstruction*> data).target,
                     (<CProcessingInstruction*> data).target_length)
        buffer_byte(out, 0x20)
        buffer_write(out, data.data, data.length)
        buffer_write_c(out, "?>")
    elif node.type == DOCUMENT_TYPE_NODE:
        doctype = <CDocumentType*> node
        buffer_write_c(out, "<!DOCTYPE ")
        buffer_write(out, doctype.name, doctype.name_length)
        if doctype.public_id_length or doctype.system_id_length:
            buffer_write_c(out, ' "')
            buffer_write(out, doctype.public_id, doctype.public_id_length)
            buffer_write_c(out, '" "')
            buffer_write(out, doctype.system_id, doctype.system_id_length)
            buffer_byte(out, 0x22)
        buffer_byte(out, 0x3E)
    elif node.type == DOCUMENT_FRAGMENT_NODE:      # a template's contents
        buffer_write_c(out, "content")
    return -1 if out.failed else 0


cdef int dump_tree(Buffer* out, CNode* root) noexcept nogil:
    """Dump root's children (a template's contents first, as "content")."""
    return dump_tree_as(out, root, False)


cdef CNode* dump_text_run(Buffer* out, CNode* node, size_t depth) noexcept nogil:
    """A run of adjacent text nodes as the one text a parse makes of them
    (nothing where they are all empty); returns the run's last node."""
    cdef CNode* last = node
    cdef CNode* following
    cdef size_t total = (<CCharacterData*> node).length
    following = node.next
    while following != NULL and following.type == TEXT_NODE:
        total += (<CCharacterData*> following).length
        last = following
        following = following.next
    if total == 0:
        return last
    write_line_start(out, depth)
    buffer_byte(out, 0x22)
    while True:
        buffer_write(out, (<CCharacterData*> node).data, (<CCharacterData*> node).length)
        if node == last:
            break
        node = node.next
    buffer_byte(out, 0x22)
    return last


cdef int dump_tree_as(Buffer* out, CNode* root, bint merge_text) noexcept nogil:
    """dump_tree; with merge_text, adjacent text nodes are dumped as one
    and empty ones not at all (as the tree a serialization parses to has
    them: to_source()'s check)."""
    cdef Buffer scratch
    cdef CNode* node = walk_first_child(root)
    cdef CNode* following
    cdef size_t depth = 0
    memset(&scratch, 0, sizeof(Buffer))
    while node != NULL and not out.failed:
        if merge_text and node.type == TEXT_NODE:
            node = dump_text_run(out, node, depth)
        else:
            dump_node(out, node, depth, &scratch)
        following = walk_first_child(node)
        if following != NULL:
            node = following
            depth += 1
            continue
        while node != NULL:
            following = walk_next_sibling(node, True)
            if following != NULL:
                node = following
                break
            node = walk_parent(node)
            if node == root:
                node = NULL
            else:
                depth -= 1
    free(scratch.data)
    return -1 if out.failed else 0


def dump(node):
    """The node's children in the html5lib tree-construction test format:
    exactly the "#document" block of a .dat test (lines joined with "\\n",
    no final newline)."""
    cdef Node checked = as_node(node, "node")
    cdef CNode* c_node = checked.c_node
    cdef Buffer out
    memset(&out, 0, sizeof(Buffer))
    begin_reading(c_node.owner)         # (as serialize_html does)
    with nogil:
        dump_tree(&out, c_node)
    end_reading(c_node.owner)
    return buffer_finish(&out)
