"""Elements the end of input closes (Rewriter._eof_formatting_end,
Rewriter._eof_unwrap).

- Content after a formatting element closed at the end of input gets an
  end tag written for the element first: the adoption agency algorithm
  pops it (the current node then) and takes its entry off the list, and
  with no other entry left whose element is closed nothing is
  reconstructed around the content. A formatting element closed earlier,
  which the parser reconstructs later, stays refused.
- An element unwrapped (remove_and_keep_content) that the end of input
  closes, whose start tag did nothing else: the end of input pops every
  element with or without it. One whose ancestor left the stack from
  below it before (a </form>), or one whose start tag closed or
  reconstructed elements, stays refused.
"""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused

AFTER_ACCEPTED = [
    ("<DIV> abc <B>", "b", 0),
    ("<DIV> abc <B> def", "b", 0),
    ("<DIV> abc <B> def <I> ghi", "b", 0),
    ("<DIV> abc <B> def <I> ghi", "i", 0),
    ("<p>a<b>x<i>y", "b", 0),
    ("<b>A<cite>B<div>C", "b", 0),
    ("<b><b>x", "b", 1),
    # (the inner b's end tag first, then the outer one's)
    ("<b><b>x", "b", 0),
]


@pytest.mark.parametrize("data,name,nth", AFTER_ACCEPTED)
def test_after_a_formatting_element_the_end_of_input_closes(data, name, nth):
    assert_accepted(data, name, "after_text", nth)


AFTER_REFUSED = [
    # (closed by </p>, reconstructed at the next <p>: an end tag would
    # take it off the list)
    ("<p><b><i><u></p>\n<p>X", "b", 0),
    # (the b closed by </p> stays on the list, not open: the content after
    # the i would be wrapped in a copy of it)
    ("<i><p><b>x</p>", "i", 0),
]


@pytest.mark.parametrize("data,name,nth", AFTER_REFUSED)
def test_after_a_formatting_element_still_refused(data, name, nth):
    assert_refused(data, name, "after_text", "end tag cannot be written", nth)


UNWRAP_ACCEPTED = [
    ("<DIV> abc <B> def", "b", 0),
    ("<b>x<i>y", "b", 0),
    ("<b>x<i>y", "i", 0),
    ("<div>x<span>y", "div", 0),
    # (an HTML mrow in an HTML integration point: the end tags after the
    # <p> are ignored with it or without it; tests/rewriter/
    # test_form_pointer.py refused it before)
    ('<math><annotation-xml encoding="text/html"><mrow id="r"><p>x</mrow>'
     '</annotation-xml></math>', "mrow", 0),
    ("<p>a<b>x<i>y", "i", 0),
    # (closed by </p>, its entry left on the list: nothing reconstructs a
    # copy before the end of input; test_unwrap_closed_by_token.py)
    ("<p>a<b>x</p>", "b", 0),
]


@pytest.mark.parametrize("data,name,nth", UNWRAP_ACCEPTED)
def test_unwrapping_an_element_the_end_of_input_closes(data, name, nth):
    assert_accepted(data, name, "remove_and_keep_content", nth)


UNWRAP_REFUSED = [
    # (</form> took the form off from below the div: without the div the
    # form is the current node and the later <div> goes to the body)
    ("<!doctype html><form><div></form><div>", "div", 0),
]


@pytest.mark.parametrize("data,name,nth", UNWRAP_REFUSED)
def test_unwrapping_still_refused(data, name, nth):
    assert_refused(data, name, "remove_and_keep_content", "what closes it here would act "
                   "otherwise", nth)
