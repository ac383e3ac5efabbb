"""Text appended to an HTML <script> (Rewriter._check_append,
Rewriter._script_append_end): text that would end the script read alone
is refused at the call (issue 39's "invalid content raises before
anything is written"), even where the script's escaped text before it
would make it text (after a `<!--` the escaped states pass over
`<script>...</script>`); text that passes alone is checked again, with no
text handler, at the script's end over the script's source and the
appended text, and refused where the text before it ends in what it
completes ("</scr" + "ipt>", which _check alone did not see)."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.edit_checks import assert_accepted, assert_refused
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

ACCEPTED = [
    '<script type="data"><!--x</script>',
    '<script type="data"><!--\x00</script>',
    "<script><!--<script>a</script>",
    # (double-escaped, back to escaped at its </script>: the input's own
    # end tag ends it from there, after the appended text too)
    "<script><!--<script></script>x</script>",
    # (the end of input ends it: no end tag in the text)
    "<script><!--",
    "<script><!--<script>",
]


@pytest.mark.parametrize("data", ACCEPTED)
def test_markup_appended_to_escaped_script_text_is_refused_at_the_call(data):
    # (Expressible once the script's text is known, but only a refusal at
    # the call lets the handler go on: this one is refused there.)
    assert_refused(data, "script", "append_head_markup", "would end <script> early")


JOINED = [
    # (a '<' before the appended text that passes alone: the script data
    # states read on, text; checked over the whole text at the script's
    # end)
    '<script type="data"><!-- foo-<</script>',
    "<script><",
    "<script><!--<",
    "<script><!--<script --><",
]


@pytest.mark.parametrize("data", JOINED)
@pytest.mark.parametrize("operation", ["append_text", "append_markup"])
def test_text_after_a_less_than_sign_in_a_script(data, operation):
    assert_accepted(data, "script", operation)


ENDED_IN_RAW_TEXT = ["<script><", "<script><!--<", "<script><!--<script </script <",
                     "<style><", "<title><"]


@pytest.mark.parametrize("data, name, operation", [
    (data, name, operation) for data in ENDED_IN_RAW_TEXT
    for name, operation in (("body", "append_text"), ("head", "append_head_markup"))] + [
    ("<textarea><", "body", "append_text")])
def test_content_after_raw_text_the_input_ends_in_with_a_less_than_sign(data, name, operation):
    # (The end tag written first ends the element with the same text,
    # '<' included: checked by Rewriter._eof_raw_end_tag.)
    assert_accepted(data, name, operation)


REFUSED = [
    "<script>a</script>",
    # (back in script data after -->: the appended </script> ends it)
    "<script><!-- a --></script>",
    "<script><!-- a -->",
    # (double-escaped, escaped, then script data again after -->)
    "<script><!-- <script> x </script> --></script>",
]


@pytest.mark.parametrize("data", REFUSED)
def test_markup_that_would_end_the_script_early(data):
    # ("would end <script> early", or at the end of input "would end it")
    assert_refused(data, "script", "append_head_markup", "would end")


@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_text_completing_an_end_tag_begun_before_it(chunk):
    # "</scr" + "ipt>b": passed alone, it made the input's text an end tag.
    rw = Rewriter().on("script", element=lambda e: e.append("ipt>b"))
    with pytest.raises(RewriteError, match="would end <script> early"):
        rewrite_in_chunks("<script>a</scr</script>", rw, chunk)
    rw = Rewriter().on("script", element=lambda e: e.append("ipt"))
    assert rewrite_in_chunks("<script>a</scr</script>", rw, chunk) == \
        "<script>a</scr" + "ipt" + "</script>"


def test_with_a_text_handler_the_check_is_at_once():
    # (A text handler may edit the script's text: not the source's then.)
    rw = Rewriter().on("script", element=lambda e: e.append("</script>"),
                       text=lambda t: None)
    with pytest.raises(RewriteError, match="would end <script> early"):
        rewrite_in_chunks('<script type="data"><!--x</script>', rw, None)
