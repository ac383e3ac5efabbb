"""Content before the adoption agency's furthest block, or at its start
(Rewriter._split_watch, _split_furthest): when the furthest block is a
special element that its start tag, doing nothing else, made a child of
the formatting element (the current node and the last entry of the list of
active formatting elements), the algorithm's first step moves it after the
formatting element and puts a copy of that one around its content. The
output writes that step: the formatting element's end tag before the
content before it, its start tag (with its own attributes) after the
furthest block's start tag and the content at its start. Output from the
furthest block's start tag is held back until the algorithm runs or the
element ends (with elements between them: test_agency_split_edits). Refused
still: a foster-parented formatting element (a table's insertion mode reads
what is written), an edited formatting element."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import TEXT, MARKUP, HEAD_MARKUP, _normalized_dump, \
    _fragment_nodes
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _edit(data, name, operation, content, html, chunk=None):
    done = [False]

    def handler(element):
        if element.local_name == name and not done[0]:
            done[0] = True
            getattr(element, operation)(content, html=html)
    rw = Rewriter(scripting=False).on("*", element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _expected(data, name, operation, content, html):
    doc = lexpy.parse(data, scripting=False)
    element = doc.query_selector(name)
    where = element.parent_node if operation == "before" else element
    nodes = _fragment_nodes(content, where, False) if html else [content]
    if operation == "before":
        for node in nodes:
            element.before(node)
    else:
        for node in reversed(nodes):
            element.prepend(node)
    return _normalized_dump(doc)


ACCEPTED = [
    ("<a><p></a></p>", "p"),
    ("<a>1<p>2</a>3</p>", "p"),
    ("<a>1<div>2<div>3</a>4</div>5</div>", "div"),
    ("<a href=x class=y>1<button>2</a>3</button>", "button"),
    ("<b>1<address>2<i>3</b>4</i>5", "address"),
    ("<div><b>1<p>2</b>3</p></div>", "p"),
]


@pytest.mark.parametrize("data,name", ACCEPTED)
@pytest.mark.parametrize("operation", ["before", "prepend"])
@pytest.mark.parametrize("content,html", [(TEXT, False), (MARKUP, True),
                                          (HEAD_MARKUP, True)])
@pytest.mark.parametrize("chunk", [None, 1, 4])
def test_the_first_step_is_written(data, name, operation, content, html, chunk):
    out = _edit(data, name, operation, content, html, chunk)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, name, operation, content, html)


def test_the_written_step():
    assert _edit("<a href=x>1<p>2</a>3</p>", "p", "before", "X", False) == \
        '<a href=x>1</a>X<p><a href="x">2</a>3</p>'
    assert _edit("<a>1<p>2</a>3</p>", "p", "prepend", "X", False) == \
        "<a>1</a><p>X<a>2</a>3</p>"


def test_no_agency_writes_nothing_more():
    assert _edit("<a>1<p>2</p>3</a>", "p", "before", "X", False) == "<a>1X<p>2</p>3</a>"


def test_output_is_held_from_the_furthest_block_only():
    rw = Rewriter(scripting=False, encoding="utf-8").on(
        "p", element=lambda e: e.before("X"))
    first = rw.feed(b"<a>1<p>2")
    assert first == b"<a>1"
    assert first + rw.feed(b"</a>3") + rw.close() == b"<a>1</a>X<p><a>2</a>3"


@pytest.mark.parametrize("data,name", [
    ("<table><a>1<p>2</a>3</p>", "p"),                  # (foster-parented <a>)
    ("<!doctype html><table><td><table><i>a<div>b<b>c</i>d", "div"),
])
def test_other_furthest_blocks_stay_refused(data, name):
    with pytest.raises(RewriteError):
        _edit(data, name, "before", HEAD_MARKUP, True)


def test_an_edited_formatting_element_stays_refused():
    def handler(element):
        if element.local_name == "a":
            element.set_attribute("x", "1")
        elif element.local_name == "p":
            element.before("X")
    rw = Rewriter(scripting=False).on("a, p", element=handler)
    with pytest.raises(RewriteError, match="adoption agency"):
        rewrite_in_chunks("<a>1<p>2</a>3</p>", rw, None)


def test_the_hold_ends_with_the_furthest_block():
    # (No adoption agency: at the <p>'s end the output is released.)
    rw = Rewriter(scripting=False, encoding="utf-8").on(
        "p", element=lambda e: e.before("X"))
    first = rw.feed(b"<a>1<p>2</p><b>")
    assert first == b"<a>1X<p>2</p><b>"
    assert first + rw.feed(b"3</a>") + rw.close() == b"<a>1X<p>2</p><b>3</a>"


def test_a_removed_furthest_block_stays_refused():
    def handler(element):
        if element.local_name == "p":
            element.before("X")
            element.remove()
    with pytest.raises(RewriteError, match="adoption agency"):
        rewrite_in_chunks("<a>1<p>2</a>3</p>4", Rewriter().on("*", element=handler), None)


@pytest.mark.parametrize("data,name", [
    ("<!DOCTYPE html><body><em><br></em>", "br"),
    ("<!DOCTYPE html><font><input><input></font>", "input"),
])
def test_a_void_element_holds_nothing(data, name):
    # (It is popped at once: never a furthest block; the output is whole.)
    out = _edit(data, name, "before", "X", False)
    assert out.endswith(data[-7:])
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, name, "before", "X", False)


def test_an_agency_at_its_limit():
    # Eight steps with a furthest block: the output's own end tag would run
    # one more after the first step written out, so the seven after it
    # are written out too and the input's end tag left out (_split_eight).
    data = "<a>1" + "<div>" * 10 + "</a>x"
    assert _normalized_dump(lexpy.parse(_edit(data, "div", "before", "X", False))) == \
        _expected(data, "div", "before", "X", False)
    assert _normalized_dump(lexpy.parse(
        _edit("<a>1" + "<div>" * 6 + "</a>x", "div", "before", "X", False))) == \
        _expected("<a>1" + "<div>" * 6 + "</a>x", "div", "before", "X", False)
