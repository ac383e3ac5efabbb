"""Two edits in one run (the oracle's pairs set, oracle.check_pair): edits
that are right alone must stay right together, where one changes what the
parser sees around the other (a start tag dropped, an end tag written)."""
import pytest

from tests.rewriter.oracle import check, check_pair, check_pairs
from tests.rewriter.test_oracle import CASES

CHUNKINGS = (False, 1, 7)
UNWRAP = "remove_and_keep_content"


def _accepted(data, first, second, chunked):
    figures = check_pair(data, True, first, second, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted == 1, figures.summary()


# Elements handed over in order: html 0, head 1, body 2, then the input's.
@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data, first, second", [
    # An unwrapped element closed without an end tag has no start tag in
    # the output: no end tag is written for it where content follows (it
    # was a stray </p>, which the parser makes an empty <p> of).
    ("<p>a<p>b", (3, UNWRAP), (4, UNWRAP)),
    ("<b><p>1</b><p>2", (4, UNWRAP), (6, UNWRAP)),
    ("<div><p>baz", (3, "append_text"), (4, UNWRAP)),
    ("<p>a<div>b", (3, UNWRAP), (4, "before_text")),
    ("<!doctype html><p>foo<address>bar<p>baz", (4, "append_markup"), (5, UNWRAP)),
    ("<!doctype html><header><p>foo</header>bar", (3, "rename"), (4, UNWRAP)),
    ("<p><figcaption>", (3, UNWRAP), (4, "before_text")),
    ("<option><span><option>", (4, "after_text"), (5, UNWRAP)),
    ("<div><p>a</x> b", (3, "after_text"), (4, UNWRAP)),
])
def test_no_end_tag_for_an_unwrapped_element(data, first, second, chunked):
    _accepted(data, first, second, chunked)


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data, first, second", [
    # Near cases, accepted before and after: the element closed is in the
    # output (renamed, edited, or removed with what it holds).
    ("<p>a<p>b", (3, "rename"), (4, UNWRAP)),
    ("<p>a<p>b", (3, "set_attribute"), (4, UNWRAP)),
    ("<p>a<p>b", (3, "remove"), (4, UNWRAP)),
    ("<p>a<p>b", (3, UNWRAP), (4, "append_text")),
    ("<div><p>baz", (3, "append_text"), (4, "set_attribute")),
])
def test_near_cases_stay_accepted(data, first, second, chunked):
    _accepted(data, first, second, chunked)


@pytest.mark.parametrize("chunked", CHUNKINGS)
def test_one_unwrap_alone_stays_accepted(chunked):
    # Each <p> unwrapped alone (the second's start tag closed the first,
    # whose end tag then stands in its place).
    figures = check("<p>a<p>b", True, UNWRAP, chunked=chunked, indexes=[3, 4])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted == 2, figures.summary()


# A bounded sample of the pairs set (`python -m tests.rewriter.test_oracle
# --pairs` runs it over the whole suite): no accepted pair of edits
# reparses to another tree than both DOM edits.
SAMPLE_FILES = ("tests1.dat", "blocks.dat", "tests20.dat", "adoption01.dat")


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_pairs_sample(name):
    cases = CASES[name]
    assert cases
    mismatches = []
    tried = 0
    for case in cases[:60]:
        figures = check_pairs(case.data, case.scripting, label=case.id, per_pair=2, sample=12)
        tried += figures.tried
        mismatches.extend(figures.mismatches)
    assert tried > 100
    assert not mismatches, "\n\n".join(mismatches[:3])


