"""Replaced content of a formatting element the parser reconstructed with
others inside it at the same token (not the innermost one): its start
tag is written where the parser made it, after end tags for it and the
ones inside it, whose start tags go with the replaced content
(Rewriter._reconstructed_inner_content). The output's list of active
formatting elements then lacks the entries of the ones inside it, which
the input's keeps: refused unless the element ends at the end of input
(the parser would reconstruct their copies after it in the input only)."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, edited
from tests.rewriter.oracle import check

ACCEPTED = [
    ("<p><b><i><u></p>\n<p>X", "b", 1),
    ("<p><b><i><u></p>\n<p>X", "i", 1),
    ("<p><b><i><u>x</p>y</i>z", "b", 1),
    ("<p><b><b><b><b><p>x", "b", 4),
    ("<p><font size=4><font size=4><font size=4><font size=4><p>X", "font", 4),
    ("<div><s><em><code>x</div><!--c-->y", "em", 1),
]


@pytest.mark.parametrize("data,name,nth", ACCEPTED)
def test_the_content_replaced(data, name, nth):
    assert_accepted(data, name, "set_inner_content", nth)


def test_the_written_tags():
    assert edited("<p><b><i><u></p>\n<p>X", "i", "set_inner_content", None, 1) == \
        '<p><b><i><u></p></u></i><i>X&amp;&lt;"&nbsp;'


# (The end of the element refuses it; the check of what the dropped
# content leaves on the list may refuse it first.)
WHY = "formatting elements"


@pytest.mark.parametrize("data,name,nth", [
    # The </i> pops it and leaves the copy of the <u> on the input's list.
    ("<p><b><i><u>x</p>y</i>z", "i", 1),
    ('<p>1<s id="A">2<b id="B">3</p>4</s>5</b>', "s", 1),
])
def test_refused_where_it_ends_before_the_end_of_input(data, name, nth):
    assert_refused(data, name, "set_inner_content", WHY, nth)


@pytest.mark.parametrize("chunked", [False, True, 1])
@pytest.mark.parametrize("data", sorted({case[0] for case in ACCEPTED}) + [
    "<p><b><i><u>x</p>y</i>z", '<p>1<s id="A">2<b id="B">3</p>4</s>5</b>'])
def test_the_oracle_finds_no_difference(data, chunked):
    for scripting in (False, True):
        assert not check(data, scripting, "set_inner_content", chunked=chunked).mismatches
