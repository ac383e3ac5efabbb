"""EndTag.before on a table part (issue 39): what is written before the end
of a table, tbody, thead, tfoot, tr or colgroup is foster-parented (the
parser puts text there before the table), so it is refused as
Element.append is; elsewhere it stays accepted and reparses as the DOM
edit (the content as the element's last child). Found by session 13's
late-match sweep: '<table><tr><td>1</table>' with on_end_tag before('X')
was accepted and its X reparsed before the table."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CHUNKS = [None, 1, 7]


def _end_before(selector, content):
    def build():
        return Rewriter().on(selector, element=lambda e: e.on_end_tag(
            lambda end: end.before(content)))
    return build


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data,selector", [
    ("<table><tr><td>1</table>", "table"),
    ("<table><tr><td>1</td></tr></table>", "tr"),
    ("<table><tbody><tr><td>1</tbody></table>", "tbody"),
    ("<table><colgroup><col></colgroup></table>", "colgroup"),
])
def test_before_the_end_of_a_table_part_is_refused(data, selector, chunk):
    with pytest.raises(RewriteError, match="foster-parented"):
        rewrite_in_chunks(data, _end_before(selector, "X")(), chunk)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data,selector", [
    ("<table><tr><td>1</table>", "td"),
    ("<div><p>a</p></div>", "div"),
])
def test_before_the_end_elsewhere_is_the_content_as_last_child(data, selector, chunk):
    out = rewrite_in_chunks(data, _end_before(selector, "X")(), chunk)
    dom = lexpy.parse(data)
    dom.query_selector(selector).append(dom.create_text_node("X"))
    assert lexpy.parse(out).to_html() == dom.to_html(), out
