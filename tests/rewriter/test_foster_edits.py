"""Edits of foster-parented elements, and of colgroup and frameset content
(issue 39's refusals): the start tag of an element the parser
foster-parents carries its attributes there, and content inside it stays
inside it (it is the current node); text before it, written before its
start tag in the table, is foster-parented right before it when no text of
the input joins it there; markup the parser drops whole inside a
<colgroup> or a <frameset> is a DOM edit that adds nothing. Content next
to a foster-parented element, and an <input>'s attributes (its type decides
whether it is foster-parented), stay refused."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import check

FOSTERED = [
    "<table><span>a</span><tr><td>b</td></tr></table>",
    "<table><select><option>3</select></table>",
    "<table><a>1<td>2</td>3</table>",
    "<table><div>x</table>",
]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("operation", ["set_attribute", "prepend_text", "append_text",
                                       "append_markup", "append_head_markup"])
@pytest.mark.parametrize("data", FOSTERED)
def test_inside_a_fostered_element(data, operation, chunked):
    figures = check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    assert not any("moved this element out of its table" in reason
                   for reason in figures.refused), dict(figures.refused)


def test_the_attribute_goes_on_the_fostered_start_tag():
    rw = Rewriter().on("span", element=lambda e: e.set_attribute("class", "x"))
    assert rewrite("<table><span>a</span></table>", rw) == \
        '<table><span class="x">a</span></table>'


@pytest.mark.parametrize("data", [data for data in FOSTERED if "<a>" not in data])
def test_text_before_a_fostered_element(data):
    # (Not the copy of the <a> the parser reconstructs and fosters at "3":
    # it has no start tag of its own; refused as before.)
    figures = check(data, False, "before_text")
    assert not figures.mismatches, figures.mismatches[0]
    assert not any("moved this element out of its table" in reason
                   for reason in figures.refused), dict(figures.refused)
    rw = Rewriter().on("span", element=lambda e: e.before("X"))
    assert rewrite("<table><span>a</span></table>", rw) == "<table>X<span>a</span></table>"


@pytest.mark.parametrize("data", ["<table> <span>a</span></table>",
                                  "<table>&#32;<span>a</span></table>"])
def test_text_before_it_that_would_join_the_tables_whitespace_is_refused(data):
    # (" X" would be foster-parented whole; the DOM edit leaves " " in the
    # table.)
    rw = Rewriter().on("span", element=lambda e: e.before("X"))
    with pytest.raises(RewriteError, match="foster parenting"):
        rewrite(data, rw)
    assert not check(data, False, "before_text").mismatches


def test_content_next_to_it_and_an_inputs_attributes_stay_refused():
    # (Text after it is written with an end tag the table ignores after
    # it, which keeps the " " in the table: test_part_c_foster_drops.py.)
    rw = Rewriter().on("span", element=lambda e: e.after("<i>X</i>", html=True))
    with pytest.raises(RewriteError, match="foster parenting"):
        rewrite("<table><span>a</span> <tr></table>", rw)
    assert not check("<table><span>a</span> <tr></table>", False, "after_text").mismatches
    rw = Rewriter().on("input", element=lambda e: e.set_attribute("type", "hidden"))
    with pytest.raises(RewriteError, match="foster parenting"):
        rewrite("<table><input></table>", rw)


@pytest.mark.parametrize("data", ["<frameset><frame></frameset>",
                                  "<table><colgroup><col></colgroup></table>",
                                  "<table><colgroup><col></table>"])
@pytest.mark.parametrize("operation", ["append_markup", "append_head_markup"])
def test_markup_dropped_inside_colgroup_and_frameset(data, operation):
    figures = check(data, False, operation)
    assert not figures.mismatches, figures.mismatches[0]
    # (Markup appended to the <table> is foster-parented: no output can
    # express that edit, its own serialization reparses to another tree.)
    assert not any("foster" in reason and "reparses to another tree" not in reason
                   for reason in figures.refused), dict(figures.refused)
    assert figures.accepted


def test_dropped_markup_writes_nothing_and_kept_markup_is_refused():
    rw = Rewriter().on("colgroup", element=lambda e: e.append("<span>M</span>", html=True))
    assert rewrite("<table><colgroup><col></colgroup></table>", rw) == \
        "<table><colgroup><col></colgroup></table>"
    # (A <col> the parser keeps there: refused as before.)
    rw = Rewriter().on("colgroup", element=lambda e: e.append("<col>", html=True))
    with pytest.raises(RewriteError, match="foster-parented"):
        rewrite("<table><colgroup><col></colgroup></table>", rw)
