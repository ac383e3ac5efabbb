"""remove_and_keep_content of a table, a table part or a column (group)
(issue 39, part C of session 12): without its tags its content would make
the parser imply table parts again or foster-parent it, so it is taken as
its removal (Element._table_part_unwrap), which is the DOM edit when it
has no content: nothing between its start tag and the token that ends it
(Rewriter._empty_unwrap_end refuses it at its end otherwise, and the
removal's own checks apply). Whole and in small chunks (the oracle's
check: the output reparses to the DOM edit), and the near cases it must
still refuse."""
import pytest

from lexpy.rewriter import RewriteError

from tests.rewriter.test_implied_before import _accepted as _accepted_op
from tests.rewriter.test_part_c_edits import _rewrite as _rewrite_with


def _accepted(data, name, nth=0):
    return _accepted_op(data, name, "remove_and_keep_content", nth)


def _rewrite(data, selector, chunk=None):
    return _rewrite_with(data, selector, lambda e: e.remove_and_keep_content(), chunk)


@pytest.mark.parametrize("data,name,nth", [
    ("<p>a<table></table>b", "table", 0),
    ("<table><tr><td>x</td><td></td></tr></table>", "td", 1),
    ("<table><td><button><td>", "td", 1),
    ("<table><td>", "td", 0),           # (its start tag implied tbody and tr)
    ("<table><tr></tr></table>", "tr", 0),
    ("<table><col foo=bar></table>", "col", 0),     # (void: a removal)
    ("<table><colgroup></colgroup><tr><td>x</table>", "colgroup", 0),
    ("<table><caption></caption></table>", "caption", 0),
])
def test_an_empty_table_part_unwrapped(data, name, nth):
    assert _accepted(data, name, nth)


def test_an_empty_table_part_unwrapped_output():
    for chunk in (None, 1, 4):
        assert _rewrite("<table><tr><td>x</td><td></td></tr></table>", "td:nth-child(2)",
                        chunk) == "<table><tr><td>x</td></tr></table>"
        assert _rewrite("<p>a<table></table>b", "table", chunk) == "<p>ab"


@pytest.mark.parametrize("data,name,nth", [
    ("<table><tr><td>x</td><td>y</td></tr></table>", "td", 1),   # content
    ("<table> </table>", "table", 0),     # whitespace kept in the table
    ("<table><!--c--></table>", "table", 0),
    ("<table>x</table>", "table", 0),     # fostered text: the removal drops it
    ("<table><tr><td>x</table>", "tbody", 0),
])
def test_a_table_part_with_content_refused(data, name, nth):
    assert not _accepted(data, name, nth)


def test_the_refusal_comes_at_its_end():
    with pytest.raises(RewriteError, match="table parts are implied again"):
        _rewrite("<table><tr><td>x</td><td>y</td></tr></table>", "td")
