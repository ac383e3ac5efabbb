"""Content before a <table> written at the table's end
(Element._table_end_before_ok, Rewriter._table_end_close): the parser
foster-parents it there right before the table, after what it fostered
earlier, where the DOM edit puts it; cells, captions, column groups and
fostered elements open at the end get their end tags first. Near cases
(a formatting element open or to reconstruct at the end, a table inside
the cell open at the end of input) stay refused."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses

OPERATIONS = ("before_text", "before_markup")


@pytest.mark.parametrize("data", [
    "<table>x</table>",
    "<!doctype html><table> x </table>",
    "<!doctype html><table><tr> x</table>",
    "<table>A<td>B</td>C</table>",
    "x<table>y",
    "<table><tr><div>x</table>",
    "<table><li><li></table>",
    "<table><select><option>3</select>z</table>",
    "<table><select><option>a</table>",
    "<!doctype html><table>X<tr><td>a<p>b</table>",
    "<!doctype html><table>X<caption>a</table>",
    "<table>X<colgroup></table>",
    "<!doctype html><table>X<tr><td><svg><g>a</table>",
    "<!doctype html><table>X<tr><td><svg><g>a",
    "<!doctype html><table>X<tr><td><math><mi>a",
    "<table><div>x</div><table>",
    "<table><tr><template><td>",
    "<table>x<template><b>y",
])
@pytest.mark.parametrize("operation", OPERATIONS)
def test_fostered_before_accepted(data, operation):
    assert_accepted(data, "table", operation)


@pytest.mark.parametrize("data", [
    "<table><a>1<td>2</td>3</table>",
    "<table><b><tr><td>aaa</td></tr>bbb</table>ccc",
    "<!doctype html><table><td><table><i>a<div>b<b>c</i>d",
    "<!-----><font><div>hello<table>excite!<b>me!<th><i>please!</tr><!--X-->",
])
@pytest.mark.parametrize("operation", OPERATIONS)
def test_refused_at_the_end(data, operation):
    assert_refused(data, "table", operation, "foster-parents it after what it fostered")


@pytest.mark.parametrize("operation", OPERATIONS)
def test_the_input_ending_in_a_cdata_section(operation):
    # ("]]>" goes first, Rewriter._close_eof_cdata, then the cell's end
    # tag and the content.)
    assert_accepted("<table>x<td><svg><![CDATA[a", "table", operation)


@pytest.mark.parametrize("data", [
    "<table><tr><td>a</table>b",
    "<p><table>x</table>y",
    "<table><tr> </tr> </table>",
    "<table><caption><svg><td>x</table>",
    "<table><tr><td><textarea>x",
    "<table><colgroup><template><col>",
])
@pytest.mark.parametrize("operation", OPERATIONS)
def test_reparses(data, operation):
    assert_reparses(data, operation)


# A removed table whose foster-parented content is text alone: that text
# is written in its place (Rewriter._removed_table_text).
@pytest.mark.parametrize("data, nth", [
    ("<table>A<td>B</td>C</table>", 0),
    ("x<table>x", 0),
    ("<pre><table>\nx</table>", 0),
    ("<!doctype html><table> x </table>y", 0),
    ("<table>a&amp;b<tr><td>c</table>", 0),
    ("<table>\x00x</table>", 0),
    ("<p><table>x<!--a--></table>", 0),
    ("<table><td><table>\nx</table>y</table>", 1),
])
def test_removed_keeps_fostered_text(data, nth):
    assert_accepted(data, "table", "remove", nth=nth)


@pytest.mark.parametrize("data", [
    "<table><a>1</table>",
    "<table>x<!--",
    "<table>x<td>y</td><b>z</b></table>",
])
def test_removed_refused(data):
    assert_refused(data, "table", "remove", "moved content out of it")


# A table unwrapped whose source between its tags is text alone: the text
# ends in its place, fostered or not (Rewriter._unwrapped_table_text).
@pytest.mark.parametrize("data", [
    "x<table>x</table>",
    "<div><table> x </table>y</div>",
    "<div><table>a&amp;b\r\nc</table></div>",
    "x<table>x",
    "<p><table>x &amp;y",
])
def test_unwrapped_text(data):
    assert_accepted(data, "table", "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<div><table>x<!--c--></table></div>",
    "<div><table>\x00x</table></div>",
    "<div><table>x<!--",
])
def test_unwrapped_refused(data):
    assert_refused(data, "table", "remove_and_keep_content", "reads otherwise in a table")


# A section or a row removed: the text the parser foster-parented out of it
# is written in its place between </col> tags (Rewriter._removed_table_text).
@pytest.mark.parametrize("data", [
    "<!doctype html><table><tr> x</table>",
    "<table><tr>x</tr> </table>",
    "<table> <tr>x</tr>y</table>",
    "<table><tbody>x<tr><td>y</td>z</tr>w</tbody></table>",
])
@pytest.mark.parametrize("name", ["tbody", "tr"])
def test_removed_part_keeps_fostered_text(data, name):
    assert_accepted(data, name, "remove")


# Two edits: content before the table with an element open above it at
# its end edited too (html 0, head 1, body 2, table 3, then the fostered
# element 4): no end tag is written for an element whose tags were
# dropped, or that got one already (refused or reparsing equal).
@pytest.mark.parametrize("chunked", (False,))
@pytest.mark.parametrize("data", ["<table>x<p>y</table>", "<table>x<li>y", "<table>x<div>y"])
@pytest.mark.parametrize("other", ["remove", "remove_and_keep_content", "rename", "after_text"])
def test_pairs_with_an_open_fostered_element(data, other, chunked):
    from tests.rewriter.oracle import check_pair
    for first, second in (((3, "before_text"), (4, other)), ((4, other), (3, "before_text"))):
        figures = check_pair(data, False, first, second, chunked=chunked)
        assert not figures.mismatches, figures.mismatches[0]


# At the end of input, formatting elements fostered and open get their end
# tags too when the adoption agency algorithm pops them and leaves nothing
# to reconstruct (Rewriter._eof_formatting_ends).
@pytest.mark.parametrize("data", [
    "<table><b>x",
    "<table><b>x<i>y",
    "<b><table><b>x",
    "<table><b>x<div>y",
])
@pytest.mark.parametrize("operation", OPERATIONS)
def test_eof_formatting_accepted(data, operation):
    assert_accepted(data, "table", operation)


@pytest.mark.parametrize("data", ["<table><a>1<td>2</td>3", "<p><b>x</p><table><b>y"])
@pytest.mark.parametrize("operation", OPERATIONS)
def test_eof_formatting_refused(data, operation):
    assert_refused(data, "table", operation, "reconstruct")


# A template in a table, a section or a row unwrapped: with empty contents,
# its removal with </col> in its place (Element._empty_template_unwrap;
# the accepted cases are in test_empty_unwrap.py).
@pytest.mark.parametrize("data", [
    "<table><template><thead></template></table>",
    "<table><template> </template></table>",
])
def test_template_unwrap_refused(data):
    assert_refused(data, "template", "remove_and_keep_content", "later end tags differently")


# A table renamed or unwrapped that the end of input closes, holding only
# whitespace and comments (Rewriter._text_only_end, _empty_table_end).
@pytest.mark.parametrize("data", ["<!doctype html><table>\n", "<div><table> <!--c-->"])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
def test_eof_empty_table(data, operation):
    if data.startswith("<!doctype") and operation == "remove_and_keep_content":
        assert_refused(data, "table", operation, "table parts are implied again")
    else:
        assert_accepted(data, "table", operation)


@pytest.mark.parametrize("data", ["<div><table><!--c", "<div><table> <di"])
def test_eof_empty_table_refused(data):
    assert_refused(data, "table", "rename", "reads otherwise in a table")


# A table holding templates with whitespace alone in them renamed or
# unwrapped (_EMPTY_TABLE_TEMPLATE).
@pytest.mark.parametrize("data", ["<div><table><template id=a></template><!--c--></table></div>",
                                  "<table>   <template> </template></table>"])
def test_template_table_renamed(data):
    assert_accepted(data, "table", "rename")
