# cython: language_level=3
"""The HTML tokenizer (not implemented yet: this module holds the C API of
tokenizer.pxd as placeholders so the other modules build against it)."""

from libc.stdint cimport uint8_t, uint32_t
from lexpy.tokenizer.names cimport lxp_tag_id_t, lxp_attr_id_t


cdef int error_list_add(ErrorList* errors, const char* code,
                        uint32_t line, uint32_t column) except -1 nogil:
    return 0

cdef void error_list_clear(ErrorList* errors) noexcept nogil:
    pass

cdef NameTable* name_table_create(uint32_t first_id) noexcept nogil:
    return NULL

cdef void name_table_destroy(NameTable* table) noexcept nogil:
    pass

cdef uint32_t name_table_intern(NameTable* table, const uint8_t* name,
                                size_t length) noexcept nogil:
    return 0

cdef const uint8_t* name_table_get(NameTable* table, uint32_t id,
                                   size_t* length) noexcept nogil:
    return NULL

cdef lxp_tag_id_t tag_id_by_name(NameTable* tags, const uint8_t* name,
                                 size_t length, bint intern) noexcept nogil:
    return 0

cdef lxp_attr_id_t attr_id_by_name(NameTable* attrs, const uint8_t* name,
                                   size_t length, bint intern) noexcept nogil:
    return 0

cdef const uint8_t* tag_name_of(NameTable* tags, lxp_tag_id_t id,
                                size_t* length) noexcept nogil:
    return NULL

cdef const uint8_t* attr_name_of(NameTable* attrs, lxp_attr_id_t id,
                                 size_t* length) noexcept nogil:
    return NULL

cdef size_t convert_text(const uint8_t* src, size_t length, uint32_t flags,
                         uint8_t* dest) noexcept nogil:
    return 0

cdef struct Tokenizer:
    int placeholder

cdef Tokenizer* tokenizer_create(NameTable* tags, NameTable* attrs,
                                 bint processing_instructions,
                                 ErrorList* errors) noexcept nogil:
    return NULL

cdef void tokenizer_destroy(Tokenizer* tokenizer) noexcept nogil:
    pass

cdef void tokenizer_set_callback(Tokenizer* tokenizer, TokenCallback callback,
                                 void* context) noexcept nogil:
    pass

cdef int tokenizer_feed(Tokenizer* tokenizer, const uint8_t* chunk,
                        size_t length) noexcept nogil:
    return 0

cdef int tokenizer_finish(Tokenizer* tokenizer) noexcept nogil:
    return 0

cdef void tokenizer_set_state(Tokenizer* tokenizer,
                              TokenizerState state) noexcept nogil:
    pass

cdef void tokenizer_set_last_start_tag(Tokenizer* tokenizer,
                                       lxp_tag_id_t tag) noexcept nogil:
    pass

cdef void tokenizer_set_cdata_allowed(Tokenizer* tokenizer,
                                      bint allowed) noexcept nogil:
    pass

cdef void tokenizer_position(Tokenizer* tokenizer, size_t offset,
                             uint32_t* line, uint32_t* column) noexcept nogil:
    pass
