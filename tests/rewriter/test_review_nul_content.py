"""Content that starts with U+0000 (issue 39): in body the parser drops
the NUL without reconstructing the active formatting elements, so such
content reconstructs for what follows the NULs only (_reconstructs_for);
and text holding a NUL is refused (the parser drops it, or reads it as
U+FFFD: no output reparses to the DOM edit's text)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.test_adoption_edits import rewrite_in_chunks
from tests.rewriter.oracle import _dom_insert_markup


def _nth(n, op):
    seen = [0]

    def handler(e):
        seen[0] += 1
        if seen[0] == n:
            op(e)
    return handler


def _dom_edit(data, selector, n, content):
    dom = lexpy.parse(data)
    _dom_insert_markup(dom.query_selector_all(selector)[n - 1], "before", False, content)
    return lexpy.dump(dom)


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize("data, selector, n, content", [
    ("<p><b>x</p><i>y", "i", 1, "\x00<!--c-->"),
    ("<p><b>x</p><i>y", "i", 1, "\x00\x00<!--c-->"),
    ("<p><b>x</p><i>y", "i", 1, "\x00X"),
    ("<p><b>x</p><i>y", "i", 1, "\x00<em>X</em>")])
def test_markup_starting_with_nul_reparses_to_the_dom_edit(data, selector, n, content, chunk):
    rw = Rewriter().on(selector, element=_nth(n, lambda e: e.before(content, html=True)))
    try:
        out = rewrite_in_chunks(data, rw, chunk)
    except RewriteError:
        return      # (a refusal is allowed; a wrong acceptance is not)
    assert lexpy.dump(lexpy.parse(out)) == _dom_edit(data, selector, n, content)


def test_a_leading_nul_comment_is_written():
    rw = Rewriter().on("i", element=lambda e: e.before("\x00<!--c-->", html=True))
    out = rewrite_in_chunks("<p><b>x</p><i>y", rw, None)
    assert "<!--c-->" in out


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize("data, selector, n, content", [
    ("<div>x</div><div>y</div>", "div", 2, "\x00X"),
    ("<p><b>x</p><i>y", "i", 1, "X\x00"),
    ("<p>a<script>a</script>", "script", 1, "\x00")])
def test_text_holding_nul_is_refused(data, selector, n, content, chunk):
    rw = Rewriter().on(selector, element=_nth(n, lambda e: e.before(content)))
    with pytest.raises(RewriteError, match="U\\+0000"):
        rewrite_in_chunks(data, rw, chunk)
