"""An HTML formatting element that the adoption agency algorithm ends with
a furthest block, its attributes changed or unwrapped (issue 39, session
14): the parser's copies of it are made from its start tag, so a start tag
written with the edited attributes would give them the edit too, and
without its start tag the parser makes no copies. The rewriter writes the
algorithm's first step out (Rewriter._watch_agency_copy): the element's
end tag (none when unwrapped) before the furthest block, a start tag
copying the input's element after the furthest block's; the input's end
tag then closes that copy. Refused where the Noah's Ark clause could
compare the element or the copy written with another of its name, or
where the first step cannot be written (a furthest block that is neither
the element's child nor below a chain of elements the step can write)."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import check, _dom_remove_and_keep
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CHUNKS = [None, 1, 7]


def _edit(name, edit, nth=1):
    """A rewriter applying `edit` to the nth element named `name` (in the
    order the parser inserts them)."""
    seen = []

    def handler(element):
        seen.append(element)
        if len(seen) == nth:
            edit(element)
    return Rewriter().on(name, element=handler)


def _dom_edit(data, name, edit):
    dom = lexpy.parse(data)
    element = dom.query_selector(name)
    if edit is UNWRAP:
        _dom_remove_and_keep(element)
    else:
        edit(element)
    return dom.to_html()


SET = (lambda e: e.set_attribute("data-x", "1"))
REMOVE = (lambda e: e.remove_attribute("class"))
UNWRAP = (lambda e: e.remove_and_keep_content())


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data,name,edit", [
    ("<b>1<p>2</b>3", "b", SET),
    ("<b class=c>1<p>2</b>3</p>4", "b", REMOVE),
    ("<b class=c>1<p>2</b>3</p>4", "b", SET),
    ("<strong>1<div>2<div>3</strong>4</div>5</div>", "strong", SET),
    ("<i>1<span>2<div>3</i>4", "i", SET),
    ("<em>1<u>2<p>3</em>4", "em", SET),
    ("<p><code>1<table><tr><td>2</code>3</table>", "code", SET),
    ("<b>1<p>2</b>3", "b", UNWRAP),
    ("<b class=c>1<i>2<p>3</b>4</p>", "b", UNWRAP),
    ("<!doctype html><a href=x><search>x</a>y", "a", UNWRAP),
    ("<div>0<em>1<div>2</em>3</div>", "em", UNWRAP),
])
def test_the_first_step_is_written_out(data, name, edit, chunk):
    out = rewrite_in_chunks(data, _edit(name, edit), chunk)
    assert lexpy.parse(out).to_html() == _dom_edit(data, name, edit), out


def test_the_copy_written_carries_the_input_attributes():
    out = rewrite_in_chunks("<b class=c>1<p>2</b>3", _edit("b", SET), None)
    assert out == '<b class="c" data-x="1">1</b><p><b class="c">2</b>3'
    out = rewrite_in_chunks("<b class=c>1<p>2</b>3", _edit("b", UNWRAP), None)
    assert out == '<body>1<p><b class="c">2</b>3'


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data,nth", [
    # Another <b> around it or inside it: the Noah's Ark clause compares them.
    ("<b><b>1<p>2</b>3</b>", 1),
    ("<b><b>1<p>2</b>3</b>", 2),
    ("<b>0<i><b>1<p>2</b>3", 2),
    # The furthest block is not its child (a heading's chain is not written).
    ("<b>1<span><h1>2</b>3", 1),
])
@pytest.mark.parametrize("edit", [SET, UNWRAP])
def test_what_cannot_be_written_is_refused(data, nth, edit, chunk):
    with pytest.raises(RewriteError, match="adoption agency algorithm moved this element"):
        rewrite_in_chunks(data, _edit("b", edit, nth), chunk)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_an_a_whose_attributes_changed_is_not_watched(chunk):
    # (Its own end tag ends it quietly: the watch would never end, and
    # every token inside a link rewritten would go through Python.)
    with pytest.raises(RewriteError, match="adoption agency algorithm moved this element"):
        rewrite_in_chunks("<a href=x>1<div>2</a>3", _edit("a", SET), chunk)


@pytest.mark.parametrize("data", [
    "<b>1<p>2</b>3",
    "<a href=x>1<div>2<div>3</a>4</div>5</div>",
    "<b class=c>1<i>2<div>3</b>4</div>",
    "<b><b>1<p>2</b>3</b>",
    "<b>1<span><h1>2</b>3",
    "<p><b>1<p>2</b>3",
])
@pytest.mark.parametrize("operation", ["set_attribute", "remove_and_keep_content"])
@pytest.mark.parametrize("chunked", [False, True])
def test_the_oracle_finds_no_difference(data, operation, chunked):
    figures = check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches
