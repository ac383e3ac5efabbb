"""Content appended to an element whose start finds formatting elements
to reconstruct (`<p><b>x</p><p>`: the second p starts with the b's entry
on the list, not open): it is written at the element's end, and decided
there (Rewriter._popped: refused where it would be wrapped in
reconstructed formatting elements, or written after end tags that take
their entries off the list), not refused at the call. Content prepended
still is (it is written at the start)."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, edited
from tests.rewriter.oracle import check

ACCEPTED = [
    # (input, element name, which one of that name)
    ("<p><b><b><b><b><p>x", "p", 1),
    ("<p id=a><b><p id=b></b>TEST", "p", 1),
    ("<p><b><div><marquee></p></b></div>X", "div", 0),
    ("<p><b>x</p><p>", "p", 1),
    ("<p><b>x</p><p></p>y", "p", 1),
    ("<p><b>x</p><p><!--c--></p>y", "p", 1),
    ("<p><b>x</p><div></div>y", "div", 0),
    ("<html>\n<dl>\n<dt><b>Boo\n<dd>Goo?\n</dl>\n</html>", "dd", 0),
]


@pytest.mark.parametrize("operation", ["append_text", "append_markup", "append_head_markup"])
@pytest.mark.parametrize("data,name,nth", ACCEPTED)
def test_appended_where_formatting_elements_wait_at_the_start(data, name, nth, operation):
    assert_accepted(data, name, operation, nth)


def test_the_written_tags():
    # The end tag takes the entry off the list; the copy the parser makes
    # after it gets a start tag.
    assert edited("<p><b>x</p><p></p>y", "p", "append_text", None, 1) == \
        '<p><b>x</p><p></b>X&amp;&lt;"&nbsp;</p><b>y'


def test_prepend_is_still_refused():
    assert_refused("<p><b>x</p><p></p>y", "p", "prepend_text",
                   "would be wrapped in reconstructed formatting elements", 1)


@pytest.mark.parametrize("chunked", [False, True, 1])
@pytest.mark.parametrize("data", sorted({case[0] for case in ACCEPTED}))
def test_the_oracle_finds_no_difference(data, chunked):
    for operation in ("append_text", "append_markup", "append_head_markup",
                      "set_inner_content", "append_markup <b>M", "append_markup <p>M",
                      "append_markup <i>M</i>", "append_markup <!--c-->"):
        for scripting in (False, True):
            assert not check(data, scripting, operation, chunked=chunked).mismatches
