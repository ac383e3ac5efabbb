"""Content before an element where the parser implied other elements at
the same token (issue 39, part C of session 12): before a start tag that
did nothing but reconstruct formatting elements (Rewriter.
_start_reconstructed_only, _reopen_reconstructed), and before the <p> a
</p> end tag inserts (Rewriter._end_tag_p), which remove_and_keep_content
removes. Each rule's accepted cases, whole and in small
chunks (the oracle's check: the output reparses to the DOM edit), and
the near cases it must still refuse."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import check
from tests.rewriter.test_part_c_edits import _rewrite


def _index(data, name, nth=0):
    names = []
    rewrite(data, Rewriter().on("*", element=lambda e: names.append(e.tag_name)))
    return [i for i, n in enumerate(names) if n == name][nth]


def _accepted(data, name, operation, nth=0):
    """check() on one element, whole and in 7-byte chunks: True when
    accepted both ways (and equal to the DOM edit), False when refused
    both ways."""
    outcomes = []
    for chunked in (False, True):
        figures = check(data, False, operation, chunked=chunked,
                        indexes=[_index(data, name, nth)])
        assert not figures.mismatches, figures.mismatches[0]
        assert figures.tried == 1
        outcomes.append(figures.accepted == 1)
    assert outcomes[0] == outcomes[1]
    return outcomes[0]


# A start tag that reconstructed formatting elements and nothing else:
# text, or markup whose first token is a start tag that reconstructs,
# makes the parser reconstruct the same ones first and goes inside them.
@pytest.mark.parametrize("data,name,operation", [
    ("<p><b>x</p><i>y", "i", "before_text"),
    ("<p><b>x</p><i>y", "i", "before_markup"),
    ("<p><b><u>x</p><img>", "img", "before_text"),
    ("<p><b>x</p><span>y</span>", "span", "before_markup M&amp;N"),
    ("<!DOCTYPE html><body><b><nobr>1<nobr></b><i><nobr>2<nobr></i>3", "i",
     "before_text"),
])
def test_before_a_start_tag_that_reconstructed(data, name, operation):
    assert _accepted(data, name, operation)


def test_before_a_start_tag_that_reconstructed_output():
    def edit(e):
        e.before("X")
    for chunk in (None, 1, 3):
        assert _rewrite("<p><b>x</p><i>y", "i", edit, chunk) == "<p><b>x</p>X<i>y"


# Content the parser does not reconstruct for (a comment, <meta>): end
# tags take the reconstructed elements off the list, start tags with their
# attributes make them again there, then the content (Rewriter.
# _reopen_reconstructed).
@pytest.mark.parametrize("data,name,operation", [
    ("<p><b>x</p><i>y", "i", "before_markup <!--c-->"),
    ("<p><b>x</p><i>y", "i", "before_head_markup"),
    ("<p><b id=1><u>x</p><img>", "img", "before_head_markup"),
    ("<p><b id=1><u>x</p><img>", "img", "before_markup <!--c-->"),
])
def test_before_a_start_tag_that_reconstructed_reopened(data, name, operation):
    assert _accepted(data, name, operation)


def test_before_a_start_tag_that_reconstructed_reopened_output():
    def edit(e):
        e.before('<meta name="x">', html=True)
    for chunk in (None, 1, 5):
        assert _rewrite("<p><b id=1><u>x</p><img>", "img", edit, chunk) == \
            '<p><b id=1><u>x</p></u></b><b id="1"><u><meta name="x"><img>'


def test_a_refused_before_writes_no_tags():
    # The markup is refused; the attribute set after it writes nothing
    # for the reconstructed <b>.
    def edit(e):
        with pytest.raises(RewriteError):
            e.before("<p>M", html=True)
        e.set_attribute("x", "y")
    for chunk in (None, 1):
        assert _rewrite("<p><b>x</p><i>y", "i", edit, chunk) == '<p><b>x</p><i x="y">y'


@pytest.mark.parametrize("data,name,operation", [
    # The reconstructed <b> is a child of a <b>: an end tag written for it
    # is refused (_reconstructed_index).
    ("<b><p><b>x</p><i>y", "i", "before_markup <!--c-->"),
    # The reconstructed <font> is foster-parented: the text would join the
    # table's whitespace before it.
    ("<table><center> <font>a</center> <img> <tr><td> </td> </tr> </table>", "img",
     "before_text"),
    ("<table><center> <font>a</center> <img> <tr><td> </td> </tr> </table>", "img",
     "before_head_markup"),
    # (A start tag that also closed a <p> and the copy in it:
    # test_closed_unlisted.py.)
])
def test_before_a_start_tag_that_reconstructed_refused(data, name, operation):
    assert not _accepted(data, name, operation)


# The <p> a </p> end tag inserts (no p in button scope): content written
# before the end tag goes where the parser inserts it.
@pytest.mark.parametrize("data,operation", [
    ("<p><hr></p>", "before_text"),
    ("<p><hr></p>", "before_markup"),
    ("<p><hr></p>", "before_head_markup"),
    ("<div></p></div>", "before_text"),
    ("<!doctype html><p><button></p>", "before_text"),
])
def test_before_the_p_of_an_end_tag(data, operation):
    assert _accepted(data, "p", operation, nth=-1)


def test_before_the_p_of_an_end_tag_output():
    def edit(e):
        if e.implied:
            e.before("X")
    for chunk in (None, 1, 2):
        assert _rewrite("<p><hr></p>", "p", edit, chunk) == "<p><hr>X</p>"


@pytest.mark.parametrize("data", [
    # The <b> left on the list would be reconstructed for the text, and the
    # <p> would go into it.
    "<p><b></p></p>",
])
def test_before_the_p_of_an_end_tag_refused(data):
    assert not _accepted(data, "p", "before_text", nth=-1)


# The <p> of a </p> is empty: remove_and_keep_content removes it.
@pytest.mark.parametrize("data", ["<p><hr></p>", "<!doctype html><p><button></p>",
                                  "<p><b></p></p>", "<div></p></div>"])
def test_the_p_of_an_end_tag_unwrapped(data):
    assert _accepted(data, "p", "remove_and_keep_content", nth=-1)


def test_the_p_of_an_end_tag_unwrapped_output():
    def edit(e):
        if e.implied:
            e.remove_and_keep_content()
    for chunk in (None, 1, 2):
        assert _rewrite("<p><hr></p>x", "p", edit, chunk) == "<p><hr>x"


# Removed: the reconstructed elements are written out in its place (end
# tags, then start tags with their attributes), and stay open after it as
# in the input.
@pytest.mark.parametrize("data,name", [
    ("<p><b>x</p><i>y</i>z", "i"),
    ("<p><b id=1><u>x</p><i>y</i>z", "i"),
])
def test_removed_after_reconstructing(data, name):
    assert _accepted(data, name, "remove")


def test_removed_after_reconstructing_output():
    def edit(e):
        e.remove()
    for chunk in (None, 1, 3):
        assert _rewrite("<p><b>x</p><i>y</i>z", "i", edit, chunk) == "<p><b>x</p></b><b>z"


@pytest.mark.parametrize("data,name,operation", [
    # A formatting element it drops would be left to reconstruct.
    ("<p><b>x</p><i>y<u>z</i>w", "i", "remove"),
    # The reconstructed <b> is a child of a <b>.
    ("<b><p><b>x</p><i>y</i>z", "i", "remove"),
    ("<p><b>x</p><i>y</i>z", "i", "remove_and_keep_content"),
])
def test_removed_after_reconstructing_refused(data, name, operation):
    assert not _accepted(data, name, operation)
