# cython: language_level=3
"""The DOM (not implemented yet: this module holds the C API of dom.pxd as
placeholders so the tree builder builds against it)."""

from libc.stdint cimport uint8_t, uint32_t
from lexpy.tokenizer.names cimport lxp_tag_id_t, lxp_attr_id_t, lxp_ns_id_t


cdef uint8_t* dom_alloc(CDocument* doc, size_t size) noexcept nogil:
    return NULL

cdef void dom_shrink(CDocument* doc, uint8_t* block, size_t old_size,
                     size_t new_size) noexcept nogil:
    pass

cdef CElement* element_create(CDocument* doc, lxp_tag_id_t tag_id,
                              lxp_ns_id_t ns) noexcept nogil:
    return NULL

cdef int element_add_attribute(CElement* element, lxp_attr_id_t local_name,
                               lxp_ns_id_t ns, lxp_attr_id_t prefix,
                               uint8_t* value, size_t value_length) noexcept nogil:
    return -1

cdef CAttr* element_find_attribute(CElement* element, lxp_attr_id_t local_name,
                                   lxp_ns_id_t ns) noexcept nogil:
    return NULL

cdef CCharacterData* text_create(CDocument* doc) noexcept nogil:
    return NULL

cdef CCharacterData* comment_create(CDocument* doc) noexcept nogil:
    return NULL

cdef CCharacterData* processing_instruction_create(CDocument* doc) noexcept nogil:
    return NULL

cdef uint8_t* character_data_reserve(CCharacterData* node,
                                     size_t extra) noexcept nogil:
    return NULL

cdef void character_data_commit(CCharacterData* node,
                                size_t written) noexcept nogil:
    pass

cdef int processing_instruction_set_target(CCharacterData* node,
                                           const uint8_t* target,
                                           size_t length) noexcept nogil:
    return -1

cdef CDocumentType* doctype_create(CDocument* doc) noexcept nogil:
    return NULL

cdef void node_append_child(CNode* parent, CNode* child) noexcept nogil:
    pass

cdef void node_insert_before(CNode* parent, CNode* child,
                             CNode* reference) noexcept nogil:
    pass

cdef void node_remove(CNode* node) noexcept nogil:
    pass

cdef CNode* node_clone(CNode* node, bint deep) noexcept nogil:
    return NULL


cdef class Node:
    pass


cdef class Document(Node):
    pass


cdef Document document_new():
    return Document.__new__(Document)


cdef Node node_proxy(CNode* c_node):
    return None
