# The compiled form of an XPath 1.0 expression: a flat program of postfix
# operations in C arrays. The top-level expression and each predicate are
# "blocks" (ranges of ops); a step or a filter refers to its predicates'
# blocks; the evaluator runs nested blocks on an explicit stack
# (evaluate.pxi, drive()). Names are slots bound to one document's ids
# at the start of each evaluation (a program serves every document and
# every thread).

from libc.stdint cimport uint32_t, int32_t, int64_t
from lexpy.dom.dom cimport CNode


cdef struct Op:
    uint32_t kind                 # OpKind (program.pxi)
    uint32_t arg                  # step / string / function index, jump target
    uint32_t count                # arguments of a call
    double number


cdef struct Step:
    uint32_t axis                 # Axis; AXIS_FILTER: a filter expression's predicates
    uint32_t test                 # NodeTestKind
    int32_t name                  # name slot, or -1
    int32_t ns                    # namespace slot, or -1 (no prefix)
    int32_t target                # processing-instruction('x'): string index, or -1
    uint32_t first_predicate
    uint32_t predicate_count
    uint32_t exists               # only whether the result is empty matters
    uint32_t positional           # some predicate depends on the position
    uint32_t c_only               # every predicate is a shape of fast.pxi (no Python value)


cdef struct Predicate:
    uint32_t first                # its block: ops [first, first + count)
    uint32_t count
    uint32_t positional           # may be a number, or uses position()/last()
    int64_t index                 # > 0: the constant [n]
    uint32_t shape                # PredicateShape (fast.pxi): one evaluated in C, or 0
    int32_t shape_step            # its attribute step
    int32_t shape_string          # its literal
    uint32_t flat                 # its block nests no predicate the machine runs


cdef struct NameSlot:
    uint32_t lower                # string index: ASCII-lowercased name
    uint32_t exact                # string index: the name as written


# A node of XPath's data model: a tree node, or an attribute of an element
# (attr: its index + 1). XPath's namespace nodes do not exist in HTML
# documents (see the cases' README).
cdef struct NodeRef:
    CNode* node
    uint32_t attr


cdef struct NodeList:
    NodeRef* items
    size_t count
    size_t capacity


cdef class XPath:
    cdef Op* ops
    cdef Step* steps
    cdef Predicate* predicates
    cdef NameSlot* names
    cdef uint32_t op_count
    cdef uint32_t step_count
    cdef uint32_t predicate_count
    cdef uint32_t name_count
    cdef uint32_t namespace_count
    cdef uint32_t root_first      # the top-level block
    cdef uint32_t root_count
    cdef uint32_t root_flat
    cdef list strings             # literals, names, namespace URIs (str)
    cdef list utf8                # the same as UTF-8 bytes
    cdef list namespace_strings   # per namespace slot: string index
    cdef list extension_functions # Python callables of CALL ops
    cdef str source
    cdef object namespaces_key
    cdef object extensions_key
