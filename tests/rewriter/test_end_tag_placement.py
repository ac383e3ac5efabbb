"""EndTag.before and EndTag.after (issue 39): content before an end tag is
the element's last child, content after it its next sibling, so they are
checked as Element.append and Element.after check them: refused where the
parser puts what is written there elsewhere (it foster-parents what is
written at a table part's end or next to a table part, moves what is
written at the end of <head> or <html>), a void element has no content
(ValueError), and elsewhere the output reparses as the DOM edit. Found by
session 13's late-match sweep ('<table><tr><td>1</table>' with on_end_tag
before('X') on the table: the X reparsed before the table) and its review
(after on a td, before on <head>, before on a <col>)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CHUNKS = [None, 1, 7]


def _at_end(selector, where, content):
    return Rewriter().on(selector, element=lambda e: e.on_end_tag(
        lambda end: getattr(end, where)(content)))


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data,selector,where,why", [
    ("<table><tr><td>1</table>", "table", "before", "foster-parented"),
    ("<table><tr><td>1</td></tr></table>", "tr", "before", "foster-parented"),
    ("<table><tbody><tr><td>1</tbody></table>", "tbody", "before", "foster-parented"),
    ("<table><colgroup><col></colgroup></table>", "colgroup", "before", "foster-parented"),
    ("<table><tr><td>1</table>", "td", "after", "foster-parented"),
    ("<table><tr><td>1</td></tr>X</table>", "tr", "after", "foster-parented"),
    ("<head><title>t</title></head><body>x", "head", "before", "content of <head>"),
    ("<head><title>t</title></head><body>x", "head", "after", "neighbours"),
    ("<html><head></head></html>", "html", "before", "content of <html>"),
])
def test_content_the_parser_puts_elsewhere_is_refused(data, selector, where, why, chunk):
    with pytest.raises(RewriteError, match=why):
        rewrite_in_chunks(data, _at_end(selector, where, "X"), chunk)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data,selector", [
    ("<table><colgroup><col></table>", "col"),
    ("<p><br>a", "br"),
])
def test_before_the_end_of_a_void_element_is_a_value_error(data, selector, chunk):
    with pytest.raises(ValueError, match="void element"):
        rewrite_in_chunks(data, _at_end(selector, "before", "X"), chunk)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data,selector,where", [
    ("<table><tr><td>1</table>", "td", "before"),
    ("<div><p>a</p></div>", "div", "before"),
    ("<div><p>a</p></div>", "p", "after"),
    ("<ul><li>a<li>b</ul>", "li", "after"),
])
def test_elsewhere_the_content_reparses_as_the_dom_edit(data, selector, where, chunk):
    out = rewrite_in_chunks(data, _at_end(selector, where, "X"), chunk)
    dom = lexpy.parse(data)
    for element in dom.query_selector_all(selector):
        text = dom.create_text_node("X")
        if where == "before":
            element.append(text)
        else:
            element.after(text)
    assert lexpy.parse(out).to_html() == dom.to_html(), out
