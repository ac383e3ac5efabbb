# cython: language_level=3
"""Tree construction: the insertion modes of the current standard over the
tokenizer's tokens, building the DOM's C structs (DESIGN.md decision 6).

https://html.spec.whatwg.org/multipage/parsing.html#tree-construction

The module is one C unit made of feature files, included below in the
standard's order so that every call between them is a direct C call. The
token callback (tree_builder_token) runs without the GIL and touches no
Python object. The module has a C API only (treebuilder.pxd): the parse
driver (lexpy/driver/) owns the input, the tokenizer and the builder.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc, realloc, free, qsort
from libc.string cimport memcmp, memcpy, memmove, memset, strlen

from lexpy.tokenizer.names cimport *
from lexpy.tokenizer.token cimport *
from lexpy.tokenizer.tokenizer cimport (
    hash_key_for, keyed_hash, TokenizerState, DATA_STATE, RCDATA_STATE,
    RAWTEXT_STATE, SCRIPT_DATA_STATE,
    PLAINTEXT_STATE, ErrorList, error_list_add, TOKENIZER_PAUSE,
    convert_text, Tokenizer, tokenizer_set_state, tokenizer_set_cdata_allowed,
    tag_id_by_name)
from lexpy.encoding.encoding cimport (
    encoding_for_label, extract_encoding_from_meta, is_content_type_pragma)
from lexpy.encoding.encoding_ids cimport ENCODING__NONE
from lexpy.dom.dom cimport (
    CDocument, CNode, CElement, CAttr, CCharacterData, CDocumentType,
    ELEMENT_NODE, TEXT_NODE, DOCUMENT_NODE, PROCESSING_INSTRUCTION_NODE,
    DOCUMENT_FRAGMENT_NODE,
    CProcessingInstruction, NO_QUIRKS, QUIRKS, LIMITED_QUIRKS,
    dom_alloc, dom_shrink, element_create, element_add_attribute,
    element_reserve_attributes,
    element_find_attribute, text_create, comment_create,
    processing_instruction_create, character_data_reserve, character_data_commit,
    processing_instruction_set_target, doctype_create, node_append_child,
    node_insert_before, node_remove, node_clone, CDocumentFragment,
    document_fragment_create, node_clone_into, next_in_tree,
    Node, Document, document_new, node_proxy)


include "parse_errors.pxi"         # parse_error(): tree-construction errors
include "open_elements.pxi"        # the stack of open elements, every scope
include "active_formatting.pxi"    # the list of active formatting elements
include "insertion.pxi"            # appropriate place, creating and inserting nodes
include "text.pxi"                 # character tokens as byte runs; table text
include "selectedcontent.pxi"      # <selectedcontent> follows the selected option
include "content_patching.pxi"     # <template for>: markers patched out of order
include "reset_insertion_mode.pxi" # template modes; reset the insertion mode
include "adoption_agency.pxi"      # the adoption agency algorithm
include "doctype.pxi"              # DocumentType node and quirks mode
include "encoding_change.pxi"      # a <meta> changes the encoding
include "foreign_content.pxi"      # the dispatcher's choice; SVG and MathML

# The insertion modes, in the standard's order.
include "modes/initial.pxi"
include "modes/before_html.pxi"
include "modes/before_head.pxi"
include "modes/in_head.pxi"
include "modes/in_head_noscript.pxi"
include "modes/after_head.pxi"
include "modes/in_body.pxi"
include "modes/text.pxi"
include "modes/in_table.pxi"
include "modes/in_table_text.pxi"
include "modes/in_caption.pxi"
include "modes/in_column_group.pxi"
include "modes/in_table_body.pxi"
include "modes/in_row.pxi"
include "modes/in_cell.pxi"
include "modes/in_template.pxi"
include "modes/after_body.pxi"
include "modes/in_frameset.pxi"
include "modes/after_frameset.pxi"
include "modes/after_after_body.pxi"
include "modes/after_after_frameset.pxi"

include "fragment.pxi"             # the HTML fragment parsing algorithm


cdef inline void switch_tokenizer_state(TreeBuilder* tb,
                                        TokenizerState state) noexcept nogil:
    """The one way the tree builder changes the tokenizer's state."""
    if tb.tokenizer != NULL:
        tokenizer_set_state(tb.tokenizer, state)


# The rules of each insertion mode, indexed by the mode (Lexbor's table of
# handlers): one indirect call instead of a chain of comparisons.
ctypedef int (*ModeHandler)(TreeBuilder* tb, Token* token) noexcept nogil

cdef enum:
    MODE_COUNT = AFTER_AFTER_FRAMESET + 1

