"""Markup with a start tag prepended to a template whose contents begin
with a table part (found by the widened markup set of the oracle): the
first start tag in a template decides the insertion mode of its contents,
so `<div>` before `<td>` makes the parser ignore the `<td>`, which the DOM
edit keeps (the start tags "in template" processes as "in head" does, a
<meta>, a <script>, a <template>, leave the mode to the next one). Refused
at the template's end (_template_prepend_end); text, comments, and markup
before other contents are written."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

TABLE_TEMPLATES = ["<table><thead><template><td></template></table>",
                   "<template><tr><td>x</td></tr></template>",
                   "<body><template><col></template>",
                   "<template><caption>c</caption></template>",
                   # (head elements first leave the mode to the table part)
                   "<body><template><template><tr></tr></template><td></td></template>",
                   "<body><template><script>var i = 1;</script><td></td></template>",
                   "<body><template><meta><link><style></style><th></template>"]


def _prepend(markup):
    return lambda element: element.prepend(markup, html=True)


@pytest.mark.parametrize("chunk", [None, 1, 4])
@pytest.mark.parametrize("markup", ["<div>M</div>", "<img>", "<i>M</i>"])
@pytest.mark.parametrize("data", TABLE_TEMPLATES)
def test_refused(data, markup, chunk):
    rw = Rewriter().on("template", element=_prepend(markup))
    with pytest.raises(RewriteError, match="changes the insertion mode"):
        rewrite_in_chunks(data, rw, chunk)


@pytest.mark.parametrize("chunk", [None, 2])
@pytest.mark.parametrize("data,markup", [
    ("<template><td>x</td></template>", "<!--c-->"),
    ("<template><td>x</td></template>", "M&amp;N"),
    ("<template><div>x</div></template>", "<i>M</i>"),
])
def test_written(data, markup, chunk):
    out = rewrite_in_chunks(data, Rewriter().on("template", element=_prepend(markup)), chunk)
    dom = lexpy.parse(data)
    template = dom.query_selector("template")
    template.content.prepend(*lexpy.parse_fragment(markup, "template").child_nodes)
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", TABLE_TEMPLATES)
def test_the_oracle_finds_no_difference(data, chunked):
    for markup in ("<div>M</div>", "<img>", "<i>M</i>", "<td>M", "<!--c-->", "M&amp;N"):
        assert not check(data, True, "prepend_markup " + markup, chunked=chunked).mismatches
