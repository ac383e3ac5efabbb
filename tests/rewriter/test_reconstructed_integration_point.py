"""Formatting elements the parser reconstructed in a foreign integration
point (an SVG foreignObject, a MathML mtext: text and start tags there
follow the "in body" rules, which reconstruct): they get end tags and start
tags of their own there as in an HTML parent (_reconstruction_end_tags_pass).
The end tags follow the rules for foreign content, which walk down the
stack over the foreign elements to the first HTML one: refused when one
of those foreign elements has the name of an end tag to write (it would
pop it)."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, edited
from tests.rewriter.oracle import check

CASES = [
    "<!DOCTYPE html><svg><foreignObject><p><i></p>a",
    "<!DOCTYPE html><math><mtext><p><i></p>a",
    "<!DOCTYPE html><svg><desc><p><b id=x><i>1</p>a</svg>b",
    "<!DOCTYPE html><math><mi><div><s><em>1</div><!--c--><span>a</span>",
]

OPERATIONS = ["set_attribute", "rename", "prepend_text",
              "before_text", "before_markup", "before_head_markup", "remove",
              "set_inner_content", "after_text"]


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("data", CASES[:2])
def test_the_reconstructed_copy_takes_the_edit(data, operation):
    assert_accepted(data, "i", operation, 1)


@pytest.mark.parametrize("operation", ["set_attribute", "before_head_markup"])
def test_an_inner_copy(operation):
    assert_accepted(CASES[2], "i", operation, 1)
    assert_accepted(CASES[3], "em", operation, 1)


def test_the_written_tags():
    assert edited(CASES[0], "i", "set_attribute", None, 1) == \
        '<!DOCTYPE html><svg><foreignObject><p><i></p></i><i data-x="v&quot;&amp;&lt;&nbsp;">a'


@pytest.mark.parametrize("data,name,nth", [
    # The end tag </a> would pop the SVG <a> around the integration point
    # (the first <a>; the second is the HTML one the </p> closes).
    ("<!DOCTYPE html><svg><a><foreignObject><p><a>1</p>x", "a", 2),
    ("<!DOCTYPE html><svg><a><foreignObject><p><b><a>1</p>x", "b", 1),
])
@pytest.mark.parametrize("operation", ["set_attribute", "before_text"])
def test_refused_where_an_end_tag_would_pop_a_foreign_element(data, name, nth, operation):
    why = "without a start tag of its own" if operation == "set_attribute" \
        else "reconstructed lands inside it"
    assert_refused(data, name, operation, why, nth)


@pytest.mark.parametrize("chunked", [False, True, 1])
@pytest.mark.parametrize("data", CASES)
def test_the_oracle_finds_no_difference(data, chunked):
    for operation in OPERATIONS:
        assert not check(data, False, operation, chunked=chunked).mismatches
        assert not check(data, True, operation, chunked=chunked).mismatches
