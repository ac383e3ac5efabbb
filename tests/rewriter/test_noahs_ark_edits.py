"""Edits that change what Noah's Ark takes off the list of active
formatting elements (issue 39): a fourth <b> inside dropped content took
the first one off the list, so the input does not reconstruct it later
and an output without the dropped content would. Refused (Rewriter.
_noahs_ark_push, _noahs_ark_start, _noahs_ark_end); the oracle finds no
accepted edit that reparses otherwise."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.test_adoption_edits import rewrite_in_chunks
from tests.rewriter.oracle import check

NOAH = "Noah's Ark"
DATA = "<p><b>0<span><b><b><b>1</b></b></b><p>2"
DATA_I = "<p><b>0<span><b><b><b><i>1</b></b></b><p>2"


def _nth(n, op):
    seen = [0]

    def handler(e):
        seen[0] += 1
        if seen[0] == n:
            op(e)
    return handler


@pytest.mark.parametrize("chunk", [None, 1, 6])
@pytest.mark.parametrize("data, selector, n, op", [
    (DATA, "span", 1, lambda e: e.remove()),
    (DATA, "span", 1, lambda e: e.set_inner_content("x")),
    (DATA, "b", 1, lambda e: e.set_inner_content("x")),
    (DATA, "b", 4, lambda e: e.remove()),
    (DATA, "b", 4, lambda e: e.remove_and_keep_content()),
    (DATA_I, "b", 2, lambda e: e.remove_and_keep_content()),
    (DATA, "b", 2, lambda e: e.remove_and_keep_content())])
def test_edits_that_change_noahs_ark_are_refused(data, selector, n, op, chunk):
    rw = Rewriter().on(selector, element=_nth(n, op))
    with pytest.raises(RewriteError, match=NOAH):
        rewrite_in_chunks(data, rw, chunk)


def test_what_it_would_write_reparses_otherwise():
    dom = lexpy.parse(DATA)
    dom.query_selector("span").remove()
    assert lexpy.dump(lexpy.parse("<p><b>0<p>2")) != lexpy.dump(dom)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", [DATA, DATA_I, "<b><b><b><b>x</b></b></b></b>y",
                                  "<b>0<div><b><b><b>1</div>2"])
def test_no_drop_or_unwrap_reparses_otherwise(data, chunked):
    for operation in ("remove", "set_inner_content", "remove_and_keep_content"):
        figures = check(data, False, operation, chunked=chunked)
        assert not figures.mismatches, figures.mismatches[0]


def test_a_drop_that_takes_nothing_off_is_written():
    rw = Rewriter().on("span", element=lambda e: e.remove())
    assert rewrite("<p><b>0<span><b><b>1</b></b></span><p>2", rw) == "<p><b>0<p>2"


# An attribute edit alone: the engine writes the start tag itself and used
# to end the element without the Rewriter (its quiet end), which skipped
# the check of _popped. The clause compares the input's attributes in the
# input and the edited ones in the output. (n counts from 1, as _nth does.)
ATTRIBUTE_EDITS = [
    ("<p><b><b><b><b>x</b>y</p>z", "b b b b", 1),
    ("<p><b><b><b><b></b></b></b></p>x", "b", 2),
    (DATA, "b", 1), (DATA, "b", 2), (DATA, "b", 3), (DATA, "b", 4),
]


@pytest.mark.parametrize("chunk", [None, 1, 5])
@pytest.mark.parametrize("data, selector, n", ATTRIBUTE_EDITS)
def test_attribute_edits_that_change_noahs_ark_are_refused(data, selector, n, chunk):
    rw = Rewriter().on(selector, element=_nth(n, lambda e: e.set_attribute("id", "q")))
    with pytest.raises(RewriteError, match=NOAH):
        rewrite_in_chunks(data, rw, chunk)
    rw = Rewriter().on(selector, element=_nth(n, lambda e: e.remove_attribute("id")))
    with pytest.raises(RewriteError, match=NOAH):
        rewrite_in_chunks(data.replace("<b>", "<b id=q>"), rw, chunk)


def test_attribute_edits_without_three_alike_are_written():
    rw = Rewriter().on("b", element=lambda e: e.set_attribute("id", "q"))
    assert rewrite("<p><b>x</b><b>y</b></p>", rw) == '<p><b id="q">x</b><b id="q">y</b></p>'
    rw = Rewriter().on("a", element=lambda e: e.set_attribute("id", "q"))
    assert rewrite("<a>1<a>2<a>3<a>4</a>", rw) == \
        '<a id="q">1<a id="q">2<a id="q">3<a id="q">4</a>'
