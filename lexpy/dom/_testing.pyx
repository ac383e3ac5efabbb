# cython: language_level=3
"""Hooks for the unit tests (tests/dom/test_c_api.py, test_lifetime.py,
...), built only by a test build (LEXPY_TEST_BUILD=1; setup.py): they make
detached nodes through the C API of dom.pxd the way the tree builder does
(over-reserve, write, commit or shrink), without the DOM's name checks,
which parser-made names need not pass ("<div =x>" has an attribute named
"=x"), and read arena statistics. None of them links nodes into a tree
(tests link with the public, checked API), so none can make a cycle or a
tree the DOM's checks would refuse."""

from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memcpy
from lexpy.core.names cimport lxp_tag_id_t, lxp_attr_id_t, lxp_ns_id_t
from lexpy.core.core cimport tag_id_by_name, attr_id_by_name
from lexpy.dom.dom cimport (
    CDocument, CNode, CElement, CCharacterData, CDocumentType, Arena, ArenaBlock,
    BigBlock, Node, Document, TEXT_NODE, COMMENT_NODE, PROCESSING_INSTRUCTION_NODE,
    node_proxy, element_create, element_add_attribute, dom_alloc, dom_shrink,
    text_create, comment_create, processing_instruction_create,
    processing_instruction_set_target, character_data_reserve,
    character_data_commit, doctype_create, doctype_set, encode_utf8,
    document_namespace_id, document_attr_id,
    dom_streaming_start, node_free_during_build, element_create_with_room,
    element_append_attribute, dom_shrink_inline, text_create_with_room,
    character_data_commit_inline, dom_copy, dom_in_source, NS_HTML, NS__UNDEF)
from libc.string cimport memset
from lexpy.dom.dom cimport attribute_capacity as c_attribute_capacity
from lexpy.dom.dom import Element, Text


# The `building` value set_building uses (a tree builder sets 1).
cdef enum:
    TEST_BUILDING = 2


cdef CDocument* test_document(object document) except NULL:
    if not isinstance(document, Document):
        raise TypeError("document must be a Document")
    return (<Document> document).c_doc


def element(document, namespace, str local_name):
    """An element made by element_create (namespace None means none)."""
    cdef CDocument* c_doc = test_document(document)
    cdef bytes name = encode_utf8(local_name, "local_name")
    cdef lxp_ns_id_t ns = document_namespace_id(c_doc, namespace)
    cdef lxp_tag_id_t tag_id = tag_id_by_name(c_doc.tag_names, name, len(name), True)
    cdef CElement* element = element_create(c_doc, tag_id, ns)
    if element == NULL:
        raise MemoryError()
    return node_proxy(&element.node)


def add_attribute(Node element, namespace, prefix, str local_name,
                  str value):
    """element_add_attribute with a value written into over-allocated arena
    memory and then shrunk, as the tree builder's conversion does."""
    if not isinstance(element, Element):
        raise TypeError("element must be an Element")
    cdef CElement* c_element = <CElement*> element._node()
    cdef CDocument* c_doc = c_element.node.owner
    cdef bytes name = encode_utf8(local_name, "local_name")
    cdef bytes data = encode_utf8(value, "value")
    cdef lxp_attr_id_t local_id = attr_id_by_name(c_doc.attr_names, name,
                                                  len(name), True)
    cdef lxp_attr_id_t prefix_id = 0
    cdef lxp_ns_id_t ns = document_namespace_id(c_doc, namespace)
    cdef uint8_t* memory = dom_alloc(c_doc, 3 * len(data) + 1)
    if memory == NULL or local_id == 0:
        raise MemoryError()
    memcpy(memory, <const uint8_t*> data, len(data))
    dom_shrink(c_doc, memory, 3 * len(data) + 1, len(data))
    if prefix is not None:
        prefix_id = document_attr_id(c_doc, prefix)
    if element_add_attribute(c_element, local_id, ns, prefix_id, memory,
                             len(data)) != 0:
        raise MemoryError()


