"""remove of an element inside whose dropped range two end tags run the
adoption agency algorithm, each moving it (inside a furthest block, or
as the furthest block) while it stays open (Rewriter._dropped_inside,
_drops_furthest_block, _furthest_dropped_earlier). The output writes one
end tag at the element's end: the reparse runs that token's steps only,
not the first token's (its copies of the formatting elements, the
furthest block it moved), so the second token is refused. Before, the
second token's end tag replaced the first's: removing the second <div>
of <a><b><div><div><div>x</a>y</b>z gave <a><b><div></b>, another tree.

Still accepted: one such end tag inside the dropped range (written at
the element's end), and one that ends the element."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses

WHY = "the adoption agency algorithm moved this element"

# (input, the name of the element removed, which of them)
REFUSED = [
    # The inputs of the issue: the second or third <div>.
    ("<a><b><div><div><div>x</a>y</b>z", "div", 1),
    ("<a><b><div><div><div>x</a>y</b>z", "div", 2),
    ("<b><b><div><div><div>x</b>y</b>z", "div", 1),
    ("<b><b><div><div><div>x</b>y</b>z", "div", 2),
    ("<a><b><div><div><div>x</b></a>y", "div", 1),
    ("<a><b><div><div><div>x</b></a>y", "div", 2),
    # Variants: other formatting elements and blocks, text between, more
    # blocks, a third end tag.
    ("<a>t<b><section>u<p>ux</b>z</a>", "p", 0),
    ("<b>t<a><blockquote>u<section>x</b>z</a>y</b>y", "section", 0),
    ("<nobr><em>t<section><section>x</em>z</nobr>z</a>z", "section", 1),
    ("<b>t<b><b><div><div><i><p><p><i>x</b></b>y</b>z", "div", 1),
    ("<font><font>t<div>u<p><blockquote>x</font>y</font>", "blockquote", 0),
]

# Removals that stay exact (and accepted): one end tag running the
# algorithm inside the dropped range, or the element ended by it.
ACCEPTED = [
    ("<a><b><div><div><div>x</a>y", "div", 1),
    ("<a><b><div><div><div>x</a>y", "div", 2),
    ("<a><b><div><div><div>x</b>y", "div", 1),
    ("<a><div><div>x</a>y</div>z", "div", 1),
    ("<a><b><div><div><div>x</a>y</div></div>z</b>w", "div", 1),
    ("<a><b><div><div><div>x</a>y</div>z</b>w", "div", 2),
]


@pytest.mark.parametrize("data,name,nth", REFUSED)
def test_second_agency_end_tag_refused(data, name, nth):
    assert_refused(data, name, "remove", WHY, nth)


@pytest.mark.parametrize("data,name,nth", ACCEPTED)
def test_one_agency_end_tag_accepted(data, name, nth):
    assert_accepted(data, name, "remove", nth)


@pytest.mark.parametrize("data", sorted({data for data, _, _ in REFUSED}))
@pytest.mark.parametrize("operation", ["remove", "remove_and_keep_content",
                                       "set_inner_content"])
def test_every_element_reparses(data, operation):
    assert_reparses(data, operation)
    assert_reparses(data, operation, chunked=True)
