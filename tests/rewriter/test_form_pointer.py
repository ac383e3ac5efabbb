"""The parser's form element pointer and noscript with scripting on (issue
39's refusals on real pages), checked with the DOM-equivalence oracle on
the element with id="r", whole and in 7-byte chunks:

- content dropped (remove, set_inner_content) is compared by the pointer
  itself: a form opened and closed inside it leaves the pointer as it was;
- where the dropped content leaves the input's pointer set and the
  output's none, a later <form> the parser ignores is written as </form>
  (ignored by the output's parser too), a later </form> makes both none;
- a form unwrapped or renamed: its start tag set the pointer, which its
  own end tag clears; form tags inside it are written the same way;
- a noscript parsed as raw text (scripting on) unwrapped or renamed: its
  text is written escaped, as a script's or a noframes' is."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import check

POINTER = "form element pointer"


def _index_of(data, scripting):
    """The handler index of the element with id="r"."""
    ids = []
    rw = Rewriter(scripting=scripting).on("*", element=lambda e: ids.append(e.get_attribute("id")))
    rewrite(data, rw)
    return ids.index("r")


def _figures(data, operation, scripting):
    index = _index_of(data, scripting)
    whole = check(data, scripting, operation, indexes=[index])
    chunked = check(data, scripting, operation, chunked=True, indexes=[index])
    assert not whole.mismatches, whole.mismatches[0]
    assert not chunked.mismatches, chunked.mismatches[0]
    assert (whole.accepted, whole.refused) == (chunked.accepted, chunked.refused)
    return whole


ACCEPTED = [
    # (input, operations, scripting)
    ('<header id="r"><form><input></form></header><p>x<form>y</form>',
     ("remove", "set_inner_content"), True),
    ('<nav id="r"><form role="search"><input></form></nav><form>a</form>b<form>c',
     ("remove", "set_inner_content"), True),
    # (A void element removed: its start tag pushes and pops it at once,
    # a token the fast paths take.)
    ('<body><form><input id="r"><input></form><form>b</form>', ("remove",), True),
    ('<div id="r"><form><input></div><p>x<form>y</form><form>z</form>',
     ("remove", "set_inner_content"), True),
    ('<div id="r"><form></div><form>a<div>b</div></form>c<form>d',
     ("remove", "set_inner_content"), True),
    ('<div><form id="r">a</div><form>b</form>', ("remove", "remove_and_keep_content", "rename"),
     True),
    ('<div><form id="r">a<p>b</div>c<form>d', ("rename",), True),
    ('<p>a</p><form id="r" action="x"><input><p>b</form><form>c</form>',
     ("remove_and_keep_content", "rename"), True),
    ('<div><form id="r"><form>a</form>b</div><form>c', ("remove_and_keep_content", "rename"),
     True),
    ('<form id="r"><li>a<li>b</form>c', ("remove_and_keep_content", "rename"), True),
    ('<form id="r"><p>a</form>b<form>c', ("remove_and_keep_content", "rename"), True),
    ('<form id="r"><table><tr><td>x</form>y</td></tr></table>z</form>',
     ("remove_and_keep_content",), True),
    ('<p>a<noscript id="r"><b>x</b>&amp;</noscript>b', ("remove_and_keep_content", "rename"),
     True),
    ('<div><noscript id="r"><img src="a.png"></noscript></div>',
     ("remove_and_keep_content", "rename"), True),
    ('<head><noscript id="r"> </noscript></head><p>a', ("remove_and_keep_content",), True),
    # A foreign element whose parent is of its namespace, neither an
    # integration point: its content is read alike without it.
    ('<svg><g><use id="r" href="#x"></use><path/></g></svg>', ("remove_and_keep_content",), True),
    ('<svg><g id="r"><rect></rect><desc>a<b>x</b></desc></g>y</svg>',
     ("remove_and_keep_content",), True),
    ('<math><semantics id="r"><mi>x</mi><annotation>y</annotation></semantics></math>',
     ("remove_and_keep_content",), True),
]


@pytest.mark.parametrize("data,operations,scripting", ACCEPTED)
def test_accepted_and_reparsed_to_the_dom_edit(data, operations, scripting):
    for operation in operations:
        figures = _figures(data, operation, scripting)
        assert figures.accepted == 1, (operation, figures.refused)


REFUSED = [
    # The dropped content nulls the input's pointer (a </form> out of the
    # form's scope) where the output's stays: the later <form> that the
    # input's parser inserts, the output's would ignore.
    ('<form><table><tr><td><div id="r"></form></div></td></tr></table><form>x',
     ("remove", "set_inner_content")),
    # A <form> start tag closes the p that is removed: the pointer before
    # that tag decides (here the input's is none, the output's is set).
    ('<div><form><input></div><p id="r">x<form>y</form><form>z', ("remove",)),
]


@pytest.mark.parametrize("data", [
    '<math><mi><mglyph id="r">x</mglyph></mi></math>',
])
def test_foreign_unwrap_refused_next_to_an_integration_point(data):
    figures = _figures(data, "remove_and_keep_content", True)
    assert figures.accepted == 0 and figures.refused, figures


@pytest.mark.parametrize("data,operations", REFUSED)
def test_refused_where_the_pointers_differ_at_a_form_tag(data, operations):
    for operation in operations:
        figures = _figures(data, operation, True)
        assert figures.accepted == 0 and any(POINTER in reason for reason in figures.refused), \
            (operation, figures.refused)


def test_an_ignored_form_tag_is_written_as_an_end_tag():
    data = '<body><div id="r"><form><input></div><form>a</form>'
    rw = Rewriter().on("div", element=lambda e: e.remove())
    out = rewrite(data, rw)
    assert out == "<body></form>a</form>"
    assert lexpy.parse(out).body.inner_html == "a"


def test_noscript_text_is_written_escaped():
    # Scripting on: its content is text, which stays text without it.
    data = '<p>a<noscript id="r"><b>x</b></noscript>b'
    rw = Rewriter().on("noscript", element=lambda e: e.remove_and_keep_content())
    out = rewrite(data, rw)
    assert lexpy.parse(out).body.text_content == "a<b>x</b>b"
    rw = Rewriter().on("noscript", element=lambda e: setattr(e, "tag_name", "span"))
    out = rewrite(data, rw)
    assert lexpy.parse(out).query_selector("span").text_content == "<b>x</b>"
