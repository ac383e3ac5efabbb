"""Text chunks against the tree (issue 39): a chunk's text is the
characters its token put into the tree (U+0000 dropped, or U+FFFD in
foreign content, as the tree builder does), and text edits where the
parser reads text in a column group are refused: whitespace written before
the text token that closed a <colgroup> would stay in it, and a template
whose contents are a column group drops the text other than whitespace.
Found by the units set of tests/rewriter/oracle.py with whitespace
contents (check_unit_texts: the chunks against the tree)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check_unit_texts, check_units
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CHUNKS = [None, 1, 7]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data, text", [
    ("<p>a\x00b</p>", "ab"),
    ("<table>a\x00b</table>", "ab"),
    ("<svg>a\x00b</svg>", "a\ufffdb"),
    ("<svg><desc>a\x00b</desc></svg>", "ab"),
    ("<math><mi>a\x00b</mi></math>", "ab"),
    ('<math><annotation-xml encoding="text/html">a\x00b</annotation-xml></math>', "ab"),
    ("<math><annotation-xml>a\x00b</annotation-xml></math>", "a\ufffdb"),
    ("<pre>\x00\nA</pre>", "\nA"),
    ("<textarea>a\x00b</textarea>", "a\ufffdb"),
])
def test_text_chunks_hold_nul_as_the_tree_does(data, text, chunk):
    texts = []
    rewrite_in_chunks(data, Rewriter().on_document(text=lambda t: texts.append(t.text)), chunk)
    assert "".join(texts) == text
    assert not check_unit_texts(data, True).mismatches


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data, edit", [
    ("<table><colgroup>foo", lambda t: t.before(" ")),
    ("<table><colgroup>foo", lambda t: t.replace("\n")),
    ("<body><template><col>Hello", lambda t: t.before("\n")),
    ("<body><template><col>Hello", lambda t: t.after(" ")),
])
def test_text_edits_in_a_column_group_are_refused(data, edit, chunk):
    # (Refused when the chunk is written, after the handler: from feed.)
    with pytest.raises(RewriteError, match="colgroup|column group"):
        rewrite_in_chunks(data, Rewriter().on_document(text=edit), chunk)


@pytest.mark.parametrize("operation", ["text before ' \\t'", "text after '\\n'",
                                       "text replace '\\r'", "text before text"])
def test_the_oracle_accepts_or_refuses_them_without_mismatch(operation):
    for data in ("<table><colgroup>foo", "<body><template><col>Hello",
                 "<table><colgroup> foo</colgroup></table>"):
        for chunked in (False, 1, 7):
            figures = check_units(data, False, operation, chunked=chunked)
            assert not figures.mismatches, figures.mismatches[0]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_near_cases_stay_accepted(chunk):
    # After the colgroup's text (the table's text run): accepted.
    data = "<table><colgroup>foo"
    out = rewrite_in_chunks(data, Rewriter().on_document(text=lambda t: t.after("!")), chunk)
    expected = lexpy.parse("<table><colgroup>foo!")
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(expected)
    # Text that starts with other characters, in its place: accepted.
    out = rewrite_in_chunks(data, Rewriter().on_document(text=lambda t: t.replace("X ")), chunk)
    expected = lexpy.parse("<table><colgroup>X ")
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(expected)
