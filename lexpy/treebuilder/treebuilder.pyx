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

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, UINT32_MAX
from libc.stdlib cimport calloc, malloc, realloc, free, qsort
from libc.string cimport memcmp, memcpy, memmove, memset, strlen

from lexpy.core.names cimport *
from lexpy.tokenizer.token cimport *
from lexpy.core.core cimport (
    lxp_copy_run,
    hash_key_for, keyed_hash, ErrorList, HashKey, error_list_add, tag_id_by_name)
from lexpy.tokenizer.tokenizer cimport (
    TokenizerState, DATA_STATE, RCDATA_STATE, RAWTEXT_STATE, SCRIPT_DATA_STATE,
    PLAINTEXT_STATE, TOKENIZER_PAUSE, convert_text, Tokenizer, tokenizer_set_state,
    tokenizer_set_cdata_allowed, tokenizer_data_offset)
from lexpy.encoding.encoding cimport (
    encoding_for_label, extract_encoding_from_meta, is_content_type_pragma)
from lexpy.encoding.encoding_ids cimport ENCODING__NONE
from lexpy.dom.dom cimport (
    CDocument, CNode, CElement, CAttr, CCharacterData, CDocumentType,
    ELEMENT_NODE, TEXT_NODE, DOCUMENT_NODE, PROCESSING_INSTRUCTION_NODE,
    DOCUMENT_FRAGMENT_NODE,
    CProcessingInstruction, NO_QUIRKS, QUIRKS, LIMITED_QUIRKS,
    dom_alloc, dom_shrink, dom_in_source, character_data_share_source,
    element_create, element_add_attribute,
    element_reserve_attributes,
    element_find_attribute, text_create, comment_create,
    processing_instruction_create, character_data_reserve, character_data_commit,
    processing_instruction_set_target, doctype_create, node_append_child,
    node_set_source, node_source_extend, element_set_end_source,
    NODE_FLAG_SOURCE_GATHERED,
    node_insert_before, node_remove, node_clone, CDocumentFragment,
    document_fragment_create, node_clone_into, next_in_tree,
    Node, Document, document_new, node_proxy,
    element_create_with_room, element_append_attribute, dom_shrink_inline,
    text_create_with_room, character_data_commit_inline, node_append_new_child)


# The insertion modes of the standard
# (https://html.spec.whatwg.org/multipage/parsing.html#the-insertion-mode).
# The relaxed <select> parser of the current standard has no "in select" and
# no "in select in table" mode.
cdef enum InsertionMode:
    INITIAL
    BEFORE_HTML
    BEFORE_HEAD
    IN_HEAD
    IN_HEAD_NOSCRIPT
    AFTER_HEAD
    IN_BODY
    TEXT
    IN_TABLE
    IN_TABLE_TEXT
    IN_CAPTION
    IN_COLUMN_GROUP
    IN_TABLE_BODY
    IN_ROW
    IN_CELL
    IN_TEMPLATE
    AFTER_BODY
    IN_FRAMESET
    AFTER_FRAMESET
    AFTER_AFTER_BODY
    AFTER_AFTER_FRAMESET


# What a mode handler returns: the token is handled, or it must be processed
# again (in the mode the handler switched to).
cdef enum ModeResult:
    DONE = 0
    REPROCESS = 1
    # Only from the rules for foreign content: reprocess the token by the
    # current insertion mode "in HTML content", bypassing the dispatcher.
    REPROCESS_AS_HTML = 2



# The standard's structures, each with its operations, then the TreeBuilder
# made of them (C calls between the files go either way: Cython declares
# every function first).
include "parse_errors.pxi"         # parse_error(): tree-construction errors
include "open_elements.pxi"        # the stack of open elements, every scope
include "active_formatting.pxi"    # the list of active formatting elements
include "template_modes.pxi"       # the stack of template insertion modes
include "text.pxi"                 # character tokens as byte runs; table text
include "selectedcontent.pxi"      # <selectedcontent> follows the selected option
include "content_patching.pxi"     # <template for>: markers patched out of order
include "sources.pxi"              # positions: where each node came from

# Why tree construction no longer takes tokens, in one word (not in the
# standard): halt.any is nonzero when any flag is set, so a token tests the
# three with one load.
cdef extern from *:
    """
    typedef union {
        struct { unsigned char failed, stopped, reparse, unused_; };
        uint32_t any;
    } lexpy_tree_builder_halt;
    """
    ctypedef struct Halt "lexpy_tree_builder_halt":
        uint8_t failed
        uint8_t stopped
        uint8_t reparse
        uint32_t any


