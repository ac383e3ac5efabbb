# cython: language_level=3
"""The DOM: C structs in a per-document arena, the Python node classes
over them, the HTML serializer and the tree dump (DESIGN.md decision 7).

The tree builder builds with the C API of dom.pxd; users read and change
the tree through the proxies (Node, Document, Element, Text, ...).
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, UINT32_MAX
from libc.stdlib cimport calloc
from lexpy.core.names cimport *
from lexpy.core.core cimport (
    NameTable, name_table_create, name_table_destroy, name_table_intern,
    name_table_get, tag_id_by_name, attr_id_by_name, tag_name_of,
    attr_name_of, ParseErrorRecord, error_list_clear)


# Every cdef function declares how it reports errors: `noexcept` (C that
# cannot fail, or reports failure in its return value) or `except ...`.
# Those returning a Python object carry no clause because Cython allows
# none there: they always propagate the exception.

from bisect import bisect_left, bisect_right

include "arena.pxi"          # the per-document arena and node free lists
include "nodes.pxi"          # node structs: creation, attributes, data, names
include "tree.pxi"           # linking, iterative walks, cloning, reclaiming
include "strings.pxi"        # str <-> UTF-8, the DOM's name checks
include "buffer.pxi"         # the growing output buffer
include "serializer.pxi"     # serializing HTML fragments
include "serializer_modes.pxi"  # minified and pretty-printed output
include "dump.pxi"           # the html5lib tree-construction test format
include "proxies.pxi"        # Node, Document, DocumentFragment, CharacterData...
include "elements.pxi"       # Element and its Attributes mapping
include "sources.pxi"        # positions: SourceSpans of the source records
include "lossless.pxi"       # to_source(): the input where nothing changed
include "mutation.pxi"       # pre-insertion checks, insert, replace, adopt
include "queries.pxi"        # iter(), by tag name, id and class; class_list
include "bridges.pxi"        # the flat tree events of the bridges (bs4, html5lib, etree)
include "pickling.pxi"       # pickle and deepcopy: a compact binary tree encoding
