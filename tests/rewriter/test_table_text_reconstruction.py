"""Formatting elements the parser reconstructs for the pending table
character tokens (Rewriter._first_reconstructed_fostered). Text in a
table is held until the next token, which flushes it: a run with other
than whitespace is inserted as "in body", foster-parented, and the
formatting elements reconstructed for it are made then, before that text,
although the token that flushed it comes after the text
(`<table><nobr><b><table>y<li>`: the copies of nobr and b hold "y"). The
first copy is foster-parented, the ones inside it are not. Tags written at
that token for the copies (an edited original's, an unlisted entry's, an
edited copy's) landed after the text; they are refused now. Each input
gave a reparse other than the DOM edit before (found by a seeded two-edit
search), whole and in chunks."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses, edited
from tests.rewriter.oracle import OPERATIONS
from lexpy.rewriter import RewriteError

INPUTS = [
    "<table><nobr><b><table>y<li>",
    "<table><i><font color=1><table>x<b>",
    "<table><div><nobr></tr></b><div><b><span><table>y<font color=1><li>",
    "</table><b><table><i></tr><font color=1></a><table>x<li><b>",
    "<table><nobr><b><table><i>",
    "<table><b><table>y<li>",
]


@pytest.mark.parametrize("data", INPUTS)
@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@pytest.mark.parametrize("chunked", [False, True])
def test_every_operation_reparses_to_the_dom_edit(data, operation, chunked):
    assert_reparses(data, operation, chunked)


@pytest.mark.parametrize("name, operation", [
    ("b", "remove"), ("b", "set_attribute"), ("nobr", "append_text"),
])
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_copies_made_for_the_table_text_are_refused(name, operation, chunk):
    assert isinstance(edited("<table><nobr><b><table>y<li>", name, operation, chunk),
                      RewriteError)


@pytest.mark.parametrize("data, name, operation", [
    ("<p><nobr><b></p>y<li>", "b", "remove"),       # (no table: made at "y")
    ("<table><nobr><b><table>y<li>", "li", "set_attribute"),
])
def test_near_cases_stay_accepted(data, name, operation):
    assert_accepted(data, name, operation)
