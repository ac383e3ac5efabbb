# Cython declarations of utf8.h (hand-written): the UTF-8 encoder of one
# code point, shared by the tokenizer and the encoding layer.

from libc.stdint cimport uint8_t, uint32_t

cdef extern from "utf8.h" nogil:
    size_t lxp_utf8_write(uint32_t c, uint8_t* out)
