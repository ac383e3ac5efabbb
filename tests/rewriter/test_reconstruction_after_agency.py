"""Formatting elements the parser reconstructs at an <a> or <nobr> start
tag after the adoption agency algorithm that start tag ran for an earlier
<a> or <nobr> (issue 39's refusals "the parser made this element without
a start tag of its own (implied)" and "content written before an element
the parser reconstructed lands inside it"): an end tag of that name,
written where the token starts, runs the same algorithm (it pops what the
token popped and takes the earlier one's entry off the list of active
formatting elements), then the end and start tags for the copies as at
any reconstruction (Rewriter._reconstructed_after_agency). The removal of
such a copy is refused (its dropped range would hold the token that ran
the algorithm), as is a token that did anything else."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter
from tests.rewriter.edit_checks import assert_accepted, assert_refused, edited
from tests.rewriter.oracle import check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

OPERATIONS = ["set_attribute", "prepend_text", "before_text", "before_head_markup", "rename",
              "set_inner_content"]

CASES = [
    # (input, the name of the reconstructed copy, which one of that name)
    ("<a X>0<b>1<a Y>2", "b", 1),                   # the earlier <a> popped
    ("<p><a><b>x</p><a>y", "b", 1),                 # only its entry taken off
    ("<p><a href=1><i>x</p><a href=2>y", "i", 1),
    ("<!DOCTYPE html><body><b><nobr>1<nobr></b><i><nobr>2<nobr></i>3", "i", 1),
    ("<nobr><b><nobr><i>1<nobr>2", "i", 1),
]


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("data,name,nth", CASES)
def test_edits_of_a_copy_reconstructed_after_the_agency(data, name, nth, operation):
    if operation == "set_inner_content" and "</b><i>" in data:
        # (Refused by the check of dropped content: what the input drops
        # there leaves formatting elements to reconstruct.)
        assert_refused(data, name, operation, "leaves formatting elements to reconstruct", nth)
        return
    assert_accepted(data, name, operation, nth)


def test_the_written_tags():
    assert edited("<a X>0<b>1<a Y>2", "b", "rename", None, 1) == \
        "<a X>0<b>1</a></b><abbr><a Y>2</a></abbr>"
    assert edited("<nobr><b><nobr><i>1<nobr>2", "i", "set_attribute", None, 1) == \
        '<nobr><b><nobr><i>1</nobr></i><i data-x="v&quot;&amp;&lt;&nbsp;"><nobr>2'


@pytest.mark.parametrize("data,name,nth", CASES)
def test_its_removal_is_refused(data, name, nth):
    assert_refused(data, name, "remove", "without a start tag of its own (implied)", nth)


@pytest.mark.parametrize("data,name,nth", [
    # The <a> start tag's algorithm found a furthest block (it moved nodes).
    ("<a X><b><div>1<a Y>2", "b", 2),
    # A <nobr> start tag whose first reconstruction made copies too.
    ("<nobr><p><i>1</p><nobr>2", "i", 1),
])
def test_refused_where_the_token_did_more(data, name, nth):
    for operation in ("set_attribute", "before_head_markup"):
        error = edited(data, name, operation, None, nth)
        assert not isinstance(error, str) or not check(data, False, operation).mismatches


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize("nth,edit,expected", [
    # The <b> the <a> start tag's copy is made of, its attributes edited:
    # the copy gets a start tag with the input's (_explicit_copies).
    (0, lambda e: e.set_attribute("k", "v"), '<p><b k="v"><a>x</p></a></b><b><a>y</a>z'),
    (1, lambda e: e.before("X"), "<p><b><a>x</p></a></b>X<b><a>y</a>z"),
])
def test_a_start_tag_that_takes_a_stale_a_off(nth, edit, expected, chunk):
    # (test_review_reconstructed.py: refused before this rule.)
    data = "<p><b><a>x</p><a>y</a>z"
    seen = []

    def handler(element):
        seen.append(element)
        if len(seen) == nth + 1:
            edit(element)
    out = rewrite_in_chunks(data, Rewriter().on("b", element=handler), chunk)
    assert out == expected
    dom = lexpy.parse(data)
    copy = dom.query_selector_all("b")[nth]
    if nth == 0:
        copy.set_attribute("k", "v")
    else:
        copy.before("X")
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(dom)


@pytest.mark.parametrize("chunk", [1, 3])
def test_content_next_to_the_copy_in_chunks(chunk):
    data = "<a X>0<b>1<a Y>2"
    seen = []

    def handler(element):
        seen.append(element.local_name)
        if element.local_name == "b" and element.implied:
            element.before("<!--c-->", html=True)
            element.set_attribute("k", "v")
    whole = rewrite_in_chunks(data, Rewriter().on("*", element=handler), None)
    assert whole == '<a X>0<b>1</a></b><!--c--><b k="v"><a Y>2'
    assert rewrite_in_chunks(data, Rewriter().on("*", element=handler), chunk) == whole


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", sorted({case[0] for case in CASES} | {
    "<a X><b><div>1<a Y>2", "<nobr><p><i>1</p><nobr>2", "<a 1><table><a 2><td><a 3>x",
    "<p><a><b><i>x</p><a><!--c-->y", "<p><b><a>x</p><a>y</a>z"}))
def test_the_oracle_finds_no_difference(data, chunked):
    for operation in ("before_head_markup", "before_markup", "before_text", "after_text",
                      "remove", "set_attribute", "rename", "remove_and_keep_content",
                      "set_inner_content", "prepend_text", "append_text"):
        assert not check(data, False, operation, chunked=chunked).mismatches
