# cython: language_level=3
"""The bottom layer: what the tokenizer, the DOM and the layers above share
(DESIGN.md decisions 6 and 10). The generated static names (names.h), the
dynamic name tables that give every other name a dense id, the parse-error
list and the UTF-8 encoder of one code point (utf8.h). Every other layer
cimports it; it cimports nothing of lexpy.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from lexpy.core.names cimport *


include "errors.pxi"                 # the parse-error list (ErrorList)
include "name_table.pxi"             # dynamic tag and attribute ids