def _refused(data, first, second, chunked):
    figures = check_pair(data, True, first, second, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried == 1 and figures.accepted == 0, figures.summary()
    return figures


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data, first, second", [
    # An element removed at the end of input whose content held entries of
    # the list of active formatting elements (a copy the parser
    # reconstructed there): the output's list keeps the entry of the
    # element copied, closed, and the parser reconstructs it around the
    # content another handler writes at that end of input.
    ("<b><h1><i>x</b>y", (2, "append_text"), (7, "remove")),
    ("<div><b></div><div><nobr>a<nobr>", (2, "append_text"), (5, "remove")),
    ("<font><p>hello<b>cruel</font>world", (2, "append_markup"), (7, "remove")),
    ("<p><b><div><marquee></p></b></div>X", (2, "append_markup"), (6, "remove")),
])
def test_content_after_a_removal_that_changed_the_list_is_refused(data, first, second,
                                                                  chunked):
    figures = _refused(data, first, second, chunked)
    # (Or the removal itself is refused: its content took an entry that
    # was not open off the list, _drop_took_closed.)
    assert any("content written at the end of input after" in reason or
               "the content it drops leaves formatting elements to reconstruct" in reason
               for reason in figures.refused), figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data, edits", [
    # Near cases, accepted: each edit alone, and content at the end of
    # input after a removal that held no entry of the list.
    ("<b><h1><i>x</b>y", [(7, "remove")]),
    ("<b><h1><i>x</b>y", [(2, "append_text")]),
    ("<div><p>a<div>b", [(2, "append_text"), (5, "remove")]),
    ("<b>x<div>y", [(2, "append_text"), (4, "remove")]),
])
def test_near_removals_stay_accepted(data, edits, chunked):
    if len(edits) == 2:
        _accepted(data, edits[0], edits[1], chunked)
    else:
        (index, operation), = edits
        figures = check(data, True, operation, chunked=chunked, indexes=[index])
        assert not figures.mismatches, figures.mismatches[0]
        assert figures.accepted == 1, figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data, edits", [
    # A heading unwrapped that another heading's end tag closes: without
    # its start tag, that end tag closes another heading (the h1 here,
    # and the <div> above the h3 with it), alone or with an end tag
    # written for an element closed above it (the <span>'s, content
    # after it), which hid that element from the check of what the
    # token closes besides it.
    ("<h1><div><h3>x</h1>y", [(5, UNWRAP)]),
    ("<!doctype html><h1><div><h3><span></h1>foo", [(5, UNWRAP), (6, "after_text")]),
])
def test_unwrapped_heading_closed_by_another_heading_end_tag_is_refused(data, edits,
                                                                        chunked):
    if len(edits) == 2:
        figures = _refused(data, edits[0], edits[1], chunked)
    else:
        (index, operation), = edits
        figures = check(data, True, operation, chunked=chunked, indexes=[index])
        assert not figures.mismatches, figures.mismatches[0]
        assert figures.tried == 1 and figures.accepted == 0, figures.summary()
    assert any("heading end tag" in reason for reason in figures.refused), figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
def test_unwrapped_heading_with_its_own_end_tag_stays_accepted(chunked):
    figures = check("<div><h3>x</h3>y</div>", True, UNWRAP, chunked=chunked, indexes=[4])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted == 1, figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data, first, second", [
    # An element whose start tag only reconstructed formatting elements,
    # removed (end and start tags for them written in its place), where
    # another edit's end tags took those entries off the output's list
    # and start tags are written for the copies at that token already:
    # writing them again made two copies.
    ("<div><i></div><option>option", (4, "remove"), (6, "remove")),
    ("<!DOCTYPE html><p><b></p><menuitem>", (3, "append_text"), (6, "remove")),
    ("<!DOCTYPE html><body><b><nobr>1<ins><nobr></b><i>2", (3, "after_text"), (8, "remove")),
])
def test_no_second_copy_of_a_reconstructed_element(data, first, second, chunked):
    figures = _refused(data, first, second, chunked)
    assert any("its start tag also made" in reason for reason in figures.refused), \
        figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data, first, second", [
    # Near cases, accepted: the element whose start tag reconstructed
    # removed alone, or with an edit that wrote no copy.
    ("<div><i></div><option>option", (3, "set_attribute"), (6, "remove")),
    ("<!DOCTYPE html><p><b></p><menuitem>", (3, "set_attribute"), (6, "remove")),
])
def test_reconstructing_removal_stays_accepted(data, first, second, chunked):
    _accepted(data, first, second, chunked)


@pytest.mark.parametrize("chunked", CHUNKINGS)
@pytest.mark.parametrize("data, index, operation", [
    # A heading that another heading's end tag closes, with no other
    # heading in scope below it: without its tags, that end tag finds no
    # heading and is ignored, as the DOM edit has it (accepted; the
    # removal was refused before too).
    ("<div><h3>x</h1>y", 4, UNWRAP),
    ("<div><h3>x</h1>y", 4, "remove"),
    ("<table><td><h2>a</h1>b", 7, "remove"),
    # (the <h1> below is out of scope: the cell, the object bound it)
    ("<h1><table><td><h2>a</h1>b", 8, "remove"),
    ("<h1><object><h2>a</h1>b", 5, UNWRAP),
    ("<h1><object><h2>a</h1>b", 5, "remove"),
])
def test_heading_closed_by_another_heading_end_tag_alone_in_scope(data, index, operation,
                                                                  chunked):
    figures = check(data, True, operation, chunked=chunked, indexes=[index])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted == 1, figures.summary()


@pytest.mark.parametrize("chunked", CHUNKINGS)
def test_heading_removed_with_a_heading_below_stays_refused(chunked):
    figures = check("<h1><div><h3>x</h1>y", True, "remove", chunked=chunked, indexes=[5])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried == 1 and figures.accepted == 0, figures.summary()
