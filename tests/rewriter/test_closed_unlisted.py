"""Content written where a token closed formatting elements without their
end tags, before the end of input, and they stay on the list of active
formatting elements (`<p><b>x<p>y`: the second <p> closes the <b> and the
first <p>; "y" reconstructs a copy of the <b>): Rewriter._close_implied
writes their end tags (_closed_unlistable: each is the current node there
and the last entry of its name, so the adoption agency algorithm pops it
and takes its entry off the output's list), and a start tag with the same
attributes where the parser reconstructs the copy later
(_copies_of_unlisted; when copies of entries before them are reconstructed
too, the first start tag's own reconstruction makes those). The output is
held back until then. Refused: a later token that takes such an entry off
the input's list first, copies made inside a removed element, and start
tags the Noah's Ark clause would read otherwise."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check
from tests.rewriter.test_unlist_copies import _edit, _expected


ACCEPTED = [
    # (input, element index, operation)
    # content appended to the outer <b>: </b> for the inner one first; "y"
    # reconstructs both, the output's <b> start tag reconstructs the outer.
    ("<p><b><b>x<p>y", 4, "append_text"),
    ("<p><b id=1><b id=2>x<p>y", 4, "append_text"),
    # content after the first <p>: both end tags, both start tags.
    ("<p><b id=1><i>x<p>y", 3, "after_text"),
    # content before the second <p>.
    ("<p><b>x<p>y", 5, "before_text"),
    # (the <div> also closes the copy "y" reconstructed in the second <p>)
    ("<p><b>x</p><p>y<div>z", 7, "before_text"),
    # the first <p> renamed: its end tag needs the <b>'s first.
    ("<p><b>x<p>y", 3, "rename"),
    # the entry is taken off the input's list after the copy is made.
    ("<p><b>x<p>y</b>z", 3, "append_text"),
    ("<div><p><i>x</div><span>y</span>", 4, "after_text"),
]


# (each text insertion also with markup: a closed element, a void one, a
# comment)
WITH_MARKUP = ACCEPTED + [
    (data, index, operation.replace("_text", "_markup ") + markup)
    for data, index, operation in ACCEPTED if operation.endswith("_text")
    for markup in ("<i>M</i>", "<img>", "<!--c-->")]


@pytest.mark.parametrize("data,index,operation", WITH_MARKUP)
@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_end_tags_for_formatting_elements_closed_here(data, index, operation, chunk):
    # (The oracle accepts it, whole and in 7-byte chunks, and its output
    # reparses to the DOM edit.)
    _expected(data, index, operation)
    chunked = check(data, False, operation, chunked=True, indexes=[index])
    assert chunked.accepted == 1 and not chunked.mismatches, chunked
    assert _edit(data, index, operation, chunk) == _edit(data, index, operation)


def test_the_output_holds_the_end_tag_and_the_copy():
    out = _edit("<p><b id=1><b id=2>x<p>y", 4, "append_text")
    assert out.startswith("<p><b id=1><b id=2>x</b>X&amp;")
    assert out.endswith('<p><b id="2">y')


def test_output_is_held_until_the_copy_is_made():
    rw = Rewriter(scripting=False)
    seen = [0]

    def handler(element):
        if seen[0] == 3:
            element.after("X")
        seen[0] += 1
    rw.on("*", element=handler)
    data = b"<p><b>x<p><!--c-->y"
    out = b""
    for i in range(len(data)):
        out += rw.feed(data[i:i + 1])
        if i + 1 < data.index(b"y"):
            assert b"X" not in out
    out += rw.close()
    assert b"X" in out
    _expected(data.decode(), 3, "after_text")


REFUSED = [
    # </b> takes the entry off the input's list before any copy is made:
    # in the output, which has none, it may close another element.
    ("<p><b>x<p></b>z", 3, "append_text"),
    # the copy is made inside the removed <p>: the output has none, and
    # the input's list keeps it.
    ("<p><b>x<p>y</p>z", 5, "remove"),
    # four <b> start tags for the copies: the fourth would take the first
    # off the list (Noah's Ark), which the reconstruction does not.
    ("<p><b><b><b><b><p>x", 3, "after_text"),
]


@pytest.mark.parametrize("data,index,operation", REFUSED)
@pytest.mark.parametrize("chunk", [None, 1])
def test_what_the_copies_cannot_express_is_refused(data, index, operation, chunk):
    with pytest.raises(RewriteError):
        _edit(data, index, operation, chunk)
    figures = check(data, False, operation, indexes=[index])
    assert figures.tried == 1 and figures.refused and not figures.mismatches
