"""remove_and_keep_content of an ordinary element that was the current node
when a start tag whose handling reads the current node came: without it,
its parent is the current node there, and the start tag may pop it (a
heading pops a heading, an option an option, rt/rp/rb/rtc pop by implied
end tags). Refused (these were accepted, and reparsed to another tree);
the same element around other start tags stays accepted."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

REFUSED = [
    "<h1><span><h2>x</h2></span></h1>",
    "<option><span><option></option></span>",
    "<option><span><option>",
    "<ruby><rb><span><rt>x</span></ruby>",
]


def _unwrap_span(data, chunk=None):
    done = [False]

    def handler(element):
        if not done[0] and element.local_name == "span":
            done[0] = True
            element.remove_and_keep_content()
    return rewrite_in_chunks(data, Rewriter().on("*", element=handler), chunk)


@pytest.mark.parametrize("data", REFUSED)
@pytest.mark.parametrize("chunk", [None, 1, 4])
def test_refused(data, chunk):
    with pytest.raises(RewriteError, match="would close the <"):
        _unwrap_span(data, chunk)


@pytest.mark.parametrize("data", REFUSED + [
    "<p><span><b>x</b></span>",
    "<h1><span><b>x</b></span></h1>",
    "<div><span><h2>x</h2></span></div>",
    "<option><span><b>x</b></span>",
])
def test_oracle(data):
    figures = check(data, False, "remove_and_keep_content")
    assert not figures.mismatches, figures.mismatches[0]


@pytest.mark.parametrize("data, expected", [
    ("<p><span><b>x</b></span>", "<p><b>x</b>"),
    ("<div><span><h2>x</h2></span></div>", "<div><h2>x</h2></div>"),
])
def test_near_cases_accepted(data, expected):
    assert _unwrap_span(data) == expected
    assert _unwrap_span(data, 1) == expected