# The tree builder: the state of tree construction, made of the standard's
# own structures (each defined with its operations in its feature file).
cdef struct TreeBuilder:
    CDocument* document
    Tokenizer* tokenizer          # NULL in unit tests
    ErrorList* errors             # NULL: errors are not collected
    uint32_t mode                 # InsertionMode
    uint32_t original_mode
    StackOfOpenElements open
    ListOfActiveFormattingElements formatting
    StackOfTemplateInsertionModes template_modes
    CElement* head_element        # the head element pointer
    CElement* form_element        # the form element pointer
    # The fragment case: the context element (in this document), else NULL.
    CElement* context_element
    CElement* fragment_root       # its root html element
    bint scripting                # the scripting flag
    bint frameset_ok
    bint foster_parenting
    bint skip_newline             # ignore a LF right after <pre>/<listing>/<textarea>
    bint self_closing_acknowledged
    bint cdata_allowed            # last value given to the tokenizer
    # halt.stopped: "stop parsing" has run; halt.failed: out of memory, the
    # tree is incomplete; halt.reparse: see below. halt.any: one of them.
    Halt halt
    # The token being processed: its text and its position (for errors).
    TextRun text
    uint32_t line
    uint32_t column
    # The comment last inserted: a TOKEN_CONTINUATION token appends to it.
    CCharacterData* last_comment
    TreeObserver* observer        # NULL: none (treebuilder.pxd)
    bint observe_pushes           # it has a `pushed` (pushes leave the inline path)
    bint text_unread              # Text nodes nobody reads are not made
                                  # (tree_builder_set_text_unread)
    # Where an encoding indication goes (a <meta> that names an encoding:
    # the parse driver decides what it changes), NULL: nowhere.
    EncodingIndicator encoding_indicator
    void* encoding_context
    # (halt.reparse: the indication asked for the document to be parsed
    # again: the builder stops)
    # Decoded text of a token with character references.
    uint8_t* scratch
    size_t scratch_capacity
    PendingTableCharacterTokens pending_table_text
    SelectedcontentState selectedcontent
    # <template for>: nothing is allocated until a named marker exists.
    ContentPatching patching
    # Script execution (the parse driver's): with scripts_run, the end tag
    # of an HTML script pauses the tokenizer with the script popped here.
    bint scripts_run
    CElement* script_to_prepare
    # Positions (sources.pxi): the nodes the tokens make get their stream
    # offsets (tree_builder_set_positions).
    Positions positions


# The algorithms of tree construction.
include "insertion.pxi"            # appropriate place, creating and inserting nodes
include "reset_insertion_mode.pxi" # reset the insertion mode appropriately
include "adoption_agency.pxi"      # the adoption agency algorithm
include "doctype.pxi"              # DocumentType node and quirks mode
include "encoding_change.pxi"      # a <meta> changes the encoding
include "foreign_content.pxi"      # the dispatcher's choice; SVG and MathML
include "the_end.pxi"              # stop parsing

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
ctypedef ModeResult (*ModeHandler)(TreeBuilder* tb, Token* token) noexcept nogil

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
init_stack_keys()


cdef inline ModeResult process_in_mode(TreeBuilder* tb, Token* token) noexcept nogil:
    """Process the token by the rules of the current insertion mode."""
    if tb.mode >= MODE_COUNT:
        return DONE
    return MODE_HANDLERS[tb.mode](tb, token)


cdef inline bint end_tag_only_pops_rule(lxp_tag_id_t kind) noexcept nogil:
    """Whether an end tag in body whose name is the current node's (an HTML
    element) just pops it: for every kind but body, html, form, template,
    applet, marquee, object and br, the steps find the element in scope
    as the current node, generate no implied end tag (the current node is
    the one excepted, or not one with an implied end tag) and pop it; a
    formatting element goes by the adoption agency's steps without a
    furthest block when it is the last entry of the list (pop, remove) or
    not in the list (pop)."""
    return not (kind == TAG_BODY or kind == TAG_HTML or kind == TAG_FORM
                or kind == TAG_TEMPLATE or kind == TAG_APPLET or kind == TAG_MARQUEE
                or kind == TAG_OBJECT or kind == TAG_BR)


