"""An edit in a select that holds no <selectedcontent> yet (issue 39): a
<selectedcontent> inserted later in the select gets a copy of the
selected option, which a reparse of the output takes from the edited
option and the DOM edit from the input's. The output from the edit on is
held back while the select is open: a <selectedcontent> that comes
refuses the edit before any of it is written, the select's end releases
it."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter import oracle
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

LATER = ("<select><option>a</option><button><selectedcontent></selectedcontent>"
         "</button><option>b</option></select>")

EDITS = {
    "append": (lambda e: e.append("X"), lambda el: el.append("X")),
    "remove": (lambda e: e.remove(), lambda el: el.remove()),
    "set_inner_content": (lambda e: e.set_inner_content("X"),
                          lambda el: (el.first_child.remove(), el.append("X"))),
}


def _first_option(edit):
    seen = []

    def handler(e):
        if not seen:
            seen.append(e)
            edit(e)
    return handler


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize("name", sorted(EDITS))
def test_an_option_before_a_later_selectedcontent_is_refused(name, chunk):
    rw = Rewriter().on("option", element=_first_option(EDITS[name][0]))
    with pytest.raises(RewriteError, match="selectedcontent"):
        rewrite_in_chunks(LATER, rw, chunk)


@pytest.mark.parametrize("name", sorted(EDITS))
def test_what_it_would_write_reparses_otherwise(name):
    # The reparse copies the edited option; the DOM edit keeps the copy
    # of the input's.
    dom = lexpy.parse(LATER)
    EDITS[name][1](dom.query_selector("option"))
    written = {"append": LATER.replace(">a<", ">aX<"),
               "remove": LATER.replace("<option>a</option>", ""),
               "set_inner_content": LATER.replace(">a<", ">X<")}[name]
    assert lexpy.dump(lexpy.parse(written)) != lexpy.dump(dom)


def test_nothing_of_the_edit_is_written_before_the_refusal():
    # (encoding given: no wait for the <meta> prescan's 1024 bytes)
    rw = Rewriter(encoding="utf-8").on("option", element=_first_option(lambda e: e.append("X")))
    data = ("<p>before</p>" + LATER).encode()
    out = b""
    with pytest.raises(RewriteError):
        for i in range(len(data)):
            out += rw.feed(data[i:i + 1])
    assert b"X" not in out and out.startswith(b"<p>before</p>")


@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_the_anchor_studys_removal_stays_accepted(chunk):
    rw = Rewriter().on("option", element=_first_option(lambda e: e.remove()))
    assert rewrite_in_chunks("<select><option>a<option>b</select>z", rw, chunk) == \
        "<select><option>b</select>z"


def test_the_output_is_held_until_the_select_ends():
    rw = Rewriter(encoding="utf-8").on("option", element=_first_option(lambda e: e.append("X")))
    out = rw.feed(b"<p>1</p>")
    assert out == b"<p>1</p>"
    held = rw.feed(b"<select><option>a</option>") + rw.feed(b"<option>b</option>")
    assert b"option" not in held        # (from where the edit was made)
    out += held + rw.feed(b"</select>z")
    assert out == b"<p>1</p><select><option>aX</option><option>b</option></select>z"
    assert rw.close() == b""


SELECTS = ["<select><option>a</option></select>", "<select><div>d</div><option>a</option></select>"]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("data", SELECTS)
@pytest.mark.parametrize("markup", ["<selectedcontent></selectedcontent>",
                                    "<button><SelectedContent></SelectedContent></button>"])
def test_markup_with_a_selectedcontent_in_a_select_is_refused(monkeypatch, data, markup,
                                                             chunked):
    # The parser copies the selected option into it; the markup's
    # fragment parse (the DOM edit's) leaves it empty.
    refused = 0
    for where in ("before", "append"):
        monkeypatch.setitem(oracle.OPERATIONS, "sc_markup", (
            lambda e, w=where: getattr(e, w)(markup, html=True),
            lambda el, scripting, w=where: oracle._dom_insert_markup(el, w, scripting, markup)))
        figures = oracle.check(data, False, "sc_markup", chunked=chunked)
        assert not figures.mismatches, figures.mismatches[0]
        refused += sum(n for reason, n in figures.refused.items() if "copies the selected option" in reason)
    assert refused >= 2


def test_max_memory_pass_through_writes_the_held_output():
    # (Past max_memory no handler runs again: the output held for the
    # select is written with the rest.)
    rw = Rewriter(encoding="utf-8", max_memory=64 * 1024, max_memory_pass_through=True).on(
        "option", element=_first_option(lambda e: e.append("X")))
    first = rw.feed(b"<select><option>a</option>")
    held = b"<option title='" + b"y" * 100000
    rest = b"'>z</option></select>"
    out = first + rw.feed(held) + rw.feed(rest) + rw.close()
    assert out == b"<select><option>aX</option>" + held + rest


@pytest.mark.parametrize("chunk", [None, 1])
@pytest.mark.parametrize("data", [LATER, "<select><button><selectedcontent></selectedcontent>"
                                         "</button><option>a</option></select>"])
def test_content_at_an_options_end_tag_is_checked_too(data, chunk):
    rw = Rewriter().on("option", element=_first_option(
        lambda e: e.on_end_tag(lambda end: end.before("X"))))
    with pytest.raises(RewriteError, match="selected option"):
        rewrite_in_chunks(data, rw, chunk)


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("operation", ["before_text", "append_text", "remove", "set_inner_content"])
def test_edits_that_leave_the_copy_alone_stay_accepted(operation, chunked):
    # Text outside options, and content dropped with the <selectedcontent>
    # itself, change nothing the parser copies.
    data = "<select><button><selectedcontent></selectedcontent></button><option>X</option></select>"
    figures = oracle.check(data, False, operation, chunked=chunked)
    assert not figures.mismatches, figures.mismatches[0]
    assert not any("comes after it" in reason for reason in figures.refused)
    assert figures.accepted >= 2
