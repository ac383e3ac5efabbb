# cython: language_level=3, wraparound=True
"""XPath 1.0 over lexpy's C tree: a lexer and a one-pass compiler to a flat
program of postfix ops (xpath.pxd), and a machine that evaluates it with
the axes walked in C over the arena (without the GIL where no Python
value is involved).

The DOM's xpath() methods come here through the hook this module's
package registers with lexpy.dom on import (the DOM does not import this
layer)."""

from libc.stdint cimport uint8_t, uint32_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memcpy, memset, memcmp, strlen
from libc.math cimport fmod, copysign
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeUTF8
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from lexpy.core.names cimport *
from lexpy.core.core cimport (
    NameTable, name_table_get, tag_id_by_name, attr_id_by_name, attr_name_of,
    lxp_byte_buffer, lxp_byte_buffer_append)
from lexpy.dom.dom cimport (
    CNode, CElement, CAttr, CDocument, CCharacterData, CProcessingInstruction, Node,
    node_proxy, next_in_tree, element_find_attribute, element_local_name,
    document_namespace_lookup, NO_SUCH_NAMESPACE,
    element_create, text_create, character_data_reserve, character_data_commit,
    node_append_child,
    ELEMENT_NODE, TEXT_NODE, CDATA_SECTION_NODE, COMMENT_NODE, PROCESSING_INSTRUCTION_NODE,
    DOCUMENT_NODE, DOCUMENT_TYPE_NODE, DOCUMENT_FRAGMENT_NODE)

cdef extern from "string.h" nogil:
    void* memmem(const void* haystack, size_t haystack_length, const void* needle,
                 size_t needle_length)

include "lexer.pxi"          # XPath 1.0 tokens
include "parser.pxi"         # the grammar -> postfix ops, in one pass
include "nodes.pxi"          # the axes, node tests and document order in C
include "fast.pxi"           # the common predicate shapes, evaluated in C
include "evaluate.pxi"       # conversions, comparisons, the machine
include "functions.pxi"      # the core library, EXSLT regexps, has-class(), extensions
include "api.pxi"            # compile_xpath, XPath, XPathString, the DOM's xpath()
