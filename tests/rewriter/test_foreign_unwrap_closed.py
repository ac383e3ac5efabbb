"""A foreign element unwrapped (remove_and_keep_content) with its parent of
its namespace, closed by a token other than its own end tag
(Rewriter._foreign_unwrap_closed): an ancestor's end tag, an HTML
element's end tag that the insertion mode handles, or a start tag that
breaks out of foreign content pops it with its parent, and pops the same
elements without it. Near cases (the end of input, the adoption agency,
tables, integration points) are refused or reparse equal."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses


@pytest.mark.parametrize("data,name", [
    ("<div><svg><path></div>a", "path"),
    ("<div><svg><path></svg><path>", "path"),
    ("<svg><g><path><circle></circle></g>a", "path"),
    ("<p><svg><g>x</p>y", "g"),
    ("<math><mrow><mfrac>1</math>x", "mfrac"),
])
def test_unwrapped_and_closed_by_another_token(data, name):
    assert_accepted(data, name, "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<!DOCTYPE html>xxx<svg><x><g><a><main><b>",
    "<div><svg><path><foreignObject><p></div>a",
    "<svg><g><path><font color=red>x",
    "<svg><g><path>x<b>y",
    "<svg><g><path>x</svg>y",
    "<a><svg><g><foreignObject><div></a>x",
    "<table><svg><g><path></table>x",
    "<svg><g></svg></g>x",
    "<svg><g><path></G>x",
    "<svg><g><desc><p></g>x</desc>",
    "<math><mrow><mi>x</mrow>y",
    "<svg><g><path></p>x",
    "<svg><g><path></br>x",
    "<div><svg><g>a</span>b</div>",
])
def test_no_accepted_unwrap_reparses_otherwise(data):
    assert_reparses(data, "remove_and_keep_content")
    assert_reparses(data, "remove_and_keep_content", chunked=True)
