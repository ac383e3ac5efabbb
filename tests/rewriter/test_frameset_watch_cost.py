"""The cost of Rewriter._frameset_watch on the engine's fast path (issue 39
point 8): it returns False, and changes nothing, while no HTML body child
of the HTML html document element is open, so _start_fast does not call it
then (RewriterCore.open_body decides in C); _open_body is that C lookup.
On the corpus it was called for every matched element of the head (6,623
calls for a `*` handler, about 13,000 instructions each)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, rewrite
from tests.rewriter.edit_checks import assert_reparses

HEAD_PAGE = ("<!DOCTYPE html><html><head><title>t</title><meta charset=utf-8>"
             "<link rel=x href=y><style>p{}</style><script>1</script></head>"
             "<body><p>a<b>b</b></p><frameset>")

PAGES = [
    HEAD_PAGE,
    "<!DOCTYPE html><p>a<frameset><frame>",
    "<html><head></head><p>a</p><frameset><frame></frameset>",
    "<svg><body><p>x</p></body></svg><p>y",
    "<!-- c --><html><body><div>a</div></body></html><!-- d --><p>e",
    "<table><tr><td>a<body b=c><div>d</div>",
    "<template><body><p>x</p></body></template><div>y</div>",
    "<html><head><template><div>x</div></template></head><body><pre>\nz</pre><frameset>",
    "<math><mi><body><p>q</p></body></mi></math><frameset>",
    "<div>a</div></body><p>b</p></html><p>c",
]


def reference_open_body(rw):
    """The walk Rewriter._open_body was: the first HTML body child of the
    HTML html document element, when it is open."""
    html = rw._construction.document_object().document_element
    if html is None or html.namespace_uri != "http://www.w3.org/1999/xhtml" \
            or html.local_name != "html":
        return None
    body = next((child for child in html.child_nodes
                 if child.node_type == 1 and child.local_name == "body"
                 and child.namespace_uri == "http://www.w3.org/1999/xhtml"), None)
    return body if body is not None and rw._is_open(body) else None


class Counting(Rewriter):
    """A Rewriter counting its _frameset_watch calls."""

    def __init__(self):
        super().__init__()
        self.watch_calls = 0

    def _frameset_watch(self, node):
        self.watch_calls += 1
        return super()._frameset_watch(node)


def test_no_watch_call_before_the_body_is_open():
    rw = Counting()
    before = []

    def handler(element):
        if rw._open_body() is None:
            before.append(element.local_name)

    rw.on("*", element=handler)
    assert rewrite(HEAD_PAGE, rw) == HEAD_PAGE
    assert before == ["html", "head", "title", "meta", "link", "style", "script"]
    # (The body only: its start tag set frameset-ok to "not ok", which
    # the call reads and settles; before, each head element's too.)
    assert rw.watch_calls == 1


@pytest.mark.parametrize("page", PAGES)
def test_open_body_is_the_dom_walk(page):
    seen = []
    rw = Rewriter()

    def handler(element):
        body = rw._open_body()
        seen.append(body == reference_open_body(rw))

    rw.on("*", element=handler)
    for i in range(0, len(page), 5):
        rw.feed(page[i:i + 5].encode())
    rw.close()
    assert seen and all(seen)


@pytest.mark.parametrize("page", PAGES)
def test_edits_around_the_body_reparse(page):
    for operation in ("remove", "append_text", "before_markup", "set_attribute"):
        assert_reparses(page, operation)


def test_open_body_before_the_first_feed():
    assert Rewriter()._open_body() is None
    assert lexpy.rewrite("<p>x", Rewriter()) == "<p>x"