# end_tag_only_pops_rule by tag, for the tags of names.h (one load).
cdef uint8_t END_TAG_ONLY_POPS[TAG__LAST_STATIC]


cdef void init_end_tag_only_pops() noexcept nogil:
    cdef size_t tag
    for tag in range(TAG__LAST_STATIC):
        END_TAG_ONLY_POPS[tag] = end_tag_only_pops_rule(<lxp_tag_id_t> tag)


init_end_tag_only_pops()


cdef inline bint end_tag_only_pops(lxp_tag_id_t kind) noexcept nogil:
    return END_TAG_ONLY_POPS[kind] != 0 if kind < TAG__LAST_STATIC else True


cdef inline ModeResult end_tag_in_body_direct(TreeBuilder* tb, Token* token) noexcept nogil:
    """An end tag token of an element by the rules of "in body" (the
    dispatcher chose them); one that closes the current node pops it
    here."""
    cdef lxp_tag_id_t kind = token.tag_id
    cdef CElement* node = tb.open.elements[tb.open.count - 1]
    if node.tag_id == kind and end_tag_only_pops(kind):
        if node.node.flags & ELEMENT_IN_FORMATTING:
            if tb.formatting.entries[tb.formatting.count - 1].element != node:
                return end_tag_in_body(tb, token)
            open_elements_pop_unindexed(tb)
            formatting_remove_last(tb)
            return DONE
        open_elements_pop_unindexed(tb)
        return DONE
    return end_tag_in_body(tb, token)


cdef ModeResult in_body_direct(TreeBuilder* tb, Token* token) noexcept nogil:
    """The token by the rules of "in body" (the dispatcher chose them),
    straight to the rules for its kind."""
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__TEXT:
        return characters_in_body(tb)
    if kind < LXP_TAG_FIRST_ELEMENT:
        return mode_in_body(tb, token)
    if token.type & TOKEN_END_TAG:
        # (Not end_tag_in_body_direct: the rare end tag that comes this way
        # goes by the general steps, so that the one caller of that,
        # end_tag_in_body_at_html_node, has it inline.)
        return end_tag_in_body(tb, token)
    return start_tag_in_body(tb, token)


# Not in the standard: how the rules of "in body" treat the start tag of
# each tag of names.h, for the commonest ones (START_GENERIC: by
# start_tag_in_body).
cdef enum:
    START_GENERIC = 0
    START_OTHER = 1               # "any other start tag"
    START_CLOSES_P = 2            # address, article, ..., div, ..., p, ..., ul
    START_FORMATTING = 3          # b, big, code, em, font, i, nobr, s, ...
    START_A = 4
    START_LI = 5


cdef uint8_t START_TAG_ROUTES[TAG__LAST_STATIC]


cdef uint8_t start_tag_route_rule(lxp_tag_id_t kind) noexcept nogil:
    """The route of start_tag_in_body's own order: its categories first,
    then the tags it names one by one (START_GENERIC), else "any other"
    (but selectedcontent, which insertion follows)."""
    cdef uint32_t category = lxp_tag_category_of(kind, NS_HTML)
    if kind < LXP_TAG_FIRST_ELEMENT:
        return START_GENERIC
    if category & CAT_CLOSES_P:
        return START_CLOSES_P
    if category & CAT_HEADING:
        return START_GENERIC
    if category & CAT_FORMATTING and kind != TAG_A:
        return START_FORMATTING
    if kind == TAG_A:
        return START_A
    if kind == TAG_LI:
        return START_LI
    if kind == TAG_HTML or kind == TAG_BASE or kind == TAG_BASEFONT \
            or kind == TAG_BGSOUND or kind == TAG_LINK or kind == TAG_META \
            or kind == TAG_NOFRAMES or kind == TAG_SCRIPT or kind == TAG_STYLE \
            or kind == TAG_TEMPLATE or kind == TAG_TITLE or kind == TAG_BODY \
            or kind == TAG_FRAMESET or kind == TAG_PRE or kind == TAG_LISTING \
            or kind == TAG_FORM or kind == TAG_DD or kind == TAG_DT \
            or kind == TAG_PLAINTEXT or kind == TAG_BUTTON or kind == TAG_APPLET \
            or kind == TAG_MARQUEE or kind == TAG_OBJECT or kind == TAG_TABLE \
            or kind == TAG_AREA or kind == TAG_BR or kind == TAG_EMBED \
            or kind == TAG_IMG or kind == TAG_KEYGEN or kind == TAG_WBR \
            or kind == TAG_INPUT or kind == TAG_PARAM or kind == TAG_SOURCE \
            or kind == TAG_TRACK or kind == TAG_HR or kind == TAG_IMAGE \
            or kind == TAG_TEXTAREA or kind == TAG_XMP or kind == TAG_IFRAME \
            or kind == TAG_NOEMBED or kind == TAG_NOSCRIPT or kind == TAG_SELECT \
            or kind == TAG_OPTION or kind == TAG_OPTGROUP or kind == TAG_RB \
            or kind == TAG_RTC or kind == TAG_RP or kind == TAG_RT \
            or kind == TAG_MATH or kind == TAG_SVG or kind == TAG_CAPTION \
            or kind == TAG_COL or kind == TAG_COLGROUP or kind == TAG_FRAME \
            or kind == TAG_HEAD or kind == TAG_TBODY or kind == TAG_TD \
            or kind == TAG_TFOOT or kind == TAG_TH or kind == TAG_THEAD \
            or kind == TAG_TR or kind == TAG_SELECTEDCONTENT:
        return START_GENERIC
    return START_OTHER


