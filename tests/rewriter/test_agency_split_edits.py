"""The adoption agency's first step written out (Rewriter._split_watch,
_split_furthest, _hold_point, _formatting_content_held) for more edits:
- the furthest block replaced, unwrapped or renamed in its start handler:
  as for content before it or at its start (test_agency_split), the
  formatting element's end tag before the furthest block, a start tag
  copying it after the furthest block's start tag (or in its place when it
  is unwrapped), and none for replaced content (the copy would have been
  inside it);
- the formatting element renamed (_watch_renamed_formatting): the new
  name's end tag before the furthest block, a start tag copying the input's
  element after the furthest block's;
- elements between the formatting element and the furthest block
  (_split_chain, _split_between): their end tags first, start tags copying
  those the algorithm copies after the formatting element's end tag.
The later steps run in the reparse from the input's own end tag. Output
from the furthest block's start tag is held back until the algorithm runs
or the element ends (whole input and chunks of 1 and 7 bytes). Refused
still: a foster-parented formatting element, an edited formatting element
with an edited furthest block, a heading or nobr, three entries of a name
(Noah's Ark), an agency run by a start tag for a renamed element. (An
agency at its limit of eight steps: _split_eight.)"""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import OPERATIONS, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks
from tests.rewriter.test_agency_split import ACCEPTED
from tests.rewriter.edit_checks import edit_with_source as _edit, expected_dump as _expected

EDITS = ["set_inner_content", "remove_and_keep_content", "rename"]


# (The furthest blocks of test_agency_split, whose content before them and
# at their start is written the same way.)
@pytest.mark.parametrize("data,name", ACCEPTED)
@pytest.mark.parametrize("operation", EDITS)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_the_first_step_is_written(data, name, operation, chunk):
    out = _edit(data, name, operation, chunk)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, name, operation)


def test_the_written_step():
    assert _edit("<a href=x>1<p>2</a>3</p>", "p", "set_inner_content") == \
        '<a href=x>1</a><p>X&amp;&lt;"&nbsp;</p>'
    assert _edit("<a href=x>1<p>2</a>3</p>", "p", "remove_and_keep_content") == \
        '<a href=x>1</a><a href="x">2</a>3'
    assert _edit("<a>1<p>2</a>3</p>", "p", "rename") == "<a>1</a><abbr><a>2</a>3</abbr>"


def test_no_agency_writes_nothing_more():
    assert _edit("<a>1<p>2</p>3</a>", "p", "rename") == "<a>1<abbr>2</abbr>3</a>"
    assert _edit("<a>1<p>2</p>3</a>", "p", "set_inner_content") == \
        '<a>1<p>X&amp;&lt;"&nbsp;</p>3</a>'


def test_output_is_held_from_the_furthest_block_only():
    def handler(element):
        element.set_inner_content("X")
    rw = Rewriter(scripting=False, encoding="utf-8").on("p", element=handler)
    first = rw.feed(b"<a>1<p>2")
    assert first == b"<a>1"
    assert first + rw.feed(b"</a>3") + rw.close() == b"<a>1</a><p>X"


@pytest.mark.parametrize("data,name", [
    ("<table><a>1<p>2</a>3</p>", "p"),                  # (foster-parented <a>)
])
@pytest.mark.parametrize("operation", EDITS)
def test_other_furthest_blocks_stay_refused(data, name, operation):
    with pytest.raises(RewriteError):
        _edit(data, name, operation)


@pytest.mark.parametrize("operation", EDITS)
def test_an_agency_at_its_limit(operation):
    # Eight steps: the seven after the first are written out too and the
    # input's end tag left out (_split_eight).
    data = "<a>1" + "<div>" * 10 + "</a>x"
    out = _edit(data, "div", operation)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, "div", operation)


@pytest.mark.parametrize("operation", EDITS)
def test_an_edited_formatting_element_stays_refused(operation):
    def handler(element):
        if element.local_name == "a":
            element.set_attribute("x", "1")
        elif element.local_name == "p":
            OPERATIONS[operation][0](element)
    rw = Rewriter(scripting=False).on("a, p", element=handler)
    with pytest.raises(RewriteError, match="adoption agency"):
        rewrite_in_chunks("<a>1<p>2</a>3</p>", rw, None)


# The formatting element renamed (Rewriter._watch_renamed_formatting): the
# first step written with the new name's end tag before the furthest block
# and a start tag copying the input's element after the furthest block's.
FORMATTING = [
    ("<a><p></a></p>", "a"),
    ("<a>1<p>2</a>3</p>", "a"),
    ("<a>1<div>2<div>3</a>4</div>5</div>", "a"),
    ("<a href=x class=y>1<button>2</a>3</button>", "a"),
    ("<b>1<address>2<i>3</b>4</i>5", "b"),
    ("<div><b>1<p>2</b>3</p></div>", "b"),
    ("<a>1<p>2</A >3</p>", "a"),
]


@pytest.mark.parametrize("data,name", FORMATTING)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_a_renamed_formatting_element(data, name, chunk):
    out = _edit(data, name, "rename", chunk)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, name, "rename")


