# What other modules may cimport from the tree builder: its state struct and
# the C calls that drive it. The tree builder consumes the tokenizer's tokens
# (token.pxd) through the TokenCallback of tokenizer.pxd and builds the DOM's
# C structs (dom.pxd); no Python object is touched between the first token
# and the end of the tree (DESIGN.md decisions 6 and 8).

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from lexpy.tokenizer.names cimport lxp_tag_id_t, lxp_attr_id_t, lxp_ns_id_t, TAG__LAST_STATIC
from lexpy.tokenizer.token cimport Token
from lexpy.tokenizer.tokenizer cimport Tokenizer, ErrorList, HashKey
from lexpy.dom.dom cimport CDocument, CElement, CNode, CCharacterData


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


# An entry of the list of active formatting elements; element NULL is a
# marker.
cdef struct FormattingEntry:
    CElement* element
    uint64_t signature            # Noah's Ark key (tag, namespace, attributes,
                                  # marker segment); 0 for a marker
    CElement* token               # while scripts may run (they may change the
                                  # element's attributes): a detached copy of
                                  # the element as the parser created it, "the
                                  # token for which it was created"; else NULL
                                  # (the element itself is)


# Slots of the formatting tags (a, b, big, code, em, font, i, nobr, s,
# small, strike, strong, tt, u) in TreeBuilder.segment_counts.
cdef enum:
    FORMATTING_TAG_SLOTS = 16


# The kinds of key of the stack's index (open_elements.pxi), the fields of
# StackLinks.down and .up.
cdef enum:
    LINK_TAG = 0                  # same tag key
    LINK_BOUNDARY = 1             # 1..4: boundary of the same scope
    LINK_SPECIAL = 5              # special element
    LINK_LIST_STOP = 6            # special, other than address, div and p
    LINK_HTML = 7                 # HTML element
    LINK_FIELDS = 8


# The stack's index (not in the standard; open_elements.pxi): for an open
# element, the position + 1 of the previous open element sharing each of
# its keys (0: none), and of the next one above it (kept lazily: valid only
# while that element's `down` points back here).
cdef struct StackLinks:
    uint32_t down[LINK_FIELDS]
    uint32_t up[LINK_FIELDS]


# Character data still to be inserted: a byte range that is either the
# token's raw text (`flags` = the conversion still to apply) or text already
# decoded into the tree builder's scratch buffer (flags only DATA_HAS_NUL).
cdef struct TextRun:
    const uint8_t* data
    size_t begin
    size_t end
    uint32_t flags


# <template for> (content_patching.pxi): the templates whose markers were
# found, the index of named <?marker>/<?start> processing instructions and
# the memo of each node's root. Not in the standard but for `PatchingTemplate`
# (a template's insertion target and markers).
cdef struct PatchingTemplate:
    CElement* template
    CNode* target                 # the template's insertion target
    CNode* start                  # its insertion start marker
    CNode* end                    # its insertion end marker (NULL: none)

cdef struct MarkerChain:          # the markers of one name in one tree
    uint64_t hash                 # 0: an empty slot
    CNode* root                   # the tree's root when they were inserted
    size_t name_offset            # the name, in ContentPatching.names
    size_t name_length
    size_t first                  # index + 1 in ContentPatching.markers
    size_t last                   # (0: none)

cdef struct MarkerLink:
    CNode* node                   # a <?marker> or <?start> with that name
    size_t next                   # index + 1 of the next of the chain

cdef struct RootMemo:             # find_root's memo: a node's root
    CNode* node                   # NULL: an empty slot
    CNode* root                   # NULL: forgotten (the slot is reusable)
    size_t generation

cdef struct ContentPatching:
    PatchingTemplate* templates   # in stack order
    size_t template_count
    size_t template_capacity
    MarkerChain* chains           # open addressing, power-of-two capacity
    size_t chain_capacity
    size_t chain_count
    MarkerLink* markers
    size_t marker_count
    size_t marker_capacity
    uint8_t* names
    size_t names_length
    size_t names_capacity
    RootMemo* memo                # open addressing, power-of-two capacity
    size_t memo_capacity
    size_t memo_used              # slots ever taken (forgotten ones too)
    size_t generation             # memo entries of older ones are stale
    HashKey key
    bint order_unsure             # a node may have been inserted out of
                                  # tree order (foster parenting, patching,
                                  # the adoption agency)


# The tree builder's encoding indication (not in the standard's terms: its
# "changing the encoding while parsing" is the driver's to run): a <meta>
# declared `encoding`; True when the document must be parsed again.
ctypedef bint (*EncodingIndicator)(void* context, int encoding) noexcept nogil


