# cython: language_level=3
"""Text out of the tree, in C without the GIL: inner_text (the HTML
standard's innerText under the UA stylesheet), extract_text (readable,
block-structured plain text; main content with main_content=True) and
to_markdown (CommonMark with GFM tables).
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset, memcmp, strlen
from libc.stdio cimport snprintf
from cpython.unicode cimport PyUnicode_DecodeUTF8
from lexpy.core.names cimport *
from lexpy.dom.dom cimport (
    CNode, CElement, CAttr, CCharacterData, CDocument, Node, node_proxy,
    element_find_attribute, element_local_name, next_in_tree, utf8_measure,
    element_has_attribute as has_attribute, element_attribute_is as attribute_equals,
    measured_utf8_str,
    ELEMENT_NODE, TEXT_NODE, COMMENT_NODE, DOCUMENT_NODE, DOCUMENT_FRAGMENT_NODE,
    CDATA_SECTION_NODE)
from lexpy.core.core cimport attr_name_of, attr_id_by_name


# Every cdef function declares how it reports errors (noexcept: C that
# cannot fail, or reports failure in its return value).

include "display.pxi"        # the UA stylesheet's boxes, by tag id
include "writer.pxi"         # the output buffer and white-space state
include "collect.pxi"        # the rendered text walk (inner_text, extract_text)
include "main_content.pxi"   # main content: statistics, scores, the kept parts
include "markdown.pxi"       # to_markdown's walk
include "api.pxi"            # the Python functions
