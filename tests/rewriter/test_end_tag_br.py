"""The <br> a </br> end tag makes (the parser handles it as a <br> start
tag without attributes): its own element, not implied (issue 39's
refusals). A start tag written in place of the end tag makes the same
element at the same point, so its attributes can be set and it can be
removed (the end tag dropped) as a <br> of its own."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter
from tests.rewriter.oracle import check, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CASES = ["<p>a</br>b", "<b>x</br >y</b>", "<head></br><!--c-->",
         "<math></br>x", "<ul><li></BR/>z</ul>"]


@pytest.mark.parametrize("chunk", [None, 1, 3])
@pytest.mark.parametrize("data", CASES)
def test_set_attribute(data, chunk):
    seen = []

    def handler(element):
        seen.append(element)
        assert not element.implied
        element.set_attribute("class", "c")
    out = rewrite_in_chunks(data, Rewriter().on("br", element=handler), chunk)
    dom = lexpy.parse(data)
    dom.query_selector("br").set_attribute("class", "c")
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)
    assert len(seen) == 1


@pytest.mark.parametrize("chunk", [None, 2])
def test_the_output(chunk):
    out = rewrite_in_chunks("<p>a</br>b", Rewriter().on(
        "br", element=lambda e: e.set_attribute("class", "c")), chunk)
    assert out == '<p>a<br class="c">b'
    out = rewrite_in_chunks("<p>a</br>b", Rewriter().on("br", element=lambda e: e.remove()),
                            chunk)
    assert out == "<p>ab"


def test_source_is_the_end_tag():
    sources = []
    rewrite_in_chunks("<p>a</br>b", Rewriter().on(
        "br", element=lambda e: sources.append(e.source)), None)
    assert sources == [(4, 9)]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", CASES + ["</br><frameset>", "<table></br></table>"])
def test_the_oracle_finds_no_difference(data, chunked):
    for operation in ("set_attribute", "remove", "remove_and_keep_content", "rename",
                      "before_text", "after_text"):
        assert not check(data, False, operation, chunked=chunked).mismatches
