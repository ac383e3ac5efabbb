"""Inserted markup that leaves an element open or closes one it did not
open (issue 39): the DOM edit parses it as a fragment in the element's
context, where an unclosed <div> ends with the fragment; written into the
stream it takes what follows with it (in an HTML integration point the
parser even ignores the holder's end tag). Refused (_markup_kept, with
the context-dependent cases in test_markup_content.py); closed markup is
written."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

WHY = "would not keep it whole"


@pytest.mark.parametrize("chunk", [None, 1, 5])
@pytest.mark.parametrize("data, selector, markup", [
    ("<svg><foreignObject></foreignObject></svg>x", "foreignObject", "<div>d"),
    ("<svg><desc></desc></svg>x", "desc", "<b>d"),
    ("<svg><title></title></svg>x", "title", "<p>d"),
    ("<div></div>x", "div", "<div>d"),
    ("<div></div>x", "div", "</div>d"),
    ("<section><div></div>x</section>", "div", "</section>")])
def test_unclosed_markup_is_refused(data, selector, markup, chunk):
    rw = Rewriter().on(selector, element=lambda e: e.append(markup, html=True))
    with pytest.raises(RewriteError, match=WHY):
        rewrite_in_chunks(data, rw, chunk)


def test_what_it_would_write_reparses_otherwise():
    data = "<svg><foreignObject></foreignObject></svg>x"
    dom = lexpy.parse(data)
    target = dom.query_selector("foreignObject")
    for node in list(lexpy.parse_fragment("<div>d", "foreignObject", namespace="svg").child_nodes):
        target.append(node)
    written = "<svg><foreignObject><div>d</foreignObject></svg>x"
    assert lexpy.dump(lexpy.parse(written)) != lexpy.dump(dom)


@pytest.mark.parametrize("chunk", [None, 1])
def test_closed_markup_is_written(chunk):
    rw = Rewriter().on("foreignObject", element=lambda e: e.append("<span>M</span><img>",
                                                                   html=True))
    assert rewrite_in_chunks("<svg><foreignObject></foreignObject></svg>x", rw, chunk) == \
        "<svg><foreignObject><span>M</span><img></foreignObject></svg>x"
    rw = Rewriter().on("p", element=lambda e: e.before("<b>x</b><br>", html=True))
    assert rewrite_in_chunks("<div><p>a</p></div>", rw, chunk) == \
        "<div><b>x</b><br><p>a</p></div>"