cdef struct TreeBuilder:
    CDocument* document
    Tokenizer* tokenizer          # NULL in unit tests
    ErrorList* errors             # NULL: errors are not collected
    uint32_t mode                 # InsertionMode
    uint32_t original_mode
    # The stack of open elements (index 0 is the html element).
    CElement** open_elements
    size_t open_count
    size_t open_capacity
    # The stack's index: what the standard finds by walking down the stack
    # is looked up instead, so deep nesting stays linear. For each key, the
    # position + 1 of the topmost open element that has it (0: none).
    StackLinks* open_links        # parallel to open_elements
    uint32_t* topmost_tag         # by tag key (open_elements.pxi tag_key)
    size_t topmost_tag_capacity
    uint32_t topmost_boundary[4]  # default, list item, button, table scope
    uint32_t topmost_special
    uint32_t topmost_list_stop
    uint32_t topmost_html
    size_t open_removed           # NULL places left by removals in the
                                  # middle (never the topmost; see
                                  # open_elements.pxi, open_elements_remove_at)
    size_t open_unclosed          # open elements that are unclosed at the
                                  # end of the body (a parse error)
    # The list of active formatting elements.
    FormattingEntry* formatting
    size_t formatting_count
    size_t formatting_capacity
    size_t formatting_markers     # markers in the list
    # Entries of each formatting tag after the last marker (by the tag's
    # slot: active_formatting.pxi), so that a long list without the tag is
    # not walked; what each marker hid, restored when it goes.
    size_t segment_counts[FORMATTING_TAG_SLOTS]
    size_t* marker_saves          # FORMATTING_TAG_SLOTS counts a marker
    size_t marker_saves_capacity  # in markers
    # The Noah's Ark counts: entries of the list by signature (open
    # addressing; a signature leaves when its last entry does).
    uint64_t* noah_counts         # key << 16 | count (0: empty)
    size_t noah_capacity          # power of two (0: no table yet)
    size_t noah_used
    HashKey noah_key              # of the attribute values in signatures
    # The stack of template insertion modes.
    uint32_t* template_modes
    size_t template_count
    size_t template_capacity
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
    bint stopped                  # "stop parsing" has run
    bint failed                   # out of memory: the tree is incomplete
    # The token being processed: its text and its position (for errors).
    TextRun text
    uint32_t line
    uint32_t column
    # The comment last inserted: a TOKEN_CONTINUATION token appends to it.
    CCharacterData* last_comment
    # Where an encoding indication goes (a <meta> that names an encoding:
    # the parse driver decides what it changes), NULL: nowhere.
    EncodingIndicator encoding_indicator
    void* encoding_context
    bint reparse                  # the indication asked for the document to
                                  # be parsed again: the builder stops
    # Decoded text of a token with character references.
    uint8_t* scratch
    size_t scratch_capacity
    # The pending table character tokens (decoded, NUL removed).
    uint8_t* pending_text
    size_t pending_length
    size_t pending_capacity
    bint pending_has_non_whitespace
    # <selectedcontent> (selectedcontent.pxi): how many were inserted; the
    # select last looked at, whether it has a selectedcontent descendant
    # (its first, which may be disabled), its enabled selectedcontent and
    # its selected option so far, and its first option not disabled that
    # lies outside that selectedcontent (what a clone cannot remove).
    size_t selectedcontent_count
    CElement* selectedcontent_select
    bint selectedcontent_found
    CElement* selectedcontent_element
    CElement* selectedcontent_option
    CElement* selectedcontent_first_enabled
    bint detached_open_elements   # the parser removed an open element from
                                  # its parent: the stack is no longer the
                                  # tree's ancestry for what goes into it
    # <template for>: nothing is allocated until a named marker exists.
    ContentPatching patching
    # Script execution (the parse driver's): with scripts_run, the end tag
    # of an HTML script pauses the tokenizer with the script popped here.
    bint scripts_run
    CElement* script_to_prepare


# A tree builder for `document`, fed by `tokenizer` (whose callback the
# caller sets to tree_builder_token with the builder as context). NULL when
# out of memory.
cdef TreeBuilder* tree_builder_create(CDocument* document, Tokenizer* tokenizer,
                                      ErrorList* errors,
                                      bint scripting) noexcept nogil
cdef void tree_builder_destroy(TreeBuilder* tb) noexcept nogil

# The fragment case (https://html.spec.whatwg.org/multipage/parsing.html#html-fragment-parsing-algorithm):
# `context` is an element of the builder's document (not in its tree),
# `form` the nearest form ancestor of the caller's context element (or
# NULL). Creates the root html element, sets the tokenizer state and the
# insertion mode. Returns -1 when out of memory.
cdef int tree_builder_set_fragment_context(TreeBuilder* tb, CElement* context,
                                           CElement* form) noexcept nogil

# Where the builder's encoding indications go (the parse driver's decision).
cdef void tree_builder_set_encoding_indicator(TreeBuilder* tb,
                                              EncodingIndicator indicator,
                                              void* context) noexcept nogil

# Script execution: the end tag of every HTML script element pauses the
# tokenizer (TOKENIZER_PAUSE) after the script is popped, for the driver to
# prepare it (https://html.spec.whatwg.org/multipage/parsing.html#scriptEndTag);
# and the list of active formatting elements keeps copies of the tokens.
cdef void tree_builder_set_scripts_run(TreeBuilder* tb, bint run) noexcept nogil
# The script element the last pause was for (NULL: none), taken.
cdef CElement* tree_builder_take_script(TreeBuilder* tb) noexcept nogil
# A script changed the DOM: what the builder knows of the tree's shape
# beyond its stacks is forgotten.
cdef void tree_builder_tree_changed(TreeBuilder* tb) noexcept nogil

# For the tests (quadratic): the stack's index and the counts of the list of
# active formatting elements are what walks over them find.
cdef bint stack_index_is_consistent(TreeBuilder* tb) noexcept nogil
cdef bint formatting_counts_are_consistent(TreeBuilder* tb) noexcept nogil

# The TokenCallback: `context` is the TreeBuilder. Returns 0 to go on; 1
# when the builder ran out of memory, 2 when the document must be parsed
# again in another encoding (TreeBuilder.reparse): the tokenizer stops.
cdef int tree_builder_token(void* context, Token* token) noexcept nogil
