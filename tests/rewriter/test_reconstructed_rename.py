"""A formatting element the parser reconstructed (at a text token or a
start tag that does nothing else), renamed (issue 39's refusals): end tags
for it and the ones reconstructed inside it take them off the list of
active formatting elements, then a start tag of the new name (any other
start tag: the parser reconstructs the ones before it, as it did) and
start tags for the ones inside it (_end_reconstructed); its own end tag
is written with the new name, or at the end of input, where it ends as
the current node (Rewriter._renamed_formatting_eof). Refused as before:
one that ends elsewhere without its own end tag, or holds an element of
its name (the rename rules of Rewriter._popped)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CASES = [
    # (input, name of the reconstructed element renamed (the last one))
    ("<a>1<b>2</a>3</b>", "b"),
    ("<p><b id=x>1<p>2</b>3", "b"),
    ("<p><b><i>x<p>y</i>z</b>", "i"),
    ("<p><b><i>x<p>y</i>z</b>", "b"),
    ("<!DOCTYPE html><p><b></p><menuitem>m</b>", "b"),
    ("<a>1<b>2</a>3", "b"),         # ends at the end of input, the current node
]


def _rename(data, name, chunk=None):
    def handler(element):
        if element.implied:
            element.tag_name = "abbr"
    rw = Rewriter().on(name, element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _dom_rename(data, name):
    dom = lexpy.parse(data)
    old = dom.query_selector_all(name)[-1]
    new = dom.create_element("abbr")
    for key, value in old.attributes.items():
        new.set_attribute(key, value)
    for child in list(old.child_nodes):
        new.append_child(child)
    old.replace_with(new)
    return _normalized_dump(dom)


@pytest.mark.parametrize("chunk", [None, 1, 4])
@pytest.mark.parametrize("data,name", CASES)
def test_a_reconstructed_element_renamed(data, name, chunk):
    out = _rename(data, name, chunk)
    assert _normalized_dump(lexpy.parse(out)) == _dom_rename(data, name)


def test_the_output():
    assert _rename("<a>1<b>2</a>3</b>", "b") == "<a>1<b>2</a></b><abbr>3</abbr>"


@pytest.mark.parametrize("data", [
    "<a>1<b>2</a><p>3</p>4",        # closed by the </p>, without its end tag
    "<p><b>1<p>2<b>3</b>4</b>",     # holds an element of its name
    "<p><b>1<p>2<div>3</div></b>",  # its end tag's adoption agency moves the div
])
def test_near_cases_are_refused(data):
    with pytest.raises(RewriteError):
        _rename(data, "b")


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", sorted({case[0] for case in CASES}))
def test_the_oracle_finds_no_difference(data, chunked):
    assert not check(data, False, "rename", chunked=chunked).mismatches
