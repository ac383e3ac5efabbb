"""Special elements renamed (to the oracle's <abbr>) or unwrapped inside a
table cell or a caption (Element._in_cell_content): "in cell" and "in
caption" handle every token as "in body" does, but the table's own tags,
which look only for a cell, a caption or a table in table scope. The
element's name changes nothing there; what "in body" reads of it is
checked as in body. Near cases (in a table section, a row, a template, a
select, foreign content in a table, foster-parented) stay refused."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses


@pytest.mark.parametrize("data,name", [
    ("<table><caption><div>a", "div"),
    ("<table><caption><div>a</caption>b", "div"),
    ("<table><caption><div>a</div>", "div"),
    ("<table><tr><td><div>a</div>b</td></tr></table>", "div"),
    ("<table><tr><td><span><section>a</section></span></table>x", "section"),
    ("<table><tr><th><ul><li>a<li>b</ul></th><td>c</table>", "ul"),
    ("<table><tr><td><h1>a</h1></td></tr></table>", "h1"),
    ("<table><caption><blockquote>a<td>b", "blockquote"),
])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
def test_in_a_cell_or_a_caption(data, name, operation):
    assert_accepted(data, name, operation)


@pytest.mark.parametrize("data", [
    "<table><caption><div>a<table><tr><td><div>b</div></table></div></caption></table>",
    "<table><tr><td><div>a</div><td><p>b<div>c</td></tr></table>",
    "<table><tr><td><b><div>a</b>c</div></td></tr></table>",
    "<table><tr><td><li><div><li>x</div></table>",
    "<table><tr><td><div></td></div>x</table>",
    "<table><tr><td><div></caption></tr>x</table>",
    "<table><tr><td><template><div>a</div></template></table>",
    "<table><tr><td><svg><foreignObject><div>a</div></svg></table>",
    "<table><div>a</div><tr><td>b</table>",
    "<table><tr><td><select><div>a</div></select></table>",
    "<p><table><tr><td><p>a<div>b</div></table>",
])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
def test_no_accepted_edit_reparses_otherwise(data, operation):
    assert_reparses(data, operation)
    assert_reparses(data, operation, chunked=True)
