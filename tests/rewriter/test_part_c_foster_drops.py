"""Removals and replaced content around foster parenting (issue 39's
refusals, session 11 part C): an element the parser foster-parents goes
into the parent of its table, before the table. Dropping the source of an
element that holds that table (a div, the body) drops those elements with
it, as the DOM edit does; dropping the table itself or one of its parts
would drop elements that are not theirs, and stays refused."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

HOLDS_THE_TABLE = [
    ("<div><table><b>x</b><tr><td>y</table></div>after", "div"),
    ("<body><table><a>1<p>2</a>3</p></table>z", "body"),
    ("<p>a<section><table><span>s</span><td>c</table></section>b", "section"),
]


@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_removing_an_element_that_holds_the_table(chunk):
    rw = Rewriter().on("div", element=lambda e: e.remove())
    out = rewrite_in_chunks("<div><table><b>x</b><tr><td>y</table></div>after", rw, chunk)
    assert out == "<body>after"


@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_replacing_the_content_of_the_body(chunk):
    rw = Rewriter().on("body", element=lambda e: e.set_inner_content("N"))
    out = rewrite_in_chunks("<body><table><a>1<p>2</a>3</p></table>z", rw, chunk)
    assert out == "<body>N"


def _index(data, name):
    """The index (in the order the parser inserts them) of the first
    element named `name`."""
    names = []
    rewrite(data, Rewriter().on("*", element=lambda e: names.append(e.local_name)))
    return names.index(name)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("operation", ["remove", "set_inner_content"])
@pytest.mark.parametrize("data,name", HOLDS_THE_TABLE)
def test_oracle_accepts_the_holder(data, name, operation, chunked):
    figures = check(data, False, operation, chunked=chunked, indexes=[_index(data, name)])
    assert not figures.mismatches, figures.mismatches[0]
    if (name, operation) == ("body", "remove"):
        return      # (the parser makes a body again: refused for that)
    assert figures.accepted == 1, dict(figures.refused)


@pytest.mark.parametrize("data,name", [
    ("<table><b>x</b><tr><td>y</td></tr></table>", "table"),
    ("<table><tr><b>x</b><td>y</td></tr></table>", "tr"),
    ("<table><tbody><b>x</b><tr><td>y</td></tr></tbody></table>", "tbody"),
])
def test_the_table_and_its_parts_still_refuse(data, name):
    # (The <b> goes before the table: the DOM edit keeps it.)
    rw = Rewriter().on(name, element=lambda e: e.remove())
    with pytest.raises(RewriteError, match="moved content out of it"):
        rewrite(data, rw)
    assert not check(data, False, "remove").mismatches


# Elements of a table (or a section, a row) removed: the text before and
# after them stays two runs of the table's character tokens.
IN_A_TABLE = [
    ("<table> <template>t</template>x</table>", "template"),
    ("<table>x<template></template> </table>", "template"),
    ("<table><tr> <input type=hidden>x<td>c</table>", "input"),
    ("<table><tbody>\n<style>s</style>y</tbody></table>", "style"),
    ("<frameset> <frame>x <frame></frameset>", "frame"),
    ("<table><colgroup> <template></template>x</colgroup></table>", "template"),
]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data,name", IN_A_TABLE)
def test_removing_an_element_of_a_table(data, name, chunked):
    figures = check(data, False, "remove", chunked=chunked, indexes=[_index(data, name)])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted == 1, dict(figures.refused)


@pytest.mark.parametrize("chunk", [None, 1, 4])
def test_the_ignored_end_tag_keeps_the_runs_apart(chunk):
    # (" x" would be foster-parented whole: the DOM edit keeps " " in the
    # table.)
    rw = Rewriter().on("template", element=lambda e: e.remove())
    out = rewrite_in_chunks("<table> <template>t</template>x</table>", rw, chunk)
    assert out == "<table> </col>x</table>"


@pytest.mark.parametrize("data,name,operation,reason", [
    # (unwrapped as its removal when empty only: its content is found at
    # its end, Element._empty_template_unwrap)
    ("<table> <template>t</template>x</table>", "template", "remove_and_keep_content",
     "later end tags differently"),
    ("<table><form></table><form>", "form", "remove", "form element pointer"),
])
def test_what_stays_refused_in_a_table(data, name, operation, reason):
    figures = check(data, False, operation, indexes=[_index(data, name)])
    assert not figures.mismatches
    assert [r for r in figures.refused if reason in r], dict(figures.refused)


# Elements the parser foster-parented (inserted before their table).
FOSTERED = [
    ("<table> <span>a</span> </table>", "span"),
    ("<table>x<div>a</div> <tr><td>c</table>", "div"),
    ("<table><tr><select><option>3</select> y</table>", "select"),
    ("<table> <svg><g/></svg>z</table>", "svg"),
    ("<table><div>a<td>b</table>", "div"),
]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("operation", ["remove", "set_inner_content", "after_text"])
@pytest.mark.parametrize("data,name", FOSTERED)
def test_edits_of_a_fostered_element(data, name, operation, chunked):
    figures = check(data, False, operation, chunked=chunked, indexes=[_index(data, name)])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.accepted == 1, dict(figures.refused)


@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_text_after_a_fostered_element_and_its_removal(chunk):
    rw = Rewriter().on("span", element=lambda e: e.after("T"))
    assert rewrite_in_chunks("<table><span>a</span> </table>", rw, chunk) == \
        "<table><span>a</span>T</col> </table>"
    rw = Rewriter().on("span", element=lambda e: e.remove())
    assert rewrite_in_chunks("<table> <span>a</span>x</table>", rw, chunk) == \
        "<table> </col>x</table>"


@pytest.mark.parametrize("content,html", [(" \n", False), ("<b>M</b>", True)])
def test_what_stays_refused_after_a_fostered_element(content, html):
    # (Whitespace stays in the table; markup is left to the table's modes.)
    rw = Rewriter().on("span", element=lambda e: e.after(content, html=html))
    with pytest.raises(RewriteError, match="out of its table"):
        rewrite("<table><span>a</span></table>", rw)


def test_content_after_its_end_tag_stays_refused():
    rw = Rewriter().on("span", element=lambda e: e.on_end_tag(lambda end: end.after("T")))
    with pytest.raises(RewriteError, match="out of its table"):
        rewrite("<table><span>a</span></table>", rw)
