"""Wrong acceptances found in session 12 by a generator of short documents
in the style of the HTML standard's examples (issue 39), each checked by
the oracle whole and in chunks.

End tags written at the end of input for the elements it closes, when
the input ends inside a comment (`<div>a<!--x`, `<!x`, `<![CDATA[x` in
HTML content: the tokenizer emits the comment at the end of input): the
end tags went right after the input, into the comment's data, and the
content after them outside it (`<div>a<!--x</div>-->X`). What ends the
comment is now written first (_eof_end_tags_join)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

EOF_COMMENTS = ["<div>a<!--x", "<div>a<!--x-", "<div>a<!--x--", "<div>a<!--", "<div>a<!-x",
                "<div>a<!", "<div>a<!--x--!", "<p>a<![CDATA[x", "<div><p>a<!--x",
                "<ul><li>a<!--x", "<p>a<?pi x"]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("operation", ["append_text", "after_text", "rename",
                                       "append_markup", "append_markup <p>M",
                                       "after_markup <!--c-->"])
@pytest.mark.parametrize("data", EOF_COMMENTS)
def test_oracle_finds_no_mismatch(data, operation, chunked):
    figures = check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried


@pytest.mark.parametrize("chunk", [None, 1, 3, 7])
@pytest.mark.parametrize("data", ["<div>a<!--x", "<div>a<!-x", "<div>a<!--x--!"])
def test_append_goes_after_the_comment(data, chunk):
    rw = Rewriter().on("div", element=lambda e: e.append("T"))
    out = rewrite_in_chunks(data, rw, chunk)
    dom = lexpy.parse(data)
    dom.query_selector("div").append("T")
    assert _normalized_dump(lexpy.parse(out)) == _normalized_dump(dom)
    assert out.startswith(data)


@pytest.mark.parametrize("chunk", [None, 1, 3, 7])
def test_rename_ends_after_the_comment(chunk):
    data = "<span>a<!--x"
    rw = Rewriter().on("span", element=lambda e: setattr(e, "tag_name", "abbr"))
    out = rewrite_in_chunks(data, rw, chunk)
    dom = lexpy.parse(out)
    aside = dom.query_selector("abbr")
    assert aside is not None and dom.query_selector("span") is None
    assert [n.node_type for n in aside.child_nodes] == [3, 8]
    assert aside.child_nodes[1].data == "x"
