"""The idle owner (engine.pyx owner_idle, on_eof_idle): until the owner is
first called for a token (no handler's selector has matched an element:
nothing is edited, watched or held) and with no document end handler, the
end of file does not go to it (close() copies the input to its end), nor,
when no static tag can match (on_token_gated), the html, body and
frameset tags. The outputs and refusals are those of the whole path, which
`p.never` (a selector on a static name that matches nothing) forces, and
those of the DOM edit where accepted."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter
from tests.rewriter.oracle import _normalized_dump
from tests.rewriter.test_dormant_tokens import EDITS, run_edit

PAGES = [
    "<html lang=en><body class=a><p>x<body id=b><x-a id=1>y</x-a></body>"
    "<html data-c=d></html><x-a id=2>z",
    "<p>x</p></body></html><!--c--><x-a id=1>after</x-a> ",
    "<x-a id=1>a</x-a><body data-b=1><frameset><frame></frameset>",
    "<frameset><frame><x-a id=1>f</x-a></frameset></html><x-a id=2>",
    "<head></head><frameset></frameset><noframes><x-a id=1>n</x-a></noframes>",
    "<div>no match at all</div></body></html>",
    "<div><x-a id=1>t</x-a><!--unclosed",
    "<p>x<x-a id=1>t</x-a><p class=",
    "<x-a id=1>t</x-a></html ",
    "<pre>\n<x-a id=1>\n</x-a></pre><textarea>\n",
    "<table><tr><td>a</table></body><x-a id=1>b</x-a></body></html>\r",
    "<x-a id=1><svg><x-a id=2>s</x-a></svg><b>c",
]


def _run(page, selector, edit, chunk, end=None):
    _, out, seen = run_edit(page, selector, edit, chunk, end)
    return out, seen


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("page", PAGES)
def test_the_idle_owner_changes_nothing(page, edit):
    for chunk in (len(page.encode("utf-8")), 1, 4):
        idle, seen = _run(page, "x-a", edit, chunk)
        whole, whole_seen = _run(page, "x-a, p.never", edit, chunk)
        assert idle == whole, (page, edit, chunk)
        assert seen == whole_seen
        if edit == "nothing":
            assert idle == page
        if edit == "attribute" and isinstance(idle, str):
            # (Accepted: the reparse is the DOM edit.)
            doc = lexpy.parse(page)
            for element in doc.query_selector_all("x-a"):
                element.set_attribute("data-e", "1")
            assert _normalized_dump(lexpy.parse(idle)) == _normalized_dump(doc)


@pytest.mark.parametrize("page", PAGES)
def test_a_document_end_handler_keeps_the_owner_awake(page):
    def end(d):
        d.append("<!--end-->", html=True)
    for chunk in (len(page.encode("utf-8")), 3):
        idle, _ = _run(page, "x-a", "nothing", chunk, end)
        whole, _ = _run(page, "x-a, p.never", "nothing", chunk, end)
        assert idle == whole
        assert not isinstance(idle, str) or "<!--end-->" in idle
    assert any(isinstance(_run(page, "x-a", "nothing", 2, end)[0], str) for page in PAGES[6:9])


class _Counting(Rewriter):
    calls = 0

    def _handle_token(self):
        _Counting.calls += 1
        super()._handle_token()


@pytest.mark.parametrize("selector", [None, "nosuchelement", "x-a.never"])
def test_no_token_goes_to_an_idle_owner(selector):
    """No handler, or a selector that matches nothing and no static tag:
    the end of file, html, body and frameset tags included, no token goes
    to the owner, and the output is the input."""
    for page in PAGES:
        _Counting.calls = 0
        rw = _Counting()
        if selector is not None:
            rw.on(selector, element=lambda e: e.remove())
        data = page.encode("utf-8")
        out = b"".join(rw.feed(data[i:i + 5]) for i in range(0, len(data), 5)) + rw.close()
        assert out == data
        assert _Counting.calls == 0, page
