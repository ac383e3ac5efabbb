"""Shared helpers of the edit tests: one operation of tests/rewriter/oracle.py
on the nth element of a name, judged by the oracle (the reparse equals
the DOM edit), whole and in chunks."""
import random

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import OPERATIONS, _normalized_dump, check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def index_of(data, name, nth=0):
    """The index (in the order the parser inserts them) of the nth element
    named `name`."""
    names = []
    rewrite_in_chunks(data, Rewriter(scripting=False).on(
        "*", element=lambda e: names.append(e.local_name)), None)
    return [i for i, n in enumerate(names) if n == name][nth]


def edited(data, name, operation, chunk=None, nth=0):
    """The output of `operation` on the nth `name`, or the RewriteError."""
    seen = [0]

    def handler(element):
        if element.local_name == name:
            if seen[0] == nth:
                OPERATIONS[operation][0](element)
            seen[0] += 1
    try:
        return rewrite_in_chunks(data, Rewriter(scripting=False).on("*", element=handler),
                                 chunk)
    except RewriteError as error:
        return error


def assert_accepted(data, name, operation, nth=0):
    """Accepted, its reparse the DOM edit (whole and in 7-byte chunks), and
    the same output in 1- and 3-byte chunks."""
    index = index_of(data, name, nth)
    for chunked in (False, True):
        figures = check(data, False, operation, chunked=chunked, indexes=[index])
        assert not figures.mismatches, figures.mismatches[0]
        assert (figures.tried, figures.accepted) == (1, 1), dict(figures.refused)
    whole = edited(data, name, operation, None, nth)
    assert isinstance(whole, str)
    for chunk in (1, 3):
        assert edited(data, name, operation, chunk, nth) == whole


def assert_refused(data, name, operation, why, nth=0):
    for chunk in (None, 1):
        error = edited(data, name, operation, chunk, nth)
        assert isinstance(error, RewriteError) and why in str(error), error
    index = index_of(data, name, nth)
    figures = check(data, False, operation, indexes=[index])
    assert not figures.mismatches and figures.accepted == 0


def assert_reparses(data, operation, chunked=False):
    """`operation` on every element of `data`, scripting off and on: no
    accepted edit reparses to another tree than the DOM edit."""
    for scripting in (False, True):
        figures = check(data, scripting, operation, chunked=chunked)
        assert not figures.mismatches, figures.mismatches[0]


def edit_with_source(data, name, operation, chunk=None, index=0, formatting=None):
    """The output of `operation` on the index-th `name` among those with a
    start tag of their own (RewriteError raised); with `formatting`, every
    `formatting` element with a start tag of its own gets data-x=1 too."""
    seen = [0]

    def handler(element):
        if element.source is None:
            return
        if element.local_name == name:
            if seen[0] == index:
                OPERATIONS[operation][0](element)
            seen[0] += 1
        if element.local_name == formatting:
            element.set_attribute("data-x", "1")
    return rewrite_in_chunks(data, Rewriter(scripting=False).on("*", element=handler), chunk)


def expected_dump(data, name, operation, index=0, formatting=None):
    """The DOM edit of edit_with_source, as oracle._normalized_dump gives it
    (the first `formatting` element gets data-x=1)."""
    doc = lexpy.parse(data, scripting=False)
    element = doc.query_selector_all(name)[index]
    if formatting is not None:
        doc.query_selector_all(formatting)[0].set_attribute("data-x", "1")
    if operation.endswith("_markup"):
        OPERATIONS[operation][1](element, False)
    else:
        OPERATIONS[operation][1](element)
    return _normalized_dump(doc)


def generated_inputs(generator, seed, count):
    """`count` distinct inputs of `generator(rnd)`, seeded (the same every
    run): the generated-input tests' inputs."""
    rnd = random.Random(seed)
    seen = []
    while len(seen) < count:
        data = generator(rnd)
        if data not in seen:
            seen.append(data)
    return seen


def check_generated(generator, seed, count, operations):
    """Every operation on each of generated_inputs(generator, seed, count),
    scripting on for every third input and chunked for every other one:
    (the mismatches, how many edits were accepted)."""
    mismatches = []
    accepted = 0
    for n, data in enumerate(generated_inputs(generator, seed, count), start=1):
        for operation in operations:
            figures = check(data, n % 3 == 0, operation, chunked=n % 2 == 1)
            mismatches += figures.mismatches
            accepted += figures.accepted
    return mismatches, accepted
