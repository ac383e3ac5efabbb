"""Content written at an element's end, before the end of input, where the
parser would reconstruct active formatting elements around it (formatting
elements that ended without their end tag and stay on the list):
Rewriter._unlist_for_copies writes end tags that take those entries off
the output's list (the ones closed at this token where they are still
open, the others after them), the content, and, where the parser
reconstructs copies of them later, start tags with the same attributes
that make the copies there (_copies_of_unlisted). The output is held back
until then. Refused: a later token that takes one of those entries off
the input's list (an end tag of its name: in the output it may close
another element), copies the output's start tags would not make, and
content written before a token that clears the list to a marker."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import MARKUP_OPERATIONS, TEXT, OPERATIONS, check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _edit(data, index, operation, chunk=None):
    """`operation` of oracle.py on the index-th element handed to a `*`
    handler (in the order the parser inserts them)."""
    seen = [0]

    def handler(element):
        if seen[0] == index:
            (OPERATIONS.get(operation) or MARKUP_OPERATIONS[operation])[0](element)
        seen[0] += 1
    rw = Rewriter(scripting=False).on("*", element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _expected(data, index, operation):
    figures = check(data, False, operation, indexes=[index])
    assert figures.tried == 1 and not figures.refused and not figures.mismatches, figures
    return figures


ACCEPTED = [
    # (input, element index, operation): </a> pops <b>, which stays on
    # the list and is reconstructed for "3".
    ("<a>1<b>2</a>3</b>", 3, "append_text"),
    ("<a>1<b>2</a>3</b>", 3, "after_text"),
    # </p> pops <s> and <b>; "4" reconstructs both.
    ('<p>1<s id="A">2<b id="B">3</p>4</s>5</b>', 3, "append_text"),
    ('<p>1<s id="A">2<b id="B">3</p>4</s>5</b>', 3, "after_text"),
    # (the reconstructed <s>: </s> pops the <b> copy inside it)
    ('<p>1<s id="A">2<b id="B">3</p>4</s>5</b>', 6, "append_text"),
    # an element without text between: the copies go inside the <div>
    ("<p><i>1</p><div>2</div>", 3, "after_text"),
]


@pytest.mark.parametrize("data,index,operation", ACCEPTED)
@pytest.mark.parametrize("markup", [None, "<i>M</i>", "<img>", "<!--c-->"])
@pytest.mark.parametrize("chunk", [None, 1, 2, 5])
def test_content_before_reconstructed_copies(data, index, operation, markup, chunk):
    if markup is not None:
        operation = operation.replace("_text", "_markup ") + markup
    # (The oracle accepts it, and its output reparses to the DOM edit.)
    _expected(data, index, operation)
    out = _edit(data, index, operation, chunk)
    assert out == _edit(data, index, operation)


def test_the_output_writes_end_tags_then_start_tags_with_the_attributes():
    out = _edit('<p>1<s id="A">2<b id="B">3</p>4</s>5</b>', 3, "append_text")
    content = TEXT.replace("&", "&amp;").replace("<", "&lt;").replace("\u00a0", "&nbsp;")
    assert out == ('<p>1<s id="A">2<b id="B">3</b></s>%s</p><s id="A"><b id="B">4</s>5</b>'
                   % content)
    out = _edit("<a>1<b>2</a>3</b>", 3, "after_text")
    assert out == "<a>1<b>2</a></b>%s<b>3</b>" % content


def test_output_is_held_until_the_copies_are_made():
    # Fed a byte at a time: nothing after the content comes out before the
    # token that reconstructs the copies has been read.
    rw = Rewriter(scripting=False)
    seen = [0]

    def handler(element):
        if seen[0] == 3:
            element.after("X")
        seen[0] += 1
    rw.on("*", element=handler)
    data = b"<a>1<b>2</a><div></div>3</b>"
    out = b""
    for i in range(len(data)):
        out += rw.feed(data[i:i + 1])
        if i + 1 < data.index(b"3"):
            assert b"X" not in out
    out += rw.close()
    assert out == b"<a>1<b>2</a></b>X<div></div><b>3</b>"


REFUSED = [
    # </b> takes the <b id=b> entry off the input's list; in the output,
    # which has none, it would close <b id=a>.
    ("<b id=a><p><b id=b></p></b>TEST", 4, "append_text"),
    # the <a> start tag's adoption agency takes the <a> entry off: the
    # copies the parser makes for it are not the entries taken off.
    ("<p><a>1</p><a>2", 3, "after_text"),
]


@pytest.mark.parametrize("data,index,operation", REFUSED)
@pytest.mark.parametrize("chunk", [None, 1])
def test_a_later_token_that_takes_an_entry_off_is_refused(data, index, operation, chunk):
    with pytest.raises(RewriteError, match="took the entry|copies it makes later|"
                                           "reconstructed formatting elements"):
        _edit(data, index, operation, chunk)
    figures = check(data, False, operation, indexes=[index])
    assert figures.tried == 1 and figures.refused and not figures.mismatches


def test_entries_of_one_name_are_taken_off_last_first():
    out = _edit("<p><b>1<b>2</p>3", 3, "after_text")
    assert out.startswith("<p><b>1<b>2</p></b></b>") and out.endswith("<b><b>3")
    _expected("<p><b>1<b>2</p>3", 3, "after_text")
    _expected("<p><b>1<b>2</p>3", 3, "append_text")


def test_a_token_that_clears_a_marker_is_refused():
    # </td> clears the list to its marker, after which the <a> entry is
    # the last: end tags written before </td> would not reach it (the
    # marker is still there), and the parser reconstructs it for "3".
    with pytest.raises(RewriteError, match="reconstructed formatting elements"):
        _edit("<table><a>1<td>2</td>3</table>", 7, "append_text")


def test_copies_reconstructed_for_a_formatting_start_tag():
    # The <i> start tag reconstructs the copy, then pushes its own <i>
    # (Noah's Ark: fewer than three like it): the start tag written for the
    # copy meets the same list.
    for operation in ("after_text", "append_text"):
        _expected("<p><i>1</p><i>2", 3, operation)
    assert _edit("<p><i>1</p><i>2", 3, "after_text").endswith("</i>%s<i><i>2" % "X&amp;&lt;\"&nbsp;")


def test_copies_reconstructed_before_a_marker_are_refused():
    # <marquee> reconstructs the copy and puts a marker after it: the list
    # read after the token is not the one the start tag meets (refused,
    # not an error of another kind).
    with pytest.raises(RewriteError, match="cannot be read here"):
        _edit("<p><i>1</p><marquee>2", 3, "after_text")