def test_the_written_step_of_a_renamed_formatting_element():
    assert _edit("<a href=x>1<p>2</a>3</p>", "a", "rename") == \
        '<abbr href="x">1</abbr><p><a href="x">2</a>3</p>'


@pytest.mark.parametrize("data,name", [
    ("<a>1<p>2<a>3</p>", "a"),             # (run by a start tag, not its own end tag)
    ("<table><a>1<p>2</a>3</p>", "a"),     # (foster-parented)
    ("<a>1" + "<div>" * 10 + "</a>x", "a"),
])
def test_other_renamed_formatting_elements_stay_refused(data, name):
    with pytest.raises(RewriteError):
        _edit(data, name, "rename")


def test_a_renamed_formatting_element_without_agency():
    assert _edit("<a>1<p>2</p>3</a>", "a", "rename") == "<abbr>1<p>2</p>3</abbr>"


# Elements between the formatting element and the furthest block
# (Rewriter._split_chain, _split_between): their end tags and the
# formatting element's before the furthest block, then start tags copying
# those the algorithm copied (the formatting elements among them), then the
# furthest block's start tag and the formatting element's copy.
CHAINS = [
    ("<a>1<b>2<p>3</a>4", "p", 0),
    ("<b>1<i>2<p>3</b>4", "p", 0),
    ("<a>1<b>2<span>3<i>4<p>5</a>6", "p", 0),
    ("<b>A<cite>B<div>C</b>D", "div", 0),
    ("<a><b><b><p></a>", "p", 0),
    ("<div><a><b><u><i><code><div></a>", "div", 1),
    ("<a><b><big><em><strong><div>X</a>", "div", 0),
]
CHAIN_OPERATIONS = ["before_text", "prepend_text", "before_markup"] + EDITS


@pytest.mark.parametrize("data,name,index", CHAINS)
@pytest.mark.parametrize("operation", CHAIN_OPERATIONS)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_elements_between(data, name, index, operation, chunk):
    out = _edit(data, name, operation, chunk, index)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, name, operation, index)


def test_the_written_steps_with_elements_between():
    assert _edit("<a>1<b>2<p>3</a>4", "p", "prepend_text") == \
        '<a>1<b>2</b></a><b><p>X&amp;&lt;"&nbsp;<a>3</a>4'
    assert _edit("<a>1<b>2<span>3<i>4<p>5</a>6", "p", "remove_and_keep_content") == \
        "<a>1<b>2<span>3<i>4</i></span></b></a><b><i><a>5</a>6"


@pytest.mark.parametrize("data,name", [
    ("<a><nobr><p>x</a>", "p"),         # (nobr's start tag runs the algorithm itself)
    ("<a><b><b><b><p>x</a>y", "p"),     # (three b: the Noah's Ark clause)
    ("<a>1<b>2<h1>3</a>4", "h1"),       # (a heading: its start tag reads the current node)
])
@pytest.mark.parametrize("operation", CHAIN_OPERATIONS)
def test_other_elements_between_stay_refused(data, name, operation):
    with pytest.raises(RewriteError):
        _edit(data, name, operation)


# Content appended to the formatting element or after it, or its rename,
# with elements between it and the furthest block (Rewriter._hold_point,
# _formatting_content_held): the same step written at the furthest block's
# start tag, the appended content after the end tags of the elements
# between, the content after it after its own end tag.
FORMATTING_CHAINS = [
    ("<a>1<b>2<p>3</a>4", "a"),
    ("<b>1<i>2<p>3</b>4", "b"),
    ("<a>1<b>2<span>3<i>4<p>5</a>6", "a"),
    ("<b>A<cite>B<div>C</b>D", "b"),
    ("<a><b><b><p></a>", "a"),
    ("<a><b><big><em><strong><div>X</a>", "a"),
]


@pytest.mark.parametrize("data,name", FORMATTING_CHAINS)
@pytest.mark.parametrize("operation", ["append_text", "after_text", "append_markup", "rename"])
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_formatting_element_with_elements_between(data, name, operation, chunk):
    out = _edit(data, name, operation, chunk)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, name, operation)


def test_the_written_step_of_an_append_with_elements_between():
    assert _edit("<a>1<b>2<p>3</a>4", "a", "append_text") == \
        '<a>1<b>2</b>X&amp;&lt;"&nbsp;</a><b><p><a>3</a>4'


def test_formatting_element_with_elements_between_without_agency():
    assert _edit("<a>1<b>2<p>3</p></b></a>4", "a", "append_text") == \
        '<a>1<b>2<p>3</p></b>X&amp;&lt;"&nbsp;</a>4'


@pytest.mark.parametrize("data,name", [
    ("<a><nobr><p>x</a>", "a"),
    ("<a><b><b><b><p>x</a>y", "a"),
    ("<a>1<b>2<h1>3</a>4", "a"),
])
@pytest.mark.parametrize("operation", ["append_text", "after_text", "rename"])
def test_other_formatting_elements_with_elements_between_stay_refused(data, name, operation):
    with pytest.raises(RewriteError):
        _edit(data, name, operation)
