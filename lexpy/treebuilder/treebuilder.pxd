# What other modules may cimport from the tree builder: the C calls that
# drive it. The TreeBuilder is opaque (its structures are the tree
# builder's own: treebuilder.pyx and the feature files). The tree builder
# consumes the tokenizer's tokens (token.pxd) through the TokenCallback of
# tokenizer.pxd and builds the DOM's C structs (dom.pxd); no Python object
# is touched between the first token and the end of the tree (DESIGN.md
# decisions 6 and 8).

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from lexpy.tokenizer.token cimport Token
from lexpy.core.core cimport ErrorList
from lexpy.tokenizer.tokenizer cimport Tokenizer
from lexpy.dom.dom cimport CDocument, CElement, CNode


# The tree builder's encoding indication (not in the standard's terms: its
# "changing the encoding while parsing" is the driver's to run): a <meta>
# declared `encoding`; True when the document must be parsed again.
ctypedef bint (*EncodingIndicator)(void* context, int encoding) noexcept nogil


cdef struct TreeBuilder   # opaque to other modules


# An observer of the structure the builder makes (lexpy/rewriter: element
# boundaries over a stream). NULL (the default): the DOM path, one pointer
# test per push and pop. `pushed` runs when an element enters the stack of
# open elements (`below`: the open element under it, NULL: none);
# `popped` when it leaves (`from_top`: False when it left from the middle
# or was replaced: the adoption agency, the form pointer's </form>);
# `moved` when the adoption agency moves nodes that were in the tree
# already (after its inner loop: the tree's shape changed behind the
# stream), with its formatting element and furthest block (what it moves
# is the furthest block and what lies between the two). `pushed` and
# `moved` may be NULL: an observer of pops alone (the rewriter with no
# handlers frees the subtrees of closed elements) leaves pushes on their
# inline path.
ctypedef void (*ElementPushed)(void* context, CElement* element,
                               CElement* below) noexcept nogil
ctypedef void (*ElementPopped)(void* context, CElement* element,
                               bint from_top) noexcept nogil
ctypedef void (*NodesMoved)(void* context, CElement* formatting_element,
                            CElement* furthest_block) noexcept nogil

cdef struct TreeObserver:
    void* context
    ElementPushed pushed
    ElementPopped popped
    NodesMoved moved


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

# Where the observer's calls go (NULL: none; the observer must outlive the
# builder or be unset first).
cdef void tree_builder_set_observer(TreeBuilder* tb,
                                    TreeObserver* observer) noexcept nogil

# A caller that reads no character data from the tree (lexpy/rewriter: no
# text handler, no selector that looks at text, closed subtrees freed)
# asks for no Text nodes where the tree builder needs none either: text
# appended at the end of an element that does not end in a Text node is
# dropped. Text inserted by foster parenting, or appended to a Text node
# already there, is kept whole (the rewriter compares the Text node before
# a table), so the elements' shape is the same; only Text nodes go.
cdef void tree_builder_set_text_unread(TreeBuilder* tb, bint unread) noexcept nogil

# Whether "reconstruct the active formatting elements" would insert
# elements now (the list's last entry is an element not on the stack of
# open elements): content written here would be wrapped in them.
cdef bint tree_builder_reconstruction_pending(TreeBuilder* tb) noexcept nogil
# Whether `element` is on the stack of open elements.
cdef bint tree_builder_is_open(TreeBuilder* tb, CElement* element) noexcept nogil
# After </body> or </html>: 1 in "after body", 2 in "after after body"
# (where a comment goes to the html element or the document, not to the
# current node), else 0.
cdef int tree_builder_after_body(TreeBuilder* tb) noexcept nogil
# The current node (the last element of the stack of open elements; NULL
# when the stack is empty): read-only, for the rewriter's unit checks.
cdef CElement* tree_builder_current_node(TreeBuilder* tb) noexcept nogil
# The form element pointer (NULL: none).
cdef CElement* tree_builder_form_element(TreeBuilder* tb) noexcept nogil
# The frameset-ok flag ("ok": true): read-only, for the rewriter.
cdef bint tree_builder_frameset_ok(TreeBuilder* tb) noexcept nogil
# Whether the next token's leading newline (a LF character token) is to be
# ignored: the last token was the start tag of pre, listing or textarea.
cdef bint tree_builder_skip_newline(TreeBuilder* tb) noexcept nogil
# The list of active formatting elements after its last marker, oldest
# first: the first `capacity` into `out`; returns how many there are.
cdef size_t tree_builder_formatting(TreeBuilder* tb, CElement** out,
                                    size_t capacity) noexcept nogil
# The whole list of active formatting elements, oldest first, NULL for a
# marker: the first `capacity` entries into `out`; returns how many there
# are.
cdef size_t tree_builder_formatting_all(TreeBuilder* tb, CElement** out,
                                        size_t capacity) noexcept nogil
# The nodes the builder refers to besides the stack of open elements (the
# list of active formatting elements, the head and form pointers, the
# comment a continuation appends to, the <selectedcontent> state, the
# script to prepare), for a caller that frees what has left the tree's
# open part (lexpy/rewriter): their number, the first `capacity` of them
# in out; (size_t) -1 when others may be held too (<template for>
# patching, positions).
cdef size_t tree_builder_held(TreeBuilder* tb, CNode** out, size_t capacity) noexcept nogil

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

# What the driver reads: whether the builder ran out of memory (the tree is
# incomplete), whether an encoding indication asked for the document to be
# parsed again, whether "stop parsing" has run; in the fragment case, the
# root html element whose children are the fragment (else NULL).
cdef bint tree_builder_failed(TreeBuilder* tb) noexcept nogil
cdef bint tree_builder_reparse(TreeBuilder* tb) noexcept nogil
cdef bint tree_builder_stopped(TreeBuilder* tb) noexcept nogil
cdef bint tree_builder_is_fragment(TreeBuilder* tb) noexcept nogil
cdef CElement* tree_builder_fragment_root(TreeBuilder* tb) noexcept nogil

# For the tests: the entries of the list of active formatting elements and
# the Noah's Ark signatures in its table; the signature of its last entry
# (0 when empty); the bytes of the scratch buffer (decoded text).
cdef void tree_builder_formatting_census(TreeBuilder* tb, size_t* entries,
                                         size_t* signatures) noexcept nogil
cdef uint64_t tree_builder_last_formatting_signature(TreeBuilder* tb) noexcept nogil
cdef size_t tree_builder_scratch_capacity(TreeBuilder* tb) noexcept nogil
# For the tests (quadratic): the stack's index and the counts of the list of
# active formatting elements are what walks over them find.
cdef bint stack_index_is_consistent(TreeBuilder* tb) noexcept nogil
cdef bint formatting_counts_are_consistent(TreeBuilder* tb) noexcept nogil

# The TokenCallback: `context` is the TreeBuilder. Returns 0 to go on; 1
# when the builder ran out of memory, 2 when the document must be parsed
# again in another encoding (tree_builder_reparse): the tokenizer stops;
# TOKENIZER_PAUSE after a script end tag (tree_builder_take_script).
cdef int tree_builder_token(void* context, Token* token) noexcept nogil

# Positions (lexpy.parse(positions=True)): give every node made from input
# its stream offsets (the DOM's node_set_source), elements their end tags.
# Before the first token; the document must record sources.
cdef void tree_builder_set_positions(TreeBuilder* tb, bint on) noexcept nogil
# The token callback then (tree_builder_token with the offsets recorded).
cdef int tree_builder_token_with_positions(void* context, Token* token) noexcept nogil
