"""Content written at the end of input when the input ends inside a
processing instruction: the tokenizer emits nothing for it there, so the
content is written before it (where it goes, as after it in the DOM).
Input ending in '<?' that turns into a bogus comment (a target that is not
one, "xml") is not dropped: the comment is closed and the content follows
it. Checked with the DOM-equivalence oracle on the element with id="r",
whole and in 7-byte chunks."""
import pytest

from lexpy.rewriter import Rewriter, rewrite
from tests.rewriter.test_form_pointer import _figures


@pytest.mark.parametrize("data", [
    '<body id="r"><?start',
    '<body id="r"><?start?',
    '<body id="r"><?start ',
    '<body id="r">x<?start data',
    '<body id="r"><?',
    '<body id="r"><?a-b c?d',
    '<div id="r">x<?pi',
])
@pytest.mark.parametrize("operation", ["append_text", "append_markup"])
def test_content_at_the_end_goes_before_a_dropped_processing_instruction(data, operation):
    figures = _figures(data, operation, False)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0), figures.refused


@pytest.mark.parametrize("data, expected", [
    ('<body><?start data', '<body>T<?start data'),
    # (Bogus comments, emitted at the end of input: closed, then the content.)
    ('<body><?xml data', '<body><?xml data>T'),
    ('<body><?1 x', '<body><?1 x>T'),
])
def test_where_the_content_goes(data, expected):
    rw = Rewriter().on("body", element=lambda e: e.append("T"))
    assert rewrite(data, rw) == expected
