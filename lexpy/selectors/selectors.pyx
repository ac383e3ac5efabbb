# cython: language_level=3
"""Selectors Level 4 over lexpy's C tree: a CSS Syntax tokenizer, a
compiler to flat C arrays (selectors.pxd) and a right-to-left matcher that
runs without Python objects and, for whole-subtree queries, without the GIL.

The DOM's query_selector, query_selector_all, matches and closest come
here through the hook this module registers with lexpy.dom on import (the
DOM does not import this layer)."""

from libc.stdint cimport uint8_t, uint32_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset, memcmp, strlen
from libc.math cimport pow
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from lexpy.core.names cimport *
from lexpy.core.core cimport (
    NameTable, name_table_get, tag_id_by_name, attr_id_by_name)
from lexpy.dom.dom cimport (
    CNode, CElement, CAttr, CDocument, CCharacterData, Node, Document,
    node_proxy, next_in_tree, next_element_in_tree, element_find_attribute,
    bytes_equal, value_has_token, element_has_attribute as has_attribute,
    element_attribute_is as attribute_is,
    element_local_name, document_namespace_lookup,
    ELEMENT_NODE, TEXT_NODE, CDATA_SECTION_NODE, DOCUMENT_NODE,
    DOCUMENT_FRAGMENT_NODE, QUIRKS)

cdef extern from "string.h" nogil:
    void* memmem(const void* haystack, size_t haystack_length, const void* needle,
                 size_t needle_length)

include "syntax.pxi"         # CSS Syntax Level 3 tokenizer
include "parser.pxi"         # the Selectors Level 4 grammar -> ProgramBuilder
include "program.pxi"        # the compiled form in C arrays
include "matching.pxi"       # right-to-left matching over the C tree
include "html.pxi"           # HTML's pseudo-classes, :lang(), :dir(), :-soup-contains()
include "api.pxi"            # compile_selector, Selector, the DOM's methods
