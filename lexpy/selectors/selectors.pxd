# The compiled form of a selector list (what other modules may cimport):
# flat C arrays that the matcher walks with no Python object in reach.
#
# A Program holds selector lists; a list is a run of complex selectors; a
# complex selector is a run of compounds stored right to left (the subject
# first), each compound a run of simple selectors and the combinator that
# links it to the compound on its left. Nested lists (:is, :where, :not,
# :has, :nth-child(... of S), custom selectors) are lists of the same
# Program, referred to by index. Names are "slots": the text of a type or
# attribute name, bound to the ids of one document's name tables at the
# start of each match (a Program serves every document, and every thread).

from libc.stdint cimport uint8_t, uint32_t, int32_t, int64_t
from lexpy.dom.dom cimport CNode, CDocument


cdef enum Combinator:
    COMBINATOR_NONE = 0           # the leftmost compound
    COMBINATOR_DESCENDANT         # "A B": the compound on the left is an ancestor
    COMBINATOR_CHILD              # "A > B": the parent
    COMBINATOR_NEXT_SIBLING       # "A + B": the previous element sibling
    COMBINATOR_SUBSEQUENT_SIBLING # "A ~ B": some previous element sibling


cdef struct SimpleSelector:
    uint32_t kind                 # SimpleKind (selectors.pyx)
    uint32_t op                   # attribute operator; case flags; dir value
    uint32_t name                 # name slot (type and attribute selectors)
    uint32_t ns                   # NS_CONSTRAINT_ANY / _NONE or a namespace slot
    uint32_t strings              # first entry in Program.strings
    uint32_t string_count
    int64_t a                     # An+B
    int64_t b
    int32_t list                  # nested selector list, or -1


cdef struct Compound:
    uint32_t first                # simple selectors
    uint32_t count
    uint32_t combinator           # Combinator to the compound on the left


cdef struct ComplexSelector:
    uint32_t first                # compounds, subject first
    uint32_t count


cdef struct SelectorList:
    uint32_t first                # complex selectors
    uint32_t count


cdef struct StringRef:            # UTF-8 text in Program.text
    uint32_t offset
    uint32_t length


cdef struct NameSlot:             # a type or attribute name
    StringRef lower               # ASCII-lowercased: matched against HTML elements
    StringRef exact               # as written: matched against other elements
    uint32_t is_attribute


cdef struct Program:
    SimpleSelector* simples
    Compound* compounds
    ComplexSelector* complexes
    SelectorList* lists
    StringRef* strings
    NameSlot* names
    StringRef* namespaces         # namespace URIs
    uint8_t* text
    uint32_t simple_count
    uint32_t compound_count
    uint32_t complex_count
    uint32_t list_count
    uint32_t string_count
    uint32_t name_count
    uint32_t namespace_count
    uint32_t root                 # the top-level list
    uint32_t max_compounds        # of any complex selector (backtrack stack size)
    uint32_t has_count            # :has() pseudo-classes (memo tables)
    uint32_t needs_text           # uses :-soup-contains (reads text)


cdef class Selector:
    cdef Program* program
    cdef str source
    cdef object namespaces_key
    cdef object custom_key


# Every element of root's subtree (root excluded) that the program matches,
# in tree order, into *items (malloc'd; the caller frees it) and *count: the
# matching of the layers above (lexpy.extract's records) without the GIL.
# The caller holds the document as read (doc.readers). 0, or -1 when out of
# memory.
cdef int select_nodes(Program* program, CDocument* doc, CNode* root, bint first_only,
                      CNode*** items, size_t* count) noexcept nogil

# select_nodes for many roots of one document with one binding of the
# program's names (lexpy.extract's records: a field's selector per item):
# a context of the program for `doc` (NULL when out of memory), the
# matches below `root` (as select_nodes, but *items is the context's own
# array, valid until its next call: the caller does not free it), and the
# context freed. One thread uses a context; the caller holds the document
# as read.
cdef void* select_context_new(Program* program, CDocument* doc) noexcept nogil
cdef int select_nodes_in(void* context, CNode* root, bint first_only, CNode*** items,
                         size_t* count) noexcept nogil
cdef void select_context_free(void* context) noexcept nogil
# Whether `element`, an element below `root`, matches (1), or not (0), with
# root as the scope as select_nodes_in takes it; -1 when out of memory. (A
# layer that walks the elements itself: lexpy.extract's first values.)
cdef int select_matches_in(void* context, CNode* root, CNode* element) noexcept nogil

# Whether the program matches `element` (Selector.match without the GIL):
# 1, 0, or -1 when out of memory. The layers above that match elements one
# at a time as a parse makes them (lexpy.rewriter) call it; the caller
# holds the document as read.
cdef int match_element(Program* program, CNode* element) noexcept nogil

# match_element for the elements of one document as a parse makes them, one
# at a time, with one binding of the program's names (rebound when the
# document's name tables grew; nothing else is kept between calls, since
# the tree changes): a matcher (NULL when out of memory), whether it
# matches `element` (1, 0, or -1 when out of memory), the matcher freed.
cdef void* element_matcher_new(Program* program, CDocument* doc) noexcept nogil
cdef int element_matcher_match(void* matcher, CNode* element) noexcept nogil
cdef void element_matcher_free(void* matcher) noexcept nogil

# Whether matching the program reads more than the element, its ancestors
# and the document's mode (siblings, descendants, text, form state): a
# caller that frees what has left the tree's open part (lexpy.rewriter)
# keeps it for such a program.
cdef bint program_reads_beyond_ancestors(Program* program) noexcept nogil

# The static tag ids (below `size`, TAG__LAST_STATIC at most) of the
# elements the program may match, as table[id] = 1: every subject compound
# has a type selector, or an :is() list of such (True); otherwise every id
# is marked (False). An element with another static id matches none of its
# selectors (a streaming caller's gate before element_matcher_match);
# elements with dynamic ids (names not in names.h) are not covered.
cdef bint program_subject_tags(Program* program, uint8_t* table, size_t size) noexcept nogil

# Whether the program matches every element of every document (some complex
# selector of its list is one compound of universal selectors with no
# namespace constraint: `*`, `*|*`): the sufficient condition, where
# program_subject_tags is the necessary one; a caller may skip the matcher.
cdef bint program_matches_every_element(Program* program) noexcept nogil
