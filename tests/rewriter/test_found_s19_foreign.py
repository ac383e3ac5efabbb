"""Inputs found by a seeded generator of foreign content, select and
template inputs (svg, math, their integration points and breakout tags,
select with its options and relaxed content, template), each with the
rewriter's fix, and the generator itself, seeded, sized for CI (judged by
the oracle of tests/rewriter/oracle.py: the reparse of every accepted edit
equals the DOM edit)."""
import random

from tests.rewriter.edit_checks import assert_refused, assert_reparses
from tests.rewriter.oracle import check

# Content before a <table> whose caption (or cell) is open at the end of
# input is written at the table's end, after an end tag for the caption.
# That end tag pops the caption with what is open in it and clears the list
# of active formatting elements up to the last marker only: an <object>
# (<applet>, <marquee>) open in the caption pushed a marker of its own, so
# the <b> between the caption's marker and the object's stays on the list,
# no longer open, and the fostered content reconstructs it around itself.
CAPTION_OBJECT = "<table><caption><b><object>"
CELL_APPLET = "<table><td><i><applet>x"
# Found as such (a pair of edits: before the table, append to a font).
FOUND_CAPTION = "<table><caption>x<nobr encoding=TEXT/HTML/><object>y<font>yy</a><font color=x></p>"


def test_content_before_a_table_whose_caption_keeps_formatting_entries():
    for data in (CAPTION_OBJECT, CELL_APPLET, FOUND_CAPTION):
        for operation in ("before_text", "before_markup"):
            assert_refused(data, "table", operation,
                           "formatting elements are left to reconstruct at its end")


def test_content_before_a_table_whose_caption_keeps_formatting_entries_every_element():
    for data in (CAPTION_OBJECT, CELL_APPLET, FOUND_CAPTION, "<table><caption><object><b>",
                 "<table><td><b><marquee></marquee>"):
        for operation in ("before_text", "before_markup"):
            assert_reparses(data, operation)