cdef ModeHandler MODE_HANDLERS[MODE_COUNT]
MODE_HANDLERS[<size_t> INITIAL] = mode_initial
MODE_HANDLERS[<size_t> BEFORE_HTML] = mode_before_html
MODE_HANDLERS[<size_t> BEFORE_HEAD] = mode_before_head
MODE_HANDLERS[<size_t> IN_HEAD] = mode_in_head
MODE_HANDLERS[<size_t> IN_HEAD_NOSCRIPT] = mode_in_head_noscript
MODE_HANDLERS[<size_t> AFTER_HEAD] = mode_after_head
MODE_HANDLERS[<size_t> IN_BODY] = mode_in_body
MODE_HANDLERS[<size_t> TEXT] = mode_text
MODE_HANDLERS[<size_t> IN_TABLE] = mode_in_table
MODE_HANDLERS[<size_t> IN_TABLE_TEXT] = mode_in_table_text
MODE_HANDLERS[<size_t> IN_CAPTION] = mode_in_caption
MODE_HANDLERS[<size_t> IN_COLUMN_GROUP] = mode_in_column_group
MODE_HANDLERS[<size_t> IN_TABLE_BODY] = mode_in_table_body
MODE_HANDLERS[<size_t> IN_ROW] = mode_in_row
MODE_HANDLERS[<size_t> IN_CELL] = mode_in_cell
MODE_HANDLERS[<size_t> IN_TEMPLATE] = mode_in_template
MODE_HANDLERS[<size_t> AFTER_BODY] = mode_after_body
MODE_HANDLERS[<size_t> IN_FRAMESET] = mode_in_frameset
MODE_HANDLERS[<size_t> AFTER_FRAMESET] = mode_after_frameset
MODE_HANDLERS[<size_t> AFTER_AFTER_BODY] = mode_after_after_body
MODE_HANDLERS[<size_t> AFTER_AFTER_FRAMESET] = mode_after_after_frameset


init_formatting_slots()


cdef inline int process_in_mode(TreeBuilder* tb, Token* token) noexcept nogil:
    """Process the token by the rules of the current insertion mode."""
    if tb.mode >= MODE_COUNT:
        return DONE
    return MODE_HANDLERS[tb.mode](tb, token)


# https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher
cdef void process_token(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef int result
    while not tb.failed and not tb.stopped:
        if token.tag_id == TAG__TEXT and text_is_empty(tb):
            return
        if uses_html_rules(tb, token):
            result = process_in_mode(tb, token)
        else:
            result = foreign_content(tb, token)
            if result == REPROCESS_AS_HTML:
                result = process_in_mode(tb, token)
        if result == DONE:
            return


cdef int tree_builder_token(void* context, Token* token) noexcept nogil:
    cdef TreeBuilder* tb = <TreeBuilder*> context
    if tb.failed:
        return 1
    if tb.reparse:
        return 2
    if tb.stopped:
        return 0
    tb.line = token.line
    tb.column = token.column
    if token.type & TOKEN_CONTINUATION:
        append_to_comment(tb, token)
        return 1 if tb.failed else 0
    tb.last_comment = NULL
    if token.tag_id == TAG__TEXT:
        if token.text_end <= token.text_begin:
            return 0
        begin_text(tb, token)
        if tb.skip_newline:
            tb.skip_newline = False
            skip_leading_newline(tb)
            if text_is_empty(tb):
                return 1 if tb.failed else 0
    else:
        tb.skip_newline = False
        tb.text.begin = tb.text.end = 0
    tb.self_closing_acknowledged = False
    process_token(tb, token)
    if token.type & TOKEN_SELF_CLOSING and is_start_tag(token) \
            and not tb.self_closing_acknowledged:
        parse_error(tb, "non-void-html-element-start-tag-with-trailing-solidus")
    update_cdata_allowed(tb)
    if tb.failed:
        return 1
    if tb.reparse:
        return 2
    return TOKENIZER_PAUSE if tb.script_to_prepare != NULL else 0


cdef void tree_builder_set_scripts_run(TreeBuilder* tb, bint run) noexcept nogil:
    tb.scripts_run = run


cdef CElement* tree_builder_take_script(TreeBuilder* tb) noexcept nogil:
    cdef CElement* script = tb.script_to_prepare
    tb.script_to_prepare = NULL
    return script


cdef void tree_builder_tree_changed(TreeBuilder* tb) noexcept nogil:
    """The open elements may be anywhere now (the stack is not the
    ancestry of what goes into them), and find_root's memo is stale."""
    tb.detached_open_elements = True
    parser_moved_nodes(tb)
    tb.selectedcontent_select = NULL


cdef TreeBuilder* tree_builder_create(CDocument* document, Tokenizer* tokenizer,
                                      ErrorList* errors,
                                      bint scripting) noexcept nogil:
    cdef TreeBuilder* tb = <TreeBuilder*> calloc(1, sizeof(TreeBuilder))
    if tb == NULL:
        return NULL
    tb.document = document
    tb.tokenizer = tokenizer
    tb.noah_key = hash_key_for(tb)
    tb.errors = errors
    tb.scripting = scripting
    tb.mode = INITIAL
    tb.frameset_ok = True
    if tokenizer != NULL:
        tokenizer_set_cdata_allowed(tokenizer, False)
    return tb


cdef void tree_builder_set_encoding_indicator(TreeBuilder* tb,
                                              EncodingIndicator indicator,
                                              void* context) noexcept nogil:
    tb.encoding_indicator = indicator
    tb.encoding_context = context


cdef void tree_builder_destroy(TreeBuilder* tb) noexcept nogil:
    if tb == NULL:
        return
    free(tb.open_elements)
    free(tb.open_links)
    free(tb.topmost_tag)
    free(tb.formatting)
    free(tb.noah_counts)
    free(tb.marker_saves)
    free(tb.template_modes)
    free(tb.scratch)
    free(tb.pending_text)
    content_patching_release(&tb.patching)
    free(tb)
