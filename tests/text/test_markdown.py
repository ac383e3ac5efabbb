"""lexpy.to_markdown: the CommonMark round trip over the spec's examples
(../shared/text-extraction/commonmark/spec.json): render each example with
markdown-it-py, convert that HTML with to_markdown(parse_fragment(html,
"body")), render the result again, and compare the two renderings as
normalised trees (tests/markdown_normalize.py). One pytest item per example;
the reviewed exceptions (tests/markdown_roundtrip_exceptions.py) are strict
xfails."""
import collections
import json

import pytest
from markdown_it import MarkdownIt

import lexpy

from tests.markdown_normalize import normalize
from tests.markdown_roundtrip_exceptions import EXCEPTIONS
from tests.text.test_inner_text import _data_dir

SPEC = json.loads((_data_dir() / "commonmark" / "spec.json").read_text(encoding="utf-8"))
RENDERER = MarkdownIt("commonmark")


def round_trips(example, raw_html=True):
    html = RENDERER.render(example["markdown"])
    markdown = lexpy.to_markdown(lexpy.parse_fragment(html, "body"), raw_html=raw_html)
    return normalize(html) == normalize(RENDERER.render(markdown))


def _params():
    params = []
    for example in SPEC:
        n = example["example"]
        marks = [pytest.mark.xfail(reason=EXCEPTIONS[n], strict=True)] if n in EXCEPTIONS else []
        params.append(pytest.param(example, id="example-%d" % n, marks=marks))
    return params   # (a list: pytest deprecates a generator of parameters)


@pytest.mark.parametrize("example", _params())
def test_round_trip(example):
    assert round_trips(example)


def test_round_trip_rate_and_misses_by_section():
    assert len(SPEC) == 652
    misses = collections.defaultdict(list)
    for example in SPEC:
        if not round_trips(example):
            misses[example["section"]].append(example["example"])
    passed = len(SPEC) - sum(len(v) for v in misses.values())
    assert passed >= 0.95 * len(SPEC), dict(misses)
    assert sorted(n for v in misses.values() for n in v) == sorted(EXCEPTIONS)


def test_text_mode_round_trip_rate():
    # Without raw HTML (the default) the HTML blocks and raw inline HTML of
    # the spec lose their tags; the rest must still round trip.
    passed = sum(round_trips(example, raw_html=False) for example in SPEC)
    assert passed >= 0.88 * len(SPEC)


def test_markdown_of_a_page_shape():
    doc = lexpy.parse("<h2>T</h2><p>a <em>b</em></p><table><tr><th>x<th>y"
                      "<tr><td>1<td>2|3</table><ol start=3><li>c<li>d</ol>")
    assert lexpy.to_markdown(doc) == (
        "## T\n\na *b*\n\n| x | y |\n| --- | --- |\n| 1 | 2\\|3 |\n\n3. c\n4. d")


def test_bad_arguments():
    with pytest.raises(TypeError, match="node"):
        lexpy.to_markdown("<p>x")
    with pytest.raises(TypeError, match="raw_html"):
        lexpy.to_markdown(lexpy.parse("x"), raw_html=1)
