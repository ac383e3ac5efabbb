"""Content written right after input that ends in an '&' and a run of
letters (issue 39's refusals "the content would join the input before it
into another token"): refused only where the tokenizer would read another
character reference with the content after it (a longer name of the
table, a numeric reference going on), however long the name and however
the input is cut."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check


def _run(data, selector, content, chunk):
    rw = Rewriter().on(selector, element=lambda e: e.append(content))
    raw = data.encode()
    step = chunk or len(raw)
    out = b"".join(rw.feed(raw[i:i + step]) for i in range(0, len(raw), step)) + rw.close()
    return out.decode()


def _text(markup):
    return lexpy.parse(markup).body.text_content


@pytest.mark.parametrize("chunk", [None, 1, 3, 7])
@pytest.mark.parametrize("data, content", [
    ("FOO&gtBAR", "X&<"),                               # '&gt' read, 'BARX' no name
    ("&gtBAR", "X"),                                    # (its '&' the output's first byte)
    ("<p>&CounterClockwiseContourIntegra", "x"),        # no name goes on with 'x'
    ("<p>&am", "x"),
    ("<p>&noti", "n"),                                  # '&notin' is '¬' 'in'
])
def test_content_that_makes_no_longer_reference_is_written(data, content, chunk):
    selector = "p" if data.startswith("<p>") else "body"
    out = _run(data, selector, content, chunk)
    assert out == data + content.replace("&", "&amp;").replace("<", "&lt;")
    assert _text(out) == _text(data) + content


@pytest.mark.parametrize("chunk", [None, 1, 3, 7])
@pytest.mark.parametrize("data, content", [
    # The longest name of the table, its '&' far back in the output.
    ("<p>&CounterClockwiseContourIntegra", "l;"),
    ("<p>&not", "in;"),
    ("<p>&am", "p;"),
    ("<p>x&", "amp;"),
    ("<p>&#12", "3"),
    ("<p>&#x1", "F"),
])
def test_content_that_makes_another_reference_is_refused(data, content, chunk):
    with pytest.raises(RewriteError, match="join the input before it"):
        _run(data, "p", content, chunk)


def test_the_suite_case_keeps_the_dom_edit():
    for chunked in (False, True):
        figures = check("FOO&gtBAR", False, "append_text", chunked=chunked)
        assert not figures.mismatches, figures.mismatches[0]
        assert figures.accepted, figures.refused
        assert not any("join" in reason for reason in figures.refused), figures.refused


def test_the_window_holds_the_longest_name_of_the_table():
    from lexpy.rewriter import _LONGEST_REFERENCE, _JOIN_WINDOW, _references
    assert _LONGEST_REFERENCE == max(len(name) for name in _references())
    assert _JOIN_WINDOW >= 2 * (_LONGEST_REFERENCE + 1)     # '&' and the name, in UTF-16
