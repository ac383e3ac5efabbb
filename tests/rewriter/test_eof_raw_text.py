"""Input that ends in the text of a raw text or RCDATA element (issue 39's
refusals): content written after it gets the element's end tag first,
where that end tag ends the element there with the same text (in a
script: not in the double-escaped states, checked by parsing). Input that
ends right after a CDATA section's "]]>" takes content after it as is."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import OPERATIONS, check, _normalized_dump

JOIN = "the input ends inside a tag or markup"

ENDS_IN_TEXT = [
    "<!doctype html><script></SC",
    '<script type="data"><!-- foo-<S',
    "<!doctype html><script><",
    "<title>a</tit",
    "<textarea>\nx<",
    "<style>a</style",
    "<p><xmp>a</",
    "FOO<script></scriptx>BAR",
    "FOO<script>'<!-- <sCrIpt>'</script>BAR",      # (escaped again after </script>)
    "<template><template><script>var i",
    "<svg><![CDATA[foo\nbar]]>",
    "<math><![CDATA[]]>",
    "<svg><![CDATA[a]]]>",
]


@pytest.mark.parametrize("data", ENDS_IN_TEXT)
def test_content_after_it_is_written_after_its_end_tag(data):
    for operation in OPERATIONS:
        figures = check(data, False, operation)
        assert not figures.mismatches, figures.mismatches[0]
        assert not any(JOIN in reason for reason in figures.refused), (operation,
                                                                       figures.refused)


@pytest.mark.parametrize("data", ["<script><!--<script>", "<br><script><!--<script>a",
                                  "<p><script><!--<SCRIPT>x</scr"])
@pytest.mark.parametrize("everything", [False, True])
def test_a_double_escaped_script_refuses_content_after_it(data, everything):
    # </script> there continues the script's text: content written after
    # it would join the script (main wrote it so, silently).
    rw = Rewriter().on("body", element=lambda e: e.append("X"))
    if everything:
        rw.on("*", element=lambda e: None)
    with pytest.raises(RewriteError, match="double-escaped"):
        rewrite(data, rw)


@pytest.mark.parametrize("handler_on_script", [False, True])
def test_the_written_end_tag_reparses_to_the_dom_edit(handler_on_script):
    data = "<p>a<script>x<!--y</scr"
    rw = Rewriter().on("p", element=lambda e: e.after("Z"))
    if handler_on_script:
        rw.on("script", element=lambda e: None)
    out = rewrite(data, rw)
    assert out == "<p>a<script>x<!--y</scr</script></p>Z"
    dom = lexpy.parse(data)
    dom.query_selector("p").after("Z")
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)


def test_an_edited_script_text_is_not_checked_from_the_source():
    # A text handler changed the script's text: its source no longer tells
    # the tokenizer's state at the end of the output (an edit could make
    # it double-escaped), so the end tag is not written.
    def text(chunk):
        chunk.replace("b")

    rw = Rewriter().on("script", text=text).on("body", element=lambda e: e.append("X"))
    with pytest.raises(RewriteError, match="cannot tell"):
        rewrite("<script>a", rw)
    rw = Rewriter().on("body", element=lambda e: e.append("X"))
    assert rewrite("<script>a", rw) == "<script>a</script><body>X"


@pytest.mark.parametrize("data", ["<svg><![CDATA[foo", "<svg><![CDATA[", "<svg><![CDATA[a]]"])
def test_content_after_an_unended_cdata_section_ends_it_first(data):
    # (Rewriter._close_eof_cdata: "]]>" ends it with the same text.)
    rw = Rewriter().on("body", element=lambda e: e.append("X"))
    out = rewrite(data, rw)
    assert out.startswith(data + "]]>")
    dom = lexpy.parse(data)
    dom.body.append("X")
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)


def test_a_long_input_is_not_parsed_again_whole():
    # A script no handler matched (its start tag unseen): the whole input
    # is parsed again only up to a bound; past it the rewriter cannot tell.
    rw = Rewriter().on("body", element=lambda e: e.append("X"))
    with pytest.raises(RewriteError, match="cannot tell"):
        rewrite("<p>" + "x" * 70000 + "<script>a", rw)
    rw = Rewriter().on("body", element=lambda e: e.append("X")).on("script", element=repr)
    assert rewrite("<p>" + "x" * 70000 + "<script>a", rw).endswith("<script>a</script></p>X")
