"""Dropped content and the markers of the list of active formatting
elements (Rewriter._drop_behind_marker, _drop_unlists). The checks of an
element whose content is dropped read the list after its last marker where
the drop began and at the element's end:

- a token that ends the element and puts a marker on the list (a <td>
  start tag) hides entries that are not open, which the parser
  reconstructs once the marker is cleared: the output without the dropped
  content has no such entry, so the edit is refused;
- a marker there where the drop began and cleared at its end (a <td>'s
  own, or the one the <td> start tag that made an implied tbody put on)
  shows entries from before it, which the dropped content cannot reach:
  the same list in both, no copies to write.

Each input gave a reparse other than the DOM edit before (found by a
seeded two-edit search), whole and in chunks."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses
from tests.rewriter.oracle import OPERATIONS

INPUTS = [
    "<table></tr><table><span><nobr>y<td>x</table><i></table>",
    "<table><span><b>y</span><td>x</table><i>",
    "<table><span><b>y<td>x</table><i>",
    "<nobr>a<table><td>x</table><i>",
    "<b>a<table><tr><td>x</table>y",
    "<a><table><caption><b>x</caption></table>z",
]


@pytest.mark.parametrize("data", INPUTS)
@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@pytest.mark.parametrize("chunked", [False, True])
def test_every_operation_reparses_to_the_dom_edit(data, operation, chunked):
    assert_reparses(data, operation, chunked)


def test_cell_content_replaced_over_an_entry_behind_its_marker():
    # (The <nobr> entry is behind the td's marker where its content
    # begins, and shows again when </table> clears it: it was there before
    # the td in both.)
    assert_accepted("<table></tr><table><span><nobr>y<td>x</table><i></table>",
                    "td", "set_inner_content")


def test_implied_tbody_removed_over_an_entry_behind_the_cells_marker():
    assert_accepted("<table><span><b>y</span><td>x</table><i>", "tbody", "remove")


@pytest.mark.parametrize("operation", ["remove", "set_inner_content"])
def test_content_dropped_up_to_a_cell_that_hides_its_entry(operation):
    # (The <td> start tag ends the span and puts a marker after the <nobr>
    # entry; </table> clears it and <i> reconstructs the <nobr>, which the
    # output without the span's content does not list.)
    assert_refused("<table></tr><table><span><nobr>y<td>x</table><i></table>", "span",
                   operation, "behind a marker")


@pytest.mark.parametrize("data", [
    "<table><span>y<td>x</table><i>",          # (no entry behind the marker)
    "<b><table><span>y<td>x</table><i>",       # (the entry is open: nothing to reconstruct)
])
def test_near_cases_stay_accepted(data):
    assert_accepted(data, "span", "remove")
