"""Content written right after the input at its end (Rewriter._check_join):
after '&#' and what follows it, text joins only where the numeric
character reference states would take its first character
(_numeric_reference_joins); where the input ends inside a CDATA section of
foreign content, "]]>" is written first (Rewriter._close_eof_cdata), which
ends the section with the same text."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.edit_checks import assert_accepted

ENDED_REFERENCES = ["FOO&#BAR", "a&#12", "a&#xg", "a&#1A", "a&#x1F"]


@pytest.mark.parametrize("data", ENDED_REFERENCES)
def test_text_after_a_numeric_reference_it_cannot_extend(data):
    # (TEXT begins with 'X': no decimal digit, nor a hexadecimal one.)
    assert_accepted(data, "body", "append_text")


@pytest.mark.parametrize("data, text", [
    ("a&#", "1"), ("a&#", "x1"), ("a&#1", "2"), ("a&#1", ";"), ("a&#x", "f"),
    ("a&#xA", "b"), ("a&#xA", ";")])
def test_text_that_extends_a_numeric_reference_is_refused(data, text):
    rw = Rewriter().on("body", element=lambda e: e.append(text))
    with pytest.raises(RewriteError, match="join"):
        rewrite(data, rw)


CDATA = ["<svg><![CDATA[foo", "<svg><![CDATA[foo]", "<svg><![CDATA[foo]]",
         "<math><mi><svg><![CDATA[a", "<svg><![CDATA["]


@pytest.mark.parametrize("data", CDATA)
@pytest.mark.parametrize("name, operation", [
    ("svg", "append_text"), ("svg", "after_text"), ("body", "append_text")])
def test_content_after_a_cdata_section_the_input_ends_in(data, name, operation):
    assert_accepted(data, name, operation)
