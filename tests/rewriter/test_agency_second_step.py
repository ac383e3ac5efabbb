"""Edits of the adoption agency algorithm's second furthest block
(Rewriter._agency_second_formatting, _agency_second_first,
_agency_second_furthest): r, a special element whose start tag made it a
child of a special element P, P a child of an open formatting element F
(the last entry of the list of active formatting elements, the only one of
its name). F's end tag run while r is open takes P as its first furthest
block (the content before r goes into a copy of F) and r as its second (r
goes after that copy, a second copy takes r's children). Content before
r, at its start, r's content replaced, r unwrapped or renamed: written as
F's end tag before r and the content before it, a start tag copying F
after r's start tag (none for replaced content); the input's end tag then
does the rest. The output is held from r's start tag until the algorithm
runs or r ends (the hold of _split_watch). Whole input and chunks of 1 and
7 bytes, checked against the DOM edit.

Refused still (near cases): F itself edited, r not a block the steps
written take (an <li>). (r the third furthest block, or two entries of F's
name: test_agency_deep_steps.py.)"""
import pytest

import lexpy
from lexpy.rewriter import RewriteError
from tests.rewriter.oracle import _normalized_dump
from tests.rewriter.edit_checks import edit_with_source, expected_dump

EDITS = ["before_text", "prepend_text", "before_markup", "set_inner_content", "rename",
         "remove_and_keep_content"]

# (input, the name of r, which of them in tree order)
ACCEPTED = [
    ("<a>1<div>2<div>3</a>4</div>5</div>", "div", 1),
    ("<a href=1>1<div>2<div>3</a>4</div>5</div>", "div", 1),
    ("<b>x<blockquote>y<section>z</b>w</section>v</blockquote>u", "section", 0),
    ("<a>1<div>2<div>3<span>s</a>4</div>5</div>", "div", 1),
    ("<em>1<div>2<ul>3</em>4</ul>5</div>", "ul", 0),
    # The third furthest block: the steps written out one by one
    # (_split_deep_steps, test_agency_deep_steps.py).
    ("<a>1<div>2<div>3<div>q</a>4</div>5</div>", "div", 2),
    # Two entries of F's name: the chain of both (_split_deep_chain; the
    # early end tag takes the inner one off, the copy makes two again).
    ("<b><b>1<div>2<div>3</b>4</div>5</div>", "div", 1),
]

REFUSED = [
    ("<i>1<div>2<ul>3<li>x</i>4</ul>5</div>", "li", 0),
]


def _edit(data, name, index, operation, chunk, formatting=None):
    return edit_with_source(data, name, operation, chunk, index, formatting)


def _expected(data, name, index, operation, formatting=None):
    return expected_dump(data, name, operation, index, formatting)


def _dump(html):
    return _normalized_dump(lexpy.parse(html, scripting=False))


@pytest.mark.parametrize("data,name,index", ACCEPTED)
@pytest.mark.parametrize("operation", EDITS)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_the_second_step_is_written(data, name, index, operation, chunk):
    out = _edit(data, name, index, operation, chunk)
    assert _dump(out) == _expected(data, name, index, operation), out


def test_what_is_written():
    out = _edit("<a>1<div>2<div>3</a>4</div>5</div>", "div", 1, "before_text", None)
    assert out == '<a>1<div>2</a>X&amp;&lt;"&nbsp;<div><a>3</a>4</div>5</div>'
    out = _edit("<a>1<div>2<div>3</a>4</div>5</div>", "div", 1, "set_inner_content", 1)
    assert out == '<a>1<div>2</a><div>X&amp;&lt;"&nbsp;</div>5</div>'


@pytest.mark.parametrize("data,name,index", REFUSED)
@pytest.mark.parametrize("operation", EDITS)
@pytest.mark.parametrize("chunk", [None, 7])
def test_near_cases_are_refused(data, name, index, operation, chunk):
    with pytest.raises(RewriteError):
        _edit(data, name, index, operation, chunk)


@pytest.mark.parametrize("operation", EDITS)
def test_an_edited_formatting_element(operation):
    # F's copies are made from its start tag: refused, or written so that
    # the reparse is the DOM edit.
    data = "<b>1<div>2<div>3</b>4</div>5</div>"
    try:
        out = _edit(data, "div", 1, operation, None, formatting="b")
    except RewriteError:
        return
    assert _dump(out) == _expected(data, "div", 1, operation, formatting="b"), out
