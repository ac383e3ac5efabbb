"""Edits of foreign content inside a table or a template (issue 39's
refusals): a table's insertion modes read some tags met inside it (a <td>
in an integration point, a </td> under an HTML element there) through the
foreign elements, since a table scope does not stop at them. An edit is
kept when the element ends alone at an end tag of its own, at the end of
the input, or as the current node of the token that pops it while the edit
leaves it open there; markup holding a tag the table's modes read is
refused there."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import check

CLOSED = [
    "<table><tr><td><svg><desc>x</desc><g><circle/></g></svg></td></tr></table>",
    "<table><tr><td><math><mi>x</mi><mtext><b>y</b></mtext></math></td></tr></table>",
    "<template><svg><g>x</g></svg></template>",
]
# The input ends inside the foreign content.
AT_EOF = ["<table><tr><td><svg><desc>x", "<template><math><mi>y"]
# The token that pops it comes with it as the current node.
CURRENT = ["<table><caption><svg><g>foo</g>bar</table><p>x",
           "<table><tr><td><svg><td><foreignObject><span></td>Foo"]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("operation", ["remove", "remove_and_keep_content", "before_text",
                                       "after_text", "prepend_text", "append_text",
                                       "append_markup", "set_attribute", "rename",
                                       "set_inner_content"])
@pytest.mark.parametrize("data", CLOSED + AT_EOF)
def test_foreign_content_closed_by_its_own_end_tags_or_the_end(data, operation, chunked):
    figures = check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    if data in CLOSED or operation not in ("remove", "remove_and_keep_content", "rename"):
        assert not any("foreign content inside a table" in reason
                       for reason in figures.refused), dict(figures.refused)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("operation", ["prepend_text", "append_text", "set_attribute",
                                       "set_inner_content", "before_text"])
@pytest.mark.parametrize("data", CURRENT)
def test_the_current_node_of_the_token_that_pops_it(data, operation, chunked):
    figures = check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted


def test_text_appended_to_a_cell_svg():
    rw = Rewriter().on("desc", element=lambda e: e.append("&"))
    data = "<table><tr><td><svg><desc>x</desc></svg></td></tr></table>"
    assert rewrite(data, rw) == \
        "<table><tr><td><svg><desc>x&amp;</desc></svg></td></tr></table>"


def _refused(data, selector, edit):
    rw = Rewriter().on(selector, element=edit)
    with pytest.raises(RewriteError, match="foreign content inside a table"):
        rewrite(data, rw)
    # (and chunked)
    rw = Rewriter().on(selector, element=edit)
    with pytest.raises(RewriteError, match="foreign content inside a table"):
        encoded = data.encode()
        for i in range(0, len(encoded), 3):
            rw.feed(encoded[i:i + 3])
        rw.close()


@pytest.mark.parametrize("selector,edit", [
    # A <td> in the integration point closes the cell through the <svg>:
    # without <desc>, or after content that ends <desc>, it is an SVG td.
    ("desc", lambda e: e.remove()),
    ("desc", lambda e: e.after("X")),
    ("svg", lambda e: e.append("X")),
    ("svg", lambda e: e.set_inner_content("X")),
])
def test_a_table_tag_in_an_integration_point_is_refused(selector, edit):
    _refused("<table><tr><td><svg><desc><td></desc><circle>", selector, edit)
    assert not check("<table><tr><td><svg><desc><td></desc><circle>", False,
                     "append_text").mismatches


@pytest.mark.parametrize("selector,edit", [
    # </td> under the <span> closes the HTML cell; with the svg <td> the
    # current node it closes that one alone.
    ("foreignObject", lambda e: e.append("X")),
    ("svg td", lambda e: e.append("X")),
    ("span", lambda e: e.remove()),
    ("span", lambda e: e.after("X")),
    # An end handler registered after the edit writes after the end: it is
    # checked too.
    ("span", lambda e: (e.append("X"), e.on_end_tag(lambda end: end.after("Y")))),
])
def test_what_a_cells_end_tag_pops_through_is_refused(selector, edit):
    _refused("<table><tr><td><svg><td><foreignObject><span></td>Foo", selector, edit)


def test_the_refused_end_handler_case_would_differ():
    # (What the last case above would write: a reparse that differs.)
    data = "<table><tr><td><svg><td><foreignObject><span></td>Foo"
    written = "<table><tr><td><svg><td><foreignObject><span>X</span>Y</td>Foo"
    dom = lexpy.parse(data)
    span = dom.query_selector("span")
    span.append(dom.create_text_node("X"))
    span.after(dom.create_text_node("Y"))
    assert lexpy.dump(lexpy.parse(written)) != lexpy.dump(dom)


@pytest.mark.parametrize("markup", ["<td>x", "</td>", "<tr>", "<table>", "<form>",
                                    "<input type=hidden>", "<caption>"])
def test_markup_with_a_tag_the_tables_modes_read_is_refused(markup):
    _refused("<table><tr><td><svg><desc>x</desc></svg></td></tr></table>", "desc",
             lambda e: e.append(markup, html=True))


def test_other_markup_is_written():
    # (Closed: markup that leaves an element open is refused, test_markup_content.py.)
    rw = Rewriter().on("desc", element=lambda e: e.append("<b>y</b><tdx></tdx>", html=True))
    data = "<table><tr><td><svg><desc>x</desc></svg></td></tr></table>"
    assert rewrite(data, rw) == \
        "<table><tr><td><svg><desc>x<b>y</b><tdx></tdx></desc></svg></td></tr></table>"
