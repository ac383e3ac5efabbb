"""Content written before a table, with elements the parser foster-parented
while it was open (Rewriter._fostered_inside_tables). A foster-parented
element goes before the last table on the stack of open elements: with
the table open, that is the table itself or a table inside it. The
table's end refused when the count of foster-parented elements had grown
since its start, wherever they went; the ones found inside it (before a
nested table) are discounted now, so content before an outer table whose
nested table had elements foster-parented out of it is accepted. Content
foster-parented before the table itself, or pushed where the rewriter is
not handed the element (the engine counts it, nothing discounts it),
stays refused."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses, index_of
from tests.rewriter.oracle import OPERATIONS, TEXT, _normalized_dump, check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

NESTED = [
    "<div><table><tr><td><table><b>x</b></table></td></tr></table></div>",
    "<p>a<table><td><table><b>q</table><b>x</b></table>",
    "<table><caption><table><i>y<p>z</table></caption></table>",
    "<ul><li>a<table><tr><td><table><tr><td><table><u>w</table></table>v</table>",
    "<table><td><table><div>d</div></table><table><span>s</table></table>",
]

FOSTERED_BEFORE = [
    # (Elements foster-parented before the outer table too: refused.)
    "<p>a<table><tr><td><table><b>x</b></table></td></tr><i>y</i></table>",
    "<div><table><b>x</b><tr><td><table><i>y</table></table></div>",
]


@pytest.mark.parametrize("data", NESTED)
@pytest.mark.parametrize("operation", ["before_text", "before_markup"])
def test_content_before_an_outer_table_is_accepted(data, operation):
    assert_accepted(data, "table", operation)


@pytest.mark.parametrize("data", NESTED + FOSTERED_BEFORE)
@pytest.mark.parametrize("operation", ["before_text", "before_markup"])
def test_content_before_the_innermost_table_is_refused(data, operation):
    # (The last table of each input has an element foster-parented before it:
    # the content goes at the table's end, Element._table_end_before_ok,
    # accepted where that reparses as the DOM edit, else refused there.)
    figures = check(data, False, operation,
                    indexes=[index_of(data, "table", data.count("<table>") - 1)])
    assert not figures.mismatches, figures.mismatches[0]


@pytest.mark.parametrize("operation", ["before_text", "before_markup", "remove"])
def test_content_before_a_middle_table_is_accepted(operation):
    # (The innermost table's element goes before it, inside the middle one.)
    assert_accepted(NESTED[3], "table", operation, nth=1)


@pytest.mark.parametrize("data", FOSTERED_BEFORE)
def test_content_fostered_before_the_outer_table_is_refused(data):
    figures = check(data, False, "before_text", indexes=[index_of(data, "table")])
    assert not figures.mismatches, figures.mismatches[0]


@pytest.mark.parametrize("data", NESTED + FOSTERED_BEFORE)
@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@pytest.mark.parametrize("chunked", [False, True])
def test_every_operation_reparses_to_the_dom_edit(data, operation, chunked):
    assert_reparses(data, operation, chunked)


@pytest.mark.parametrize("data", NESTED + FOSTERED_BEFORE)
@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_a_handler_on_tables_only(data, chunk):
    """Only the tables matched: the elements foster-parented inside them
    are not all handed over. Refused or the DOM edit."""
    done = []

    def first(element):
        if not done:
            done.append(element)
            element.before(TEXT)
    try:
        output = rewrite_in_chunks(data, Rewriter(scripting=False).on("table", element=first),
                                   chunk)
    except RewriteError:
        return
    dom = lexpy.parse(data, scripting=False)
    dom.query_selector("table").before(TEXT)
    assert _normalized_dump(lexpy.parse(output, scripting=False)) == _normalized_dump(dom)
