"""The removal of a formatting element the parser reconstructed inside
others at the same token, closed by its own end tag
(Rewriter._reconstructed_removal, Rewriter._removal_end_unlisted).

`<p><b><b>x</p>y</b>z`: </p> pops both <b>; "y" makes the parser
reconstruct both, the inner one holding "y", closed by </b>, and "z" goes
into the outer copy. The removal of the inner copy writes `</b></b><b>` at
"y" (the entries off the list, the outer copy made again) and drops "y"
and its end tag. The end tag a removal writes for the first copy
reconstructed at a token (to take the entry the list holds for it off the
list) must not follow: the entry is off already, and that `</b>` would
close the outer copy made again, leaving "z" outside it.

The first copy reconstructed at a token removed, with copies inside it
(Rewriter._removal_copies_listed): the output's list still holds the
entries those copies were made from; when the input's end tags (dropped)
took a copy off, or a copy has the removed one's name (the end tag written
for it takes that entry instead), the parser would reconstruct another
copy after the removal in the output only: refused.
(`<p><b><i>x</p>y</i>z</b>w` without the <b> made at "y".)"""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses

# The inputs of the wrong acceptances found, shrunk ones and variants
# (scripting off).
INPUTS = [
    "<a>t<font><span><section><i><section>u<li>ux<b><b></a></font>y</section>y</b>z",
    "<nobr>t<i>t<li><section><section><span>u<blockquote>u<p><blockquote><i><p><i>x"
    "</blockquote></nobr>y</i>z",
    "<nobr><font>t<nobr><li><i><blockquote><i><span>u<section><i><span>u<div>u<p><li>x<b>z"
    "<b></a>y</nobr>z</b>z",
    "<nobr><i><span><section>u<div><li><i><p>u<span><i><li>x</i><p></div>z",
    "<p><b><b>x</p>y</b>z",
    "<li><i><i>x<li>y</i>z",
    "<div><b><b>x</div>y</b>z</b>w",
    "<b><p><b><b>x</p>y</b></b>z",
    "<b>z<p><font><b>yy<b><div></a>x</b>z<b>",
    "<p>y<i><b></nobr><i></span><li>y</i><i>",
    "<div><b><i>x</div>y</i>z</b>w",
    "<p><b><i>x</p>y</i>z</b>w",
    "<div><b><i><b>x</div>y</b></i>z</b>w",
    "<div><b><b>x</div>y</b></b>w",
    "<div><b><i>x</div>y</b>w</i>v",
]


@pytest.mark.parametrize("data", INPUTS)
def test_removals_reparse(data):
    assert_reparses(data, "remove")


@pytest.mark.parametrize("data", INPUTS[4:8])
def test_unwraps_and_contents_reparse(data):
    assert_reparses(data, "remove_and_keep_content")
    assert_reparses(data, "set_inner_content")


def test_inner_copy_removed_exactly():
    # (The second <b> the parser makes at "y": accepted, the outer copy
    # holding "z".)
    assert_accepted("<p><b><b>x</p>y</b>z", "b", "remove", nth=3)


@pytest.mark.parametrize("data, nth", [
    ("<div><b><i>x</div>y</i>z</b>w", 1),
    ("<p><b><i>x</p>y</i>z</b>w", 1),
    ("<div><b><b>x</div>y</b>z</b>w", 2),
    ("<div><b><i><b>x</div>y</b></i>z</b>w", 2),
])
def test_first_copy_with_closed_copies_inside_refused(data, nth):
    assert_refused(data, "b", "remove", "with others inside it", nth=nth)
