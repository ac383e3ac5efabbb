# cython: language_level=3
"""Hooks for the unit tests into one parse (a TreeConstruction), built only
by a test build (LEXPY_TEST_BUILD=1; setup.py): fault injection, and views
of the tree builder's state that the tests check (tests/treebuilder/).
"""

from libc.stdint cimport uint64_t
from lexpy.tokenizer.token cimport Token
from lexpy.tokenizer.tokenizer cimport Tokenizer, tokenizer_set_callback
from lexpy.treebuilder.treebuilder cimport (
    TreeBuilder, tree_builder_token, stack_index_is_consistent,
    formatting_counts_are_consistent, tree_builder_formatting_census,
    tree_builder_last_formatting_signature, tree_builder_scratch_capacity)
from lexpy.driver.driver cimport (
    construction_enter, construction_leave, construction_discard)


# Fault injection: a token callback that hands `countdown` tokens to the
# tree builder, then stops the tokenizer with the status of its own
# out-of-memory path (-1).
cdef struct FaultInjection:
    Tokenizer* tokenizer          # the tokenizer that calls back
    TreeBuilder* builder
    size_t countdown


cdef int token_then_fail(void* context, Token* token) noexcept nogil:
    cdef FaultInjection* fault = <FaultInjection*> context
    if fault.countdown == 0:
        return -1
    fault.countdown -= 1
    return tree_builder_token(fault.builder, token)


cdef class _Fault:
    cdef FaultInjection c_fault


# The armed faults by id(construction): each lives as long as the tokenizer
# that calls back into it may (a later fault on a construction of the same
# id replaces it; the tokenizer of the one gone went with it).
_faults = {}


def fail_tokenizer_after(construction, size_t tokens):
    """The tokenizer stops as when out of memory after handing `tokens`
    more tokens to the tree builder (until a re-parse makes a new one)."""
    cdef Tokenizer* tokenizer
    cdef TreeBuilder* builder
    cdef _Fault fault = _Fault()
    construction_enter(construction, &tokenizer, &builder)
    try:
        fault.c_fault.countdown = tokens
        fault.c_fault.builder = builder
        fault.c_fault.tokenizer = tokenizer
        _faults[id(construction)] = fault
        tokenizer_set_callback(tokenizer, token_then_fail, &fault.c_fault)
    finally:
        construction_leave(construction)


def lose_parse_state(construction):
    """The state a re-parse that ran out of memory in its restart leaves
    (no tokenizer, no tree builder)."""
    construction_discard(construction)


def formatting_census(construction):
    """(entries in the list of active formatting elements, signatures in
    the Noah's Ark table)."""
    cdef Tokenizer* tokenizer
    cdef TreeBuilder* builder
    cdef size_t entries, signatures
    construction_enter(construction, &tokenizer, &builder)
    try:
        tree_builder_formatting_census(builder, &entries, &signatures)
        return (entries, signatures)
    finally:
        construction_leave(construction)


def last_formatting_signature(construction):
    """The Noah's Ark signature of the last entry of the list of active
    formatting elements (None when the list is empty)."""
    cdef Tokenizer* tokenizer
    cdef TreeBuilder* builder
    cdef uint64_t signature
    construction_enter(construction, &tokenizer, &builder)
    try:
        signature = tree_builder_last_formatting_signature(builder)
        return None if signature == 0 else signature
    finally:
        construction_leave(construction)


def indexes_are_consistent(construction):
    """Whether the stack of open elements' index and the counts of the list
    of active formatting elements are what walks over them find
    (open_elements.pxi, active_formatting.pxi)."""
    cdef Tokenizer* tokenizer
    cdef TreeBuilder* builder
    construction_enter(construction, &tokenizer, &builder)
    try:
        return stack_index_is_consistent(builder) and \
            formatting_counts_are_consistent(builder)
    finally:
        construction_leave(construction)


def scratch_capacity(construction):
    """Bytes of the tree builder's scratch buffer (text decoded before its
    conversion into the DOM)."""
    cdef Tokenizer* tokenizer
    cdef TreeBuilder* builder
    construction_enter(construction, &tokenizer, &builder)
    try:
        return tree_builder_scratch_capacity(builder)
    finally:
        construction_leave(construction)
