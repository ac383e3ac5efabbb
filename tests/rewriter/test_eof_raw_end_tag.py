"""Input that ends inside an end tag of the raw text or RCDATA element it
ends in (`<script></SCRIPT `: the tokenizer was building that tag and
drops it at the end of input): text appended to the element goes before
that tag, where it continues the element's text (issue 39's refusal "the
text written at the end of input would end it"). In a script it is
refused where it would put the tokenizer in the double-escaped state,
where that tag would be text (checked by parsing the script's source)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import _normalized_dump, check

ENDS_IN_ITS_END_TAG = [
    "<!doctype html><script></SCRIPT ",
    "<!doctype html><script>a</script x=1",
    "<!doctype html><script><!--</script ",
    "<!doctype html><script><!--<script --></script/",
    "<!doctype html><script><!--<script></script></script/",
    "<title>a</title ",
    "<p><textarea>\nx</textarea a=",
    "<style>a</stylE/",
]


def _rewrite(data, fn, chunk=None):
    rw = Rewriter().on("script, title, textarea, style", element=fn)
    encoded = data.encode()
    if chunk is None:
        return (rw.feed(encoded) + rw.close()).decode()
    out = b"".join(rw.feed(encoded[i:i + chunk]) for i in range(0, len(encoded), chunk))
    return (out + rw.close()).decode()


def _dom_append(data, text):
    doc = lexpy.parse(data)
    for name in ("script", "title", "textarea", "style"):
        for element in doc.query_selector_all(name):
            element.append(text)
    return _normalized_dump(doc)


@pytest.mark.parametrize("data", ENDS_IN_ITS_END_TAG)
@pytest.mark.parametrize("chunk", [None, 1, 3])
@pytest.mark.parametrize("text", ['X&<"\u00a0', "-->", "a</b>"])
def test_appended_text_goes_before_the_dropped_end_tag(data, chunk, text):
    out = _rewrite(data, lambda e: e.append(text), chunk)
    assert _normalized_dump(lexpy.parse(out)) == _dom_append(data, text)
    assert out.endswith(data[data.rindex("</"):])     # (the dropped tag last)


@pytest.mark.parametrize("data", ENDS_IN_ITS_END_TAG)
def test_the_oracle_accepts_text_at_its_end(data):
    for operation in ("append_text", "append_markup"):
        figures = check(data, False, operation)
        assert not figures.mismatches, figures.mismatches[0]
        assert figures.accepted and not any("would end it" in reason
                                            for reason in figures.refused), figures.refused


@pytest.mark.parametrize("data", ["<!doctype html><script><!--</script ",
                                  "<!doctype html><script>x<!--a-</script/"])
@pytest.mark.parametrize("chunk", [None, 2])
def test_text_that_makes_the_script_double_escaped_is_refused(data, chunk):
    # (<script> in escaped script data: the dropped </script ...> would then
    # be the script's text.)
    with pytest.raises(RewriteError, match="would end it"):
        _rewrite(data, lambda e: e.append("<script>"), chunk)


@pytest.mark.parametrize("data, text", [("<!doctype html><script>a</scrip</script ", "t "),
                                        ("<title></titl</title ", "e/"),
                                        ("<style>a</STYLE</style ", ">")])
@pytest.mark.parametrize("chunk", [None, 2])
def test_text_that_makes_an_end_tag_with_the_input_is_refused(data, text, chunk):
    # (the text completes an end tag of the element begun by the input's
    # text before it: the element would end early)
    with pytest.raises(RewriteError, match="would end it"):
        _rewrite(data, lambda e: e.append(text), chunk)
