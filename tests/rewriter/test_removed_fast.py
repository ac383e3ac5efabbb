"""The engine's C path for remove() (lexpy/rewriter/engine.pyx:
ElementBase._remove_fast at the call, RewriterCore.removed_end at the
element's own end tag): taken where none of Element.remove's and
Rewriter._popped's checks can refuse, and leaving every other case to
them, with the same outcome."""
import pytest

import lexpy
from lexpy.rewriter import Element, Rewriter, RewriteError, rewrite

from tests.rewriter import oracle

PLAIN = ("<!DOCTYPE html><title>t</title><script>a()</script>"
         "<p>one <span>x<b>y</b></span> two<script src=/s.js></script></p>"
         "<form action=/f><div><script>b()</script><input name=q></div></form>"
         "<ul><li>a<script>c()</script></li></ul><p>end")

# Inputs where a check of the Python path decides (a refusal, or state it
# sets): foster parenting, a table container parent, a template's
# contents, select and selectedcontent, foreign content in a table, the
# form element pointer, formatting elements left to reconstruct, a start
# tag that implied the body, an element closed by another's end tag.
GATED = [
    "<div><table><tr>x</table></div><p>after",
    "<table><script>x</script><tr><td>c</table>",
    "<template><script>x</script><p>y</p></template>",
    "<select><option><script>x</script></option></select>",
    "<select><button><selectedcontent></selectedcontent></button>"
    "<option><span>a</span></option></select>",
    "<table><tr><td><svg><desc><span>x</span></desc></svg></td></tr></table>",
    "<div><form></div><form><p>x</p></form>",
    "<div><form><input></form></div><form>",
    "<section><b>x</section>y",
    "<div><b><i>x</div>y<p>z",
    "<span>a<p>b</span>c",
    "<ul><li><div>a<li>b</ul>",
    "x<span>a</span>",
    "<p><div>y</div>z",
    "<h1><h2>x</h1>",
    "<div><a href=x>l</div>m",
]


def _outcome(data, selector):
    rw = Rewriter().on(selector, element=lambda e: e.remove())
    try:
        return rewrite(data, rw)
    except RewriteError as error:
        return "RewriteError: %s" % error


def test_plain_removals_skip_the_python_checks(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the Python path ran")

    for selector in ("script", "span", "div", "li"):
        expected = _outcome(PLAIN, selector)
        monkeypatch.setattr(Element, "_start_op", refuse)
        monkeypatch.setattr(Rewriter, "_popped", refuse)
        assert _outcome(PLAIN, selector) == expected
        monkeypatch.undo()
        doc = lexpy.parse(PLAIN)
        for element in doc.query_selector_all(selector):
            element.remove()
        assert lexpy.parse(expected).to_html() == doc.to_html()


@pytest.mark.parametrize("data", GATED)
def test_gated_removals_as_the_python_checks_decide(monkeypatch, data):
    for selector in ("*", "div", "span", "script", "p", "li", "section"):
        fast = _outcome(data, selector)
        monkeypatch.setattr(Element, "_remove_fast", lambda self: False)
        assert _outcome(data, selector) == fast, (data, selector)
        monkeypatch.undo()


@pytest.mark.parametrize("data", GATED)
def test_gated_removals_reparse_to_the_dom_edit(data):
    for chunked in (False, True):
        figures = oracle.check(data, True, "remove", chunked=chunked)
        assert figures.mismatches == []