def character_data(document, int node_type, str data, target=None,
                   size_t chunk=0):
    """A Text/Comment/PI whose data arrives through character_data_reserve
    and character_data_commit, `chunk` bytes at a time (all at once for 0),
    each time reserving three times what is written."""
    cdef CDocument* c_doc = test_document(document)
    cdef bytes utf8 = encode_utf8(data, "data")
    cdef bytes target_utf8
    cdef const uint8_t* source = utf8
    cdef size_t length = len(utf8)
    cdef size_t done = 0, step
    cdef uint8_t* dest
    cdef CCharacterData* node
    if node_type == TEXT_NODE:
        node = text_create(c_doc)
    elif node_type == COMMENT_NODE:
        node = comment_create(c_doc)
    elif node_type == PROCESSING_INSTRUCTION_NODE:
        node = processing_instruction_create(c_doc)
    else:
        raise ValueError("not a character data node type: %d" % node_type)
    if node == NULL:
        raise MemoryError()
    if target is not None:
        if node_type != PROCESSING_INSTRUCTION_NODE:
            # Only a ProcessingInstruction struct has a target field.
            raise ValueError("only a processing instruction has a target")
        target_utf8 = encode_utf8(target, "target")
        if processing_instruction_set_target(node, target_utf8,
                                             len(target_utf8)) != 0:
            raise MemoryError()
    while True:
        step = length - done if chunk == 0 or chunk > length - done else chunk
        dest = character_data_reserve(node, 3 * step)
        if dest == NULL:
            raise MemoryError()
        memcpy(dest, source + done, step)
        character_data_commit(node, step)
        done += step
        if done >= length:
            break
    return node_proxy(&node.node)


def append_text(Node text, str data):
    """Append through reserve/commit (amortized growth)."""
    if not isinstance(text, Text):
        raise TypeError("text must be a Text")
    cdef CCharacterData* node = <CCharacterData*> text._node()
    cdef bytes utf8 = encode_utf8(data, "data")
    cdef uint8_t* dest = character_data_reserve(node, 3 * len(utf8))
    if dest == NULL:
        raise MemoryError()
    memcpy(dest, <const uint8_t*> utf8, len(utf8))
    character_data_commit(node, len(utf8))


def doctype(document, name, public_id, system_id):
    """A DocumentType by doctype_create/doctype_set (None: missing)."""
    cdef CDocument* c_doc = test_document(document)
    cdef CDocumentType* doctype = doctype_create(c_doc)
    cdef bytes n = encode_utf8(name, "name") if name is not None else b""
    cdef bytes p = encode_utf8(public_id, "public_id") if public_id is not None else b""
    cdef bytes s = encode_utf8(system_id, "system_id") if system_id is not None else b""
    cdef const uint8_t* n_data = n
    cdef const uint8_t* p_data = p
    cdef const uint8_t* s_data = s
    if doctype == NULL or doctype_set(
            doctype, n_data if name is not None else NULL, len(n),
            p_data if public_id is not None else NULL, len(p),
            s_data if system_id is not None else NULL, len(s)) != 0:
        raise MemoryError()
    return node_proxy(&doctype.node)


def set_building(document, bint building):
    """Mark the document as being built (detached nodes are then never
    reclaimed) and back. Refused for a document a tree builder is working
    on, which only the tree builder may release."""
    cdef CDocument* c_doc = test_document(document)
    if building:
        if c_doc.building:
            raise ValueError("the document is being built already")
        c_doc.building = TEST_BUILDING
    elif c_doc.building == TEST_BUILDING:
        c_doc.building = 0
    elif c_doc.building:
        raise ValueError("a tree builder is working on this document")


def arena_stats(document):
    """(bytes taken from malloc, free elements, free character data)."""
    cdef CDocument* c_doc = test_document(document)
    cdef size_t elements = 0, data = 0
    cdef CNode* node = c_doc.arena.free_elements
    while node != NULL:
        elements += 1
        node = <CNode*> node.proxy
    node = c_doc.arena.free_character_data
    while node != NULL:
        data += 1
        node = <CNode*> node.proxy
    return c_doc.arena.bytes_reserved, elements, data


def has_proxy(Node node):
    return node._node().proxy == <void*> node


def shared_with_input(Node node):
    """For a Text node or comment: whether its data lies in its document's
    kept input (CDocument.source_begin); for an element: the positions of
    the attributes (in their order) whose values do."""
    cdef CNode* c = node.c_node
    cdef CDocument* doc = c.owner
    cdef CElement* element
    cdef CCharacterData* data
    cdef uint32_t i
    if c.type == TEXT_NODE or c.type == COMMENT_NODE:
        data = <CCharacterData*> c
        return data.length != 0 and dom_in_source(doc, data.data, data.length)
    element = <CElement*> c
    return [i for i in range(element.attr_count)
            if element.attrs[i].value_length != 0 and dom_in_source(
                doc, element.attrs[i].value, element.attrs[i].value_length)]


def attribute_capacity(uint32_t capacity, uint32_t count):
    """attribute_capacity(): what an attribute array grows to."""
    return c_attribute_capacity(capacity, count)


def proxy_of_reclaimed(document):
    """node_proxy() of the first struct on the document's free list of
    elements (a reclaimed node): raises RuntimeError, as reaching any
    reclaimed node does; None when the list is empty."""
    cdef CNode* c_node = test_document(document).arena.free_elements
    if c_node == NULL:
        return None
    return node_proxy(c_node)


