"""Markup content whose formatting elements make Noah's Ark take an
element outside it off the list of active formatting elements (issue
39): <p><b>1<b>2<b>3<span></span>x<p>y with <b>z</b> appended to the span
leaves two <b> to reconstruct after the second <p> where the input (and
the DOM edit) has three. The markup probe (_markup_kept) reads the open
elements only; such markup is refused (Rewriter._noahs_ark_markup), at
the call."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter import oracle
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

DATA = "<p><b>1<b>2<b>3<span></span>x<p>y"
NOAH = "Noah's Ark"


def _operation(markup, where):
    return (lambda e: getattr(e, where)(markup, html=True),
            lambda el, scripting: oracle._dom_insert_markup(el, where, scripting, markup))


@pytest.fixture
def markup_operations(monkeypatch):
    def install(markup):
        for where in ("append", "before"):
            monkeypatch.setitem(oracle.OPERATIONS, "%s_noah_markup" % where,
                                _operation(markup, where))
        return ["append_noah_markup", "before_noah_markup"]
    return install


@pytest.mark.parametrize("chunk", [None, 1, 6])
@pytest.mark.parametrize("data, markup", [
    (DATA, "<b>z</b>"),
    ("<p><b>1<b>2<span></span>x<p>y", "<b><b>z</b></b>"),
    ("<p><b>1<b>2<b>3<span></span>x<p>y", "<B>z</B>")])
def test_markup_that_takes_an_outer_entry_off_is_refused(data, markup, chunk):
    rw = Rewriter().on("span", element=lambda e: e.append(markup, html=True))
    with pytest.raises(RewriteError, match=NOAH):
        rewrite_in_chunks(data, rw, chunk)


def test_what_it_would_write_reparses_otherwise():
    dom = lexpy.parse(DATA)
    dom.query_selector("span").append(
        *lexpy.parse_fragment("<b>z</b>", "span").child_nodes)
    written = DATA.replace("<span></span>", "<span><b>z</b></span>")
    assert lexpy.dump(lexpy.parse(written)) != lexpy.dump(dom)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", [DATA, "<p><b>1<b>2<span><b>3</span>x<p>y",
                                  "<p><span><b>1<b>2<b>3</span>x<p>y",
                                  "<a href=x><span></span></a>y<p>z"])
@pytest.mark.parametrize("markup", ["<b>z</b>", "<b><b>z</b></b>", "<a>z</a>", "<i>z</i>"])
def test_every_element_reparses_to_the_dom_edit(markup_operations, data, markup, chunked):
    for operation in markup_operations(markup):
        figures = oracle.check(data, False, operation, chunked=chunked)
        assert not figures.mismatches, figures.mismatches[0]


@pytest.mark.parametrize("chunk", [None, 1])
def test_markup_without_an_entry_of_its_names_is_kept(chunk):
    rw = Rewriter().on("span", element=lambda e: e.append("<i>z</i>", html=True))
    assert rewrite_in_chunks(DATA, rw, chunk) == DATA.replace("<span>", "<span><i>z</i>")
    rw = Rewriter().on("span", element=lambda e: e.append("<b>z</b>", html=True))
    assert rewrite_in_chunks("<p><b>1<b>2<span></span>x<p>y", rw, chunk) == \
        "<p><b>1<b>2<span><b>z</b></span>x<p>y"
