"""The hold for a select (Rewriter._hold_for_select) begun where the
select has already ended, and one begun by an edit that is then refused.

An end tag handler of an option runs after the token that pops the
option, and that token may pop the select too: a hold begun then would
wait for a pop that already happened, and every later byte of output
would be held back and lost. A refused before() must leave no hold
behind either, else a later <selectedcontent> fails the whole rewrite."""

import pytest

import lexpy
from lexpy import Rewriter, RewriteError

from tests.rewriter.oracle import _normalized_dump as dom_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _end_tag_before(data, chunk):
    rw = Rewriter().on("option", element=lambda e: e.on_end_tag(lambda t: t.before("X")))
    if chunk is None:
        return lexpy.rewrite(data, rw)
    return rewrite_in_chunks(data, rw, chunk)


def _dom_end_tag_before(data):
    doc = lexpy.parse(data)
    for option in doc.query_selector_all("option"):
        option.append_child(doc.create_text_node("X"))
    return dom_dump(doc)


@pytest.mark.parametrize("data", [
    "<select><option>a</select>tail<p>more</p>",
    "<select><option>a<option>b</select>tail",
    "<select><option>a</option></select>tail",
    "<p>x<select><option>a</select>y",
])
@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_end_tag_content_where_the_select_ends_at_the_same_token(data, chunk):
    out = _end_tag_before(data, chunk)
    assert out.endswith(data[data.index("</select>") + len("</select>"):])
    assert dom_dump(lexpy.parse(out)) == _dom_end_tag_before(data)


def test_a_refused_edit_leaves_no_hold():
    data = ("<select><option><b>x</b></option><option>y</option>"
            "<div><selectedcontent></selectedcontent></div></select>z")
    refused = []

    def edit(e):
        try:
            e.before("<table><tr><td>", html=True)
        except RewriteError as error:
            refused.append(error)

    for chunk in (None, 3):
        rw = Rewriter().on("b", element=edit)
        out = lexpy.rewrite(data, rw) if chunk is None else rewrite_in_chunks(data, rw, chunk)
        assert out == data
    assert len(refused) == 2
