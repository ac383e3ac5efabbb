"""Edits of the adoption agency algorithm's deeper furthest blocks
(Rewriter._split_deep_chain, _split_deep_steps, _split_eight,
_split_eof_end): blocks B1..Bn (div, section, ul, ...) each made a child
of the one before by a start tag that did nothing else, under a chain of
formatting elements whose end tag runs the algorithm while they are open.
Step 1 takes B1 (copies of the elements between go around it, a copy of
F takes B1's children), step i moves B(i) out of the copy of step i-1 to
the end of B(i-1) and a copy of F takes its children; after eight steps
the last copy stays open and listed. An edit of B(k) (content before it or
at its start, its content replaced, unwrapped, renamed) is written as F's
end tag before B(k) (the reparse runs steps 1..k-1 there and pops its last
copy), a start tag copying F after each later block's start tag and F's
end tag before the next one's, the input's end tag left out after eight
steps. Whole input and chunks, checked against the DOM edit.

Refused still (near cases): an element between two blocks (its walk is
not the steps written); content replaced with the eighth copy listed
inside it when something before the end of input ends it."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused

EDITS = ["before_text", "prepend_text", "before_markup", "set_inner_content", "rename",
         "remove_and_keep_content"]

# Three steps (the input's end tag pops the third copy), text after it.
SHORT = "<a>1<b>2<div>3<div>4<div>5</a>6"
# Nine blocks: eight steps, the ninth block stays in the eighth copy.
EIGHT = "<em><i><section>1<div>2<ul>3<div>4<div>5<div>6<div>7<div>8<div>9</em>x"
# Eight blocks; the last two end before the end of input.
CLOSED = ("<a><b><div id=1><div id=2><div id=3><div id=4><div id=5><div id=6><div id=7>"
          "<div id=8>A</a></div></div>B")

# Ten blocks right under F: the second step's block (_agency_second_formatting
# writes it unless the steps reach their limit) and the ones after it.
LIMIT = "<a>1" + "<div>2" * 10 + "</a>x"

ACCEPTED = [
    (LIMIT, "div", 1),
    (LIMIT, "div", 4),
    (SHORT, "div", 1),      # the second step's block, with <b> between
    (SHORT, "div", 2),      # the third
    (EIGHT, "div", 0),      # the second of nine
    (EIGHT, "ul", 0),       # the third
    (EIGHT, "div", 5),      # the eighth: its copy stays open
    (EIGHT, "div", 6),      # the ninth: the algorithm leaves it in the eighth copy
]


@pytest.mark.parametrize("data,name,nth", ACCEPTED)
@pytest.mark.parametrize("operation", EDITS)
def test_the_steps_are_written(data, name, nth, operation):
    assert_accepted(data, name, operation, nth)


@pytest.mark.parametrize("operation", ["before_text", "prepend_text", "set_inner_content"])
def test_the_first_block_of_eight_steps(operation):
    # (_split_eight: the first step's split, the seven after it written.)
    assert_accepted(EIGHT, "section", operation)


def test_replaced_content_ending_at_the_end_of_input():
    assert_accepted(CLOSED, "div", "set_inner_content", 0)


def test_replaced_content_ended_before_the_end_of_input_is_refused():
    # (The eighth copy, listed inside it, would be reconstructed after it.)
    assert_refused(CLOSED, "div", "set_inner_content", "listed inside its replaced content", 7)


@pytest.mark.parametrize("operation", ["before_text", "rename"])
def test_an_element_between_blocks_is_refused(operation):
    assert_refused("<a><b><div><div><span>x<div>y</a>z", "div", operation,
                   "adoption agency", 2)