cdef void init_start_tag_routes() noexcept nogil:
    cdef size_t tag
    for tag in range(TAG__LAST_STATIC):
        START_TAG_ROUTES[tag] = start_tag_route_rule(<lxp_tag_id_t> tag)


init_start_tag_routes()


cdef inline uint8_t start_tag_route(lxp_tag_id_t kind) noexcept nogil:
    """Names beyond names.h are "any other start tag"."""
    return START_TAG_ROUTES[kind] if kind < TAG__LAST_STATIC else START_OTHER


cdef inline int start_tag_in_body_direct(TreeBuilder* tb, Token* token,
                                         uint8_t route) noexcept nogil:
    """A start tag (no self-closing flag) by the rules of "in body", the
    dispatcher's choice made (tree_builder_token), straight to the steps of
    its route; what tree_builder_token does after a token."""
    if route == START_OTHER:
        reconstruct_active_formatting_elements(tb)
        insert_html_element_at_current_node(tb, token)
    elif route == START_CLOSES_P:
        close_p_element_in_button_scope(tb)
        insert_html_element_at_current_node(tb, token)
    elif route == START_A:
        start_tag_a(tb, token)
    elif route == START_FORMATTING:
        start_tag_formatting(tb, token)
    else:
        start_tag_list_item(tb, token)
    return after_token_in_body(tb)


cdef inline int after_token_in_body(TreeBuilder* tb) noexcept nogil:
    """What tree_builder_token does after a token that leaves an HTML
    element (not the html element) the current node: a start tag inserted
    "in body", or characters (whose reconstruction of the active
    formatting elements pushes HTML elements only); no self-closing flag
    to acknowledge. update_cdata_allowed with its answer known: not
    allowed."""
    if tb.halt.any != 0 and (tb.halt.failed or tb.halt.reparse):
        return halted_result(tb)
    if tb.cdata_allowed:
        set_cdata_allowed(tb, False)
    return TOKENIZER_PAUSE if tb.script_to_prepare != NULL else 0