def arena_blocks(document):
    """(bump blocks, big blocks) of the document's arena."""
    cdef Arena* arena = &test_document(document).arena
    cdef size_t blocks = 0, bigs = 0
    cdef ArenaBlock* block = arena.blocks
    cdef BigBlock* big = arena.big
    while block != NULL:
        blocks += 1
        block = block.next
    while big != NULL:
        bigs += 1
        big = big.next
    return blocks, bigs


cdef bint holds_nothing(void* context, CNode* node) noexcept nogil:
    return False


def streaming_cycles(document, int rounds, int per_round):
    """A streaming document's allocation (arena.pxi) exercised the way a
    streaming parse does: each round makes `per_round` elements the tree
    builder's way (element_create_with_room: values of 1 to 40 bytes packed
    into the element's room, the unused tail given back), a Text node after
    each (text_create_with_room, then grown past its room) and a comment,
    sets one value of every third element to a longer one (a piece of its
    own), checks every value and text (overlapping regions would have
    overwritten some), then frees them all (node_free_during_build).
    Returns the arena's bytes_reserved after each round; raises
    AssertionError on a corrupted value."""
    cdef CDocument* c_doc = test_document(document)
    cdef CElement* element
    cdef CCharacterData* text
    cdef CCharacterData* comment
    cdef uint8_t* room
    cdef uint8_t* cursor
    cdef uint8_t* data
    cdef size_t extra, length
    cdef int r, i, j, count
    cdef list nodes, reserved = []
    cdef lxp_attr_id_t attr_id = attr_id_by_name(c_doc.attr_names, b"title", 5, True)
    cdef lxp_tag_id_t tag_id = tag_id_by_name(c_doc.tag_names, b"span", 4, True)
    if dom_streaming_start(c_doc) != 0:
        raise ValueError("the document has nodes already")
    for r in range(rounds):
        made = []
        for i in range(per_round):
            count = 1 + (i + r) % 3
            extra = 0
            for j in range(count):
                extra += 1 + (i * 7 + j * 13 + r) % 40
            element = element_create_with_room(c_doc, tag_id, NS_HTML, count, extra + 40, &room)
            if element == NULL:
                raise MemoryError()
            cursor = room
            for j in range(count):
                length = 1 + (i * 7 + j * 13 + r) % 40
                memset(cursor, 65 + (i + j) % 26, length)
                element_append_attribute(element, attr_id, NS__UNDEF, 0, cursor, length)
                cursor += length
            dom_shrink_inline(c_doc, room, extra + 40, <size_t> (cursor - room))
            if i % 3 == 0:
                value = bytes([97 + i % 26]) * (20 + i % 50)
                # (as attribute_set_value does with a longer value)
                data = dom_copy(c_doc, value, len(value))
                if data == NULL:
                    raise MemoryError()
                element.attrs[0].value = data
                element.attrs[0].value_length = len(value)
            data = text_create_with_room(c_doc, 64, &text)
            if data == NULL:
                raise MemoryError()
            length = 1 + i % 30
            memset(data, 48 + i % 10, length)
            character_data_commit_inline(text, length)
            data = character_data_reserve(text, 100 + i % 50)
            if data == NULL:
                raise MemoryError()
            memset(data, 48 + i % 10, 100 + i % 50)
            character_data_commit(text, 100 + i % 50)
            comment = comment_create(c_doc)
            if comment == NULL:
                raise MemoryError()
            data = character_data_reserve(comment, 7)
            if data == NULL:
                raise MemoryError()
            memcpy(data, <const uint8_t*> b"comment", 7)
            character_data_commit(comment, 7)
            made.append((<size_t> element, <size_t> text, <size_t> comment, i))
        for e, t, c, i in made:
            element = <CElement*> <size_t> e
            for j in range(element.attr_count):
                value = element.attrs[j].value[:element.attrs[j].value_length]
                if i % 3 == 0 and j == 0:
                    expected = bytes([97 + i % 26]) * (20 + i % 50)
                else:
                    expected = bytes([65 + (i + j) % 26]) * (1 + (i * 7 + j * 13 + r) % 40)
                assert value == expected, (r, i, j, value, expected)
            text = <CCharacterData*> <size_t> t
            assert text.data[:text.length] == bytes([48 + i % 10]) * (
                1 + i % 30 + 100 + i % 50), (r, i)
            comment = <CCharacterData*> <size_t> c
            assert comment.data[:comment.length] == b"comment", (r, i)
        for e, t, c, i in made:
            for node in (e, t, c):
                if node_free_during_build(<CNode*> <size_t> node, holds_nothing, NULL) != 0:
                    raise AssertionError("not freed")
        reserved.append(c_doc.arena.bytes_reserved)
    return reserved
