"""Edits at a start tag whose handling takes entries off the list of
active formatting elements without popping anything (issue 39): the `a`
start tag runs the adoption agency for an earlier `a` that is no longer
open, which only removes its entry. What the parser reconstructs at such
a token is then not what text written before it reconstructs (the stale
`a` too), so it is not "only reconstructed" (_only_reconstructed,
_may_have_taken_formatting_entries): the edits below are refused, in
every chunking, and the oracle finds no accepted edit that reparses
otherwise. (Edits of the copies it reconstructs, and of the elements they
copy, are written after an `</a>` that runs the same algorithm:
test_reconstruction_after_agency.py.)"""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.test_adoption_edits import rewrite_in_chunks
from tests.rewriter.oracle import check

STALE_A = "<p><b><a>x</p><a>y</a>z"


def _nth(n, op):
    seen = [0]

    def handler(e):
        seen[0] += 1
        if seen[0] == n:
            op(e)
    return handler


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize("data, selector, n, op", [
    (STALE_A, "a", 2, lambda e: e.before("X")),
    (STALE_A, "a", 2, lambda e: e.remove()),
    (STALE_A, "a", 2, lambda e: e.before("<!--c-->", html=True)),
    ("<p><a><b>x</p><a>y", "a", 2, lambda e: e.before("X")),
    ("<div><a href=x><em></div><a href=x></b><!--c-->", "a", 2, lambda e: e.before("X")),
    ("<div><a href=x><em></div><a href=x></b><!--c-->", "a", 2, lambda e: e.remove())])
def test_edits_at_a_start_tag_that_drops_a_stale_a_are_refused(data, selector, n, op, chunk):
    rw = Rewriter().on(selector, element=_nth(n, op))
    with pytest.raises(RewriteError):
        rewrite_in_chunks(data, rw, chunk)


def test_what_text_before_it_would_write_reparses_otherwise():
    dom = lexpy.parse(STALE_A)
    second = dom.query_selector_all("a")[1]
    second.before("X")
    assert lexpy.dump(lexpy.parse("<p><b><a>x</p>X<a>y</a>z")) != lexpy.dump(dom)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", [STALE_A, "<p><a><b>x</p><a>y", "<p><s>x<a>y</p><a>z",
                                  "<div><a href=x><em></div><a href=x></b><!--c-->"])
@pytest.mark.parametrize("operation", ["before_text", "remove", "set_attribute",
                                       "before_markup <!--c-->"])
def test_no_edit_reparses_otherwise(data, operation, chunked):
    figures = check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]


@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_a_reconstruction_with_nothing_taken_off_is_still_written(chunk):
    rw = Rewriter().on("i", element=lambda e: e.before("X"))
    out = rewrite_in_chunks("<p><b>x</p><i>y", rw, chunk)
    dom = lexpy.parse("<p><b>x</p><i>y")
    dom.query_selector("i").before("X")
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(dom)


# (Also from the review: remove_and_keep_content refused a frameset as a
# table part, "table parts are implied again".)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_a_frameset_unwrap_is_refused_at_the_call_for_its_frames(chunk):
    refused = []

    def unwrap(e):
        try:
            e.remove_and_keep_content()
        except RewriteError as error:
            refused.append(str(error))
    data = "<frameset><frame></frameset>"
    out = rewrite_in_chunks(data, Rewriter().on("frameset", element=unwrap), chunk)
    assert out == data
    assert len(refused) == 1 and "frames only in a frameset" in refused[0]
