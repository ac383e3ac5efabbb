"""End tags written at the end of input for a table cell (or another
marker element) take the list of active formatting elements back to the
entries before its marker (issue 39): a formatting element foster-parented
and popped at the cell's start (<table><b><td>) is then reconstructed
around the content written after them, which the DOM edit does not wrap.
Such content is refused (Rewriter._marker_ends_reconstruct)."""
import pytest

from tests.rewriter.oracle import check

FOUND = ["<mi><table> <b><td>",
         "<table></a><font></option><foreignObject><frameset></a><td>",
         "<p><table><b><td>x",
         "<table><b><th>x"]
KEPT = ["<b><table><td>x", "<b><b><table><td>x", "<table><td><b>x"]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", FOUND + KEPT)
@pytest.mark.parametrize("operation", ["after_text", "append_text", "append_markup"])
def test_content_after_the_cell_reparses_to_the_dom_edit(data, operation, chunked):
    figures = check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]


@pytest.mark.parametrize("data", FOUND)
def test_it_is_refused_where_the_list_holds_entries_not_open(data):
    figures = check(data, False, "append_text")
    assert any("takes the list of active formatting elements back" in reason
               for reason in figures.refused)


@pytest.mark.parametrize("data", KEPT)
def test_open_or_closed_formatting_elements_leave_it_accepted(data):
    figures = check(data, False, "append_text")
    assert not any("takes the list of active formatting elements back" in reason
                   for reason in figures.refused) and figures.accepted
