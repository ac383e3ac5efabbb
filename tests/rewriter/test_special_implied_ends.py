"""A rename or unwrap of a special element whose start tag closed elements
by implied end tags only (a <p> in button scope before a <div>, the <li>
an <li>'s loop found) (issue 39's refusals "its start tag closed, implied
or reconstructed elements, which the other start tag would not"): end
tags for them are written before it, and the reparse closes the same
elements there. A start tag that closed anything else (a heading, a
formatting element) is still refused."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check

CLOSED = "its start tag closed, implied or reconstructed elements"


def _run(data, selector, nth, edit, chunk):
    seen = [0]

    def handler(element):
        seen[0] += 1
        if seen[0] == nth:
            edit(element)

    rw = Rewriter().on(selector, element=handler)
    raw = data.encode()
    step = chunk or len(raw)
    out = b"".join(rw.feed(raw[i:i + step]) for i in range(0, len(raw), step)) + rw.close()
    return out.decode()


def _rename(element):
    element.tag_name = "abbr"


@pytest.mark.parametrize("chunk", [None, 1, 5])
@pytest.mark.parametrize("data, selector, nth, edit, expected", [
    ("<!doctype html><p>foo<div>bar<p>baz", "div", 1, _rename,
     "<!doctype html><p>foo</p><abbr>bar<p>baz</p></abbr>"),
    ("<!doctype html><li>a<li>b", "li", 2, _rename,
     "<!doctype html><li>a</li><abbr>b</abbr>"),
    ("<!doctype html><li><option><li>x", "li", 2, _rename,
     "<!doctype html><li><option></option></li><abbr>x</abbr>"),
    ("<!doctypehtml><p><dt>x", "dt", 1, lambda e: e.remove_and_keep_content(),
     "<!doctypehtml><p></p>x"),
])
def test_end_tags_are_written_for_what_its_start_tag_closed(data, selector, nth, edit,
                                                            expected, chunk):
    assert _run(data, selector, nth, edit, chunk) == expected


@pytest.mark.parametrize("data", [
    "<!doctype html><p>foo<div>bar<p>baz", "<!doctype html><p>foo<ul>bar<p>baz",
    "<!doctype html><dd><optgroup><dd>", "<!doctypehtml><p><dt>", "<!doctype html><p><h1>",
    "<dd><dd><dt><dt><dd><li><li>", "<!doctype html><li><option><li>x"])
@pytest.mark.parametrize("chunked", [False, True])
def test_the_dom_edit_is_kept(data, chunked):
    for operation in ("rename", "remove_and_keep_content"):
        figures = check(data, False, operation, chunked=chunked)
        assert not figures.mismatches, figures.mismatches[0]
        assert not any(CLOSED in reason for reason in figures.refused), figures.refused
        assert figures.accepted


@pytest.mark.parametrize("data, selector", [
    ("<h1>Hello<h2>World", "h2"),                       # a heading popped
    ("<!doctype html><p><b>x<div>y", "div"),            # a formatting element popped
    ("<button><p><button>", "button"),                  # a button closed
])
def test_a_start_tag_that_closed_more_is_refused(data, selector):
    with pytest.raises(RewriteError, match=CLOSED):
        _run(data, selector, 2 if data.startswith("<button>") else 1, _rename, None)
