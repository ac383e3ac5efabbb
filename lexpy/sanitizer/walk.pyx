# cython: language_level=3
"""The sanitize walk in C over the DOM's arena: a configuration compiled to
tables over the document's name ids, then one iterative walk (template
contents included) without the GIL, applying the Sanitizer API's "sanitize
core" steps and, for the safe methods, lexpy's baseline (baseline.pxi).
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t
from libc.stdlib cimport malloc, realloc, free, qsort
from libc.string cimport memchr, memcmp, memcpy, memset, strlen
from lexpy.core.names cimport *
from lexpy.core.core cimport tag_id_by_name, attr_id_by_name, attr_name_of
from lexpy.dom.dom cimport (
    CNode, CElement, CAttr, CCharacterData, CProcessingInstruction, CDocument,
    CDocumentFragment, Node, ELEMENT_NODE, TEXT_NODE, COMMENT_NODE,
    PROCESSING_INSTRUCTION_NODE, DOCUMENT_NODE, DOCUMENT_FRAGMENT_NODE,
    node_remove, node_insert_before, next_in_tree, element_remove_attribute_at, node_try_reclaim,
    namespace_id, namespace_uri_of, element_local_name, ascii_lower_byte, bytes_equal,
    text_create, character_data_reserve, character_data_commit, element_find_attribute,
    node_proxy, serialize_children_utf8, serialized_str)
from lexpy.driver.driver cimport construction_fragment_text

include "baseline.pxi"       # lexpy's safe baseline: elements, URLs, CSS
include "tables.pxi"         # the configuration as tables over name ids
include "urls.pxi"           # url_schemes and url_relative in the walk
include "core.pxi"           # the walk (sanitize core) and the Python API
include "compare.pxi"        # tree equality (the reparse check)
include "select.pxi"         # the elements the server options look at
include "stable.pxi"         # trees whose reparse cannot differ (the check skipped)
include "pipeline.pxi"       # the common call in one stretch without the GIL
