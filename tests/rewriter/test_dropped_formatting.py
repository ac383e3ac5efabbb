"""Removed or replaced content where formatting elements are left to
reconstruct (issue 39's refusals): when the list of active formatting
elements at the element's end is the one where its dropped content began,
entry for entry, the dropped content neither holds nor took off an
element the parser reconstructs later, so the output reconstructs the same
ones (`<p><b>1<span>2<p>3` without the <span>: the <b> is still made again
for "3"). Content that leaves its own formatting elements to reconstruct,
or that took one off the list (Noah's Ark) when some are left to
reconstruct, stays refused."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import TEXT, check, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _edit(data, name, operation, chunk=None):
    seen = []

    def handler(element):
        seen.append(element)
        if len(seen) > 1:
            return      # (the first one only, as _dom_edit)
        if operation == "remove":
            element.remove()
        else:
            element.set_inner_content(TEXT)
    rw = Rewriter().on(name, element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _dom_edit(data, name, operation):
    dom = lexpy.parse(data)
    element = dom.query_selector(name)
    if operation == "remove":
        element.remove()
    else:
        for child in list(element.child_nodes):
            child.remove()
        element.append(TEXT)
    return _normalized_dump(dom)


ACCEPTED = [
    ("<p><b>1<span>2<p>3", "span", "remove"),
    ("<p><b>1<span>2<p>3", "span", "set_inner_content"),
    ("<p><b>1<p>2", "b", "set_inner_content"),
    ("<p><i>0<b>1<em>2<p>3", "em", "set_inner_content"),
    ("<div><p>Test<u><span>x</p></div>y", "span", "remove"),
    ("<p><b>1<span>2<i>3</i><p>4", "span", "remove"),
    # (a formatting element inside the dropped content is reconstructed:
    # a start tag makes its copy there, _drop_unlists)
    ("<p><span><b>1<p>2", "span", "remove"),
    ("<p><span><b>1<p>2", "span", "set_inner_content"),
    # (a removed formatting element: its entry is not in the output; its
    # copy gets a start tag)
    ("<p><b>1<p>2", "b", "remove"),
]


@pytest.mark.parametrize("chunk", [None, 1, 4])
@pytest.mark.parametrize("data,name,operation", ACCEPTED)
def test_the_same_elements_are_reconstructed(data, name, operation, chunk):
    out = _edit(data, name, operation, chunk)
    assert _normalized_dump(lexpy.parse(out)) == _dom_edit(data, name, operation)


REFUSED = [
    # (the dropped content's fourth <b> took the first one off the list,
    # and its first <i> is reconstructed)
    ("<p><b>0<span><b><b><b><i>1</b></b></b><p>2", "span", "set_inner_content"),
]


@pytest.mark.parametrize("data,name,operation", REFUSED)
def test_other_formatting_elements_to_reconstruct_are_refused(data, name, operation):
    with pytest.raises(RewriteError, match="reconstruct"):
        _edit(data, name, operation)


@pytest.mark.parametrize("data", sorted({case[0] for case in ACCEPTED + REFUSED}))
@pytest.mark.parametrize("operation", ["remove", "set_inner_content"])
@pytest.mark.parametrize("chunked", [False, True])
def test_the_oracle_finds_no_difference(data, operation, chunked):
    assert not check(data, False, operation, chunked=chunked).mismatches
