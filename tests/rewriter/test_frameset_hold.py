"""A <frameset> the parser takes in the body (issue 39): it takes the body
out of the tree with every element in it, so the DOM edit of any of them
leaves the document as it is. Content an edit writes (text, most start
tags) or drops could set the output's frameset-ok flag to "not ok" or
change what it reads, and the reparse would ignore the <frameset>. An
element handler's edit in the body while the parser's frameset-ok flag is
"ok" holds the output back (Rewriter._frameset_watch) until the flag is
"not ok" in the input (the edits stand), the input ends, or the parser
takes a <frameset>: the output from the hold on is then the input's
bytes (_frameset_rewind). Handlers that edit nothing hold nothing back."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import OPERATIONS, check
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

FLAG = "the frameset-ok flag"

TAKEN = [
    '<input type="hidden"><frameset>',
    "<html>\x00<frameset></frameset>",
    "<svg>\x00</svg><frameset>",
    "<svg><p><frameset>",
    "<!doctype html><div><frameset>",
    "<!doctype html><p> <frameset><frame>",
    "<!doctype html><svg><foreignObject><div> <frameset><frame>",
    "<head><template></template></head><p><frameset>",
]


def _edit(selector, edit):
    return Rewriter().on(selector, element=edit)


@pytest.mark.parametrize("chunk", [None, 1, 3])
@pytest.mark.parametrize("data", TAKEN)
@pytest.mark.parametrize("selector, edit", [
    ("body", lambda e: e.prepend("T")),
    ("body", lambda e: e.append("<b>M</b>", html=True)),
    ("body", lambda e: e.set_attribute("class", "x")),
    ("body", lambda e: e.set_inner_content("T")),
    ("body *", lambda e: e.remove()),
    ("body *", lambda e: e.before("T")),
    ("body *", lambda e: e.after("<img>", html=True)),
])
def test_edits_in_a_body_the_frameset_replaces_give_the_input(data, selector, edit, chunk):
    # (Every element the selector matches is edited: all are in the body.
    # Markup in foreign content is refused for its own reason.)
    try:
        out = rewrite_in_chunks(data, _edit(selector, edit), chunk)
    except RewriteError as error:
        assert FLAG not in str(error) and "foreign" in str(error)
        return
    assert out == data


@pytest.mark.parametrize("data", TAKEN + [
    "<frame></frame></frame><frameset><frame><frameset><frame></frameset><noframes>"
    "</frameset><noframes>",
    "<!doctype html><div></div><frameset>", "<!doctype html><div><frameset></div>"])
def test_every_operation_keeps_the_dom_edit(data):
    for operation in OPERATIONS:
        for chunked in (False, True):
            figures = check(data, False, operation, chunked=chunked)
            assert not figures.mismatches, figures.mismatches[0]
            assert not any(FLAG in reason and "took out of the tree" in reason
                           and "dropped" not in reason and "template" not in data
                           for reason in figures.refused), figures.refused


def test_the_output_is_held_until_the_flag_is_not_ok():
    rw = Rewriter(encoding="utf-8").on("div", element=lambda e: e.append("T"))
    assert rw.feed(b"<div></div>") == b""           # (a <frameset> may come)
    assert rw.feed(b"x<p>") == b"<div>T</div>x<p>"  # ("not ok": the edit stands)
    assert rw.feed(b"<frameset>") == b"<frameset>"
    assert rw.close() == b""


def test_the_output_is_held_until_the_input_ends():
    rw = Rewriter(encoding="utf-8").on("div", element=lambda e: e.append("T"))
    assert rw.feed(b"<div></div> ") == b""
    assert rw.close() == b"<div>T</div> "


def test_a_handler_that_edits_nothing_holds_nothing():
    rw = Rewriter(encoding="utf-8").on("div", element=lambda e: e.get_attribute("id"))
    assert rw.feed(b"<div></div><p>") == b"<div></div><p>"


def test_after_the_frameset_the_hold_is_over():
    rw = Rewriter(encoding="utf-8").on("div", element=lambda e: e.append("T"))
    rw.on("frame", element=lambda e: e.set_attribute("a", "1"))
    out = rw.feed(b"<div></div><frameset><frame>") + rw.close()
    assert out == b'<div></div><frameset><frame a="1">'
    assert lexpy.parse(out.decode()).to_html() == \
        '<html><head></head><frameset><frame a="1"></frameset></html>'


@pytest.mark.parametrize("chunk", [None, 1])
def test_the_edits_stand_where_the_frameset_is_ignored(chunk):
    data = "<div></div>x<frameset>"
    assert rewrite_in_chunks(data, _edit("div", lambda e: e.append("T")), chunk) == \
        "<div>T</div>x<frameset>"


@pytest.mark.parametrize("chunk", [None, 1])
@pytest.mark.parametrize("data, setup", [
    # A text handler's edit may be outside the body (a comment after
    # </body> goes to the html element): no hold, refused as before.
    ("<div> </div><frameset>", lambda rw: rw.on("div", text=lambda t: t.replace("T"))),
    # An edit outside the body (a template in the head): no hold.
    ("<head><template></template></head><p><frameset>",
     lambda rw: rw.on("template", element=lambda e: e.append("T"))),
    # Comments after </body> stay in the tree: with a comment handler no hold.
    ("<div></div></body><!--c--><frameset>",
     lambda rw: rw.on("div", element=lambda e: e.append("T")).on_document(
         comments=lambda c: setattr(c, "text", "d"))),
])
def test_edits_the_hold_cannot_cover_are_refused(data, setup, chunk):
    rw = Rewriter()
    setup(rw)
    with pytest.raises(RewriteError, match=FLAG):
        rewrite_in_chunks(data, rw, chunk)


def test_an_edit_through_a_kept_element_after_its_handlers_is_refused():
    kept = []
    rw = Rewriter().on("div", element=kept.append).on(
        "p", element=lambda e: kept[0].append("T"))
    with pytest.raises(RewriteError, match=FLAG):
        lexpy.rewrite("<div><p></p></div><frameset>", rw)


@pytest.mark.parametrize("encoding", ["utf-8", "windows-1252", "shift_jis", "utf-16le"])
@pytest.mark.parametrize("chunk", [None, 4096, 7])
@pytest.mark.parametrize("end", ["<frameset><frame></frameset>", "x", ""])
def test_a_long_hold_keeps_the_input_it_may_write_again(end, chunk, encoding):
    # Held output longer than the written input the rewriter keeps
    # otherwise (a few KiB): the input from the hold's start stays kept
    # (RewriterCore.input_kept), so a <frameset> the parser takes at the
    # end writes the input's bytes again, whatever the chunking (it wrote
    # a cut of them, and lost the start, when that input was dropped).
    other = "\u65e5" if encoding == "shift_jis" else "\u00e9"     # (not ASCII)
    data = ("<div id=a></div>" + "<span> </span><!--%s-->\n" % other * 3000
            + end).encode(encoding)
    rewriter = Rewriter(encoding=encoding).on("div", element=lambda e: e.append("T"))
    if chunk is None:
        out = rewriter.feed(data) + rewriter.close()
    else:
        out = b"".join(rewriter.feed(data[i:i + chunk]) for i in range(0, len(data), chunk)) \
            + rewriter.close()
    document = lexpy.parse(data, encoding=encoding)
    div = document.query_selector("div")
    if div is not None:
        div.append("T")
    assert lexpy.dump(lexpy.parse(out, encoding=encoding)) == lexpy.dump(document)
    if end.startswith("<frameset>"):
        assert out == data


@pytest.mark.parametrize("chunk", [4096, 7])
@pytest.mark.parametrize("end", ["<frameset><frame></frameset>", "x", ""])
def test_past_max_memory_the_output_held_is_written(end, chunk):
    # With max_memory_pass_through, output held for a <frameset> is not
    # kept on to the end (past max_memory, and every feed returning
    # nothing): it is written, with the edits made before the limit, and
    # the input passes through after it.
    data = ("<div id=a></div>" + "<span></span><!--c-->\n" * 20000 + end).encode()
    rewriter = Rewriter(max_memory=200000, max_memory_pass_through=True).on(
        "div", element=lambda e: e.append("T"))
    out = b""
    for i in range(0, len(data), chunk):
        out += rewriter.feed(data[i:i + chunk])
        assert i + chunk - len(out) < 64 * 1024
    out += rewriter.close()
    assert out == data.replace(b"<div id=a></div>", b"<div id=a>T</div>", 1)
