"""Text appended at the end of input to a script the input ends in, whose
text holds a whole </script> the parser did not take as its end (double
escaped: `<!-- <script>`): that end tag is the input's own, the written
text does not make it; an end tag the input ends inside, or one the
written text completes, still refuses. Checked with the DOM-equivalence
oracle on the element with id="r", whole and in 7-byte chunks."""
import pytest

from lexpy.rewriter import RewriteError, Rewriter, rewrite

from tests.rewriter.test_form_pointer import _figures


@pytest.mark.parametrize("data", [
    'FOO<script id="r">\'<!-- <sCrIpt>\'</script>BAR',
    'FOO<script id="r"><!-- <script> --</script>x',
    '<script id="r"><!--<script></script>',
])
@pytest.mark.parametrize("operation", ["append_text", "append_markup"])
def test_text_after_a_double_escaped_end_tag_is_written(data, operation):
    figures = _figures(data, operation, False)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0), figures.refused


@pytest.mark.parametrize("data", [
    '<script id="r"><!--</script ',
    '<script id="r"><!--<script </script </script ',
])
def test_an_end_tag_the_input_ends_in_takes_the_text_before_it(data):
    # (The parser drops that tag at the end of input: the text goes before
    # it, tests/rewriter/test_eof_raw_end_tag.py.)
    figures = _figures(data, "append_text", False)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0)


def test_text_that_completes_an_end_tag_still_refuses():
    rw = Rewriter().on("script", element=lambda e: e.append("t>"))
    with pytest.raises(RewriteError, match="would end it"):
        rewrite("<script><!--<script></script></scrip", rw)
