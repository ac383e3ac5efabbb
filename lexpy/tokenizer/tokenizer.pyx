# cython: language_level=3
"""The HTML tokenizer (not implemented yet: this module holds the C API of
tokenizer.pxd as placeholders so the other modules build against it)."""

from libc.stdint cimport uint8_t, uint32_t
from lexpy.tokenizer.names cimport *


include "errors.pxi"         # the parse-error list
include "name_table.pxi"     # dynamic tag and attribute ids


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
