# cython: language_level=3
"""The parse driver: one parse's input byte stream (encoding sniffing,
decoding), tokenizer and tree builder, owned together and run with the GIL
released (DESIGN.md decisions 1, 5 and 8).

https://html.spec.whatwg.org/multipage/parsing.html#overview-of-the-parsing-model

The tree builder knows nothing of the input: when a <meta> gives an
encoding indication it calls the driver's encoding_indicated(), which
decides with the stream (keep the encoding, switch the decoder, or parse
the document again) and says whether the tree builder must stop.
"""

from libc.stdint cimport uint8_t, uint32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from cpython.pythread cimport PyThread_get_thread_ident
from cpython.unicode cimport PyUnicode_KIND, PyUnicode_DATA, PyUnicode_GET_LENGTH
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE
from cpython.bytes cimport PyBytes_CheckExact, PyBytes_AS_STRING, PyBytes_GET_SIZE

from lexpy.core.names cimport NS_HTML, NS_SVG, NS_MATHML, TAG_FORM
from lexpy.core.core cimport ErrorList, error_list_clear, tag_id_by_name
from lexpy.tokenizer.tokenizer cimport (
    Tokenizer, tokenizer_create, tokenizer_destroy, tokenizer_set_callback,
    tokenizer_feed, tokenizer_finish, tokenizer_buffered, tokenizer_token_offset,
    tokenizer_settled_offset, tokenizer_errors_lost, tokenizer_input_length,
    TOKENIZER_PAUSE, tokenizer_resume, tokenizer_run_to, tokenizer_insert,
    tokenizer_next_offset)
from lexpy.encoding.encoding cimport (
    utf8_encode_code_points, InputByteStream, CONFIDENCE_TENTATIVE,
    CONFIDENCE_CERTAIN, CHANGE_REPARSE, input_byte_stream_change_encoding,
    input_byte_stream_init, input_byte_stream_free, input_byte_stream_feed,
    input_byte_stream_finish, input_byte_stream_restart,
    input_byte_stream_set_autodetect, encoding_name, byte_buffer_free,
    ByteBuffer, byte_buffer_init, OffsetMap, offset_map_init, offset_map_free,
    offset_map_feed, offset_map_original, encoding_for_label)
from lexpy.dom.dom cimport (
    CDocument, CNode, CElement, CDocumentFragment, ELEMENT_NODE, DOCUMENT_NODE,
    SourceRecord,
    element_create,
    node_append_child, document_fragment_create, node_clone_into, Node,
    Document, document_new, document_take_parse_errors, node_proxy)
from lexpy.treebuilder.treebuilder cimport (
    TreeBuilder, tree_builder_create, tree_builder_destroy,
    tree_builder_set_fragment_context, tree_builder_set_encoding_indicator,
    tree_builder_token, tree_builder_set_scripts_run, tree_builder_take_script,
    tree_builder_tree_changed, tree_builder_failed, tree_builder_reparse,
    tree_builder_stopped, tree_builder_is_fragment, tree_builder_fragment_root,
    tree_builder_set_positions, tree_builder_token_with_positions)


cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)


include "scripts.pxi"              # script execution points, document.write
include "construction.pxi"         # TreeConstruction: one parse, for lexpy.parser
include "source_map.pxi"           # positions: stream offsets to the input's


# The C API of driver.pxd, for lexpy.driver._testing (test builds).

cdef int construction_enter(object construction, Tokenizer** tokenizer,
                            TreeBuilder** builder) except -1:
    cdef TreeConstruction c = <TreeConstruction?> construction
    c._enter()
    tokenizer[0] = c.c_tokenizer
    builder[0] = c.c_builder
    return 0


cdef void construction_leave(object construction) noexcept:
    (<TreeConstruction> construction).busy = False


cdef int construction_discard(object construction) except -1:
    (<TreeConstruction?> construction)._discard()
    return 0


cdef object construction_fragment_text(bytes context_name, str text, FragmentHook hook,
                                       void* hook_context, int* result, CNode** fragment):
    cdef TreeConstruction c = TreeConstruction(True, True, False)
    c._enter()
    try:
        c._fragment_text(context_name, text, hook, hook_context, result, fragment)
    finally:
        c.busy = False
    return c
