"""Dropping the source of a table container (removal, replacement)
whose text the parser did not foster-parent (issue 39's refusals, session
15): text in a cell or a caption is the container's own content, and goes
with it as in the DOM edit. Text the parser foster-parented while it was
open went before the table: the DOM edit keeps it, so that stays refused
(Rewriter._foster_text_mark, _foster_text_kept)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_accepted, assert_refused, edited
from tests.rewriter.oracle import _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

OWN_TEXT = [
    ("<table><td>A</table>B", "table", 0),
    ("<table><tr><td>A</td></tr></table>B", "tr", 0),
    ("<table><tbody><tr><td>A</td></tr></tbody></table>B", "tbody", 0),
    ("<p>x<table><caption>A</caption><td>B</table>C", "table", 0),
    ("<div>x<table> <tr><th>A</th></tr> </table>y</div>", "table", 0),
    ("<table><td><table><td>A</table>B</table>C", "table", 1),
    ("x<table>y<tr><td>A</table>B", "tr", 0),
    # (Text fostered out of a table inside it stays inside it.)
    ("<table><td><table>A<td>B</table>C</table>", "table", 0),
]

FOSTERED_TEXT = [
    ("<table>A<td>B</td>C</table>", "table", 0),
    ("x<table><tr>y<td>A</table>B", "tr", 0),
    ("<table><tbody>y<tr><td>A</table>B", "tbody", 0),
    ("<b>x</b><table><td>A</td>B</table>", "table", 0),
    ("<table><colgroup> foo</colgroup></table>", "table", 0),
]


@pytest.mark.parametrize("data,name,nth", OWN_TEXT)
def test_text_of_its_own_goes_with_it(data, name, nth):
    assert_accepted(data, name, "remove", nth)


@pytest.mark.parametrize("data,name,nth", FOSTERED_TEXT)
def test_foster_parented_text_is_written_in_its_place(data, name, nth):
    # (Rewriter._removed_table_text: the text the parser fostered out of it
    # is written where it was; tests/rewriter/test_table_end_before.py.)
    assert_accepted(data, name, "remove", nth)


def test_the_output():
    assert edited("<p>x<table><caption>A</caption><td>B</table>C", "table", "remove") == \
        "<p>xC"
    for chunk in (1, 2, 5):
        assert edited("<table><td>A</table>B", "table", "remove", chunk) == "<body>B"


@pytest.mark.parametrize("chunk", [None, 1, 3])
@pytest.mark.parametrize("data,accepted", [
    ("<p>x<table><caption>A</caption><td>B</table>C", True),
    ("<div><table><tr><td>A</td></tr></table></div>", True),
    ("<p>x<table>A<td>B</table>C", False),
])
def test_replacing_a_table(data, accepted, chunk):
    # (Element.replace drops the table's source as remove does.)
    rw = Rewriter(scripting=False).on("table", element=lambda e: e.replace("R"))
    try:
        out = rewrite_in_chunks(data, rw, chunk)
    except RewriteError as error:
        assert not accepted and ("foster-parented" in str(error) or
                                 "foster parenting" in str(error)), error
        return
    assert accepted
    dom = lexpy.parse(data, scripting=False)
    table = dom.query_selector("table")
    table.replace_with(dom.create_text_node("R"))
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == _normalized_dump(dom)


@pytest.mark.parametrize("chunk", [None, 7])
def test_the_marks_go_with_their_elements(chunk):
    # (Each mark holds its table: one left behind would keep it from being
    # freed, and the state would grow with the document.)
    rw = Rewriter(scripting=False).on("table, tr", element=lambda e: e.remove())
    out = rewrite_in_chunks("<table><td>A</table>B" * 200 + "<table><tr><td>x", rw, chunk)
    assert out == "<body>" + "B" * 200
    assert not rw._foster_text_marks
