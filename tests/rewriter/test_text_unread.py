"""The rewriter without a text handler builds no Text nodes that nobody
reads (the tree builder's tree_builder_set_text_unread): what it accepts,
refuses and writes is the same as with a text handler, which keeps every
Text node. The case that reads a Text node: content written before a
<table> that the parser later foster-parents text in front of (the check
compares the node before the table, which the tree builder keeps)."""
import pytest

import lexpy
from lexpy import RewriteError, Rewriter

FOSTERED = [
    "<div>a<table>b<tr><td>c</td></tr></table></div>",
    "<div><table>b<tr><td>c</td></tr></table></div>",
    "<div><b>x</b><table>b</table></div>",
    "<div>a<table><tr>b<td>c</td></tr></table>d</div>",
]
PLAIN = [
    "<div>a<table><tr><td>c</td></tr></table></div>",
    "<p>a</p>\n<table>  <tr><td>c</table>",
    "<table> <tr><td>a</td></tr> </table>b",
]


def outcome(html, text_handler):
    rewriter = Rewriter().on("table", element=lambda e: e.before("X"),
                             text=(lambda t: None) if text_handler else None)
    try:
        return lexpy.rewrite(html, rewriter)
    except RewriteError as error:
        return "refused: " + str(error)


@pytest.mark.parametrize("html", FOSTERED)
def test_foster_parented_text_before_a_table_is_seen_without_text_nodes(html):
    # (Written at the table's end, Element._table_end_before_ok: the same
    # with every Text node, and the reparse is the DOM edit's.)
    written = outcome(html, False)
    assert not written.startswith("refused")
    assert written == outcome(html, True)
    dom = lexpy.parse(html)
    dom.query_selector("table").before("X")
    assert lexpy.parse(written).to_html() == lexpy.parse(dom.to_html()).to_html()


@pytest.mark.parametrize("html", PLAIN)
def test_writes_the_same_as_with_every_text_node(html):
    written = outcome(html, False)
    assert not written.startswith("refused")
    assert written == outcome(html, True)
    assert lexpy.parse(written).to_html() == lexpy.parse(
        html.replace("<table>", "X<table>", 1)).to_html()
