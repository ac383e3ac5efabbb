"""A heading the parser closes with another heading's end tag (`</h1>`
pops the first heading it meets: `<h1><div><h3>x</h1>`): content
appended to it, or its content replaced, leaves it the heading that end
tag closes, so the edit is written as for any element closed by an
ancestor's end tag (issue 39's refusal "the heading end tag that closes
it would close another heading without it" kept for its removal and for
an end tag written for it before that one, which would leave the end tag
the other heading). Checked with the DOM-equivalence oracle on the
element with id="r", whole and in 7-byte chunks."""
import pytest

from lexpy.rewriter import Rewriter, rewrite
from tests.rewriter.test_form_pointer import _figures

HEADING = "heading end tag"

CASES = [
    '<h1><div><h3 id="r">x</h1>y',
    '<h1><h3 id="r"><span>x</h1>y',
    '<h1><table><td><h3></table><h3 id="r"></h1>',
    '<!doctype html><h1><div><h3 id="r"><span></h1>foo',
]
# (Its start tag closed the <h1>: no heading is in scope below it.)
REMOVABLE = CASES[1:3]


@pytest.mark.parametrize("data", CASES)
@pytest.mark.parametrize("operation", ["append_text", "append_markup", "set_inner_content"])
def test_content_inside_it_is_written(data, operation):
    figures = _figures(data, operation, False)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0), figures.refused


def test_the_output():
    rw = Rewriter().on("h3", element=lambda e: e.append("Q"))
    assert rewrite("<h1><h3><span>x</h1>y", rw) == "<h1><h3><span>x</span>Q</h1>y"


@pytest.mark.parametrize("data", CASES)
@pytest.mark.parametrize("operation", ["remove", "after_text"])
def test_its_removal_or_content_after_it_is_refused(data, operation):
    # (Without it, or closed by an end tag written for it, the end tag
    # closes the heading around it.)
    figures = _figures(data, operation, False)
    if operation == "remove" and data in REMOVABLE:
        # (No other heading in scope below it: without it the end tag
        # finds none and is ignored, as the DOM edit has it.)
        assert figures.accepted == 1, figures.refused
        return
    assert figures.accepted == 0 and any(HEADING in reason for reason in figures.refused), \
        figures.refused
