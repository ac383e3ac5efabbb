"""Content written right after the input at its end (Rewriter._check_join):
after '&#' and what follows it, text joins only where the numeric
character reference states would take its first character
(_numeric_reference_joins); where the input ends inside a CDATA section of
foreign content, "]]>" is written first (Rewriter._close_eof_cdata), which
ends the section with the same text."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import _normalized_dump
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


@pytest.mark.parametrize("data", ["<svg><![CDATA[foo", "<svg><![CDATA[]>a", "<svg><![CDATA[<svg>a"])
def test_no_cdata_end_where_the_rewrite_dropped_the_section(data):
    # (The svg's content replaced: the output is not inside the section,
    # and "]]>" written there would be text: Rewriter._close_eof_cdata
    # reads the output's end.)
    rw = Rewriter().on("svg", element=lambda e: e.set_inner_content("Y")) \
        .on("body", element=lambda e: e.append("<span>M</span>", html=True))
    try:
        out = rewrite(data, rw)
    except RewriteError:
        return
    assert "]]>" not in out
    document = lexpy.parse(data)
    svg = document.query_selector("svg")
    for child in list(svg.child_nodes):
        child.remove()
    svg.append("Y")
    for node in lexpy.parse_fragment("<span>M</span>", "body").child_nodes:
        document.body.append_child(node)
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(document)
