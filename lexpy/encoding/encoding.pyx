# cython: language_level=3
"""Encoding sniffing and decoding to lexpy's UTF-8 core.

The WHATWG Encoding Standard's labels and decoders
(https://encoding.spec.whatwg.org/) and the HTML Standard's encoding
sniffing algorithm, prescan and "changing the encoding while parsing"
(https://html.spec.whatwg.org/multipage/parsing.html#the-input-byte-stream),
in C, with a small Python API over them (api.pxi). encoding.pxd declares the
C API the parser driver cimports.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memchr, memcpy, memcmp, memset

from lexpy.encoding.encoding_ids cimport *


include "tables.pxi"             # the generated tables of encoding_tables.h
include "labels.pxi"             # names and labels: get an encoding
include "queues.pxi"             # output buffer, UTF-8 writer, restored bytes
include "utf8.pxi"               # UTF-8 validation and the UTF-8 decoder
include "single_byte.pxi"        # legacy single-byte decoders
include "chinese.pxi"            # gb18030 (and GBK), Big5
include "japanese.pxi"           # EUC-JP, ISO-2022-JP, Shift_JIS
include "korean.pxi"             # EUC-KR
include "miscellaneous.pxi"      # replacement, UTF-16BE/LE, x-user-defined
include "decoder.pxi"            # the streaming decoder: BOM, dispatch, chunks
include "sniffing.pxi"           # BOM sniff, prescan, the sniffing algorithm
include "changing.pxi"           # changing the encoding while parsing
include "autodetection.pxi"      # autodetecting UTF-8 when nothing declares an encoding
include "input_stream.pxi"       # the input byte stream the driver feeds
include "offset_map.pxi"         # stream offsets back to the original input
include "api.pxi"                # the Python API