# https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher
cdef void process_token(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef ModeResult result
    while not tb.halt.failed and not tb.halt.stopped:
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


cdef int halted_result(TreeBuilder* tb) noexcept nogil:
    """What tree_builder_token returns once tree construction halted."""
    if tb.halt.failed:
        return 1
    if tb.halt.reparse:
        return 2
    return 0


cdef inline bint in_body_at_html_node(TreeBuilder* tb) noexcept nogil:
    """The dispatcher's first round would take "in body": the insertion
    mode is "in body" and the adjusted current node (the current node: the
    stack has more than the html element) is an HTML element."""
    return tb.mode == IN_BODY and tb.open.count > 1 \
        and tb.open.elements[tb.open.count - 1].ns == NS_HTML


cdef int text_in_body_direct(TreeBuilder* tb, Token* token) noexcept nogil:
    """tree_builder_token for a text token "in body" (the dispatcher's
    choice made) with no leading newline to skip."""
    tb.last_comment = NULL
    if token.text_end <= token.text_begin:
        return 0
    # characters_in_body in one step when it has nothing but the insertion
    # to do (frameset-ok already off, no U+0000, no active formatting
    # element to reconstruct) and the insertion is a new Text node at the
    # end of the current node.
    if not tb.frameset_ok and not token.data_flags & DATA_HAS_NUL \
            and not reconstruction_needed(tb) \
            and insert_token_text_at_current_node(tb, token):
        tb.text.begin = tb.text.end
        return after_token_in_body(tb)
    begin_text(tb, token)
    characters_in_body(tb)
    return after_token_in_body(tb)


cdef int start_tag_in_body_routed(TreeBuilder* tb, Token* token,
                                  uint8_t route) noexcept nogil:
    """tree_builder_token for a start tag (no self-closing flag) "in body"
    (the dispatcher's choice made) whose route is not START_GENERIC."""
    tb.last_comment = NULL
    tb.text.begin = tb.text.end = 0
    return start_tag_in_body_direct(tb, token, route)


cdef int end_tag_in_body_at_html_node(TreeBuilder* tb, Token* token) noexcept nogil:
    """tree_builder_token for an end tag "in body" (the dispatcher's
    first round: in_body_direct)."""
    cdef ModeResult result
    tb.last_comment = NULL
    tb.text.begin = tb.text.end = 0
    tb.self_closing_acknowledged = False
    if token.tag_id < LXP_TAG_FIRST_ELEMENT:
        result = mode_in_body(tb, token)
    else:
        result = end_tag_in_body_direct(tb, token)
    if result != DONE:
        process_token(tb, token)
    return after_token(tb)


# tree_builder_token calls these through pointers, so that the compiler does
# not inline them: inlined, the registers the steps need are saved and
# restored at every token, and the dispatcher saves none.
cdef int (*text_in_body_out_of_line)(TreeBuilder* tb, Token* token) noexcept nogil
text_in_body_out_of_line = text_in_body_direct
cdef int (*start_tag_in_body_out_of_line)(TreeBuilder* tb, Token* token,
                                          uint8_t route) noexcept nogil
start_tag_in_body_out_of_line = start_tag_in_body_routed
cdef int (*end_tag_in_body_out_of_line)(TreeBuilder* tb, Token* token) noexcept nogil
end_tag_in_body_out_of_line = end_tag_in_body_at_html_node


cdef int tree_builder_token(void* context, Token* token) noexcept nogil:
    """The token callback. The commonest tokens "in body" (characters, the
    start tags of a route, end tags) go straight to their steps, in
    functions of their own, so that this dispatcher saves no registers;
    every other token, and any state to look at first (a halt, a leading
    newline to skip, a comment that goes on), goes to
    tree_builder_token_general."""
    cdef TreeBuilder* tb = <TreeBuilder*> context
    cdef uint8_t route
    if tb.halt.any == 0 and not tb.skip_newline \
            and not token.type & TOKEN_CONTINUATION and in_body_at_html_node(tb):
        if tb.errors != NULL:         # (the position only parse_error reads)
            tb.line = token.line
            tb.column = token.column
        if token.tag_id == TAG__TEXT:
            return text_in_body_out_of_line(tb, token)
        if token.type == 0:
            route = start_tag_route(token.tag_id)
            if route != START_GENERIC:
                return start_tag_in_body_out_of_line(tb, token, route)
        elif token.type == TOKEN_END_TAG:
            return end_tag_in_body_out_of_line(tb, token)
    return tree_builder_token_general_out_of_line(tb, token)


cdef inline int after_token(TreeBuilder* tb) noexcept nogil:
    """What tree_builder_token returns after a token: the halt's result,
    TOKENIZER_PAUSE for a script to prepare, else 0 (the CDATA answer for
    the tokenizer updated first)."""
    update_cdata_allowed(tb)
    if tb.halt.any != 0 and (tb.halt.failed or tb.halt.reparse):
        return halted_result(tb)
    return TOKENIZER_PAUSE if tb.script_to_prepare != NULL else 0


cdef int tree_builder_token_general(TreeBuilder* tb, Token* token) noexcept nogil:
    """tree_builder_token for any token: the dispatcher of the standard."""
    if tb.halt.any != 0:
        return halted_result(tb)
    if tb.errors != NULL:             # (the position only parse_error reads)
        tb.line = token.line
        tb.column = token.column
    if token.type & TOKEN_CONTINUATION:
        append_to_comment(tb, token)
        return 1 if tb.halt.failed else 0
    tb.last_comment = NULL
    if token.tag_id == TAG__TEXT:
        if token.text_end <= token.text_begin:
            return 0
        begin_text(tb, token)
        if tb.skip_newline:
            tb.skip_newline = False
            skip_leading_newline(tb)
            if text_is_empty(tb):
                return 1 if tb.halt.failed else 0
    else:
        tb.skip_newline = False
        tb.text.begin = tb.text.end = 0
    tb.self_closing_acknowledged = False
    if in_body_at_html_node(tb):
        # The dispatcher's first round, direct: "in body".
        if in_body_direct(tb, token) != DONE:
            process_token(tb, token)
    else:
        process_token(tb, token)
    if token.type & TOKEN_SELF_CLOSING and is_start_tag(token) \
            and not tb.self_closing_acknowledged:
        parse_error(tb, "non-void-html-element-start-tag-with-trailing-solidus")
    return after_token(tb)


cdef int (*tree_builder_token_general_out_of_line)(TreeBuilder* tb,
                                                   Token* token) noexcept nogil
tree_builder_token_general_out_of_line = tree_builder_token_general


cdef int tree_builder_token_with_positions(void* context, Token* token) noexcept nogil:
    """tree_builder_token for a parse with positions (the driver's callback
    then): the token's stream offsets first (sources.pxi)."""
    cdef TreeBuilder* tb = <TreeBuilder*> context
    cdef int result
    positions_token(tb, token)
    result = tree_builder_token(context, token)
    if tb.positions.end_tag != NULL:
        positions_end_tag_left(tb, token)
    return result


cdef bint tree_builder_failed(TreeBuilder* tb) noexcept nogil:
    return tb.halt.failed


cdef bint tree_builder_reparse(TreeBuilder* tb) noexcept nogil:
    return tb.halt.reparse


cdef bint tree_builder_stopped(TreeBuilder* tb) noexcept nogil:
    return tb.halt.stopped


cdef bint tree_builder_is_fragment(TreeBuilder* tb) noexcept nogil:
    return tb.context_element != NULL


cdef CElement* tree_builder_fragment_root(TreeBuilder* tb) noexcept nogil:
    return tb.fragment_root


cdef void tree_builder_formatting_census(TreeBuilder* tb, size_t* entries,
                                         size_t* signatures) noexcept nogil:
    entries[0] = tb.formatting.count
    signatures[0] = tb.formatting.noah_used


cdef uint64_t tree_builder_last_formatting_signature(TreeBuilder* tb) noexcept nogil:
    if tb.formatting.count == 0:
        return 0
    return tb.formatting.entries[tb.formatting.count - 1].signature


cdef size_t tree_builder_scratch_capacity(TreeBuilder* tb) noexcept nogil:
    return tb.scratch_capacity


cdef void tree_builder_set_scripts_run(TreeBuilder* tb, bint run) noexcept nogil:
    tb.scripts_run = run


cdef CElement* tree_builder_take_script(TreeBuilder* tb) noexcept nogil:
    cdef CElement* script = tb.script_to_prepare
    tb.script_to_prepare = NULL
    return script


cdef void tree_builder_tree_changed(TreeBuilder* tb) noexcept nogil:
    """The open elements may be anywhere now (the stack is not the
    ancestry of what goes into them), and find_root's memo is stale."""
    tb.open.detached = True
    parser_moved_nodes(tb)
    tb.selectedcontent.select = NULL


cdef TreeBuilder* tree_builder_create(CDocument* document, Tokenizer* tokenizer,
                                      ErrorList* errors,
                                      bint scripting) noexcept nogil:
    cdef TreeBuilder* tb = <TreeBuilder*> calloc(1, sizeof(TreeBuilder))
    if tb == NULL:
        return NULL
    tb.document = document
    tb.tokenizer = tokenizer
    tb.formatting.noah_key = hash_key_for(tb)
    tb.errors = errors
    tb.scripting = scripting
    tb.mode = INITIAL
    tb.frameset_ok = True
    if tokenizer != NULL:
        tokenizer_set_cdata_allowed(tokenizer, False)
    return tb


cdef void tree_builder_set_observer(TreeBuilder* tb,
                                    TreeObserver* observer) noexcept nogil:
    tb.observer = observer
    tb.observe_pushes = observer != NULL and observer.pushed != NULL


cdef void tree_builder_set_text_unread(TreeBuilder* tb, bint unread) noexcept nogil:
    tb.text_unread = unread


cdef bint tree_builder_reconstruction_pending(TreeBuilder* tb) noexcept nogil:
    cdef CElement* entry
    if tb.formatting.count == 0:
        return False
    entry = tb.formatting.entries[tb.formatting.count - 1].element
    return entry != NULL and not open_elements_contains(tb, entry)


cdef bint tree_builder_skip_newline(TreeBuilder* tb) noexcept nogil:
    return tb.skip_newline


cdef bint tree_builder_is_open(TreeBuilder* tb, CElement* element) noexcept nogil:
    return open_elements_contains(tb, element)


cdef int tree_builder_after_body(TreeBuilder* tb) noexcept nogil:
    if tb.mode == AFTER_BODY:
        return 1
    if tb.mode == AFTER_AFTER_BODY:
        return 2
    return 0


cdef CElement* tree_builder_current_node(TreeBuilder* tb) noexcept nogil:
    return current_node(tb)


cdef CElement* tree_builder_form_element(TreeBuilder* tb) noexcept nogil:
    return tb.form_element


cdef bint tree_builder_frameset_ok(TreeBuilder* tb) noexcept nogil:
    return tb.frameset_ok


cdef size_t tree_builder_formatting(TreeBuilder* tb, CElement** out,
                                    size_t capacity) noexcept nogil:
    cdef size_t start = tb.formatting.count
    cdef size_t count = 0
    while start > 0 and tb.formatting.entries[start - 1].element != NULL:
        start -= 1
    while start < tb.formatting.count:
        if count < capacity:
            out[count] = tb.formatting.entries[start].element
        count += 1
        start += 1
    return count


cdef size_t tree_builder_formatting_all(TreeBuilder* tb, CElement** out,
                                        size_t capacity) noexcept nogil:
    cdef size_t i
    for i in range(min(tb.formatting.count, capacity)):
        out[i] = tb.formatting.entries[i].element
    return tb.formatting.count


cdef inline void held_add(CNode** out, size_t capacity, size_t* count,
                          CNode* node) noexcept nogil:
    if node == NULL:
        return
    if count[0] < capacity:
        out[count[0]] = node
    count[0] += 1


cdef size_t tree_builder_held(TreeBuilder* tb, CNode** out, size_t capacity) noexcept nogil:
    cdef size_t count = 0
    cdef size_t i
    if tb.patching.template_count != 0 or tb.patching.marker_count != 0 \
            or tb.positions.on:
        return <size_t> -1
    for i in range(tb.formatting.count):
        held_add(out, capacity, &count, <CNode*> tb.formatting.entries[i].element)
    held_add(out, capacity, &count, <CNode*> tb.head_element)
    held_add(out, capacity, &count, <CNode*> tb.form_element)
    held_add(out, capacity, &count, <CNode*> tb.context_element)
    held_add(out, capacity, &count, <CNode*> tb.fragment_root)
    held_add(out, capacity, &count, <CNode*> tb.last_comment)
    held_add(out, capacity, &count, <CNode*> tb.script_to_prepare)
    held_add(out, capacity, &count, <CNode*> tb.selectedcontent.select)
    held_add(out, capacity, &count, <CNode*> tb.selectedcontent.element)
    held_add(out, capacity, &count, <CNode*> tb.selectedcontent.option)
    held_add(out, capacity, &count, <CNode*> tb.selectedcontent.first_enabled)
    return count


cdef void tree_builder_set_positions(TreeBuilder* tb, bint on) noexcept nogil:
    tb.positions.on = on and tb.tokenizer != NULL


cdef void tree_builder_set_encoding_indicator(TreeBuilder* tb,
                                              EncodingIndicator indicator,
                                              void* context) noexcept nogil:
    tb.encoding_indicator = indicator
    tb.encoding_context = context


cdef void tree_builder_destroy(TreeBuilder* tb) noexcept nogil:
    if tb == NULL:
        return
    free(tb.open.elements)
    free(tb.open.links)
    free(tb.open.topmost_tag)
    free(tb.formatting.entries)
    free(tb.formatting.noah_counts)
    free(tb.formatting.marker_saves)
    free(tb.template_modes.modes)
    free(tb.scratch)
    free(tb.pending_table_text.data)
    content_patching_release(&tb.patching)
    free(tb)
