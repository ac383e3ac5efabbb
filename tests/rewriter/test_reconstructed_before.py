"""Markup before a formatting element the parser reconstructed inside
another one (issue 39's refusals): the end tags of it and of the ones
inside it are written, then the markup, whose first start tag (an element
"any other start tag" makes, _RECONSTRUCTING_START) makes the parser
reconstruct the outer ones, as text does; then start tags for it and the
ones inside it. Markup that starts otherwise (a <meta>, which the parser
handles as in <head>, a comment) gets start tags for the outer ones
first (test_reconstruction_split.py); a <div> there is refused as markup
the parser would not keep whole."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import MARKUP, check, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CASES = [
    # (input, the name of the reconstructed element edited, markup)
    ("<p><b><i>x<p>y", "i", MARKUP),
    ("<p><b><i>x<p>y", "i", "<img src=a><em>z</em>"),
    ("<p><b><i id=1><u>x<p>y", "u", "<br>"),
    ("<p><b><i id=1><u>x<p>y", "i", "<span>q</span>r"),
    ("<div><a href=x><s>x</div>y", "s", "<abbr title=t>t</abbr>"),
]


def _before(data, name, markup, chunk=None):
    def handler(element):
        if element.implied:
            element.before(markup, html=True)
    rw = Rewriter().on(name, element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _dom_before(data, name, markup):
    dom = lexpy.parse(data)
    element = dom.query_selector_all(name)[-1]      # (the reconstructed one)
    for node in list(lexpy.parse_fragment(markup, element.parent_node.local_name).child_nodes):
        element.before(node)
    return _normalized_dump(dom)


@pytest.mark.parametrize("chunk", [None, 1, 5])
@pytest.mark.parametrize("data,name,markup", CASES)
def test_markup_before_a_reconstructed_element(data, name, markup, chunk):
    out = _before(data, name, markup, chunk)
    assert _normalized_dump(lexpy.parse(out)) == _dom_before(data, name, markup)


def test_markup_that_starts_otherwise_is_refused():
    with pytest.raises(RewriteError, match="keep it whole"):
        _before("<p><b><i>x<p>y", "i", "<div>d</div>")


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", sorted({case[0] for case in CASES}))
def test_the_oracle_finds_no_difference(data, chunked):
    assert not check(data, False, "before_markup", chunked=chunked).mismatches
