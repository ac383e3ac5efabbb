"""Whitespace from character references at the start of a text token
(issue 39): the tree builder reads characters, so `&#13;`, `&#32;`,
`&Tab;`, ... are whitespace it ignores before <html> and <head> or puts
into the head like the raw bytes: an element the token implied starts
after them (Rewriter._whitespace_end), and a chunk whose characters the
parser ignored that way is text it drops: edits of it are refused
(Rewriter._whitespace_ignored). Found by a random search with
tests/rewriter/oracle.py; judged by it, whole and in chunks."""
import pytest

from tests.rewriter.oracle import check, check_units


@pytest.mark.parametrize("chunked", [False, 1, 7])
@pytest.mark.parametrize("data", ["&#13;x<i>y</i>", "&#32;x", "&#x20&#9;x", " &NewLine;x",
                                  "<head>&#32;x", "<html>&#10;<!--c-->x", "&Tab;<p>x"])
@pytest.mark.parametrize("operation", ["prepend_text", "set_attribute", "append_markup"])
def test_elements_implied_after_whitespace_references(data, operation, chunked):
    figures = check(data, True, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted >= 1


@pytest.mark.parametrize("chunked", [False, 1, 7])
@pytest.mark.parametrize("data", ["\n\x00<p>", "\n\x00<td><p><listing><i>y</i>", " \x00x"])
@pytest.mark.parametrize("operation", ["text after <!--c-->", "text before ' \\t'",
                                       "text replace text"])
def test_edits_of_whitespace_the_parser_ignored(data, operation, chunked):
    figures = check_units(data, True, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
