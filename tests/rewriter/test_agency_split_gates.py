"""The adoption agency split (_split_watch) and the hold after a
formatting element (_hold_point) write the formatting element's end tag
before its furthest block: the element below it on the stack is then the
current node. Not written when that changes what follows: a heading start
tag pops a heading that is the current node, and a parent that left the
stack (a form at </form>) is not where the content would go."""

import pytest

from tests.rewriter.oracle import check


@pytest.mark.parametrize("data, operation", [
    ("<h1><b><h2>x</b>y", "before_text"),
    ("<h1><b><h2>x</b>y", "prepend_text"),
    ("<h1><b><h2>x</b>y", "after_text"),
    ("<h1><a><caption><tr><h1><a>", "prepend_markup <img>"),
    ("<i><h1></font></a><h2><b><h2></b>", "before_markup <img>"),
    ("<form><b></form><div>x</b>y", "after_text"),
    ("<form><b></form><div></h1></b></p><form><b>", "after_markup M&amp;N"),
])
@pytest.mark.parametrize("chunked", [False, True])
def test_no_mismatch(data, operation, chunked):
    figures = check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]


def test_the_split_still_accepts_the_plain_case():
    figures = check("<b>1<div>2</b>3", False, "before_text")
    assert not figures.mismatches and figures.accepted
