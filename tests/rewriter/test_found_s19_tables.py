"""Table-heavy inputs, judged by the oracle of tests/rewriter/oracle.py (the
reparse of every accepted edit equals the DOM edit): the inputs a seeded
generator of tables found wrong acceptances in (stop s19, helper gA), and
the generator itself, seeded, sized for CI.

The generator writes random sequences of table tags (table, caption,
colgroup, col, sections, rows, cells) and their end tags, other tags that
tables treat apart (form, hidden inputs, select, style, script, template,
formatting elements, blocks, foreign roots), stray end tags, text and
whitespace (the table's pending character tokens and foster parenting)
and comments."""
import random

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses
from tests.rewriter.oracle import check


# A table part removed from a table, a section or a row: its start tag (or
# the token that implied it) ended the run of the table's character tokens
# before it, and the token after its end began a new one. Without its
# source the two runs joined: ' ' kept in the table and '&nbsp;' fostered
# became ' &nbsp;' fostered whole. An end tag the table's modes ignore is
# written in its place (Element._table_part_separated).
JOINED_RUNS = [
    "<table> <col>&nbsp;",
    "<table> <colgroup></colgroup>y</table>",
    "<table> <caption>c</caption>y</table>",
    "<table> <tbody> </tbody>y</table>",
    "<table> <tbody><tr><td>x</td></tr></tbody>y</table>",
    "<table><tr> <td>x</td>y</table>",
    "<table><tr>y<td>x</td> </table>",
    "<table>y<thead></thead> </table>",
]


def test_removed_table_part_keeps_the_text_runs_apart():
    for data in JOINED_RUNS:
        assert_reparses(data, "remove")
        assert_reparses(data, "remove", chunked=True)


def test_removed_table_part_is_accepted():
    assert_accepted("<table> <col>&nbsp;", "colgroup", "remove")
    assert_accepted("<table> <tbody> </tbody>y</table>", "tbody", "remove")
    assert_accepted("<table><tr> <td>x</td>y</table>", "td", "remove")
    assert_accepted("<table> <caption>c</caption>y</table>", "caption", "remove")
    # (A row whose text the parser fostered out: written in its place,
    # between ignored end tags, as before.)
    assert_accepted("<table> <tr>z<td>x</td></tr>y</table>", "tr", "remove")


# A table unwrapped in a <listing> or <pre> when it holds whitespace only:
# refused where its start tag is the token right after the <listing>'s
# (the parser would drop the newline its whitespace starts with). That was
# read from the table's previous sibling, which the bounded tree does not
# keep when it is text: the bounded rewriter refused what the whole tree
# accepted. Now read from the parser (Rewriter._at_newline_point).
def test_table_unwrapped_in_listing_after_text():
    assert_reparses("<listing>&nbsp;<table>", "remove_and_keep_content")
    assert_reparses("<listing>x<table>\n</table>y", "remove_and_keep_content", chunked=True)
    assert_accepted("<listing>x<table>\n</table>y", "table", "remove_and_keep_content")
    assert_accepted("<pre>\n<table>\n</table>y", "table", "remove_and_keep_content")


def test_table_unwrapped_first_in_pre_is_refused():
    assert_refused("<pre><table>\n</table>x", "table", "remove_and_keep_content",
                   "table parts are implied again")


# Content before a table, written at its end (the end of input here) after
# the end tag of the cell open there: that end tag clears the list of
# active formatting elements only up to the last marker, which a <marquee>
# (applet, object) open in the cell put there, so the cell's <b> stays
# listed and the parser reconstructs it around the fostered content. The
# check read the <b> as open (the end of input pops it) where the cell's
# end tag had popped it (Rewriter._table_end_reconstructs).
MARKER_IN_CELL = "<table><th><b><marquee>"


def test_content_before_table_with_marker_in_cell_is_refused():
    for operation in ("before_text", "before_markup"):
        assert_refused(MARKER_IN_CELL, "table", operation,
                       "formatting elements are left to reconstruct at its end")
    assert_refused("<table><caption><a><applet>x", "table", "before_text",
                   "formatting elements are left to reconstruct at its end")


def test_content_before_table_with_marker_in_cell_every_element():
    for data in (MARKER_IN_CELL, "<table><td><i><object><b>x", "<b><table><th><marquee>"):
        for operation in ("before_text", "before_markup"):
            assert_reparses(data, operation, chunked=True)


def test_content_before_table_with_marker_below_the_cell_is_accepted():
    assert_accepted("<b><table><th><marquee>", "table", "before_text")
