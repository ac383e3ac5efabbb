"""Content appended to the adoption agency's formatting element
(Rewriter._hold_point, _formatting_content_held): when the furthest block
is a special element that the formatting element's start tag made its
child (`<a>1<p>2</a>`: the <p>), the algorithm moves that child and all
after it out and ends the formatting element, whose children are then those
before it. The content goes right before the furthest block's start tag,
and the reparse runs the same algorithm. The output from that start tag
is held back until the formatting element ends (the same output whatever
the chunks). Content after the formatting element goes between it and the
furthest block: the algorithm's first step is written out (its end tag
before the content, a start tag copying it after the furthest block's,
as Rewriter._split_watch does). A furthest block deeper down (an element
between them stays in the formatting element before the content) gets the
first step written out with the end tags of the elements between first."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import TEXT, MARKUP, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _append(data, content, html, chunk=None, nth=0, name="a"):
    seen = [0]

    def handler(element):
        if element.local_name == name and not element.implied:
            if seen[0] == nth:
                element.append(content, html=html)
            seen[0] += 1
    rw = Rewriter(scripting=False).on("*", element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _expected(data, content, html, nth=0, name="a"):
    doc = lexpy.parse(data, scripting=False)
    element = [e for e in doc.query_selector_all(name)][nth]
    if html:
        for node in list(lexpy.parse_fragment(content, name).child_nodes):
            element.append(node)
    else:
        element.append(content)
    return _normalized_dump(doc)


ACCEPTED = [
    "<a><p></a></p>",
    "<a>1<p>2</a>3</p>",
    "<a>1<div>2<div>3</a>4</div>5</div>",
    "<a>1<button>2</a>3</button>",
    "<a>1<p>x</p><p>2<i>3</a>4",
    "<div><b>1<div>2</b>3</div></div>",
    "<a href=x>1<address>2<b>3</a>4</b>",
]


@pytest.mark.parametrize("data", ACCEPTED)
@pytest.mark.parametrize("html", [False, True])
@pytest.mark.parametrize("chunk", [None, 1, 2, 5])
def test_content_goes_before_the_furthest_block(data, html, chunk):
    name = "b" if data.startswith("<div><b>") else "a"
    content = MARKUP if html else TEXT
    out = _append(data, content, html, chunk, name=name)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, content, html, name=name)


def test_the_content_is_written_before_the_start_tag():
    assert _append("<a>1<p>x</p><p>2</a>3", "X", False) == "<a>1<p>x</p>X<p>2</a>3"


def test_output_before_the_hold_point_is_not_held():
    # (encoding given: the output does not wait for the <meta> prescan)
    rw = Rewriter(scripting=False, encoding="utf-8").on(
        "a", element=lambda e: e.implied or e.append("X"))
    first = rw.feed(b"<a>1<p>2")
    assert first == b"<a>1"
    assert first + rw.feed(b"</a>3") + rw.close() == b"<a>1X<p>2</a>3"


def test_a_plain_end_writes_the_content_at_the_end():
    assert _append("<a>1<p>2</p></a>3", "X", False) == "<a>1<p>2</p>X</a>3"


@pytest.mark.parametrize("data", [
    "<b>1<i>2<p>3</b>4",            # (the <i> between them stays, after the content)
    "<a>1<span><p>2</a>3",          # (the <span> stays in the <a>)
])
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_deeper_furthest_blocks_write_the_first_step(data, chunk):
    # (The end tags of the elements between, the content, the formatting
    # element's end tag, copies: Rewriter._split_chain.)
    name = "b" if data.startswith("<b>") else "a"
    out = _append(data, "X", False, chunk, name=name)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _expected(data, "X", False, name=name)


def test_a_deeper_heading_stays_refused():
    with pytest.raises(RewriteError, match="adoption agency|middle"):
        _append("<a>1<span><h2>2</a>3", "X", False)


def _after(data, content, html, chunk=None, name="a"):
    def handler(element):
        if element.local_name == name and not element.implied:
            element.after(content, html=html)
    rw = Rewriter(scripting=False).on(name, element=handler)
    return rewrite_in_chunks(data, rw, chunk)


@pytest.mark.parametrize("data", ACCEPTED)
@pytest.mark.parametrize("html", [False, True])
@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_content_after_it_goes_between_them(data, html, chunk):
    # (The algorithm's first step written out: its end tag, the content,
    # the furthest block's start tag, then a start tag copying it.)
    name = "b" if data.startswith("<div><b>") else "a"
    content = MARKUP if html else TEXT
    out = _after(data, content, html, chunk, name)
    doc = lexpy.parse(data, scripting=False)
    element = doc.query_selector(name)
    nodes = list(lexpy.parse_fragment(content, element.parent_node.local_name).child_nodes) \
        if html else [content]
    for node in reversed(nodes):
        element.after(node)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == _normalized_dump(doc)


def test_content_after_it_written():
    assert _after("<a href=x>1<p>2</a>3", "X", False) == '<a href=x>1</a>X<p><a href="x">2</a>3'


@pytest.mark.parametrize("data", [
    "<table><a>1<p>2</a>3</p>",     # (foster-parented: a table's insertion mode)
    "<b>1<i>2<h3>3</b>4",           # (a heading's start tag reads the current node)
])
def test_content_after_it_stays_refused_elsewhere(data):
    name = "b" if data.startswith("<b>") else "a"
    with pytest.raises(RewriteError):
        _after(data, "X", False, name=name)


def test_content_after_it_at_every_two_splits():
    # (The indexes of the held output move with what is released at each
    # feed, the one after the furthest block's start tag too.)
    data = "<a href=x>1<p>2</a>3"
    doc = lexpy.parse(data, scripting=False)
    doc.query_selector("a").after("X")
    expected = _normalized_dump(doc)
    for i in range(1, len(data)):
        for j in range(i, len(data)):
            rw = Rewriter(scripting=False, encoding="utf-8").on(
                "a", element=lambda e: e.implied or e.after("X"))
            out = b"".join(rw.feed(part.encode()) for part in (data[:i], data[i:j], data[j:]))
            out += rw.close()
            assert _normalized_dump(lexpy.parse(out.decode(), scripting=False)) == expected, \
                (i, j, out)
