"""The removal of a formatting element the parser reconstructed inside
others at the same token (not the first one): end tags for all of them
take their entries off the list of active formatting elements, start tags
make the ones before it again (the DOM edit keeps them), and the removed
one, those inside it and its content are dropped
(Rewriter._reconstructed_removal). Refused where the list the parser is
left with would reconstruct other elements later than the input's (the
end of the removed element checks it, as for any removal), where the
first one's end tag could close its parent, or where another of them is
edited too."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_accepted, assert_refused, edited
from tests.rewriter.oracle import check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

ACCEPTED = [
    # (input, the name of the reconstructed element removed, which one of that name)
    ("<p><b><i><u></p>\n<p>X", "i", 1),
    ("<p><b><i><u></p>\n<p>X", "u", 1),
    ("<!DOCTYPE html><p><b><i><u></p> <p>X", "i", 1),
    ("<p><b><b><b><b><p>x", "b", 5),
    ("<p><b><b><b><b><p>x", "b", 6),
    ("<p><b id=1><i class=c>x</p>y<span>z</span>", "i", 1),
    ("<p><font size=4><font size=4><font size=4><font size=4><p>X", "font", 6),
    ("<div><s><em>x</div><!--c-->y", "em", 1),
]


@pytest.mark.parametrize("data,name,nth", ACCEPTED)
def test_an_inner_reconstructed_element_removed(data, name, nth):
    assert_accepted(data, name, "remove", nth)


def test_the_written_tags():
    assert edited("<p><b><i><u></p>\n<p>X", "u", "remove", None, 1) == \
        "<p><b><i><u></p></u></i></b><b><i>"
    assert edited("<p><b id=1><i class=c>x</p>y<span>z</span>", "i", "remove", None, 1) == \
        '<p><b id=1><i class=c>x</p></i></b><b id="1">'


WHY = "the content it drops leaves formatting elements to reconstruct"


@pytest.mark.parametrize("data,name,nth", [
    # The removed one (or one inside it) ends while its entry stays on the
    # input's list: the parser reconstructs a copy of it later, which the
    # output's list (without it) would not.
    ("<p><b><i><u>x</p>y</i>z", "u", 1),
    ("<p><b><i>x</p>y</b>z<p>w", "i", 1),
    ('<p>1<s id="A">2<b id="B">3</p>4</s>5</b>', "b", 1),
])
def test_refused_where_the_lists_would_differ_later(data, name, nth):
    assert_refused(data, name, "remove", WHY, nth)


@pytest.mark.parametrize("data,name,nth", [
    # The first one's end tag: its parent has its name.
    ("<b><p><b><i>x</p>y", "i", 1),
    # Foster-parented.
    ("<p><b><i>x</p><table>y</table>", "i", 1),
])
def test_refused_where_the_tags_would_act_otherwise(data, name, nth):
    assert_refused(data, name, "remove", "without a start tag of its own", nth)


def test_refused_with_another_of_them_edited():
    seen = {}

    def handler(element):
        n = seen[element.local_name] = seen.get(element.local_name, -1) + 1
        if (element.local_name, n) == ("b", 1):
            element.set_attribute("q", "1")
        if (element.local_name, n) == ("u", 1):
            element.remove()
    for chunk in (None, 1):
        seen.clear()
        with pytest.raises(RewriteError, match="without a start tag of its own"):
            rewrite_in_chunks("<p><b><i><u></p>x", Rewriter().on("*", element=handler), chunk)


@pytest.mark.parametrize("chunked", [False, True, 1])
@pytest.mark.parametrize("data", sorted({case[0] for case in ACCEPTED}))
def test_the_oracle_finds_no_difference(data, chunked):
    for operation in ("remove", "set_inner_content", "before_markup", "after_text",
                      "remove_and_keep_content"):
        for scripting in (False, True):
            assert not check(data, scripting, operation, chunked=chunked).mismatches
